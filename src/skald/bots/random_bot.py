"""The random bot: a uniformly random legal action, the baseline every other bot must beat."""

from __future__ import annotations

from skald.bots.base import Bot
from skald.engine import State


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    def _choose(self, state: State, player: int, legal: list[int]) -> int:
        return legal[self.draw(state, len(legal))]
