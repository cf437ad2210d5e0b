"""Phase 11, "Next turn", and "Winning the game" (rule text; VA-03, VA-05, VA-63)."""

from __future__ import annotations

import pytest
from vikingatid_kit import BOARD, position_for

from skald.games.vikingatid.end import game_over, last_turn, next_turn, returns, winners
from skald.games.vikingatid.position import problems


def test_the_game_ends_when_all_players_are_christian() -> None:
    """'If all players are christianised, the game is over.' - under every `last_year`, 'none' included."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.turn = 6
    position.christian = [True, True, False]
    assert not game_over(position, "1125") and not game_over(position, "none")
    position.christian[2] = True
    assert game_over(position, "1125") and game_over(position, "1100") and game_over(position, "none")


def test_the_last_box_ends_the_game_with_a_pagan_left() -> None:
    """VA-05: 'Its last box ends the game after phase 11 of that turn', even with a pagan player: 1125 is turn 14
    under the default, 1100 (turn 13) under `last_year: 1100`."""
    position = position_for(2, ("denmark", "norway"))
    position.christian = [True, False]
    position.turn = 13
    assert position.year == 1100
    assert not game_over(position, "1125") and game_over(position, "1100")
    position.turn = 14
    assert position.year == 1125 and game_over(position, "1125")


def test_without_a_last_box_only_christianity_ends_the_game() -> None:
    """`last_year: none`: 'turns go on ... until all players are Christian'."""
    position = position_for(2, ("denmark", "norway"))
    position.turn = 20
    assert not game_over(position, "none")


def test_the_last_year_is_read_from_the_turn_track() -> None:
    """The track is data (VA-05); a year not on it is refused naming the option."""
    assert last_turn(BOARD, "1125") == 14 and last_turn(BOARD, "1100") == 13 and last_turn(BOARD, "none") == 0
    with pytest.raises(ValueError, match="last_year"):
        last_turn(BOARD, "1150")


def test_the_next_turn_moves_the_year_marker_one_box() -> None:
    """'Otherwise, the turn marker is moved one step further' (VA-03: 25 years a turn)."""
    position = position_for(2, ("denmark", "norway"))
    year = position.year
    next_turn(position)
    assert position.turn == 2 and position.year == year + 25 and problems(position) == []


def test_the_most_victory_points_win() -> None:
    """'The player with the most victory points at the end of the game wins.'"""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.vp = [12, 30, 29]
    for tie_break in ("shared", "most_silver", "most_conquered"):
        assert winners(position, tie_break) == [1]
    assert returns(position, [1]) == [0.0, 1.0, 0.0]


def test_a_tie_is_shared_by_default() -> None:
    """VA-63 `tie_break: shared`: 'players tied on VP share the victory'; each of k winners gets 1/k."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.vp = [20, 20, 5]
    position.gain_silver(0, 9)
    assert winners(position, "shared") == [0, 1]
    assert returns(position, [0, 1]) == [0.5, 0.5, 0.0]


def test_most_silver_breaks_a_tie_first() -> None:
    """VA-63 `tie_break: most_silver`: the tied player with the most silver wins; still tied, shared."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.vp = [20, 20, 20]
    position.gain_silver(1, 7)
    position.gain_silver(2, 7)
    position.gain_silver(0, 3)
    assert winners(position, "most_silver") == [1, 2]
    position.gain_silver(2, 1)
    assert winners(position, "most_silver") == [2]


def test_most_conquered_areas_break_a_tie_first() -> None:
    """VA-63 `tie_break: most_conquered`: the tied player with the most conquered areas wins, silver aside."""
    position = position_for(2, ("denmark", "norway"))
    position.vp = [15, 15]
    position.gain_silver(0, 50)
    position.build_camps(1, "trading", "finland", 1)
    position.build_camps(1, "war", "finland", 1)
    assert problems(position) == []
    assert winners(position, "most_conquered") == [1]
    assert winners(position, "most_silver") == [0]


def test_a_tie_the_tie_break_cannot_settle_is_shared() -> None:
    """VA-63: 'break the tie first, then shared': equal VP and no conquests."""
    position = position_for(2, ("denmark", "norway"))
    position.vp = [8, 8]
    assert winners(position, "most_conquered") == [0, 1]
    assert returns(position, winners(position, "most_conquered")) == [0.5, 0.5]


def test_no_winner_gives_zero_returns_and_an_unknown_tie_break_is_refused() -> None:
    """Before the end the engine's returns are all 0; `tie_break` has three values."""
    position = position_for(2, ("denmark", "norway"))
    assert returns(position, []) == [0.0, 0.0]
    with pytest.raises(ValueError, match="tie_break"):
        winners(position, "coin_flip")
