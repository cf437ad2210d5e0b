"""How a refused request is answered: the server's own `{"error": {"code", "message"}}` body, never an echo of
what was sent."""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from skald.web.deps import address
from skald.web.errors import TableError
from skald.web.guard import SecurityLog


def error_response(error: TableError) -> JSONResponse:
    """A refused request as JSON."""
    return JSONResponse({"error": error.to_json()}, status_code=error.status)


async def table_error(request: Request, error: TableError) -> JSONResponse:
    """A `TableError` raised by a route, answered; a refusal that may be an attack is logged first."""
    if error.status in (403, 429) or error.code in ("forged_token", "timeout"):
        log: SecurityLog = request.app.state.security_log
        log.event(error.code, address(request), f"{request.method} {request.url.path}")
    return error_response(error)


async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    """A path or query parameter FastAPI could not read, answered as the server's own 400."""
    # Say which field and why, never echo what was sent (FastAPI's own answer repeats the input).
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"] if part not in ("path", "query", "body")) or "request"
    return error_response(TableError("invalid", f"{where}: {first['msg']}"))
