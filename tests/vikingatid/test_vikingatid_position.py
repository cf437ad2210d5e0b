"""Vikingatid's position (`position.py`): the setup's start (rule text, setup; VA-01, VA-02, VA-03), clone, snapshot,
and the invariants the property tests of the whole turn call (silver never negative, ships and camps conserved, caps
respected)."""

from __future__ import annotations

import json

import pytest

from skald.games.vikingatid.actions import KINGDOMS
from skald.games.vikingatid.board import load_board
from skald.games.vikingatid.position import PEACE_PENDING, SETUP_PHASE, WAR_MARKER, Position, pair_index, problems
from skald.games.vikingatid.setup import NOBODY

BOARD = load_board()


def busy(position: Position) -> Position:
    """`position` after a little of everything a turn does (through the ledger-keeping methods)."""
    for seat, kingdom in enumerate(("norway", "denmark", "norway")[: position.num_players]):
        position.choice.kingdoms[seat] = kingdom
    position.turn, position.phase, position.first_seat = 3, 6, 1
    position.gain_silver(0, 12)
    position.spend_silver(0, 10)
    position.place_ships(0, "war", "norge", 10)
    fleet = position.launch(0, "war", "norge", 7)
    position.fleets[fleet] = position.fleets[fleet]._replace(area="nordsjon", danger=3, moves=1)
    position.lose_fleet_ships(fleet, 2)
    position.build_camps(0, "war", "mercien", 2)
    position.lose_fleet_ships(fleet, 4)
    position.place_ships(1, "trading", "danavalde", 4)
    position.build_camps(1, "trading", "gotland", 1)
    position.pay_treasury(0, "norway", 1)
    position.treasury_gains("denmark", 3)
    position.draw_treasury("denmark", 1, 2)
    position.king[1] = 0
    position.war[0] = WAR_MARKER
    position.pair_war[pair_index("denmark", "norway")] = PEACE_PENDING
    position.kings_peace[pair_index("sweden", "norway")] = True
    position.plundered[position.slot("mercien")] = True
    position.trade_stop[position.slot("gotland")] = True
    position.discovered_by[position.slot("island")] = 1
    position.discovered_turn[position.slot("island")] = 3
    position.empire_of[position.slot("cherson")] = ""
    position.christian[1] = True
    position.vp[0] = 6
    return position


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_fresh_table_is_the_setup_of_the_rule_text(players: int) -> None:
    """VA-02: 0 silver, empty treasuries, king counters in their kingdoms (no king), no war, no ship or camp on the
    board; the Year marker at 800 ('Is placed at the year 800 on the timeline'), turn 1 (VA-03); nobody Christian
    ('Starting in the year 900'); the unknown lands undiscovered ('Iceland and further west are undiscovered at the
    beginning of the game'); kingdoms still to be chosen by the dice (VA-01)."""
    position = Position(BOARD, players)
    assert (
        position.turn == 1 and position.year == 800 and position.phase == SETUP_PHASE and position.first_seat == NOBODY
    )
    assert position.silver == [0] * players and position.vp == [0] * players
    assert position.treasury == [0, 0, 0] and position.king == [NOBODY] * 3
    assert position.war == ["", "", ""] and position.pair_war == ["", "", ""] and position.kings_peace == [False] * 3
    assert all(position.ships_on_board(s) == 0 and sum(position.camps[s]) == 0 for s in range(players))
    assert position.fleets == []
    assert position.christian == [False] * players and position.emigrated == [False] * players
    assert [position.kingdom_of(s) for s in range(players)] == [""] * players
    assert position.choice.rolls == [[] for _ in range(players)]
    assert not any(position.trade_stop) and not any(position.plundered)
    unknown = [a.id for a in BOARD.areas if not position.is_discovered(a.id)]
    assert unknown == [
        "islandshavet", "gronlandshavet", "vastra_havet", "vinlandshavet",
        "island", "gronland", "helluland", "markland", "vinland",
    ]  # fmt: skip
    assert position.empire_of[position.slot("mercien")] == "britain"
    assert problems(position) == []
    snapshot = position.snapshot()
    assert snapshot["year"] == 800 and snapshot["discovered"] == {} and snapshot["empires"] == {}
    assert all(seat["ships"] == {} and seat["camps"] == {} for seat in snapshot["seats"])


