"""UTBRYTARE (separatists) in every rule that asks whose a camp is, and when a fight breaks a Peace?.

The card: "One area which includes a war camp becomes independent, i.e. all camps remain there, but are not under
control of any player." The ruling (VA-22): "Its camps then belong to no one: they give no VP, no silver and no
election bonus, and they trigger no reaction roll. They still count towards the area's camp limits and still reduce
its armies. The area is no longer conquered." Each test below is one rule that reads control (docs/vikingatid.md,
"Separatists: whose camps"); VP, taxes, reactions and duties are in test_vikingatid_cards_fights.py and
test_vikingatid_card_markers_journeys.py. War between Viking kingdoms: "If there is any combat between the two
kingdoms, the "Peace?" marker is immediately turned back to its War side" (VA-40, option `war_renewal`).
"""

from __future__ import annotations

from typing import Any

import pytest
from vikingatid_kit import SPACE, at_phase, fixed_state, position_for, roll

from skald.engine import IllegalAction
from skald.games.vikingatid import christianisation, danger, elections
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    AMOUNT,
    CARD_IDS,
    DONE,
    FIGHT,
    FORBID,
    HITS,
    NO_WAR,
    PASS,
    PLAY_CARD,
    STOP,
    TARGET_AREA,
    WITHDRAW,
)
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.conquest import conqueror, drop_lost_fiefs, fief_holder
from skald.games.vikingatid.position import PEACE_PENDING, WAR_MARKER, Position, problems
from skald.games.vikingatid.render import render_text
from skald.games.vikingatid.state import VikingatidState, position_at


def separatist(position: Position, area_id: str) -> Position:
    """The area under the separatist marker (what a successful UTBRYTARE leaves, camps standing)."""
    position.separatists[position.slot(area_id)] = True
    return position


def give(state: VikingatidState, seat: int, card: str) -> None:
    """A card of the deck into the seat's hand."""
    kind = CARD_IDS.index(card)
    state.deck.deck[kind] -= 1
    state.deck.hands[seat][kind] += 1


def passing(state: VikingatidState, until: str = "") -> None:
    """Every holder passes in the card windows open now (up to a window of kind `until`)."""
    while state.step == S.CARD_WINDOW:
        assert state.window is not None
        if state.window.kind == until:
            return
        state.apply(PASS)


# -- 5. Buying Ships: "Pulling down camps" and "at trading or war camps the player owns" ---------------------------


def buyer_with_a_separatist_camp() -> VikingatidState:
    """Phase 5: Norway (seat 0, 6 silver) has a trading camp in Gotland and a war camp in Northumbrien, which is
    separatist; Sweden has no silver and no camp."""
    position = position_for(2, ("norway", "sweden"))
    position.gain_silver(0, 6)
    position.build_camps(0, "trading", "gotland", 1)
    position.build_camps(0, "war", "northumbrien", 1)
    return at_phase(separatist(position, "northumbrien"), S.BUYING_SHIPS)


def test_the_old_owner_cannot_pull_down_separatist_camps_into_ships() -> None:
    """ "Each camp can be pulled down. The player removes them and places ONE ship" — a camp that is "not under
    control of any player" is not his to pull down: it is not offered, and trying names VA-22 and changes
    nothing."""
    state = buyer_with_a_separatist_camp()
    assert state.step == S.PULL_DOWN and state.current_player() == 0
    assert state.legal_actions() == [DONE, SPACE.pull_down("trading", "gotland")]
    before = state.observation(None)
    with pytest.raises(IllegalAction) as error:
        state.apply(SPACE.pull_down("war", "northumbrien"))
    assert error.value.rule == "VA-22" and state.observation(None) == before
    assert state.position.camps_at(0, "war", "northumbrien") == 1


