"""The proof game: a small hidden-hand card game that proves the contract's hidden information (tests only).

Importing this package registers the game as "proof". Subprocesses (a web server, the terminal) find it through
`subprocess_env()`: `PYTHONPATH` with the tests folder and `SKALD_GAMES=proof_game`.
"""

from __future__ import annotations

import os
from pathlib import Path

from proof_game.game import ProofGame
from proof_game.state import ProofState
from skald.engine import register

__all__ = ["GAME", "ProofGame", "ProofState", "subprocess_env"]

#: The tests folder, which holds this package.
TESTS = Path(__file__).resolve().parent.parent

GAME = register(ProofGame())


def subprocess_env() -> dict[str, str]:
    """A copy of `os.environ` under which a `skald` subprocess finds the proof game."""
    env = dict(os.environ)
    paths = [str(TESTS), *(p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    games = [g for g in env.get("SKALD_GAMES", "").split(",") if g.strip() and g.strip() != "proof_game"]
    env["SKALD_GAMES"] = ",".join([*games, "proof_game"])
    return env