def test_fixed_kingdom_choice_deals_the_kingdoms_in_seat_order() -> None:
    """kingdom_choice 'fixed' (VA-01, 'The players may also decide beforehand'): seat s takes Denmark, Norway,
    Sweden in turn, with no roll."""
    position = Position(BOARD, 5, "fixed")
    assert [position.kingdom_of(s) for s in range(5)] == ["denmark", "norway", "sweden", "denmark", "norway"]
    assert position.members("denmark") == [0, 3]


@pytest.mark.parametrize("players", [1, 7])
def test_vikingatid_is_for_two_to_six_players(players: int) -> None:
    """'Viking era is a game for two to six players.'"""
    with pytest.raises(ValueError, match="num_players: Vikingatid is for 2 to 6 players"):
        Position(BOARD, players)


def test_a_clone_is_independent() -> None:
    """A clone equals its source, and changing either leaves the other as it was (clone through the constructor)."""
    position = busy(Position(BOARD, 3))
    before = position.snapshot()
    copy = position.clone()
    assert copy.snapshot() == before
    busy(copy)
    copy.choice.rolls[0].append(4)
    copy.fleets.clear()
    copy.remove_camps(0, "war", "mercien", 1)
    assert position.snapshot() == before
    busy(position)
    position.place_ships(2, "war", "svea_rike", 1)
    assert copy.snapshot() != position.snapshot()


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_snapshot_round_trips_through_json(players: int) -> None:
    """snapshot() is JSON-ready and exact: a table rebuilt from its JSON text has the same snapshot."""
    for position in (Position(BOARD, players), busy(Position(BOARD, players))):
        snapshot = position.snapshot()
        again = Position.from_snapshot(BOARD, json.loads(json.dumps(snapshot)))
        assert again.snapshot() == snapshot
        assert problems(again) == problems(position)


def test_the_snapshot_names_areas_by_id_and_lists_only_what_is_there() -> None:
    """Ships and camps per area by board id, non-zero only; fleets with type, size, area and danger count."""
    snapshot = busy(Position(BOARD, 2)).snapshot()
    seat = snapshot["seats"][0]
    assert seat["ships"] == {"norge": {"war": 3}}
    assert seat["camps"] == {"mercien": {"war": 2}}
    assert snapshot["fleets"] == [
        {"owner": 0, "kind": "war", "size": 1, "area": "nordsjon", "danger": 3, "moves": 1, "entered_from": ""}
    ]
    assert snapshot["kingdoms"]["denmark"] == {"king": NOBODY, "treasury": 1, "war": "war"}
    assert snapshot["kingdoms"]["norway"] == {"king": 0, "treasury": 1, "war": ""}
    assert snapshot["pairs"]["denmark-norway"] == {"war": "peace?", "kings_peace": False}
    assert snapshot["plundered"] == ["mercien"] and snapshot["trade_stops"] == ["gotland"]
    assert snapshot["discovered"] == {"island": {"by": 1, "turn": 3}}
    assert snapshot["empires"] == {"cherson": ""}


def test_a_snapshot_that_does_not_fit_is_refused_by_name() -> None:
    """A snapshot naming an area the board lacks, or missing a field, raises ValueError, not a traceback."""
    snapshot = busy(Position(BOARD, 2)).snapshot()
    snapshot["seats"][0]["ships"] = {"atlantis": {"war": 1}}
    with pytest.raises(ValueError, match="area: no area 'atlantis' on the board"):
        Position.from_snapshot(BOARD, snapshot)
    del snapshot["ledger"]
    snapshot["seats"][0]["ships"] = {}
    with pytest.raises(ValueError, match="snapshot: does not fit the board or is incomplete"):
        Position.from_snapshot(BOARD, snapshot)


def test_ships_camps_and_silver_are_conserved_through_the_ledger() -> None:
    """Every change through the table's methods keeps the ledger: ships, camps and silver conserved."""
    position = busy(Position(BOARD, 3))
    assert problems(position) == []
    position.land_fleet(0)
    position.remove_ships(0, "war", "nordsjon", 1)
    position.give_silver(0, 2, 1)
    position.treasury_loses("norway", 1)
    assert problems(position) == []


