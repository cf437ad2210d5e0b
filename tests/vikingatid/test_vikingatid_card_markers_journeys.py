"""Phase 6 and the card markers other cards leave on the areas: a heritage or small kingdom (FÖRLÄNING, SMÅRIKE;
VA-23), a separatist area (UTBRYTARE; VA-22, option `separatists`), an area an expansion took (VA-25, option
`expanded_strength`). Each test cites the card's text or the ruling it checks."""

from __future__ import annotations

from typing import Any

from vikingatid_kit import SPACE, at_phase, position_for, roll

from skald.engine import CHANCE
from skald.games.vikingatid import combat, journeys
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    AMOUNT,
    BUILD,
    DESTROY,
    FIGHT_ON,
    HITS,
    HITS_WITH_ONE,
    MAX_BUILD,
    PLUNDER,
    STOP,
    TRADE,
    WITHDRAW,
)
from skald.games.vikingatid.position import WAR_MARKER, Position
from skald.games.vikingatid.state import VikingatidState


def build(kind: str, n: int) -> int:
    return BUILD + (0 if kind == "trading" else 1) * MAX_BUILD + n - 1


def builds(state: VikingatidState) -> list[int]:
    """The build actions legal now."""
    return [a for a in state.legal_actions() if BUILD <= a < BUILD + 2 * MAX_BUILD]


def norway_and_sweden() -> Position:
    """Seat 0 Norway (five war and five trading ships at home), seat 1 Sweden."""
    position = position_for(2, ("norway", "sweden"))
    position.place_ships(0, "war", "norge", 5)
    position.place_ships(0, "trading", "norge", 5)
    return position


def stop_at(position: Position, kind: str, area: str, **options: Any) -> VikingatidState:
    """Phase 6 on `position`: Norway's fleet of five of `kind` sails Norge, Nordsjön, `area` and makes it its
    destination (every danger roll a 10, so no ship is lost)."""
    state = at_phase(position, S.JOURNEYS, **options)
    state.apply(SPACE.fleet(kind, "norge"))
    state.apply(AMOUNT + 4)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move(area))
    if state.step == S.DANGER_ROLL:  # an own camp of the fleet's type ends the leg
        state.apply(roll(10))
    assert state.step == S.MOVE, S.STEPS[state.step]
    state.apply(STOP)
    if state.step == S.DANGER_ROLL:
        state.apply(roll(10))
    return state


# -- FÖRLÄNING and SMÅRIKE (VA-23) ---------------------------------------------------------------------------------


def fief_in_northumbrien(kind: str = "small_kingdom") -> Position:
    """Norway holds one war camp in Northumbrien (2 shields, strength 5, a province of Britain), made its heritage
    or small kingdom."""
    position = norway_and_sweden()
    position.build_camps(0, "war", "northumbrien", 1)
    slot = position.slot("northumbrien")
    position.fief[slot] = 0
    position.fief_kind[slot] = kind
    return position


def test_small_kingdom_holder_builds_war_camps_without_fighting_the_armies() -> None:
    """SMÅRIKE, VA-23: "The player does not need to defeat any more armies to build war camps there": his war fleet
    acts at once, may build, and (nothing beaten) neither plunders nor destroys."""
    state = stop_at(fief_in_northumbrien(), "war", "northumbrien")
    assert state.step == S.ACT and not state.journeys.fight.against
    legal = state.legal_actions()
    assert build("war", 1) in legal and PLUNDER not in legal and DESTROY not in legal


def test_the_armies_must_be_beaten_where_there_is_no_fief() -> None:
    """6.4 "the fleet must fight against the area's armies": the same war camp without the marker leaves one army
    (2 shields less the camp) to fight first; a war camp built then in the province rolls on the empire's reaction
    table (VA-32)."""
    position = fief_in_northumbrien()
    position.fief[position.slot("northumbrien")] = -1
    state = stop_at(position, "war", "northumbrien")
    assert state.step == S.FLEET_HITS and state.journeys.fight.armies == 1
    assert builds(state) == []
    state.apply(HITS + 1)
    state.apply(HITS + 0)
    state.apply(build("war", 1))
    assert state.step == S.BUILD_REACTION_ROLL


