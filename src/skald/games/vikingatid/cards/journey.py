"""Card effects, `cards.journey`: the cards of journeys, trade and the fights of phase 6.

Each card's text is quoted where its effect is written. The effects live on the `Journeys` record (public: "any
card effects on it", Hidden information) or on the table's markers (trade stops, the Discovered marker, camps);
`journeys.py`, `trade.py`, `combat.py` and `initiative.py` read them where the rules apply. Most of these cards
need the fleet in motion: one journey goes at a time, so "the fleet" a card names is `table.fleets[0]`.

Open points (cards.options.JOURNEY_OPTIONS): `protection` (VA-15), `good_trade`, `berserk` (VA-17), `discovery`
(VA-26), `friendly_town` (VA-27), `free_passage` (VA-28), `divine_intervention` (VA-16), `danger_card_reentry`,
`varangian_guard`. Two INITIATIV after the same roll roll off, as the text says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from skald.games.vikingatid import combat, initiative, journeys, trade
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import TARGET_AREA
from skald.games.vikingatid.board import VIKING_KINGDOM
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.cards.effect import Effect, effect
from skald.games.vikingatid.cards.play import NEED_ROLL

if TYPE_CHECKING:
    from skald.games.vikingatid.situation import Situation

#: BESKYDD's "-2", and TORS HAMMARE's.
PROTECTION: Final = 2
#: HAVSMONSTER "increases by five", SJÖOVÄDER and RÖVARBAND "by two".
SEA_MONSTERS: Final = 5
SEA_STORM: Final = 2
ROBBERS: Final = 2
#: VÄNLIGT SINNAD BY: "'Uncivilised' areas means areas with an army strength of two" (Explanation of cards).
UNCIVILISED: Final = 2
#: The steps of a journey fight (TORS HAMMARE is played while one is under way or about to start).
FIGHT_STEPS: Final = (S.FLEET_HITS, S.ARMY_HITS, S.DEFENDER_HITS, S.FIGHT_ON)


# -- where the table stands ----------------------------------------------------------------------------------


def _in_journeys(state: Situation) -> bool:
    """Phase 6 under way."""
    return state.position.phase == S.JOURNEYS and not journeys.done(state.journeys)


def _moving(state: Situation) -> bool:
    """A fleet is in motion (the fleet these cards name)."""
    return _in_journeys(state) and state.journeys.active and bool(state.position.fleets)


def _own_fleet(state: Situation, seat: int, kind: str) -> bool:
    """The fleet in motion is the seat's, of `kind` ("during a trade journey": his own trading fleet)."""
    if not _moving(state):
        return False
    f = state.position.fleets[0]
    return f.owner == seat and f.kind == kind


def _window(state: Situation) -> str:
    """The kind of card window open, or OWN_DECISION at the acting player's own decision."""
    return state.window.kind if state.window is not None else windows.OWN_DECISION


def _after_danger_roll(state: Situation) -> bool:
    """A danger roll has been made and is held back (a card changing the fleet's value now would change a roll
    already seen)."""
    w = state.window
    return w is not None and w.kind == windows.AFTER_ROLL and w.roll_step == S.DANGER_ROLL


def _area_of(state: Situation) -> str:
    """The area the card under way names."""
    assert state.play is not None
    return state.position.area_ids[state.play.target - TARGET_AREA]


def _name(state: Situation, area_id: str) -> str:
    return state.position.board.area(area_id).name


def _targets(state: Situation, areas: list[str]) -> list[int]:
    """Target ids of the areas, each once."""
    found: list[int] = []
    for area_id in areas:
        target = TARGET_AREA + state.position.slot(area_id)
        if target not in found:
            found.append(target)
    return found


# -- BESKYDD ---------------------------------------------------------------------------------------------------


def _protection_may(state: Situation, seat: int) -> bool:
    """'The fleet gets -2 on its value. Counts for one dice roll. (Play at any time.)': on the fleet in motion,
    by anyone, before its roll (not on a danger roll already made)."""
    return _moving(state) and not _after_danger_roll(state)


def _protection(state: Situation) -> None:
    """VA-15 `danger_total`: its next danger roll counts 2 points less (not below 0); `any_roll`: its next roll,
    danger or a fight round (its dice hit on two more faces)."""
    assert state.play is not None
    j = state.journeys
    j.protection_any = state.options["protection"] == "any_roll"
    w = state.window
    if j.protection_any and j.step == S.FLEET_HITS and (w is None or w.kind != windows.AFTER_ROLL):
        # Before the fleet's dice of this round are rolled (the window before the fight): they are its next roll.
        j.fight.round_bonus += PROTECTION
    else:
        j.protection += PROTECTION
    f = state.position.fleets[0]
    state.play.text = f"seat {f.owner + 1}'s fleet gets -{PROTECTION} on its next roll"


