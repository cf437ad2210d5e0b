"""Prove a Vikingatid board file sound, naming the area, empire or table at fault.

`problems(board)` lists everything wrong with a loaded board (empty when sound); `check_file(path)` does the same
for a file, a file that cannot be read as a board giving its one `BoardError` line; `checked_board(path)` is the
board a game may play on, or a `BoardError` listing the problems. Run it on a file with
`python -m skald.games.vikingatid.validate [FILE]`.

What is checked, with the rule each check guards (docs/vikingatid.md, "The board data"):

- every entry carries a provenance (`confirmed`, `inferred`, `provisional`) and a source (docs/DESIGN.md);
- ids are unique and links name known areas; every link is listed on both its areas (adjacency symmetric);
- areas are consistent: kinds, terrains, one army strength per area of 2, 3 or 5, 5 in every empire area (VA-64);
- every river's areas are joined along the river, and a river link runs along a river the two areas share;
- empire cores admit neither war fleets nor camps, the Viking kingdoms no camps and no foreign fleets (VA-45);
- Denmark is one area of land and sea, danger 0, that other kingdoms' fleets pass through between the North Sea
  side and the Baltic, and the only sea passage between them (rule text "Denmark, Norway and Sweden"; VA-54, VA-66);
- every area can be reached by fleets from every Viking kingdom under the movement rules (6.2; VA-45, VA-46), the
  unknown lands once discovered (VA-26);
- every province touches its empire by land ("adjacent areas on the map in the same colour"), or says why not;
- every table is complete over its roll range: the reaction tables from 1 up to 10 + the most war camps an area
  can hold + the Christian bonus (phase 2, phase 10; VA-29), ordered Krig < Gäld < Fred; the D10 tables 1-10;
  the turn track from 800 in steps of 25 years with christianisation chances from 900 (VA-03, VA-04, VA-05).
"""

from __future__ import annotations

import heapq
import re
import sys
from collections import Counter, deque
from pathlib import Path
from typing import Final

from skald.games.vikingatid.board import (
    EMPIRE_CORE,
    FRED,
    GALD,
    KINDS,
    KRIG,
    MAX_AREAS,
    PROVENANCES,
    PROVINCE,
    REACTION_RESULTS,
    RELATIONS,
    RIVER_LINKS,
    SEA,
    SEA_LINKS,
    TERRAINS,
    UNDISCOVERED,
    VIKING_KINGDOM,
    Area,
    Board,
    BoardError,
    Provenance,
    load_board,
)

_SNAKE: Final = re.compile(r"^[a-z][a-z0-9_]*$")
_RANK: Final = {KRIG: 0, GALD: 1, FRED: 2}
#: The empires whose reactions and armies a Christian player gets +2 against (rule text, 10. Christianisation).
CHRISTIAN_BONUS_EMPIRES: Final = ("britain", "german_roman")
CHRISTIAN_BONUS: Final = 2
#: Areas the rule text names (cards, setup, the appendix); a board without them cannot play the text's cards.
NAMED_BY_THE_TEXT: Final = (
    "danavalde", "norge", "svea_rike", "miklagard", "magyarlandet", "kalmykien", "georgien", "beresan",
    "moldavien", "bolgaraland", "kazakstan", "khorasan", "island", "irland",
)  # fmt: skip
#: Start values the setup reads (VA-02) and the rulebook numbers kept as data.
START_KEYS: Final = (
    "start_year", "start_cards", "start_silver", "start_treasury", "start_kings", "start_war", "start_ships",
    "start_camps", "home_silver", "ship_cost", "hand_limit_end_of_turn", "max_fleet",
)  # fmt: skip
TRADING: Final = "trading"
WAR: Final = "war"
_FLEETS: Final = (TRADING, WAR)


# -- provenance ---------------------------------------------------------------------------------------------


def _provenance(label: str, provenance: Provenance, out: list[str], needs_source: bool = True) -> None:
    if provenance.level not in PROVENANCES:
        got = f"got {provenance.level!r}" if provenance.level else "missing"
        out.append(f"{label}: provenance {got}; expected one of {', '.join(PROVENANCES)}")
    if needs_source and not provenance.source.strip():
        out.append(f"{label}: source missing (say where the entry comes from)")
    both = set(provenance.confirmed_fields) & set(provenance.inferred_fields)
    if both:
        out.append(f"{label}: fields both confirmed and inferred: {sorted(both)}")