def test_no_ships_are_placed_at_separatist_camps() -> None:
    """ "Ships may be placed in the home country or at trading or war camps the player owns ... At each camp, two
    ships": the separatist war camp takes none of its old owner's ships."""
    state = buyer_with_a_separatist_camp()
    state.apply(DONE)  # pulls down nothing
    assert state.step == S.BUY_SHIPS
    places = {(SPACE.to_json(a)["ships"], SPACE.to_json(a)["area"]) for a in state.legal_actions()}
    assert places == {("trading", "norge"), ("war", "norge"), ("trading", "gotland")}
    with pytest.raises(IllegalAction) as error:
        state.apply(SPACE.buy("war", "northumbrien"))
    assert error.value.rule == "VA-22"


# -- 3. Election of kings: "+1 per three camps the player has on the map" ------------------------------------------


def test_separatist_camps_give_no_election_bonus() -> None:
    """VA-22: separatist camps give "no election bonus": three camps give +1, but not once two of them stand in a
    separatist area."""
    position = position_for(3, ("norway", "norway", "sweden"))
    position.build_camps(0, "trading", "gotland", 1)
    position.build_camps(0, "trading", "northumbrien", 1)
    position.build_camps(0, "war", "northumbrien", 1)
    assert elections.camp_bonus(position, 0) == 1
    assert elections.camp_bonus(separatist(position, "northumbrien"), 0) == 0


# -- 6.2 Danger value: "camps of the same home country" and "until it reaches a camp of its type" ------------------


def test_separatist_camps_neither_lower_danger_nor_end_a_leg() -> None:
    """ "If a fleet enters a land area with appropriate camps of the same home country, that area's danger value is
    reduced by one per camp" and "The fleet moves until it reaches a camp of its type" (VA-47 `own_camps`): Norway's
    trading camp in Frisland, separatist now, is no camp of his: Frisland adds its full danger and the leg goes
    on."""
    position = position_for(2, ("norway", "sweden"))
    position.place_ships(0, "trading", "norge", 5)
    position.build_camps(0, "trading", "frisland", 1)
    separatist(position, "frisland")
    assert danger.area_danger(position, 0, "trading", "frisland") == position.board.area("frisland").danger
    for camp_break in ("own_camps", "kingdom_camps"):
        assert not danger.breaks_leg(position, 0, "trading", "frisland", camp_break)
    state = at_phase(position, S.JOURNEYS)
    state.apply(SPACE.fleet("trading", "norge"))
    state.apply(AMOUNT + 4)
    state.apply(SPACE.move("nordsjon"))
    state.apply(SPACE.move("frisland"))  # Nordsjön 2 + Frisland 1, no camp of his to lower it
    assert state.step == S.MOVE and state.position.fleets[0].danger == 3


def test_any_camps_still_ends_a_leg_at_a_separatist_camp() -> None:
    """VA-47 `any_camps` reads "a camp of its type" literally, whoever owns it: it asks for no owner, so a camp
    under no one's control is still a camp there (it lowers no danger: that asks for "the same home country")."""
    position = separatist(position_for(2, ("norway", "sweden")), "frisland")
    position.build_camps(1, "trading", "frisland", 1)
    assert danger.breaks_leg(position, 0, "trading", "frisland", "any_camps")
    assert danger.area_danger(position, 1, "trading", "frisland") == position.board.area("frisland").danger


# -- conquest, FÖRLÄNING and SMÅRIKE ---------------------------------------------------------------------------


def test_a_separatist_area_is_no_one_s_conquest_or_heritage() -> None:
    """VA-22 "The area is no longer conquered"; VA-23 a heritage "lasts while the player keeps at least one war
    camp in the area" — a war camp no longer his keeps nothing, and the marker goes."""
    position = position_for(2, ("norway", "sweden"))
    area = position.board.area("northumbrien")
    position.build_camps(0, "trading", "northumbrien", position.trade_value("northumbrien"))
    position.build_camps(0, "war", "northumbrien", area.shields)
    slot = position.slot("northumbrien")
    position.fief[slot], position.fief_kind[slot] = 0, "heritage"
    assert conqueror(position, "northumbrien") == 0 and fief_holder(position, slot) == 0
    separatist(position, "northumbrien")
    assert conqueror(position, "northumbrien") == -1 and fief_holder(position, slot) == -1
    assert drop_lost_fiefs(position) == ["northumbrien"]


