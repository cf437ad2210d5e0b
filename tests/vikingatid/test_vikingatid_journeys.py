"""Phase 6, "Initiative and journeys": initiative, fleets, moving, danger, trade, fights, plunder, camps, duties,
Denmark's sea and the risk of war (rule text 6.1 – 6.4, "Passing war camps of other kingdoms", "War between Viking
kingdoms", "Denmark, Norway and Sweden"; VA-44 – VA-58, VA-70)."""

from __future__ import annotations

import math
import random

import pytest
from vikingatid_kit import GAME, SPACE, at_phase, position_for, roll

from skald.engine import CHANCE, IllegalAction, OptionError
from skald.games.vikingatid import cleanup, combat, journeys, kingdoms_war, silver
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    ALLOW,
    AMOUNT,
    ASK_DUTY,
    BAR_SEA,
    BUILD,
    END_JOURNEY,
    FIGHT,
    FIGHT_ON,
    FORBID,
    HITS,
    HITS_WITH_ONE,
    MAX_BUILD,
    NO_WAR,
    PASS,
    PAY_DUTY,
    PLUNDER,
    STOP,
    TRADE,
    TURN_AWAY,
    WITHDRAW,
)
from skald.games.vikingatid.position import PEACE_PENDING, WAR_MARKER, Position, problems
from skald.games.vikingatid.state import VikingatidState


def amount(n: int) -> int:
    return AMOUNT + n - 1


def hits(n: int, one: bool = False) -> int:
    return (HITS_WITH_ONE if one else HITS) + n


def build(kind: str, n: int) -> int:
    return BUILD + (0 if kind == "trading" else 1) * MAX_BUILD + n - 1


def journeying(position: Position, **options: str) -> VikingatidState:
    """A state at the start of phase 6 on `position`."""
    return at_phase(position, S.JOURNEYS, **options)


def sail(state: VikingatidState, kind: str, area: str, size: int) -> None:
    """The holder starts a fleet of `size` at `area`."""
    state.apply(SPACE.fleet(kind, area))
    state.apply(amount(size))


def moves_of(state: VikingatidState) -> set[str]:
    return {SPACE.to_json(a)["area"] for a in state.legal_actions() if SPACE.to_json(a)["type"] == "move"}


def norway_and_sweden(*ships: tuple[int, str, str, int]) -> Position:
    """Seat 0 Norway, seat 1 Sweden; ships as (seat, type, area, n)."""
    position = position_for(2, ("norway", "sweden"))
    for seat, kind, area, n in ships:
        position.place_ships(seat, kind, area, n)
    return position


# -- 6.1 Initiative ------------------------------------------------------------------------------------------------


def test_only_players_with_ships_roll_and_the_highest_takes_initiative() -> None:
    """'Each player rolls a dice ... The highest number gets initiative' (VA-44: only players with ships roll)."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.place_ships(0, "war", "danavalde", 3)
    position.place_ships(2, "trading", "svea_rike", 2)
    state = journeying(position)
    assert state.step == S.INITIATIVE_ROLL and state.current_player() == CHANCE
    state.apply(roll(4))  # seat 1 has no ships: seat 2 rolls next
    state.apply(roll(7))
    assert state.step == S.JOURNEY_CHOICE and state.current_player() == 2
    assert state.legal_actions() == [PASS, SPACE.fleet("trading", "svea_rike")]


def test_ties_roll_again_and_a_pass_hands_initiative_on() -> None:
    """'If two or more players roll the highest number, they roll again among themselves.' 'If he passes, too,
    initiative goes on to the next player'; 'If all players pass, the initiative phase is over ... All unused ships
    are removed from the board.'"""
    position = position_for(3, ("denmark", "norway", "sweden"))
    for seat, home in enumerate(("danavalde", "norge", "svea_rike")):
        position.place_ships(seat, "war", home, 2)
    j = journeys.begin(position, journeys.JourneyRules())
    for face in (7, 7, 3):
        journeys.initiative_roll(position, j, face)
    assert j.step == S.INITIATIVE_ROLL and j.initiative.to_roll == [0, 1]
    journeys.initiative_roll(position, j, 2)
    journeys.initiative_roll(position, j, 5)
    assert journeys.actor(position, j) == 1
    journeys.pass_journey(position, j)
    assert journeys.actor(position, j) == 0
    assert journeys.observation(position, j)["initiative"]["passed"] == [1]  # a pass on this roll is shown
    journeys.pass_journey(position, j)
    assert journeys.actor(position, j) == 2
    journeys.pass_journey(position, j)
    assert journeys.done(j) and all(position.ships_on_board(s) == 0 for s in range(3)) and problems(position) == []


