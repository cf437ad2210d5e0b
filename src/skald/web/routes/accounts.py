"""The account endpoints (`skald.web.accounts.router`), given how this server reads a body, names a client and
gives a signed-in account the seat of a token."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from fastapi import APIRouter, Request

from skald.web.accounts import Accounts, Signed
from skald.web.accounts import router as account_router
from skald.web.bodies import read_json, validation_message
from skald.web.deps import client_key_of
from skald.web.errors import TableError
from skald.web.registry import Tables
from skald.web.settings import Settings
from skald.web.store.stores import Stores


async def claim(tables: Tables, store: Stores, game_id: str, token: str | None, signed: Signed) -> int:
    """Give the seat of `token` in a game to a signed-in account (refused if another account has it)."""
    async with tables.use(game_id) as table:
        seat = table.seat_of(token)
        if seat is None:
            raise TableError("forbidden", "token: claim a seat with its own invite link (its token)", 403)
        if table.over:
            # Claimed after the end, a won game could be taken into a rating and a lost one left out.
            raise TableError("over", "claim: the game is over; keep a seat in your account while it is played", 409)
        owner, other = await asyncio.to_thread(store.seats.claim_seat, game_id, seat, signed.account_id)
        if other is not None:
            raise TableError("claimed", f"claim: your account already keeps seat {other + 1} of this game", 409)
        if owner != signed.account_id:
            raise TableError("claimed", "claim: this seat belongs to another account", 409)
        return seat


async def body_json(settings: Settings, request: Request) -> Any:
    """A request's JSON body, read within the server's idle timeout."""
    return await read_json(request, settings.idle_timeout)


def router(accounts: Accounts, tables: Tables, store: Stores, settings: Settings) -> APIRouter:
    """The account endpoints of one server."""
    return account_router(
        accounts, client_key_of, partial(body_json, settings), validation_message, partial(claim, tables, store)
    )
