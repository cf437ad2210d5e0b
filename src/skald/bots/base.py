"""The bot interface: a bot looks at a state and names one legal action for the seat to act."""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod

from skald.engine import CHANCE, State


class Bot(ABC):
    """A player that speaks only the game contract; its choice depends only on its seed and the state."""

    #: The spec string this bot was built from, e.g. `mcts:normal`.
    spec: str

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.spec = spec
        self.seed = seed

    def step(self, state: State) -> int:
        """A legal action for the seat to act at `state` (which is left unchanged)."""
        player = state.current_player()
        if player < 0:
            what = "chance acts" if player == CHANCE else "the game is over"
            raise ValueError(f"{self.spec}: no seat to act here ({what})")
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"{self.spec}: seat {player} has no legal action")
        if len(legal) == 1:
            return legal[0]
        return self._choose(state, player, legal, self.rng_for(state))

    def rng_for(self, state: State) -> random.Random:
        """A generator seeded by the bot's seed and the position's history, so replays choose alike."""
        digest = hashlib.blake2b(repr((self.seed, self.spec, state.history)).encode(), digest_size=8)
        return random.Random(int.from_bytes(digest.digest(), "big"))

    @abstractmethod
    def _choose(self, state: State, player: int, legal: list[int], rng: random.Random) -> int:
        """Pick one of `legal` (at least two) for `player`."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} seed={self.seed}>"
