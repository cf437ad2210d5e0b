"""How long a game lasts: Skald's truncation (`end.action_limit`, 5,000 actions a seat, chance included) ends a game
as it stands, with the final scoring, so `max_game_length` is true for every player count and option; random games
stay far below it (docs/vikingatid.md, "How long a game lasts")."""

from __future__ import annotations

import random
from typing import cast

import pytest

from skald.engine import get_game, play_random_game
from skald.games.vikingatid import end
from skald.games.vikingatid.game import VikingatidGame
from skald.games.vikingatid.state import VikingatidState

GAME = cast(VikingatidGame, get_game("vikingatid"))


def _random_game(players: int, seed: int) -> VikingatidState:
    state = play_random_game(GAME.new_initial_state(players), random.Random(seed))
    assert isinstance(state, VikingatidState)
    return state


def test_max_game_length_is_the_action_limit_at_every_player_count_and_option() -> None:
    for players in range(2, 7):
        bound = GAME.max_game_length(players)
        assert bound == end.ACTIONS_PER_SEAT * players == 5_000 * players
        assert GAME.max_game_length(players, {"last_year": "none", "card_windows": "events"}) == bound


def test_a_game_cut_short_ends_at_its_limit_with_the_final_scoring() -> None:
    state = GAME.new_initial_state(2)
    assert state.action_limit == 10_000
    state.action_limit = 300  # a limit a random game reaches
    play_random_game(state, random.Random(4))
    assert len(state.history) == 300
    assert state.is_terminal() and state.cut_short and state.legal_actions() == []
    assert state.winners() and sum(state.returns()) == pytest.approx(1.0)
    final = state.scorings()[-1]
    assert final["when"] == "final (one per camp), the game cut short after 300 actions"
    # One VP a camp, added to what was scored before.
    camps = [sum(row) for row in state.position.camps]
    assert [sum(line["points"] for line in final["lines"] if line["seat"] == s) for s in range(2)] == camps
    copy = state.clone()
    assert copy.cut_short and copy.is_terminal()
    replayed = GAME.new_initial_state(2)
    replayed.action_limit = 300
    for action in state.history:
        replayed.apply(action)
    assert replayed.is_terminal() and replayed.scores() == state.scores() and replayed.winners() == state.winners()


def test_a_game_that_ends_by_the_rules_is_not_cut_short() -> None:
    state = _random_game(2, 1)
    assert state.is_terminal() and not state.cut_short
    assert state.scorings()[-1]["when"] == "final (one per camp)"


@pytest.mark.parametrize("players", [2, 4, pytest.param(6, marks=pytest.mark.slow)])
def test_random_games_stay_well_under_max_game_length(players: int) -> None:
    bound = GAME.max_game_length(players)
    for seed in range(2):
        state = _random_game(players, seed)
        assert not state.cut_short
        assert len(state.history) < bound / 2
