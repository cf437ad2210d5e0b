"""The Vikingatid game: name, players, rule options, action space, kind of information and presentation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skald.engine import IMPERFECT, Game, OptionError
from skald.games.vikingatid.actions import CARD_IDS, NUM_ACTIONS, ActionSpace
from skald.games.vikingatid.board import Board, load_board
from skald.games.vikingatid.carddata import CardData, cards
from skald.games.vikingatid.options import OPTIONS
from skald.games.vikingatid.presentation import VikingatidPresentation
from skald.games.vikingatid.state import VikingatidState


class VikingatidGame(Game):
    """Vikingatid (Trollspel's *Viking Age*, 2–6 players): fleets, trade, plunder, kings and christianisation."""

    name = "vikingatid"
    title = "Vikingatid"
    score_name = "Victory points"
    min_players = 2
    max_players = 6
    options = OPTIONS
    catalogue_rank = 3
    presentation = VikingatidPresentation()
    #: Imperfect information: each player's hand is his own (the rulings' "Hidden information"); with
    #: `card_windows: off` and open bids nothing is hidden, and the viewer methods then show everyone everything.
    information = IMPERFECT

    def __init__(self, board: Board | None = None, card_data: CardData | None = None) -> None:
        self.board = board if board is not None else load_board()
        self.cards = card_data if card_data is not None else cards()
        ids = tuple(kind.id for kind in self.cards.kinds)
        if ids != CARD_IDS:
            raise ValueError(f"cards: the kinds must be the 42 of the rule text in its order, got {list(ids)}")
        self.space = ActionSpace(self.board, tuple((k.id, k.title, k.name) for k in self.cards.kinds))
        #: Each kind's count in the deck (VA-12, provisional) and the windows its text allows (VA-08).
        self.card_counts: tuple[int, ...] = tuple(kind.count for kind in self.cards.kinds)
        self.card_windows: tuple[tuple[str, ...], ...] = tuple(kind.windows for kind in self.cards.kinds)

    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed action space (`actions.NUM_ACTIONS`, 1,021 ids)."""
        return NUM_ACTIONS

    def new_initial_state(self, num_players: int = 4, options: Mapping[str, Any] | None = None) -> VikingatidState:
        """The table before the kingdom choice (VA-01, VA-02)."""
        self.check_players(num_players)
        resolved = self.resolve_options(options)
        if resolved["election_bids"] == "sealed":
            # Sealed payments are hidden from the other seats: the game would be IMPERFECT, and its viewer methods
            # are not written yet. Refused rather than played openly under a name that promises secrecy.
            raise OptionError(
                "options.election_bids: 'sealed' is not playable yet (hidden payments need the imperfect-information "
                "views of issue 19, part 2); use 'open'"
            )
        for name, value, why in (
            ("divine_intervention", "whole_fight", "no step asks whether to keep or re-roll each later roll"),
            ("sea_card_timing", "on_entry", "no card window opens as a fleet enters a sea area"),
        ):
            if resolved[name] == value:
                raise OptionError(f"options.{name}: {value!r} is not playable yet ({why}); use the default")
        if resolved["defender_losses"] == "defender_chooses":
            # VA-58's option needs a step where the defender assigns his losses; refused rather than played under
            # a name that promises the choice.
            raise OptionError(
                "options.defender_losses: 'defender_chooses' is not playable yet (no step for the defender's choice "
                "of losses, VA-58); use 'ships_first'"
            )
        return VikingatidState(self, num_players, resolved, self.board, self.space)