# -- BRA HANDEL ------------------------------------------------------------------------------------------------


def _good_trade_may(state: Situation, seat: int) -> bool:
    """'(Play during a trade journey.)': the player's own trading fleet is in motion."""
    return _own_fleet(state, seat, journeys.TRADING)


def _good_trade_targets(state: Situation, seat: int) -> list[int]:
    """'Doubles the trade value of any one area': any land area with a trade value outside the Viking homelands,
    not already doubled for him."""
    position, j = state.position, state.journeys
    found: list[int] = []
    for slot, area_id in enumerate(position.area_ids):
        area = position.board.area(area_id)
        if not area.is_land or area.kind == VIKING_KINGDOM or position.trade_value(area_id) <= 0:
            continue
        if any(a == area_id and j.good_trade_seat[i] in (seat, -1) for i, a in enumerate(j.good_trade)):
            continue
        found.append(TARGET_AREA + slot)
    return found


def _good_trade(state: Situation) -> None:
    """The next trade in the area pays twice its trade value: by this player's trading fleet under way
    (`good_trade: own_fleet`) or by any fleet this phase (`any_fleet`). 'Counts for one single trade': only that
    trade's silver changes (the trade stop, the ship used, the camp cap and VP stay as they are)."""
    assert state.play is not None
    area_id = _area_of(state)
    j = state.journeys
    j.good_trade.append(area_id)
    j.good_trade_seat.append(state.play.seat if state.options["good_trade"] == "own_fleet" else -1)
    state.play.text = f"the next trade at {_name(state, area_id)} pays double"


# -- BÄRSÄRK ---------------------------------------------------------------------------------------------------


def _berserk_may(state: Situation, seat: int) -> bool:
    """'(Play immediately before a fight.)' by a player whose ships or camps take part (VA-17), not on top of
    his own card standing (a second would only cancel it)."""
    if not _moving(state):
        return False
    fight = state.journeys.fight
    if not journeys.takes_part(state.journeys, seat):
        return False
    return combat.berserk_standing(fight) != seat


def _berserk(state: Situation) -> None:
    """'Wins automatically the fight in one area. If two berserk cards are played in one fight, they cancel each
    other, and the fight is conducted as usual.' The card stands until the first round ends, when the other side
    is destroyed (`berserk: no_losses`: no dice count; `one_round`: the other side's dice of one round still take
    his losses)."""
    assert state.play is not None
    seat = state.play.seat
    fight = state.journeys.fight
    fight.berserk.append(seat)
    journeys.berserk_dice(state.position, state.journeys, state.options["berserk"] == "one_round")
    standing = combat.berserk_standing(fight)
    state.play.text = (
        f"seat {seat + 1} wins the fight at {_name(state, fight.area)}"
        if standing == seat
        else "two berserk cards cancel each other: the fight is rolled as usual"
    )


# -- FRI HANDEL, the trade stop --------------------------------------------------------------------------------


def _free_trade_targets(state: Situation, seat: int) -> list[int]:
    """An area under a trade stop ('trade despite trading stop', 'cancel the effect of a trading stop card'), or
    in phase 6 the plundered area the trading fleet passes under FRI LEJD ('unless after playing a free trade
    card')."""
    position = state.position
    found = [
        TARGET_AREA + slot
        for slot, stopped in enumerate(position.trade_stop)
        if stopped and position.trade_value(position.area_ids[slot]) > 0
    ]
    if _moving(state):
        j = state.journeys
        passing = [*j.free_passage, *([j.passage_area] if j.passage_area else [])]
        found += _targets(
            state, [a for a in passing if a not in j.free_trade and TARGET_AREA + position.slot(a) not in found]
        )
    return found


def _free_trade(state: Situation) -> None:
    """'Trading ships may conduct trade despite trading stop. Counts for one time.' The area's trade stop goes
    (the last card played stands, VA-10): the next trade there puts it back, so one trade is made. In phase 6 the
    area is also marked for the fleet in motion (with FRI LEJD it may trade in the plundered area once)."""
    assert state.play is not None
    area_id = _area_of(state)
    state.position.trade_stop[state.position.slot(area_id)] = False
    if _in_journeys(state) and area_id not in state.journeys.free_trade:
        state.journeys.free_trade.append(area_id)
    state.play.text = f"trade is free at {_name(state, area_id)} once"


