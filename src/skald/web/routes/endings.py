"""A seat ends its game off the board over HTTP with its token: it resigns, or offers, accepts or declines a
draw (`skald.web.endings`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from skald.web import endings, projection
from skald.web.bodies import read_body
from skald.web.deps import LimitsDep, SettingsDep, TablesDep
from skald.web.errors import TableError
from skald.web.guard import bearer
from skald.web.limits import Limits
from skald.web.live_table import LiveTable
from skald.web.schemas import DrawIn

router = APIRouter()


def acting_seat(table: LiveTable, request: Request, limits: Limits) -> int:
    """The seat the request's token acts for (a spectator is refused), within the moves allowed a seat."""
    seat = table.seat_of(bearer(request))
    if seat is None:
        raise TableError("forbidden", "token: not a seat of this game (a spectator cannot act)", 403)
    if not limits.moves.allow(f"{table.id}:{seat}"):
        raise TableError("rate_limited", "too many moves; slow down", 429)
    return seat


@router.post("/api/games/{game_id}/resign")
async def resign(game_id: str, request: Request, limits: LimitsDep, tables: TablesDep) -> dict[str, Any]:
    async with tables.use(game_id) as table:
        await endings.resign(tables, table, acting_seat(table, request, limits))
        return {"ok": True, "status": table.status, "result": projection.result(table)}


@router.post("/api/games/{game_id}/draw")
async def draw(
    game_id: str, request: Request, limits: LimitsDep, tables: TablesDep, settings: SettingsDep
) -> dict[str, Any]:
    async with tables.use(game_id) as table:
        seat = acting_seat(table, request, limits)
        body = await read_body(request, DrawIn, settings.idle_timeout)
        await endings.draw(tables, table, seat, body.act)
        return {"ok": True, "status": table.status, **projection.departures(table)}
