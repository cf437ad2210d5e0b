"""Vikingatid states for the tests: the game, states after the kingdom choice, prepared tables at the start of a
phase, and random play that checks the table's invariants after every action."""

from __future__ import annotations

import random
from typing import Any

from skald.engine import CHANCE, get_game
from skald.games.vikingatid.actions import ROLL
from skald.games.vikingatid.game import VikingatidGame
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.state import VikingatidState, position_at

GAME = get_game("vikingatid")
assert isinstance(GAME, VikingatidGame)
BOARD = GAME.board
SPACE = GAME.space


def roll(face: int) -> int:
    """The id of a D10 showing `face`."""
    return ROLL + face - 1


def fixed_state(players: int = 3, **options: Any) -> VikingatidState:
    """A new state under `kingdom_choice: fixed` (seat s takes Denmark, Norway, Sweden in turn), so turn 1 starts
    at once."""
    return GAME.new_initial_state(players, {"kingdom_choice": "fixed", **options})


def position_for(players: int, kingdoms: tuple[str, ...], first_seat: int = 0) -> Position:
    """A fresh table with the kingdoms given, in phase 1 of turn 1 and the first seat set."""
    position = Position(BOARD, players, "fixed")
    for seat, kingdom in enumerate(kingdoms):
        position.choice.kingdoms[seat] = kingdom
    position.first_seat = first_seat
    return position


def at_phase(position: Position, phase: int, **options: Any) -> VikingatidState:
    """A state on `position` at the start of `phase` (a fixture: its history starts there)."""
    base = fixed_state(position.num_players, **options)
    return position_at(base, position, phase)


def play_randomly(state: VikingatidState, rng: random.Random, limit: int = 20_000, turns: int = 1) -> int:
    """Play random legal actions (chance by its odds) until `turns` turns are over or the game ends, asserting the
    table's invariants after each; returns the count."""
    count = 0
    while not state.is_terminal() and state.position.turn <= turns:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        count += 1
        assert problems(state.position) == [], (count, problems(state.position))
        assert count < limit, "random play did not end"
    return count


def play_phase_randomly(state: VikingatidState, rng: random.Random, limit: int = 20_000) -> int:
    """Play random legal actions until the phase under way is over, asserting the table's invariants after each."""
    phase, turn = state.position.phase, state.position.turn
    count = 0
    while not state.is_terminal() and (state.position.phase, state.position.turn) == (phase, turn):
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        count += 1
        assert problems(state.position) == [], (count, problems(state.position))
        assert count < limit, "random play did not end the phase"
    return count