def test_a_pass_for_the_rest_of_the_phase() -> None:
    """VA-44 option `rest_of_phase`: a player who passes takes no part in the next roll."""
    position = norway_and_sweden((0, "war", "norge", 2), (1, "war", "svea_rike", 4))
    j = journeys.begin(position, journeys.JourneyRules(initiative_pass="rest_of_phase"))
    journeys.initiative_roll(position, j, 9)
    journeys.initiative_roll(position, j, 1)
    journeys.pass_journey(position, j)  # seat 0 is out
    assert journeys.actor(position, j) == 1
    journeys.choose_fleet(j, "war", "svea_rike")
    journeys.launch(position, j, 4)
    journeys.try_move(position, j, "sodra_ostersjon")
    journeys.end_journey(position, j)
    # A new roll: seat 0 is out and seat 1 has no ships left, so no one takes initiative and the phase is over.
    assert journeys.done(j) and position.ships_on_board(0) == 0 and problems(position) == []


def test_a_fleet_has_at_most_ten_ships() -> None:
    """'A fleet consists of at least one and no more than ten ships.'"""
    state = journeying(norway_and_sweden((0, "war", "norge", 14)))
    state.apply(SPACE.fleet("war", "norge"))
    assert state.legal_actions() == [amount(n) for n in range(1, 11)]
    assert state.action_to_notation(amount(10)) == "war fleet of 10 from Norge"
    with pytest.raises(IllegalAction):
        state.apply(amount(11))
    state.apply(amount(10))
    assert state.position.ships_at(0, "war", "norge") == 4 and state.position.fleets[0].size == 10


# -- 6.2 Moving fleets ---------------------------------------------------------------------------------------------


def test_a_land_area_entered_from_a_sea_is_left_by_that_sea() -> None:
    """'When a fleet enters a land area from one sea area, it also has to leave the land by the same sea area.'"""
    state = journeying(norway_and_sweden((1, "trading", "svea_rike", 3)))
    sail(state, "trading", "svea_rike", 3)
    assert moves_of(state) == {"norra_ostersjon", "sodra_ostersjon"}
    state.apply(SPACE.move("sodra_ostersjon"))
    state.apply(SPACE.move("gotland"))
    assert moves_of(state) == {"sodra_ostersjon"}


def test_a_river_leads_on_from_a_land_area_entered_by_sea() -> None:
    """VA-46 `same_sea_or_river`: from Kurland, entered from a sea, the river to Könugård is open; `same_sea_only`
    closes it."""
    for option, expected in (
        ("same_sea_or_river", {"sodra_ostersjon", "konugard"}),
        ("same_sea_only", {"sodra_ostersjon"}),
    ):
        state = journeying(norway_and_sweden((1, "trading", "svea_rike", 3)), land_crossing=option)
        sail(state, "trading", "svea_rike", 3)
        state.apply(SPACE.move("sodra_ostersjon"))
        state.apply(SPACE.move("kurland"))
        assert moves_of(state) == expected, option


def test_no_war_fleet_enters_an_empire_core_but_trade_goes_there() -> None:
    """'No war fleets may enter a kingdom. Trade works as usual.' (VA-45)"""
    position = norway_and_sweden((0, "war", "norge", 3), (0, "trading", "norge", 3))
    j = journeys.begin(position, journeys.JourneyRules())
    for kind, wessex in (("war", False), ("trading", True)):
        position.launch(0, kind, "norge", 3)
        position.fleets[0] = position.fleets[0]._replace(area="engelska_kanalen")
        j.active = True
        assert ("wessex" in {a for a, _ in journeys.moves(position, j)}) is wessex
        position.lose_fleet_ships(0, 3)


