"""Vikingatid (Trollspel's *Viking Age*, 2–6 players): fleets, trade, plunder, kings and christianisation.

The known world and its tables as data (`board.toml`, read by `board`, proven sound by `validate`), the rule
options (`options`), the setup (`setup`), the fixed action space with its JSON and notation (`actions`), the position
with its ledger and invariants (`position`), the turn as data (`steps`), the engine state and game (`state`, `game`),
and one module per part of the rulebook's turn (docs/vikingatid.md, "The plan of the package"). Until part 2 of
issue 19 brings the cards, the game is played with `cards: off`.
"""

from skald.engine import register
from skald.games.vikingatid.game import VikingatidGame
from skald.games.vikingatid.state import VikingatidState

__all__ = ["VikingatidGame", "VikingatidState"]

register(VikingatidGame())
