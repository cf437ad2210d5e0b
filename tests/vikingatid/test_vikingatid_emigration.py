"""Emigration and homelessness at the start of phase 7 (the rule text's emigration section; VA-61, VA-06)."""

from __future__ import annotations

import pytest
from vikingatid_kit import table_for

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
from skald.games.vikingatid.purchases import home_area
from skald.games.vikingatid.table import Table, problems

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def conquer(table: Table, seat: int, area_id: str) -> Table:
    """Give the seat exactly the camps that conquer the area (one trading camp per coin, one war camp per shield)."""
    area = table.board.area(area_id)
    table.build_camps(seat, "trading", area_id, area.trade)
    if area.shields:
        table.build_camps(seat, "war", area_id, area.shields)
    assert problems(table) == []
    return table


def test_only_players_with_a_conquered_area_are_asked_in_seat_order_from_the_first_seat() -> None:
    """'When emigrating, a player chooses one of his conquered countries as new home country'; VA-06: in seat order
    from the turn's first seat (here seat 2)."""
    table = table_for(4, ("denmark", "norway", "sweden", "denmark"), first_seat=2)
    conquer(table, 0, "finland")
    conquer(table, 3, "irland")
    em = begin(table)
    assert em.queue == [3, 0] and emigrant(em) == 3


def test_a_king_may_not_emigrate_from_his_kingdom() -> None:
    """'A player who is king may not emigrate from the country of which he is king.'"""
    table = conquer(table_for(2, ("denmark", "norway")), 0, "finland")
    table.king[DENMARK] = 0
    assert candidates(table, 0) == [] and done(begin(table))


def test_a_king_of_another_kingdom_may_still_leave_his_own() -> None:
    """The ban names 'the country of which he is king': a Dane who is king of Norway may leave Denmark (VA-61)."""
    table = conquer(table_for(2, ("denmark", "norway")), 0, "finland")
    table.king[NORWAY] = 0
    assert candidates(table, 0) == ["finland"]


def test_emigrating_makes_the_area_his_home_and_ends_his_membership() -> None:
    """'A home country marker is placed in the area.' 'He may not place any new ships in that kingdom.' 'A player
    may built as many ships as he likes in his new home country'."""
    table = conquer(table_for(3, ("denmark", "denmark", "norway")), 1, "finland")
    em = begin(table)
    emigrate(table, em, "finland")
    assert table.emigrated[1] and table.home[1] == "finland"
    assert table.members("denmark") == [0] and table.kingdom_of(1) == "denmark"
    assert home_area(table, 1) == "finland"
    assert done(em) and emigrant(em) == OVER
    assert em.moves[0].seat == 1 and em.moves[0].area == "finland" and em.moves[0].left == "denmark"
    assert problems(table) == []


def test_an_area_he_has_not_conquered_is_refused_and_nothing_changes() -> None:
    """'He only needs a conquered territory that he can choose as new home country': Gotland with only trading camps
    is refused with the rule named, and the table and the step are unchanged."""
    table = conquer(table_for(2, ("denmark", "norway")), 0, "finland")
    table.build_camps(0, "trading", "gotland", 3)
    em = begin(table)
    before = table.snapshot()
    with pytest.raises(IllegalAction) as refused:
        emigrate(table, em, "gotland")
    assert refused.value.rule == "VA-61"
    assert table.snapshot() == before and emigrant(em) == 0


def test_passing_keeps_him_home_and_asks_the_next_seat() -> None:
    """Each seat that may emigrate chooses or passes, one at a time (VA-06)."""
    table = table_for(2, ("denmark", "norway"))
    conquer(table, 0, "finland")
    conquer(table, 1, "irland")
    em = begin(table)
    pass_emigration(table, em)
    assert not table.emigrated[0] and emigrant(em) == 1
    emigrate(table, em, "irland")
    assert done(em) and table.home[1] == "irland"
    with pytest.raises(IllegalAction):
        pass_emigration(table, em)


def test_an_emigrant_may_emigrate_again_but_not_to_his_current_home() -> None:
    """'The same player can emigrate several times. He only needs a conquered territory'."""
    table = table_for(2, ("denmark", "norway"))
    conquer(table, 0, "finland")
    conquer(table, 0, "irland")
    table.emigrated[0], table.home[0] = True, "finland"
    assert candidates(table, 0) == ["irland"]
    em = begin(table)
    emigrate(table, em, "irland")
    assert table.home[0] == "irland" and em.moves[0].left == "finland"


def test_losing_one_camp_of_the_home_area_makes_him_homeless() -> None:
    """'A player who loses his home country becomes homeless. This is the case even if he loses only one camp in his
    home country, which thus is no longer conquered.'"""
    table = conquer(table_for(2, ("denmark", "norway")), 0, "irland")
    table.emigrated[0], table.home[0] = True, "irland"
    assert check_homeless(table) == []
    table.remove_camps(0, "war", "irland", 1)
    assert check_homeless(table) == [0]
    assert table.home[0] == "" and table.emigrated[0] and is_homeless(table, 0)
    assert home_area(table, 0) == "" and problems(table) == []
    assert check_homeless(table) == []


def test_a_homeless_emigrant_may_declare_a_newly_conquered_area() -> None:
    """'If he conquers another area, he may declare it as home country' (VA-61: at the start of a later phase 7)."""
    table = table_for(2, ("denmark", "norway"))
    table.emigrated[0] = True
    assert candidates(table, 0) == [] and done(begin(table))
    conquer(table, 0, "gotland")
    em = begin(table)
    assert emigrant(em) == 0 and candidates(table, 0) == ["gotland"]
    emigrate(table, em, "gotland")
    assert table.home[0] == "gotland" and not is_homeless(table, 0)
    assert em.moves[0].left == ""


def test_a_homeless_emigrant_is_no_member_of_his_old_kingdom() -> None:
    """'An emigrated player has no more connection to his old kingdom': homeless, he stays out of its members."""
    table = conquer(table_for(2, ("denmark", "denmark")), 1, "finland")
    em = begin(table)
    emigrate(table, em, "finland")
    table.remove_camps(1, "trading", "finland", 1)
    assert check_homeless(table) == [1]
    assert table.members("denmark") == [0]


def test_the_emigration_step_clones_independently() -> None:
    """`Emigration.clone()` copies the queue and the moves (the engine clones states for search)."""
    table = table_for(2, ("denmark", "norway"))
    conquer(table, 0, "finland")
    conquer(table, 1, "irland")
    em = begin(table)
    copy = em.clone()
    emigrate(table, em, "finland")
    assert copy.queue == [0, 1] and copy.moves == [] and em.queue == [1]
