"""The cards of journeys, trade and fights (`cards.journey`): each card's text, its moments and its options
(VA-10, VA-15 – VA-17, VA-26 – VA-28, VA-71, and the points the rulings leave open)."""

from __future__ import annotations

import pytest
from vikingatid_kit import SPACE, at_phase, position_for, roll

from skald.engine import CHANCE, IllegalAction
from skald.games.vikingatid import combat
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    AMOUNT,
    BUILD,
    CARD_IDS,
    END_JOURNEY,
    HITS,
    MAX_BUILD,
    PASS,
    PLAY_CARD,
    PLUNDER,
    STOP,
    TARGET_AREA,
    TRADE,
)
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.state import VikingatidState


def amount(n: int) -> int:
    return AMOUNT + n - 1


def play(card: str) -> int:
    return PLAY_CARD + CARD_IDS.index(card)


def at(state: VikingatidState, area_id: str) -> int:
    return TARGET_AREA + state.position.slot(area_id)


def give(state: VikingatidState, seat: int, card: str) -> None:
    """Put a card of the deck into the seat's hand."""
    kind = CARD_IDS.index(card)
    state.deck.deck[kind] -= 1
    state.deck.hands[seat][kind] += 1


def passing(state: VikingatidState) -> None:
    """Every holder passes in the windows open now."""
    while state.step == S.CARD_WINDOW:
        state.apply(PASS)


def sail(state: VikingatidState, kind: str, area: str, size: int) -> None:
    state.apply(SPACE.fleet(kind, area))
    state.apply(amount(size))


def seats(*ships: tuple[int, str, str, int]) -> Position:
    """Seat 0 Norway, seat 1 Sweden; ships as (seat, type, area, n)."""
    position = position_for(2, ("norway", "sweden"))
    for seat, kind, area, n in ships:
        position.place_ships(seat, kind, area, n)
    return position


def journeying(position: Position, **options: str) -> VikingatidState:
    return at_phase(position, S.JOURNEYS, **options)


def norway_raid(**options: str) -> VikingatidState:
    """Seat 0's war fleet of 5 from Norge through Nordsjön (danger 2) into Frisland (danger 1, 1 army of strength
    5), at its MOVE decision there."""
    state = journeying(seats((0, "war", "norge", 5)), **options)
    sail(state, "war", "norge", 5)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("frisland"))
    return state


def swedish_trader(ships: int = 5, **options: str) -> VikingatidState:
    """Seat 1's trading fleet from Svea Rike at Södra Östersjön (danger 1), at its MOVE decision."""
    state = journeying(seats((1, "trading", "svea_rike", ships)), **options)
    sail(state, "trading", "svea_rike", ships)
    state.apply(SPACE.move("sodra_ostersjon"))
    return state


def moves_of(state: VikingatidState) -> set[str]:
    return {SPACE.to_json(a)["area"] for a in state.legal_actions() if SPACE.to_json(a)["type"] == "move"}


# -- BESKYDD (VA-15) -------------------------------------------------------------------------------------------


def test_protection_lowers_the_next_danger_roll_by_two() -> None:
    """BESKYDD: 'The fleet gets -2 on its value. Counts for one dice roll. (Play at any time.)' (VA-15
    `danger_total`: the danger total of the next danger roll, not below 0)."""
    for card, lost in ((True, 0), (False, 2)):
        state = norway_raid()
        if card:
            give(state, 0, "protection")
            assert play("protection") in state.legal_actions()
            state.apply(play("protection"))
            assert state.observation(0)["journey"]["cards"]["protection"] == 2
        state.apply(STOP)
        assert state.position.fleets[0].danger == 3
        state.apply(roll(2))  # at most 3: a loss; at most 1: none
        assert state.position.fleets[0].size == 5 - lost, card
        assert state.journeys.protection == 0


def test_protection_needs_a_fleet_in_motion() -> None:
    """BESKYDD names 'the fleet': with no fleet under way it cannot be played."""
    state = journeying(seats((0, "war", "norge", 5)))
    give(state, 0, "protection")
    assert state.step == S.JOURNEY_CHOICE and play("protection") not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(play("protection"))


