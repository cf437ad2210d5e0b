"""The pages a browser opens: the lobby, a table, a game's rules summary and the ratings."""

from __future__ import annotations

import asyncio
from importlib.resources import files

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from skald.engine import get_game, listed_games
from skald.web.deps import RulesPagesDep
from skald.web.rules_page import missing_page, rules_page

STATIC = files("skald.web").joinpath("static")

router = APIRouter()


@router.get("/")
async def lobby() -> FileResponse:
    """The lobby: the games on offer, a new game's seats and options, the games this browser joined."""
    return FileResponse(str(STATIC.joinpath("index.html")))


@router.get("/table/{game_id}")
async def table_page(game_id: str) -> FileResponse:
    """A table, for a seat (its token after `#t=`) or a spectator; the page asks the API for the game."""
    return FileResponse(str(STATIC.joinpath("table.html")))


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(game: str, pages: RulesPagesDep) -> HTMLResponse:
    """A game's rules summary, with its rule options."""
    # Only a game the lobby offers; the page is the same for everyone, so it is made once.
    if game not in listed_games():
        return HTMLResponse(missing_page(game), status_code=404)
    if game not in pages:
        pages[game] = await asyncio.to_thread(rules_page, get_game(game))
    return HTMLResponse(pages[game])


@router.get("/ratings")
async def ratings_page() -> FileResponse:
    """The ratings of every game, and an account's rated games."""
    return FileResponse(str(STATIC.joinpath("ratings.html")))
