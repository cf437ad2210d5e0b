"""Registers the faulty proof-game variants (`faulty_proof_game`), for a `skald check` subprocess only."""

from faulty_proof_game import FAULTY_GAMES
from skald.engine import register

for _game in FAULTY_GAMES:
    register(_game)