def test_small_kingdom_needs_a_war_camp_under_the_player_s_control() -> None:
    """SMÅRIKE: "Play on an area where the player has at least one war camp" — a separatist war camp is no
    longer his, so with no other the card has no area to take."""
    position = position_for(2, ("norway", "sweden"))
    position.build_camps(0, "war", "northumbrien", 1)
    state = fixed_state(2).clone()
    state.position = position
    state.history = []
    state.deck.to_draw = []
    give(state, 0, "small_kingdom")
    state.begin_phase(S.REACTIONS)
    assert PLAY_CARD + CARD_IDS.index("small_kingdom") in state.legal_actions()
    separatist(position, "northumbrien")
    state.begin_phase(S.REACTIONS)
    assert PLAY_CARD + CARD_IDS.index("small_kingdom") not in state.legal_actions()
    assert TARGET_AREA + position.slot("northumbrien") not in state.legal_actions()


# -- 10. Christianisation: "each area ... that contain Christian camps" ---------------------------------------------


def test_separatist_camps_of_a_christian_are_not_assimilated() -> None:
    """ "a dice is rolled for each area in Britain or the German-Roman empire that contain Christian camps": the
    camps of a Christian that turned separatist are no one's, so no Christian's: no roll, and a 1 there would
    take nothing."""
    position = position_for(2, ("norway", "sweden"))
    position.christian[0] = True
    position.build_camps(0, "war", "northumbrien", 1)
    assert christianisation.assimilation_areas(position) == ["northumbrien"]
    separatist(position, "northumbrien")
    assert christianisation.assimilation_areas(position) == []
    assert christianisation.assimilate_area(position, "northumbrien") == []
    assert position.camps_at(0, "war", "northumbrien") == 1


# -- card fights: "Trade camps without army camps in the area are destroyed" ---------------------------------------


def test_separatist_trading_camps_stand_with_the_separatist_war_camps() -> None:
    """UPPROR!: "Trade camps without army camps in the area are destroyed" — the camps of a separatist area are no
    one's and stand together: Norway's old trading camp is not destroyed while Sweden's old war camp stands there,
    and the rebellion fights that war camp."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.build_camps(1, "trading", "northumbrien", 1)
    position.build_camps(2, "war", "northumbrien", 1)
    base = fixed_state(3)
    give(base, 0, "rebellion")
    state = position_at(base, separatist(position, "northumbrien"), S.VICTORY_POINTS)
    state.apply(PLAY_CARD + CARD_IDS.index("rebellion"))
    state.apply(TARGET_AREA + position.slot("northumbrien"))
    assert state.step == S.CARD_HITS
    assert state.position.camps_at(1, "trading", "northumbrien") == 1


# -- the fight against the separatists' war camps (VA-22 `hostile`) ---------------------------------------------


def to_the_separatists(**options: Any) -> VikingatidState:
    """Norway's war fleet of five makes separatist Northumbrien its destination, where only Sweden's old war camp
    stands; Sweden (seat 1) holds BÄRSÄRK. Stops at the window before the fight."""
    position = position_for(2, ("norway", "sweden"))
    position.place_ships(0, "war", "norge", 5)
    position.build_camps(1, "war", "northumbrien", 1)
    state = at_phase(separatist(position, "northumbrien"), S.JOURNEYS, **options)
    give(state, 1, "berserk")
    state.apply(SPACE.fleet("war", "norge"))
    state.apply(AMOUNT + 4)
    for action in (SPACE.move("nordsjon"), SPACE.move("northumbrien"), STOP):
        passing(state)
        if state.step == S.DANGER_ROLL:
            state.apply(roll(10))
            passing(state)
        state.apply(action)
    while state.step != S.CARD_WINDOW or state.window is None or state.window.kind != windows.BEFORE_FIGHT:
        state.apply(roll(10) if state.step == S.DANGER_ROLL else PASS)
    return state


def test_the_old_owner_takes_no_side_in_the_separatists_fight() -> None:
    """BÄRSÄRK is played "by a player whose ships or camps take part" (VA-17), and GUDARNA INGRIPER re-rolls only
    "his dice" (VA-16): the separatists' war camp is "not under control of any player", so its old owner may not
    play BÄRSÄRK for it, and its dice are no player's own."""
    state = to_the_separatists()
    assert state.journeys.separatist_fight and state.journeys.fight.defenders == [1]
    while state.step == S.CARD_WINDOW:
        assert state.window is not None
        if state.window.seat == 1:
            assert PLAY_CARD + CARD_IDS.index("berserk") not in state.legal_actions()
        state.apply(PASS)
    assert state.step == S.FLEET_HITS
    state.apply(HITS + 0)
    passing(state)
    assert state.step == S.DEFENDER_HITS and state.roller() == -1


