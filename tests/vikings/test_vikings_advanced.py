"""The advanced game (rules/000, supplementary sheet "Advanced rules" and "The Special tiles")."""

from __future__ import annotations

import random

import pytest
from vikings_kit import land, position, snapshot

from skald.engine import CHANCE, IllegalAction, play_random_game
from skald.games.vikings import actions as A
from skald.games.vikings.components import (
    BLACK,
    BOAT,
    GOLDSMITH1,
    GREEN,
    GREY,
    HORN,
    NOBLE1,
    RED,
    SCOUT1,
    YELLOW,
)
from skald.games.vikings.game import GAME
from skald.games.vikings.scoring import end_scoring, large_scoring, small_scoring
from skald.games.vikings.steps import (
    AUCTION,
    BUY,
    DRAW_SPECIALS,
    DRAW_TILES,
    DRAW_VIKINGS,
    FERRY,
    PLACE_COLOURS,
    PLACE_TILE,
    PLACE_VIKING,
    REMOVE_VIKING,
    REPLACE_BUILDING,
    TAKE_SPECIAL,
)

ADVANCED = {"variant": "advanced"}
#: The advanced game with the Building choice made once the bought tile is down (rule option building_choice).
AFTER_PLACING = {**ADVANCED, "building_choice": "after_placing"}
#: The first middle kind's tile type, as `discarded` lists it.
M1 = 1


def goldsmith_square(column):
    """Flat index of the Goldsmith row's square in `column` (each row holds 37 columns)."""
    return 4 * 37 + column - 1