def test_a_ship_camp_or_silver_written_past_the_ledger_is_caught() -> None:
    """The conservation invariants catch a rule that writes the lists directly."""
    position = busy(Position(BOARD, 2))
    position.ships[1][position.slot("danavalde")] += 1
    position.camps[0][position.num_areas + position.slot("mercien")] -= 1
    position.silver[1] += 2
    found = problems(position)
    assert "seat 1: ships not conserved: 5 on the board, but 4 entered and 0 left" in found
    assert "seat 0: camps not conserved: 1 on the board, but 2 built and 0 lost" in found
    assert any(line.startswith("silver not conserved") for line in found)


def test_overdrawing_is_refused_and_changes_nothing() -> None:
    """Silver never goes negative, nor ships or camps: the methods refuse and leave the table as it was."""
    position = busy(Position(BOARD, 2))
    before = position.snapshot()
    for attempt in (
        lambda: position.spend_silver(1, 99),
        lambda: position.give_silver(1, 0, 99),
        lambda: position.pay_treasury(1, "denmark", 99),
        lambda: position.draw_treasury("sweden", 0, 1),
        lambda: position.treasury_loses("sweden", 1),
        lambda: position.remove_ships(0, "trading", "norge", 1),
        lambda: position.launch(0, "war", "norge", 4),
        lambda: position.lose_fleet_ships(0, 2),
        lambda: position.remove_camps(1, "war", "gotland", 1),
        lambda: position.gain_silver(0, 0),
    ):
        with pytest.raises(ValueError):
            attempt()
    assert position.snapshot() == before


def test_camp_caps_are_checked() -> None:
    """6.3: trading camps at most the trade value; 'All players together cannot have more war camps per area than
    the number of shields'; 'No camps may be built there' in kingdoms and cores (VA-45); 'Only players from the same
    kingdom can have war camps in the same area', an emigrant's camps aside (VA-61)."""
    position = Position(BOARD, 3, "fixed")  # Denmark, Norway, Sweden
    position.build_camps(0, "trading", "ostangeln", 3)  # East Anglia: 2 coins
    position.build_camps(1, "war", "ostangeln", 2)  # 1 shield
    position.build_camps(0, "war", "wessex", 1)  # Britain's core
    position.build_camps(0, "trading", "norge", 1)  # a Viking kingdom
    position.build_camps(0, "war", "mercien", 1)
    position.build_camps(2, "war", "mercien", 1)
    found = problems(position)
    assert "area ostangeln: 3 trading camps, more than its trade value 2" in found
    assert "area ostangeln: 2 war camps, more than its 1 shields" in found
    assert "area wessex: camps where none may be built (VA-45)" in found
    assert "area norge: camps where none may be built (VA-45)" in found
    assert "area mercien: war camps of more than one kingdom (denmark, sweden)" in found
    position.emigrated[2] = True
    assert "area mercien: war camps of more than one kingdom (denmark, sweden)" not in problems(position)


def test_fleets_hold_one_to_ten_ships() -> None:
    """'A fleet consists of at least one and no more than ten ships' (6.1)."""
    position = Position(BOARD, 2)
    position.place_ships(0, "war", "norge", 11)
    position.launch(0, "war", "norge", 11)
    assert "fleet 0: 11 ships, not 1 to 10 (6.1)" in problems(position)


def test_a_discovered_land_opens_the_seas_that_lead_to_it() -> None:
    """VA-26: once Iceland is discovered, the Sea around Iceland is on the map; the seas further west are not."""
    position = Position(BOARD, 2)
    position.discovered_by[position.slot("island")] = 0
    assert position.is_discovered("island") and position.is_discovered("islandshavet")
    assert not position.is_discovered("gronlandshavet") and not position.is_discovered("gronland")


def test_khorasan_trades_at_two_once_the_mines_are_dry() -> None:
    """GRUVORNA SINAR: 'The trade value of the province Khorasan is reduced to two.'"""
    position = Position(BOARD, 2)
    assert position.trade_value("khorasan") == BOARD.area("khorasan").trade
    position.mines_dry = True
    assert position.trade_value("khorasan") == 2
    assert position.trade_value("gotland") == BOARD.area("gotland").trade


def test_markers_and_kings_must_be_valid() -> None:
    """A king is a seat or nobody; a kingdom's marker is nothing, War or Peace? (VA-40)."""
    position = Position(BOARD, 2)
    position.king[KINGDOMS.index("sweden")] = 4
    position.war[0] = "truce"
    found = problems(position)
    assert "kingdom sweden: king 4 is not a seat" in found
    assert any(line.startswith("kingdom denmark: war marker 'truce'") for line in found)
