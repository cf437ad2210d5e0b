"""The final standings every end screen shows (`skald.engine.final_standings`): the winners first after the game's
tie-breaks, then by the game's `order`, then by seat; the game's columns; its tie-break in a sentence; and the JSON
form the web table sends."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from skald.cli.table import View, verdict
from skald.engine import (
    TERMINAL,
    Departures,
    Game,
    JSONDict,
    Presentation,
    State,
    final_standings,
    get_game,
    play_random_game,
)


class _GoldPresentation(Presentation):
    """Fame and Gold columns, ranked by Fame, then Gold (as Vikings does)."""

    def standings(self, state: State) -> list[JSONDict]:
        gold = state.gold  # type: ignore[attr-defined]
        return [{"fame": fame, "gold": g, "order": [fame, g]} for fame, g in zip(state.scores(), gold, strict=True)]

    def tie_break(self, state: State) -> str:
        return "most Gold"


class _Over(State):
    """A finished game with the given scores, Gold and winners."""

    def __init__(self, game: Game, scores: list[int], gold: list[int], winners: list[int]) -> None:
        self.game = game
        self.num_players = len(scores)
        self.history = []
        self.options = {}
        self._scores = scores
        self.gold = gold
        self._winners = winners

    def current_player(self) -> int:
        return TERMINAL

    def legal_actions(self) -> list[int]:
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def illegal_reason(self, action: int) -> None:
        return None

    def _apply(self, action: int) -> None:
        raise AssertionError("the game is over")

    def clone(self) -> State:
        return _Over(self.game, self._scores, self.gold, self._winners)

    def returns(self) -> list[float]:
        return [1 / len(self._winners) if seat in self._winners else 0.0 for seat in range(self.num_players)]

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        return list(self._winners)

    def observation(self, seat: int | None) -> JSONDict:
        return {}

    def action_to_json(self, action: int) -> JSONDict:
        return {}

    def action_from_json(self, data: Any) -> int:
        return 0

    def action_to_notation(self, action: int) -> str:
        return ""

    def action_from_notation(self, text: str) -> int:
        return 0

    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        return ""


class _GoldGame(Game):
    name = "gold_standings"
    title = "Gold"
    min_players = 2
    max_players = 4
    score_name = "Fame"
    presentation = _GoldPresentation()

    @property
    def num_distinct_actions(self) -> int:
        return 1

    def new_initial_state(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        raise NotImplementedError


GAME = _GoldGame()
NAMES = ["Astrid", "Bjorn", "Cnut"]


def test_a_tie_on_fame_is_decided_by_gold_and_the_winner_comes_first():
    # Bjorn and Cnut tie on 12 Fame; Cnut has more Gold, so the game names him the winner.
    standings = final_standings(GAME, _Over(GAME, [9, 12, 12], [30, 4, 5], [2]))
    assert [(row.place, row.seat) for row in standings.rows] == [(1, 2), (2, 1), (3, 0)]
    assert [row.winner for row in standings.rows] == [True, False, False]
    assert standings.winners == (2,)
    assert standings.tied
    assert standings.tie_break == "most Gold"
    assert standings.columns == (("fame", "Fame"), ("gold", "Gold"))
    assert verdict(standings, NAMES) == "Bjorn and Cnut tie on 12 Fame; on the tie-break (most Gold), Cnut wins."


def test_a_shared_victory_lists_every_winner_first_by_seat():
    standings = final_standings(GAME, _Over(GAME, [10, 7, 10], [3, 9, 3], [0, 2]))
    assert [(row.place, row.seat, row.winner) for row in standings.rows] == [(1, 0, True), (2, 2, True), (3, 1, False)]
    assert standings.tied
    assert verdict(standings, NAMES) == (
        "Astrid and Cnut tie on 10 Fame, and on the tie-break too (most Gold): they share the victory."
    )


def test_the_json_form_is_the_web_tables_result():
    standings = final_standings(GAME, _Over(GAME, [9, 12, 12], [30, 4, 5], [2]))
    assert standings.to_json(NAMES) == {
        "winners": [2],
        "standings": [
            {"place": 1, "seat": 2, "name": "Cnut", "score": 12, "fame": 12, "gold": 5},
            {"place": 2, "seat": 1, "name": "Bjorn", "score": 12, "fame": 12, "gold": 4},
            {"place": 3, "seat": 0, "name": "Astrid", "score": 9, "fame": 9, "gold": 30},
        ],
        "columns": [{"key": "fame", "label": "Fame"}, {"key": "gold", "label": "Gold"}],
        "tie_break": "most Gold",
        "tied": True,
    }


def test_a_game_that_lists_no_columns_shows_its_score_under_its_score_name():
    plain = get_game("vikingdoms")
    state = play_random_game(plain.new_initial_state(2), random.Random(3))
    standings = final_standings(plain, state)
    assert standings.columns == (("score", plain.score_name),)
    assert [row.value("score") for row in standings.rows] == [state.scores()[row.seat] for row in standings.rows]
    assert standings.rows[0].seat in state.winners() or not state.winners()
    data = standings.to_json(["A", "B"])
    assert data["columns"] == [{"key": "score", "label": plain.score_name}]
    assert [row["score"] for row in data["standings"]] == [row.score for row in standings.rows]


def test_the_terminal_lists_the_standings_rows_in_order():
    table = View().standings(_Over(GAME, [9, 12, 12], [30, 4, 5], [2]), NAMES)
    assert [column.header for column in table.columns] == ["", "Player", "Fame", "Gold"]
    assert [str(cell) for cell in table.columns[1].cells] == ["Cnut", "Bjorn", "Astrid"]
    assert list(table.columns[0].cells) == ["winner", "", ""]


def test_standings_before_the_end_are_refused():
    state = get_game("vikings").new_initial_state(2)
    with pytest.raises(ValueError, match="not over"):
        final_standings(state.game, state)


def test_a_seat_that_resigned_is_ranked_last_and_cannot_win_even_with_the_best_score():
    # BGA's rule: "the first player to quit loses as if last". Cnut had the win on the board, but resigned; the win
    # goes to the best of the seats left, by the game's own order (Fame, then Gold).
    standings = final_standings(GAME, _Over(GAME, [9, 12, 12], [30, 4, 5], [2]), Departures(resigned=(2,)))
    assert [(row.place, row.seat, row.winner, row.resigned) for row in standings.rows] == [
        (1, 1, True, False),
        (2, 0, False, False),
        (3, 2, False, True),
    ]
    assert standings.winners == (1,)
    data = standings.to_json(NAMES)
    assert data["resigned"] == [2] and data["agreed"] is False
    assert data["standings"][2]["resigned"] is True and "resigned" not in data["standings"][0]


def test_the_first_seat_to_resign_is_ranked_below_the_later_ones():
    standings = final_standings(GAME, _Over(GAME, [9, 12, 10], [3, 4, 5], [1]), Departures(resigned=(1, 0)))
    assert [row.seat for row in standings.rows] == [2, 0, 1]
    assert standings.winners == (2,)


def test_a_game_with_one_seat_left_is_over_and_that_seat_wins_before_the_board_ends():
    state = get_game("vikings").new_initial_state(3)
    assert not Departures(resigned=(0,)).decided(state)
    departures = Departures(resigned=(0, 2))
    assert departures.decided(state)
    standings = final_standings(state.game, state, departures)
    assert standings.winners == (1,)
    assert [row.seat for row in standings.rows] == [1, 2, 0]


def test_a_draw_agreed_by_the_seats_left_is_a_victory_they_share():
    state = get_game("vikings").new_initial_state(2)
    standings = final_standings(state.game, state, Departures(agreed=True))
    assert standings.winners == (0, 1)
    assert all(row.winner for row in standings.rows)
    assert standings.to_json(["A", "B"])["agreed"] is True