def test_no_fleet_enters_another_viking_homeland_but_denmark_s_sea() -> None:
    """'No other players may enter these areas (except for Denmark's sea area, see below).'"""
    state = journeying(norway_and_sweden((1, "war", "svea_rike", 2)))
    sail(state, "war", "svea_rike", 2)
    state.apply(SPACE.move("sodra_ostersjon"))
    assert "danavalde" in moves_of(state) and "svea_rike" in moves_of(state)
    norway = journeying(norway_and_sweden((0, "war", "norge", 2)))
    sail(norway, "war", "norge", 2)
    norway.apply(SPACE.move("skagerrak"))
    assert "danavalde" in moves_of(norway)
    denied = journeying(norway_and_sweden((1, "war", "svea_rike", 2)), denmark_passage="trading_only")
    sail(denied, "war", "svea_rike", 2)
    denied.apply(SPACE.move("sodra_ostersjon"))
    assert "danavalde" not in moves_of(denied)


def test_a_trading_fleet_cannot_enter_a_plundered_area() -> None:
    """'A trading fleet cannot enter a plundered land area.'"""
    position = norway_and_sweden((1, "trading", "svea_rike", 2))
    position.plundered[position.slot("gotland")] = True
    state = journeying(position)
    sail(state, "trading", "svea_rike", 2)
    state.apply(SPACE.move("sodra_ostersjon"))
    assert "gotland" not in moves_of(state) and "kurland" in moves_of(state)


def test_the_notation_of_a_move_is_the_whole_sentence() -> None:
    """The notation 'war fleet of 5 from Norge to Nordsjön'."""
    state = journeying(norway_and_sweden((0, "war", "norge", 5)))
    sail(state, "war", "norge", 5)
    assert state.action_to_notation(SPACE.move("nordsjon")) == "war fleet of 5 from Norge to Nordsjön"
    assert state.action_from_notation("war fleet of 5 from Norge to Nordsjön") == SPACE.move("nordsjon")


def test_an_illegal_move_names_the_rule_it_breaks_and_changes_nothing() -> None:
    """An illegal move raises IllegalAction naming the rule it breaks (6.2 for an area not next to the fleet, VA-45
    for another kingdom's homeland or an empire's core) and leaves the state untouched."""
    state = journeying(norway_and_sweden((0, "war", "norge", 5)))
    sail(state, "war", "norge", 5)
    before = state.observation(None)
    for area, rule in (("miklagard", "6.2 Moving fleets"), ("svea_rike", "6.2 Moving fleets")):
        with pytest.raises(IllegalAction) as error:
            state.apply(SPACE.move(area))
        assert error.value.rule == rule and state.observation(None) == before
    sail_through(state, "nordsjon", "engelska_kanalen")
    with pytest.raises(IllegalAction) as error:
        state.apply(SPACE.move("wessex"))
    assert error.value.rule == "VA-45" and "No war fleets may enter a kingdom" in error.value.reason


# -- Danger value ----------------------------------------------------------------------------------------------


def test_danger_adds_up_and_the_roll_at_the_destination_costs_ships() -> None:
    """'the player adds all danger values of passed areas together' ... 'If he rolls lower or equal, he loses as
    many ships as the number he rolled. If he rolls ten, the fleet suffers no loss at all.'"""
    for face, left in ((3, 2), (4, 5), (10, 5), (1, 4)):
        state = journeying(norway_and_sweden((0, "war", "norge", 5)))
        sail(state, "war", "norge", 5)
        state.apply(SPACE.move("nordsjon"))  # 2
        state.apply(SPACE.move("frisland"))  # 1
        assert state.position.fleets[0].danger == 3
        state.apply(STOP)
        assert state.step == S.DANGER_ROLL
        state.apply(roll(face))
        assert state.position.fleets[0].size == left and state.position.fleets[0].danger == 0, face


def test_the_destination_s_own_danger_can_be_left_out() -> None:
    """VA-48 `danger_at_destination: not_counted`: stopping takes the destination's danger off the count."""
    state = journeying(norway_and_sweden((0, "war", "norge", 5)), danger_at_destination="not_counted")
    sail(state, "war", "norge", 5)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("frisland"))
    state.apply(STOP)
    state.apply(roll(3))  # against 2 now: no loss
    assert state.position.fleets[0].size == 5


def test_own_camps_lower_the_danger_and_end_the_leg() -> None:
    """'that area's danger value is reduced by one per camp' and 'The fleet moves until it reaches a camp of its
    type' (VA-47 `own_camps`): the roll comes on entering, and the count restarts."""
    position = norway_and_sweden((0, "trading", "norge", 5))
    position.build_camps(0, "trading", "frisland", 1)
    state = journeying(position)
    sail(state, "trading", "norge", 5)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("frisland"))  # danger 1 - 1 camp = 0; total 2
    assert state.step == S.DANGER_ROLL and state.position.fleets[0].danger == 2
    state.apply(roll(5))
    assert state.step == S.MOVE and state.position.fleets[0].danger == 0 and END_JOURNEY in state.legal_actions()


