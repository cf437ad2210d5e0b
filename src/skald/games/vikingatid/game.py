"""The Vikingatid game: name, players, rule options, action space, kind of information and presentation."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from skald.engine import IMPERFECT, Game, OptionError, State
from skald.games.vikingatid import end, evaluation
from skald.games.vikingatid.actions import CARD_IDS, NUM_ACTIONS, ActionSpace
from skald.games.vikingatid.board import Board, load_board
from skald.games.vikingatid.cards.data import CardData, cards
from skald.games.vikingatid.options import OPTIONS, WITHDRAWN
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
    withdrawn_options = WITHDRAWN
    # Which windows open (and so who is asked), sealed bids, card gifts and the election cards' window.
    hidden_options = ("card_windows", "election_bids", "gifts", "election_cards_window")
    catalogue_rank = 3
    provides_observation_tensor = True
    presentation = VikingatidPresentation()
    #: Imperfect information: each player's hand is his own (the rulings' "Hidden information"); with
    #: `card_windows: off` and open bids nothing is hidden, and the viewer methods then show everyone everything.
    information = IMPERFECT
    position_format = "docs/vikingatid-positions.md"

    def __init__(self, board: Board | None = None, card_data: CardData | None = None) -> None:
        self.board = board if board is not None else load_board()
        self.cards = card_data if card_data is not None else cards()
        ids = tuple(kind.id for kind in self.cards.kinds)
        if ids != CARD_IDS:
            raise ValueError(f"cards: the kinds must be the 42 of the rule text in its order, got {list(ids)}")
        self.space = ActionSpace(self.board, tuple((k.id, k.title, k.name) for k in self.cards.kinds))

    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed action space (`actions.NUM_ACTIONS`, 1,021 ids)."""
        return NUM_ACTIONS

    def render_svg(self, state: State, seat: int | None = None, names: list[str] | None = None) -> str:
        """The map as SVG for the viewer in `seat` (None: a spectator), drawn from what that viewer may see."""
        from skald.games.vikingatid.svg import render_svg

        assert isinstance(state, VikingatidState)
        return render_svg(state, seat, names)

    def render_svg_parts(self, state: State, seat: int | None = None, names: list[str] | None = None) -> list[str]:
        """The map in pieces that change apart (an area each, the players, the status…): see `svg.render_svg_parts`."""
        from skald.games.vikingatid.svg import render_svg_parts

        assert isinstance(state, VikingatidState)
        return render_svg_parts(state, seat, names)

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic worth of `state` for `seat`, read from what `seat` may see (greedy bots, cut-off rollouts)."""
        assert isinstance(state, VikingatidState)
        return evaluation.evaluate(state, seat)

    def rollout_action(self, state: State, legal: list[int], rng: random.Random) -> int:
        """A card now and then, otherwise uniform (`evaluation.rollout_action`): uniform play would play a card in
        most windows, where players seldom do."""
        return evaluation.rollout_action(legal, rng)

    def max_game_length(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """The most actions of one game, chance included, under any options: the game ends at the latest after
        `end.action_limit(num_players)` (5,000 a seat, docs/vikingatid.md, "How long a game lasts")."""
        self.check_players(num_players)
        return end.action_limit(num_players)

    def observation_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        """The shape of `VikingatidState.observation_tensor` (docs/rl-observation.md)."""
        from skald.games.vikingatid.tensor import shape

        self.check_players(num_players)
        return shape(self.board, num_players)

    def observation_tensor_bounds(self, num_players: int) -> tuple[float, float] | None:
        """The least and greatest value of any entry of the observation tensor."""
        from skald.games.vikingatid.tensor import bounds

        return bounds(self.board, num_players)

    def state_from_position(self, data: Any) -> VikingatidState:
        """A state from a position's JSON (docs/vikingatid-positions.md); `PositionError` naming the field."""
        from skald.games.vikingatid.positions import state_from_position

        state: VikingatidState = state_from_position(self, data)
        return state

    def new_initial_state(self, num_players: int = 4, options: Mapping[str, Any] | None = None) -> VikingatidState:
        """The table before the kingdom choice (VA-01, VA-02)."""
        self.check_players(num_players)
        resolved = self.resolve_options(options)
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
        return VikingatidState(self, num_players, resolved, self.board, self.space, self.cards)
