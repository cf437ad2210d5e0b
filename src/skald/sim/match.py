"""One game of a tournament: a pure function of its task, so any worker on any backend plays it alike."""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from skald.bots import make_bot
from skald.engine import CHANCE, get_game, sample_chance
from skald.engine.registry import import_game_modules


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed from a master seed and labels (a game index, a seat), stable across runs and machines."""
    digest = hashlib.blake2b(repr((master, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class GameTask:
    """What a worker needs to play game `index`: the game, its options, who sits where, and the seed."""

    game: str
    num_players: int
    index: int
    seed: int
    specs: tuple[str, ...]
    entrants: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    imports: tuple[str, ...] = ()


@dataclass
class GameResult:
    """How one game went, seat by seat; `move_seconds` is wall time and so the only part that varies."""

    index: int
    seed: int
    entrants: list[str]
    scores: list[int]
    returns: list[float]
    winners: list[int]
    ranks: list[int]
    plies: int
    actions_digest: str
    moves: list[int] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)
    max_move_seconds: list[float] = field(default_factory=list)

    def outcome(self) -> dict[str, Any]:
        """The deterministic part, as JSON-ready data."""
        return {
            "index": self.index,
            "seed": self.seed,
            "entrants": self.entrants,
            "scores": self.scores,
            "returns": self.returns,
            "winners": self.winners,
            "ranks": self.ranks,
            "plies": self.plies,
            "actions_digest": self.actions_digest,
        }


def ranks_of(scores: list[int], winners: list[int]) -> list[int]:
    """Rank per seat (1 is best): winners first after the game's tie-breaks, then by score, ties shared."""
    keys = [(seat in winners, score) for seat, score in enumerate(scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


def play_game(task: GameTask) -> GameResult:
    """Play the game described by `task` to its end."""
    import_game_modules(task.imports)
    state = get_game(task.game).new_initial_state(task.num_players, dict(task.options))
    chance = random.Random(derive_seed(task.seed, "chance"))
    bots = [make_bot(spec, derive_seed(task.seed, "seat", seat)) for seat, spec in enumerate(task.specs)]
    moves = [0] * task.num_players
    spent = [0.0] * task.num_players
    worst = [0.0] * task.num_players
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, chance))
            continue
        started = time.perf_counter()
        action = bots[player].step(state)
        took = time.perf_counter() - started
        state.apply(action)
        moves[player] += 1
        spent[player] += took
        worst[player] = max(worst[player], took)
    scores = [int(s) for s in state.scores()]
    winners = sorted(state.winners())
    return GameResult(
        index=task.index,
        seed=task.seed,
        entrants=list(task.entrants),
        scores=scores,
        returns=[float(r) for r in state.returns()],
        winners=winners,
        ranks=ranks_of(scores, winners),
        plies=len(state.history),
        actions_digest=hashlib.blake2b(repr(state.history).encode(), digest_size=12).hexdigest(),
        moves=moves,
        move_seconds=spent,
        max_move_seconds=worst,
    )
