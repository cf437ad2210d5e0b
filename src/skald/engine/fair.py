"""Provably fair draws: every chance outcome of a web game comes from one seed, fixed before the first draw.

The web table draws each outcome with `draw(state, seed)`; `skald verify` draws them again the same way from the
seed revealed at the end, so the two can never disagree by being written twice. No I/O here, no web: a verifier
needs only the engine and the game.
"""

from __future__ import annotations

import hashlib
import random

from skald.engine.play import sample_chance
from skald.engine.state import State

#: Bytes of a secret chance seed (256 bits), as its commitment hashes it and the record reveals it.
SEED_BYTES = 32


def chance_rng(seed: int, ply: int) -> random.Random:
    """The generator for the chance outcome at `ply` of a game seeded with `seed`."""
    digest = hashlib.blake2b(f"skald-chance:{seed}:{ply}".encode(), digest_size=8 if seed < 2**64 else 32).digest()
    return random.Random(int.from_bytes(digest, "big"))


def draw(state: State, seed: int) -> int:
    """The chance outcome at `state` (a chance node) of a game seeded with `seed`: one generator per ply, so a
    resumed game, or anyone holding the seed, draws exactly the same."""
    return sample_chance(state, chance_rng(seed, len(state.history)))


def commitment(seed: bytes) -> str:
    """The published commitment to a revealed seed: the SHA-256 of its bytes, in hex."""
    return hashlib.sha256(seed).hexdigest()
