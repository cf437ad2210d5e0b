"""The table chat: short messages from the seats and, when the game's creator allowed it, from its spectators.

Messages are kept in the database beside the game (`chat_messages`), numbered from 1 in the order they were written,
and never enter the game's record: they are downloaded apart (`GET /api/games/{id}/chat`). A game keeps its latest
`CHAT_MESSAGES` (2,000): an older message ages out as a new one comes, so a chat is never full and a seat can always
speak. A message is plain text (the page shows it as text, never as HTML), 1–`CHAT_LENGTH` characters once trimmed,
with no control, format or separator character but line breaks (nothing that hides text or turns it around, as in
seat names). Every server process on a PostgreSQL database hears of every message (`NOTIFY skald_chat`) and tells its
own clients, as it does for moves.

How fast one may write is kept per writer, not per connection, so reconnecting buys nothing: each seat of a game has
its allowance, each spectator address at a table its own, each address across every table one more, and a table's
spectators together one that leaves the seats the floor (`ChatLimits`).
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from collections.abc import Iterable
from typing import Any

from skald.web.client import Client
from skald.web.errors import TableError
from skald.web.guard import CLIENT_ADDRESS, ClientAddresses
from skald.web.names import hidden
from skald.web.ratelimit import RateLimiter
from skald.web.store.chat import ChatStore
from skald.web.store.schema import CHAT_LENGTH, CHAT_MESSAGES, ChatRow

#: The latest messages a table keeps in memory and sends to a client that joins.
HISTORY = 200
#: The name shown for a spectator's message.
SPECTATOR = "Spectator"


def clean(text: Any) -> str:
    """The message `text` trimmed, or a `TableError` naming what is wrong with it."""
    if not isinstance(text, str):
        raise TableError("text", "text: expected the message as a string")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TableError("text", "text: not valid Unicode (a lone surrogate)") from None
    message: str = text.strip()
    if not message:
        raise TableError("text", "text: the message is empty")
    if len(message) > CHAT_LENGTH:
        raise TableError("text", f"text: at most {CHAT_LENGTH} characters (this message has {len(message)})")
    if any(unicodedata.category(char) == "Cc" and char != "\n" for char in message):
        raise TableError("text", "text: control characters are not allowed (line breaks are)")
    char = hidden(message, "\n")
    if char is not None:
        raise TableError(
            "text",
            f"text: U+{ord(char):04X} is an invisible or format character (a zero-width space, a direction override, "
            "a line separator); write plain text",
        )
    return message


class ChatLimits:
    """How fast each writer may talk, across all his connections: a seat of a game, a spectator address at a table,
    a spectator address across every table, and a table's spectators together. A seat is held only to its own
    allowance, so nobody else's messages ever silence it."""

    def __init__(self) -> None:
        #: A message every two seconds after a burst of five, for each seat of a game and each spectator address at
        #: a table: a conversation, not a flood.
        self.writers = RateLimiter(0.5, 5.0)
        #: One spectator address across every table it watches.
        self.addresses = RateLimiter(1.0, 10.0)
        #: All the spectators of one table together (many addresses cannot bury the seats' words).
        self.spectators = RateLimiter(2.0, 20.0)

    def check(self, game_id: str, seat: int | None, address: str | None) -> None:
        """Refuse a message written faster than its writer's allowance (`rate_limited`)."""
        if seat is not None:
            if not self.writers.allow(f"{game_id}:{seat}"):
                raise TableError("rate_limited", "too many 'chat' messages from this seat; slow down", 429)
            return
        key = ClientAddresses.key(address or "?")
        if not self.addresses.allow(key) or not self.writers.allow(f"{game_id}:{key}"):
            raise TableError("rate_limited", "too many 'chat' messages from this address; slow down", 429)
        if not self.spectators.allow(game_id):
            raise TableError("rate_limited", "too many 'chat' messages from the spectators; wait a moment", 429)


#: The limits of every table's chat in this process (each process keeps its own, as for every limit).
LIMITS = ChatLimits()


def as_json(row: ChatRow) -> dict[str, Any]:
    """A message as clients and downloads see it."""
    return {"seq": row.seq, "seat": row.seat, "name": row.name, "text": row.text, "at": row.created_at.isoformat()}


class TableChat:
    """One table's chat as this process knows it: who may take part, and its latest messages (read from the
    database when first needed, then kept up to date by this process's messages and those it hears of)."""

    def __init__(self, game_id: str, spectators: bool) -> None:
        self.game_id = game_id
        #: Whether spectators may read and write (seats always may).
        self.spectators = spectators
        #: The latest messages, oldest first (None until read); the number of the last one.
        self.messages: list[dict[str, Any]] | None = None
        self.last = 0
        self.lock = asyncio.Lock()

    def may_read(self, seat: int | None) -> bool:
        """Whether the viewer `seat` (None: a spectator) takes part in this chat."""
        return seat is not None or self.spectators

    def check_writer(self, seat: int | None) -> None:
        """Refuse a spectator's message where spectators do not take part."""
        if not self.may_read(seat):
            raise TableError(
                "chat_closed",
                "chat: only the seats talk at this table (its creator did not open the chat to spectators)",
                403,
            )

    async def history(self, store: ChatStore) -> list[dict[str, Any]]:
        """The latest messages (reading them first if this process has not yet)."""
        async with self.lock:
            if self.messages is None:
                await self._read(store)
            assert self.messages is not None
            return list(self.messages)

    async def say(self, store: ChatStore, seat: int | None, name: str, text: str, clients: Iterable[Client]) -> None:
        """Store a message (refused if its writer is past his allowance), then tell every client that takes part of
        it (and of any message another process stored meanwhile, in order)."""
        self.check_writer(seat)
        text = clean(text)
        LIMITS.check(self.game_id, seat, CLIENT_ADDRESS.get())
        try:
            await asyncio.to_thread(store.say, self.game_id, seat, name, text, CHAT_MESSAGES)
        except KeyError:
            raise TableError("not_found", f"no game {self.game_id!r} here", 404) from None
        await self.catch_up(store, clients)

    async def catch_up(self, store: ChatStore, clients: Iterable[Client]) -> None:
        """Read the messages after the last one known and tell every client that takes part of them."""
        async with self.lock:
            if self.messages is None:  # no client here has joined the chat yet: each gets the history when it does
                await self._read(store)
                return
            fresh = await self._read(store)
            if not fresh:
                return
            text = json.dumps({"type": "chat", "messages": fresh})
            for client in list(clients):
                if self.may_read(client.seat):
                    client.push(text)

    async def _read(self, store: ChatStore) -> list[dict[str, Any]]:
        """Read the messages after the last one known (the latest `HISTORY` at first), keep them, and return them
        (under the lock)."""
        if self.messages is None:
            rows = await asyncio.to_thread(store.tail, self.game_id, HISTORY)
            self.messages = []
        else:
            rows = await asyncio.to_thread(store.after, self.game_id, self.last)
        fresh = [as_json(row) for row in rows]
        if fresh:
            self.last = fresh[-1]["seq"]
            self.messages = (self.messages + fresh)[-HISTORY:]
        return fresh