def test_ten_danger_points_force_a_roll_on_the_way() -> None:
    """'A player also needs to roll a dice if his fleet accumulates ten danger points.' (VA-49: the count restarts
    at 0, or under `carry` with the points above ten)."""
    for overflow, rest in (("drop", 0), ("carry", 1)):
        state = journeying(norway_and_sweden((0, "war", "norge", 10)), danger_overflow=overflow)
        sail(state, "war", "norge", 10)
        for sea in ("nordsjon", "skagerrak", "nordsjon", "skagerrak", "nordsjon", "skagerrak"):
            state.apply(SPACE.move(sea))
        assert state.position.fleets[0].danger == 9 and state.step == S.MOVE
        state.apply(SPACE.move("nordsjon"))
        assert state.step == S.DANGER_ROLL
        state.apply(roll(9))
        assert state.position.fleets[0].size == 1 and state.position.fleets[0].danger == rest


def test_a_journey_has_at_most_forty_moves() -> None:
    """VA-50: the loop guard ends a journey after 40 moves."""
    state = journeying(norway_and_sweden((1, "trading", "svea_rike", 1)))
    sail(state, "trading", "svea_rike", 1)
    for i in range(40):
        state.apply(SPACE.move("sodra_ostersjon" if i % 2 == 0 else "danavalde"))
        if state.step == S.SEA_BAN:
            pytest.fail("no Danish player: nobody may bar the sea")
        if state.step == S.DANGER_ROLL:
            state.apply(roll(10))
    assert state.position.fleets == [] or state.step != S.MOVE or moves_of(state) == set()


# -- 6.3 Trading fleets ----------------------------------------------------------------------------------------


def gotland_trader(ships: int = 5, **options: str) -> VikingatidState:
    """A Swedish trading fleet stopped at Gutland (trade 3, land, not a province) after a harmless roll."""
    state = journeying(norway_and_sweden((1, "trading", "svea_rike", ships)), **options)
    sail(state, "trading", "svea_rike", ships)
    state.apply(SPACE.move("sodra_ostersjon"))
    state.apply(SPACE.move("gotland"))
    state.apply(STOP)
    state.apply(roll(9))
    assert state.step == S.ACT
    return state


def test_trade_costs_one_ship_pays_the_trade_value_and_stops_trade() -> None:
    """'The player removes one ship from the fleet. He gets silver equal to the areas trade value. A trading stop
    occurs in the area'."""
    state = gotland_trader()
    assert TRADE in state.legal_actions()
    state.apply(TRADE)
    position = state.position
    assert position.silver[1] == 3 and position.fleets[0].size == 4 and position.trade_stop[position.slot("gotland")]
    assert TRADE not in state.legal_actions()


def test_trading_camps_cost_two_ships_and_are_capped_by_the_trade_value() -> None:
    """'He removes two ships per camp' ... 'All players together may not have more trading camps in an area than
    the area's trading value.'"""
    state = gotland_trader(ships=10)
    builds = [a for a in state.legal_actions() if BUILD <= a < BUILD + 2 * MAX_BUILD]
    assert builds == [build("trading", n) for n in (1, 2, 3)]
    state.apply(build("trading", 3))
    assert state.position.camps_at(1, "trading", "gotland") == 3 and state.position.fleets[0].size == 4
    assert state.action_to_notation(TRADE) == "trade" and problems(state.position) == []


def test_no_trade_in_the_viking_homelands() -> None:
    """VA-52 `home_trade: none`: a fleet at home cannot stop to trade there; `own_members` lets it."""
    state = journeying(norway_and_sweden((1, "trading", "svea_rike", 3)))
    sail(state, "trading", "svea_rike", 3)
    assert STOP not in state.legal_actions()
    home = journeying(norway_and_sweden((1, "trading", "svea_rike", 3)), home_trade="own_members")
    sail(home, "trading", "svea_rike", 3)
    home.apply(STOP)
    home.apply(TRADE)
    assert home.position.silver[1] == 3


