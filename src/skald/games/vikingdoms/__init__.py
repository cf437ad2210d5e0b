"""Vikingdoms, the two-player raid game: recruitment on a 4×4 board, raids on five islands."""

from skald.engine import register
from skald.games.vikingdoms.game import VikingdomsGame
from skald.games.vikingdoms.state import VikingdomsState

__all__ = ["VikingdomsGame", "VikingdomsState"]

register(VikingdomsGame())
