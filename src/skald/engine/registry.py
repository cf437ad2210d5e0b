"""The game registry: front ends find games by name and never import a game directly."""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points

from skald.engine.game import Game

_GAMES: dict[str, Game] = {}
_BUILTIN_MODULES = ("skald.games.vikings", "skald.games.vikingdoms")
_loaded = False


def register(game: Game) -> Game:
    """Make `game` findable by its name; registering the same name twice replaces the first."""
    _GAMES[game.name] = game
    return game


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for module in _BUILTIN_MODULES:
        import_module(module)
    for entry in entry_points(group="skald.games"):
        entry.load()
    _loaded = True


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
