"""Phase 9, "Victory points distribution", and the final scoring (rule text, 9. Victory points; the conquest
section; Winning the game; VA-60, VA-63)."""

from __future__ import annotations

from vikingatid_kit import BOARD, position_for

from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.victory_points import ScoreLine, final_scoring, score

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def conquer(position: Position, seat: int, area_id: str) -> Position:
    area = position.board.area(area_id)
    position.build_camps(seat, "trading", area_id, area.trade)
    if area.shields:
        position.build_camps(seat, "war", area_id, area.shields)
    assert problems(position) == []
    return position


def test_a_conquered_area_scores_its_trade_value_every_turn() -> None:
    """'For each conquered area, the player gets victory points equal to the area's trade value each time victory
    points are given. Thus, a conquered area gives victory points for each turn it remains conquered.'"""
    position = conquer(position_for(2, ("denmark", "norway")), 1, "irland")
    assert score(position) == [ScoreLine(1, "conquest", "irland", 3)]
    assert position.vp == [0, 3]
    score(position)
    assert position.vp == [0, 6] and problems(position) == []


def test_camps_short_of_a_conquest_score_nothing() -> None:
    """Only conquered areas score (VA-60): three trading camps in Gotland without its war camp give nothing."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "trading", "gotland", 3)
    assert score(position) == [] and position.vp == [0, 0]


def test_khorasan_scores_its_lowered_value_once_the_mines_are_dry() -> None:
    """VA-60: 'the current trade value of each conquered area (GRUVORNA SINAR lowers Khorasan to 2)'."""
    position = position_for(2, ("sweden", "norway"))
    position.build_camps(0, "trading", "khorasan", 2)
    position.build_camps(0, "war", "khorasan", 2)
    position.mines_dry = True
    assert score(position) == [ScoreLine(0, "conquest", "khorasan", 2)]


def test_each_king_scores_two_per_kingdom() -> None:
    """'Players also get two points per turn and kingdom for being king of a Viking kingdom': a king of Denmark and
    Sweden scores 4, the king of Norway 2."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.king = [0, 1, 0]
    lines = score(position)
    assert lines == [
        ScoreLine(0, "king", "denmark", 2),
        ScoreLine(1, "king", "norway", 2),
        ScoreLine(0, "king", "sweden", 2),
    ]
    assert position.vp == [4, 2, 0]


def test_the_first_discoverer_scores_five_in_the_turn_of_the_discovery_only() -> None:
    """'The player who discovers a land area first gets five victory points.' VA-60: '5 to the first discoverer of
    each land discovered this turn'; a land found in an earlier turn scores no more."""
    position = position_for(2, ("denmark", "norway"))
    position.turn = 6
    position.discovered_by[position.slot("island")] = 1
    position.discovered_turn[position.slot("island")] = 6
    position.discovered_by[position.slot("gronland")] = 0
    position.discovered_turn[position.slot("gronland")] = 5
    assert BOARD.discovery.vp == 5
    assert score(position) == [ScoreLine(1, "discovery", "island", 5)]
    assert position.vp == [0, 5]


def test_phase_nine_adds_every_kind_of_score() -> None:
    """Conquests, kings and discoveries together (9. Victory points), in that order."""
    position = conquer(position_for(2, ("denmark", "norway")), 0, "finland")
    position.king[NORWAY] = 0
    position.discovered_by[position.slot("island")] = 0
    position.discovered_turn[position.slot("island")] = position.turn
    assert [line.reason for line in score(position)] == ["conquest", "king", "discovery"]
    assert position.vp == [1 + 2 + 5, 0]


def test_at_the_end_each_camp_is_one_more_victory_point() -> None:
    """'When the game ends, each player gets one victory point for each of his camps.' (VA-63: trading and war camps
    alike, one line per area.)"""
    position = position_for(2, ("denmark", "norway"))
    position.vp = [10, 4]
    position.build_camps(0, "trading", "irland", 2)
    position.build_camps(0, "war", "irland", 1)
    position.build_camps(1, "trading", "finland", 1)
    lines = final_scoring(position)
    assert lines == [ScoreLine(0, "camps", "irland", 3), ScoreLine(1, "camps", "finland", 1)]
    assert position.vp == [13, 5] and problems(position) == []
