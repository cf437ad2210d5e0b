"""What a Vikingatid state holds, without how play flows: the position, the step, each phase under way, the cards.

`state.VikingatidState` adds the flow on top (what is legal, what an action does, when a card window opens). The card
effects (`cards`), the text and SVG renderers, the observation tensor and the evaluation read a `Situation`, so none
of them imports the state that imports them.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from skald.engine import GameLike, State
from skald.games.vikingatid import (
    christianisation,
    cleanup,
    dealing,
    elections,
    emigration,
    end,
    journeys,
    purchases,
    reactions,
    silver,
    taxation,
    victory_points,
)
from skald.games.vikingatid import resample as R
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import ActionSpace
from skald.games.vikingatid.board import Board
from skald.games.vikingatid.cards import deck as D
from skald.games.vikingatid.cards import play as cardplay
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.cards.data import CardData
from skald.games.vikingatid.position import Position

#: A history entry every viewer may see (`Situation.visible`); otherwise a bit per seat that may.
PUBLIC: Final = -1


class CardEvent(NamedTuple):
    """A card shown to the table: played (with its target in words) or discarded in phase 8; public."""

    turn: int
    seat: int
    card: str
    verb: str
    target: str


def silver_rules(options: dict[str, Any]) -> silver.SilverRules:
    """The options phase 4 reads."""
    return silver.SilverRules(
        war_tracking=options["war_tracking"],
        war_silver=options["war_silver"],
        war_halving=options["war_halving"],
        foreign_king_share=options["foreign_king_share"],
    )


def journey_rules(options: dict[str, Any]) -> journeys.JourneyRules:
    """The options phase 6 reads."""
    return journeys.JourneyRules(*(options[name] for name in journeys.JourneyRules._fields))


def election_rules(options: dict[str, Any]) -> elections.ElectionRules:
    """The options phase 3 reads."""
    return elections.ElectionRules(
        gifts=options["gifts"],
        foreign_king_only=options["foreign_king_only"],
        bid_silver=options["bid_silver"],
        election_margin=options["election_margin"],
        kings_peace=options["kings_peace"],
        election_bids=options["election_bids"],
    )


class Situation(State):
    """Everything one Vikingatid state holds: the game, its options, board, action space and cards; the position;
    the step; each phase's record; the deck, the card window open and the card under way; the history and who may
    see each entry. Plain attributes, cloned through the constructor (mypyc-ready)."""

    game: GameLike

    def __init__(
        self,
        game: GameLike,
        num_players: int,
        options: dict[str, Any],
        board: Board,
        space: ActionSpace,
        cards: CardData,
        source: Situation | None = None,
    ) -> None:
        """What the state holds before the kingdom choice, or, given `source`, an independent copy of it."""
        self.game = game
        self.num_players = num_players
        self.options = options
        self.board: Final = board
        self.space: Final = space
        self.cards: Final = cards
        # Each seat's dealer of resampled worlds (`resample.Dealer`), kept while the card moves stay as they are: a
        # search deals a world at every iteration. A copy starts without one.
        self.dealers: dict[int, R.Dealer] = {}
        # Each viewer's memory of the cards for the observation tensor (`dealing.memory`), followed on as cards move;
        # a copy starts without, as above.
        self.memories: dict[int, dealing.Memory] = {}
        if source is not None:
            self.history = list(source.history)
            self.position: Position = source.position.clone()
            self.step: int = source.step
            self.reactions: reactions.Reactions = source.reactions.clone()
            self.election: elections.Election = source.election.clone()
            self.incomes: list[silver.Income] = list(source.incomes)
            self.purchases: purchases.Purchases = source.purchases.clone()
            self.journeys: journeys.Journeys = source.journeys.clone(self.position)
            self.emigration: emigration.Emigration = source.emigration.clone()
            self.taxes: list[taxation.TaxLine] = list(source.taxes)
            self.cleanup: cleanup.CleanupResult | None = source.cleanup
            self.christianisation: christianisation.Christianisation = source.christianisation.clone()
            self.score_lines: list[tuple[int, victory_points.ScoreLine]] = list(source.score_lines)
            self.final_lines: list[victory_points.ScoreLine] = list(source.final_lines)
            self.cut_short: bool = source.cut_short
            self.action_limit: int = source.action_limit
            self.deck: D.Deck = source.deck.clone()
            self.window: windows.Window | None = source.window.clone() if source.window is not None else None
            self.play: cardplay.Play | None = source.play.clone() if source.play is not None else None
            self.before_done: bool = source.before_done
            self.phase_window: int = source.phase_window
            self.results_seen: int = source.results_seen
            self.discards: list[int] = list(source.discards)
            self.card_log: list[CardEvent] = list(source.card_log)
            self.visible: list[int] = list(source.visible)
            self.card_moves: list[R.CardMove] = list(source.card_moves)
            self._known: dict[int, tuple[int, str]] = dict(source._known)
            self.origin: dict[str, Any] | None = source.origin
            self.origin_seen: list[str] = source.origin_seen
            return
        self.history = []
        self.position = Position(board, num_players, options["kingdom_choice"])
        self.position.fief_loss = str(options["fief_loss"])
        self.position.keep_dry_excess = options["mines_dry_camps"] == "keep_excess"
        self.step = S.KINGDOM_ROLL
        self.reactions = reactions.Reactions(options["reaction_roll"])
        self.election = elections.Election(num_players, election_rules(options))
        self.incomes = []
        self.purchases = purchases.Purchases(num_players, len(board.areas), options["purchase"])
        self.journeys = journeys.Journeys(self.position, journey_rules(options))
        self.emigration = emigration.Emigration()
        self.taxes = []
        self.cleanup = None
        self.christianisation = christianisation.Christianisation(False, 0)
        # Every victory-point line of the game with the turn it was scored in (9. Victory points), and the final
        # scoring's (VA-63).
        self.score_lines = []
        self.final_lines = []
        # The action after which the game ends at the latest (`end.action_limit`; a test may lower it on a fresh
        # state), and whether it ended there rather than by the rules.
        self.action_limit = end.action_limit(num_players)
        self.cut_short = False
        # The cards: the deck, hands and pile; the card window open and the card under way, if any;
        # which windows have been held where a settled step could open one again; the phase 8 discards to come;
        # every card shown; and who may see each history entry (PUBLIC, or a bit per seat: a draw is seen by its
        # drawer, a card gift's kind by its two parties).
        self.deck = D.Deck(cards.counts, num_players)
        self.window = None
        self.play = None
        self.before_done = False
        self.phase_window = -1
        self.results_seen = 0
        self.discards = []
        self.card_log = []
        self.visible = []
        # Every movement of a card (drawn, played, discarded, given), for `resample_from_infostate`.
        self.card_moves = []
        # Each viewer's information-state string so far, with the length of history it covers (the history only
        # grows, so the string is extended, not rebuilt: a long game asks for it at every ply).
        self._known = {}
        # The position the history starts from (`positions.state_from_position`; None: the setup), and what each
        # viewer sees of it, as a fingerprint (spectator first, then each seat) that begins its information state.
        self.origin = None
        self.origin_seen = []

    def show(self, plies: list[int]) -> None:
        """The sealed pledges at `plies` are shown to all ("Showing sealed payments reveals them all at once"): their
        history entries become public, and the information-state strings built before are built again."""
        if not plies:
            return
        for ply in plies:
            if ply >= 0:  # a pledge made before the start position is not in the history
                self.visible[ply] = PUBLIC
        self._known = {}

    def cards_on(self) -> bool:
        """Whether cards are dealt and played (`card_windows` other than 'off', VA-08)."""
        return str(self.options["card_windows"]) != "off"