def _check_provenance(board: Board, out: list[str]) -> None:
    for key, provenance in board.sections:
        _provenance(f"[{key}]", provenance, out, needs_source=False)
    for river in board.rivers:
        _provenance(f"river {river.id}", river.provenance, out)
    for area in board.areas:
        _provenance(f"area {area.id}", area.provenance, out)
    _provenance("[reaction_results]", board.reaction_results.provenance, out)
    for empire in board.empires:
        _provenance(f"empire {empire.id}", empire.provenance, out)
    for table in board.tables:
        _provenance(f"[{table.key}]", table.provenance, out)
    _provenance("[turn_track]", board.turn_track.provenance, out)
    for box in board.turn_track.turns:
        # A box is a row of the track: its source is the track's.
        _provenance(f"[turn_track] year {box.year}", box.provenance, out, needs_source=False)
    for value in board.start_values:
        _provenance(f"start_value {value.key}", value.provenance, out)
    _provenance("[discovery]", board.discovery.provenance, out)
    for route in board.route_checks:
        _provenance(f"route_check {route.id}", route.provenance, out)
    for note in board.link_notes:
        _provenance(f"link_note {'-'.join(note.between)}", note.provenance, out)


# -- areas --------------------------------------------------------------------------------------------------


def _repeats(label: str, ids: list[str], out: list[str]) -> None:
    for ident, count in sorted(Counter(ids).items()):
        if count > 1:
            out.append(f"{label} id {ident!r} used {count} times")


def _check_area(board: Board, area: Area, river_ids: set[str], out: list[str]) -> None:
    at = f"area {area.id}"
    if not _SNAKE.match(area.id):
        out.append(f"{at}: id is not snake_case")
    if not area.name or not area.name_en:
        out.append(f"{at}: name and name_en are needed")
    if area.kind not in KINDS:
        out.append(f"{at}: kind {area.kind!r} is not one of {', '.join(KINDS)}")
    if area.terrain not in TERRAINS:
        out.append(f"{at}: terrain {area.terrain!r} is not one of {', '.join(TERRAINS)}")
    if area.kind == SEA and area.terrain != "sea":
        out.append(f"{at}: a sea area has terrain sea, not {area.terrain}")
    if area.kind not in (SEA, VIKING_KINGDOM) and area.terrain != "land":
        out.append(f"{at}: kind {area.kind} has terrain land, not {area.terrain}")
    if area.terrain == "land_and_sea" and area.kind != VIKING_KINGDOM:
        out.append(f"{at}: only Denmark, a Viking kingdom, is land and sea in one area")
    if area.kind == UNDISCOVERED and not area.undiscovered:
        out.append(f"{at}: kind undiscovered but undiscovered is not true")
    if area.undiscovered and area.kind not in (UNDISCOVERED, SEA):
        out.append(f"{at}: only the unknown lands and their seas are undiscovered")
    for field, value in (("danger", area.danger), ("trade", area.trade), ("shields", area.shields)):
        if value < 0:
            out.append(f"{at}: {field} {value} is negative")
    if area.terrain == "sea":
        if area.trade or area.shields:
            out.append(f"{at}: a sea has no coins or shields")
        if area.strength:
            out.append(f"{at}: a sea has no army strength")
        if area.rivers:
            out.append(f"{at}: a sea lies on no river")
    elif area.kind == VIKING_KINGDOM:
        if area.shields:
            out.append(f"{at}: a Viking kingdom has no armies of its own")
        if area.strength:
            out.append(f"{at}: a Viking kingdom is never fought and carries no strength")
    else:
        if area.strength not in (2, 3, 5):
            out.append(f"{at}: strength {area.strength} is not 2, 3 or 5: one strength per area (VA-64)")
        elif area.kind in (EMPIRE_CORE, PROVINCE) and area.strength != 5:
            out.append(f"{at}: an empire's area has strength 5 (VA-64), not {area.strength}")
        elif area.kind not in (EMPIRE_CORE, PROVINCE) and area.strength == 5:
            out.append(f"{at}: strength 5 belongs to empires only (VA-64), and this area is {area.kind}")
        if area.trade < 1:
            out.append(f"{at}: a land area needs at least one coin (conquest needs a trading camp per coin)")
    if area.kind in (EMPIRE_CORE, PROVINCE):
        if not board.has_empire(area.empire):
            out.append(f"{at}: kind {area.kind} but empire {area.empire!r} is not an [[empire]] id")
    elif area.empire:
        out.append(f"{at}: kind {area.kind} names empire {area.empire!r}; only cores and provinces belong to one")
    if area.kind == EMPIRE_CORE and not (area.no_war_fleets and area.no_camps):
        out.append(f"{at}: an empire core admits no war fleet and no camp (VA-45): needs no_war_fleets and no_camps")
    if area.no_war_fleets and area.kind != EMPIRE_CORE:
        out.append(f"{at}: only empire cores bar war fleets (VA-45)")
    if area.kind == VIKING_KINGDOM:
        if not area.no_camps:
            out.append(f"{at}: a Viking kingdom admits no camps (VA-45): needs no_camps = true")
        if area.kingdom != "denmark" and not area.no_foreign_fleets:
            out.append(f"{at}: no other kingdom's fleet enters a Viking kingdom but Denmark (rule text)")
    elif area.kingdom:
        out.append(f"{at}: only a Viking kingdom names a kingdom")
    for river in area.rivers:
        if river not in river_ids:
            out.append(f"{at}: river {river!r} is not a [[river]] id")
    if area.opened_by and not (area.kind == SEA and area.undiscovered):
        out.append(f"{at}: only undiscovered seas carry opened_by")


