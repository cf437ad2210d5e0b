"""`clone()` and `snapshot()` list the state's fields by name (a compiled state has no `__dict__` to copy), so these
tests pin that the lists are whole: every field a position holds is copied and shown."""

from __future__ import annotations

import random

import pytest
from vikingdoms_kit import GAME

from skald.engine import CHANCE, sample_chance
from skald.games.vikingdoms.state import VikingdomsState

#: Fields the snapshot leaves out on purpose: the registration and the tile table, shared by every position.
SHARED = {"game", "tiles"}


def positions_of_a_random_game(seed: int) -> list[VikingdomsState]:
    """A copy of every position of one seeded random game, from the deal to the end."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(2, {"undo_ban": True})
    seen = [state.clone()]
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


def test_the_snapshot_shows_every_field_of_the_position() -> None:
    state = positions_of_a_random_game(1)[-1]
    if not hasattr(state, "__dict__"):
        pytest.skip("compiled build: the fields live outside __dict__ (the pure build runs this check)")
    held = set(vars(state)) | {"num_players", "history"}
    assert set(state.snapshot()) == held - SHARED


@pytest.mark.parametrize("seed", range(5))
def test_a_clone_is_the_same_position_at_every_step_of_a_game(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_initial_state(2, {"undo_ban": True})
    while not state.is_terminal():
        twin = state.clone()
        assert twin.snapshot() == state.snapshot()
        assert (twin.game, twin.tiles) == (state.game, state.tiles)
        chance = state.current_player() == CHANCE
        action = sample_chance(state, rng) if chance else rng.choice(state.legal_actions())
        twin.apply(action)
        state.apply(action)
        assert twin.snapshot() == state.snapshot()


def test_a_clone_shares_no_mutable_part_with_its_source() -> None:
    for state in positions_of_a_random_game(2):
        before = state.snapshot()
        twin = state.clone()
        if not twin.is_terminal():
            if twin.current_player() == CHANCE:
                twin.apply(sample_chance(twin, random.Random(0)))
            else:
                twin.apply(twin.legal_actions()[0])
        assert state.snapshot() == before
