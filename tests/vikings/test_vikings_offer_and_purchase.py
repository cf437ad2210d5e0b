"""Setup, the offer and purchasing Groups (rules/000 p.1 "Set up" and p.2 "Gameplay Overview", "Purchasing
Groups", "Rotating the wheel")."""

from __future__ import annotations

import random

import pytest
from vikings_kit import land, new_game, position, snapshot

from skald.engine import CHANCE, IllegalAction
from skald.games.vikings import actions as A
from skald.games.vikings.components import BLUE, EMPTY, GREY, is_ship
from skald.games.vikings.game import GAME
from skald.games.vikings.steps import BUY, DRAW_TILES, DRAW_VIKINGS


@pytest.mark.parametrize(("players", "gold"), [(2, 30), (3, 25), (4, 20)])
def test_setup_gives_30_25_20_gold_and_10_fame(players, gold):
    """rules/000 p.1: "With 2 players, each players receives 30 Gold. With 3 players, 25 Gold. With 4 players,
    20 Gold"; the Fame marker starts on space 10."""
    state = GAME.new_initial_state(players)
    assert [(m.gold, m.fame) for m in state.lands] == [(gold, 10)] * players


def test_setup_has_72_tiles_face_down_and_78_vikings_in_the_bag():
    """rules/000 p.1: "The 72 remaining tiles ... 6 face-down stacks of 12"; "All 78 Vikings are placed in the
    cloth sack"; each player holds her start tile."""
    state = GAME.new_initial_state(4)
    assert sum(state.pool) == 72
    assert sum(state.bag) == 78 and state.bag == [13] * 6
    assert not any(m.start_placed for m in state.lands)
    assert state.current_player() == CHANCE and state.step == DRAW_TILES


def test_chance_outcomes_are_the_remaining_tiles_by_their_share():
    """Drawing from the face-down stacks: each tile kind in proportion to how many are left."""
    state = GAME.new_initial_state(2)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[A.DRAW_TILE + 0] == pytest.approx(17 / 72)  # left ends without the 4 start tiles


def test_offer_lays_islands_from_space_0_up_and_ships_from_11_down():
    """rules/000 p.2: "The first Island tile must be placed on the space marked by the number 0 ... The first Ship
    tile must be placed on the space marked by the number 11"."""
    state = GAME.new_initial_state(2)
    draws = ["L", "green1", "M2", "red1", "R", "R", "L", "M1", "blue1", "R", "L", "M3"]
    for code in draws:
        state.apply(state.action_from_notation(f"draw tile {code}"))
    codes = [A.to_json(A.DRAW_TILE + t)["tile"] for t in state.wheel_tiles]
    assert codes == ["L", "M2", "R", "R", "L", "M1", "R", "L", "M3", "blue1", "red1", "green1"]
    assert state.step == DRAW_VIKINGS


def test_offer_sorts_the_12_vikings_from_space_0_in_colour_order():
    """rules/000 p.2: Vikings placed from space 0, colour by colour: blue, yellow, green, red, black, grey."""
    state = GAME.new_initial_state(2)
    rng = random.Random(3)
    while state.step == DRAW_TILES:
        state.apply(rng.choice(state.legal_actions()))
    for letter in "BWFNBSGFWFNB":
        state.apply(state.action_from_notation(f"draw viking {letter}"))
    assert "".join("FGSNWB"[v] for v in state.wheel_vikings) == "FFFGSNNWWBBB"
    assert state.step == BUY and state.current_player() == 0


def _wheel(vikings: str, tiles: str | None = None) -> dict:
    tiles_list = (tiles or " ".join(["L"] * len(vikings))).split()
    return {
        "offset": 0,
        "groups": [
            {"space": s, "tile": t, "viking": v} for s, (t, v) in enumerate(zip(tiles_list, vikings, strict=True))
        ],
    }


def test_zero_space_group_only_when_its_viking_is_the_last_of_its_colour():
    """rules/000 p.2 "Example for acquiring a 0-cost Group: Before someone can purchase the Fisherman ... on the
    0-cost space, the Fishermen next to the 1 and the 2 must first be purchased"."""
    state = position(land(), land(), wheel=_wheel("FFFGSNNWWBBB"))
    assert A.BUY + 0 not in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(A.BUY + 0)
    assert error.value.rule == "purchase.zero_space"
    assert snapshot(state) == before
    state.apply(A.BUY + 2)
    state.apply(A.island(5, 1))  # the left end to the Fisherman row
    state.apply(A.HEAD)
    state.apply(A.BUY + 1)
    state.apply(A.island(5, 1))
    state.apply(A.HEAD)
    assert A.BUY + 0 in state.legal_actions()