def _trade_stop_targets(state: Situation, seat: int) -> list[int]:
    """A land area with a trade value not closed already."""
    position = state.position
    return [
        TARGET_AREA + slot
        for slot, area_id in enumerate(position.area_ids)
        if not position.trade_stop[slot] and position.board.area(area_id).is_land and position.trade_value(area_id) > 0
    ]


def _trade_stop(state: Situation) -> None:
    """'Closes one area for trade for the rest of this game turn.': its trade stop marker, removed in phase 8;
    a FRI HANDEL played before on it is cancelled (the last played stands)."""
    assert state.play is not None
    area_id = _area_of(state)
    state.position.trade_stop[state.position.slot(area_id)] = True
    if _in_journeys(state) and area_id in state.journeys.free_trade:
        state.journeys.free_trade.remove(area_id)
    state.play.text = f"{_name(state, area_id)} is closed for trade this turn"


# -- FRI LEJD --------------------------------------------------------------------------------------------------


def _free_passage_may(state: Situation, seat: int) -> bool:
    """'Trading ships may pass a plundered area': the fleet in motion is a trading fleet (anyone may play it on
    it, as on any fleet)."""
    return _moving(state) and state.position.fleets[0].kind == journeys.TRADING


def _free_passage_targets(state: Situation, seat: int) -> list[int]:
    """A plundered land area the fleet has no passage for yet."""
    position, j = state.position, state.journeys
    return [
        TARGET_AREA + slot
        for slot, plundered in enumerate(position.plundered)
        if plundered and position.area_ids[slot] not in j.free_passage and position.area_ids[slot] != j.passage_area
    ]


def _free_passage(state: Situation) -> None:
    """VA-28: the trading fleet may enter or pass the plundered area once, and build trading camps there
    (`free_passage: pass_and_build`) or only pass (`pass_only`); trading there needs FRI HANDEL."""
    assert state.play is not None
    area_id = _area_of(state)
    j = state.journeys
    j.free_passage.append(area_id)
    j.passage_build = state.options["free_passage"] == "pass_and_build"
    state.play.text = f"the trading fleet may pass {_name(state, area_id)} once"


# -- HAVSMONSTER, SJÖOVÄDER, RÖVARBAND -------------------------------------------------------------------------


def _danger_may(state: Situation, seat: int) -> bool:
    """VA-71 `at_roll`: in the window before the fleet's danger roll."""
    return _moving(state) and _window(state) == windows.BEFORE_DANGER


def _leg_areas(state: Situation, land: bool) -> list[int]:
    """The areas of the leg's terrain the fleet entered since its last roll; the destination not when its danger
    is not counted (`danger_at_destination: not_counted`)."""
    j, position = state.journeys, state.position
    skip = ""
    if j.resume == journeys.RESUME_ARRIVE and j.rules.danger_at_destination == "not_counted":
        skip = position.fleets[0].area
    return _targets(state, [a for a in j.leg if a != skip and position.board.area(a).is_land == land])


def _sea_targets(state: Situation, seat: int) -> list[int]:
    """'(Play on a fleet at sea.)': a sea area of the leg."""
    return _leg_areas(state, False)


def _land_targets(state: Situation, seat: int) -> list[int]:
    """'(Play on a fleet in a land area.)': a land area of the leg."""
    return _leg_areas(state, True)


def _raise_danger(state: Situation, added: int, what: str) -> None:
    """The area's danger value is higher 'for this journey': the fleet's count now, and again each time it
    enters the area again (`danger_card_reentry: counts_again`) or not (`once`)."""
    assert state.play is not None
    area_id = _area_of(state)
    j = state.journeys
    f = state.position.fleets[0]
    state.position.fleets[0] = f._replace(danger=f.danger + added)
    j.danger_areas.append(area_id)
    j.danger_added.append(added)
    j.danger_again = state.options["danger_card_reentry"] == "counts_again"
    state.play.text = f"{what} at {_name(state, area_id)}: danger +{added} for seat {f.owner + 1}'s fleet"


def _sea_monsters(state: Situation) -> None:
    """'Hitherto unknown sea monsters attack the fleet! The sea area's danger value increases by five for this
    journey.'"""
    _raise_danger(state, SEA_MONSTERS, "sea monsters")


def _sea_storm(state: Situation) -> None:
    """'It is storming in the area. The sea area's danger value is increased by two for this journey.'"""
    _raise_danger(state, SEA_STORM, "a storm")


