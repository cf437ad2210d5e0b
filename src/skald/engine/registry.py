"""The game registry: front ends find games by name and never import a game directly.

A game package registers itself when imported. The registry imports every module named in the `skald.games` entry
point group (Skald's own games are entry points of the `skald` distribution, so a third-party game is installed the
same way) and every module in `SKALD_GAMES` (comma-separated), which lets a game author try a game that is not
installed, such as the test suite's card game.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import import_module
from importlib.metadata import entry_points

from skald.engine.game import Game
from skald.engine.messages import shown
from skald.engine.state import IMPERFECT, PERFECT

_GAMES: dict[str, Game] = {}


class GameImportError(ImportError):
    """A module named in `SKALD_GAMES` that cannot be imported; the message names the variable and the module."""


_loaded = False


def register(game: Game) -> Game:
    """Make `game` findable by its name; registering the same name twice replaces the first. A game whose
    `information` is neither `PERFECT` nor `IMPERFECT` raises `ValueError` (front ends must know what to hide)."""
    if game.information not in (PERFECT, IMPERFECT):
        raise ValueError(
            f"{game.name}: information must be {PERFECT!r} or {IMPERFECT!r}, not {shown(game.information)}"
        )
    _GAMES[game.name] = game
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for entry in entry_points(group="skald.games"):
        entry.load()
    for module in os.environ.get("SKALD_GAMES", "").split(","):
        if module.strip():
            try:
                import_module(module.strip())
            except ImportError as error:
                raise GameImportError(f"SKALD_GAMES: cannot import {module.strip()!r}: {error}") from None
    _loaded = True


def import_game_modules(modules: Iterable[str]) -> None:
    """Import each of `modules` by name, in order: the modules a run was told to import first (`--import`), which
    register a game, imported again in each worker process that plays its games."""
    for module in modules:
        import_module(module)


def unregister(name: str) -> None:
    """Forget the game called `name` (nothing happens if there is none): for tests that register a game only for
    their own length."""
    _GAMES.pop(name, None)


def get_game(name: str) -> Game:
    """The registered game called `name`; raises `KeyError` listing the known names."""
    _load()
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"no game called {name!r}; known games: {', '.join(sorted(_GAMES))}") from None


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    _load()
    return sorted(_GAMES)


def listed_games() -> list[str]:
    """The names of every registered game in the order front ends list them (`Game.catalogue_rank`, then name):
    the first is the game they offer by default."""
    _load()
    return sorted(_GAMES, key=lambda name: (_GAMES[name].catalogue_rank, name))
