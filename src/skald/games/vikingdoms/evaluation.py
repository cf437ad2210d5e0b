"""A heuristic worth of a Vikingdoms position for one seat, for greedy bots and cut-off rollouts.

Progress towards the VI. Kingdom (16 coins, or three villages or three ports), own minus the opponent's, in [-1, 1];
±1 once the game is decided. A rule module, so that a compiled build compiles it too.
"""

from __future__ import annotations

from skald.games.vikingdoms.state import BUILDINGS_TO_WIN, COINS_TO_WIN, VikingdomsState


def evaluate(state: VikingdomsState, seat: int) -> float:
    """`VikingdomsGame.evaluate`: progress towards the VI. Kingdom, own minus the opponent's, in [-1, 1]; ±1 once
    decided."""
    if state.winner >= 0:
        return 1.0 if state.winner == seat else -1.0
    return 0.9 * (progress(state, seat) - progress(state, 1 - seat))


def progress(state: VikingdomsState, seat: int) -> float:
    """How close `seat` is to its nearest victory, with small credit for allies and prisoners held."""
    coins = state.coins(seat) / COINS_TO_WIN
    villages = state.count(seat, "village") / BUILDINGS_TO_WIN
    ports = state.count(seat, "port") / BUILDINGS_TO_WIN
    # The nearest victory matters most, but the others still count: a riot or Gunnar can close one path.
    nearest = 0.75 * max(coins, villages, ports) + 0.25 * (coins + villages + ports) / 3
    allies = state.allies.count(seat)
    # Prisoners held are Vikings the opponent cannot recruit with; a led troop means choosing tiles first.
    leading = 1 if state.troop and state.leader == seat else 0
    return min(1.0, nearest) * 0.8 + 0.04 * allies + 0.005 * state.lockup[seat] + 0.03 * leading
