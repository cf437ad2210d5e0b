"""Phase 7, "Taxation" (rule text, 7. Taxation; VA-61 for emigrants)."""

from __future__ import annotations

from vikingatid_kit import position_for

from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.taxation import TaxLine, tax, untroubled_trading_camps

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def with_silver(position: Position, *silver: int) -> Position:
    for seat, n in enumerate(silver):
        if n:
            position.gain_silver(seat, n)
    return position


def test_a_member_pays_half_his_silver_rounded_down_into_the_treasury() -> None:
    """'A player from a Viking kingdom pays half his silver (rounded down) into the treasury': 7 pays 3, 1 pays 0."""
    position = with_silver(position_for(3, ("denmark", "denmark", "norway")), 7, 1, 10)
    lines = tax(position)
    assert position.silver == [4, 1, 5] and position.treasury == [3, 5, 0]
    assert TaxLine(0, "denmark", 3, 0) in lines and TaxLine(1, "denmark", 0, 0) in lines
    assert problems(position) == []


def test_the_treasury_gains_one_silver_per_trading_camp_of_its_members() -> None:
    """'The treasury of a Viking KINGDOM gets also one silver per trading camp which this kingdom has established on
    the map': two Danes with 2 and 1 trading camps; war camps bring nothing; the players keep their silver."""
    position = position_for(2, ("denmark", "denmark"))
    position.build_camps(0, "trading", "irland", 2)
    position.build_camps(1, "trading", "gotland", 1)
    position.build_camps(1, "war", "gotland", 1)
    lines = tax(position)
    assert position.treasury[DENMARK] == 3 and position.silver == [0, 0]
    assert [line.camp_silver for line in lines] == [2, 1]
    assert problems(position) == []


def test_trading_camps_under_a_trade_stop_or_plundered_bring_nothing() -> None:
    """'Trading camps which have a trade stop or were plundered do not contribute to this.': only the untroubled
    camp in Finland counts."""
    position = position_for(2, ("norway", "sweden"))
    position.build_camps(0, "trading", "irland", 3)
    position.build_camps(0, "trading", "gotland", 2)
    position.build_camps(0, "trading", "finland", 1)
    position.trade_stop[position.slot("irland")] = True
    position.plundered[position.slot("gotland")] = True
    assert untroubled_trading_camps(position, 0) == 1
    tax(position)
    assert position.treasury == [0, 1, 0] and problems(position) == []


def test_an_emigrant_keeps_his_silver_and_gains_one_per_untroubled_trading_camp() -> None:
    """'A player who emigrated from his home count keeps all his silver. He also gets as much silver he has trading
    camps on the map, except for trading camps which have a trade stop or were plundered.' His camps no longer count
    for his old kingdom (VA-61)."""
    position = with_silver(position_for(2, ("denmark", "denmark")), 6, 9)
    position.emigrated[1], position.home[1] = True, "irland"
    position.build_camps(1, "trading", "irland", 3)
    position.build_camps(1, "war", "irland", 3)
    position.build_camps(1, "trading", "gotland", 2)
    position.plundered[position.slot("gotland")] = True
    lines = tax(position)
    assert position.silver == [3, 9 + 3] and position.treasury[DENMARK] == 3
    assert lines[-1] == TaxLine(1, "", 0, 3)
    assert problems(position) == []


def test_a_homeless_emigrant_still_gains_from_his_trading_camps() -> None:
    """Homeless: 'He gets silver for trading camps as usual' (VA-61)."""
    position = with_silver(position_for(2, ("sweden", "norway")), 4, 0)
    position.emigrated[0] = True
    position.build_camps(0, "trading", "finland", 1)
    tax(position)
    assert position.silver[0] == 5 and position.treasury == [0, 0, 0] and problems(position) == []


def test_each_kingdom_keeps_its_own_treasury() -> None:
    """Members pay into their own kingdom's treasury, and each treasury counts its own members' camps."""
    position = with_silver(position_for(3, ("denmark", "norway", "sweden")), 2, 4, 6)
    position.build_camps(2, "trading", "finland", 1)
    tax(position)
    assert position.treasury == [1, 2, 3 + 1] and position.silver == [1, 2, 3]
    assert problems(position) == []
