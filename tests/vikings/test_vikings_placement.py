"""Placing tiles and Vikings (rules/000 p.3 "Placing tiles and Vikings"; p.1 for the start tile)."""

from __future__ import annotations

import pytest
from vikings_kit import land, position, snapshot

from skald.engine import IllegalAction
from skald.games.vikings import actions as A
from skald.games.vikings.components import GREEN, LEFT, RED
from skald.games.vikings.steps import BUY, PLACE_TILE, PLACE_VIKING


def _buying(tile: str, viking: str, *, me: dict | None = None, **options) -> object:
    """A position where the first player buys a single Group (tile + Viking) for 1 Gold."""
    wheel = {
        "offset": 0,
        "groups": [{"space": 0, "tile": "L", "viking": "B"}, {"space": 1, "tile": tile, "viking": viking}],
    }
    state = position(me or land(), land(), wheel=wheel, options=options)
    state.apply(A.BUY + 1)
    return state


def _refused(state, action: int, rule: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert error.value.rule == rule, error.value
    assert snapshot(state) == before


# -- ships ------------------------------------------------------------------------------------------------------


def test_first_three_ships_go_in_columns_1_to_3_in_any_order():
    """rules/000 p.3: "The first 3 Ship tiles ... must be placed in the first 3 spaces of the Ship row. However,
    these 3 spaces may be occupied in any order the player chooses"."""
    state = _buying("red1", "F")
    assert [a - A.SHIP + 1 for a in state.legal_actions()] == [1, 2, 3]
    state.apply(A.SHIP + 2)  # column 3 first, as the rulebook's tips advise
    assert state.lands[0].ship_columns() == [3]


def test_a_fourth_ship_column_waits_until_columns_1_to_3_hold_ships():
    """rules/000 p.6 tips: "you may not place a Ship in the 4th column until the first 3 columns have Ships"."""
    state = _buying("red1", "F", me=land({"ship": ". green1 ."}))
    _refused(state, A.SHIP + 3, "ship.first_three")


def test_later_ships_are_placed_adjacent_left_to_right():
    """rules/000 p.3: "Further Ship tiles are placed in the Ship row adjacent to a previously placed Ship tile"."""
    state = _buying("red1", "F", me=land({"ship": "green1 green2 green3"}))
    assert state.legal_actions() == [A.SHIP + 3]
    _refused(state, A.SHIP + 4, "ship.adjacent")


def test_ship_row_option_touching_requires_each_ship_to_touch_another():
    """Rule option ship_row=touching (rules/001: "The first may be in any column; the others must touch another
    ship"): with a ship in column 1, column 3 is refused; the Z-Man default allows it."""
    me = land({"ship": "green1"})
    touching = _buying("red1", "F", me=me, ship_row="touching")
    assert [a - A.SHIP + 1 for a in touching.legal_actions()] == [2]
    _refused(touching, A.SHIP + 2, "ship.touching")
    zman = _buying("red1", "F", me=me)
    assert [a - A.SHIP + 1 for a in zman.legal_actions()] == [2, 3]


def test_a_ship_tile_may_not_go_in_a_viking_row():
    """rules/000 p.3: "When a player purchases a Ship tile, she must place it in the Ship row"."""
    _refused(_buying("red1", "F"), A.island(2, 1), "placement.ship_row")


# -- island tiles ------------------------------------------------------------------------------------------------


def test_island_tile_must_touch_the_mainland_or_an_island_tile_orthogonally():
    """rules/000 p.3: "Island tiles must be placed so that they are adjacent to the Mainland or at least one
    previously placed Island tile (diagonals do not count)"."""
    state = _buying("L", "F", me=land({"N": "L R"}))
    _refused(state, A.island(3, 3), "placement.adjacent")  # diagonal to N2 only
    _refused(state, A.island(2, 4), "placement.adjacent")
    assert A.island(3, 2) in state.legal_actions()  # below the right end: touches it
    assert A.island(4, 1) in state.legal_actions()  # beside the Mainland


def test_middle_piece_cannot_face_the_mainlands_sea():
    """rules/000 p.3: land connects to land and sea to sea; the Mainland's edge is sea, so column 1 takes only a
    left end (research §2.1)."""
    state = _buying("M1", "F", me=land({"N": "L"}))
    assert state.legal_actions() == [A.island(2, 2)]
    _refused(state, A.island(1, 1), "placement.edges")


def test_edges_must_match_land_to_land_and_sea_to_sea():
    """rules/000 p.3: "Tiles must be placed so that land connects to land, and sea connects to sea"; "Sea may not
    connect directly to an open Island"."""
    state = _buying("L", "F", me=land({"N": "L"}))
    _refused(state, A.island(2, 2), "placement.edges")  # a left end's sea against the open island's land
    middle = _buying("M2", "F", me=land({"N": "L R"}))
    _refused(middle, A.island(2, 3), "placement.edges")  # a middle's land against the right end's sea


def test_island_tiles_may_not_be_turned_a_right_end_cannot_start_an_island():
    """rules/000 p.3: "All Island tiles have a specific orientation and may not be played upside-down (e.g. a left
    Island tile may not be used to close the right side of an Island)"."""
    state = _buying("R", "F", me=land({"N": "L"}))
    assert state.legal_actions() == [A.island(2, 2)]
    _refused(state, A.island(1, 1), "placement.edges")


def test_an_unplaceable_island_tile_is_removed_and_its_viking_goes_to_the_head_boatswain():
    """rules/000 p.3: "If the purchased Island tile may not be legally placed ... it is removed from the game and
    the Viking is placed at the top left of the Mainland with the Head Boatswain"."""
    closed = land({"W": "L R", "N": "L R", "S": "L R", "G": "L R", "F": "L R"})  # every island closed
    state = _buying("M3", "N", me=closed)
    assert state.step == BUY and state.discarded == [3]
    assert state.lands[0].head[RED] == 1 and state.lands[0].tile_count() == 10


def test_start_tile_goes_in_column_1_of_a_viking_row_with_the_first_purchase():
    """rules/000 p.1: "When a player takes and places her first tile ... she also places her starting tile in one
    of the 5 spaces directly to the right of the colored Vikings pictured on her Mainland"."""
    state = _buying("red1", "F", me=land(start="in hand"))
    starts = [a for a in state.legal_actions() if A.START <= a < A.VIKING]
    assert [a - A.START + 1 for a in starts] == [1, 2, 3, 4, 5]
    state.apply(A.SHIP + 0)
    assert state.step == PLACE_TILE and state.legal_actions() == starts
    state.apply(A.START + 2)
    assert state.lands[0].tile(3, 1) == LEFT and state.lands[0].start_placed and state.step == BUY


def test_start_tile_first_lets_a_middle_piece_be_placed_in_either_order():
    """rules/000 p.3: "When a player purchases and places her first tile, she also places her Starting tile. These
    two tiles may be placed in any order" — the start tile first gives the middle piece a place."""
    state = _buying("M2", "N", me=land(start="in hand"))
    assert all(A.START <= a < A.VIKING for a in state.legal_actions())
    state.apply(A.START + 1)  # Noble row
    assert state.legal_actions() == [A.island(2, 2)]
    state.apply(A.island(2, 2))
    assert state.step == PLACE_VIKING
    state.apply(A.viking(2, 2))
    assert state.lands[0].viking(2, 2) == RED


def test_bought_left_end_first_then_the_start_tile_elsewhere():
    """rules/000 p.3: either order — the bought left end first, then the start tile in another row."""
    state = _buying("L", "S", me=land(start="in hand"))
    state.apply(A.island(3, 1))
    assert A.START + 2 not in state.legal_actions()  # Scout row column 1 is taken now
    state.apply(A.START + 0)
    assert state.step == PLACE_VIKING


# -- Vikings -----------------------------------------------------------------------------------------------------


def test_viking_may_stand_on_its_tile_placed_in_its_colours_row_or_go_to_the_head_boatswain():
    """rules/000 p.3: "When a player places an Island tile in the row matching the color of the Viking ... the
    Viking may be placed on that Island tile ... she may instead place it ... with the Head Boatswain"."""
    state = _buying("R", "S", me=land({"S": "L"}))
    state.apply(A.island(3, 2))
    assert state.legal_actions() == [A.viking(3, 2), A.HEAD]
    state.apply(A.HEAD)
    assert state.lands[0].head[GREEN] == 1 and state.lands[0].viking(3, 2) == -1


def test_viking_on_a_tile_in_another_row_goes_to_the_head_boatswain():
    """rules/000 p.3 Example 1: "The Island tile is being placed in the Noble row and the Scout must be placed with
    the Head Boatswain, as it does not match the row's color"."""
    state = _buying("L", "S")
    state.apply(A.island(2, 1))
    assert state.step == BUY and state.lands[0].head[GREEN] == 1


def test_viking_may_not_stand_on_another_free_tile_of_its_row():
    """rules/000 p.3: "The Viking may not be placed on any other tile in the same row"."""
    state = _buying("R", "S", me=land({"S": "L . .", "G": "L M1 R"}))
    state.apply(A.island(3, 2))
    _refused(state, A.viking(3, 1), "viking.bought_tile")


def test_viking_placement_option_any_tile_in_row():
    """Rule option viking_placement=any_tile_in_row (a review's reading): any free tile of the Viking's row."""
    state = _buying("R", "S", me=land({"S": "L . ", "N": "L M1"}), viking_placement="any_tile_in_row")
    state.apply(A.island(3, 2))  # the Scout's tile goes to the Scout row; the Scout may stand on S1 or S2
    assert state.legal_actions() == [A.viking(3, 1), A.viking(3, 2), A.HEAD]
    wrong_row = _buying("L", "S", me=land({"S": "L"}), viking_placement="any_tile_in_row")
    wrong_row.apply(A.island(2, 1))  # a tile in another row: the Scout waits with the Head Boatswain
    assert wrong_row.step == BUY and wrong_row.lands[0].head[GREEN] == 1


def test_only_one_viking_per_island_tile_and_only_in_its_row():
    """rules/000 p.3: "A Viking may only be placed on an Island tile in the row matching its color. Only one Viking
    may be placed on each Island tile"."""
    state = _buying("R", "S", me=land({"S": "L:S"}), viking_placement="any_tile_in_row")
    state.apply(A.island(3, 2))
    _refused(state, A.viking(3, 1), "viking.one_per_tile")
    _refused(state, A.viking(2, 1), "viking.row")


def test_completed_island_is_left_end_middles_right_end_without_holes():
    """rules/000 p.5: "A completed Island consists of a left end piece, a right end piece, and any number of middle
    pieces (no holes allowed)"."""
    state = position(land({"W": "L R L M1 M2 R", "N": "L M1 M2 M3", "S": "L . . R"}), land())
    assert state.lands[0].completed_islands() == [(1, 1, 2), (1, 3, 4)]


def test_any_tile_in_row_still_sends_a_ships_viking_to_the_head_boatswain():
    """rules/000 p.3: "When a player purchases a Ship tile, the Viking she acquires must be placed with the Head
    Boatswain" — under every reading of where a bought Viking may stand."""
    state = _buying("red1", "S", me=land({"S": "L"}), viking_placement="any_tile_in_row")
    state.apply(A.SHIP + 0)
    assert state.step == BUY and state.lands[0].head[GREEN] == 1
