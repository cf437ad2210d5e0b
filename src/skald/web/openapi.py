"""The HTTP API's OpenAPI schema as reviewed, rather than as FastAPI infers it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from skald import __version__
from skald.web.accounts import AccountIn, NewPasswordIn, PasswordIn, SignOutIn
from skald.web.idempotency import MAX_IDEMPOTENCY_KEY
from skald.web.mail import MailIn
from skald.web.schemas import CreateIn, DrawIn, ErrorOut, JoinIn, MoveIn, StartIn, WhyIn

#: The JSON body each endpoint reads itself (bounded in size, time and depth before it is parsed, so FastAPI never
#: sees it): declared in the schema by hand.
BODIES: dict[tuple[str, str], type[BaseModel]] = {
    ("post", "/api/games"): CreateIn,
    ("post", "/api/games/{game_id}/moves"): MoveIn,
    ("post", "/api/games/{game_id}/why"): WhyIn,
    ("post", "/api/games/{game_id}/draw"): DrawIn,
    ("post", "/api/games/{game_id}/join"): JoinIn,
    ("post", "/api/games/{game_id}/start"): StartIn,
    ("post", "/api/accounts"): AccountIn,
    ("post", "/api/session"): AccountIn,
    ("delete", "/api/session"): SignOutIn,
    ("post", "/api/account/password"): NewPasswordIn,
    ("delete", "/api/account"): PasswordIn,
    ("post", "/api/account/mail"): MailIn,
}
#: What every refusal is declared as.
REFUSED = {
    "description": "Refused: the body names the field at fault and why",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
}
#: The creation's optional header.
IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
    "description": "A repeat with the same key and body within 24 hours gets the same game and tokens; "
    "with another body, 422.",
}


def reviewed_openapi(app: FastAPI) -> dict[str, Any]:
    """The API's OpenAPI schema, as reviewed rather than as FastAPI infers it: the pages and the WebSocket are left
    out, the request bodies the endpoints read themselves are declared, and every refusal is the server's own
    `{"error": {"code", "message"}}` (FastAPI's 422 validation answer is never sent: the server answers 400)."""
    schema = get_openapi(
        title="Skald",
        version=__version__,
        description=(
            "The web table's HTTP API (the live table speaks over the WebSocket /ws/{game_id}; see docs/web.md). "
            "A seat acts with its token as `Authorization: Bearer TOKEN`. A refusal names the field and the reason."
        ),
        routes=app.routes,
    )
    paths = {path: item for path, item in schema.get("paths", {}).items() if path.startswith("/api/")}
    components = schema.setdefault("components", {})
    declare_models(components.setdefault("schemas", {}))
    for path, item in paths.items():
        for method, operation in item.items():
            declare_operation(operation, BODIES.get((method, path)))
    creation = paths["/api/games"]["post"]
    creation["responses"]["201"] = creation["responses"].pop("200")  # a creation answers 201 Created
    creation["parameters"] = [IDEMPOTENCY_HEADER]
    schema["paths"] = paths
    components["securitySchemes"] = {"seatToken": {"type": "http", "scheme": "bearer"}}
    return schema


def declare_models(models: dict[str, Any]) -> None:
    """Put the bodies the endpoints read themselves and the refusal among the schema's models, without FastAPI's
    validation answers (never sent)."""
    for name in ("HTTPValidationError", "ValidationError"):
        models.pop(name, None)
    bodies: list[type[BaseModel]] = [ErrorOut, *BODIES.values()]
    for model in bodies:
        found = model.model_json_schema(ref_template="#/components/schemas/{model}")
        models.update(found.pop("$defs", {}))
        models[model.__name__] = found


def declare_operation(operation: dict[str, Any], body: type[BaseModel] | None) -> None:
    """Declare an operation's refusals as the server sends them, and the body it reads itself, if any."""
    responses = operation.setdefault("responses", {})
    responses.pop("422", None)
    responses["4XX"] = REFUSED
    if body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body.__name__}"}}},
        }
