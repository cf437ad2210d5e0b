"""Phase 10, "Christianisation", and the assimilation of Christian camps (rule text, 10. Christianisation; VA-03,
VA-04, VA-05, VA-62). The turn track (board data): no chance before 900 (turn 5), 1 in 900, 10 in 1125 (turn 14)."""

from __future__ import annotations

import pytest
from vikingatid_kit import BOARD, position_for

from skald.engine import IllegalAction
from skald.games.vikingatid.board import default_board_path, parse_board
from skald.games.vikingatid.christianisation import (
    NO_ROLLER,
    area,
    assimilation_areas,
    begin,
    begin_assimilation,
    chance,
    done,
    roll,
    roller,
)
from skald.games.vikingatid.position import Position, problems


def default_board_text() -> str:
    with open(default_board_path(), encoding="utf-8") as file:
        return file.read()


def turn_of(year: int) -> int:
    return next(box.turn for box in BOARD.turn_track.turns if box.year == year)


def at_year(position: Position, year: int) -> Position:
    position.turn = turn_of(year)
    assert position.year == year
    return position


def test_no_one_rolls_before_the_year_900() -> None:
    """'Each turn, starting in the year 900, every player rolls a dice to see if he becomes christianised': in 875
    phase 10 has no roll."""
    position = at_year(position_for(3, ("denmark", "norway", "sweden")), 875)
    assert chance(position) == 0
    c = begin(position, assimilate=True)
    assert done(c) and roller(c) == NO_ROLLER and area(c) == ""


def test_no_roll_before_900_even_if_a_box_gave_a_chance() -> None:
    """'starting in the year 900' is the rule's, not the data's: a board whose 875 box printed a chance still has
    no roll in 875 (the track's `christianisation_from`)."""
    text = default_board_text().replace(
        "{ turn =  4, year =  875, chance =  0,", "{ turn =  4, year =  875, chance =  3,"
    )
    assert text != default_board_text()
    position = Position(parse_board(text), 2, "fixed")
    position.first_seat = 0
    position.turn = 4
    assert position.board.turn_track.turns[3].chance == 3
    assert chance(position) == 0 and done(begin(position, assimilate=False))


def test_from_900_the_pagans_roll_in_seat_order_from_the_first_seat() -> None:
    """'every player rolls a dice' (VA-06: in seat order from the turn's first seat); a Christian does not roll
    (VA-04)."""
    position = at_year(position_for(4, ("denmark", "norway", "sweden", "denmark"), first_seat=2), 900)
    position.christian[3] = True
    c = begin(position, assimilate=True)
    assert c.queue == [2, 0, 1] and roller(c) == 2


def test_a_roll_at_most_the_chance_christianises() -> None:
    """'The chances for this are gives on the turn track' (VA-04, in tenths): in 900 the chance is 1, so a 1
    christianises and a 2 does not."""
    position = at_year(position_for(2, ("denmark", "norway")), 900)
    c = begin(position, assimilate=True)
    assert c.chance == 1
    roll(position, c, 1)
    roll(position, c, 2)
    assert position.christian == [True, False] and c.converted == [0] and done(c)


def test_in_the_last_box_every_roll_christianises() -> None:
    """VA-04/VA-05: the provisional chance of 1125 is 10 in 10."""
    position = at_year(position_for(2, ("denmark", "norway")), 1125)
    c = begin(position, assimilate=False)
    roll(position, c, 10)
    roll(position, c, 7)
    assert position.christian == [True, True]


def test_beyond_the_track_the_last_chance_repeats() -> None:
    """VA-05 `last_year: none`: 'turns go on, with the last chance repeated'."""
    position = position_for(2, ("denmark", "norway"))
    position.turn = BOARD.turn_track.turns[-1].turn + 2
    assert chance(position) == BOARD.turn_track.turns[-1].chance


def test_a_player_christianised_before_his_roll_does_not_roll() -> None:
    """A player who is Christian when his roll comes (by a card) does not roll: the table as it is decides."""
    position = at_year(position_for(3, ("denmark", "norway", "sweden")), 1000)
    c = begin(position, assimilate=False)
    position.christian[1] = True
    roll(position, c, 9)
    assert roller(c) == 2 and c.queue == [2]


def test_assimilation_removes_only_christian_camps_on_a_one() -> None:
    """'a dice is rolled for each area in Britain or the German-Roman empire that contain Christian camps. At a roll
    of one, these camps go up in the regional population and are removed from the board.' VA-62: pagan camps
    stay."""
    position = at_year(position_for(2, ("denmark", "denmark")), 875)
    position.christian[0] = True
    position.build_camps(0, "trading", "mercien", 1)
    position.build_camps(0, "war", "mercien", 1)
    position.build_camps(1, "trading", "mercien", 1)
    c = begin(position, assimilate=True)
    assert roller(c) == NO_ROLLER and area(c) == "mercien"
    roll(position, c, 1)
    assert position.camps_at(0, "trading", "mercien") == 0 and position.camps_at(0, "war", "mercien") == 0
    assert position.camps_at(1, "trading", "mercien") == 1
    assert c.assimilated == ["mercien"] and done(c) and problems(position) == []