def _check_areas(board: Board, out: list[str]) -> None:
    if not board.areas:
        out.append("[[area]]: the board has no areas")
        return
    if len(board.areas) > MAX_AREAS:
        out.append(f"[[area]]: {len(board.areas)} areas; the fixed action space has room for {MAX_AREAS}")
    _repeats("area", [a.id for a in board.areas], out)
    _repeats("river", [r.id for r in board.rivers], out)
    _repeats("empire", [e.id for e in board.empires], out)
    _repeats("route_check", [r.id for r in board.route_checks], out)
    _repeats("start_value", [s.key for s in board.start_values], out)
    river_ids = {r.id for r in board.rivers}
    for area in board.areas:
        _check_area(board, area, river_ids, out)
    for name in NAMED_BY_THE_TEXT:
        if not board.has_area(name):
            out.append(f"area {name}: missing, and the rule text names it")
    if board.has_area("khorasan"):
        khorasan = board.area("khorasan")
        if khorasan.kind != PROVINCE or khorasan.trade <= khorasan.trade_after_mines_dry or khorasan.trade <= 2:
            out.append("area khorasan: a province whose trade is above 2, which GRUVORNA SINAR lowers (VA-65)")
    kingdoms = sorted(a.kingdom for a in board.areas if a.kind == VIKING_KINGDOM)
    if kingdoms != ["denmark", "norway", "sweden"]:
        out.append(f"[[area]]: the Viking kingdoms are Denmark, Norway and Sweden, not {kingdoms}")


# -- links --------------------------------------------------------------------------------------------------


def _check_links(board: Board, out: list[str]) -> bool:
    """Links name known areas once, never the area itself, and appear on both areas; False if any link is broken."""
    whole = True
    for area in board.areas:
        for relation in RELATIONS:
            targets = area.links(relation)
            for target, count in sorted(Counter(targets).items()):
                if count > 1:
                    out.append(f"area {area.id}: {relation} lists {target!r} {count} times")
            for target in targets:
                if target == area.id:
                    out.append(f"area {area.id}: {relation} links the area to itself")
                elif not board.has_area(target):
                    out.append(f"area {area.id}: {relation} names unknown area {target!r}")
                    whole = False
                elif area.id not in board.area(target).links(relation):
                    out.append(
                        f"area {area.id}: {relation} lists {target} but area {target} does not list {area.id} "
                        "(adjacency must be symmetric)"
                    )
                    whole = False
    if not whole:
        return False
    for area in board.areas:
        for target in area.sea_links:
            if area.terrain != "sea" and board.area(target).terrain != "sea":
                out.append(f"area {area.id}: sea_links to {target} joins no sea")
        for target in area.land_borders:
            if "sea" in (area.terrain, board.area(target).terrain):
                out.append(f"area {area.id}: land_borders to {target} involves a sea")
        for target in area.river_links:
            other = board.area(target)
            if area.terrain == "sea" and other.terrain == "sea":
                out.append(f"area {area.id}: river_links to {target} joins two seas")
            elif other.terrain != "sea" and area.terrain != "sea" and not set(area.rivers) & set(other.rivers):
                out.append(f"area {area.id}: river_links to {target}, but the two share no river")
            elif other.terrain == "sea" and not _mouths(board, area, target):
                out.append(f"area {area.id}: river_links to sea {target}, but no river of {area.id} ends there")
        if not area.sea_links and not area.river_links:
            out.append(f"area {area.id}: no sea or river link, so no fleet can ever reach it")
    for river in board.rivers:
        on = sorted(a.id for a in board.areas if river.id in a.rivers)
        if not on:
            out.append(f"river {river.id}: no area lies on it")
            continue
        if river.mouth and (not board.has_area(river.mouth) or board.area(river.mouth).terrain != "sea"):
            out.append(f"river {river.id}: mouth {river.mouth!r} is not a sea area")
        seen, todo = {on[0]}, [on[0]]
        while todo:
            for nxt in board.area(todo.pop()).river_links:
                if nxt in on and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if seen != set(on):
            out.append(f"river {river.id}: areas {sorted(set(on) - seen)} are not joined to {on[0]} along it")
    for note in board.link_notes:
        label = f"link_note {'-'.join(note.between)}"
        if note.relation not in RELATIONS or len(note.between) != 2:
            out.append(f"{label}: needs a relation ({', '.join(RELATIONS)}) and two areas")
        elif not board.has_area(note.between[0]) or note.between[1] not in board.area(note.between[0]).links(
            note.relation
        ):
            out.append(f"{label}: no such {note.relation} link")
    return True


