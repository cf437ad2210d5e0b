"""Reading a request's JSON body: bounded in size, time and depth before it is parsed, then checked against its
model."""

from __future__ import annotations

import asyncio
import json
from typing import Any, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from skald.web.errors import TableError
from skald.web.settings import MAX_BODY

Model = TypeVar("Model", bound=BaseModel)


async def read_json(request: Request, timeout: float) -> Any:
    """The request body as JSON, at most MAX_BODY bytes, read within `timeout` seconds (a body trickled in a byte
    at a time would otherwise hold the connection for ever)."""
    body = b""
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise TableError("too_large", f"request body larger than {MAX_BODY} bytes", 413)
    except TimeoutError:
        raise TableError("timeout", f"body: not received within {timeout:g} s", 408) from None
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TableError("malformed", f"body: not JSON ({error})") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, or arrays nested thousands deep
        raise TableError("malformed", "body: numbers too long or nesting too deep") from None


def validation_message(error: ValidationError) -> str:
    """The first validation problem, as `field.path: message`."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


def checked(model: type[Model], data: Any) -> Model:
    """`data` read as `model`, or refused (400) naming the first field at fault."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise TableError("invalid", validation_message(error)) from None


async def read_body(request: Request, model: type[Model], timeout: float) -> Model:
    """The request body read as `model` (see `read_json` and `checked`)."""
    return checked(model, await read_json(request, timeout))