def test_protection_on_any_roll_helps_the_next_fight_round() -> None:
    """VA-15 `any_roll`: -2 on the fleet's next roll, here its dice in the fight (a die hits on 7 or less)."""
    state = norway_raid(protection="any_roll")
    state.apply(STOP)
    give(state, 0, "protection")
    state.apply(roll(10))
    assert state.window is not None and state.window.kind == windows.AFTER_ROLL
    assert play("protection") not in state.legal_actions()  # a danger roll already seen
    passing_until(state, windows.BEFORE_FIGHT)
    state.apply(play("protection"))
    passing(state)
    fight = state.journeys.fight
    assert combat.fleet_hit_on(fight) == 7
    assert combat.fleet_outcomes(fight) == combat.binomial_outcomes(5, 7)


# -- BRA HANDEL ------------------------------------------------------------------------------------------------


def gotland_trader(**options: str) -> VikingatidState:
    """Seat 1's trading fleet stopped at Gutland (trade 3) after a harmless roll."""
    state = swedish_trader(5, **options)
    state.apply(SPACE.move("gotland"))
    state.apply(STOP)
    state.apply(roll(9))
    assert state.step == S.ACT
    return state


def test_good_trade_doubles_one_trade_of_the_player_s_fleet() -> None:
    """BRA HANDEL: 'Doubles the trade value of any one area. Counts for one single trade. (Play during a trade
    journey.)' (`good_trade: own_fleet`: only that trade's silver changes)."""
    state = gotland_trader()
    give(state, 1, "good_trade")
    give(state, 0, "good_trade")
    assert play("good_trade") in state.legal_actions()
    assert CARD_IDS.index("good_trade") not in state.playable(0, windows.BEFORE_DANGER)  # not his journey
    state.apply(play("good_trade"))
    assert at(state, "gotland") in state.legal_actions() and at(state, "norge") not in state.legal_actions()
    state.apply(at(state, "gotland"))
    passing(state)
    assert state.observation(0)["journey"]["cards"]["good_trade"] == [{"area": "gotland", "seat": 1}]
    state.apply(TRADE)
    position = state.position
    assert position.silver[1] == 6 and position.fleets[0].size == 4 and position.trade_stop[position.slot("gotland")]
    assert state.journeys.good_trade == []


def test_good_trade_for_any_fleet_lasts_the_phase() -> None:
    """`good_trade: any_fleet`: the next trade in the area by any fleet this phase pays double, even after the
    player's journey is over."""
    state = swedish_trader(5, good_trade="any_fleet")
    give(state, 1, "good_trade")
    state.apply(play("good_trade"))
    state.apply(at(state, "frisland"))
    state.apply(SPACE.move("gotland"))
    state.apply(STOP)
    state.apply(roll(9))
    state.apply(TRADE)
    assert state.position.silver[1] == 3  # Gutland is not the area named
    state.apply(END_JOURNEY)
    assert state.journeys.good_trade == ["frisland"] and state.journeys.good_trade_seat == [-1]


def test_good_trade_is_played_only_during_the_own_trade_journey() -> None:
    """'(Play during a trade journey.)': not on a war journey, not before a fleet sets out."""
    state = journeying(seats((1, "trading", "svea_rike", 5)))
    give(state, 1, "good_trade")
    assert play("good_trade") not in state.legal_actions()
    raid = norway_raid()
    give(raid, 0, "good_trade")
    assert play("good_trade") not in raid.legal_actions()


# -- BÄRSÄRK (VA-17) -------------------------------------------------------------------------------------------


def raid_before_fight(**options: str) -> VikingatidState:
    """Seat 0 holding BÄRSÄRK, its fleet about to fight Frisland's army."""
    state = norway_raid(**options)
    state.apply(STOP)
    give(state, 0, "berserk")
    assert play("berserk") not in state.legal_actions()  # not before the danger roll
    state.apply(roll(10))
    passing_until(state, windows.BEFORE_FIGHT)
    return state


def passing_until(state: VikingatidState, kind: str) -> None:
    while state.step == S.CARD_WINDOW and state.window is not None and state.window.kind != kind:
        state.apply(PASS)
    assert state.window is not None and state.window.kind == kind


def test_berserk_wins_the_fight_without_losses() -> None:
    """BÄRSÄRK: 'Wins automatically the fight in one area. (Play immediately before a fight.)' (VA-17
    `no_losses`: no dice count, the armies are destroyed and count as defeated for plunder)."""
    state = raid_before_fight()
    state.apply(play("berserk"))
    assert state.step == S.FLEET_HITS and state.legal_actions() == [HITS]  # no dice: one outcome
    state.apply(HITS)
    assert state.step == S.ACT and state.journeys.won and state.position.fleets[0].size == 5
    state.apply(PLUNDER)
    assert state.position.silver[0] == 1  # one army of strength 5 defeated


