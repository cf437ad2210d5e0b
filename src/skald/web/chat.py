"""The table chat: short messages from the seats and, when the game's creator allowed it, from its spectators.

Messages are kept in the database beside the game (`chat_messages`), numbered from 1 in the order they were written,
and never enter the game's record: they are downloaded apart (`GET /api/games/{id}/chat`); a game keeps at most
`CHAT_MESSAGES` (2,000), after which its chat is full. A message is plain text
(the page shows it as text, never as HTML), 1–`CHAT_LENGTH` characters once trimmed, with no control characters but
line breaks. Every server process on a PostgreSQL database hears of every message (`NOTIFY skald_chat`) and tells
its own clients, as it does for moves.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from collections.abc import Iterable
from typing import Any

from skald.web.client import Client
from skald.web.errors import TableError
from skald.web.store.chat import ChatFull, ChatStore
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
    return message


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
        """Store a message, then tell every client that takes part of it (and of any message another process
        stored meanwhile, in order)."""
        self.check_writer(seat)
        text = clean(text)
        try:
            await asyncio.to_thread(store.say, self.game_id, seat, name, text)
        except KeyError:
            raise TableError("not_found", f"no game {self.game_id!r} here", 404) from None
        except ChatFull:
            raise TableError(
                "chat_full", f"chat: this table's chat is full ({CHAT_MESSAGES:,} messages)", 409
            ) from None
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
