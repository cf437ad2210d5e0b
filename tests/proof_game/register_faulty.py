"""Registers the faulty proof-game variants (`proof_game.faulty`), for a `skald check` subprocess only."""

from proof_game.faulty import FAULTY_GAMES
from skald.engine import register

for _game in FAULTY_GAMES:
    register(_game)
