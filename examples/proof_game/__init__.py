"""The proof game: a small card game with private hands, a secret bid and public plays, written as a template of a
Skald game (docs/writing-a-game.md); the test suite plays it to prove the contract's hidden information.

Importing this package registers the game as "proof" (`game`). It is not installed with Skald: a `skald`
subprocess finds it through `subprocess_env()`, which puts the folder holding this package on `PYTHONPATH` and
names it in `SKALD_GAMES`.
"""

from __future__ import annotations

import os
from pathlib import Path

from proof_game import game  # noqa: F401  (registers "proof")

#: The folder that holds this package (examples/): on `PYTHONPATH`, it makes `proof_game` importable.
FOLDER = Path(__file__).resolve().parent.parent


def subprocess_env() -> dict[str, str]:
    """A copy of `os.environ` under which a `skald` subprocess finds the proof game."""
    env = dict(os.environ)
    paths = [str(FOLDER), *(p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    games = [g for g in env.get("SKALD_GAMES", "").split(",") if g.strip() and g.strip() != "proof_game"]
    env["SKALD_GAMES"] = ",".join([*games, "proof_game"])
    return env
