"""Fairness between WebSocket sessions over real sockets against a real server: clients flooding `view` requests
(a full view and board each, tens of KB) from many connections of one address never hold back another client.

Each session answers one message, then lets the other sessions have their turn; one address's full views are
counted across all its connections. So a newcomer is welcomed while the flood is still being refused, and the full
views the flood was answered with are bounded by its address's allowance however many connections it opens.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from test_web_api import Socket
from web_support import Server, running

#: Flooding connections, and the views each sends at once without reading.
FLOODERS = 10
VIEWS = 200
#: One address's full views over the WebSocket: a burst of 20, then 4 a second (`Limits.views`).
BURST, RATE = 20, 4.0


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


def received(conn: ClientConnection) -> list[dict[str, object]]:
    """Every message `conn` receives until the server closes it (or it goes quiet)."""
    messages = []
    while True:
        try:
            messages.append(json.loads(conn.recv(timeout=30)))
        except (ConnectionClosed, TimeoutError):
            return messages


def test_a_view_flood_from_many_connections_neither_holds_back_a_newcomer_nor_gets_more_than_its_allowance(
    server: Server,
) -> None:
    seats = [{"kind": "human", "name": name} for name in ("Ann", "Bo", "Cy", "Di")]
    game = server.create(seats, game="vikingatid")
    started = time.monotonic()
    flooders = []
    for _ in range(FLOODERS):
        conn = connect(f"{server.ws}/ws/{game['id']}", max_size=None, open_timeout=30)
        conn.send(json.dumps({"type": "hello", "svg": True}))
        try:
            for _ in range(VIEWS):
                conn.send(json.dumps({"type": "view"}))
        except ConnectionClosed:  # the server closes a connection that keeps asking past its refusals (1008)
            pass
        flooders.append(conn)
    newcomer = Socket(server, game["id"], game["invites"][0]["token"])  # welcomed, with its full view
    assert newcomer.welcome["type"] == "welcome" and newcomer.welcome["you"] == 0 and newcomer.view["svg"] is not None
    newcomer.send({"type": "ping", "ref": "here"})
    assert newcomer.until(lambda m: m["type"] == "pong")["ref"] == "here"
    answered = [received(conn) for conn in flooders]
    elapsed = time.monotonic() - started
    views = sum(1 for messages in answered for m in messages if m["type"] == "update") - FLOODERS  # less welcomes
    refusals = [m for messages in answered for m in messages if m["type"] == "error"]
    assert refusals and all(m["code"] == "rate_limited" for m in refusals)
    assert views <= BURST + math.ceil(RATE * elapsed), (views, elapsed)
    newcomer.close()