def test_ending_the_journey_removes_the_rest_of_the_fleet() -> None:
    """VA-50 `journey_end: remove_rest`; `stay` leaves the ships standing."""
    state = gotland_trader()
    state.apply(END_JOURNEY)
    assert state.position.ships_on_board(1) == 0
    stay = gotland_trader(journey_end="stay")
    stay.apply(END_JOURNEY)
    assert stay.position.ships_at(1, "trading", "gotland") == 5


# -- 6.4 War fleets --------------------------------------------------------------------------------------------


def test_the_dice_of_a_fight_are_exact_distributions() -> None:
    """One die per ship hitting on 5 or less; the armies hit on their strength or less and a 1 shows with chance
    1 - 0.9^n (VA-55)."""
    fleet = combat.binomial_outcomes(4, 5)
    assert math.isclose(sum(p for _, p in fleet), 1.0) and math.isclose(dict(fleet)[2], 6 / 16)
    armies = combat.army_outcomes(3, 2)
    assert math.isclose(sum(p for _, _, p in armies), 1.0)
    assert math.isclose(sum(p for _, one, p in armies if one), 1 - 0.9**3)
    assert all(h >= 1 for h, one, _ in armies if one)


def frisland_raid(ships: int = 5, **options: str) -> VikingatidState:
    """A Norwegian war fleet stopped at Frisland (1 shield, strength 5, a German-Roman province)."""
    state = journeying(norway_and_sweden((0, "war", "norge", ships)), **options)
    sail(state, "war", "norge", ships)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("frisland"))
    state.apply(STOP)
    state.apply(roll(10))
    return state


def test_a_war_fleet_must_fight_the_armies_and_plunder_pays_by_strength() -> None:
    """'the fleet must fight against the area's armies' ... 'If the army strength was five, the Viking player gets
    as many silver as the number of armies he defeated.'"""
    state = frisland_raid()
    assert state.step == S.FLEET_HITS and state.current_player() == CHANCE
    state.apply(hits(1))
    assert state.step == S.ARMY_HITS
    state.apply(hits(0))
    assert state.step == S.ACT and PLUNDER in state.legal_actions()
    state.apply(PLUNDER)
    position = state.position
    assert position.silver[0] == 1 and position.plundered[position.slot("frisland")]
    assert build("war", 1) in state.legal_actions()  # VA-57 `both`


def test_the_armies_roll_all_their_dice_again_after_a_one() -> None:
    """'If any of the armies dice show a one (1), the armies roll ALL their dice again and add up the number of
    losses inflicted.'"""
    state = frisland_raid()
    state.apply(hits(0))
    state.apply(hits(1, one=True))
    assert state.step == S.ARMY_HITS
    state.apply(hits(1))
    assert state.position.fleets[0].size == 3 and state.step == S.FIGHT_ON


def test_fight_on_or_withdraw() -> None:
    """'the Viking player can choose either to continue the fight or move on to another area.'"""
    state = frisland_raid()
    state.apply(hits(0))
    state.apply(hits(0))
    assert state.legal_actions() == [FIGHT_ON, WITHDRAW]
    state.apply(FIGHT_ON)
    assert state.step == S.FLEET_HITS
    state.apply(hits(0))
    state.apply(hits(0))
    state.apply(WITHDRAW)
    assert state.step == S.MOVE and STOP not in state.legal_actions() and moves_of(state) == {"nordsjon"}


def test_a_fleet_destroyed_ends_its_journey() -> None:
    """'If all Viking ships are destroyed, the journey is over.'"""
    state = frisland_raid(ships=1)
    state.apply(hits(1))
    state.apply(hits(1))
    assert state.position.fleets == [] and state.step != S.ACT


def test_war_camps_are_capped_by_the_shields_and_a_province_reacts() -> None:
    """'All players together cannot have more war camps per area than the number of shields' and 'whenever a
    player builds a camp in a province, he must roll on the Empire Reaction table' (VA-32)."""
    state = frisland_raid()
    state.apply(hits(1))
    state.apply(hits(0))
    assert [a for a in state.legal_actions() if BUILD <= a < BUILD + 2 * MAX_BUILD] == [build("war", 1)]
    state.apply(build("war", 1))
    assert state.step == S.BUILD_REACTION_ROLL


def camp_at_frisland(**options: str) -> VikingatidState:
    """A Norwegian war fleet stopped at Frisland, where Norway holds its one war camp (1 shield)."""
    position = norway_and_sweden((0, "war", "norge", 5))
    position.build_camps(0, "war", "frisland", 1)
    state = journeying(position, **options)
    sail(state, "war", "norge", 5)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("frisland"))
    state.apply(roll(10))  # the camp ends the leg
    state.apply(STOP)
    return state