def test_berserk_one_round_rolls_the_other_side_s_dice_once() -> None:
    """VA-17 `one_round`: one round is rolled for his own losses only, then the other side is destroyed."""
    state = raid_before_fight(berserk="one_round")
    state.apply(play("berserk"))
    assert state.step == S.FLEET_HITS and state.legal_actions() == [HITS]
    state.apply(HITS)
    assert state.step == S.ARMY_HITS
    state.apply(HITS + 1)
    assert state.step == S.ACT and state.journeys.won and state.position.fleets[0].size == 4


def guarded(kind: str = "war") -> VikingatidState:
    """Seat 0 (Denmark) holds a war camp in Frisland; seat 1's (Norway) war fleet fights its way in; both hold
    BÄRSÄRK."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "war", "frisland", 1)
    position.place_ships(1, kind, "norge", 5)
    state = journeying(position)
    sail(state, kind, "norge", 5)
    state.apply(SPACE.move("nordsjon"))
    state.apply(roll(10)) if state.step == S.DANGER_ROLL else None
    state.apply(SPACE.move("frisland"))
    state.apply(journeys_single("forbid"))
    give(state, 0, "berserk")
    give(state, 1, "berserk")
    state.apply(journeys_single("fight"))
    passing_until(state, windows.BEFORE_FIGHT)
    return state


def journeys_single(name: str) -> int:
    return SPACE.from_json({"type": name})


def test_two_berserk_cards_cancel_each_other() -> None:
    """'If two berserk cards are played in one fight, they cancel each other, and the fight is conducted as
    usual.' (VA-10)"""
    state = guarded()
    assert state.window is not None and state.window.seat == 1  # the fleet's owner first
    state.apply(play("berserk"))
    assert state.window is not None and state.window.seat == 0
    assert state.journeys.fight.fleet_dice == 0
    state.apply(play("berserk"))
    fight = state.journeys.fight
    assert state.step == S.FLEET_HITS and fight.fleet_dice == 5 and fight.other_dice == 2
    assert combat.berserk_standing(fight) == -1


def test_a_defender_s_berserk_destroys_the_attacking_fleet() -> None:
    """BÄRSÄRK by a player whose camps take part (VA-17): his side wins, the war fleet is destroyed."""
    state = guarded()
    state.apply(PASS)
    state.apply(play("berserk"))
    passing(state)
    state.apply(HITS)
    passing(state)
    position = state.position
    assert not position.fleets and state.journeys.fight.lost_ships[1] == 5
    assert position.camps_at(0, "war", "frisland") == 1 and problems(position) == []


# -- FRI HANDEL and the trade stop -------------------------------------------------------------------------------


def test_trade_stop_closes_an_area_and_free_trade_cancels_it() -> None:
    """The trade stop card: 'Closes one area for trade for the rest of this game turn. (Play at any time.)' FRI
    HANDEL: 'This card can also be played to cancel the effect of a trading stop card.' (the last played stands,
    VA-10)."""
    state = swedish_trader()
    give(state, 1, "trade_stop")
    give(state, 1, "free_trade")
    assert play("free_trade") not in state.legal_actions()  # no area is stopped
    state.apply(play("trade_stop"))
    state.apply(at(state, "gotland"))
    position = state.position
    assert position.trade_stop[position.slot("gotland")]
    assert state.step == S.MOVE and play("free_trade") in state.legal_actions()
    state.apply(play("free_trade"))
    assert state.legal_actions() == [at(state, "gotland")]
    state.apply(at(state, "gotland"))
    assert not position.trade_stop[position.slot("gotland")]
    state.apply(SPACE.move("gotland"))
    state.apply(STOP)
    state.apply(roll(9))
    state.apply(TRADE)
    assert position.silver[1] == 3 and position.trade_stop[position.slot("gotland")]  # one trade, the stop is back


def test_free_trade_allows_one_trade_despite_a_trading_stop() -> None:
    """FRI HANDEL: 'Trading ships may conduct trade despite trading stop. Counts for one time.'"""
    state = gotland_trader()
    state.position.trade_stop[state.position.slot("gotland")] = True
    assert TRADE not in state.legal_actions()
    give(state, 1, "free_trade")
    state.apply(play("free_trade"))
    state.apply(at(state, "gotland"))
    assert TRADE in state.legal_actions()
    assert state.observation(None)["journey"]["cards"]["free_trade"] == ["gotland"]
    state.apply(TRADE)
    assert TRADE not in state.legal_actions() and state.journeys.free_trade == []


