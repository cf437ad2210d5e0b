"""The random bot: a uniformly random legal action, the baseline every other bot must beat."""

from __future__ import annotations

from skald.bots.base import Bot
from skald.engine import State


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    def _needs_world(self, state: State, player: int, legal: list[int]) -> bool:
        """Never: the choice is `draw` among the legal actions, both fixed by what the seat knows."""
        return False

    def _choose(self, state: State, player: int, legal: list[int]) -> int:
        return legal[self.draw(state, len(legal))]
