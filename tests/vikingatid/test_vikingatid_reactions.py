"""Phase 2, "Roll for empire reaction" (rule text, 2.; VA-29, VA-31, VA-33; the Christian bonus of 10.).

The reaction tables and the Gäld table are provisional board data (VA-30): each test first asserts the rows it
relies on, so a new board file points at the data, not at the rule."""

from __future__ import annotations

import random

import pytest
from vikingatid_kit import BOARD, at_phase, play_randomly, position_for, roll

from skald.engine import CHANCE
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.board import FRED, GALD, KRIG
from skald.games.vikingatid.position import Position, problems

BRITAIN = BOARD.empire("britain")
BYZANTIUM = BOARD.empire("byzantine")


def camps(position: Position, seat: int, area: str, trading: int = 0, war: int = 0) -> None:
    """Give a seat camps in an area (through the ledger)."""
    if trading:
        position.build_camps(seat, "trading", area, trading)
    if war:
        position.build_camps(seat, "war", area, war)


def test_the_data_this_file_relies_on() -> None:
    """Britain's provisional table: 3 is Krig, 4 Gäld, 8 Fred (VA-29: Krig takes the lowest totals)."""
    assert [BRITAIN.reaction_to(t) for t in (3, 4, 7, 8)] == [KRIG, GALD, GALD, FRED]
    assert BYZANTIUM.reaction_to(3) == KRIG and BRITAIN.christian_bonus == 2 and BYZANTIUM.christian_bonus == 0
    assert "mercien" in BRITAIN.provinces and "grekland" in BYZANTIUM.provinces


def test_no_camps_in_an_empire_means_no_reaction_roll() -> None:
    """'For each area that contains camps in an empire, roll a dice': camps outside the empires (Gotland) roll
    nothing, so phase 2 passes straight to the elections."""
    position = position_for(2, ("norway", "sweden"))
    camps(position, 0, "gotland", trading=1)
    state = at_phase(position, S.REACTIONS)
    assert state.position.phase == S.ELECTIONS


def test_krig_destroys_all_camps_of_the_player_in_the_area() -> None:
    """'Krig War. All camps in the area are destroyed.' Trading camps too; camps elsewhere stay."""
    position = position_for(2, ("norway", "sweden"))
    camps(position, 0, "mercien", trading=2)
    camps(position, 0, "gotland", trading=1)
    state = at_phase(position, S.REACTIONS)
    assert state.current_player() == CHANCE and state.step == S.REACTION_ROLL
    state.apply(roll(3))
    assert state.position.camps_at(0, "trading", "mercien") == 0
    assert state.position.camps_at(0, "trading", "gotland") == 1
    assert state.reactions.results[-1].result == KRIG and problems(state.position) == []


def test_each_war_camp_adds_one_to_the_roll() -> None:
    """'adding +1 to the roll for each war camp in that area': a 3 with one war camp reads as 4, Gäld, not Krig."""
    position = position_for(2, ("norway", "sweden"))
    camps(position, 0, "mercien", war=1)
    state = at_phase(position, S.REACTIONS)
    state.apply(roll(3))
    assert state.reactions.results[-1].total == 4 and state.reactions.results[-1].result == GALD
    assert state.step == S.GALD_ROLL


def test_gald_pays_the_player_and_turns_his_camps_into_ships() -> None:
    """'Gäld Money. The player gets money corresponding to the "Gäld" table on the board (roll a dice). Then he
    converts all camps into the corresponding type of ship, placing them in the same area (one ship per camp).'
    The silver goes to the player, not a treasury (VA-33)."""
    position = position_for(2, ("norway", "sweden"))
    camps(position, 0, "mercien", trading=1, war=1)
    state = at_phase(position, S.REACTIONS)
    state.apply(roll(4))  # 4 + 1 war camp = 5: Gäld
    assert state.current_player() == CHANCE and state.step == S.GALD_ROLL
    state.apply(roll(9))
    t = state.position
    assert t.silver[0] == BOARD.gald(9) and t.treasury == [0, 0, 0]
    assert t.camps_at(0, "trading", "mercien") == 0 and t.camps_at(0, "war", "mercien") == 0
    assert t.ships_at(0, "trading", "mercien") == 1 and t.ships_at(0, "war", "mercien") == 1
    assert state.reactions.results[-1].silver == BOARD.gald(9) and problems(t) == []


def test_fred_changes_nothing() -> None:
    """'Fred Peace. Nothing happens.'"""
    position = position_for(2, ("norway", "sweden"))
    camps(position, 0, "mercien", trading=1)
    before = position.snapshot()
    state = at_phase(position, S.REACTIONS)
    state.apply(roll(8))
    assert state.reactions.results[-1].result == FRED
    after = state.position.snapshot()
    assert after["seats"] == before["seats"] and after["ledger"] == before["ledger"]


