"""Vikings states for the tests: positions written the way a person writes them (docs/vikings-positions.md), snapshots
that tell two states apart, and fresh games with the first offer drawn."""

from __future__ import annotations

import json
import random
from typing import Any

from skald.engine import CHANCE, sample_chance
from skald.games.vikings.game import GAME
from skald.games.vikings.position import state_to_dict
from skald.games.vikings.state import VikingsState


def land(
    rows: dict[str, str] | None = None,
    head: dict[str, int] | None = None,
    fame: int = 10,
    gold: int = 30,
    start: str = "placed",
) -> dict[str, Any]:
    """One Mainland as position JSON."""
    return {"rows": rows or {}, "head": head or {}, "fame": fame, "gold": gold, "start_tile": start}


def position(*mainlands: dict[str, Any], **fields: Any) -> VikingsState:
    """A Vikings state from hand-written Mainlands and any other position fields."""
    return GAME.state_from_dict({"mainlands": list(mainlands), **fields})


def fields(obj: Any) -> dict[str, Any]:
    """An object's data fields by name: its `__dict__`, or, for a class compiled by mypyc (which keeps its fields
    natively), every public non-method attribute."""
    if hasattr(obj, "__dict__"):
        return dict(vars(obj))
    names = (name for name in dir(obj) if not name.startswith("__"))
    return {name: value for name in names if not callable(value := getattr(obj, name))}


def snapshot(state: VikingsState) -> str:
    """Everything a state holds, as text: two states are identical when their snapshots are."""
    # Left out: what readers keep beside the game (the tensor's memo, the squares' change log), not the game.
    internals = {
        key: value for key, value in fields(state).items() if key not in ("game", "lands", "reports", "tensor_memo")
    }
    # Not `Mainland.__slots__`: a class compiled by mypyc keeps none. Left out as well: the squares' caches.
    caches = ("changed", "islands", "placements", "shared")
    lands = [{k: v for k, v in fields(m).items() if k not in caches} for m in state.lands]
    return json.dumps([state_to_dict(state), internals, lands], sort_keys=True, default=str)


def advance_to_decision(state: VikingsState, rng: random.Random) -> VikingsState:
    """Let chance act until a seat must decide (or the game ends)."""
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))
    return state


def new_game(players: int, seed: int = 0, **options: Any) -> VikingsState:
    """A fresh game with the first offer drawn."""
    return advance_to_decision(GAME.new_initial_state(players, options), random.Random(seed))
