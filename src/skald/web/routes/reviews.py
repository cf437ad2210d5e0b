"""The bot's review of a finished game: asked for, then read once a bot worker has made it."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from skald.web.deps import ClientKey, LimitsDep, ReviewsDep, TablesDep
from skald.web.errors import TableError

router = APIRouter()


@router.post("/api/games/{game_id}/review")
async def ask_review(
    game_id: str, client: ClientKey, limits: LimitsDep, tables: TablesDep, reviews: ReviewsDep
) -> JSONResponse:
    """Ask the bot to review a finished game: the review if made, else 202 while a bot worker makes it."""
    if not limits.questions.allow(client):
        raise TableError("rate_limited", "too many requests; slow down", 429)
    async with tables.use(game_id) as table:
        found = await reviews.request(table, client)
    return JSONResponse(found, status_code=200 if found["status"] == "ready" else 202)


@router.get("/api/games/{game_id}/review")
async def review(
    game_id: str, client: ClientKey, limits: LimitsDep, tables: TablesDep, reviews: ReviewsDep
) -> JSONResponse:
    """Where a game's review stands (`ready` with it, `computing`, `failed` or `none`)."""
    if not limits.questions.allow(client):
        raise TableError("rate_limited", "too many requests; slow down", 429)
    async with tables.use(game_id) as table:
        return JSONResponse(await reviews.status(table))
