"""Vikingatid (Trollspel's *Viking Age*, 2–6 players): fleets, trade, plunder, kings and christianisation.

The known world, its tables, the cards and the drawn map as data (`data/`: `board.toml`, read by `board` and proven
sound by `validate`; `cards.toml`; `map_layout.toml`), the rule options (`options`), the setup (`setup`), the fixed
action space with its JSON and notation (`actions`), the position with its ledger and invariants (`position`), the
turn as data (`steps`), one module per part of the rulebook's turn (docs/vikingatid.md, "The plan of the package"),
the cards (`cards`), what a state holds (`situation`), the engine state and game (`state`, `game`), and the text,
SVG, tensor and presentation a front end shows.
"""

from skald.engine import register
from skald.games.vikingatid.game import VikingatidGame
from skald.games.vikingatid.state import VikingatidState

__all__ = ["VikingatidGame", "VikingatidState"]

register(VikingatidGame())
