"""Driving a state forward: sampling chance and playing random legal games."""

from __future__ import annotations

import random

from skald.engine.state import CHANCE, TERMINAL, State


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one of the chance outcomes at `state` with its probability (`State.sample_chance_outcome`)."""
    return state.sample_chance_outcome(rng)


def play_random_game(state: State, rng: random.Random) -> State:
    """Play `state` to the end with uniformly random legal actions; returns the same (now terminal) state."""
    # For a plain random.Random, rng.choice(legal) is spelled out below: the very getrandbits calls that
    # Random._randbelow makes, so the same games for the same seed, without two Python-level calls a move.
    plain = type(rng) is random.Random
    getrandbits = rng.getrandbits
    # Both the chance outcome and the choice come from this very position, so they need no second check; a state
    # that keeps apply_legal as the contract has it is driven through _apply directly (one call fewer an action).
    direct = type(state).apply_legal is State.apply_legal
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            action = state.sample_chance_outcome(rng)
        else:
            legal = state.legal_actions()
            if plain:
                count = len(legal)
                if not count:
                    raise IndexError("Cannot choose from an empty sequence")
                bits = count.bit_length()
                pick = getrandbits(bits)
                while pick >= count:
                    pick = getrandbits(bits)
                action = legal[pick]
            else:
                action = rng.choice(legal)
        if direct:
            state._apply(action)
            state.history.append(action)
        else:
            state.apply_legal(action)