def test_an_area_without_armies_is_won_without_a_fight() -> None:
    """'A land area without armies cannot be fought' (VA-56 `free_win`): own war camps take the armies away."""
    state = camp_at_frisland()
    assert state.step == S.ACT and PLUNDER in state.legal_actions()
    state.apply(PLUNDER)
    assert state.position.silver[0] == 0  # strength 5: as many silver as armies defeated, none
    assert PLUNDER not in camp_at_frisland(armyless_area="nothing").legal_actions()


# -- Passing war camps of other kingdoms, Denmark's sea, war -------------------------------------------------------


def guarded_frisland(kind: str = "trading") -> VikingatidState:
    """Seat 0 (Denmark) holds a war camp in Frisland; seat 1's (Norway) fleet tries to enter it from Nordsjön."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "war", "frisland", 1)
    position.place_ships(1, kind, "norge", 5)
    position.gain_silver(1, 4)
    state = journeying(position)
    sail(state, kind, "norge", 5)
    state.apply(SPACE.move("nordsjon"))
    state.apply(roll(10)) if state.step == S.DANGER_ROLL else None
    state.apply(SPACE.move("frisland"))
    return state


def test_a_war_camp_owner_may_ask_a_duty_paid_at_once() -> None:
    """'He can charge any amount of silver as duty ... Any duty has to be paid immediately' (VA-53)."""
    state = guarded_frisland()
    assert state.step == S.ENTRY_ANSWER and state.current_player() == 0
    state.apply(ASK_DUTY)
    assert state.action_to_notation(amount(3)) == "ask 3 silver duty"
    state.apply(amount(3))
    assert state.current_player() == 1 and state.legal_actions() == [PAY_DUTY, TURN_AWAY]
    state.apply(PAY_DUTY)
    assert state.position.silver == [3, 1] and state.position.fleets[0].area == "frisland"


def test_a_ban_leaves_a_trading_fleet_only_turning_away() -> None:
    """'or completely forbid the other player to enter the area'."""
    state = guarded_frisland()
    state.apply(FORBID)
    assert state.legal_actions() == [TURN_AWAY]
    state.apply(TURN_AWAY)
    assert state.position.fleets[0].area == "nordsjon" and state.step == S.MOVE


def test_a_war_fleet_may_fight_its_way_in_and_risks_war() -> None:
    """'If a player's war fleet is prohibited to enter an area, he still can do so. He then has to fight against
    war camps ...' 'When attacked, a war camp counts as two war ships with strength five'; 'there is a risk of war'."""
    state = guarded_frisland("war")
    state.apply(FORBID)
    assert FIGHT in state.legal_actions()
    state.apply(FIGHT)
    assert state.step == S.FLEET_HITS
    state.apply(hits(2))
    assert state.step == S.DEFENDER_HITS
    state.apply(hits(1))
    position = state.position
    assert position.camps_at(0, "war", "frisland") == 0 and position.fleets[0].size == 4
    assert state.step == S.WAR_RISK_ROLL  # the camp's owner lost 2, the attacker 1
    state.apply(roll(2))
    assert position.war == [WAR_MARKER, WAR_MARKER, ""]
    assert state.step in (S.MOVE, S.DANGER_ROLL) and state.position.fleets[0].area == "frisland"


def test_no_fight_under_a_kings_peace() -> None:
    """'Then, no players from their kingdoms may fight each other.'"""
    state = guarded_frisland("war")
    state.position.kings_peace[0] = True  # Denmark and Norway
    state.apply(FORBID)
    assert state.legal_actions() == [TURN_AWAY]
    with pytest.raises(IllegalAction) as error:
        state.apply(FIGHT)
    assert error.value.rule == "VA-39"


def test_danish_players_may_bar_denmark_s_sea_and_risk_war() -> None:
    """'If any of Denmark's players requests so, the other player's fleet may not enter Denmark. ... Roll a dice.
    If the result is lower or equal the number of ships stopped, war breaks out.'"""
    position = position_for(2, ("denmark", "sweden"))
    position.place_ships(1, "war", "svea_rike", 4)
    state = journeying(position)
    sail(state, "war", "svea_rike", 4)
    state.apply(SPACE.move("sodra_ostersjon"))
    state.apply(SPACE.move("danavalde"))
    assert state.step == S.SEA_BAN and state.legal_actions() == [ALLOW, BAR_SEA]
    state.apply(BAR_SEA)
    state.apply(roll(4))
    assert state.position.war == [WAR_MARKER, "", WAR_MARKER]
    assert state.position.fleets[0].area == "sodra_ostersjon"


