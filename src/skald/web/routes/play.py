"""What a seat does at a table over HTTP with its token: ask why an action is not a choice, move, ask for a
rematch, replace its token."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from skald.web import projection, seat_tokens
from skald.web.bodies import read_body
from skald.web.deps import ClientKey, FinishedDep, LimitsDep, SettingsDep, TablesDep
from skald.web.errors import TableError
from skald.web.guard import bearer
from skald.web.links import base_url, invite_url
from skald.web.schemas import MoveIn, WhyIn

router = APIRouter()


@router.post("/api/games/{game_id}/why")
async def why(
    game_id: str, request: Request, client: ClientKey, limits: LimitsDep, tables: TablesDep, settings: SettingsDep
) -> dict[str, Any]:
    if not limits.questions.allow(client):
        raise TableError("rate_limited", "too many questions; slow down", 429)
    async with tables.use(game_id) as table:
        seat = table.seat_of(bearer(request))
        body = await read_body(request, WhyIn, settings.idle_timeout)
        return {"action": body.action, "reason": projection.why(table, seat, body.action)}


@router.post("/api/games/{game_id}/moves")
async def move(
    game_id: str, request: Request, limits: LimitsDep, tables: TablesDep, settings: SettingsDep
) -> dict[str, Any]:
    async with tables.use(game_id) as table:
        seat = table.seat_of(bearer(request))
        if seat is None:
            raise TableError("forbidden", "token: not a seat of this game (a spectator cannot act)", 403)
        if not limits.moves.allow(f"{table.id}:{seat}"):
            raise TableError("rate_limited", "too many moves; slow down", 429)
        body = await read_body(request, MoveIn, settings.idle_timeout)
        if body.seat is not None and body.seat != seat:
            raise TableError("wrong_seat", f"seat: your token acts only for seat {seat}", 403)
        await tables.commits.submit(table, seat, body.version, body.action)
        return {"ok": True, "version": table.version}


@router.post("/api/games/{game_id}/rematch")
async def rematch(
    game_id: str, request: Request, client: ClientKey, limits: LimitsDep, tables: TablesDep, finished: FinishedDep
) -> JSONResponse:
    token = bearer(request)
    async with tables.use(game_id) as table:
        seat = table.seat_of(token)
        if seat is None or token is None:
            raise TableError("forbidden", "token: only a seat of this game can ask for a rematch", 403)
        made = await seat_tokens.rematch(
            tables, table, seat, token, lambda: limits.creations.allow(client), owner=client
        )
        finished.forget_facts(game_id)
    # The reply carries the asking seat's new token: no cache may keep it.
    return JSONResponse(made, headers={"Cache-Control": "no-store"})


@router.post("/api/games/{game_id}/token")
async def replace_token(
    game_id: str,
    request: Request,
    client: ClientKey,
    limits: LimitsDep,
    tables: TablesDep,
    finished: FinishedDep,
    settings: SettingsDep,
) -> JSONResponse:
    async with tables.use(game_id) as table:
        seat = table.seat_of(bearer(request))
        if seat is None:
            raise TableError("forbidden", "token: only a seat's own token can replace it", 403)
        if not limits.creations.allow(client):
            raise TableError("rate_limited", "too many new tokens from this address; wait a minute", 429)
        token = await seat_tokens.replace_token(tables, table, seat)
        finished.forget_facts(game_id)
        base = base_url(settings, request)
    # The reply carries the new secret: no cache may keep it.
    return JSONResponse(
        {"seat": seat, "token": token, "url": invite_url(base, game_id, token)},
        headers={"Cache-Control": "no-store"},
    )