def _robbers(state: Situation) -> None:
    """'Robbers in the area. The land area's danger value increases by two for this journey.'"""
    _raise_danger(state, ROBBERS, "robbers")


# -- INITIATIV -------------------------------------------------------------------------------------------------


def _initiative_may(state: Situation, seat: int) -> bool:
    """'(Play immediately after initiative roll.)' by a player who takes part in it."""
    return _in_journeys(state) and initiative.may_claim(state.journeys.initiative, seat)


def _initiative(state: Situation) -> None:
    """'The player wins automatically the initiative for one Viking journey. if two or more players play this
    card at the same turn, they roll the dice to see who wins.' ("the same turn": the same initiative roll,
    VA-10): the claimants go first once the roll is done, and several roll off among themselves."""
    assert state.play is not None
    seat = state.play.seat
    initiative.claim(state.journeys.initiative, seat)
    state.play.text = f"seat {seat + 1} claims the initiative"


# -- GUDARNA INGRIPER ------------------------------------------------------------------------------------------


def _divine_may(state: Situation, seat: int) -> bool:
    """'(Play after a dice roll.)' made for his own side (the window checks the roller, VA-16), while the roll is
    held back; not on a fight node where BÄRSÄRK left no dice (there is nothing to roll again)."""
    w = state.window
    if w is None or w.kind != windows.AFTER_ROLL or w.held < 0 or w.roller != seat:
        return False
    fight = state.journeys.fight
    if w.roll_step == S.FLEET_HITS and fight.fleet_dice == 0:
        return False
    return not (w.roll_step in (S.ARMY_HITS, S.DEFENDER_HITS) and fight.other_dice == 0)


def _divine(state: Situation) -> None:
    """'The player may re-roll his dice for one action ... Counts for all dice the player needs to roll for that
    action.': the roll held back is cancelled and rolled again; the new result stands."""
    assert state.play is not None and state.window is not None
    state.window.held = -1
    state.play.text = f"seat {state.play.seat + 1}'s roll is rolled again"


# -- TORS HAMMARE ----------------------------------------------------------------------------------------------


def _hammer_may(state: Situation, seat: int) -> bool:
    """'The player gets -2 on his dice rolls for any one fight. Counts for the whole fight. (Play at any time.)':
    while a journey fight he takes part in is about to start or under way."""
    if not _moving(state) or state.journeys.step not in FIGHT_STEPS:
        return False
    fight = state.journeys.fight
    if not fight.against or seat in fight.hammer:
        return False
    return journeys.takes_part(state.journeys, seat)


def _hammer(state: Situation) -> None:
    """A lower roll hits more (6.4: a hit is a roll at most five): his dice hit on two more faces for the rest of
    the fight."""
    assert state.play is not None
    seat = state.play.seat
    fight = state.journeys.fight
    fight.hammer.append(seat)
    state.play.text = f"seat {seat + 1} gets -{PROTECTION} on his dice in the fight at {_name(state, fight.area)}"


# -- VÄNLIGT SINNAD BY -----------------------------------------------------------------------------------------


def _friendly_may(state: Situation, seat: int) -> bool:
    """'(Play during a trade journey.)': his trading fleet is in motion."""
    return _own_fleet(state, seat, journeys.TRADING)


def _friendly_targets(state: Situation, seat: int) -> list[int]:
    """'one area which is passed through this turn. This is not valid in civilised areas.' (VA-27): a land area
    this fleet entered on this journey (`friendly_town: this_fleet`) or any of his fleets entered this phase
    (`any_own_fleet`), of strength 2 or without shields, with room for a trading camp, not plundered."""
    j, position = state.journeys, state.position
    areas = j.route if state.options["friendly_town"] == "this_fleet" else j.entered_by[seat]
    found: list[str] = []
    for area_id in areas:
        area = position.board.area(area_id)
        if not area.is_land or (area.strength != UNCIVILISED and area.shields > 0):
            continue
        if position.plundered[position.slot(area_id)] or trade.camp_room(position, journeys.TRADING, area_id) <= 0:
            continue
        found.append(area_id)
    return _targets(state, found)


def _friendly(state: Situation) -> None:
    """'One trade camp may be placed for free': a trading camp of his there, no ships spent."""
    assert state.play is not None
    area_id = _area_of(state)
    state.position.build_camps(state.play.seat, journeys.TRADING, area_id, 1)
    state.play.text = f"a free trading camp at {_name(state, area_id)}"


# -- VÄRINGAGARDE ----------------------------------------------------------------------------------------------


