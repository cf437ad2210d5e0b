"""The bot interface: a bot looks at a state and names one legal action for the seat to act.

In an imperfect-information game a bot sees only its seat's information state: it chooses on a full state drawn
with `resample_from_infostate` (a determinization), and its randomness is seeded from the information-state string,
so two histories its seat cannot tell apart give the same choice. A bot whose choice reads nothing but its legal
actions and that seed (the random bot) draws no world (`_needs_world`), and neither does any bot at a forced
decision; the information state is hashed once a decision, continuing the text hashed at the seat's last one.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from skald.engine import CHANCE, PERFECT, State


class Bot(ABC):
    """A player that speaks only the game contract; its choice depends only on its seed and what its seat knows."""

    #: The spec string this bot was built from, e.g. `mcts:normal`.
    spec: str
    #: What `_history_digest` hashed last: (seed, spec), that history, and the hasher fed with its text so far.
    _seeding: tuple[tuple[int, str], list[int], Any] | None = None
    #: What `_infostate_digest` hashed last, by (seed, spec, purpose, viewer): that information state's text and the
    #: hasher fed with the digest's text up to its end.
    _info_seeding: dict[tuple[int, str, str, int | None], tuple[str, Any]] | None = None

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
        if state.game.information != PERFECT and self._needs_world(state, player, legal):
            # The mover's legal actions depend only on what it knows; everything else comes from a determinization,
            # drawn from its information state alone, so the true hidden state never reaches `_choose`.
            sampler = random.Random(int.from_bytes(self._infostate_digest(state, player, "resample"), "big"))
            try:
                world = state.resample_from_infostate(player, sampler)
            except RuntimeError:
                # No world was found in the time the game allows (Vikingatid after many card gifts between others):
                # the seat still moves, uniformly among its legal actions, which depend only on what it knows.
                return legal[self.draw(state, len(legal))]
            return self._choose(world, player, legal)
        return self._choose(state, player, legal)

    def _needs_world(self, state: State, player: int, legal: list[int]) -> bool:
        """Whether `_choose` must be handed a determinization in a game with hidden information (by default, yes). A
        bot answers False only where its choice reads nothing of the state but `legal` and `draw` or `rng_for` (which
        depend only on what `player` knows): it is then handed the true state, and no world is drawn for it."""
        return True

    def within(self, seconds: float) -> Bot:
        """This bot with its search cut off after `seconds`, for a front end that must answer by a fixed time (a
        card window's answers reach the table together, however long each bot thought). A bot that does not search
        is itself."""
        return self

    def rng_for(self, state: State) -> random.Random:
        """A generator seeded by the bot's seed and what the seat to act knows (in a perfect-information game, the
        position's history), so replays, and positions that seat cannot tell apart, choose alike."""
        return random.Random(int.from_bytes(self._seed_digest(state), "big"))

    def draw(self, state: State, count: int) -> int:
        """One number in [0, count) fixed like `rng_for`'s seed (the bot's seed, spec and what the seat to act
        knows) but without seeding a generator (uniform to within count / 2**64)."""
        return int.from_bytes(self._seed_digest(state), "big") % count

    def _seed_digest(self, state: State) -> bytes:
        """The seed material of `rng_for` and `draw`: the history's digest, or the information state's when hidden."""
        if state.game.information != PERFECT:
            player = state.current_player()
            return self._infostate_digest(state, player if player >= 0 else None, "choose")
        return self._history_digest(state.history)

    def _infostate_digest(self, state: State, viewer: int | None, purpose: str) -> bytes:
        """blake2b (8 bytes) of `repr((seed, spec, purpose, information state of viewer))`: the same for every
        history `viewer` cannot tell apart; `purpose` keeps the determinization's draws apart from the choice's."""
        # An information state mostly grows by a few entries from one decision to the next: when the text hashed
        # last for this purpose and viewer starts it, only what was added is hashed (the digest is the same).
        text = state.information_state_string(viewer)
        key = (self.seed, self.spec, purpose, viewer)
        cache = self._info_seeding
        if cache is None:
            cache = self._info_seeding = {}
        seen = cache.get(key)
        if seen is not None and text.startswith(seen[0]) and _plain(text, len(seen[0])):
            hasher = seen[1].copy()
            hasher.update(text[len(seen[0]) :].encode())
        elif _plain(text, 0):
            hasher = hashlib.blake2b(repr((self.seed, self.spec, purpose, "")).encode()[:-2], digest_size=8)
            hasher.update(text.encode())
        else:
            return hashlib.blake2b(repr((self.seed, self.spec, purpose, text)).encode(), digest_size=8).digest()
        cache[key] = (text, hasher)
        end = hasher.copy()
        end.update(b"')")
        digest: bytes = end.digest()
        return digest

    def _history_digest(self, history: Sequence[int]) -> bytes:
        """blake2b (8 bytes) of `repr((seed, spec, history))`, hashing only the actions added since the last call."""
        # A game walked forward shares its earlier actions with the previous call, so the text hashed then is
        # continued rather than hashed again; any other history is hashed from its start. The digest is the same.
        if type(history) is not list:
            return hashlib.blake2b(repr((self.seed, self.spec, history)).encode(), digest_size=8).digest()
        seen = self._seeding
        if (
            seen is None
            or seen[0] != (self.seed, self.spec)
            or len(history) < len(seen[1])
            or history[: len(seen[1])] != seen[1]
        ):
            hasher = hashlib.blake2b(repr((self.seed, self.spec, [])).encode()[:-2], digest_size=8)
            seen = ((self.seed, self.spec), [], hasher)
        done, hasher = seen[1], seen[2]
        if len(history) > len(done):
            hasher = hasher.copy()
            added = ", ".join(map(repr, history[len(done) :]))
            hasher.update((", " + added if done else added).encode())
        self._seeding = ((self.seed, self.spec), history[:], hasher)
        end = hasher.copy()
        end.update(b"])")
        return end.digest()

    def __getstate__(self) -> dict[str, Any]:
        """The bot without its seeding cache (hash objects cannot be pickled or copied that way)."""
        state = self.__dict__.copy()
        state.pop("_seeding", None)
        state.pop("_info_seeding", None)
        return state

    @abstractmethod
    def _choose(self, state: State, player: int, legal: list[int]) -> int:
        """Pick one of `legal` (at least two) for `player`; randomness comes from `rng_for(state)` or `draw`. In an
        imperfect-information game `state` is a determinization: hidden parts drawn, not the true ones."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} seed={self.seed}>"


def _plain(text: str, start: int) -> bool:
    """Whether `text[start:]` is written as is between single quotes by `repr` (no quote, backslash or unprintable
    character), so that a hash of the repr can be continued with it."""
    added = text[start:]
    return "'" not in added and "\\" not in added and added.isprintable()
