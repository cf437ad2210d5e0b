"""Driving a state forward: sampling chance and playing random legal games."""

from __future__ import annotations

import random

from skald.engine.state import CHANCE, TERMINAL, State


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one of the chance outcomes at `state` with its probability (`State.sample_chance_outcome`)."""
    return state.sample_chance_outcome(rng)


def play_random_game(state: State, rng: random.Random) -> State:
    """Play `state` to the end with uniformly random legal actions; returns the same (now terminal) state."""
    choice = rng.choice
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            # Both come from this very position, so apply_legal need not check them again.
            state.apply_legal(state.sample_chance_outcome(rng))
        else:
            state.apply_legal(choice(state.legal_actions()))