# -- FRI LEJD (VA-28) -------------------------------------------------------------------------------------------


def test_free_passage_lets_a_trading_fleet_pass_a_plundered_area_once() -> None:
    """FRI LEJD: 'Trading ships may pass a plundered area. Counts for one time. The ships may not trade in that
    area (unless after playing a free trade card).' Explanation of cards: 'Players may build trading camps in a
    plundered area with this card.' (VA-28 `pass_and_build`)."""
    position = seats((1, "trading", "svea_rike", 5))
    position.plundered[position.slot("gotland")] = True
    state = journeying(position)
    sail(state, "trading", "svea_rike", 5)
    state.apply(SPACE.move("sodra_ostersjon"))
    assert "gotland" not in moves_of(state)
    give(state, 1, "free_passage")
    state.apply(play("free_passage"))
    state.apply(at(state, "gotland"))
    assert "gotland" in moves_of(state)
    state.apply(SPACE.move("gotland"))
    assert STOP in state.legal_actions()
    state.apply(STOP)
    state.apply(roll(9))
    build_one = BUILD + 0 * MAX_BUILD
    assert build_one in state.legal_actions() and TRADE not in state.legal_actions()
    give(state, 1, "free_trade")
    state.apply(play("free_trade"))
    state.apply(at(state, "gotland"))
    assert TRADE in state.legal_actions()
    state.apply(TRADE)
    state.apply(SPACE.move("sodra_ostersjon"))
    assert "gotland" not in moves_of(state)  # counts for one time


def test_free_passage_pass_only_forbids_building_there() -> None:
    """VA-28 `pass_only`: the trading fleet may only pass the plundered area."""
    position = seats((1, "trading", "svea_rike", 5))
    position.plundered[position.slot("gotland")] = True
    state = journeying(position, free_passage="pass_only")
    sail(state, "trading", "svea_rike", 5)
    state.apply(SPACE.move("sodra_ostersjon"))
    give(state, 1, "free_passage")
    state.apply(play("free_passage"))
    state.apply(at(state, "gotland"))
    state.apply(SPACE.move("gotland"))
    assert STOP not in state.legal_actions() and moves_of(state) == {"sodra_ostersjon"}


# -- HAVSMONSTER, SJÖOVÄDER, RÖVARBAND (VA-71) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "area", "added"),
    [("sea_monsters", "nordsjon", 5), ("sea_storm", "nordsjon", 2), ("robbers", "frisland", 2)],
)
def test_danger_cards_raise_an_area_of_the_leg_before_the_roll(card: str, area: str, added: int) -> None:
    """HAVSMONSTER: 'The sea area's danger value increases by five for this journey. (Play on a fleet at sea.)'
    SJÖOVÄDER: '... increased by two'; RÖVARBAND: 'The land area's danger value increases by two' (VA-71
    `at_roll`: in the window before the fleet's danger roll, on an area of its leg)."""
    state = norway_raid()
    give(state, 1, card)
    assert play(card) not in state.playable(1, windows.OWN_DECISION)
    state.apply(STOP)
    assert state.step == S.CARD_WINDOW and state.window is not None and state.window.kind == windows.BEFORE_DANGER
    assert state.window.seat == 1  # the fleet's owner holds nothing: seat 1 is asked
    state.apply(play(card))
    targets = state.legal_actions()
    assert targets == [at(state, area)]
    state.apply(targets[0])
    assert state.position.fleets[0].danger == 3 + added
    assert state.observation(0)["journey"]["cards"]["danger_cards"] == [{"area": area, "added": added}]


def test_a_raised_area_counts_again_when_the_fleet_enters_it_again() -> None:
    """'for this journey' (`danger_card_reentry: counts_again`; `once`: only on that leg)."""
    for option, again in (("counts_again", 5 + 1), ("once", 1)):
        state = swedish_trader(danger_card_reentry=option)
        state.apply(SPACE.move("gotland"))
        give(state, 0, "sea_monsters")
        state.apply(STOP)
        passing_until(state, windows.BEFORE_DANGER)
        state.apply(PASS) if state.window is not None and state.window.seat == 1 else None
        state.apply(play("sea_monsters"))
        state.apply(at(state, "sodra_ostersjon"))
        assert state.position.fleets[0].danger == 2 + 5
        state.apply(roll(10))
        state.apply(SPACE.move("sodra_ostersjon"))
        assert state.position.fleets[0].danger == again, option


# -- INITIATIV -----------------------------------------------------------------------------------------------------