def _mouths(board: Board, land: Area, sea: str) -> list[str]:
    rivers = {r.id: r for r in board.rivers}
    return [r for r in land.rivers if r in rivers and rivers[r].mouth == sea]


# -- movement -----------------------------------------------------------------------------------------------


class FleetGraph:
    """The board as fleets travel it (6.2; VA-45, VA-46, VA-48): by sea and river, never across land borders.

    A fleet that entered a land area from a sea leaves it by that sea or along a river (Denmark, land and sea in one
    area, excepted); no fleet enters another Viking kingdom but Denmark; war fleets never enter an empire core;
    undiscovered areas are closed unless opened. Used by the validator's reachability and route checks.
    """

    def __init__(self, board: Board) -> None:
        self.board = board

    def can_enter(self, area_id: str, fleet: str, home: str, opened: frozenset[str] | None) -> bool:
        """Whether a fleet of `home` may enter; `opened` None means every undiscovered area is open."""
        area = self.board.area(area_id)
        if area.undiscovered and opened is not None and area_id not in opened:
            return False
        if area.kind == VIKING_KINGDOM:
            return area_id == home or (area.passable and not area.no_foreign_fleets)
        return not (fleet == WAR and area.no_war_fleets)

    def moves(
        self, area_id: str, via: str, fleet: str, home: str, opened: frozenset[str] | None
    ) -> list[tuple[str, str, str]]:
        """(next area, relation, the sea it is entered from or "") for each move from `area_id` entered via `via`."""
        area = self.board.area(area_id)
        if area.terrain == "land" and via:
            options = [(via, SEA_LINKS)] + [(n, RIVER_LINKS) for n in sorted(area.river_links)]
        else:
            options = [(n, SEA_LINKS) for n in sorted(area.sea_links)]
            options += [(n, RIVER_LINKS) for n in sorted(area.river_links)]
        found = []
        for target, relation in options:
            if self.can_enter(target, fleet, home, opened):
                entered_from = area_id if relation == SEA_LINKS and self.board.area(target).terrain == "land" else ""
                found.append((target, relation, entered_from))
        return found

    def reachable(self, home: str, fleet: str, opened: frozenset[str] | None) -> set[str]:
        """Every area a fleet of this type from `home` can reach."""
        start = (home, "")
        seen = {start}
        todo = deque([start])
        areas = {home}
        while todo:
            area_id, via = todo.popleft()
            for target, _relation, entered_from in self.moves(area_id, via, fleet, home, opened):
                if (target, entered_from) not in seen:
                    seen.add((target, entered_from))
                    areas.add(target)
                    todo.append((target, entered_from))
        return areas

    def cheapest(self, home: str, targets: set[str], fleet: str, river: str) -> tuple[int, list[str]] | None:
        """The least total danger (start not counted) from `home` to a target, along `river` if named; with path."""
        start = (home, "", not river)
        dist = {start: 0}
        back: dict[tuple[str, str, bool], tuple[str, str, bool]] = {}
        heap = [(0, 0, start)]
        tie = 0
        closed = frozenset[str]()
        while heap:
            danger, _tie, state = heapq.heappop(heap)
            if danger != dist.get(state):
                continue
            area_id, via, done = state
            if area_id in targets and done and area_id != home:
                path = [area_id]
                while state in back:
                    state = back[state]
                    path.append(state[0])
                return danger, path[::-1]
            for target, relation, entered_from in self.moves(area_id, via, fleet, home, closed):
                along = done or (relation == RIVER_LINKS and river in self._rivers_between(area_id, target))
                nxt = (target, entered_from, along)
                cost = danger + self.board.area(target).danger
                if cost < dist.get(nxt, 1 << 30):
                    dist[nxt] = cost
                    back[nxt] = state
                    tie += 1
                    heapq.heappush(heap, (cost, tie, nxt))
        return None

    def _rivers_between(self, a: str, b: str) -> set[str]:
        first, second = self.board.area(a), self.board.area(b)
        if first.terrain == "sea":
            first, second = second, first
        if second.terrain == "sea":
            return set(_mouths(self.board, first, second.id))
        return set(first.rivers) & set(second.rivers)


