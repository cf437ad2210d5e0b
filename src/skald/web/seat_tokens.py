"""Seat tokens beyond the first: a rematch's seats, claimed by the holders of the game before, and a seat's token
replaced (a leaked invite link stops working). Only a token's hash is ever stored."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any

from skald.web import projection
from skald.web.errors import TableError
from skald.web.live_table import HUMAN, LiveTable, token_hash
from skald.web.registry import Tables


def rematch_token(secret: bytes, rematch_id: str, seat: int, token: str) -> str:
    """The seat token of `seat` in the rematch `rematch_id` for whoever holds that seat's `token` in the game before:
    derived, so it need not be stored anywhere (only its hash is, once claimed)."""
    mac = hmac.new(secret, f"skald-rematch:{rematch_id}:{seat}:{token}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


async def rematch(
    tables: Tables, table: LiveTable, seat: int, token: str, allowed: Callable[[], bool], owner: str | None = None
) -> dict[str, Any]:
    """The same seats and options again, made once per game (counted by `allowed`, the creation limit, and the
    bot-game limits for `owner`, the asking client), and the asking seat's new token in it: every person seat
    gets a fresh one, which its holder in this game claims. The rematch's summary, with `token`."""
    if table.rematch_id is None:
        if not table.over:
            raise TableError("not_over", "a rematch can start only when the game is over", 409)
        if not allowed():
            raise TableError("rate_limited", "too many games created from this address; wait a minute", 429)
        new, _ = await tables.create(
            table.game.name,
            [(s.name, s.kind) for s in table.seats],
            table.options,
            claimed_later=True,
            owner=owner,
            chat_spectators=table.chat.spectators,
            clock=None if table.clock_setting is None else table.clock_setting.to_json(),
        )
        chosen = await asyncio.to_thread(tables.stores.games.set_rematch, table.id, new.id)
        table.rematch_id = chosen
        projection.notify(table, {"type": "rematch", "id": chosen, "by": table.seats[seat].name})
    async with tables.use(table.rematch_id) as again:
        return {**projection.summary(again), "token": await claim(tables, again, seat, token)}


async def claim(tables: Tables, rematch: LiveTable, seat: int, token: str) -> str | None:
    """The token of `seat` in `rematch` for the holder of that seat's `token` in the game before (None for a
    bot seat); the first claim stores its hash, so a seat's token is never kept in the clear."""
    if rematch.seats[seat].kind != HUMAN:
        return None
    fresh = rematch_token(tables.secret, rematch.id, seat, token)
    digest = token_hash(fresh)
    if rematch.seats[seat].token_hash is None:
        stored = await asyncio.to_thread(tables.stores.seats.claim_token, rematch.id, seat, digest)
        rematch.seats[seat].token_hash = stored
    return fresh if rematch.seats[seat].token_hash == digest else None


async def replace_token(tables: Tables, table: LiveTable, seat: int) -> str:
    """A new token for `seat`, replacing its old one (a leaked invite link stops working); every connection
    that showed the old token is closed."""
    token = secrets.token_urlsafe(24)
    digest = token_hash(token)
    await asyncio.to_thread(tables.stores.seats.set_token, table.id, seat, digest)
    table.seats[seat].token_hash = digest
    for client in list(table.clients):
        if client.seat == seat:
            client.on_revoke()
    return token