# -- War between Viking kingdoms: "the "Peace?" marker is immediately turned back to its War side" --------------


def fight_at_frisland(**options: Any) -> VikingatidState:
    """Denmark (seat 0) holds a war camp in Frisland and forbids Norway's war fleet, which fights its way in; both
    kingdoms show Peace?. Stops as the fight's first round begins."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "war", "frisland", 1)
    position.place_ships(1, "war", "norge", 5)
    position.war[0] = position.war[1] = PEACE_PENDING
    state = at_phase(position, S.JOURNEYS, **options)
    state.apply(SPACE.fleet("war", "norge"))
    state.apply(AMOUNT + 4)
    for area in ("nordsjon", "frisland"):
        state.apply(SPACE.move(area))
        if state.step == S.DANGER_ROLL:
            state.apply(roll(10))
    state.apply(FORBID)
    state.apply(FIGHT)
    assert state.step == S.FLEET_HITS
    return state


def finish_by_withdrawing(state: VikingatidState) -> None:
    state.apply(HITS + 0)
    state.apply(HITS + 0)
    state.apply(WITHDRAW)
    while state.step in (S.WAR_RISK_ROLL, S.WAR_DECLARATION):
        state.apply(roll(10) if state.step == S.WAR_RISK_ROLL else NO_WAR)


def test_a_fight_turns_peace_pending_back_to_war_at_its_first_round() -> None:
    """VA-40 `war_renewal: first_round`: "If there is any combat between the two kingdoms, the "Peace?" marker is
    immediately turned back to its War side" — as the fight starts, before its first dice, so everything played or
    seen during the fight meets War."""
    state = fight_at_frisland()
    assert state.position.war[:2] == [WAR_MARKER, WAR_MARKER]
    finish_by_withdrawing(state)
    assert state.position.war[:2] == [WAR_MARKER, WAR_MARKER] and problems(state.position) == []


def test_after_fight_turns_peace_pending_back_to_war_once_the_fight_is_over() -> None:
    """VA-40 `war_renewal: after_fight`, "immediately" read as "at once, not at the cleanup": Peace? stands through
    the fight and turns to War when it is over."""
    state = fight_at_frisland(war_renewal="after_fight")
    assert state.position.war[:2] == [PEACE_PENDING, PEACE_PENDING]
    finish_by_withdrawing(state)
    assert state.position.war[:2] == [WAR_MARKER, WAR_MARKER]


# -- what the table shows ---------------------------------------------------------------------------------------


def test_the_table_shows_separatist_camps_as_no_one_s() -> None:
    """The terminal table names no holder for the camps of a separatist area, and a seat's own camps leave them
    out (UTBRYTARE: "not under control of any player")."""
    position = position_for(2, ("norway", "sweden"))
    position.build_camps(1, "war", "northumbrien", 1)
    position.build_camps(1, "trading", "gotland", 1)
    state = at_phase(separatist(position, "northumbrien"), S.BUYING_SHIPS)
    text = render_text(state)
    assert "1/2 war (separatists)" in text
    assert "0T 0W  1T 0W" in text