def test_after_a_fight_each_participant_may_declare_war() -> None:
    """'Any player involved in the combat can furthermore declare war voluntarily after the fight.'"""
    state = guarded_frisland("war")
    state.apply(FORBID)
    state.apply(FIGHT)
    state.apply(hits(0))
    state.apply(hits(0))
    state.apply(WITHDRAW)
    assert state.step == S.WAR_DECLARATION
    state.apply(NO_WAR)
    state.apply(NO_WAR)
    assert state.position.war == ["", "", ""] and state.position.fleets[0].area == "nordsjon"


# -- properties ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_journeys_keep_every_invariant(players: int) -> None:
    """Ships, camps and silver are conserved and every cap holds after every action of random play through phase 6,
    and an illegal action never changes the state."""
    rng = random.Random(players)
    for game in range(3):
        state = at_phase(
            position_for(players, tuple(("denmark", "norway", "sweden")[s % 3] for s in range(players))), S.BUYING_SHIPS
        )
        for seat in range(players):
            state.position.gain_silver(seat, 15)
        state = at_phase(state.position, S.BUYING_SHIPS)
        count = 0
        while state.position.phase <= S.JOURNEYS and count < 3000:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance_outcome(rng))
            else:
                legal = state.legal_actions()
                assert legal
                if count % 50 == 0:
                    illegal = next(a for a in range(1021) if a not in legal)
                    before = state.observation(None)
                    with pytest.raises(IllegalAction):
                        state.apply(illegal)
                    assert state.observation(None) == before
                state.apply(rng.choice(legal))
            count += 1
            assert problems(state.position) == [], (game, count)


# -- findings of the phase 6 review, each a rule the first version broke --------------------------------------------


def sail_through(state: VikingatidState, *areas: str) -> None:
    """Move through `areas`, rolling a harmless 10 whenever a danger roll comes."""
    for area in areas:
        state.apply(SPACE.move(area))
        if state.step == S.DANGER_ROLL:
            state.apply(roll(10))


def test_a_fight_turns_peace_pending_back_to_war() -> None:
    """'If there is any combat between the two kingdoms, the "Peace?" marker is immediately turned back to its War
    side' (VA-40), whatever the war rolls show."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "war", "frisland", 1)
    position.place_ships(1, "war", "norge", 5)
    position.war[0] = position.war[1] = PEACE_PENDING
    state = journeying(position)
    sail(state, "war", "norge", 5)
    sail_through(state, "nordsjon", "frisland")
    state.apply(FORBID)
    state.apply(FIGHT)
    state.apply(hits(0))
    state.apply(hits(0))
    state.apply(WITHDRAW)
    while state.step in (S.WAR_RISK_ROLL, S.WAR_DECLARATION):
        state.apply(roll(10) if state.step == S.WAR_RISK_ROLL else NO_WAR)
    assert state.position.war[:2] == [WAR_MARKER, WAR_MARKER]


def test_per_pair_war_with_a_home_country_halves_silver_and_clears() -> None:
    """VA-40 `per_pair` with VA-61: combat with an emigrant's home country marks the kingdom alone; phase 4 halves
    its members' silver, and phase 8 turns the marker to Peace? and then removes it."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.emigrated[2] = True
    kingdoms_war.break_out_war(position, 2, 1, "per_pair")
    rules = silver.SilverRules("per_pair", "war_or_peace_pending", "all_silver", "half_only")
    assert silver.at_war(position, "norway", rules) and not silver.at_war(position, "denmark", rules)
    for _ in range(2):
        cleanup.clean(position, "per_pair")
    assert position.war == ["", "", ""]


def test_defender_chooses_is_refused_until_it_has_a_step() -> None:
    """VA-58 `defender_losses: defender_chooses` is refused naming the option, not played as ships_first."""
    with pytest.raises(OptionError, match="defender_losses"):
        GAME.new_initial_state(2, {"defender_losses": "defender_chooses"})