def test_zero_space_group_when_no_other_group_is_affordable_with_gold_alone():
    """rules/000 p.2: "If a player doesn't have enough Gold to purchase the least expensive Group allowed, she is
    forced to take the 0-cost Group" — and "is never obliged to convert Fame to Gold" to avoid it."""
    state = position(land(gold=0, fame=5), land(), wheel=_wheel("FFFGSNNWWBBB"))
    legal = state.legal_actions()
    assert A.BUY + 0 in legal
    assert A.BUY + 5 in legal and A.BUY + 6 not in legal  # Fame may pay up to 5, never below 0


def test_fame_pays_the_shortfall_when_a_group_costs_more_than_the_gold():
    """rules/000 p.2: "A player may exchange Fame for Gold at a rate of 1 Fame for 1 Gold"."""
    state = position(land(gold=3, fame=10), land(), wheel=_wheel("FFFGSNNWWBBB"))
    state.apply(A.BUY + 7)
    assert (state.lands[0].gold, state.lands[0].fame) == (0, 6)


def test_fame_may_never_go_below_zero_to_buy():
    """rules/000 p.2: "a player's Fame may never be reduced below 0 ... (a debt of Gold or Fame is not allowed)"."""
    state = position(land(gold=2, fame=1), land(), wheel=_wheel("FFFGSNNWWBBB"))
    with pytest.raises(IllegalAction) as error:
        state.apply(A.BUY + 4)
    assert error.value.rule == "purchase.afford"


def test_wheel_turns_after_the_zero_group_so_all_prices_fall():
    """rules/000 p.2 "Rotating the wheel": after the 0-cost Group is bought, the wheel turns until a Group occupies
    the 0-cost spot; "In this way, the cost of all remaining Groups is reduced"."""
    state = position(land(), land(), wheel=_wheel("FFFGSNNWWBBB"))
    for price in (2, 1):
        state.apply(A.BUY + price)
        state.apply(A.island(5, 1))
        state.apply(A.HEAD)
    state.apply(A.BUY + 0)  # the last Fisherman leaves space 0 empty
    state.apply(A.island(4, 1))  # the first player again: her Fisherman row column 1 is taken
    assert state.lands[0].head[BLUE] == 2  # this Fisherman, on a Goldsmith-row tile, joins the one sent there
    assert state.offset == 3  # the wheel turns: the Goldsmith's Group on space 3 costs 0
    assert state.price_of(3) == 0 and state.price_of(11) == 8


def test_wheel_does_not_turn_when_another_group_is_bought():
    """rules/000 p.2: only buying the 0-cost Group turns the wheel."""
    state = position(land(), land(), wheel=_wheel("FGSNWBFGSNWB"))
    state.apply(A.BUY + 5)
    assert state.offset == 0 and state.wheel_tiles[5] == EMPTY


def test_purchases_go_clockwise_from_the_start_player_until_all_12_groups_are_gone():
    """rules/000 p.2: "Beginning with the start player and proceeding clockwise, each player must purchase exactly
    1 Group ... until all 12 Groups have been purchased" (3 each with 4 players)."""
    state = new_game(4, seed=5)
    buyers = []
    rng = random.Random(5)
    while state.round == 1:
        if state.step == BUY:
            buyers.append(state.current_player())
        state.apply(rng.choice(state.legal_actions()) if state.current_player() >= 0 else state.chance_outcomes()[0][0])
    assert buyers == [0, 1, 2, 3] * 3


def test_start_player_ship_passes_clockwise_after_each_scoring():
    """rules/000 p.5 "Next Round": "the Start Player Ship is passed clockwise to the next player"."""
    state = new_game(3, seed=1)
    rng = random.Random(1)
    first_buyer = {}
    while not state.is_terminal():
        if state.step == BUY and state.round not in first_buyer:
            first_buyer[state.round] = state.current_player()
        player = state.current_player()
        state.apply(rng.choice(state.legal_actions()) if player >= 0 else rng.choice(state.chance_outcomes())[0])
    assert first_buyer == {1: 0, 2: 1, 3: 2, 4: 0, 5: 1, 6: 2}


def test_ship_groups_viking_and_boatswains_always_go_to_the_head_boatswain():
    """rules/000 p.3: "When a player purchases a Ship tile, the Viking she acquires must be placed with the Head
    Boatswain"; a Boatswain "must be placed with the Head Boatswain"."""
    state = position(land(), land(), wheel=_wheel("FFFGSNNWWBBB", "L L L L L L L L L red1 L blue1"))
    state.apply(A.BUY + 11)  # blue1 ship with a Boatswain
    state.apply(A.SHIP + 0)
    assert state.lands[0].head[GREY] == 1 and state.step == BUY
    state.apply(A.BUY + 9)  # red1 ship with a Boatswain, player 2
    state.apply(A.SHIP + 2)
    assert state.lands[1].head[GREY] == 1
    assert is_ship(state.lands[1].tile(0, 3))
    assert state.lands[0].head[BLUE] == 0
