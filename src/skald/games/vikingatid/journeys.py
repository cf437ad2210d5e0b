"""6. Initiative and journeys: the journey of one fleet, from its start to its end, as a machine of steps.

Rule text (6.1, 6.2): "The player, with initiative activates one of his fleets. A fleet consists of ships of the same
type (war ships or trading ships) that start in the same area. ... A fleet consists of at least one and no more than
ten ships." "A fleet moves one area at a time, across the sea or along rivers. ... When a fleet enters a land area
from one sea area, it also has to leave the land by the same sea area." "The fleet moves until it reaches a camp of
its type ..., or when it reaches its destination. A destination is a land area where the player intends to trade,
plunder or build camps." "A trading fleet cannot enter a plundered land area." "Land areas with fully drawn borders
are own kingdoms. ... No war fleets may enter a kingdom." "No other players may enter these areas (except for
Denmark's sea area...)". Passing war camps of other kingdoms, Denmark's sea: see `kingdoms_war.py` and the steps
`ENTRY_ANSWER`, `ENTRY_REPLY`, `SEA_BAN`.

A journey, step by step (`steps.py`): the holder of initiative names a fleet (`JOURNEY_CHOICE`: type and area, or
pass) and its size (`FLEET_SIZE_CHOICE`); then, at `MOVE`, he moves it one area (each area entered adds its danger,
`danger.py`), stops where it is (the area becomes the destination: the danger roll, then `ACT`), or ends the journey
where he may. Before the fleet enters an area with other kingdoms' war camps, their owners answer (`ENTRY_ANSWER`,
`DUTY_AMOUNT`) and the mover pays, fights or turns away (`ENTRY_REPLY`); before it enters Denmark, the Danish players
may bar it (`SEA_BAN`, then `BAN_WAR_ROLL`). Entering one's own camp of the fleet's type ends a leg (`DANGER_ROLL`),
and so do ten danger points. At its destination a trading fleet trades and builds (`trade.py`); a war fleet first
fights the armies (`combat.py`: `FLEET_HITS`, `ARMY_HITS`, `FIGHT_ON`), then plunders, builds and destroys
(`plunder.py`); a fight with another kingdom's war ships and camps (`DEFENDER_HITS`) is followed by the risk of war
(`WAR_RISK_ROLL`, `WAR_DECLARATION`). Building in a province rolls on the empire's reaction table at once
(`BUILD_REACTION_ROLL`, `BUILD_GALD_ROLL`; `reactions.py`).

Skald's readings: VA-44 – VA-58 and VA-70 (each where it applies below). A fleet that turns away stays where it
is; every attempt to enter counts as a move toward the journey's limit (`journey_moves`, VA-50), so each journey
ends. Under `journey_end: stay` a seat starts at most `STAY_JOURNEYS` journeys a phase, so phase 6 ends too.

Card markers on the areas (VA-22, VA-23, VA-25). A heritage or small kingdom (FÖRLÄNING, SMÅRIKE: "The player does
not need to defeat any more armies to build war camps there"): its holder's war fleet stopping there acts without
fighting the armies and may build war camps (no plunder or destroy, as nothing was beaten), and a build there makes
no reaction roll. A separatist area (UTBRYTARE: "all camps remain there, but are not under control of any player"):
no camps are built there while the marker stands; its camps ask no duty and bar no one; under `separatists:
hostile` every seat's war camps there defend it against each war fleet that makes it a destination (two ships of
strength 5 each, no re-roll of 1s, no risk of war), then the armies fight (`separatist_fight`); a fleet that wins
with no war camp left may remove the separatist trading camps, and the marker goes with the area's last camp.
Under `expanded_strength: empire` the armies of an area an expansion took fight, and pay plunder, at the empire's
card army strength (5).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, Protocol

from skald.engine import IllegalAction
from skald.games.vikingatid import actions as A
from skald.games.vikingatid import (
    combat,
    conquest,
    danger,
    emigration,
    initiative,
    kingdoms_war,
    plunder,
    reactions,
    trade,
)
from skald.games.vikingatid.actions import MAX_AMOUNT, SHIP_TYPES, ActionSpace
from skald.games.vikingatid.board import VIKING_KINGDOM, Area
from skald.games.vikingatid.position import Fleet, Position
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.steps import (
    ACT,
    ARMY_HITS,
    BAN_WAR_ROLL,
    BUILD_GALD_ROLL,
    BUILD_REACTION_ROLL,
    DANGER_ROLL,
    DEFENDER_HITS,
    DUTY_AMOUNT,
    ENTRY_ANSWER,
    ENTRY_REPLY,
    FIGHT_ON,
    FLEET_HITS,
    FLEET_SIZE_CHOICE,
    INITIATIVE_ROLL,
    JOURNEY_CHOICE,
    MOVE,
    SEA_BAN,
    WAR_DECLARATION,
    WAR_RISK_ROLL,
    seat_order,
)

#: The step value once phase 6 is over.
OVER: Final = -1
#: The most ships in one fleet (6.1).
MAX_FLEET: Final = 10
#: Journeys a seat may start in one phase 6 under `journey_end: stay` (the loop guard, VA-50).
STAY_JOURNEYS: Final = 20
TRADING: Final = "trading"
WAR: Final = "war"

# What comes after a roll, a fight or an answer (the journey's "resume" point).
RESUME_MOVE: Final = 0
RESUME_ARRIVE: Final = 1
RESUME_ENTER: Final = 2
RESUME_ACT: Final = 3
RESUME_OVER: Final = 4
RESUME_TURNED_AWAY: Final = 5


class JourneyRules(NamedTuple):
    """The rule options phase 6 reads."""

    initiative_pass: str = "this_roll"
    land_crossing: str = "same_sea_or_river"
    camp_break: str = "own_camps"
    danger_at_destination: str = "counted"
    danger_overflow: str = "drop"
    journey_end: str = "remove_rest"
    journey_moves: str = "40"
    start_as_destination: str = "allowed"
    home_trade: str = "none"
    duty_askers: str = "every_owner"
    denmark_toll: str = "ban_only"
    denmark_passage: str = "all_fleets"
    army_losses: str = "per_fight"
    armyless_area: str = "free_win"
    after_victory: str = "both"
    defender_losses: str = "ships_first"
    mixed_war_camps: str = "frozen"
    war_tracking: str = "per_kingdom"
    war_renewal: str = "first_round"
    reaction_roll: str = "per_area"
    reaction_on_build: str = "whole_area"
    separatists: str = "hostile"
    expanded_strength: str = "printed"


class JourneyEvent(NamedTuple):
    """One thing that happened on a journey, for the log and the observation: who, what (`kind`), where, and a
    number (ships lost, silver, camps, hits)."""

    seat: int
    kind: str
    area: str
    n: int


class Journeys:
    """Phase 6 under way. Plain class with typed fields, cloned through its constructor (mypyc-ready).

    `step` is the step of `steps.py` (OVER once the phase is over); the fleet in motion, if any, is
    `table.fleets[0]` while `active` (journeys go one at a time). `target`/`target_from` name the area the fleet is
    trying to enter and the sea it would enter from; `askers` the seats still to answer, `duties` what each asked,
    `forbidden` a ban; `resume` what follows the roll, fight or answers under way. Per stop: `stopped` (the fleet
    stopped or acted in its area), `at_break` (it may end its journey there), `traded`, `built`, `plundered`,
    `destroyed`, `won` (armies beaten), `defeated` (armies it beat), `armyless`. `fight` the fight under way;
    `risk` each seat's war threshold and `opponents` whom a war would be with; `declarers` the seats still to say
    whether they declare war; `build_reactions` the reaction roll of a province build.
    """

    def __init__(self, position: Position, rules: JourneyRules, source: Journeys | None = None) -> None:
        self.rules: Final = rules
        n = position.num_players
        self.num_players: Final = n
        if source is not None:
            self.step: int = source.step
            self.initiative: initiative.Initiative = source.initiative.clone()
            self.active: bool = source.active
            self.start_kind: str = source.start_kind
            self.start_area: str = source.start_area
            self.target: str = source.target
            self.target_from: str = source.target_from
            self.askers: list[int] = list(source.askers)
            self.duties: list[int] = list(source.duties)
            self.forbidden: bool = source.forbidden
            self.resume: int = source.resume
            self.stopped: bool = source.stopped
            self.at_break: bool = source.at_break
            self.traded: bool = source.traded
            self.built: bool = source.built
            self.plundered: bool = source.plundered
            self.destroyed: bool = source.destroyed
            self.won: bool = source.won
            self.defeated: int = source.defeated
            self.armyless: bool = source.armyless
            self.last_added: int = source.last_added
            self.entered: bool = source.entered
            self.rolled_here: bool = source.rolled_here
            self.fight: combat.Fight = source.fight.clone()
            self.risk: list[int] = list(source.risk)
            self.opponents: list[list[int]] = [list(o) for o in source.opponents]
            self.to_risk: list[int] = list(source.to_risk)
            self.declarers: list[int] = list(source.declarers)
            self.build_reactions: reactions.Reactions = source.build_reactions.clone()
            self.army_lost: list[int] = list(source.army_lost)
            self.started: list[int] = list(source.started)
            self.events: list[JourneyEvent] = list(source.events)
            self.route: list[str] = list(source.route)
            self.leg: list[str] = list(source.leg)
            self.entered_by: list[list[str]] = [list(a) for a in source.entered_by]
            self.danger_areas: list[str] = list(source.danger_areas)
            self.danger_added: list[int] = list(source.danger_added)
            self.danger_again: bool = source.danger_again
            self.protection: int = source.protection
            self.protection_any: bool = source.protection_any
            self.good_trade: list[str] = list(source.good_trade)
            self.good_trade_seat: list[int] = list(source.good_trade_seat)
            self.free_trade: list[str] = list(source.free_trade)
            self.free_passage: list[str] = list(source.free_passage)
            self.passage_area: str = source.passage_area
            self.passage_build: bool = source.passage_build
            self.discovery: str = source.discovery
            self.discovering: bool = source.discovering
            self.varangian: bool = source.varangian
            self.varangian_prices: list[int] = list(source.varangian_prices)
            self.varangian_max: int = source.varangian_max
            self.separatist_fight: bool = source.separatist_fight
            return
        self.step = OVER
        self.initiative = initiative.Initiative(n)
        self.active = False
        self.start_kind = ""
        self.start_area = ""
        self.target = ""
        self.target_from = ""
        self.askers = []
        self.duties = [0] * n
        self.forbidden = False
        self.resume = RESUME_MOVE
        self.stopped = False
        self.at_break = False
        self.traded = False
        self.built = False
        self.plundered = False
        self.destroyed = False
        self.won = False
        self.defeated = 0
        self.armyless = False
        self.last_added = 0
        # Whether the fleet has entered an area on this journey (VA-51), and whether a ten-point roll was made on
        # entering the area it stands in (VA-49: one roll serves for both).
        self.entered = False
        self.rolled_here = False
        self.fight = combat.Fight(n)
        self.risk = [0] * n
        self.opponents = [[] for _ in range(n)]
        self.to_risk = []
        self.declarers = []
        self.build_reactions = reactions.Reactions(rules.reaction_roll)
        self.army_lost = [0] * position.num_areas
        self.started = [0] * n
        self.events = []
        # The card effects on the fleet in motion (public: "any card effects on it", Hidden information), reset
        # when a journey starts. `route`: the areas it entered this journey; `leg`: those since its last danger
        # roll or break (HAVSMONSTER, SJÖOVÄDER and RÖVARBAND name one of these, VA-71); `entered_by`: each
        # seat's areas entered this phase (VÄNLIGT SINNAD BY under `friendly_town: any_own_fleet`).
        self.route = []
        self.leg = []
        self.entered_by = [[] for _ in range(n)]
        # Danger cards: each area raised and by how much, "for this journey"; `danger_again` whether a raised
        # area counts its raise again when the fleet enters it again (`danger_card_reentry: counts_again`).
        self.danger_areas = []
        self.danger_added = []
        self.danger_again = True
        # BESKYDD: the points taken off the fleet's next danger roll (or, under `any_roll`, its next roll).
        self.protection = 0
        self.protection_any = False
        # BRA HANDEL: areas whose next trade pays double, and whose (a seat, or -1 for any fleet).
        self.good_trade = []
        self.good_trade_seat = []
        # FRI HANDEL: areas where the next trade may be made despite a trade stop (and, with FRI LEJD, despite
        # the plunder).
        self.free_trade = []
        # FRI LEJD: the plundered areas the trading fleet may pass once; `passage_area` the one it stands in
        # under the card, and `passage_build` whether it may build trading camps there (`pass_and_build`).
        self.free_passage = []
        self.passage_area = ""
        self.passage_build = True
        # The discovery card: the undiscovered land this fleet may enter (through undiscovered seas), and
        # whether it is entering it now (the land is discovered once a ship is left after the danger roll).
        self.discovery = ""
        self.discovering = False
        # VÄRINGAGARDE: the war fleet may enter Miklagård and sells up to `varangian_max` ships there, at these
        # prices (one per ship, or one for all).
        self.varangian = False
        self.varangian_prices = []
        self.varangian_max = 0
        # UTBRYTARE (VA-22, `separatists: hostile`): whether the fight under way is against the war camps of a
        # separatist area, which belong to no one (no duty, ban or risk of war; the armies follow).
        self.separatist_fight = False

    def clone(self, position: Position) -> Journeys:
        """An independent copy."""
        return Journeys(position, self.rules, self)


# -- reading ---------------------------------------------------------------------------------------------------


def fleet(position: Position) -> Fleet:
    """The fleet in motion."""
    return position.fleets[0]


def mover(position: Position, journeys: Journeys) -> int:
    """The seat whose journey is under way (or who holds initiative), -1 if none."""
    if journeys.active and position.fleets:
        return position.fleets[0].owner
    return initiative.holder(journeys.initiative)


def actor(position: Position, journeys: Journeys) -> int:
    """The seat to decide at the current step (-1 at a roll or once the phase is over)."""
    step = journeys.step
    if step in (JOURNEY_CHOICE, FLEET_SIZE_CHOICE):
        return initiative.holder(journeys.initiative)
    if step in (ENTRY_ANSWER, DUTY_AMOUNT, SEA_BAN, WAR_DECLARATION):
        return journeys.askers[0] if step != WAR_DECLARATION else journeys.declarers[0]
    if step in (MOVE, ENTRY_REPLY, ACT, FIGHT_ON):
        return fleet(position).owner
    return -1


def move_limit(rules: JourneyRules) -> int:
    """The most moves of one journey (`journey_moves`: a number, or `unlimited`)."""
    return 1 << 30 if rules.journey_moves == "unlimited" else int(rules.journey_moves)


def home_of(position: Position, seat: int) -> str:
    """The Viking homeland a seat's fleets may enter: his kingdom's, none once he has emigrated (VA-45)."""
    if position.emigrated[seat]:
        return ""
    return position.board.kingdom_area(position.kingdom_of(seat)).id


def _open(position: Position, area: Area) -> bool:
    """Whether an undiscovered area may be entered: discovered in an earlier turn ("The turn after a player has
    discovered a land area, all players may move their fleets into this area"; VA-26)."""
    if not area.undiscovered:
        return True
    area_id = area.id
    if not position.is_discovered(area_id):
        return False
    lands = area.opened_by if area.opened_by else (area_id,)
    return any(
        position.discovered_by[position.slot(land)] >= 0
        and position.discovered_turn[position.slot(land)] < position.turn
        for land in lands
    )


#: The board's mark on Miklagård: war fleets may enter it with VÄRINGAGARDE ("This card is an exception to the
#: rule that war ships may not move into a kingdom").
VARANGIAN_EXCEPTION: Final = "vaeringagarde"


def may_enter(
    position: Position,
    rules: JourneyRules,
    seat: int,
    kind: str,
    area_id: str,
    passage: list[str] | None = None,
    discovery: str = "",
    varangian: bool = False,
) -> bool:
    """Whether the seat's fleet of `kind` may enter the area at all (VA-45, VA-70): not an undiscovered area, not
    another kingdom's homeland but Denmark's sea, no war fleet in an empire core or (under `denmark_passage:
    trading_only`) in Denmark, no trading fleet in a plundered land area. The fleet's cards open some of these:
    the discovery card the undiscovered seas and its land (VA-26), VÄRINGAGARDE Miklagård, FRI LEJD one plundered
    area (VA-28)."""
    area = position.board.area(area_id)
    if not _open(position, area) and not (discovery and (area_id == discovery or not area.is_land)):
        return False
    if area.kind == VIKING_KINGDOM:
        if area_id == home_of(position, seat):
            return True
        if position.emigrated[seat] and area.kingdom == position.kingdom_of(seat):
            return False  # "An emigrant does not enter his old kingdom" (VA-45, VA-61)
        if not area.passable or area.no_foreign_fleets:
            return False
        return not (kind == WAR and rules.denmark_passage == "trading_only")
    if kind == WAR and area.no_war_fleets:
        return varangian and area.war_fleet_exception == VARANGIAN_EXCEPTION
    if kind == TRADING and area.is_land and position.plundered[position.slot(area_id)]:
        return passage is not None and area_id in passage
    return True


def moves(position: Position, journeys: Journeys) -> list[tuple[str, str]]:
    """(area, the sea it is entered from or "") for each area the fleet in motion may try to enter, board order of
    the links: by sea and river; from a land area entered from a sea, only back to that sea or along a river
    (`land_crossing: same_sea_or_river`) or only to that sea (`same_sea_only`), Denmark excepted (VA-46)."""
    rules = journeys.rules
    f = fleet(position)
    if f.moves >= move_limit(rules):
        return []
    area = position.board.area(f.area)
    if area.terrain == "land" and f.entered_from:
        options = [(f.entered_from, True)]
        if rules.land_crossing != "same_sea_only":
            options += [(n, False) for n in area.river_links]
    else:
        options = [(n, True) for n in area.sea_links] + [(n, False) for n in area.river_links]
    found = []
    for target, by_sea in options:
        if may_enter(
            position, rules, f.owner, f.kind, target, journeys.free_passage, journeys.discovery, journeys.varangian
        ):
            land = position.board.area(target).terrain == "land"
            found.append((target, f.area if by_sea and land else ""))
    return found


def may_stop(position: Position, journeys: Journeys) -> bool:
    """Whether the fleet may make its area the destination now: a land area where it could act, not one where it
    stopped already, not its start unless `start_as_destination: allowed` (VA-47, VA-51); a trading fleet not in a
    plundered area (VA-45)."""
    f = fleet(position)
    area = position.board.area(f.area)
    if journeys.stopped or not area.is_land:
        return False
    if not journeys.entered and journeys.rules.start_as_destination != "allowed":
        return False
    if f.kind == TRADING:
        room = trade.camp_room(position, TRADING, f.area)
        return _trade_allowed(position, journeys) or (
            room > 0 and f.size >= trade.SHIPS_PER_CAMP and _build_allowed(position, journeys)
        )
    if area.no_war_fleets:
        return _may_sell(position, journeys)
    return area.kind != VIKING_KINGDOM


def _may_sell(position: Position, journeys: Journeys) -> bool:
    """Whether the war fleet may make its area the destination to sell ships there (VÄRINGAGARDE)."""
    area = position.board.area(fleet(position).area)
    return journeys.varangian and area.war_fleet_exception == VARANGIAN_EXCEPTION and bool(journeys.varangian_prices)


def _build_allowed(position: Position, journeys: Journeys) -> bool:
    """Whether the trading fleet may build trading camps where it stands: not in a separatist area (VA-22), not in
    a plundered area, unless it entered it under FRI LEJD (`free_passage: pass_and_build`, the Explanation of
    cards)."""
    area_id = fleet(position).area
    slot = position.slot(area_id)
    if position.separatists[slot]:
        return False  # UTBRYTARE: no camps are built in a separatist area (VA-22)
    if not position.plundered[slot]:
        return True
    return journeys.passage_area == area_id and journeys.passage_build


def _trade_allowed(position: Position, journeys: Journeys) -> bool:
    """Whether the trading fleet may trade where it stands: as 6.3 says, or in a plundered area it passes under
    FRI LEJD after a FRI HANDEL there ("The ships may not trade in that area (unless after playing a free trade
    card)")."""
    f = fleet(position)
    free = f.area in journeys.free_trade and journeys.passage_area == f.area
    return trade.can_trade(position, f.owner, f.area, journeys.rules.home_trade, free)


def may_end(position: Position, journeys: Journeys) -> bool:
    """Whether the journey may end here: at a destination or camp (VA-50), or with no move left."""
    return journeys.at_break or not moves(position, journeys)


def fleet_starts(position: Position, journeys: Journeys) -> list[tuple[str, str]]:
    """(type, area) of the holder's ships standing on the board, types then board order."""
    seat = initiative.holder(journeys.initiative)
    n = position.num_areas
    return [(SHIP_TYPES[i // n], position.area_ids[i % n]) for i, ships in enumerate(position.ships[seat]) if ships]


def fleet_sizes(position: Position, journeys: Journeys) -> range:
    """1 up to the ships there, at most ten (6.1)."""
    seat = initiative.holder(journeys.initiative)
    return range(1, min(position.ships_at(seat, journeys.start_kind, journeys.start_area), MAX_FLEET) + 1)


def duty_amounts(position: Position) -> range:
    """A duty asked: 1 to MAX_AMOUNT silver ("He can charge any amount of silver as duty")."""
    return range(1, MAX_AMOUNT + 1)


def total_duty(journeys: Journeys) -> int:
    """The duties asked of the fleet, added up (VA-53)."""
    return sum(journeys.duties)


def defenders(position: Position, seat: int, area_id: str) -> list[int]:
    """Seats of other kingdoms with war ships or war camps in the area, seat order from the first seat."""
    order = [(position.first_seat + i) % position.num_players for i in range(position.num_players)]
    return [
        s
        for s in order
        if not kingdoms_war.countrymen(position, seat, s)
        and (position.controlled_camps(s, WAR, area_id) or position.ships_at(s, WAR, area_id))
    ]


def may_fight_in(position: Position, journeys: Journeys) -> bool:
    """Whether the fleet in motion may fight its way into the target: a war fleet, not into Denmark (VA-54), with
    no King's Peace with any defender there."""
    f = fleet(position)
    if f.kind != WAR or position.board.area(journeys.target).kind == VIKING_KINGDOM:
        return False
    return all(kingdoms_war.may_fight(position, f.owner, s) for s in defenders(position, f.owner, journeys.target))


def act_builds(position: Position, journeys: Journeys) -> range:
    """The numbers of camps the fleet may build where it stands now (empty if none)."""
    f = fleet(position)
    if journeys.built or position.separatists[position.slot(f.area)]:
        # UTBRYTARE: the area's camps are no one's; no camp is built there while the marker stands (VA-22).
        return range(0)
    if f.kind == TRADING:
        if not _build_allowed(position, journeys):
            return range(0)
        return trade.build_counts(position, 0, trade.camp_room(position, TRADING, f.area))
    # "The player does not need to defeat any more armies to build war camps there" (FÖRLÄNING, SMÅRIKE; VA-23).
    if not (journeys.won or _own_fief(position, f.owner, f.area)):
        return range(0)
    if journeys.plundered and journeys.rules.after_victory == "one":
        return range(0)
    room = plunder.war_camp_room(position, f.owner, f.area, journeys.rules.mixed_war_camps)
    return trade.build_counts(position, 0, room)


def may_trade(position: Position, journeys: Journeys) -> bool:
    """Whether the trading fleet may trade where it stopped."""
    f = fleet(position)
    return f.kind == TRADING and not journeys.traded and _trade_allowed(position, journeys)


def may_plunder(position: Position, journeys: Journeys) -> bool:
    """Whether the war fleet may plunder where it won: not plundered this turn, not after building under
    `after_victory: one`, and an area with armies unless `armyless_area: free_win` (VA-56, VA-57)."""
    f = fleet(position)
    if f.kind != WAR or not journeys.won or journeys.plundered or position.plundered[position.slot(f.area)]:
        return False
    if journeys.built and journeys.rules.after_victory == "one":
        return False
    return not (journeys.armyless and journeys.rules.armyless_area == "nothing")


def may_destroy(position: Position, journeys: Journeys) -> bool:
    """Whether the war fleet may destroy other kingdoms' trading camps where it won (VA-58); in a separatist area,
    under `separatists: hostile`, the separatist trading camps once no war camp is left there (VA-22; under
    `inert` only cards remove them)."""
    f = fleet(position)
    if f.kind != WAR or not journeys.won or journeys.destroyed:
        return False
    if position.separatists[position.slot(f.area)]:
        return (
            journeys.rules.separatists == "hostile"
            and position.camps_in_area(WAR, f.area) == 0
            and position.camps_in_area(TRADING, f.area) > 0
        )
    return bool(plunder.destroy_targets(position, f.owner, f.area))


def _own_fief(position: Position, seat: int, area_id: str) -> bool:
    """Whether the area is the seat's heritage or small kingdom now (he keeps a war camp there; VA-23), and not
    a separatist area (whose camps are no one's, VA-22)."""
    slot = position.slot(area_id)
    return not position.separatists[slot] and conquest.fief_holder(position, slot) == seat


def takes_part(journeys: Journeys, seat: int) -> bool:
    """Whether the seat's own ships or camps take part in the fight under way (for the cards a side plays and the
    re-roll of his own dice): the mover, and the defenders, except against a separatist area's war camps, which
    are "not under control of any player" (VA-22): their old owners are no side of that fight."""
    fight = journeys.fight
    if not fight.against:
        return False
    return seat == fight.attacker or (seat in fight.defenders and not journeys.separatist_fight)


def army_strength(position: Position, rules: JourneyRules, area_id: str) -> int:
    """The strength of the area's armies in a journey's fight and plunder: printed, or the empire's card army
    strength (5) in an area an expansion took under `expanded_strength: empire` (VA-25; the same reading as
    `cards.fights.army_strength`)."""
    slot = position.slot(area_id)
    if position.expanded[slot] and rules.expanded_strength == "empire":
        return position.board.empire(position.empire_of[slot]).card_army_strength
    return position.board.area(area_id).strength


# -- the flow --------------------------------------------------------------------------------------------------


def begin(position: Position, rules: JourneyRules) -> Journeys:
    """Phase 6 starts with an initiative roll."""
    journeys = Journeys(position, rules)
    _next_journey(position, journeys)
    return journeys


def done(journeys: Journeys) -> bool:
    """Whether phase 6 is over."""
    return journeys.step == OVER


def _next_journey(position: Position, journeys: Journeys) -> None:
    """A new initiative roll, or the end of the phase when no one takes initiative."""
    journeys.active = False
    if journeys.rules.journey_end == "stay":
        for seat in range(journeys.num_players):
            if journeys.started[seat] >= STAY_JOURNEYS:
                journeys.initiative.out[seat] = True
    initiative.start(position, journeys.initiative)
    _after_initiative(position, journeys)


def _after_initiative(position: Position, journeys: Journeys) -> None:
    ini = journeys.initiative
    if initiative.everyone_passed(ini):
        _end_phase(position, journeys)
    elif initiative.roller(ini) >= 0:
        journeys.step = INITIATIVE_ROLL
    else:
        journeys.step = JOURNEY_CHOICE


def _end_phase(position: Position, journeys: Journeys) -> None:
    """ "All unused ships are removed from the board."""
    for seat in range(position.num_players):
        for kind in SHIP_TYPES:
            for area_id in position.area_ids:
                n = position.ships_at(seat, kind, area_id)
                if n:
                    position.remove_ships(seat, kind, area_id, n)
    journeys.step = OVER


def initiative_roll(position: Position, journeys: Journeys, face: int) -> None:
    """The rolling seat's initiative die."""
    initiative.roll(journeys.initiative, face)
    _after_initiative(position, journeys)


def pass_journey(position: Position, journeys: Journeys) -> None:
    """The holder passes; initiative goes on."""
    initiative.pass_initiative(journeys.initiative, journeys.rules.initiative_pass)
    _after_initiative(position, journeys)


def choose_fleet(journeys: Journeys, kind: str, area_id: str) -> None:
    """The holder names the type and area of the fleet; its size follows."""
    journeys.start_kind, journeys.start_area = kind, area_id
    journeys.step = FLEET_SIZE_CHOICE


def resettle(position: Position, journeys: Journeys) -> None:
    """After a card played before the holder's decision: a fleet named but not yet launched whose ships the card
    took (a fight it ordered sank them) lapses, and the holder chooses again, another fleet or a pass."""
    if journeys.step != FLEET_SIZE_CHOICE:
        return
    seat = initiative.holder(journeys.initiative)
    if position.ships_at(seat, journeys.start_kind, journeys.start_area) == 0:
        journeys.start_kind, journeys.start_area = "", ""
        journeys.step = JOURNEY_CHOICE


def launch(position: Position, journeys: Journeys, size: int) -> None:
    """The fleet sets out: a journey begins where its ships stand."""
    seat = initiative.holder(journeys.initiative)
    index = position.launch(seat, journeys.start_kind, journeys.start_area, size)
    if index != 0:
        raise AssertionError("a journey starts only when no other fleet is under way")
    journeys.started[seat] += 1
    journeys.active = True
    journeys.entered = False
    _clear_cards(journeys)
    journeys.start_kind, journeys.start_area = "", ""
    _new_stop(journeys)
    journeys.step = MOVE
    _check_stuck(position, journeys)


def _clear_cards(journeys: Journeys) -> None:
    """A new journey: no card acts on it yet (BRA HANDEL for any fleet lasts the phase)."""
    journeys.route, journeys.leg = [], []
    journeys.danger_areas, journeys.danger_added = [], []
    journeys.protection = 0
    keep = [i for i, seat in enumerate(journeys.good_trade_seat) if seat < 0]
    journeys.good_trade = [journeys.good_trade[i] for i in keep]
    journeys.good_trade_seat = [journeys.good_trade_seat[i] for i in keep]
    journeys.free_trade = []
    journeys.free_passage, journeys.passage_area = [], ""
    journeys.discovery, journeys.discovering = "", False
    journeys.varangian, journeys.varangian_prices, journeys.varangian_max = False, [], 0


def _new_stop(journeys: Journeys) -> None:
    """The fleet is in a new area: nothing done there yet."""
    journeys.stopped = journeys.at_break = False
    journeys.traded = journeys.built = journeys.plundered = journeys.destroyed = False
    journeys.won = journeys.armyless = False
    journeys.defeated = 0
    journeys.rolled_here = False


def _check_stuck(position: Position, journeys: Journeys) -> None:
    """A fleet with nothing it may do ends its journey (VA-50)."""
    if journeys.step == MOVE and not moves(position, journeys) and not may_stop(position, journeys):
        end_journey(position, journeys)


# -- moving ----------------------------------------------------------------------------------------------------


def try_move(position: Position, journeys: Journeys, area_id: str) -> None:
    """The fleet tries to enter `area_id`: other kingdoms' war camp owners or Denmark's players answer first."""
    entered_from = ""
    for target, sea in moves(position, journeys):
        if target == area_id:
            entered_from = sea
    journeys.target, journeys.target_from = area_id, entered_from
    journeys.duties = [0] * journeys.num_players
    journeys.forbidden = False
    f = fleet(position)
    area = position.board.area(area_id)
    if area.kind == VIKING_KINGDOM and area_id != home_of(position, f.owner):
        danes = position.members(area.kingdom)
        journeys.askers = [
            s
            for s in seat_order(position.first_seat, position.num_players)
            if s in danes and not kingdoms_war.countrymen(position, f.owner, s)
        ]
        if journeys.askers:
            journeys.step = SEA_BAN
            return
    else:
        journeys.askers = _duty_askers(position, journeys, f.owner, area_id)
        if journeys.askers:
            journeys.step = ENTRY_ANSWER
            return
    _enter(position, journeys)


def _duty_askers(position: Position, journeys: Journeys, seat: int, area_id: str) -> list[int]:
    """The owners of other kingdoms' war camps in the area who answer, in seat order from the first seat; under
    `duty_askers: most_camps` only the one with the most (ties to the earlier seat) (VA-53); none in a separatist
    area."""
    if position.separatists[position.slot(area_id)]:
        return []  # UTBRYTARE: the war camps there are "not under control of any player" (VA-22)
    order = [(position.first_seat + i) % position.num_players for i in range(position.num_players)]
    camps = [position.controlled_camps(s, WAR, area_id) for s in range(position.num_players)]
    owners = [s for s in order if camps[s] and not kingdoms_war.countrymen(position, seat, s)]
    if journeys.rules.duty_askers == "most_camps" and owners:
        most = max(camps[s] for s in owners)
        return [next(s for s in owners if camps[s] == most)]
    return owners


def answer_entry(position: Position, journeys: Journeys, answer: str) -> None:
    """The first asker allows the fleet, asks a duty (the amount follows) or forbids it; any ban forbids."""
    if answer == "ask_duty":
        journeys.step = DUTY_AMOUNT
        return
    journeys.askers.pop(0)
    if answer == "forbid":
        journeys.forbidden = True
        journeys.askers = []
    _after_answers(position, journeys)


def ask_duty(position: Position, journeys: Journeys, n: int) -> None:
    """The asker names his duty."""
    journeys.duties[journeys.askers.pop(0)] = n
    _after_answers(position, journeys)


def _after_answers(position: Position, journeys: Journeys) -> None:
    if journeys.askers:
        journeys.step = SEA_BAN if position.board.area(journeys.target).kind == VIKING_KINGDOM else ENTRY_ANSWER
    elif journeys.forbidden or total_duty(journeys):
        journeys.step = ENTRY_REPLY
    else:
        _enter(position, journeys)


def reply_options(position: Position, journeys: Journeys) -> list[str]:
    """What the mover may do at a duty or ban: pay (a duty he can afford, no ban), fight (a war fleet that may),
    turn away."""
    found = []
    seat = fleet(position).owner
    if not journeys.forbidden and position.silver[seat] >= total_duty(journeys):
        found.append("pay_duty")
    if may_fight_in(position, journeys):
        found.append("fight")
    found.append("turn_away")
    return found


def reply(position: Position, journeys: Journeys, answer: str) -> None:
    """The mover pays the duties and enters, fights his way in, or turns away."""
    seat = fleet(position).owner
    if answer == "pay_duty":
        for asker, duty in enumerate(journeys.duties):
            if duty:
                position.give_silver(seat, asker, duty)
                journeys.events.append(JourneyEvent(seat, "duty", journeys.target, duty))
        _enter(position, journeys)
    elif answer == "fight":
        _start_defender_fight(position, journeys)
    else:
        _turn_away(position, journeys)


def _turn_away(position: Position, journeys: Journeys) -> None:
    """The fleet stays where it is, and may still do what it had not done there; the attempt counts as a move (the
    loop guard)."""
    f = fleet(position)
    position.fleets[0] = f._replace(moves=f.moves + 1)
    journeys.target = journeys.target_from = ""
    acting = journeys.stopped and (f.kind == TRADING or journeys.won or _own_fief(position, f.owner, f.area))
    journeys.step = ACT if acting else MOVE
    if not acting:
        _check_stuck(position, journeys)


def answer_sea_ban(position: Position, journeys: Journeys, answer: str) -> None:
    """A Danish player lets the fleet pass, bars Denmark's sea, or (under `denmark_toll: duty_or_ban`) asks a duty;
    one bar is enough, and the war roll follows it (VA-54)."""
    if answer == "ask_duty":
        journeys.step = DUTY_AMOUNT
        return
    asker = journeys.askers.pop(0)
    if answer == "bar_sea":
        journeys.askers = [asker]
        if kingdoms_war.at_kings_peace(position, fleet(position).owner, asker):
            journeys.askers = []
            _turn_away(position, journeys)
        else:
            journeys.step = BAN_WAR_ROLL
        return
    _after_answers(position, journeys)


def ban_war_roll(position: Position, journeys: Journeys, face: int) -> None:
    """ "Roll a dice. If the result is lower or equal the number of ships stopped, war breaks out." The fleet turns
    away."""
    asker = journeys.askers.pop(0)
    f = fleet(position)
    if face <= f.size:
        kingdoms_war.break_out_war(position, f.owner, asker, journeys.rules.war_tracking)
        journeys.events.append(JourneyEvent(f.owner, "war", journeys.target, face))
    _turn_away(position, journeys)


def _enter(position: Position, journeys: Journeys) -> None:
    """The fleet enters the target: its danger counts; at ten points, or entering a camp of its type that breaks
    the leg, the danger roll follows."""
    f = fleet(position)
    rules = journeys.rules
    target = journeys.target
    added = danger.area_danger(position, f.owner, f.kind, target) + _card_danger(journeys, target)
    position.fleets[0] = Fleet(f.owner, f.kind, f.size, target, f.danger + added, f.moves + 1, journeys.target_from)
    journeys.last_added = added
    journeys.target = journeys.target_from = ""
    _new_stop(journeys)
    journeys.entered = True
    _note_entry(position, journeys, target)
    f = fleet(position)
    at_camp = danger.breaks_leg(position, f.owner, f.kind, f.area, rules.camp_break)
    if journeys.discovering:
        # The discovery card's land ends the leg: the fleet arrives there, and a ship left after the danger roll
        # discovers it (VA-26 `on_arrival`).
        at_camp = True
    if at_camp:
        journeys.at_break = True
    if f.danger >= danger.TEN_POINTS or (at_camp and f.danger > 0):
        journeys.resume = RESUME_MOVE
        journeys.step = DANGER_ROLL
        return
    if at_camp:
        position.fleets[0] = f._replace(danger=0)
        journeys.leg = []
        _discover(position, journeys)
    journeys.step = MOVE
    _check_stuck(position, journeys)


def _card_danger(journeys: Journeys, area_id: str) -> int:
    """What danger cards add when the fleet enters an area they raised "for this journey" again
    (`danger_card_reentry: counts_again`), else 0."""
    if not journeys.danger_again:
        return 0
    return sum(n for a, n in zip(journeys.danger_areas, journeys.danger_added, strict=True) if a == area_id)


def _note_entry(position: Position, journeys: Journeys, area_id: str) -> None:
    """The fleet has entered `area_id`: on its route and leg; FRI LEJD used up there; the discovery card's land."""
    f = fleet(position)
    journeys.route.append(area_id)
    journeys.leg.append(area_id)
    if area_id not in journeys.entered_by[f.owner]:
        journeys.entered_by[f.owner].append(area_id)
    if area_id in journeys.free_passage and position.plundered[position.slot(area_id)]:
        journeys.free_passage.remove(area_id)
        journeys.passage_area = area_id
    elif journeys.passage_area != area_id:
        journeys.passage_area = ""
    slot = position.slot(area_id)
    journeys.discovering = area_id == journeys.discovery and position.discovered_by[slot] < 0


def _discover(position: Position, journeys: Journeys) -> None:
    """The fleet has arrived at the discovery card's land with a ship left: it is discovered by the fleet's owner
    this turn (5 VP in phase 9; open to all from the next turn)."""
    if not journeys.discovering or not position.fleets:
        return
    journeys.discovering = False
    f = fleet(position)
    discover(position, f.owner, f.area)
    journeys.events.append(JourneyEvent(f.owner, "discovery", f.area, 0))


def discover(position: Position, seat: int, area_id: str) -> None:
    """The Discovered marker goes on an unknown land (VA-26), unless someone found it first."""
    slot = position.slot(area_id)
    if position.discovered_by[slot] < 0:
        position.discovered_by[slot] = seat
        position.discovered_turn[slot] = position.turn


def stop(position: Position, journeys: Journeys) -> None:
    """The fleet's area becomes its destination: the danger roll (if any danger is counted), then it acts."""
    f = fleet(position)
    journeys.stopped = journeys.at_break = True
    if journeys.rolled_here:
        # The ten-point roll on entering this area serves for the destination too (VA-49).
        position.fleets[0] = f._replace(danger=0)
        _arrive(position, journeys)
        return
    if journeys.rules.danger_at_destination == "not_counted" and journeys.entered:
        position.fleets[0] = f._replace(danger=max(f.danger - journeys.last_added, 0))
        journeys.last_added = 0
    if fleet(position).danger > 0:
        journeys.resume = RESUME_ARRIVE
        journeys.step = DANGER_ROLL
        return
    _arrive(position, journeys)


def danger_roll(position: Position, journeys: Journeys, face: int) -> None:
    """The danger die: ships lost if the roll is at most the danger (a 10 saves); the count restarts."""
    f = fleet(position)
    # BESKYDD: "The fleet gets -2 on its value. Counts for one dice roll." (VA-15)
    value = max(f.danger - journeys.protection, 0)
    journeys.protection = 0
    lost = danger.ships_lost(face, value, f.size)
    journeys.leg = []
    # At a destination or camp the count is "reset to zero"; only the ten-point roll on the way may carry (VA-49).
    after = 0 if journeys.at_break else danger.danger_after_roll(f.danger, journeys.rules.danger_overflow)
    position.fleets[0] = f._replace(danger=after)
    if journeys.resume == RESUME_MOVE:
        journeys.rolled_here = True
    if lost:
        journeys.events.append(JourneyEvent(f.owner, "danger", f.area, lost))
        position.lose_fleet_ships(0, lost)
        if not position.fleets:
            _journey_over(position, journeys)
            return
    _discover(position, journeys)
    if journeys.resume == RESUME_ARRIVE:
        _arrive(position, journeys)
    else:
        journeys.step = MOVE
        _check_stuck(position, journeys)


# -- at the destination ----------------------------------------------------------------------------------------


def _arrive(position: Position, journeys: Journeys) -> None:
    """At its destination a trading fleet acts; a war fleet first fights the armies, unless none are left. The leg
    ends here (a destination is a break)."""
    journeys.leg = []
    f = fleet(position)
    if f.kind == TRADING:
        journeys.step = ACT
        return
    if _may_sell(position, journeys):
        _sell_ships(position, journeys)
        return
    slot = position.slot(f.area)
    if position.separatists[slot]:
        if journeys.rules.separatists == "hostile" and position.camps_in_area(WAR, f.area):
            _start_separatist_fight(position, journeys)
            return
    elif conquest.fief_holder(position, slot) == f.owner:
        # FÖRLÄNING, SMÅRIKE: "The player does not need to defeat any more armies to build war camps there" (VA-23).
        journeys.step = ACT
        return
    _fight_armies(position, journeys)


def _fight_armies(position: Position, journeys: Journeys) -> None:
    """The war fleet fights the area's armies, or wins at once where none are left."""
    f = fleet(position)
    area = position.board.area(f.area)
    slot = position.slot(f.area)
    # "For each war camp, in the area, the number of armies is reduced by one" (6.4; VA-55): every war camp there.
    camps = position.camps_in_area(WAR, f.area)
    lost = journeys.army_lost[slot] if journeys.rules.army_losses == "per_turn" else 0
    armies = max(area.shields - camps - lost, 0)
    if armies == 0:
        journeys.won = journeys.armyless = True
        journeys.step = ACT
        return
    strength = army_strength(position, journeys.rules, f.area)
    journeys.fight = combat.against_armies(position.num_players, f.area, f.owner, armies, strength)
    _start_round(position, journeys)


def _start_separatist_fight(position: Position, journeys: Journeys) -> None:
    """UTBRYTARE under `separatists: hostile` (VA-22): "Their war camps defend the area against every war fleet that
    makes it a destination. Each counts as two ships of strength 5, and neither side re-rolls 1s." Every seat's war
    camps there fight, the mover's own too (they are no one's); war ships standing there keep out of it."""
    f = fleet(position)
    n = position.num_players
    owners = [s for s in seat_order(position.first_seat, n) if position.camps_at(s, WAR, f.area)]
    camps = [position.camps_at(s, WAR, f.area) for s in range(n)]
    journeys.fight = combat.against_defenders(n, f.area, f.owner, owners, [0] * n, camps)
    journeys.separatist_fight = True
    journeys.events.append(JourneyEvent(f.owner, "separatists defend", f.area, sum(camps)))
    _start_round(position, journeys)


def _after_separatist_fight(position: Position, journeys: Journeys, resume: int) -> None:
    """After the fight with the separatists' war camps: no risk of war (they belong to no one); the marker goes
    with the area's last camp; a fleet that won goes on to fight the armies, one that withdrew moves on."""
    fight = journeys.fight
    journeys.separatist_fight = False
    lost = sum(fight.lost_camps)
    if lost:
        journeys.events.append(JourneyEvent(fight.attacker, "separatist war camps destroyed", fight.area, lost))
    _clear_separatists(position, fight.area)
    if resume == RESUME_OVER or not position.fleets:
        _journey_over(position, journeys)
    elif resume == RESUME_ENTER:
        _fight_armies(position, journeys)
    else:
        journeys.step = MOVE
        _check_stuck(position, journeys)


def _clear_separatists(position: Position, area_id: str) -> None:
    """The separatist marker goes once the area has no camp left (VA-22)."""
    slot = position.slot(area_id)
    if (
        position.separatists[slot]
        and not position.camps_in_area(WAR, area_id)
        and not position.camps_in_area(TRADING, area_id)
    ):
        position.separatists[slot] = False


def _sell_ships(position: Position, journeys: Journeys) -> None:
    """VÄRINGAGARDE: "Up to four war ships may be sold as mercenaries in Miklagård ... Sold ships are removed.
    Price as indicated for the dice rolls (Silver per ship)." The fleet sells as many as it can, the rest sails on
    (no fight with Miklagård's armies: the ships come as mercenaries)."""
    f = fleet(position)
    sold = min(f.size, journeys.varangian_max)
    prices = journeys.varangian_prices
    silver = sum(prices[i] if i < len(prices) else prices[-1] for i in range(sold))
    journeys.varangian_prices = []
    position.lose_fleet_ships(0, sold)
    position.gain_silver(f.owner, silver)
    journeys.events.append(JourneyEvent(f.owner, "sold ships", f.area, silver))
    if not position.fleets:
        _journey_over(position, journeys)
        return
    journeys.step = ACT


def _start_round(position: Position, journeys: Journeys) -> None:
    fight = journeys.fight
    combat.start_round(fight, fleet(position).size)
    if journeys.protection and journeys.protection_any:
        # BESKYDD under `protection: any_roll`: the fleet's next roll is this round's dice.
        fight.round_bonus = journeys.protection
        journeys.protection = 0
    journeys.step = FLEET_HITS


def berserk_dice(position: Position, journeys: Journeys, one_round: bool) -> None:
    """BÄRSÄRK played before the fight: the dice of its first round as the card leaves them. Under `berserk:
    no_losses` the standing card's side "wins automatically": neither side's dice count (the fleet's node rolls no
    dice, the round ends at once); under `one_round` only the berserk side's dice are spared. Two cards cancel
    each other and the dice are as usual."""
    fight = journeys.fight
    fight.fleet_dice = fleet(position).size
    fight.other_dice = fight.armies if fight.against == combat.ARMIES else fight.defending_dice()
    seat = combat.berserk_standing(fight)
    if seat < 0:
        return
    mover = seat == fight.attacker
    if not one_round or mover:
        fight.fleet_dice = 0
    if not one_round or not mover:
        fight.other_dice = 0


def fleet_hits(position: Position, journeys: Journeys, hits: int) -> None:
    """A node of the war fleet's dice."""
    combat.fleet_rolled(journeys.fight, hits)
    _next_dice(position, journeys)


def other_hits(position: Position, journeys: Journeys, hits: int, one: bool) -> None:
    """A node of the armies' or defenders' dice."""
    combat.other_rolled(journeys.fight, hits, one)
    _next_dice(position, journeys)


def _next_dice(position: Position, journeys: Journeys) -> None:
    fight = journeys.fight
    if fight.fleet_dice:
        journeys.step = FLEET_HITS
    elif fight.other_dice:
        journeys.step = ARMY_HITS if fight.against == combat.ARMIES else DEFENDER_HITS
    else:
        _end_round(position, journeys)


def _end_round(position: Position, journeys: Journeys) -> None:
    """Both sides' hits fall together; then the fight is won, lost, or the mover chooses."""
    fight = journeys.fight
    f = fleet(position)
    seat = f.owner
    berserk = combat.berserk_standing(fight) if fight.rounds == 1 else -1
    if berserk >= 0:
        # "Wins automatically the fight in one area" (VA-17): the other side is destroyed.
        fight.berserk = []
        if berserk == seat:
            fight.fleet_hits = fight.armies if fight.against == combat.ARMIES else fight.defending_dice()
        else:
            fight.other_hits = f.size
    if fight.against == combat.ARMIES:
        beaten = min(fight.fleet_hits, fight.armies)
        fight.armies -= beaten
        journeys.defeated += beaten
        journeys.army_lost[position.slot(fight.area)] += beaten
    else:
        for defender, ships, camps in combat.apply_defender_losses(fight, fight.fleet_hits):
            if ships:
                position.remove_ships(defender, WAR, fight.area, ships)
            if camps:
                position.remove_camps(defender, WAR, fight.area, camps)
    lost = min(fight.other_hits, f.size)
    if lost:
        fight.lost_ships[seat] += lost
        position.lose_fleet_ships(0, lost)
    if not position.fleets:
        _after_fight(position, journeys, RESUME_OVER)
    elif fight.other_side_left() == 0:
        if fight.against == combat.ARMIES:
            journeys.won = True
            journeys.step = ACT
            journeys.events.append(JourneyEvent(seat, "victory", fight.area, journeys.defeated))
        else:
            _after_fight(position, journeys, RESUME_ENTER)
    else:
        journeys.step = FIGHT_ON


def fight_on(position: Position, journeys: Journeys, go_on: bool) -> None:
    """The mover fights another round, or withdraws: from the armies he moves on; from the defenders he turns
    away."""
    if go_on:
        _start_round(position, journeys)
    elif journeys.fight.against == combat.ARMIES:
        journeys.step = MOVE
        _check_stuck(position, journeys)
    else:
        _after_fight(position, journeys, RESUME_TURNED_AWAY)


def _start_defender_fight(position: Position, journeys: Journeys) -> None:
    f = fleet(position)
    seats = defenders(position, f.owner, journeys.target)
    ships = [position.ships_at(s, WAR, journeys.target) for s in range(position.num_players)]
    camps = [position.controlled_camps(s, WAR, journeys.target) for s in range(position.num_players)]
    journeys.fight = combat.against_defenders(position.num_players, journeys.target, f.owner, seats, ships, camps)
    if journeys.rules.war_renewal == "first_round":
        # "If there is any combat between the two kingdoms, the "Peace?" marker is immediately turned back to its
        # War side" (VA-40): at the fight's first round, before any die or card of the fight.
        for seat in seats:
            kingdoms_war.renew_war(position, f.owner, seat, journeys.rules.war_tracking)
    _start_round(position, journeys)


# -- war after a fight between kingdoms ------------------------------------------------------------------------


def _after_fight(position: Position, journeys: Journeys, resume: int) -> None:
    """After a fight with other kingdoms' ships and camps: the risk of war, declarations, then `resume` (none after
    the separatists' camps, which are no one's)."""
    if journeys.separatist_fight:
        _after_separatist_fight(position, journeys, resume)
        return
    fight = journeys.fight
    attacker = fight.attacker
    thresholds = [0] * journeys.num_players
    opponents: list[list[int]] = [[] for _ in range(journeys.num_players)]
    for seat in fight.defenders:
        thresholds[seat] = kingdoms_war.war_risk(fight.lost_ships[seat], fight.lost_camps[seat])
        opponents[seat] = [attacker]
        opponents[attacker].append(seat)
    thresholds[attacker] = kingdoms_war.war_risk(fight.lost_ships[attacker], 0)
    _risk_of_war(position, journeys, thresholds, opponents, resume)


def _risk_of_war(
    position: Position, journeys: Journeys, thresholds: list[int], opponents: list[list[int]], resume: int
) -> None:
    """Each participant who lost something rolls; war with an emigrant's side is certain; then declarations. A
    Peace? between the sides turns back to War here under `war_renewal: after_fight`, and for trading camps
    destroyed (no rounds); under `first_round` a fight's did so as it started."""
    journeys.risk, journeys.opponents, journeys.resume = thresholds, opponents, resume
    war_tracking = journeys.rules.war_tracking
    order = [(position.first_seat + i) % position.num_players for i in range(position.num_players)]
    for seat in order:
        for other in opponents[seat]:
            if seat < other:
                kingdoms_war.renew_war(position, seat, other, war_tracking)
                if kingdoms_war.war_is_certain(position, seat, other):
                    kingdoms_war.break_out_war(position, seat, other, war_tracking)
    journeys.to_risk = [
        s for s in order if thresholds[s] > 0 and any(_war_possible(position, journeys, s, o) for o in opponents[s])
    ]
    journeys.declarers = [s for s in order if any(_war_possible(position, journeys, s, o) for o in opponents[s])]
    _next_risk(position, journeys)


def _war_possible(position: Position, journeys: Journeys, a: int, b: int) -> bool:
    """Whether a war between the two sides would change anything: two kingdoms not yet at War with each other."""
    if (
        not kingdoms_war.side(position, a)
        or not kingdoms_war.side(position, b)
        or kingdoms_war.countrymen(position, a, b)
    ):
        return False
    return not kingdoms_war.at_war_with(position, a, b, journeys.rules.war_tracking)


def _next_risk(position: Position, journeys: Journeys) -> None:
    journeys.to_risk = [
        s for s in journeys.to_risk if any(_war_possible(position, journeys, s, o) for o in journeys.opponents[s])
    ]
    if journeys.to_risk:
        journeys.step = WAR_RISK_ROLL
        return
    journeys.declarers = [
        s for s in journeys.declarers if any(_war_possible(position, journeys, s, o) for o in journeys.opponents[s])
    ]
    if journeys.declarers:
        journeys.step = WAR_DECLARATION
        journeys.askers = []
        return
    _resume(position, journeys)


def risk_roll(position: Position, journeys: Journeys, face: int) -> None:
    """A participant's war die: at most his ships lost plus two per camp brings war with his opponents."""
    seat = journeys.to_risk.pop(0)
    if face <= journeys.risk[seat]:
        for other in journeys.opponents[seat]:
            if kingdoms_war.break_out_war(position, seat, other, journeys.rules.war_tracking):
                journeys.events.append(JourneyEvent(seat, "war", "", face))
    _next_risk(position, journeys)


def declare(position: Position, journeys: Journeys, war: bool) -> None:
    """A participant declares war on his opponents' kingdoms, or not."""
    seat = journeys.declarers.pop(0)
    if war:
        for other in journeys.opponents[seat]:
            if kingdoms_war.break_out_war(position, seat, other, journeys.rules.war_tracking):
                journeys.events.append(JourneyEvent(seat, "declared war", "", 0))
    _next_risk(position, journeys)


def _resume(position: Position, journeys: Journeys) -> None:
    resume = journeys.resume
    journeys.risk = [0] * journeys.num_players
    journeys.opponents = [[] for _ in range(journeys.num_players)]
    if resume == RESUME_OVER or not position.fleets or not journeys.active:
        _journey_over(position, journeys)
    elif resume == RESUME_ENTER:
        _enter(position, journeys)
    elif resume == RESUME_TURNED_AWAY:
        _turn_away(position, journeys)
    elif resume == RESUME_ACT:
        journeys.step = ACT
    else:
        journeys.step = MOVE
        _check_stuck(position, journeys)


# -- acting ----------------------------------------------------------------------------------------------------


def do_trade(position: Position, journeys: Journeys) -> None:
    """The trading fleet trades (6.3)."""
    f = fleet(position)
    if f.area in journeys.free_trade:
        journeys.free_trade.remove(f.area)
    silver = trade.trade(position, 0, 2 if _good_trade(journeys, f.owner, f.area) else 1)
    journeys.traded = True
    journeys.events.append(JourneyEvent(f.owner, "trade", f.area, silver))
    _after_act(position, journeys)


def _good_trade(journeys: Journeys, seat: int, area_id: str) -> bool:
    """BRA HANDEL: "Doubles the trade value of any one area. Counts for one single trade." Whether this trade is
    the one (used up if so)."""
    for i, area in enumerate(journeys.good_trade):
        if area == area_id and journeys.good_trade_seat[i] in (seat, -1):
            journeys.good_trade.pop(i)
            journeys.good_trade_seat.pop(i)
            return True
    return False


def do_plunder(position: Position, journeys: Journeys) -> None:
    """The war fleet plunders (6.4)."""
    f = fleet(position)
    # "If the army strength was five ..." (6.4): the strength the armies fought at (VA-25 `expanded_strength`).
    silver = plunder.plunder_silver(army_strength(position, journeys.rules, f.area), journeys.defeated)
    if silver:
        position.gain_silver(f.owner, silver)
    position.plundered[position.slot(f.area)] = True
    journeys.plundered = True
    journeys.events.append(JourneyEvent(f.owner, "plunder", f.area, silver))
    _after_act(position, journeys)


def do_build(position: Position, journeys: Journeys, n: int) -> None:
    """The fleet builds `n` camps of its type; in a province the empire reacts at once (VA-32), but not in a
    heritage or small kingdom (VA-23)."""
    f = fleet(position)
    trade.build(position, 0, n)
    journeys.built = True
    journeys.events.append(JourneyEvent(f.owner, "build " + f.kind, f.area, n))
    slot = position.slot(f.area)
    # A heritage or small kingdom "makes no more reaction rolls" (VA-23), whoever builds there.
    if position.empire_of[slot] and conquest.fief_holder(position, slot) == NOBODY:
        only = f.owner if journeys.rules.reaction_on_build == "builder_only" else -1
        journeys.build_reactions = reactions.on_build(position, journeys.rules.reaction_roll, f.area, only)
        if not reactions.done(journeys.build_reactions):
            journeys.step = BUILD_REACTION_ROLL
            return
    _after_act(position, journeys)


def build_reaction_roll(position: Position, journeys: Journeys, face: int) -> None:
    """The empire's reaction to the new camps."""
    reactions.reaction_roll(position, journeys.build_reactions, face)
    _after_build_reaction(position, journeys)


def build_gald_roll(position: Position, journeys: Journeys, face: int) -> None:
    """The Gäld die of a reaction to the new camps."""
    reactions.gald_roll(position, journeys.build_reactions, face)
    _after_build_reaction(position, journeys)


def _after_build_reaction(position: Position, journeys: Journeys) -> None:
    r = journeys.build_reactions
    if reactions.gald_roller(r) >= 0:
        journeys.step = BUILD_GALD_ROLL
    elif not reactions.done(r):
        journeys.step = BUILD_REACTION_ROLL
    else:
        _after_act(position, journeys)


def do_destroy(position: Position, journeys: Journeys) -> None:
    """The war fleet destroys other kingdoms' undefended trading camps; the owners risk war (VA-58)."""
    f = fleet(position)
    journeys.destroyed = True
    if position.separatists[position.slot(f.area)]:
        _destroy_separatist_camps(position, journeys)
        return
    thresholds = [0] * journeys.num_players
    opponents: list[list[int]] = [[] for _ in range(journeys.num_players)]
    for owner, camps in plunder.destroy(position, f.owner, f.area):
        journeys.events.append(JourneyEvent(owner, "trading camps destroyed", f.area, camps))
        thresholds[owner] = kingdoms_war.war_risk(0, camps)
        opponents[owner] = [f.owner]
        opponents[f.owner].append(owner)
    _risk_of_war(position, journeys, thresholds, opponents, RESUME_ACT)


def _destroy_separatist_camps(position: Position, journeys: Journeys) -> None:
    """VA-22: "Once those war camps are gone, a war fleet that wins there may remove the separatist trading camps"
    (every seat's, no one's to defend or to go to war over); with no camp left the marker goes."""
    f = fleet(position)
    removed = 0
    for seat in range(position.num_players):
        n = position.camps_at(seat, TRADING, f.area)
        if n:
            position.remove_camps(seat, TRADING, f.area, n)
            removed += n
    journeys.events.append(JourneyEvent(f.owner, "separatist trading camps removed", f.area, removed))
    _clear_separatists(position, f.area)
    _after_act(position, journeys)


def _after_act(position: Position, journeys: Journeys) -> None:
    """After an action the fleet may do another, move on, or end; a fleet used up ends its journey."""
    if not position.fleets:
        _journey_over(position, journeys)
        return
    journeys.step = ACT


def end_journey(position: Position, journeys: Journeys) -> None:
    """The journey ends: the fleet's remaining ships are removed (`journey_end: remove_rest`) or stand where it is
    (`stay`) (VA-50)."""
    if position.fleets:
        f = fleet(position)
        if journeys.rules.journey_end == "stay" and position.board.area(f.area).is_land:
            position.land_fleet(0)
        else:
            position.lose_fleet_ships(0, f.size)
    _journey_over(position, journeys)


def _journey_over(position: Position, journeys: Journeys) -> None:
    """After the journey (an emigrant who lost a camp of his home area is homeless now, VA-61), a new initiative
    roll (6.1)."""
    emigration.check_homeless(position)
    _clear_cards(journeys)
    journeys.fight = combat.Fight(journeys.num_players)
    journeys.separatist_fight = False
    journeys.askers, journeys.declarers, journeys.to_risk = [], [], []
    journeys.target = journeys.target_from = ""
    _new_stop(journeys)
    _next_journey(position, journeys)


def act_moves(position: Position, journeys: Journeys) -> list[str]:
    """The areas the fleet may move on to from where it acted (the fight's withdrawal included)."""
    return [target for target, _ in moves(position, journeys)]


# -- what a viewer sees ----------------------------------------------------------------------------------------


def observation(position: Position, journeys: Journeys) -> dict[str, Any]:
    """Phase 6 as JSON: initiative, the fleet in motion, the fight and the entry under way, this phase's events."""
    ini = journeys.initiative
    fight = journeys.fight
    fight_data: dict[str, Any] | None = None
    if fight.against:
        fight_data = {
            "against": fight.against,
            "area": fight.area,
            "armies": fight.armies,
            "strength": fight.strength,
            "defenders": [{"seat": s, "ships": fight.ships[s], "camps": fight.camps[s]} for s in fight.defenders],
            "fleet_size": position.fleets[0].size if position.fleets and journeys.active else 0,
            "round": fight.rounds,
            "thors_hammer": list(fight.hammer),
            "berserk": list(fight.berserk),
            "fleet_hits_on": combat.fleet_hit_on(fight),
            "defenders_hit_on": combat.defender_hit_on(fight),
            "separatists": journeys.separatist_fight,
        }
    entry: dict[str, Any] | None = None
    if journeys.target:
        entry = {
            "area": journeys.target,
            "duty": total_duty(journeys),
            "forbidden": journeys.forbidden,
            "asked": [s for s, d in enumerate(journeys.duties) if d],
        }
    return {
        "initiative": {
            "rolls": [r if r else None for r in ini.rolls],
            "holder": initiative.holder(ini),
            "passed": sorted({*ini.passed, *(s for s in range(journeys.num_players) if ini.out[s])}),
        },
        "fleet": 0 if journeys.active and position.fleets else -1,
        "fight": fight_data,
        "entry": entry,
        "events": [e._asdict() for e in journeys.events],
        "cards": card_effects(journeys),
    }


def card_effects(journeys: Journeys) -> dict[str, Any]:
    """The card effects on the fleet in motion and on this phase's trade, public ("any card effects on it"),
    with the areas it entered this journey and on this leg."""
    return {
        "route": list(journeys.route),
        "leg": list(journeys.leg),
        "danger_cards": [
            {"area": a, "added": n} for a, n in zip(journeys.danger_areas, journeys.danger_added, strict=True)
        ],
        "protection": journeys.protection,
        "good_trade": [
            {"area": a, "seat": s} for a, s in zip(journeys.good_trade, journeys.good_trade_seat, strict=True)
        ],
        "free_trade": list(journeys.free_trade),
        "free_passage": list(journeys.free_passage),
        "passing": journeys.passage_area,
        "discovery": journeys.discovery,
        "varangian_prices": list(journeys.varangian_prices),
        "initiative_claims": list(journeys.initiative.claims),
    }


# -- the steps (`step_rules.STEP_RULES`): the initiative, the fleets' journeys, their answers, fights and rolls ----


class JourneyTable(Protocol):
    """What phase 6's steps read of the state (`situation.Situation` is one)."""

    position: Position
    journeys: Journeys

    @property
    def space(self) -> ActionSpace: ...


def apply_initiative_roll(table: JourneyTable, action: int) -> None:
    """A D10 for initiative."""
    initiative_roll(table.position, table.journeys, action - A.ROLL + 1)


def legal_journey_choice(table: JourneyTable) -> list[int]:
    """A pass, or a fleet to start: its ship type and the area it starts from."""
    space = table.space
    return [A.PASS, *(space.fleet(k, a) for k, a in fleet_starts(table.position, table.journeys))]


def apply_journey_choice(table: JourneyTable, action: int) -> None:
    """The holder of the initiative passes, or names the fleet he starts."""
    if action == A.PASS:
        pass_journey(table.position, table.journeys)
        return
    data = table.space.to_json(action)
    choose_fleet(table.journeys, data["ships"], data["area"])


def legal_fleet_size(table: JourneyTable) -> list[int]:
    """How many ships may sail in the fleet."""
    return [A.AMOUNT + n - 1 for n in fleet_sizes(table.position, table.journeys)]


def apply_fleet_size(table: JourneyTable, action: int) -> None:
    """The fleet sets out with that many ships."""
    launch(table.position, table.journeys, action - A.AMOUNT + 1)


def legal_fleet_decision(table: JourneyTable) -> list[int]:
    """At MOVE, the areas to move to, a stop, and the end of the journey (at a break, or with nowhere to go)."""
    position, j = table.position, table.journeys
    found = sorted(table.space.move(a) for a in act_moves(position, j))
    singles = [A.STOP] if may_stop(position, j) else []
    if j.at_break or not found:  # `may_end`, with the moves already found
        singles.append(A.END_JOURNEY)
    return singles + found


def legal_act(table: JourneyTable) -> list[int]:
    """At ACT, the end of the journey, a trade, a plunder, a destruction, the builds, and the areas to move on to."""
    position, j, space = table.position, table.journeys, table.space
    found = sorted(space.move(a) for a in act_moves(position, j))
    f = fleet(position)
    singles = [A.END_JOURNEY]
    if may_trade(position, j):
        singles.append(A.TRADE)
    if may_plunder(position, j):
        singles.append(A.PLUNDER)
    if may_destroy(position, j):
        singles.append(A.DESTROY)
    builds = [A.BUILD + SHIP_TYPES.index(f.kind) * A.MAX_BUILD + n - 1 for n in act_builds(position, j)]
    return sorted(singles + builds + found)


def apply_fleet_decision(table: JourneyTable, action: int) -> None:
    """At MOVE and ACT: the fleet ends its journey, stops, trades, plunders, destroys, builds or moves on."""
    position, j = table.position, table.journeys
    if action == A.END_JOURNEY:
        end_journey(position, j)
    elif action == A.STOP:
        stop(position, j)
    elif action == A.TRADE:
        do_trade(position, j)
    elif action == A.PLUNDER:
        do_plunder(position, j)
    elif action == A.DESTROY:
        do_destroy(position, j)
    elif A.BUILD <= action < A.BUILD + len(SHIP_TYPES) * A.MAX_BUILD:
        do_build(position, j, (action - A.BUILD) % A.MAX_BUILD + 1)
    else:
        try_move(position, j, table.space.to_json(action)["area"])


def legal_entry_answer(table: JourneyTable) -> list[int]:
    """Allow the fleet, forbid it, or ask a duty."""
    return [A.ALLOW, A.FORBID, A.ASK_DUTY]


def apply_entry_answer(table: JourneyTable, action: int) -> None:
    """The area's owner answers the fleet at his border."""
    answer_entry(table.position, table.journeys, table.space.to_json(action)["type"])


def legal_duty_amount(table: JourneyTable) -> list[int]:
    """How much duty may be asked."""
    return [A.AMOUNT + n - 1 for n in duty_amounts(table.position)]


def apply_duty_amount(table: JourneyTable, action: int) -> None:
    """The owner asks that much duty."""
    ask_duty(table.position, table.journeys, action - A.AMOUNT + 1)


def legal_entry_reply(table: JourneyTable) -> list[int]:
    """Pay the duty, fight, or turn away, as far as each is open to the fleet."""
    return sorted(A.REPLIES[r] for r in reply_options(table.position, table.journeys))


def apply_entry_reply(table: JourneyTable, action: int) -> None:
    """The fleet's owner replies to the duty or the ban."""
    reply(table.position, table.journeys, table.space.to_json(action)["type"])


def legal_sea_ban(table: JourneyTable) -> list[int]:
    """Let the fleet pass Danavalde's sea or bar it, and ask a duty under `denmark_toll: duty_or_ban`."""
    duty = [A.ASK_DUTY] if table.journeys.rules.denmark_toll == "duty_or_ban" else []
    return sorted([A.ALLOW, A.BAR_SEA, *duty])


def apply_sea_ban(table: JourneyTable, action: int) -> None:
    """Denmark's king answers the fleet at his sea."""
    answer_sea_ban(table.position, table.journeys, table.space.to_json(action)["type"])


def apply_ban_war_roll(table: JourneyTable, action: int) -> None:
    """A D10 for war over the barred sea."""
    ban_war_roll(table.position, table.journeys, action - A.ROLL + 1)


def apply_danger_roll(table: JourneyTable, action: int) -> None:
    """A D10 for the danger."""
    danger_roll(table.position, table.journeys, action - A.ROLL + 1)


def apply_fleet_hits(table: JourneyTable, action: int) -> None:
    """The hits of the war fleet's dice."""
    fleet_hits(table.position, table.journeys, action - A.HITS)


def apply_other_hits(table: JourneyTable, action: int) -> None:
    """The hits of the armies' or the defenders' dice, and whether a 1 showed among the armies' (VA-55)."""
    one = action >= A.HITS_WITH_ONE
    other_hits(table.position, table.journeys, action - (A.HITS_WITH_ONE if one else A.HITS), one)


def legal_fight_on(table: JourneyTable) -> list[int]:
    """Fight on, or withdraw."""
    return [A.FIGHT_ON, A.WITHDRAW]


def apply_fight_on(table: JourneyTable, action: int) -> None:
    """The fleet's owner fights on or withdraws."""
    fight_on(table.position, table.journeys, action == A.FIGHT_ON)


def apply_war_risk_roll(table: JourneyTable, action: int) -> None:
    """A D10 for the risk of war."""
    risk_roll(table.position, table.journeys, action - A.ROLL + 1)


def legal_war_declaration(table: JourneyTable) -> list[int]:
    """Declare war, or not."""
    return [A.DECLARE_WAR, A.NO_WAR]


def apply_war_declaration(table: JourneyTable, action: int) -> None:
    """The king declares war, or not."""
    declare(table.position, table.journeys, action == A.DECLARE_WAR)


def apply_build_reaction_roll(table: JourneyTable, action: int) -> None:
    """A D10 on the empire's reaction table for the camps just built."""
    build_reaction_roll(table.position, table.journeys, action - A.ROLL + 1)


def apply_build_gald_roll(table: JourneyTable, action: int) -> None:
    """A D10 on the Gäld table for the camps just built."""
    build_gald_roll(table.position, table.journeys, action - A.ROLL + 1)


def explain_journey(table: JourneyTable, action: int) -> IllegalAction | None:
    """Why a move, stop, fight or payment of the fleet in motion is illegal, naming the rule it breaks; None for
    anything else, or with no fleet in motion."""
    position, j, space = table.position, table.journeys, table.space
    if not j.active or not position.fleets:
        return None
    f = fleet(position)
    data = space.to_json(action)
    kind = data["type"]
    if kind == "move":
        target = position.board.area(data["area"])
        here = position.board.area(f.area)
        if target.id not in here.sea_links and target.id not in here.river_links:
            return IllegalAction("6.2 Moving fleets", f"{target.name} is not next to {here.name} by sea or river")
        if target.kind == "viking_kingdom" and not may_enter(position, j.rules, f.owner, f.kind, target.id):
            return IllegalAction(
                "VA-45", f"'No other players may enter these areas (except for Denmark's sea area)': {target.name}"
            )
        if f.kind == WAR and target.no_war_fleets:
            return IllegalAction("VA-45", f"'No war fleets may enter a kingdom': {target.name} is an empire's core")
        if f.kind == TRADING and target.is_land and position.plundered[position.slot(target.id)]:
            return IllegalAction("6.2 Plundered areas", "'A trading fleet cannot enter a plundered land area'")
        if not may_enter(position, j.rules, f.owner, f.kind, target.id):
            return IllegalAction("VA-26", f"{target.name} is not discovered (or not yet open to fleets)")
        if f.moves >= move_limit(j.rules):
            return IllegalAction("VA-50", "this journey has made its 40 moves: it can only end here")
        return IllegalAction(
            "VA-46",
            f"'When a fleet enters a land area from one sea area, it also has to leave the land by the "
            f"same sea area': this fleet came from {space.area_name(f.entered_from)}",
        )
    if kind == "fight":
        if f.kind != WAR:
            return IllegalAction("VA-53", "only a war fleet can fight its way into an area; a trading fleet turns away")
        if position.board.area(j.target).kind == "viking_kingdom":
            return IllegalAction("VA-54", "a fleet barred from Denmark's sea cannot fight its way through")
        return IllegalAction(
            "VA-39", "'Then, no players from their kingdoms may fight each other': a King's Peace holds"
        )
    if kind == "pay_duty":
        if j.forbidden:
            return IllegalAction("VA-53", "entry is forbidden ('or completely forbid'): no duty opens it")
        return IllegalAction(
            "VA-53",
            f"'Any duty has to be paid immediately': seat {f.owner + 1} has {position.silver[f.owner]} silver, not "
            f"{total_duty(j)}",
        )
    if kind == "stop":
        return IllegalAction(
            "VA-47",
            f"the fleet cannot make {space.area_name(f.area)} its destination now (a sea, a place "
            "it has already stopped at, its start under start_as_destination: not_allowed, or nothing to do there)",
        )
    return None
