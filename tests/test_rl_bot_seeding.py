"""The bots' seeding that the Gymnasium wrapper leans on: hashing only new actions gives the very same seeds."""

from __future__ import annotations

import copy
import hashlib
import pickle
import random

import pytest

from skald.bots import make_bot


def _digest_from_scratch(seed: int, spec: str, history: object) -> bytes:
    """The seed material as first defined: blake2b of the whole `repr((seed, spec, history))`."""
    return hashlib.blake2b(repr((seed, spec, history)).encode(), digest_size=8).digest()


@pytest.mark.parametrize("spec", ["random", "greedy"])
@pytest.mark.parametrize("seed", [0, 7, 2**62 - 1])
def test_incremental_history_digest_equals_hashing_it_whole(spec: str, seed: int) -> None:
    bot, rng = make_bot(spec, seed), random.Random(seed)
    history: list[int] = []
    assert bot._history_digest(history) == _digest_from_scratch(seed, spec, history)
    for _ in range(400):
        history.append(rng.randrange(800))
        if rng.random() < 0.05:
            history = history[: rng.randrange(len(history) + 1)]  # back to an earlier position
        if rng.random() < 0.02:
            history = [rng.randrange(800) for _ in range(rng.randrange(50))]  # another game
        assert bot._history_digest(history) == _digest_from_scratch(seed, spec, history)
        assert bot._history_digest(tuple(history)) == _digest_from_scratch(seed, spec, tuple(history))


def test_a_bot_with_a_seeding_cache_still_pickles_and_copies() -> None:
    bot = make_bot("random", 3)
    bot._history_digest([1, 2, 3])
    for other in (pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)):
        assert other._history_digest([1, 2, 3, 4]) == _digest_from_scratch(3, "random", [1, 2, 3, 4])