def test_building_in_a_heritage_makes_no_reaction_roll() -> None:
    """FÖRLÄNING, VA-23: the area "makes no more reaction rolls", so a war camp built there in a province of Britain
    is not followed by the empire's reaction."""
    state = stop_at(fief_in_northumbrien("heritage"), "war", "northumbrien")
    state.apply(build("war", 1))
    assert state.step == S.ACT and state.position.camps_at(0, "war", "northumbrien") == 2


def test_a_heritage_without_its_war_camp_no_longer_spares_the_fight() -> None:
    """VA-23 `fief_loss: last_war_camp`: the heritage "lasts while the player keeps at least one war camp in the
    area"; the marker with no war camp of his there is no heritage, and the armies fight."""
    position = norway_and_sweden()
    slot = position.slot("northumbrien")
    position.fief[slot] = 0
    position.fief_kind[slot] = "heritage"
    state = stop_at(position, "war", "northumbrien")
    assert state.step == S.FLEET_HITS and state.journeys.fight.armies == 2


def test_another_seat_s_war_fleet_still_fights_in_a_fief() -> None:
    """SMÅRIKE spares only "the player": another seat's war fleet stopping in the area fights its armies (its
    entry past the holder's war camp allowed)."""
    position = position_for(2, ("sweden", "norway"))
    position.place_ships(1, "war", "norge", 5)
    position.build_camps(0, "war", "northumbrien", 1)
    position.fief[position.slot("northumbrien")] = 0
    state = at_phase(position, S.JOURNEYS)
    state.apply(SPACE.fleet("war", "norge"))
    state.apply(AMOUNT + 4)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("northumbrien"))
    assert state.step == S.ENTRY_ANSWER
    state.apply(next(a for a in state.legal_actions() if SPACE.to_json(a)["type"] == "allow"))
    state.apply(STOP)
    if state.step == S.DANGER_ROLL:
        state.apply(roll(10))
    assert state.step == S.FLEET_HITS and state.journeys.fight.against == combat.ARMIES


# -- UTBRYTARE (VA-22) ---------------------------------------------------------------------------------------------


def separatist_northumbrien() -> Position:
    """Northumbrien (2 shields, strength 5) under the separatist marker: a war camp of each seat and two Swedish
    trading camps."""
    position = norway_and_sweden()
    position.build_camps(0, "war", "northumbrien", 1)
    position.build_camps(1, "war", "northumbrien", 1)
    position.build_camps(1, "trading", "northumbrien", 2)
    position.separatists[position.slot("northumbrien")] = True
    return position


def test_separatist_war_camps_ask_no_duty_and_defend_against_every_war_fleet() -> None:
    """VA-22 `hostile`: the camps are "not under control of any player" (no duty asked on entry); "Their war
    camps defend the area against every war fleet that makes it a destination. Each counts as two ships of strength
    5": every seat's war camps there, the mover's own too."""
    state = stop_at(separatist_northumbrien(), "war", "northumbrien")
    fight = state.journeys.fight
    assert state.step == S.FLEET_HITS and state.journeys.separatist_fight
    assert fight.against == combat.DEFENDERS and fight.defenders == [0, 1] and fight.defending_dice() == 4
    assert combat.defender_hit_on(fight) == 5
    assert state.observation(0)["journey"]["fight"]["separatists"] is True


def test_beaten_separatists_bring_no_risk_of_war_and_the_armies_fight_next() -> None:
    """VA-22: "neither side re-rolls 1s" and the camps are no one's, so their loss brings no risk of war; with them
    gone the area's armies (2 shields, no war camp left) fight the fleet."""
    state = stop_at(separatist_northumbrien(), "war", "northumbrien")
    state.apply(HITS + 4)
    assert state.step == S.DEFENDER_HITS and state.current_player() == CHANCE
    assert all(HITS <= a < HITS_WITH_ONE for a in state.legal_actions())  # no "a 1 showed" outcome: no re-roll
    state.apply(HITS + 1)
    position = state.position
    assert position.camps_in_area("war", "northumbrien") == 0 and position.fleets[0].size == 4
    assert state.step == S.FLEET_HITS and not state.journeys.separatist_fight
    fight = state.journeys.fight
    assert fight.against == combat.ARMIES and fight.armies == 2
    assert WAR_MARKER not in position.war