def _check_reachability(board: Board, graph: FleetGraph, out: list[str]) -> None:
    homes = [a.id for a in board.areas if a.kind == VIKING_KINGDOM]
    for home in homes:
        for opened in (frozenset[str](), None):
            for fleet in _FLEETS:
                got = graph.reachable(home, fleet, opened)
                need = set()
                for area in board.areas:
                    if area.id == home or (area.undiscovered and opened is not None):
                        continue
                    if area.kind == VIKING_KINGDOM and (area.no_foreign_fleets or not area.passable):
                        continue
                    if fleet == WAR and area.no_war_fleets:
                        continue
                    need.add(area.id)
                tag = "with every land discovered" if opened is None else "before any discovery"
                for missing in sorted(need - got):
                    out.append(f"area {missing}: unreachable for {fleet} fleets from {home} {tag}")
    lands = [a.id for a in board.areas if a.kind == UNDISCOVERED]
    for land in lands:
        opened = frozenset({land} | {a.id for a in board.areas if land in a.opened_by})
        for home in homes:
            if land not in graph.reachable(home, TRADING, opened):
                out.append(f"area {land}: once discovered, unreachable from {home} through the seas it opens")


def _check_discovery(board: Board, out: list[str]) -> None:
    lands = sorted(a.id for a in board.areas if a.kind == UNDISCOVERED)
    if sorted(board.discovery.lands) != lands:
        out.append(f"[discovery]: lands {sorted(board.discovery.lands)} differ from the undiscovered areas {lands}")
    if board.has_area("island") and not board.area("island").undiscovered:
        out.append("area island: Iceland is undiscovered at the start (rule text, 'Undiscovered land areas')")
    if board.discovery.order and sorted(board.discovery.order) != lands:
        out.append("[discovery]: an order, when given, lists every undiscovered land once")
    for area in board.areas:
        if area.kind == SEA and area.undiscovered:
            if not area.opened_by:
                out.append(f"area {area.id}: an undiscovered sea needs opened_by (the lands that open it, VA-26)")
            for land in area.opened_by:
                if land not in lands:
                    out.append(f"area {area.id}: opened_by names {land!r}, not an undiscovered land")
            coast = {n for n in area.sea_links if board.area(n).kind == UNDISCOVERED}
            if not coast <= set(area.opened_by):
                out.append(f"area {area.id}: its coastal lands {sorted(coast - set(area.opened_by))} do not open it")
    for land in lands:
        for relation in RELATIONS:
            for other in board.area(land).links(relation):
                if not board.area(other).undiscovered:
                    out.append(f"area {land}: undiscovered, yet it touches known area {other} by {relation}")


def _check_denmark(board: Board, graph: FleetGraph, out: list[str]) -> None:
    if not board.has_area("danavalde"):
        return  # reported with the areas the text names
    denmark = board.area("danavalde")
    if denmark.danger != 0:
        out.append(f"area danavalde: Denmark's danger is 0 (rule text; VA-66), not {denmark.danger}")
    if denmark.terrain != "land_and_sea":
        out.append("area danavalde: Denmark is one area of land and sea (rule text; VA-66)")
    if not denmark.passable or denmark.no_foreign_fleets:
        out.append("area danavalde: other kingdoms' fleets pass through Denmark's sea (VA-54, VA-70): needs passable")
        return
    north, baltic = denmark.north_sea_side, denmark.baltic_side
    if not north or not baltic:
        out.append("area danavalde: Denmark needs a north_sea_side and a baltic_side")
        return
    for sea in north + baltic:
        if sea not in denmark.sea_links or board.area(sea).terrain != "sea":
            out.append(f"area danavalde: side sea {sea!r} is not a sea linked to Denmark")
            return
    for home in [a.id for a in board.areas if a.kind == VIKING_KINGDOM and a.id != "danavalde"]:
        for fleet in _FLEETS:
            for here, there in ((north, baltic), (baltic, north)):
                for sea in here:
                    if "danavalde" not in {m[0] for m in graph.moves(sea, "", fleet, home, frozenset())}:
                        out.append(f"area danavalde: a {fleet} fleet of {home} in {sea} cannot enter Denmark")
                        continue
                    onward = {m[0] for m in graph.moves("danavalde", sea, fleet, home, frozenset())}
                    for target in there:
                        if target not in onward:
                            out.append(f"area danavalde: a {fleet} fleet of {home} cannot pass from {sea} to {target}")
    seen, todo = set(north), list(north)
    while todo:
        for nxt in board.area(todo.pop()).sea_links:
            if board.area(nxt).terrain == "sea" and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    if seen & set(baltic):
        out.append("area danavalde: the North Sea and the Baltic meet by sea without Denmark, so its ban means nothing")


