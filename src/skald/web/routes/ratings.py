"""The ratings of accounts and bots at each game, and an account's rated games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from skald.engine import Game, get_game
from skald.web.deps import RatingsDep
from skald.web.errors import TableError

router = APIRouter()


def rated_game(game: str) -> Game:
    """The game a ratings request names (404 if there is none of that name)."""
    try:
        return get_game(game)
    except KeyError:
        raise TableError("game", f"game: no game called {game!r}", 404) from None


@router.get("/api/ratings/{game}")
async def rating_table(game: str, ratings: RatingsDep) -> dict[str, Any]:
    """Every account's and bot's rating at a game, best first."""
    known = rated_game(game)
    return {"game": known.name, "title": known.title, "players": await ratings.table(known.name)}


@router.get("/api/ratings/{game}/{name}")
async def rating_history(game: str, name: str, ratings: RatingsDep) -> dict[str, Any]:
    """An account's rated games at a game, oldest first."""
    known = rated_game(game)
    found = await ratings.history(known.name, name)
    if found is None:
        raise TableError("name", f"name: no account called {name!r}", 404)
    return {"game": known.name, "name": name, "games": found}