def test_assimilation_on_any_other_face_changes_nothing() -> None:
    """Only 'a roll of one' removes the camps."""
    position = position_for(2, ("denmark", "norway"))
    position.christian[0] = True
    position.build_camps(0, "trading", "normandie", 2)
    c = begin(position, assimilate=True)
    roll(position, c, 2)
    assert position.camps_at(0, "trading", "normandie") == 2 and done(c)


def test_only_britain_and_the_german_roman_empire_assimilate() -> None:
    """'each area in Britain or the German-Roman empire': a Christian's camps in Byzantine Grekland and in
    uncivilised Finland are not rolled for (VA-62)."""
    position = position_for(2, ("denmark", "norway"))
    position.christian[0] = True
    for area_id in ("grekland", "finland", "frisland", "northumbrien"):
        position.build_camps(0, "trading", area_id, 1)
    position.build_camps(1, "trading", "mercien", 1)
    position.build_camps(1, "war", "valland", 1)
    found = assimilation_areas(position)
    assert sorted(found) == ["frisland", "northumbrien"]


def test_pagan_camps_alone_are_not_rolled_for() -> None:
    """Only areas 'that contain Christian camps' roll (VA-62): a pagan's camps in Mercia give no roll."""
    position = position_for(2, ("denmark", "norway"))
    position.christian[0] = True
    position.build_camps(1, "trading", "mercien", 2)
    assert assimilation_areas(position) == [] and done(begin(position, assimilate=True))


def test_an_area_counts_by_the_empire_it_belongs_to_now() -> None:
    """Areas by the table's empire (cards move provinces): Finland taken into Britain is rolled for."""
    position = position_for(2, ("denmark", "norway"))
    position.christian[0] = True
    position.build_camps(0, "trading", "finland", 1)
    assert assimilation_areas(position) == []
    position.empire_of[position.slot("finland")] = "britain"
    assert assimilation_areas(position) == ["finland"]


def test_a_player_christianised_this_phase_is_already_exposed_to_assimilation() -> None:
    """VA-62: the assimilation rolls come 'after the christianisation rolls', so the camps of a player christianised
    this turn are rolled for."""
    position = at_year(position_for(2, ("denmark", "norway")), 900)
    position.build_camps(1, "trading", "frisland", 1)
    c = begin(position, assimilate=True)
    roll(position, c, 10)
    assert area(c) == ""
    roll(position, c, 1)
    assert position.christian == [False, True] and area(c) == "frisland"
    roll(position, c, 1)
    assert position.camps_at(1, "trading", "frisland") == 0 and done(c)


def test_without_assimilation_in_phase_10_no_area_rolls() -> None:
    """`assimilation: phase_2` (VA-62): phase 10 holds the christianisation rolls alone; `begin_assimilation` gives
    the rolls to make with the reactions."""
    position = position_for(2, ("denmark", "norway"))
    position.christian[0] = True
    position.build_camps(0, "trading", "frisland", 1)
    assert done(begin(position, assimilate=False))
    c = begin_assimilation(position)
    assert area(c) == "frisland" and roller(c) == NO_ROLLER


def test_an_emigrant_whose_home_is_assimilated_becomes_homeless() -> None:
    """VA-61: 'Losing any camp in the home area makes him homeless', assimilation included."""
    position = position_for(2, ("denmark", "norway"))
    position.christian[0] = True
    position.build_camps(0, "trading", "normandie", 2)
    position.build_camps(0, "war", "normandie", 1)
    position.emigrated[0], position.home[0] = True, "normandie"
    c = begin(position, assimilate=True)
    roll(position, c, 1)
    assert position.home[0] == "" and c.homeless == [0] and problems(position) == []


def test_a_face_outside_the_die_or_a_roll_when_none_is_due_is_refused() -> None:
    """Every roll is a D10 (VA-07); a roll after the phase is over is refused and changes nothing."""
    position = at_year(position_for(2, ("denmark", "norway")), 900)
    c = begin(position, assimilate=True)
    with pytest.raises(IllegalAction):
        roll(position, c, 11)
    assert c.queue == [0, 1]
    roll(position, c, 5)
    roll(position, c, 5)
    with pytest.raises(IllegalAction):
        roll(position, c, 1)


def test_the_phase_clones_independently() -> None:
    """`Christianisation.clone()` copies what is under way."""
    position = at_year(position_for(2, ("denmark", "norway")), 900)
    c = begin(position, assimilate=True)
    copy = c.clone()
    roll(position, c, 1)
    assert copy.queue == [0, 1] and copy.converted == [] and c.converted == [0]
