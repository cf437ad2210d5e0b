"""Driving a state forward: sampling chance and playing random legal games."""

from __future__ import annotations

import random

from skald.engine.state import CHANCE, State


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one of the chance outcomes at `state` with its probability."""
    outcomes = state.chance_outcomes()
    pick = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if pick < total:
            return action
    return outcomes[-1][0]


def play_random_game(state: State, rng: random.Random) -> State:
    """Play `state` to the end with uniformly random legal actions; returns the same (now terminal) state."""
    choice = rng.choice
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(choice(state.legal_actions()))
    return state
