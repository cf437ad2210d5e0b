"""Turning the game's own heuristic (`game.evaluate`) into what bots compare: margins and reward vectors."""

from __future__ import annotations

import math

from skald.engine import State

#: Added per unit of `returns()` at the end of a game, so a won game outranks any heuristic margin.
WIN_WEIGHT = 1e9


def evaluations(state: State) -> list[float]:
    """`game.evaluate(state, seat)` for every seat."""
    evaluate = state.game.evaluate
    return [float(evaluate(state, seat)) for seat in range(state.num_players)]


def margin(state: State, seat: int) -> float:
    """How far `seat` leads its best opponent by the game's heuristic; wins dominate at the end."""
    values = evaluations(state)
    best_other = max((v for s, v in enumerate(values) if s != seat), default=0.0)
    lead = values[seat] - best_other
    if state.is_terminal():
        return WIN_WEIGHT * state.returns()[seat] + lead
    return lead


def softmax_rewards(values: list[float], temperature: float) -> list[float]:
    """Per-seat rewards in [0, 1] summing to 1: a soft 'who is winning' from heuristic values."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]