# -- empires and tables --------------------------------------------------------------------------------------


def _check_empires(board: Board, out: list[str]) -> None:
    provinces_listed: Counter[str] = Counter()
    for empire in board.empires:
        at = f"empire {empire.id}"
        members = {a.id for a in board.areas if a.empire == empire.id}
        cores = {m for m in members if board.area(m).kind == EMPIRE_CORE}
        if cores != {empire.core}:
            out.append(f"{at}: core {empire.core!r} does not match its empire_core areas {sorted(cores)}")
        actual = {m for m in members if board.area(m).kind == PROVINCE}
        provinces_listed.update(empire.provinces)
        if set(empire.provinces) != actual:
            out.append(f"{at}: provinces {sorted(empire.provinces)} differ from its province areas {sorted(actual)}")
        if not empire.provinces:
            out.append(f"{at}: no provinces ('Most kingdoms have provinces'; every card names provinces)")
        if empire.card_army_strength != 5:
            out.append(f"{at}: armies a card sends have strength 5 (VA-25), not {empire.card_army_strength}")
        want = CHRISTIAN_BONUS if empire.id in CHRISTIAN_BONUS_EMPIRES else 0
        if empire.christian_bonus != want:
            out.append(f"{at}: christian_bonus must be {want} (rule text, 10. Christianisation)")
        # Provinces are "adjacent areas on the map in the same colour": joined to the core by land, within the empire.
        seen, todo = {empire.core}, [empire.core] if board.has_area(empire.core) else []
        while todo:
            for nxt in board.area(todo.pop()).land_borders:
                if nxt in members and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        for province in sorted(actual):
            area = board.area(province)
            if province in seen:
                if area.border_exception:
                    out.append(f"area {province}: touches {empire.id} by land yet carries a border_exception")
                continue
            shares_sea = any(set(area.sea_links) & set(board.area(m).sea_links) for m in members - {province})
            if not area.border_exception.strip():
                out.append(f"area {province}: a province of {empire.id} that does not touch its empire by land")
            elif not shares_sea:
                out.append(f"area {province}: a province of {empire.id} that touches it neither by land nor by sea")
        if empire.expansion_card:
            derived = set()
            for member in members:
                for nxt in board.area(member).land_borders:
                    other = board.area(nxt)
                    if other.empire != empire.id and other.kind not in (VIKING_KINGDOM, EMPIRE_CORE):
                        derived.add(nxt)
            if set(empire.expansion_targets) != derived:
                out.append(
                    f"{at}: expansion_targets {sorted(empire.expansion_targets)} differ from the areas bordering "
                    f"it {sorted(derived)} (VA-25)"
                )
    for province, count in sorted(provinces_listed.items()):
        if count > 1:
            out.append(f"area {province}: a province of {count} empires")
    for area in board.areas:
        if area.kind == PROVINCE and area.id not in provinces_listed:
            out.append(f"area {area.id}: a province no empire lists")


def highest_reaction_total(board: Board, empire_id: str) -> int:
    """The highest total a reaction roll can reach: 10, +1 per war camp an area can hold, + the Christian bonus."""
    empire = board.empire(empire_id)
    pool = [p for p in empire.provinces if board.has_area(p)] + [
        t for t in empire.expansion_targets if board.has_area(t)
    ]
    most_camps = max((board.area(p).shields for p in pool), default=0)
    return 10 + most_camps + empire.christian_bonus


