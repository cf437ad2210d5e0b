"""Emigration and homelessness at the start of phase 7 (the rule text's emigration section; VA-61, VA-06)."""

from __future__ import annotations

import pytest
from vikingatid_kit import position_for

from skald.engine import IllegalAction
from skald.games.vikingatid.emigration import (
    OVER,
    begin,
    candidates,
    check_homeless,
    done,
    emigrant,
    emigrate,
    is_homeless,
    pass_emigration,
)
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.purchases import home_area

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def conquer(position: Position, seat: int, area_id: str) -> Position:
    """Give the seat exactly the camps that conquer the area (one trading camp per coin, one war camp per shield)."""
    area = position.board.area(area_id)
    position.build_camps(seat, "trading", area_id, area.trade)
    if area.shields:
        position.build_camps(seat, "war", area_id, area.shields)
    assert problems(position) == []
    return position


def test_only_players_with_a_conquered_area_are_asked_in_seat_order_from_the_first_seat() -> None:
    """'When emigrating, a player chooses one of his conquered countries as new home country'; VA-06: in seat order
    from the turn's first seat (here seat 2)."""
    position = position_for(4, ("denmark", "norway", "sweden", "denmark"), first_seat=2)
    conquer(position, 0, "finland")
    conquer(position, 3, "irland")
    em = begin(position)
    assert em.queue == [3, 0] and emigrant(em) == 3


def test_a_king_may_not_emigrate_from_his_kingdom() -> None:
    """'A player who is king may not emigrate from the country of which he is king.'"""
    position = conquer(position_for(2, ("denmark", "norway")), 0, "finland")
    position.king[DENMARK] = 0
    assert candidates(position, 0) == [] and done(begin(position))


def test_a_king_of_another_kingdom_may_still_leave_his_own() -> None:
    """The ban names 'the country of which he is king': a Dane who is king of Norway may leave Denmark (VA-61)."""
    position = conquer(position_for(2, ("denmark", "norway")), 0, "finland")
    position.king[NORWAY] = 0
    assert candidates(position, 0) == ["finland"]


def test_emigrating_makes_the_area_his_home_and_ends_his_membership() -> None:
    """'A home country marker is placed in the area.' 'He may not place any new ships in that kingdom.' 'A player
    may built as many ships as he likes in his new home country'."""
    position = conquer(position_for(3, ("denmark", "denmark", "norway")), 1, "finland")
    em = begin(position)
    emigrate(position, em, "finland")
    assert position.emigrated[1] and position.home[1] == "finland"
    assert position.members("denmark") == [0] and position.kingdom_of(1) == "denmark"
    assert home_area(position, 1) == "finland"
    assert done(em) and emigrant(em) == OVER
    assert em.moves[0].seat == 1 and em.moves[0].area == "finland" and em.moves[0].left == "denmark"
    assert problems(position) == []


def test_an_area_he_has_not_conquered_is_refused_and_nothing_changes() -> None:
    """'He only needs a conquered territory that he can choose as new home country': Gotland with only trading camps
    is refused with the rule named, and the table and the step are unchanged."""
    position = conquer(position_for(2, ("denmark", "norway")), 0, "finland")
    position.build_camps(0, "trading", "gotland", 3)
    em = begin(position)
    before = position.snapshot()
    with pytest.raises(IllegalAction) as refused:
        emigrate(position, em, "gotland")
    assert refused.value.rule == "VA-61"
    assert position.snapshot() == before and emigrant(em) == 0


def test_passing_keeps_him_home_and_asks_the_next_seat() -> None:
    """Each seat that may emigrate chooses or passes, one at a time (VA-06)."""
    position = position_for(2, ("denmark", "norway"))
    conquer(position, 0, "finland")
    conquer(position, 1, "irland")
    em = begin(position)
    pass_emigration(position, em)
    assert not position.emigrated[0] and emigrant(em) == 1
    emigrate(position, em, "irland")
    assert done(em) and position.home[1] == "irland"
    with pytest.raises(IllegalAction):
        pass_emigration(position, em)


def test_an_emigrant_may_emigrate_again_but_not_to_his_current_home() -> None:
    """'The same player can emigrate several times. He only needs a conquered territory'."""
    position = position_for(2, ("denmark", "norway"))
    conquer(position, 0, "finland")
    conquer(position, 0, "irland")
    position.emigrated[0], position.home[0] = True, "finland"
    assert candidates(position, 0) == ["irland"]
    em = begin(position)
    emigrate(position, em, "irland")
    assert position.home[0] == "irland" and em.moves[0].left == "finland"


def test_losing_one_camp_of_the_home_area_makes_him_homeless() -> None:
    """'A player who loses his home country becomes homeless. This is the case even if he loses only one camp in his
    home country, which thus is no longer conquered.'"""
    position = conquer(position_for(2, ("denmark", "norway")), 0, "irland")
    position.emigrated[0], position.home[0] = True, "irland"
    assert check_homeless(position) == []
    position.remove_camps(0, "war", "irland", 1)
    assert check_homeless(position) == [0]
    assert position.home[0] == "" and position.emigrated[0] and is_homeless(position, 0)
    assert home_area(position, 0) == "" and problems(position) == []
    assert check_homeless(position) == []


def test_a_homeless_emigrant_may_declare_a_newly_conquered_area() -> None:
    """'If he conquers another area, he may declare it as home country' (VA-61: at the start of a later phase 7)."""
    position = position_for(2, ("denmark", "norway"))
    position.emigrated[0] = True
    assert candidates(position, 0) == [] and done(begin(position))
    conquer(position, 0, "gotland")
    em = begin(position)
    assert emigrant(em) == 0 and candidates(position, 0) == ["gotland"]
    emigrate(position, em, "gotland")
    assert position.home[0] == "gotland" and not is_homeless(position, 0)
    assert em.moves[0].left == ""


def test_a_homeless_emigrant_is_no_member_of_his_old_kingdom() -> None:
    """'An emigrated player has no more connection to his old kingdom': homeless, he stays out of its members."""
    position = conquer(position_for(2, ("denmark", "denmark")), 1, "finland")
    em = begin(position)
    emigrate(position, em, "finland")
    position.remove_camps(1, "trading", "finland", 1)
    assert check_homeless(position) == [1]
    assert position.members("denmark") == [0]


def test_the_emigration_step_clones_independently() -> None:
    """`Emigration.clone()` copies the queue and the moves (the engine clones states for search)."""
    position = position_for(2, ("denmark", "norway"))
    conquer(position, 0, "finland")
    conquer(position, 1, "irland")
    em = begin(position)
    copy = em.clone()
    emigrate(position, em, "finland")
    assert copy.queue == [0, 1] and copy.moves == [] and em.queue == [1]
