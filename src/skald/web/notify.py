"""Hearing other server processes' moves and chat: one connection per process `LISTEN`s on PostgreSQL's channels.

Every process on a PostgreSQL database announces each committed move batch with `NOTIFY` in the transaction that
commits it (`GameStore._announce`): `ORIGIN ID:FROM:TO:A.B.C …`, each game, the versions it moved from and to, and the
actions that took it there (left out when too long: the hearer then reads them from the database). PostgreSQL
delivers it to every listening connection when, and only if, that transaction commits, so no process hears of a
move that was not committed. Each process keeps one dedicated connection listening (not one from the pool: a
listener must stay on its connection) and hands what it hears to its tables, which apply the actions at once
without asking the database, the way it would tell them. A chat message is announced the same way on its own
channel (`ORIGIN ID:SEQ`, see `skald.web.chat`); a table that hears of one reads it from the database.

A listening connection that drops is opened again, waiting longer after each failure (up to half a minute); the
moves and messages announced meanwhile were never heard, so after reconnecting the tables are told to look at the
database once. A connection that has been silent for a while is asked a trivial query, so one dropped without a word (a
network gone quiet) is noticed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import psycopg

from skald.web.store.chat import CHAT_CHANNEL
from skald.web.store.games import MOVES_CHANNEL

LOG = logging.getLogger("skald.web")

#: Seconds without a notification after which the connection is checked with a trivial query.
HEARTBEAT = 15.0
#: Seconds to wait before reconnecting: doubled after each failure from the first, up to the last.
BACKOFF_FIRST = 0.25
BACKOFF_MOST = 30.0
#: The listening connection's name in `pg_stat_activity`.
APPLICATION_NAME = "skald-listen"


#: One game's moves as heard: its id, the version they start from, the version they reach, and the actions (None
#: when the announcement left them out).
Heard = tuple[str, int, int, list[int] | None]


def parse(payload: str, origin: str) -> list[Heard]:
    """The games a payload announces; none for this process's own (its `origin`), and no item that is malformed
    (actions that do not apply are read from the database instead: see `CatchUp.heard`)."""
    sender, _, rest = payload.partition(" ")
    if sender == origin:
        return []
    games: list[Heard] = []
    for item in rest.split():
        fields = item.split(":")
        if len(fields) not in (3, 4) or not fields[0] or not (fields[1].isdigit() and fields[2].isdigit()):
            continue
        start, end = int(fields[1]), int(fields[2])
        actions: list[int] | None = None
        if len(fields) == 4:
            moves = fields[3].split(".") if fields[3] else []
            if all(move.isdigit() for move in moves) and len(moves) == end - start:
                actions = [int(move) for move in moves]
        if end != start:  # going back (`end` below `start`): a seat took steps back there
            games.append((fields[0], start, end, actions if end > start else None))
    return games


def parse_chat(payload: str, origin: str) -> tuple[str, int] | None:
    """The game and message number a chat announcement (`ORIGIN ID:SEQ`) tells of; None for this process's own or a
    malformed one."""
    sender, _, rest = payload.partition(" ")
    game_id, _, seq = rest.partition(":")
    if sender == origin or not game_id or not seq.isdigit():
        return None
    return game_id, int(seq)


class MoveListener:
    """The process's listening connection: hands every other process's announced moves to `heard` and chat messages
    to `chat_heard`, and calls `reconnected` after each reconnection (some may have been missed while it was
    down)."""

    def __init__(
        self,
        url: str,
        origin: str,
        heard: Callable[[list[Heard]], None],
        reconnected: Callable[[], Awaitable[None]],
        chat_heard: Callable[[str, int], None] | None = None,
    ) -> None:
        self.url = url
        self.origin = origin
        self.heard = heard
        self.reconnected = reconnected
        self.chat_heard = chat_heard
        #: Whether the connection is listening now; how many times it was opened again; notifications heard.
        self.listening = False
        self.reconnects = 0
        self.notifications = 0
        self._task: asyncio.Task[None] | None = None
        self._first = asyncio.Event()

    def stats(self) -> dict[str, object]:
        """For the health endpoint: listening or not, reconnections and notifications so far."""
        return {"listening": self.listening, "reconnects": self.reconnects, "notifications": self.notifications}

    async def start(self) -> None:
        """Start listening, returning once the first attempt to connect has succeeded or failed (then it goes on
        trying in the background): a process that answers has heard every move committed since."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        await self._first.wait()

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        """Listen, and after any failure listen again, waiting longer each time."""
        delay = BACKOFF_FIRST
        missed = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.url,
                    autocommit=True,
                    application_name=APPLICATION_NAME,
                    connect_timeout=10,
                    keepalives=1,
                    keepalives_idle=30,
                    keepalives_interval=10,
                    keepalives_count=3,
                ) as connection:
                    await connection.execute(f"LISTEN {MOVES_CHANNEL}")
                    await connection.execute(f"LISTEN {CHAT_CHANNEL}")
                    self.listening = True
                    self._first.set()
                    if missed:
                        self.reconnects += 1
                        LOG.warning("listening for other processes' moves again; every table looks at the database")
                        await self.reconnected()
                    delay = BACKOFF_FIRST
                    await self._listen(connection)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database is unreachable, restarting, or dropped us
                LOG.warning("not listening for other processes' moves (%s); trying again in %.2g s", error, delay)
            self.listening = False
            missed = True
            self._first.set()
            await asyncio.sleep(delay)
            delay = min(BACKOFF_MOST, delay * 2)

    async def _listen(self, connection: psycopg.AsyncConnection[object]) -> None:
        """Hand on every notification until the connection fails; check it with a query when it has been quiet."""
        while True:
            async for notice in connection.notifies(timeout=HEARTBEAT):
                self.notifications += 1
                if notice.channel == CHAT_CHANNEL:
                    message = parse_chat(notice.payload, self.origin)
                    if message is not None and self.chat_heard is not None:
                        self.chat_heard(*message)
                    continue
                games = parse(notice.payload, self.origin)
                if games:
                    self.heard(games)
            await connection.execute("SELECT 1")