def _check_reaction_table(board: Board, empire_id: str, out: list[str]) -> None:
    empire = board.empire(empire_id)
    at = f"empire {empire_id}: reaction table"
    need = highest_reaction_total(board, empire_id)
    top = empire.reaction_max_roll
    if top < need:
        out.append(f"{at}: reaction_max_roll {top} is below the highest reachable total {need} (phase 2; VA-29)")
    rolls = [row.roll for row in empire.reaction]
    gaps = sorted(set(range(1, top + 1)) - set(rolls))
    repeats = sorted(r for r, n in Counter(rolls).items() if n > 1)
    outside = sorted(r for r in rolls if not 1 <= r <= top)
    if gaps or repeats or outside:
        out.append(f"{at}: rows must cover 1..{top} once each (gaps {gaps}, repeats {repeats}, outside {outside})")
    results = [row.result for row in sorted(empire.reaction)]
    wrong = sorted({r for r in results if r not in REACTION_RESULTS})
    if wrong:
        out.append(f"{at}: results {wrong} are not krig, gald or fred")
        return
    ranks = [_RANK[r] for r in results]
    if ranks != sorted(ranks):
        out.append(f"{at}: not ordered Krig (low) -> Gäld -> Fred (high): every modifier is a bonus (VA-29)")
    if results and results[0] != KRIG:
        out.append(f"{at}: the lowest roll must be Krig (VA-29)")
    if len(results) > 10 and any(r != results[9] for r in results[10:]):
        out.append(f"{at}: totals above 10 read as the top row (VA-29)")
    if len(set(results)) < 3:
        out.append(f"{at}: lacks one of Krig, Gäld, Fred (rule text, phase 2)")


def _check_reaction_results(board: Board, out: list[str]) -> None:
    results = board.reaction_results
    if tuple(results.order_low_to_high) != REACTION_RESULTS or results.lowest != KRIG:
        out.append("[reaction_results]: the order from the lowest total is krig, gald, fred (VA-29)")


def _check_die_tables(board: Board, out: list[str]) -> None:
    for table in board.tables:
        rolls = [row.roll for row in table.rows]
        gaps = sorted(set(range(1, 11)) - set(rolls))
        repeats = sorted(r for r, n in Counter(rolls).items() if n > 1)
        outside = sorted(r for r in rolls if not 1 <= r <= 10)
        if gaps or repeats or outside:
            out.append(f"[{table.key}]: rows must cover the D10 1..10 once each (gaps {gaps}, repeats {repeats}, "
                       f"outside {outside})")  # fmt: skip
        for row in table.rows:
            if row.value < 1:
                out.append(f"[{table.key}]: roll {row.roll}: {table.value_field} must be at least 1")


def _check_turn_track(board: Board, out: list[str]) -> None:
    track = board.turn_track
    turns = track.turns
    if not turns:
        out.append("[turn_track]: no turns")
        return
    if track.first_year != 800 or turns[0].year != 800:
        out.append("[turn_track]: the Year marker starts at 800 (rule text, 'Game counters')")
    if track.years_per_turn != 25:
        out.append("[turn_track]: each turn is 25 years (rule text, 'Tables and information')")
    for index, box in enumerate(turns):
        at = f"[turn_track] year {box.year}"
        if box.turn != index + 1 or box.year != track.first_year + track.years_per_turn * index:
            out.append(f"{at}: box {index + 1} is turn {index + 1}, year {800 + 25 * index} (VA-03)")
        if not 0 <= box.chance <= 10:
            out.append(f"{at}: chance {box.chance} is not 0..10 tenths (VA-04)")
        elif box.year < track.christianisation_from and box.chance:
            out.append(f"{at}: no christianisation roll before {track.christianisation_from} (phase 10)")
        elif box.year >= track.christianisation_from and not box.chance:
            out.append(f"{at}: christianisation rolls start in {track.christianisation_from} (phase 10)")
    chances = [box.chance for box in turns]
    if chances != sorted(chances):
        out.append("[turn_track]: christianisation chances never fall from one year to the next (VA-04)")
    if turns[-1].year != track.last_year:
        out.append(f"[turn_track]: ends at {turns[-1].year}, not at last_year {track.last_year} (VA-05)")
    lasts = [box.year for box in turns if box.last]
    if lasts != [track.last_year]:
        out.append(f"[turn_track]: exactly the last year carries last = true (got {lasts}) (VA-05)")
    if str(track.last_year) not in track.last_year_options:
        out.append(f"[turn_track]: last_year_options {list(track.last_year_options)} lack the last year (VA-05)")


