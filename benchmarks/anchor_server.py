"""The anchor of `bench_web.py --anchor`: a table server on Skald's stack without any game, what a move costs at least.

Run: python benchmarks/anchor_server.py --port 8762 --db /tmp/anchor.db

uvicorn with Skald's WebSocket protocol (`skald.web.deflate`: only messages of 1 KB or more compressed), a
Starlette WebSocket route, and an SQLite file in WAL mode with `synchronous=FULL` written through Skald's group
commit (`skald.web.groupcommit`). A seat connects to `/ws/GAME?seat=S&players=P` and is told
`{"type": "welcome", "seat", "version", "to_move"}`. It sends `{"type": "move", "version": V, "action": A,
"update": U, "pad": "…"}` (padded to the size of Skald's moves); when V is the game's version the move is committed
(the game's version bumped, the move inserted, one transaction a batch as Skald does) and every seat of the game is
sent `{"type": "update", "version": V + 1, "to_move", "seat", "action", "pad": "…"}` padded to exactly U bytes, the
size of Skald's updates. The next seat in turn is to move. No rule is checked and nothing is drawn: whatever Skald
spends beyond this is the game and the table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from skald.web.deflate import WebSocketProtocol
from skald.web.groupcommit import GroupCommit, Outcome

#: One move to commit: the game, the version it was made at, the seat and its action.
Move = tuple[str, int, int, int]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, updated_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS moves (game_id TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL, "
    "action INTEGER NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (game_id, ply))",
)


def connect_db(path: str) -> sqlite3.Connection:
    """The SQLite file as Skald opens it: WAL journal, a sync to disk at every commit."""
    connection = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    for statement in SCHEMA:
        connection.execute(statement)
    return connection


class Store:
    """The moves table, written a batch a transaction in two or three statements (as Skald's `append_many`)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None
        self._guard = threading.Lock()

    def write(self, batch: list[Move]) -> Sequence[Outcome]:
        """Commit `batch` in one transaction: each game created at its first move, else its version bumped."""
        with self._guard:
            if self._connection is None:
                self._connection = connect_db(self.path)
            db = self._connection
            stamp = datetime.now(UTC).isoformat()
            first = [move for move in batch if move[1] == 0]
            later = [move for move in batch if move[1] != 0]
            db.execute("BEGIN IMMEDIATE")
            try:
                if first:
                    marks = ", ".join(["(?, 1, ?)"] * len(first))
                    db.execute(f"INSERT INTO games VALUES {marks}", [v for m in first for v in (m[0], stamp)])
                if later:
                    marks = ", ".join("?" * len(later))
                    bumped = db.execute(
                        f"UPDATE games SET version = version + 1, updated_at = ? WHERE id IN ({marks})",
                        [stamp, *(m[0] for m in later)],
                    ).rowcount
                    if bumped != len(later):
                        raise RuntimeError(f"{len(later) - bumped} games of the batch are missing")
                marks = ", ".join(["(?, ?, ?, ?, ?)"] * len(batch))
                db.execute(f"INSERT INTO moves VALUES {marks}", [v for m in batch for v in (*m, stamp)])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return [None] * len(batch)


@dataclass
class Game:
    """A game in memory: its version, whose turn it is, and the connected seats."""

    players: int
    version: int = 0
    to_move: int = 0
    seats: dict[int, WebSocket] = field(default_factory=dict)


def padded(body: dict[str, Any], size: int) -> str:
    """`body` as compact JSON with a `pad` string making it `size` characters (or as short as it can be)."""
    body["pad"] = ""
    text = json.dumps(body, separators=(",", ":"))
    body["pad"] = "x" * max(0, size - len(text))
    return json.dumps(body, separators=(",", ":"))


def create_app(db: str) -> Starlette:
    """The anchor's application on the SQLite file `db`."""
    games: dict[str, Game] = {}
    commits: GroupCommit[Move] = GroupCommit(Store(db).write, name="anchor-commit")
    connect_db(db).close()  # the schema exists before the first request

    async def health(_request: Request) -> PlainTextResponse:
        """Answers once the server is up."""
        return PlainTextResponse("ok")

    async def move(game: Game, game_id: str, seat: int, data: dict[str, Any]) -> str | None:
        """Commit a move and tell every seat; an error message instead when it is not for the game's version."""
        version = data.get("version")
        if version != game.version or seat != game.to_move:
            return json.dumps({"type": "error", "code": "stale", "version": game.version})
        action = int(data.get("action", 0))
        game.version += 1  # taken before the commit so that a second move for this version is stale
        game.to_move = (seat + 1) % game.players
        await commits.submit((game_id, version, seat, action))
        text = padded(
            {"type": "update", "version": version + 1, "to_move": game.to_move, "seat": seat, "action": action},
            int(data.get("update", 0)),
        )
        for socket in list(game.seats.values()):
            try:
                await socket.send_text(text)
            except (WebSocketDisconnect, RuntimeError):
                continue  # that seat has left
        return None

    async def table(websocket: WebSocket) -> None:
        """One seat's connection: welcomed, then each of its moves committed and told to every seat."""
        game_id = websocket.path_params["game_id"]
        seat = int(websocket.query_params.get("seat", "0"))
        game = games.setdefault(game_id, Game(players=int(websocket.query_params.get("players", "2"))))
        await websocket.accept()
        game.seats[seat] = websocket
        await websocket.send_text(
            json.dumps({"type": "welcome", "seat": seat, "version": game.version, "to_move": game.to_move})
        )
        try:
            while True:
                data = json.loads(await websocket.receive_text())
                if data.get("type") == "move":
                    refused = await move(game, game_id, seat, data)
                    if refused is not None:
                        await websocket.send_text(refused)
        except WebSocketDisconnect:
            pass
        finally:
            game.seats.pop(seat, None)
            if not game.seats:
                games.pop(game_id, None)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        """Close the group commit when the server stops."""
        yield
        await commits.close()

    return Starlette(routes=[Route("/health", health), WebSocketRoute("/ws/{game_id}", table)], lifespan=lifespan)


def main() -> None:
    """Serve the anchor until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8762)
    parser.add_argument("--db", required=True, help="the SQLite file (created if missing)")
    args = parser.parse_args()
    config = uvicorn.Config(
        create_app(args.db),
        host=args.host,
        port=args.port,
        ws=WebSocketProtocol,
        log_level="warning",
        server_header=False,
        ws_max_size=8192,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
