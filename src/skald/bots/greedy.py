"""The greedy bot: one ply deep, it takes the action after which the game's heuristic likes its seat best."""

from __future__ import annotations

from skald.bots.base import Bot
from skald.bots.evaluation import margin
from skald.engine import State

_TIE = 1e-9


class GreedyBot(Bot):
    """Plays the action that maximises its lead over the best opponent by `game.evaluate`; ties at random."""

    def _choose(self, state: State, player: int, legal: list[int]) -> int:
        best: list[int] = []
        best_value = -float("inf")
        for action in legal:
            child = state.clone()
            child.apply_legal(action)
            value = margin(child, player)
            if value > best_value + _TIE:
                best, best_value = [action], value
            elif value >= best_value - _TIE:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng_for(state).choice(best)