def _check_start(board: Board, out: list[str]) -> None:
    keys = {value.key for value in board.start_values}
    for key in START_KEYS:
        if key not in keys:
            out.append(f"start_value {key}: missing (VA-02)")
    for value in board.start_values:
        if isinstance(value.value, int) and value.value < 0:
            out.append(f"start_value {value.key}: {value.value} is negative")


def route_lines(board: Board) -> list[str]:
    """The cheapest route of each [[route_check]], one line each: from, fleet, danger, path (for people to read)."""
    graph = FleetGraph(board)
    lines = []
    for route in board.route_checks:
        for home in route.starts:
            for fleet in route.fleets:
                found = graph.cheapest(home, set(route.targets), fleet, route.via_river)
                shown = f"danger {found[0]:2d}: {' > '.join(found[1])}" if found else "no route"
                lines.append(f"route {route.id:20s} {home:9s} {fleet:7s} {shown}")
    return lines


def _check_routes(board: Board, graph: FleetGraph, out: list[str]) -> None:
    river_ids = {r.id for r in board.rivers}
    for route in board.route_checks:
        at = f"route_check {route.id}"
        unknown = [a for a in (*route.starts, *route.targets) if not board.has_area(a)]
        if unknown or not route.targets:
            out.append(f"{at}: unknown or no areas {unknown}")
            continue
        if route.via_river and route.via_river not in river_ids:
            out.append(f"{at}: via_river {route.via_river!r} is not a [[river]] id")
            continue
        if route.expect_danger and len(route.expect_danger) != 2:
            out.append(f"{at}: expect_danger is [least, most]")
            continue
        for home in route.starts:
            for fleet in route.fleets:
                if fleet not in _FLEETS:
                    out.append(f"{at}: fleet type {fleet!r} is not trading or war")
                    continue
                found = graph.cheapest(home, set(route.targets), fleet, route.via_river)
                if found is None:
                    out.append(f"{at}: no {fleet} fleet route from {home} to {route.label}")
                elif route.expect_danger and not route.expect_danger[0] <= found[0] <= route.expect_danger[1]:
                    out.append(f"{at}: {home} {fleet} danger {found[0]} outside {list(route.expect_danger)}")


# -- entry points -------------------------------------------------------------------------------------------


def problems(board: Board) -> list[str]:
    """Everything wrong with `board`, each line naming the area, empire or table at fault; [] when sound."""
    out: list[str] = []
    _check_provenance(board, out)
    _check_areas(board, out)
    unusable = [a.id for a in board.areas if a.kind not in KINDS or a.terrain not in TERRAINS]
    links_whole = _check_links(board, out)
    if not links_whole or unusable or not board.areas or len({a.id for a in board.areas}) != len(board.areas):
        # The graph checks need every link to name a known, usable area; the problems above say which does not.
        _check_tables_only(board, out)
        return out
    graph = FleetGraph(board)
    _check_reachability(board, graph, out)
    _check_discovery(board, out)
    _check_denmark(board, graph, out)
    _check_empires(board, out)
    _check_tables_only(board, out)
    _check_routes(board, graph, out)
    return out


def _check_tables_only(board: Board, out: list[str]) -> None:
    _check_reaction_results(board, out)
    for empire in board.empires:
        for name in (empire.core, *empire.provinces, *empire.expansion_targets):
            if not board.has_area(name):
                out.append(f"empire {empire.id}: names unknown area {name!r}")
        _check_reaction_table(board, empire.id, out)
    _check_die_tables(board, out)
    _check_turn_track(board, out)
    _check_start(board, out)


def check_file(path: str | Path | None = None) -> list[str]:
    """The problems of the board file at `path` (the package's by default); a file that is no board gives one line."""
    try:
        board = load_board(path)
    except BoardError as error:
        return [str(error)]
    return problems(board)


def checked_board(path: str | Path | None = None) -> Board:
    """The board at `path` (the package's by default), proven sound; `BoardError` listing every problem otherwise."""
    board = load_board(path)
    found = problems(board)
    if found:
        listed = "\n  ".join(found)
        raise BoardError(f"{board.source}: {len(found)} problem(s):\n  {listed}")
    return board


def main(argv: list[str]) -> int:
    """Check a board file (the package's without an argument): print each problem, exit 1 if any, else 0."""
    path = argv[1] if len(argv) > 1 else None
    found = check_file(path)
    for line in found:
        print(f"FAIL: {line}")
    if found:
        print(f"{len(found)} problem(s)")
        return 1
    board = load_board(path)
    for line in route_lines(board):
        print(f"info: {line}")
    print(f"OK: {board.source}: {len(board.areas)} areas, {len(board.empires)} empires, all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