def test_initiative_card_wins_the_initiative_for_one_journey() -> None:
    """INITIATIV: 'The player wins automatically the initiative for one Viking journey. (Play immediately after
    initiative roll.)'"""
    state = journeying(seats((0, "war", "norge", 2), (1, "war", "svea_rike", 2)))
    give(state, 1, "initiative")
    assert state.step == S.INITIATIVE_ROLL
    state.apply(roll(9))
    assert state.step == S.CARD_WINDOW and state.window is not None and state.window.seat == 1
    state.apply(play("initiative"))
    state.apply(roll(2))
    assert state.step == S.JOURNEY_CHOICE and state.current_player() == 1


def test_two_initiative_cards_roll_off() -> None:
    """INITIATIV: 'if two or more players play this card at the same turn, they roll the dice to see who wins.'
    (VA-10: the same initiative roll)."""
    state = journeying(seats((0, "war", "norge", 2), (1, "war", "svea_rike", 2)))
    give(state, 0, "initiative")
    give(state, 1, "initiative")
    state.apply(roll(9))
    state.apply(play("initiative"))  # seat 0, the roller, first
    state.apply(play("initiative"))
    state.apply(roll(1))  # seat 1's own initiative die
    assert state.step == S.INITIATIVE_ROLL and state.journeys.initiative.to_roll == [0, 1]
    state.apply(roll(3))
    state.apply(roll(8))
    assert state.step == S.JOURNEY_CHOICE and state.current_player() == 1


# -- GUDARNA INGRIPER (VA-16) --------------------------------------------------------------------------------------


def test_divine_intervention_rolls_the_player_s_own_roll_again() -> None:
    """GUDARNA INGRIPER: 'The player may re-roll his dice for one action. (Play after a dice roll.)' (VA-16: a roll
    for his own side only; the new result stands)."""
    state = norway_raid()
    state.apply(STOP)
    give(state, 0, "divine_intervention")
    give(state, 1, "divine_intervention")
    passing(state)
    state.apply(roll(3))  # would cost three ships
    assert state.window is not None and state.window.kind == windows.AFTER_ROLL and state.window.seat == 0
    assert CARD_IDS.index("divine_intervention") not in state.playable(1, windows.AFTER_ROLL)
    state.apply(play("divine_intervention"))
    passing(state)
    assert state.step == S.DANGER_ROLL and state.current_player() == CHANCE
    state.apply(roll(10))
    passing(state)
    assert state.position.fleets[0].size == 5


# -- TORS HAMMARE --------------------------------------------------------------------------------------------------


def test_thors_hammer_gives_minus_two_on_the_player_s_dice_for_the_whole_fight() -> None:
    """TORS HAMMARE: 'The player gets -2 on his dice rolls for any one fight. Counts for the whole fight.' In a
    fight a die hits on five or less (6.4), so -2 makes it hit on seven or less, every round."""
    state = norway_raid()
    give(state, 0, "thors_hammer")
    assert play("thors_hammer") not in state.legal_actions()  # no fight yet
    state.apply(STOP)
    passing(state)
    state.apply(roll(10))
    passing_until(state, windows.BEFORE_FIGHT)
    state.apply(play("thors_hammer"))
    passing(state)
    fight = state.journeys.fight
    assert fight.hammer == [0] and combat.fleet_outcomes(fight) == combat.binomial_outcomes(5, 7)
    state.apply(HITS)
    state.apply(HITS)
    combat.start_round(fight, 5)  # the next round keeps it
    assert combat.fleet_hit_on(fight) == 7 and state.observation(1)["journey"]["fight"]["thors_hammer"] == [0]


# -- VÄNLIGT SINNAD BY (VA-27) -------------------------------------------------------------------------------------


def test_friendly_town_places_a_free_trading_camp_in_an_uncivilised_area_passed() -> None:
    """VÄNLIGT SINNAD BY: 'One trade camp may be placed for free in one area which is passed through this turn.
    This is not valid in civilised areas.' (VA-27 `this_fleet`; 'Uncivilised' means strength two)."""
    state = swedish_trader()
    give(state, 1, "friendly_town")
    assert play("friendly_town") not in state.legal_actions()  # no land entered yet
    state.apply(SPACE.move("gotland"))
    state.apply(play("friendly_town"))
    assert state.legal_actions() == [at(state, "gotland")]
    state.apply(at(state, "gotland"))
    assert state.position.camps_at(1, "trading", "gotland") == 1 and state.position.fleets[0].size == 5
    raid = journeying(seats((0, "trading", "norge", 5)))
    sail(raid, "trading", "norge", 5)
    raid.apply(SPACE.move("nordsjon"))
    raid.apply(SPACE.move("frisland"))  # strength 5: civilised
    give(raid, 0, "friendly_town")
    assert play("friendly_town") not in raid.legal_actions()