def test_a_turn_away_does_not_make_the_start_a_destination() -> None:
    """VA-51 `start_as_destination: not_allowed`: a fleet turned away before it left still may not act where it
    started."""
    position = position_for(2, ("denmark", "sweden"))
    position.build_camps(1, "trading", "kurland", 1)
    position.place_ships(1, "trading", "kurland", 2)
    position.build_camps(0, "war", "konugard", 1)
    state = journeying(position, start_as_destination="not_allowed")
    sail(state, "trading", "kurland", 2)
    state.apply(SPACE.move("konugard"))
    state.apply(FORBID)
    state.apply(TURN_AWAY)
    assert STOP not in state.legal_actions()


def test_turning_away_from_a_destination_keeps_what_is_left_to_do_there() -> None:
    """A trader that stopped, tried to move on and was forbidden may still trade where it stands (6.3)."""
    position = position_for(2, ("denmark", "sweden"))
    position.place_ships(1, "trading", "svea_rike", 6)
    position.build_camps(0, "war", "konugard", 1)
    state = journeying(position)
    sail(state, "trading", "svea_rike", 6)
    sail_through(state, "sodra_ostersjon", "kurland")
    state.apply(STOP)
    if state.step == S.DANGER_ROLL:
        state.apply(roll(10))
    state.apply(SPACE.move("konugard"))
    state.apply(FORBID)
    state.apply(TURN_AWAY)
    assert state.step == S.ACT and TRADE in state.legal_actions()


def test_one_roll_serves_for_ten_points_and_the_destination() -> None:
    """VA-49: 'If that area is also the destination, one roll serves for both', under `danger_overflow: carry`
    too; a destination resets the count to zero."""
    state = journeying(norway_and_sweden((0, "war", "norge", 10)), danger_overflow="carry")
    sail(state, "war", "norge", 10)
    sail_through(state, "skagerrak", "nordsjon", "skagerrak", "nordsjon", "skagerrak", "nordsjon")
    assert state.position.fleets[0].danger == 9
    state.apply(SPACE.move("skottland"))
    state.apply(roll(10))
    state.apply(STOP)
    assert state.step != S.DANGER_ROLL and state.position.fleets[0].danger == 0


def test_an_emigrant_does_not_enter_his_old_kingdom() -> None:
    """VA-45: 'An emigrant does not enter his old kingdom', Denmark's sea included."""
    position = position_for(2, ("denmark", "sweden"))
    position.emigrated[0] = True
    position.home[0] = "frisland"
    assert not journeys.may_enter(position, journeys.JourneyRules(), 0, "war", "danavalde")
    assert journeys.may_enter(position, journeys.JourneyRules(), 1, "war", "danavalde")


def test_every_war_camp_in_the_area_lowers_the_armies() -> None:
    """'For each war camp, in the area, the number of armies is reduced by one' (6.4, VA-55): a fleet let into
    Skottland (2 shields) past one Danish war camp fights one army."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "war", "skottland", 1)
    position.place_ships(1, "war", "norge", 5)
    state = journeying(position)
    sail(state, "war", "norge", 5)
    sail_through(state, "nordsjon")
    state.apply(SPACE.move("skottland"))
    state.apply(ALLOW)
    state.apply(STOP)
    if state.step == S.DANGER_ROLL:
        state.apply(roll(10))
    assert state.journeys.fight.armies == 1


def test_every_defending_war_ship_falls_before_any_camp() -> None:
    """VA-58 `ships_first`: with several defenders, their war ships take hits before any war camp does."""
    position = position_for(3, ("denmark", "denmark", "norway"), first_seat=1)
    fight = combat.against_defenders(3, "skottland", 2, [1, 0], [2, 0, 0], [1, 1, 0])
    assert combat.apply_defender_losses(fight, 3) == [(0, 2, 0)] and fight.damage == [0, 1, 0]
    assert position.num_players == 3


def test_danish_players_are_asked_from_the_turns_first_seat() -> None:
    """VA-06: the Danes answer in seat order from the turn's first seat."""
    position = position_for(3, ("denmark", "sweden", "denmark"), first_seat=1)
    position.place_ships(1, "war", "svea_rike", 3)
    state = journeying(position)
    sail(state, "war", "svea_rike", 3)
    sail_through(state, "sodra_ostersjon")
    state.apply(SPACE.move("danavalde"))
    assert state.step == S.SEA_BAN and state.current_player() == 2 and state.journeys.askers == [2, 0]
