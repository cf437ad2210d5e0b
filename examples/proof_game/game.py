"""The proof game and its registration: name, player counts, action space, SVG and tensor shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from proof_game import actions as A
from proof_game import render
from proof_game.presentation import ProofPresentation
from proof_game.state import ProofState, tensor_size
from skald.engine import IMPERFECT, Game, State, register


class ProofGame(Game):
    """Proof, a 2–4 player card game with private hands, a secret bid and public plays."""

    name = "proof"
    title = "Proof"
    min_players = 2
    max_players = 4
    score_name = "Points"
    information = IMPERFECT
    provides_observation_tensor = True
    presentation = ProofPresentation()

    @property
    def num_distinct_actions(self) -> int:
        """Deals of cards 1–16, bids 0–3, plays of cards 1–16."""
        return A.NUM_ACTIONS

    def new_initial_state(self, num_players: int = 2, options: Mapping[str, Any] | None = None) -> ProofState:
        """A shuffled deck, nobody dealt yet."""
        self.check_players(num_players)
        self.resolve_options(options)
        return ProofState(self, num_players)

    def render_svg(self, state: State, seat: int | None = None, names: list[str] | None = None) -> str:
        """A small SVG table with the viewer's own cards as click targets while it plays."""
        return render.render_svg(state.observation(seat), names)

    def observation_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        """The length of `ProofState.observation_tensor`."""
        self.check_players(num_players)
        return (tensor_size(num_players),)


GAME = register(ProofGame())
