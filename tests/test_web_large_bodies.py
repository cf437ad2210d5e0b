"""A body over the size limit is refused 413 with a JSON message naming the limit, however it arrives (in the same
packet as the headers included); headers over theirs are refused 431, also naming it."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from skald.web.settings import MAX_BODY
from web_support import running


def exchange(port: int, request: bytes) -> bytes:
    """Send `request` in one write over a fresh connection and read the whole answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("path", ["/api/games", "/api/games/nothing/moves", "/api/games/nothing/rematch"])
def test_a_100_kb_body_is_refused_413_naming_the_limit(tmp_path: Path, path: str) -> None:
    body = b'{"seats": [' + b" " * 100_000 + b"]}"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        answer = exchange(server.port, head + body)
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.startswith(b"HTTP/1.1 413"), status_line
    error = json.loads(rest.partition(b"\r\n\r\n")[2])["error"]
    assert error["code"] == "too_large" and str(MAX_BODY) in error["message"]


def test_headers_over_their_limit_are_refused_431_naming_it(tmp_path: Path) -> None:
    request = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n"
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        answer = exchange(server.port, request)
    assert answer.startswith(b"HTTP/1.1 431")
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"] == "headers_too_large"