# -- VÄRINGAGARDE --------------------------------------------------------------------------------------------------


def varangians(**options: str) -> VikingatidState:
    state = journeying(seats((1, "war", "bolgaraland", 6)), **options)
    sail(state, "war", "bolgaraland", 6)
    return state


def test_varangian_guard_sells_up_to_four_war_ships_in_miklagard() -> None:
    """VÄRINGAGARDE: 'Up to four war ships may be sold as mercenaries in Miklagård (Byzantine). Sold ships are
    removed. Price as indicated for the dice rolls (Silver per ship). This card is an exception to the rule that
    war ships may not move into a kingdom. (Play before the journey.)' (`varangian_guard: one_roll`)."""
    state = varangians()
    state.apply(SPACE.move("svarta_havet"))
    assert "miklagard" not in moves_of(state)
    state = varangians()
    give(state, 1, "varangian_guard")
    state.apply(play("varangian_guard"))
    assert state.step == S.CARD_ROLL
    state.apply(roll(5))  # 2 silver a ship
    state.apply(SPACE.move("svarta_havet"))
    assert play("varangian_guard") not in state.legal_actions()
    state.apply(SPACE.move("miklagard"))
    state.apply(STOP)
    state.apply(roll(10))
    position = state.position
    assert position.silver[1] == 8 and position.fleets[0].size == 2 and state.step == S.ACT
    assert PLUNDER not in state.legal_actions() and END_JOURNEY in state.legal_actions()


def test_varangian_guard_per_ship_rolls_a_price_for_each_ship() -> None:
    """`varangian_guard: per_ship`: one D10 per ship, up to four."""
    state = varangians(varangian_guard="per_ship")
    give(state, 1, "varangian_guard")
    state.apply(play("varangian_guard"))
    for face in (1, 5, 9, 10):
        state.apply(roll(face))
    state.apply(SPACE.move("svarta_havet"))
    state.apply(SPACE.move("miklagard"))
    state.apply(STOP)
    state.apply(roll(10))
    assert state.position.silver[1] == 1 + 2 + 3 + 3


# -- the discovery card (VA-26) ------------------------------------------------------------------------------------


def test_discovery_opens_the_unknown_seas_and_one_land_discovered_on_arrival() -> None:
    """The discovery card: 'Allows discovery of an undiscovered land area. (Play at start of journey, i.e. when
    leaving the last discovered land area.)' (VA-26 `on_arrival`: discovered when the fleet arrives with a ship
    left after its danger roll)."""
    state = journeying(seats((0, "trading", "norge", 5)))
    sail(state, "trading", "norge", 5)
    give(state, 0, "discovery")
    state.apply(play("discovery"))
    assert at(state, "island") in state.legal_actions() and at(state, "norge") not in state.legal_actions()
    state.apply(at(state, "island"))
    state.apply(SPACE.move("norska_havet"))
    assert "islandshavet" in moves_of(state)
    state.apply(SPACE.move("islandshavet"))
    assert "island" in moves_of(state) and "gronlandshavet" in moves_of(state)
    state.apply(SPACE.move("island"))
    assert state.step == S.DANGER_ROLL
    position = state.position
    assert position.discovered_by[position.slot("island")] == -1
    state.apply(roll(9))
    assert (
        position.discovered_by[position.slot("island")] == 0
        and position.discovered_turn[position.slot("island")] == position.turn
    )


def test_discovery_on_play_discovers_the_land_at_once() -> None:
    """VA-26 `on_play`: the land counts as discovered when the card is played."""
    state = journeying(seats((0, "trading", "norge", 5)), discovery="on_play")
    sail(state, "trading", "norge", 5)
    give(state, 0, "discovery")
    state.apply(play("discovery"))
    state.apply(at(state, "gronland"))
    assert state.position.discovered_by[state.position.slot("gronland")] == 0


def test_without_the_card_the_unknown_seas_are_closed() -> None:
    """'Fleets can move there only if a player plays a discoverers card which allows this.'"""
    state = journeying(seats((0, "trading", "norge", 5)))
    sail(state, "trading", "norge", 5)
    state.apply(SPACE.move("norska_havet"))
    assert "islandshavet" not in moves_of(state)