def _refused(state, action: int, rule: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert error.value.rule == rule, error.value
    assert snapshot(state) == before


def _draw(state, *codes: str) -> None:
    for code in codes:
        state.apply(state.action_from_notation(code))


# -- setting out the special tiles and the auction ---------------------------------------------------------------


def test_four_special_tiles_are_turned_up_before_the_first_auction():
    """rules/000 advanced: "At the beginning of the first round, before the first auction, the start player draws
    4 tiles from these stacks and places them face up on the 4 spaces provided"."""
    state = GAME.new_initial_state(3, ADVANCED)
    assert state.step == DRAW_SPECIALS and sum(state.specials_pool) == 25
    _draw(state, "draw special boat", "draw special horn", "draw special building2", "draw special gold5")
    assert state.step == DRAW_VIKINGS and sum(state.specials_pool) == 21
    assert state.face_up == [BOAT, HORN, 11, 0]


def _auction(drawn: dict[str, int], *lands_, **fields):
    return position(
        *(lands_ or (land(), land())),
        options=ADVANCED,
        step="auction",
        drawn=drawn,
        auction={"high_bid": -1, "high_bidder": -1, "bidding": [True] * len(lands_ or (1, 2))},
        **fields,
    )


THIRTEEN = {"F": 4, "G": 2, "S": 2, "N": 1, "W": 2, "B": 2}


def test_start_player_opens_the_auction_and_wins_for_0_when_nobody_raises():
    """rules/000 advanced: "The current start player begins the auction by bidding 0 or more Gold ... If no player
    chooses to raise the bid, the current start player can win with a bid of 0"."""
    state = _auction(THIRTEEN, start_player=0, to_move=0)
    _refused(state, A.PASS, "auction.open")
    state.apply(A.BID + 0)
    state.apply(A.PASS)
    assert state.step == REMOVE_VIKING and state.start_player == 0 and state.lands[0].gold == 30


def test_bids_must_raise_and_may_be_topped_up_from_fame_and_the_winner_pays_the_bank():
    """rules/000 advanced: players raise in clockwise order or pass; "When a player has no more Gold, she may
    exchange Fame for Gold at a rate of 1 to 1"; "The player who offers the highest bid pays her bid to the bank"
    and takes the Start Player Ship."""
    state = _auction(
        THIRTEEN, land(gold=2, fame=10), land(gold=5, fame=0), land(gold=9, fame=0), start_player=1, to_move=1
    )
    state.apply(A.BID + 3)
    assert state.current_player() == 2
    state.apply(A.BID + 4)
    _refused(state, A.BID + 4, "auction.raise")  # the first player cannot merely match
    _refused(state, A.BID + 13, "auction.afford")  # 2 Gold + 10 Fame
    state.apply(A.BID + 12)
    state.apply(A.PASS)  # player 2 drops out
    assert state.current_player() == 2
    state.apply(A.PASS)
    assert state.step == REMOVE_VIKING and state.start_player == 0
    assert (state.lands[0].gold, state.lands[0].fame) == (0, 0)


def test_example_1_winner_removes_a_boatswain_then_colours_are_laid_from_11_down():
    """rules/000 advanced Example 1: "The start player removes 1 Boatswain from the game ... She chooses to place the
    Goldsmiths and places them at numbers 11 and 10. The next player chooses Fishermen and places them at numbers 9,
    8, 7 and 6. This continues until all Vikings have been placed"."""
    state = _auction(THIRTEEN, start_player=0, to_move=0)
    state.apply(A.BID + 0)
    state.apply(A.PASS)
    state.apply(state.action_from_notation("remove B"))
    assert state.removed_vikings == 1 and state.drawn[GREY] == 1 and state.step == DRAW_TILES
    rng = random.Random(1)
    while state.current_player() == CHANCE:
        state.apply(rng.choice(state.legal_actions()))
    assert state.step == PLACE_COLOURS and state.current_player() == 0
    state.apply(state.action_from_notation("place G"))
    assert state.current_player() == 1
    state.apply(state.action_from_notation("place F"))
    assert state.wheel_vikings[11] == state.wheel_vikings[10] == YELLOW
    assert [state.wheel_vikings[s] for s in (9, 8, 7, 6)] == [0, 0, 0, 0]
    state.apply(state.action_from_notation("place N"))
    state.apply(state.action_from_notation("place S"))
    state.apply(state.action_from_notation("place W"))  # the last colour, the Boatswain, lays itself
    assert state.step == BUY and state.current_player() == 0 and -1 not in state.wheel_vikings
    assert "".join("FGSNWB"[v] for v in state.wheel_vikings) == "BWWSSNFFFFGG"


def test_advanced_game_with_the_auction_draws_all_78_vikings():
    """13 Vikings a round for 6 rounds: all 78 leave the bag, 6 of them removed by the auctions' winners."""
    state = play_random_game(GAME.new_initial_state(4, ADVANCED), random.Random(3))
    assert sum(state.bag) == 0 and state.removed_vikings == 6 and state.viking_census() == 78


def test_advanced_game_without_the_auction_keeps_the_standard_offer():
    """rules/000 advanced: "Players can also choose to play the advanced game without the preceding auction and
    offer preparation rules" (rule option auction=off)."""
    state = GAME.new_initial_state(2, {"variant": "advanced", "auction": "off"})
    rng = random.Random(2)
    while state.step == DRAW_SPECIALS:
        state.apply(rng.choice(state.legal_actions()))
    assert state.step == DRAW_TILES
    final = play_random_game(state, rng)
    assert sum(final.bag) == 6 and final.removed_vikings == 0


def test_start_player_ship_passes_clockwise_before_each_auction():
    """rules/000: after scoring "the Start Player Ship is passed clockwise"; its holder then opens the auction."""
    state = GAME.new_initial_state(3, ADVANCED)
    rng = random.Random(5)
    openers = {}
    while not state.is_terminal():
        if state.step == AUCTION and state.round not in openers:
            openers[state.round] = (state.current_player(), state.start_player)
        player = state.current_player()
        state.apply(rng.choice(state.legal_actions()) if player >= 0 else rng.choice(state.chance_outcomes())[0])
    assert all(opener == holder for opener, holder in openers.values())


# -- taking special tiles ------------------------------------------------------------------------------------------


def _buying_with_specials(face_up, groups, me=None, offset=0, options=ADVANCED, **fields):
    wheel = {"offset": offset, "groups": [{"space": s, "tile": t, "viking": v} for s, t, v in groups]}
    return position(
        me or land(),
        land(),
        options=options,
        wheel=wheel,
        specials={"stacks": {}, "face_up": face_up, "spent": 0},
        **fields,
    )


def test_example_3_buying_a_ship_and_warrior_for_10_takes_a_special_tile():
    """rules/000 advanced Example 3: "A player purchases a Ship and a Warrior for 10 Gold. She receives one of the
    face-up Special tiles" — whoever buys the most expensive remaining Group may take one."""
    groups = [(s, "L", "F") for s in range(10)] + [(10, "red1", "W")]
    state = _buying_with_specials(["noble1", "boat", None, "horn"], groups)
    state.apply(A.BUY + 10)
    assert state.step == TAKE_SPECIAL and state.lands[0].gold == 20
    assert state.legal_actions() == [A.TAKE_SPECIAL + 0, A.TAKE_SPECIAL + 1, A.TAKE_SPECIAL + 3, A.DECLINE]
    state.apply(state.action_from_notation("take 1"))
    assert state.lands[0].specials[NOBLE1] == 1 and state.face_up[0] == -1
    assert state.step == PLACE_TILE


def test_no_special_tile_for_a_cheaper_group_or_the_rounds_last_group_for_0():
    """rules/000 advanced: only the most expensive remaining Group; "No special tile is taken when purchasing the
    last tile of the round for 0 Gold"."""
    groups = [(s, "L", "FGSNWBFGSNWB"[s]) for s in range(12)]
    cheaper = _buying_with_specials(["noble1", None, None, None], groups)
    cheaper.apply(A.BUY + 7)
    assert cheaper.step != TAKE_SPECIAL
    last = _buying_with_specials(["noble1", None, None, None], [(11, "L", "F")], offset=11, turn={"purchases": 11})
    last.apply(A.BUY + 0)
    assert last.step != TAKE_SPECIAL and last.lands[0].specials[NOBLE1] == 0


def test_special_tiles_are_refilled_at_the_start_of_each_round():
    """rules/000 advanced: "At the beginning of each round, refill the empty spaces with new Special tiles"."""
    state = GAME.new_initial_state(2, ADVANCED)
    rng = random.Random(9)
    taken = False
    while state.round == 1:
        if state.step == BUY and not taken:
            state.apply(max(state.legal_actions()))  # the most expensive Group: 30 Gold afford it
            continue
        if state.step == TAKE_SPECIAL:
            state.apply(A.TAKE_SPECIAL + state.face_up.index(next(t for t in state.face_up if t != -1)))
            taken = True
            continue
        player = state.current_player()
        state.apply(rng.choice(state.legal_actions()) if player >= 0 else rng.choice(state.chance_outcomes())[0])
    assert taken and state.step == DRAW_SPECIALS
    while state.step == DRAW_SPECIALS:
        state.apply(rng.choice(state.legal_actions()))
    assert -1 not in state.face_up


def test_gold5_pays_5_gold_at_once_and_leaves_the_game():
    """Special tile "5 Gold" (immediately): "The player gains 5 Gold. The tile is removed from the game"."""
    groups = [(0, "L", "F"), (1, "L", "G")]
    state = _buying_with_specials(["gold5", None, None, None], groups)
    state.apply(A.BUY + 1)
    state.apply(A.TAKE_SPECIAL + 0)
    assert state.lands[0].gold == 30 - 1 + 5 and state.specials_spent == 1 and sum(state.lands[0].specials) == 0


# -- scoring effects, by timing ------------------------------------------------------------------------------------


def _adv(me: dict, **specials: int):
    me = me | {"specials": specials}
    return position(me, land(), options=ADVANCED)


def test_goldsmith_tiles_pay_extra_gold_for_unthreatened_goldsmiths_at_small_and_large_scorings():
    """Special tiles "Goldsmith +1" (2 copies) and "+2": 1 or 2 additional Gold for each Goldsmith not threatened
    by a ship, at small and large scorings."""
    me = land({"ship": "yellow1", "G": "L:G R:G"})  # the yellow ship threatens G1
    state = _adv(me, goldsmith1=1, goldsmith2=1)
    small = [(line.kind, line.gold) for line in small_scoring(0, state.lands[0])]
    assert small == [("goldsmith", 0), ("goldsmith", 3), ("special", 1), ("special", 2)]
    assert sum(line.gold for line in large_scoring(0, state.lands[0]) if line.kind == "special") == 3


def test_noble_scout_and_fisherman_tiles_pay_at_large_scorings_only():
    """Special tiles "Noble +1", "Scout +1", "Fisherman +1" (large scoring): 1 additional Fame for each such
    Viking not threatened by a ship."""
    me = land({"N": "L:N R:N", "S": "L:S", "F": "L:F R:F"})
    state = _adv(me, noble1=2, scout1=1, fisherman1=1)
    extras = [
        (line.text.split(" tile")[0], line.fame) for line in large_scoring(0, state.lands[0]) if line.kind == "special"
    ]
    assert extras == [("Noble +1", 4), ("Scout +1", 1), ("Fisherman +1", 2)]
    assert not [line for line in small_scoring(0, state.lands[0]) if line.kind == "special"]


def test_boatswain_with_horn_counts_for_the_majority_but_is_not_fed_and_cannot_ferry():
    """Special tile "Boatswain with horn" (end): counts as 1 Boatswain for the 10 Fame; "may not be used to move
    Vikings"; "Vikings depicted on Special tiles are not counted during the feeding phase"."""
    a = land(head={"B": 1}) | {"specials": {"horn": 1}}
    b = land(head={"B": 1})
    state = position(a, b, options=ADVANCED)
    lines = end_scoring(state.lands, [0, 1], False, False)
    assert [(line.seat, line.fame) for line in lines if line.kind == "boatswains"] == [(0, 10)]
    assert state.lands[0].vikings_owned() == 1
    horn_only = position(
        land({"N": "L"}, head={"N": 1}) | {"specials": {"horn": 2}},
        land(),
        options=ADVANCED,
        round=2,
        step="ferry",
        to_move=0,
        ferry={"scoring_index": 1},
    )
    assert horn_only.legal_actions() == [A.DONE]


def test_fisherman_with_fish_pays_3_per_surplus():
    """Special tile "Fisherman with fish" (end): 3 points per Viking she could feed but did not need to."""
    state = _adv(land({"F": "L:F R:F"}), fish=1)
    lines = end_scoring(state.lands, [0, 1], False, False)
    assert next(line.fame for line in lines if line.seat == 0 and line.kind == "feeding") == 3 * (10 - 2)


def test_three_gold_for_one_fame_tile():
    """Special tile "3 = 1 Fame" (end): for every 3 Gold remaining, 1 Fame instead of 5:1."""
    state = _adv(land(gold=11), gold3=1)
    lines = end_scoring(state.lands, [0, 1], False, False)
    assert [(line.fame, line.gold) for line in lines if line.seat == 0 and line.kind == "gold"] == [(3, -9)]


# -- the Boatswain in the advanced game ---------------------------------------------------------------------------


def _ferry(me: dict, round_: int = 2):
    return position(me, land(), options=ADVANCED, round=round_, step="ferry", to_move=0, ferry={"scoring_index": 1})


def test_example_2_two_boatswains_move_two_vikings():
    """rules/000 advanced: "a Boatswain may only be used to move a single Viking"; Example 2: "Two Boatswains move
    two other Vikings onto unoccupied Island tiles"."""
    state = _ferry(land({"N": "L R"}, head={"N": 2, "B": 2}))
    _refused(state, A.FERRY_EACH, "ferry.single")
    state.apply(A.FERRY + RED)
    state.apply(A.viking(2, 1))
    assert state.lands[0].head[RED] == 1 and state.step == FERRY
    state.apply(A.FERRY + RED)  # the last one has a single free tile: it lands by itself
    assert state.lands[0].head[RED] == 0 and state.lands[0].head[GREY] == 0


def test_boat_tile_restores_the_standard_ferry_and_leaves_with_its_boatswain():
    """Special tile "Boat" (large scoring): "1 Boatswain may move all Vikings of one color or 1 Viking of each
    available color ... This tile and the Boatswain are removed from the game"."""
    state = _ferry(land({"N": "L M1 R"}, head={"N": 3, "B": 1}) | {"specials": {"boat": 1}})
    state.apply(state.action_from_notation("boat N"))
    assert state.lands[0].head[RED] == 0 and state.lands[0].specials[BOAT] == 0 and state.specials_spent == 1


def test_round_6_advanced_ferrying_still_moves_as_many_as_possible_with_the_boat():
    """rules/000 p.4, round 6: as many Vikings as possible — with one Boatswain and a Boat, the Boat ferry of three
    Nobles beats a single Viking."""
    state = _ferry(land({"N": "L M1 R"}, head={"N": 3, "B": 1}) | {"specials": {"boat": 1}}, round_=6)
    assert state.legal_actions() == [A.BOAT_FERRY + RED]  # a single Viking, or one "of each", moves only one


# -- the Building tile ------------------------------------------------------------------------------------------------


def test_building_tile_replaces_the_island_tile_showing_its_building():
    """Special tile "Building": "placed so that it replaces an Island tile showing the same building (the Island
    tile it replaces is removed from the game)"; with two candidates she chooses."""
    me = land({"N": "L M2:N M2 R"})
    groups = [(0, "L", "F"), (1, "L", "G")]
    state = _buying_with_specials(["building2", None, None, None], groups, me=me)
    state.apply(A.BUY + 1)
    state.apply(A.TAKE_SPECIAL + 0)
    assert state.step == REPLACE_BUILDING
    assert state.legal_actions() == [A.REPLACE + A.square_index(2, 2), A.REPLACE + A.square_index(2, 3)]
    _refused(state, A.REPLACE + A.square_index(2, 1), "specials.building")
    state.apply(state.action_from_notation("replace N2"))
    assert state.lands[0].buildings == [2 * 37 + 1] and state.discarded == [2]
    assert state.lands[0].viking(2, 2) == RED  # the Noble stays where it stood


def test_with_building_choice_after_placing_the_bought_matching_tile_may_be_replaced():
    """Rule option building_choice=after_placing: a Building "replaces an Island tile showing the same building";
    taken with a Group whose own tile shows that building, she chooses once the bought tile is placed, so the new
    tile may be the one replaced (rules/000 p.2: "Upon purchasing, the player immediately adds the tile")."""
    me = land({"G": "L M1"})
    groups = [(0, "L", "F"), (5, "M1", "G")]
    state = _buying_with_specials(["building1", None, None, None], groups, me=me, options=AFTER_PLACING)
    state.apply(A.BUY + 5)
    state.apply(state.action_from_notation("take 1"))
    assert state.step == PLACE_TILE and state.lands[0].buildings == []
    legal = set(state.legal_actions())
    assert all((state.illegal_reason(a) is None) == (a in legal) for a in range(A.NUM_ACTIONS))
    state.apply(A.island(4, 3))
    assert state.step == REPLACE_BUILDING
    legal = set(state.legal_actions())
    assert all((state.illegal_reason(a) is None) == (a in legal) for a in range(A.NUM_ACTIONS))
    assert state.legal_actions() == [A.REPLACE + A.square_index(4, 2), A.REPLACE + A.square_index(4, 3)]
    state.apply(state.action_from_notation("replace G3"))
    assert state.lands[0].buildings == [goldsmith_square(3)] and state.discarded == [M1]
    assert state.step == PLACE_VIKING and state.special_census() == 1  # the one face-up tile, now placed


def test_a_building_held_for_its_bought_tile_survives_a_position_round_trip():
    """With building_choice=after_placing the Building is held as `specials.choosing` until the tile is placed; a
    position saved then loads back and the choice still comes."""
    from skald.games.vikings.position import state_to_dict

    me = land({"G": "L M1"})
    state = _buying_with_specials(
        ["building1", None, None, None], [(0, "L", "F"), (5, "M1", "G")], me=me, options=AFTER_PLACING
    )
    state.apply(A.BUY + 5)
    state.apply(state.action_from_notation("take 1"))
    saved = state_to_dict(state)
    assert saved["specials"]["choosing"] == "building1"
    loaded = GAME.state_from_dict(saved)
    loaded.apply(A.island(4, 3))
    assert loaded.step == REPLACE_BUILDING and len(loaded.legal_actions()) == 2


def test_with_building_choice_after_placing_a_discarded_bought_tile_leaves_the_old_one_replaced():
    """With building_choice=after_placing, a bought tile with no legal square is discarded (rules/000 p.3); the
    Building then replaces the matching island tile she already has."""
    me = land({"W": "L R", "N": "L R", "S": "L R", "G": "L M1 R", "F": "L R"})  # nowhere left for a middle
    groups = [(0, "L", "F"), (5, "M1", "G")]
    state = _buying_with_specials(["building1", None, None, None], groups, me=me, options=AFTER_PLACING)
    state.apply(A.BUY + 5)
    state.apply(state.action_from_notation("take 1"))
    assert state.lands[0].buildings == [goldsmith_square(2)] and state.discarded == [M1, M1]
    assert state.pending_special == -1


def test_by_default_a_building_taken_with_a_matching_group_replaces_the_old_tile_at_once():
    """Rule option building_choice=at_purchase (the default): the special tile comes with the purchase (rules/000
    Example 3), so the Building replaces the matching tile already on the Mainland before the bought one is placed;
    records made before the option existed replay unchanged."""
    me = land({"G": "L M1"})
    state = _buying_with_specials(["building1", None, None, None], [(0, "L", "F"), (5, "M1", "G")], me=me)
    state.apply(A.BUY + 5)
    state.apply(state.action_from_notation("take 1"))
    assert state.step == PLACE_TILE and state.lands[0].buildings == [goldsmith_square(2)]
    assert state.pending_special == -1


def test_a_position_holding_a_building_needs_the_after_placing_option():
    me = land({"G": "L M1"})
    state = _buying_with_specials(
        ["building1", None, None, None], [(0, "L", "F"), (5, "M1", "G")], me=me, options=AFTER_PLACING
    )
    state.apply(A.BUY + 5)
    state.apply(state.action_from_notation("take 1"))
    from skald.games.vikings.position import PositionError, state_to_dict

    saved = state_to_dict(state)
    saved["options"] = {**saved["options"], "building_choice": "at_purchase"}
    with pytest.raises(PositionError, match=r"specials\.choosing"):
        GAME.state_from_dict(saved)


def test_a_waiting_building_beside_a_matching_island_tile_is_refused():
    """A Building waits only while no matching island tile is on the Mainland: it would have replaced it."""
    from skald.games.vikings.position import PositionError

    with pytest.raises(PositionError, match=r"mainlands\[0\]\.waiting\[0\]"):
        position(land({"G": "L M1"}) | {"waiting": ["building1"]}, land(), options=ADVANCED)


def test_building_tile_waits_until_a_matching_island_tile_is_bought():
    """Special tile "Building": without a matching tile it is "placed near her Mainland ... When she purchases an
    Island tile with the same building ... the Island tile is immediately removed from the game and the Special
    tile is used in its place"."""
    me = land({"N": "L"}) | {"waiting": ["building3"]}
    groups = [(0, "L", "F"), (1, "M3", "N")]
    state = _buying_with_specials([None, None, None, None], groups, me=me)
    state.apply(A.BUY + 1)
    state.apply(A.island(2, 2))
    assert state.lands[0].waiting == [] and state.lands[0].buildings == [2 * 37 + 1] and state.discarded == [3]


def test_building_scores_1_per_viking_on_and_around_it_unless_threatened():
    """Special tile "Building" (end): 1 point per Viking on it and on the eight tiles around it, "whether they are
    threatened or not", at most 9; "These points are not awarded if the Special tile is threatened by a Ship"."""
    rows = {"W": "L:W R", "N": "L:N M1:N R:N", "S": "L:S M2 R:S", "G": "L:G R:G"}
    safe = position(land(rows) | {"buildings": ["N2"]}, land(), options=ADVANCED)
    lines = end_scoring(safe.lands, [0, 1], False, False)
    assert [(line.square, line.fame) for line in lines if line.kind == "building"] == [("N2", 6)]
    threatened = position(land({**rows, "ship": ". blue1"}) | {"buildings": ["N2"]}, land(), options=ADVANCED)
    lines = end_scoring(threatened.lands, [0, 1], False, False)
    assert [(line.square, line.fame) for line in lines if line.kind == "building"] == [("N2", 0)]


def test_every_special_tile_kind_is_dealt_in_a_full_advanced_game():
    """25 special tiles: all of them are turned up over six rounds (4 + up to 4 a round), and none is lost."""
    state = play_random_game(GAME.new_initial_state(3, ADVANCED), random.Random(21))
    assert state.special_census() == 25
    assert (GOLDSMITH1, SCOUT1, BLACK, GREEN) == (1, 5, 4, 2)


def test_special_tiles_show_on_the_text_and_svg_tables_and_in_scorings():
    """Front ends show the advanced game: face-up special tiles, each player's special tiles, and special lines
    in the scoring breakdowns."""
    from skald.games.vikings.svg import render_svg

    state = _adv(land({"N": "L:N"}), noble1=1)
    state.face_up = [BOAT, -1, HORN, -1]
    text = state.render_text()
    assert "Special tiles face up: 1 Boat · 3 Boatswain with horn" in text and "special tiles: Noble +1" in text
    svg = render_svg(state)
    assert "1 Boat · 3 Boatswain with horn" in svg and "Player 1: Noble +1" in svg
    assert any(line.text.startswith("Noble +1 tile") for line in large_scoring(0, state.lands[0]))


def test_simulate_plays_the_advanced_game_from_the_command_line():
    """`skald simulate vikings --option variant=advanced` plays the advanced game; a bad value names the option."""
    import subprocess
    import sys

    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "skald.cli.main",
            "simulate",
            "vikings",
            "-p",
            "3",
            "-n",
            "3",
            "--option",
            "variant=advanced",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0 and "3 random games of Vikings" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "simulate", "vikings", "--option", "variant=x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "options.variant" in bad.stderr


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_the_advanced_game_with_only_legal_actions(players):
    """Every bot speaks the contract, so the auction, colour placement and special tiles need nothing new."""
    from skald.bots import make_bot

    state = GAME.new_initial_state(players, ADVANCED)
    bots = [make_bot(spec, seed=seat) for seat, spec in enumerate(["greedy", "mcts:iters=20", "random", "greedy"])]
    rng = random.Random(players)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(rng.choice(state.legal_actions()))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.special_census() == 25 and state.winners()


def test_the_building_being_placed_shows_in_the_tensor_and_on_both_tables():
    """What `observation()` shows of a taken Building still to be placed (`specials.choosing`) the tensor shows too:
    the advanced block's one-hot of building1–4 (docs/rl-observation.md)."""
    from skald.games.vikings import tensor

    me = land({"N": "L M2:N M2 R"})
    state = _buying_with_specials(["building2", None, None, None], [(0, "L", "F"), (1, "L", "G")], me=me)
    start = 2 * tensor.mainland_size(2) + tensor.GLOBAL_SIZE + 4 * 14 + 14 + 2
    assert state.observation_tensor(0)[start : start + 4] == [0.0] * 4
    state.apply(A.BUY + 1)
    state.apply(A.TAKE_SPECIAL + 0)
    assert state.step == REPLACE_BUILDING
    for seat in (0, 1):
        assert state.observation_tensor(seat)[start : start + 4] == [0.0, 1.0, 0.0, 0.0]
    from skald.games.vikings.svg import render_svg

    assert "Being placed: Building" in state.render_text() and "being placed: Building" in render_svg(state)
