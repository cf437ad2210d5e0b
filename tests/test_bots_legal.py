"""Bots only ever return legal actions, leave the position untouched, and are deterministic given a seed.

Checked over many random positions of 2, 3 and 4 players, on Vikings and on the Haul fixture game (which
has chance nodes with unequal probabilities).
"""

from __future__ import annotations

import random

import pytest

import bots_fixture_game
from skald.bots import make_bot
from skald.engine import CHANCE, State, get_game, sample_chance

GAMES = ["vikings", bots_fixture_game.GAME.name]
SPECS = ["random", "greedy", "mcts:iters=25", "mcts:iters=25:depth=none", "mcts:iters=15:depth=0"]
POSITIONS = 12


def random_positions(game: str, players: int, count: int, seed: int) -> list[State]:
    """Positions reached by random play, each with a seat to act, spread over the whole game."""
    rng = random.Random(seed)
    positions: list[State] = []
    while len(positions) < count:
        state = get_game(game).new_initial_state(players)
        keep = 0.15
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            if rng.random() < keep and len(positions) < count:
                positions.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return positions


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", GAMES)
def test_bots_return_only_legal_actions_and_leave_the_position_as_it_was(game: str, players: int) -> None:
    for index, state in enumerate(random_positions(game, players, POSITIONS, seed=players)):
        history = list(state.history)
        observation = state.observation(state.current_player())
        legal = state.legal_actions()
        for spec in SPECS:
            action = make_bot(spec, seed=index).step(state)
            assert action in legal, f"{spec} chose {action} at ply {len(history)}"
            assert state.history == history
            assert state.observation(state.current_player()) == observation


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_chooses_the_same_action_for_the_same_seed_and_position(game: str) -> None:
    for index, state in enumerate(random_positions(game, 3, 6, seed=99)):
        for spec in ["random", "greedy", "mcts:iters=40"]:
            first = make_bot(spec, seed=index).step(state)
            again = make_bot(spec, seed=index).step(state.clone())
            assert first == again, spec


def test_bots_refuse_positions_where_no_seat_acts() -> None:
    state = get_game(bots_fixture_game.GAME.name).new_initial_state(2)
    assert state.current_player() == CHANCE
    with pytest.raises(ValueError, match="chance acts"):
        make_bot("greedy").step(state)
