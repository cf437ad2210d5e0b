"""The Vikingdoms game: its registration data, rule options (see `options`), drawing and evaluation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skald.engine import Game, State, register
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import evaluation, tensor
from skald.games.vikingdoms.options import MOVE_CAP, OPTIONS
from skald.games.vikingdoms.presentation import VikingdomsPresentation
from skald.games.vikingdoms.state import MAX_GAME_LENGTH, VikingdomsState
from skald.games.vikingdoms.tiles import Tile, load_tiles, with_second_rioter


class VikingdomsGame(Game):
    """Vikingdoms (József Dorsonczky, Mind Fitness Games 2016): recruit a raiding troop, raid five islands."""

    name = "vikingdoms"
    title = "Vikingdoms"
    score_name = "Coins"
    catalogue_rank = 2
    provides_observation_tensor = True
    fixed_notation = True
    min_players = 2
    max_players = 2
    options = OPTIONS
    presentation = VikingdomsPresentation()

    def __init__(self, tiles: tuple[Tile, ...] | None = None) -> None:
        self.tiles = tiles if tiles is not None else load_tiles()

    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed action space (see `skald.games.vikingdoms.actions`)."""
        return A.NUM_ACTIONS

    def new_initial_state(self, num_players: int = 2, options: Mapping[str, Any] | None = None) -> VikingdomsState:
        """The table before the tiles are shuffled and drawn."""
        self.check_players(num_players)
        resolved = self.resolve_options(options)
        tiles = with_second_rioter(self.tiles, resolved["second_rioter"])
        return VikingdomsState(self, resolved, tiles)

    def render_svg(self, state: State, seat: int | None = None, names: list[str] | None = None) -> str:
        """The drawn Vikingdoms table (`skald.games.vikingdoms.svg`) from the viewer's observation."""
        from skald.games.vikingdoms.svg import render_svg  # here: drawing is needed only by the web and docs

        assert isinstance(state, VikingdomsState)
        return render_svg(state.observation(seat if seat is not None else -1), state.tiles, names)

    def observation_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        """The length of `VikingdomsState.observation_tensor` (see `skald.games.vikingdoms.tensor`)."""
        self.check_players(num_players)
        return (tensor.SIZE,)

    def observation_tensor_bounds(self, num_players: int) -> tuple[float, float]:
        """Every value of the tensor lies in [-1, 1] (docs/rl-observation.md)."""
        return -1.0, 1.0

    def max_game_length(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """The most actions of one game, chance included (docs/vikingdoms.md, "Every game ends")."""
        if self.resolve_options(options)["termination"] == "move_cap":
            return min(MOVE_CAP, MAX_GAME_LENGTH)
        return MAX_GAME_LENGTH

    def evaluate(self, state: State, seat: int) -> float:
        """Progress towards the VI. Kingdom, own minus the opponent's, in [-1, 1]; ±1 once decided (see
        `skald.games.vikingdoms.evaluation`)."""
        assert isinstance(state, VikingdomsState)
        return evaluation.evaluate(state, seat)


GAME = VikingdomsGame()
register(GAME)
