"""Invariants over random games (hypothesis): Vikings and tiles conserved, coins as the tiles say, exactly one
winner, illegal actions change nothing, records replay exactly."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vikingdoms_kit import GAME

from skald.engine import CHANCE, IllegalAction, Record, sample_chance
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms.state import VikingdomsState

OPTIONS = st.fixed_dictionaries({o.name: st.sampled_from(o.choices) for o in GAME.options})
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, options: dict[str, Any], check: bool = True) -> VikingdomsState:
    """Play a random game, checking the invariants after every action."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(2, options)
    while not state.is_terminal():
        if check:
            check_invariants(state, rng)
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    check_invariants(state, rng)
    return state


def check_invariants(state: VikingdomsState, rng: random.Random) -> None:
    # Viking conservation: 12 + 12 across camps, lockups, board and troop.
    assert state.vikings_of(0) == 12 and state.vikings_of(1) == 12
    assert min(state.camp) >= 0 and min(state.lockup) >= 0
    assert all(0 < len(s) < 6 for s in state.board if s)
    # Tile conservation: every drawn tile lies in exactly one territory or island.
    placed = [t for tiles in state.territory for t in tiles] + [t for t in state.islands if t >= 0]
    assert len(placed) == len(set(placed))
    if len(state.dealt) == 12:
        assert sorted(placed + list(state.set_aside)) == list(range(12))
    # Coins as the tiles say (plus Völund's three).
    for seat in (0, 1):
        coins = sum(state.tiles[t].coins for t in state.territory[seat])
        coins += 3 if state.allies[A.VOLUND] == seat else 0
        assert state.scores()[seat] == coins
    # Legal actions are ascending, in the action space, and each is legal by illegal_reason.
    legal = state.legal_actions()
    assert legal == sorted(legal) and all(0 <= a < A.NUM_ACTIONS for a in legal)
    assert state.is_terminal() or legal
    # An illegal action leaves the state exactly as it was.
    before = state.snapshot()
    illegal = rng.randrange(A.NUM_ACTIONS)
    if illegal not in legal:
        try:
            state.apply(illegal)
        except IllegalAction as error:
            assert error.rule
        else:
            raise AssertionError(f"{state.action_to_notation(illegal)} was applied though not legal")
        assert state.snapshot() == before
    if legal:
        assert state.illegal_reason(rng.choice(legal)) is None
        assert state.snapshot() == before


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_games_keep_the_invariants_and_end_with_exactly_one_winner(seed: int, options: dict[str, Any]) -> None:
    """Every game ends with exactly one winner (returns 1 and 0), Vikings and coins conserved throughout."""
    state = random_game(seed, options)
    assert len(state.winners()) == 1
    assert sorted(state.returns()) == [0.0, 1.0]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_game_records_replay_to_the_identical_state(seed: int, options: dict[str, Any]) -> None:
    """Record.of(state).to_dict() -> Record.from_dict(...).replay() gives back the identical state."""
    state = random_game(seed, options, check=False)
    replayed = Record.from_dict(Record.of(state).to_dict()).replay()
    assert isinstance(replayed, VikingdomsState)
    assert replayed.snapshot() == state.snapshot()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_clone_then_play_leaves_the_original_untouched(seed: int) -> None:
    """A clone is independent at any point of a game."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(2)
    for _ in range(rng.randrange(10, 60)):
        if state.is_terminal():
            break
        state.apply(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    before = state.snapshot()
    twin = state.clone()
    while not twin.is_terminal():
        twin.apply(sample_chance(twin, rng) if twin.is_chance_node() else rng.choice(twin.legal_actions()))
    assert state.snapshot() == before


def test_a_thousand_random_games_each_end_with_exactly_one_winner() -> None:
    """Research §4.2: with 31 coins on the tiles, every game ends by the fifth raid with one winner."""
    rng = random.Random(2016)
    for _ in range(1000):
        state = GAME.new_initial_state(2)
        while not state.is_terminal():
            state.apply(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        assert len(state.winners()) == 1 and state.raids <= 5
        assert not state.ending.startswith("the islands are exhausted")
