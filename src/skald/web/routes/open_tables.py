"""Open tables over HTTP: the list of those waiting for players, a seat taken (as a guest or an account), the
creator's start with bots, and an absent player's "I'm back" (`skald.web.open_tables`, `skald.web.absence`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from skald.web import absence, open_tables, projection
from skald.web.bodies import read_body
from skald.web.deps import AccountsDep, ClientKey, FinishedDep, LimitsDep, SettingsDep, TablesDep
from skald.web.errors import TableError
from skald.web.guard import bearer
from skald.web.links import base_url, invite_url
from skald.web.routes.endings import acting_seat
from skald.web.schemas import JoinIn, StartIn

router = APIRouter()


@router.get("/api/open-tables")
async def open_table_list(tables: TablesDep) -> JSONResponse:
    found = await open_tables.open_tables(tables)
    return JSONResponse({"tables": found}, headers={"Cache-Control": "no-store"})


@router.post("/api/games/{game_id}/join")
async def join(
    game_id: str,
    request: Request,
    client: ClientKey,
    limits: LimitsDep,
    tables: TablesDep,
    settings: SettingsDep,
    accounts: AccountsDep,
    finished: FinishedDep,
) -> JSONResponse:
    if not limits.joins.allow(client):
        raise TableError("rate_limited", "too many seats taken from this address; wait a minute", 429)
    body = await read_body(request, JoinIn, settings.idle_timeout)
    signed = await accounts.require(request) if body.account else None
    async with tables.use(game_id) as table:
        name = body.name if signed is None else signed.name
        account = None if signed is None else signed.account_id
        seat, token = await open_tables.join(tables, table, name, account, body.seat)
        finished.forget_facts(game_id)
        reply = {
            "seat": seat,
            "token": token,
            "url": invite_url(base_url(settings, request), game_id, token),
            "game": projection.summary(table),
        }
    # The reply carries the seat's secret: no cache may keep it.
    return JSONResponse(reply, headers={"Cache-Control": "no-store"})


@router.post("/api/games/{game_id}/start")
async def start(
    game_id: str, request: Request, client: ClientKey, tables: TablesDep, settings: SettingsDep
) -> dict[str, Any]:
    async with tables.use(game_id) as table:
        seat = table.seat_of(bearer(request))
        if seat is None:
            raise TableError("forbidden", "token: only the table's creator may start it (with his seat's token)", 403)
        body = await read_body(request, StartIn, settings.idle_timeout)
        await open_tables.start(tables, table, seat, body.bot, client)
        return projection.summary(table)


@router.post("/api/games/{game_id}/back")
async def back(game_id: str, request: Request, limits: LimitsDep, tables: TablesDep) -> dict[str, Any]:
    async with tables.use(game_id) as table:
        await absence.back(tables, table, acting_seat(table, request, limits))
        return {"ok": True, "away": projection.absences(table)}