def test_a_fleet_that_wins_removes_the_separatist_trading_camps_and_the_marker() -> None:
    """VA-22: "Once those war camps are gone, a war fleet that wins there may remove the separatist trading camps";
    no camp is built while the marker stands, and with no camp left the marker goes."""
    state = stop_at(separatist_northumbrien(), "war", "northumbrien")
    state.apply(HITS + 4)
    state.apply(HITS + 0)
    state.apply(HITS + 2)
    state.apply(HITS + 0)
    assert state.step == S.ACT and DESTROY in state.legal_actions() and builds(state) == []
    state.apply(DESTROY)
    position = state.position
    assert position.camps_at(1, "trading", "northumbrien") == 0
    assert not position.separatists[position.slot("northumbrien")]
    assert state.step == S.ACT and build("war", 1) in builds(state)  # no marker, no war camp: room for two


def test_withdrawing_from_the_separatists_moves_on_without_war() -> None:
    """6.4 "continue the fight or move on to another area", against the separatist camps too; no war risk."""
    state = stop_at(separatist_northumbrien(), "war", "northumbrien")
    state.apply(HITS + 0)
    state.apply(HITS + 0)
    assert state.legal_actions() == [FIGHT_ON, WITHDRAW]
    state.apply(WITHDRAW)
    assert state.step == S.MOVE and STOP not in state.legal_actions()
    assert state.position.separatists[state.position.slot("northumbrien")]


def test_inert_separatists_only_take_up_room() -> None:
    """VA-22 `inert`: "the camps only take up room until a PEST! or UPPROR! card removes them": no fight with them,
    they still reduce the armies, no fleet removes them, no camp is built there."""
    state = stop_at(separatist_northumbrien(), "war", "northumbrien", separatists="inert")
    fight = state.journeys.fight
    assert state.step == S.ACT and fight.against == "" and state.journeys.won  # 2 shields less 2 war camps
    legal = state.legal_actions()
    assert DESTROY not in legal and builds(state) == [] and PLUNDER in legal


def test_no_trading_camp_is_built_in_a_separatist_area() -> None:
    """VA-22, both values: no camps are built in the area while its separatist marker stands; trade goes on."""
    position = norway_and_sweden()
    position.build_camps(1, "war", "skottland", 1)
    position.separatists[position.slot("skottland")] = True
    state = stop_at(position, "trading", "skottland", separatists="inert")
    assert state.step == S.ACT and TRADE in state.legal_actions() and builds(state) == []
    assert journeys.act_builds(state.position, state.journeys) == range(0)
    position.separatists[position.slot("skottland")] = False
    assert build("trading", 1) in builds(state)


# -- an area an expansion took (VA-25) -----------------------------------------------------------------------------


def expanded_skottland() -> Position:
    """Skottland (2 shields, printed strength 2) taken by an expansion into the Western Caliphate."""
    position = norway_and_sweden()
    slot = position.slot("skottland")
    position.empire_of[slot] = "w_caliphate"
    position.expanded[slot] = True
    return position


def test_expanded_area_armies_fight_and_pay_at_the_empire_strength() -> None:
    """VA-25 `expanded_strength: empire`: an area an expansion took has armies that "fight at the 'empire' strength
    5", in a journey too; "If the army strength was five, the Viking player gets as many silver as the number of
    armies he defeated"."""
    state = stop_at(expanded_skottland(), "war", "skottland", expanded_strength="empire")
    assert state.step == S.FLEET_HITS and state.journeys.fight.strength == 5
    state.apply(HITS + 2)
    state.apply(HITS + 0)
    state.apply(PLUNDER)
    assert state.position.silver[0] == 2


def test_expanded_area_armies_keep_their_printed_strength_by_default() -> None:
    """VA-25 `expanded_strength: printed`: the armies keep their printed strength 2; "If the army strength was two,
    he does not get anything"."""
    state = stop_at(expanded_skottland(), "war", "skottland")
    assert state.step == S.FLEET_HITS and state.journeys.fight.strength == 2
    state.apply(HITS + 2)
    state.apply(HITS + 0)
    state.apply(PLUNDER)
    assert state.position.silver[0] == 0
