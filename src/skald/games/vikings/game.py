"""The Vikings game: its registration data, rule options (see `options`), drawing, commands and evaluation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from skald.engine import Game, State, register
from skald.games.vikings import evaluation
from skald.games.vikings.actions import MAX_BID, NUM_ACTIONS
from skald.games.vikings.components import (
    BAG_COUNTS,
    GREY,
    GROUPS_PER_ROUND,
    LARGE_SCORING_ROUNDS,
    NUM_COLOURS,
    ROUNDS,
    SPECIAL_COUNTS,
    STACK_COUNTS,
)
from skald.games.vikings.options import OPTIONS
from skald.games.vikings.presentation import VikingsPresentation
from skald.games.vikings.state import VikingsState

if TYPE_CHECKING:
    import typer


class VikingsGame(Game):
    """Vikings (Michael Kiesling; Hans im Glück 2007, Z-Man 2014)."""

    name = "vikings"
    title = "Vikings"
    score_name = "Fame"
    catalogue_rank = 1
    provides_observation_tensor = True
    fixed_notation = True
    min_players = 2
    max_players = 4
    options = OPTIONS
    presentation = VikingsPresentation()
    position_format = "docs/vikings-positions.md"

    @property
    def num_distinct_actions(self) -> int:
        """Every Vikings action id lies below this (see `skald.games.vikings.actions`)."""
        return NUM_ACTIONS

    def new_initial_state(self, num_players: int, options: Mapping[str, Any] | None = None) -> VikingsState:
        """Setup: 30/25/20 Gold and 10 Fame each, start tiles in hand, 72 tiles face down, 78 Vikings in the bag."""
        self.check_players(num_players)
        return VikingsState(self, num_players, self.resolve_options(options))

    def state_from_position(self, data: Any) -> VikingsState:
        """A state from a position's JSON (docs/vikings-positions.md) whose history starts there: the position it
        read, written out in full, is its `start_position`, which a record keeps and replays from."""
        state = self.state_from_dict(data)
        state.origin = state.to_position()
        return state

    def state_from_dict(self, data: Any) -> VikingsState:
        """A state from a position's JSON (see docs/vikings-positions.md)."""
        from skald.games.vikings.position import state_from_dict

        state: VikingsState = state_from_dict(data, VikingsState, self)
        return state

    def render_svg(self, state: State, seat: int | None = None, names: list[str] | None = None) -> str:
        """The drawn Vikings board (`skald.games.vikings.svg`) from the viewer's observation."""
        from skald.games.vikings.svg import render_svg

        return render_svg(state.observation(seat if seat is not None else -1), names=names)

    def commands(self) -> typer.Typer:
        """`skald vikings score`: the itemised scoring of a saved or hand-written position."""
        from skald.games.vikings.commands import commands

        return commands(self)

    def evaluate(self, state: State, seat: int) -> float:
        """Fame and Gold now plus what the Mainland is worth (see `skald.games.vikings.evaluation`)."""
        assert isinstance(state, VikingsState)
        return evaluation.evaluate(state, seat)

    def observation_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        """The flat shape of `VikingsState.observation_tensor` (see `skald.games.vikings.tensor`)."""
        from skald.games.vikings.tensor import shape

        self.check_players(num_players)
        return shape(num_players)

    def observation_tensor_bounds(self, num_players: int) -> tuple[float, float]:
        """Every entry lies in [-1, 1]: one-hots, counts divided by what the rules bound them by, and Fame and Gold
        as `x / (|x| + 50)` (see `skald.games.vikings.tensor`)."""
        self.check_players(num_players)
        return -1.0, 1.0

    def max_game_length(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """An upper bound on the actions of one game, chance included: each action uses up something the game has
        only so much of (docs/learning.md, "How long a game lasts")."""
        resolved = self.resolve_options(options)
        groups = ROUNDS * GROUPS_PER_ROUND  # every Group is bought once
        greys = BAG_COUNTS[GREY]
        bound = sum(STACK_COUNTS) + sum(BAG_COUNTS)  # each tile and each Viking drawn at most once
        bound += 3 * groups + num_players  # buy, place the tile, place the Viking; each seat's start tile
        bound += 2 * greys  # a ferry (with or without a Boat) spends a Boatswain; at most one "done" ends its landing
        bound += sum(BAG_COUNTS) - greys  # every other Viking lands at most once
        bound += num_players * len(LARGE_SCORING_ROUNDS)  # "done" ferrying, once a seat and large scoring
        if resolved["variant"] == "advanced":
            bound += 2 * sum(SPECIAL_COUNTS)  # each special tile turned up once; each Building placed once
            bound += groups  # take a special tile or decline: at most once a purchase
            bound += ROUNDS * (1 + NUM_COLOURS)  # a drawn Viking removed; each colour laid on the wheel
            if resolved["auction"] == "on":
                bound += ROUNDS * (MAX_BID + 1 + num_players - 1)  # rising bids 0..MAX_BID, then passes
        return bound


GAME = VikingsGame()
register(GAME)