def _varangian_may(state: Situation, seat: int) -> bool:
    """'(Play before the journey.)': at his first move decision of a war fleet that has not moved yet."""
    if state.window is not None or state.step != S.MOVE or not _own_fleet(state, seat, journeys.WAR):
        return False
    return state.position.fleets[0].moves == 0 and not state.journeys.varangian


def _varangian(state: Situation) -> None:
    """'Up to four war ships may be sold as mercenaries in Miklagård (Byzantine). ... Price as indicated for the
    dice rolls (Silver per ship).' The price is rolled now: one D10 for every ship (`varangian_guard: one_roll`)
    or one per ship (`per_ship`, up to four rolls)."""
    assert state.play is not None
    state.play.n = state.cards.varangian_table.max_ships if state.options["varangian_guard"] == "per_ship" else 1
    state.play.need = NEED_ROLL


def _varangian_roll(state: Situation, face: int) -> None:
    """A price die; once all are rolled the fleet may enter Miklagård ('an exception to the rule that war ships
    may not move into a kingdom'), and selling there replaces its fight and plunder."""
    play = state.play
    assert play is not None
    j = state.journeys
    j.varangian_prices.append(state.cards.varangian_price(face))
    if len(j.varangian_prices) < play.n:
        play.need = NEED_ROLL
        return
    j.varangian = True
    j.varangian_max = state.cards.varangian_table.max_ships
    prices = ", ".join(str(p) for p in j.varangian_prices)
    play.text = f"up to {j.varangian_max} war ships may be sold at Miklagård for {prices} silver each"


# -- the discovery card ----------------------------------------------------------------------------------------


def _discovery_may(state: Situation, seat: int) -> bool:
    """'(Play at start of journey, i.e. when leaving the last discovered land area.)': at his move decision while
    his fleet stands in a discovered land area, once a journey."""
    if state.window is not None or state.step != S.MOVE or not _moving(state):
        return False
    f = state.position.fleets[0]
    area = state.position.board.area(f.area)
    return f.owner == seat and area.is_land and not area.undiscovered and not state.journeys.discovery


def _discovery_targets(state: Situation, seat: int) -> list[int]:
    """'Allows discovery of an undiscovered land area': he names one nobody has discovered."""
    position = state.position
    return _targets(state, [a for a in position.board.discovery.lands if position.discovered_by[position.slot(a)] < 0])


def _discovery(state: Situation) -> None:
    """VA-26: the fleet may enter the undiscovered seas and the named land on this journey; the land is
    discovered when the fleet arrives there with a ship left after its danger roll (`discovery: on_arrival`) or
    at once (`on_play`)."""
    assert state.play is not None
    area_id = _area_of(state)
    state.journeys.discovery = area_id
    if state.options["discovery"] == "on_play":
        journeys.discover(state.position, state.play.seat, area_id)
    state.play.text = f"seat {state.play.seat + 1}'s fleet sets out to discover {_name(state, area_id)}"


#: Each card kind this module writes, by id (`actions.CARD_IDS`).
EFFECTS: Final[dict[str, Effect]] = {
    "protection": effect(may_play=_protection_may, resolve=_protection),
    "good_trade": effect(may_play=_good_trade_may, targets=_good_trade_targets, resolve=_good_trade),
    "berserk": effect(may_play=_berserk_may, resolve=_berserk),
    "free_trade": effect(targets=_free_trade_targets, resolve=_free_trade),
    "free_passage": effect(may_play=_free_passage_may, targets=_free_passage_targets, resolve=_free_passage),
    "trade_stop": effect(targets=_trade_stop_targets, resolve=_trade_stop),
    "sea_monsters": effect(may_play=_danger_may, targets=_sea_targets, resolve=_sea_monsters),
    "robbers": effect(may_play=_danger_may, targets=_land_targets, resolve=_robbers),
    "sea_storm": effect(may_play=_danger_may, targets=_sea_targets, resolve=_sea_storm),
    "initiative": effect(may_play=_initiative_may, resolve=_initiative),
    "divine_intervention": effect(may_play=_divine_may, resolve=_divine),
    "thors_hammer": effect(may_play=_hammer_may, resolve=_hammer),
    "friendly_town": effect(may_play=_friendly_may, targets=_friendly_targets, resolve=_friendly),
    "varangian_guard": effect(may_play=_varangian_may, resolve=_varangian, on_roll=_varangian_roll),
    "discovery": effect(may_play=_discovery_may, targets=_discovery_targets, resolve=_discovery),
}