def test_a_christian_gets_two_more_against_britain_only() -> None:
    """'Christian players get a +2 bonus on reaction rolls of Britain and the German-Roman Empire': a roll of 2 is
    Krig for the pagan in Mercien, Gäld (4) for the Christian; in Grekland (Byzantium) a 3 is Krig for both."""
    position = position_for(2, ("norway", "sweden"))
    position.christian[1] = True
    camps(position, 0, "mercien", trading=1)
    camps(position, 1, "mercien", trading=1)
    camps(position, 0, "grekland", trading=1)
    camps(position, 1, "grekland", trading=1)
    state = at_phase(position, S.REACTIONS)
    state.apply(roll(2))
    by_seat = {r.seat: r for r in state.reactions.results if r.area == "mercien"}
    assert (by_seat[0].total, by_seat[0].result) == (2, KRIG) and (by_seat[1].total, by_seat[1].result) == (4, GALD)
    state.apply(roll(1))  # seat 1's Gäld die
    state.apply(roll(3))  # Grekland
    grekland = [r for r in state.reactions.results if r.area == "grekland"]
    assert [(r.seat, r.total, r.result) for r in grekland] == [(0, 3, KRIG), (1, 3, KRIG)]


def test_one_roll_per_area_decides_for_every_player_there() -> None:
    """VA-31 'per_area': one D10 for the area, each player's total from it; war camps count whoever owns them."""
    position = position_for(3, ("norway", "norway", "sweden"))
    camps(position, 0, "mercien", war=1)
    camps(position, 1, "mercien", war=1)
    camps(position, 2, "mercien", trading=1)
    state = at_phase(position, S.REACTIONS)
    state.apply(roll(2))  # 2 + 2 war camps = 4 for everyone: Gäld three times
    assert [(r.seat, r.total) for r in state.reactions.results] == [(0, 4), (1, 4), (2, 4)]
    assert state.reactions.gald == [0, 1, 2]


def test_per_player_rolls_a_die_for_each_player() -> None:
    """VA-31 option 'per_player': a separate D10 for each player with camps there, in seat order from the first
    seat (VA-06)."""
    position = position_for(2, ("norway", "sweden"), first_seat=1)
    camps(position, 0, "mercien", trading=1)
    camps(position, 1, "mercien", trading=1)
    state = at_phase(position, S.REACTIONS, reaction_roll="per_player")
    state.apply(roll(1))
    assert [(r.seat, r.result) for r in state.reactions.results] == [(1, KRIG)]
    assert state.step == S.REACTION_ROLL
    state.apply(roll(10))
    assert [(r.seat, r.result) for r in state.reactions.results] == [(1, KRIG), (0, FRED)]


def test_areas_roll_in_board_order() -> None:
    """Every area with camps rolls once, in the order of the board file."""
    position = position_for(2, ("norway", "sweden"))
    camps(position, 0, "grekland", trading=1)
    camps(position, 1, "mercien", trading=1)
    state = at_phase(position, S.REACTIONS)
    expected = [a for a in position.area_ids if a in ("grekland", "mercien")]
    state.apply(roll(10))
    state.apply(roll(10))
    assert [r.area for r in state.reactions.results] == expected


@pytest.mark.parametrize("mode", ["per_area", "per_player"])
def test_random_reactions_keep_every_invariant(mode: str) -> None:
    """Random rolls over camps in many empire areas: ships and camps conserved, silver only from the Gäld table,
    the table sound after every action."""
    rng = random.Random(7)
    for _ in range(30):
        position = position_for(4, ("denmark", "norway", "sweden", "norway"), first_seat=rng.randrange(4))
        provinces = [a for e in BOARD.empires for a in e.provinces]
        for seat in range(4):
            for area in rng.sample(provinces, 3):
                kind = "trading" if rng.random() < 0.5 else "war"
                cap = position.trade_value(area) if kind == "trading" else BOARD.area(area).shields
                room = cap - position.camps_in_area(kind, area)
                war_owner = [s for s in range(4) if position.camps_at(s, "war", area)]
                same = all(position.kingdom_of(s) == position.kingdom_of(seat) for s in war_owner)
                if room > 0 and (kind == "trading" or same):
                    position.build_camps(seat, kind, area, 1)
        state = at_phase(position, S.REACTIONS, reaction_roll=mode)
        assert problems(state.position) == []
        play_randomly(state, rng)
