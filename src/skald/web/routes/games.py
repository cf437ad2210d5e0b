"""The games the server offers and the making of one (with an `Idempotency-Key`, made once); and its health."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from skald.bots.puct import shipped_model_exists
from skald.engine import get_game, listed_games
from skald.web import projection
from skald.web.bodies import checked, read_json
from skald.web.creation import Creation
from skald.web.deps import (
    ClientKey,
    FinishedDep,
    LimitsDep,
    ReplaysDep,
    SettingsDep,
    StoresDep,
    TablesDep,
    address,
)
from skald.web.errors import TableError
from skald.web.guard import parse_ip
from skald.web.idempotency import (
    IDEMPOTENCY_ABANDONED,
    IDEMPOTENCY_WINDOW,
    check_repeat,
    claim_all,
    fingerprint,
    idempotency_key,
    key_hash,
)
from skald.web.links import base_url, invite_url, spectator_url
from skald.web.live_table import LiveTable
from skald.web.registry import Tables
from skald.web.schemas import BOT_LEVELS, CreateIn
from skald.web.store.stores import Stores

router = APIRouter()


# The handlers of /api/ keep their names and carry no docstring: FastAPI writes both into the reviewed schema.


@router.get("/api/health")
async def health(request: Request, tables: TablesDep, finished: FinishedDep, replays: ReplaysDep) -> dict[str, Any]:
    # The counts are for the operator on the machine itself; anyone else learns only that the server is up.
    ip = parse_ip(address(request))
    if ip is None or not ip.is_loopback:
        return {"ok": True}
    return {
        "ok": True,
        "games": len(tables.tables),
        "tables": tables.stats(),
        "finished_cache": {"bytes": finished.size, "hits": finished.hits},
        "replays": replays.stats(),
        "reminders": request.app.state.reminders.stats(),
    }


@router.get("/api/catalogue")
async def catalogue() -> dict[str, Any]:
    games = [offered(name) for name in listed_games()]
    return {"games": games, "bots": list(BOT_LEVELS), "default": listed_games()[0]}


def offered(name: str) -> dict[str, Any]:
    """What the lobby is told of a game: its name, title, players, rules page, every rule option, and the player
    counts at which the `learned` bot has a model."""
    game = get_game(name)
    return {
        "name": game.name,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "rules": f"/rules/{game.name}",
        "learned": [n for n in range(game.min_players, game.max_players + 1) if shipped_model_exists(game, n)],
        "options": [
            {
                "name": o.name,
                "default": o.default,
                "choices": list(o.choices),
                "doc": o.doc,
                "title": o.heading(),
                "labels": [o.choice_label(choice) for choice in o.choices],
                "summary": o.one_line(),
                "primary": o.primary,
            }
            for o in game.options
        ],
    }


@router.post("/api/games")
async def create(
    request: Request,
    client: ClientKey,
    settings: SettingsDep,
    limits: LimitsDep,
    tables: TablesDep,
    store: StoresDep,
) -> JSONResponse:
    if not limits.creations.allow(client):
        raise TableError("rate_limited", "too many games created from this address; wait a minute", 429)
    key = idempotency_key(request)
    raw = await read_json(request, settings.idle_timeout)
    creation = Creation.of(checked(CreateIn, raw), settings, client)
    base = base_url(settings, request)
    if key is None:
        table, tokens = await creation.make(tables)
        return creation_reply(base, table, tokens)
    # A creation whose answer may be lost: a repeat with the same key gets the same game and tokens.
    return await create_once(tables, store, base, creation, key_hash(client, key), fingerprint(raw))


async def create_once(
    tables: Tables, store: Stores, base: str, creation: Creation, key_hash: str, fingerprint: str
) -> JSONResponse:
    """Create a game under an `Idempotency-Key`, or answer a repeat with the game made under it before."""
    found = await asyncio.to_thread(
        store.idempotency.reserve, key_hash, fingerprint, IDEMPOTENCY_WINDOW, IDEMPOTENCY_ABANDONED
    )
    if found is not None:
        first_fingerprint, game_id = found
        return await repeated_creation(
            tables, store, base, key_hash, check_repeat(fingerprint, first_fingerprint, game_id)
        )
    try:
        made, _ = await creation.make(tables, claimed_later=True)
    except BaseException:  # no game was made: the key may be used again
        await asyncio.to_thread(store.idempotency.release, key_hash)
        raise
    await asyncio.to_thread(store.idempotency.settle, key_hash, made.id)
    async with tables.use(made.id) as table:
        tokens = await claim_all(store, tables.secret, table, key_hash)
        return creation_reply(base, table, tokens)


async def repeated_creation(tables: Tables, store: Stores, base: str, key_hash: str, game_id: str) -> JSONResponse:
    """The answer to a creation repeated with an `Idempotency-Key` already used: the same game, with the same
    tokens."""
    async with tables.use(game_id) as table:
        # Claimed again (a no-op once claimed): the first request may have stopped between the game and its tokens.
        tokens = await claim_all(store, tables.secret, table, key_hash)
        return creation_reply(base, table, tokens, {"Idempotent-Replayed": "true"})


def creation_reply(
    base: str, table: LiveTable, tokens: list[str | None], headers: dict[str, str] | None = None
) -> JSONResponse:
    """The answer to a creation: the summary, the spectator link and each person seat's invite with its token."""
    return JSONResponse(
        {
            **projection.summary(table),
            "spectator_url": spectator_url(base, table.id),
            "invites": [
                {"seat": i, "name": table.seats[i].name, "token": token, "url": invite_url(base, table.id, token)}
                for i, token in enumerate(tokens)
                if token is not None
            ],
        },
        status_code=201,
        # The reply carries every seat's secret: no cache may keep it.
        headers={**(headers or {}), "Cache-Control": "no-store"},
    )
