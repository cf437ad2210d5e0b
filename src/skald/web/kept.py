"""Answers a client may keep: compact JSON under an ETag, and a bodiless 304 when the client already has it."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from skald.web.finished import Answer

#: How a finished game's record and replayed positions may be kept by the browser: they never change.
IMMUTABLE = "max-age=31536000, immutable"


def compact(data: Any) -> bytes:
    """JSON as the API sends it."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def kept(request: Request, found: Answer, cache_control: str, headers: dict[str, str] | None = None) -> Response:
    """A kept answer, or a bodiless 304 when the client already has it (its `If-None-Match` names the ETag)."""
    # The seat an answer is for comes from the bearer token or from the session cookie.
    fixed = {"ETag": found.etag, "Cache-Control": cache_control, "Vary": "Authorization, Cookie"}
    wanted = request.headers.get("if-none-match", "")
    if found.etag in [tag.strip() for tag in wanted.split(",")] or wanted.strip() == "*":
        return Response(status_code=304, headers=fixed)
    return Response(found.body, media_type="application/json", headers={**(headers or {}), **fixed})
