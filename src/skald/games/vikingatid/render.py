"""The Vikingatid table as text a person can play from at a terminal, optionally with Rich colour markup.

`render_text` fills a terminal of 100 columns (about 30 lines in a game under way); `render_compact` says the same
in 80 columns. Both read only what the viewer may see: `state.observation(seat)` and `state.table` (public); the
viewer's own hand comes through the observation, and a spectator sees none. Readable without colour: every seat is
written "seat N" (or its name with the number), and colour only paints it. The seat colours are the six of a
palette told apart under the common kinds of colour blindness, so colour helps and never carries meaning alone.

What it shows, top to bottom: the turn, year, phase and step and who acts; each seat's kingdom or home country,
silver, victory points and faith; each Viking kingdom's king, treasury, War / Peace? marker and King's Peaces; the
land areas that hold anything, grouped by empire (camps per seat and type against the area's cap, trade stop,
plundered, conquered by, discovered by); the ships standing; the fleets under way with their danger count and
moves; the journey under way (initiative, a fight, an entry asked for) and what the current phase has done so far
(reactions, elections, silver, taxes, scorings, christianisation).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from skald.games.vikingatid import conquest
from skald.games.vikingatid.actions import CARD_IDS, KINGDOMS, SHIP_TYPES
from skald.games.vikingatid.position import KINGDOM_PAIRS
from skald.games.vikingatid.steps import (
    BUYING_SHIPS,
    CHRISTIANISATION,
    ELECTIONS,
    JOURNEYS,
    PHASE_NAMES,
    REACTIONS,
    SILVER,
    STEPS,
    TAXATION,
    VICTORY_POINTS,
)

if TYPE_CHECKING:
    from skald.games.vikingatid.position import Position
    from skald.games.vikingatid.situation import Situation

#: One colour per seat, told apart under the common colour-vision deficiencies (blue, orange, bluish green,
#: vermilion, reddish purple, sky blue); the seat number is always written too.
SEAT_COLOURS: Final = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")
#: The width each form is written for.
FULL_WIDTH: Final = 100
COMPACT_WIDTH: Final = 80
#: The most characters of a seat's name the table writes (a longer one is cut, so the columns hold).
NAME_WIDTH: Final = 16
#: Nobody (a king counter on the map, an undiscovered land).
NOBODY: Final = -1
#: How the markers read on the table (table.WAR_STATES).
MARKER_WORDS: Final = {"": "", "war": "War", "peace?": "Peace?"}
#: Letters for the ship and camp types in the compact form.
TYPE_LETTERS: Final = {"trading": "T", "war": "W"}
#: A Rich markup tag (not an escaped bracket, nor a bracket before a digit or a space).
_TAG: Final = re.compile(r"(?<!\\)\[[a-zA-Z#/@][^\[\]]*\]")
#: How many of the phase's latest journey events the table lists.
EVENTS_SHOWN: Final = 4
#: How many of the turn's latest cards shown (played or discarded) the table lists: each may take two lines.
CARDS_SHOWN: Final = 3
#: Journey events (`journeys.JourneyEvent.kind`) in words; {n} is the event's number. Unknown kinds show as they are.
EVENT_WORDS: Final = {
    "danger": "lost {n} to danger",
    "duty": "paid {n} duty",
    "war": "war roll {n}",
    "declared war": "declared war",
    "victory": "beat the armies ({n})",
    "trade": "traded for {n} silver",
    "plunder": "plundered {n} silver",
    "build trading": "built trading camps ({n})",
    "build war": "built war camps ({n})",
    "trading camps destroyed": "lost trading camps ({n})",
}
#: The groups of land areas, after the empires, in the order shown.
FREE_LANDS: Final = "Lands"
UNKNOWN_LANDS: Final = "Unknown lands"
HOMELANDS: Final = "Viking kingdoms"


class _Style:
    """How one rendering writes seats: colour or not, long ("seat 3" or "Ann (seat 3)") or short ("s3")."""

    def __init__(self, color: bool, compact: bool, names: list[str] | None) -> None:
        self.color = color
        self.compact = compact
        self.names = names

    def seat(self, seat: int) -> str:
        """A seat as the reader finds it: its number always, its name when the table has names."""
        if seat < 0:
            return "nobody"
        if self.compact:
            text = f"s{seat + 1}"
        elif self.names is not None and seat < len(self.names) and self.names[seat]:
            full = self.names[seat]
            shown = full if len(full) <= NAME_WIDTH else full[: NAME_WIDTH - 1].rstrip() + "…"
            name = _escape(shown, self.color)
            # A table may already number its bots ("random (seat 2)"): the number is then not written twice.
            text = name if f"seat {seat + 1}" in name.lower() else f"{name} (seat {seat + 1})"
        else:
            text = f"seat {seat + 1}"
        return self.paint(text, seat)

    def paint(self, text: str, seat: int) -> str:
        """`text` in the seat's colour (with colour on), unchanged otherwise."""
        if not self.color or not 0 <= seat < len(SEAT_COLOURS):
            return text
        return f"[{SEAT_COLOURS[seat]}]{text}[/]"

    def strong(self, text: str) -> str:
        """A heading or a marker that must catch the eye."""
        return f"[bold]{text}[/]" if self.color else text


def _escape(text: str, color: bool) -> str:
    """A name as Rich markup reads it literally (only with colour on: plain text is never parsed)."""
    return text.replace("[", "\\[") if color else text


def seat_colour(seat: int) -> str:
    """The seat's colour (a hex code Rich and SVG both read)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def kingdom_name(position: Position, kingdom: str) -> str:
    """A Viking kingdom by its homeland's name on the board (Danavalde, Norge, Svea Rike)."""
    for area in position.board.areas:
        if area.kind == "viking_kingdom" and area.kingdom == kingdom:
            return area.name
    return kingdom.capitalize()


def area_name(position: Position, area_id: str) -> str:
    """An area by the name the board prints ("" stays "")."""
    if not area_id or not position.board.has_area(area_id):
        return area_id
    return position.board.area(area_id).name


def conquered_by(position: Position, area_id: str) -> int:
    """The seat that has conquered an area now, or -1 (VA-60, read by `conquest.conqueror`)."""
    return conquest.conqueror(position, area_id)


def conquered_areas(position: Position, seat: int) -> list[str]:
    """The areas a seat has conquered, in board order."""
    return conquest.conquered_areas(position, seat)


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _visible(text: str) -> int:
    """The printed length of Rich markup: tags (a bracket then a letter, #, / or @, as Rich reads them) do not
    print, and an escaped bracket prints one character."""
    return len(_TAG.sub("", text).replace("\\[", "["))


def _pad(text: str, width: int) -> str:
    """Markup padded to a printed width."""
    return text + " " * max(0, width - _visible(text))


def _wrap(head: str, items: list[str], width: int, indent: int) -> list[str]:
    """`head` then `items` joined by " · ", wrapped at `width` printed columns, later lines indented."""
    lines: list[str] = []
    line = head
    first = True
    for item in items:
        sep = "" if _visible(line) <= indent or line.endswith(" ") else " · "
        if not first and _visible(line) + len(sep) + _visible(item) > width and _visible(line) > indent:
            lines.append(line.rstrip())
            line = " " * indent + item
        else:
            line += sep + item
        first = False
    lines.append(line.rstrip())
    return lines


def _fit(line: str, width: int) -> list[str]:
    """A line longer than `width` printed columns broken at spaces, the later parts indented; never inside a
    coloured span, so each line is whole markup."""
    if _visible(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip())]
    indent = " " * min(4, len(lead) + 2)
    lines: list[str] = []
    current = lead
    for word in _words(line.lstrip()):
        candidate = f"{current} {word}" if current.strip() else current + word
        if current.strip() and _visible(candidate) > width:
            lines.append(current.rstrip())
            current = indent + word
        else:
            current = candidate
    lines.append(current.rstrip())
    return lines


def _words(text: str) -> list[str]:
    """The words of markup, a span from its opening tag to its closing tag kept as one word."""
    words: list[str] = []
    depth = 0
    for word in text.split(" "):
        if depth > 0:
            words[-1] += " " + word
        else:
            words.append(word)
        for tag in _TAG.findall(word):
            depth += -1 if tag.startswith("[/") else 1
    return words


# -- the parts of the table ----------------------------------------------------------------------------------


def _header(state: Situation, obs: dict[str, Any], style: _Style) -> list[str]:
    """The turn, year, phase and step, and who acts now."""
    position = state.position
    step_id = state.step
    step = STEPS[step_id] if 0 <= step_id < len(STEPS) else None
    phase = int(obs.get("phase", position.phase))
    phase_name = str(obs.get("phase_name", PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else ""))
    step_name = step.name if step is not None else str(obs.get("step", ""))
    if style.compact:
        first = f"Vikingatid · turn {position.turn} ({position.year}) · {phase}. {phase_name}"
    else:
        first = f"Vikingatid · turn {position.turn}, year {position.year} · phase {phase}: {phase_name}"
    to_act = int(obs.get("to_act", state.current_player()))
    if to_act >= 0:
        who = f"{style.seat(to_act)} to act: {step_name}"
    elif step is not None and step.chance:
        who = f"dice: {step_name}"
    elif state.is_terminal():
        who = "game over"
    else:
        who = step_name
    if position.first_seat >= 0:
        who += f" · first seat {style.seat(position.first_seat)}"
    return [style.strong(first), who]


def _seat_home(position: Position, seat: int) -> str:
    """The seat's kingdom, or the home country he emigrated to, or homeless."""
    kingdom = position.kingdom_of(seat)
    name = kingdom_name(position, kingdom) if kingdom else "not chosen yet"
    if not position.emigrated[seat]:
        return name
    if position.home[seat]:
        return f"home {area_name(position, position.home[seat])}"
    return "homeless emigrant"


def _type_counts(row: list[int], num_areas: int) -> dict[str, int]:
    """A seat's ships or camps summed by type over the whole map."""
    counts = {kind: 0 for kind in SHIP_TYPES}
    for index, n in enumerate(row):
        counts[SHIP_TYPES[index // num_areas]] += n
    return counts


def _seats(state: Situation, style: _Style) -> list[str]:
    """One line per seat: kingdom or home, silver, VP, faith, ships standing (and under way), camps, thrones."""
    position = state.position
    width = 3 + max(_visible(style.seat(s)) for s in range(position.num_players))
    home_width = 17 if style.compact else 20
    faith_width = 8 if style.compact else 10
    lines = [
        style.strong(
            _pad("seat" if style.compact else "Seat", width)
            + f"{'kingdom / home':<{home_width}}silver  VP {'faith':<{faith_width}}ships  camps"
        )
    ]
    for s in range(position.num_players):
        faith = ("Christ." if style.compact else "Christian") if position.christian[s] else "pagan"
        ships = _type_counts(position.ships[s], position.num_areas)
        camps = _type_counts(position.controlled_row(s), position.num_areas)  # his own: not separatists' (VA-22)
        line = (
            _pad(" " + style.seat(s), width)
            + f"{_seat_home(position, s)[: home_width - 1]:<{home_width}}{position.silver[s]:>6}{position.vp[s]:>4} "
            f"{faith:<{faith_width}}{ships['trading']}T {ships['war']}W  {camps['trading']}T {camps['war']}W"
        )
        moving = sum(f.size for f in position.fleets if f.owner == s)
        if moving:
            line += f" +{moving} at sea"
        crown = [kingdom_name(position, k) for i, k in enumerate(KINGDOMS) if position.king[i] == s]
        if crown:
            line += (" king " if style.compact else " · king of ") + ", ".join(crown)
        lines.append(line)
    return lines


def _kingdoms(state: Situation, style: _Style) -> list[str]:
    """Each Viking kingdom's king, treasury and marker; the pairs at war (per_pair) and the King's Peaces."""
    position = state.position
    items = []
    for i, kingdom in enumerate(KINGDOMS):
        king = position.king[i]
        marker = MARKER_WORDS.get(position.war[i], position.war[i])
        who = f"king {style.seat(king)}" if king >= 0 else "no king"
        text = f"{kingdom_name(position, kingdom)}: {who}, treasury {position.treasury[i]}"
        if marker:
            text += ", " + style.strong(marker)
        items.append(text)
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    # No heading: "Danavalde: king …, treasury 5" says what it is, and the three kingdoms then fit on one line.
    lines = _wrap("", items, width, 2)
    pairs = []
    for i, (a, b) in enumerate(KINGDOM_PAIRS):
        names = f"{kingdom_name(position, KINGDOMS[a])}–{kingdom_name(position, KINGDOMS[b])}"
        if position.kings_peace[i]:
            pairs.append(f"{names} King's Peace")
        state_word = MARKER_WORDS.get(position.pair_war[i], position.pair_war[i])
        if state_word:
            pairs.append(f"{names} {state_word}")
    if pairs:
        lines.extend(_wrap("  ", pairs, width, 2))
    return lines


def _area_group(position: Position, slot: int) -> str:
    """The heading an area is listed under: its empire now (cards move provinces), else the kind of land."""
    area = position.board.areas[slot]
    empire = position.empire_of[slot]
    if empire and position.board.has_empire(empire):
        return position.board.empire(empire).name
    if area.kind == "viking_kingdom":
        return HOMELANDS
    if area.undiscovered:
        return UNKNOWN_LANDS
    return FREE_LANDS


def _camps_text(position: Position, area_id: str, kind: str, cap: int, style: _Style) -> str:
    """An area's camps of one type: the total against the cap ("2/3 trading") and each holder's share; in a
    separatist area no one's ("separatists": "not under control of any player", VA-22)."""
    holders = [(s, position.camps_at(s, kind, area_id)) for s in range(position.num_players)]
    holders = [(s, n) for s, n in holders if n]
    total = sum(n for _, n in holders)
    if not holders:
        return ""
    if position.separatists[position.slot(area_id)]:
        if style.compact:
            return f"{TYPE_LETTERS[kind]}{total}/{cap} sep."
        return f"{total}/{cap} {kind} (separatists)"
    if style.compact:
        who = " ".join(f"{style.seat(s)}×{n}" if n > 1 else style.seat(s) for s, n in holders)
        return f"{TYPE_LETTERS[kind]}{total}/{cap} {who}"
    who = ", ".join(f"{style.seat(s)} ×{n}" for s, n in holders)
    return f"{total}/{cap} {kind} ({who})"


def _area_items(position: Position, slot: int, style: _Style) -> list[str]:
    """What an area holds, as short items (camps, markers, conquest, discovery, empire change); empty if nothing."""
    area = position.board.areas[slot]
    area_id = area.id
    items = []
    trading = _camps_text(position, area_id, "trading", position.trade_value(area_id), style)
    war = _camps_text(position, area_id, "war", area.shields, style)
    items += [text for text in (trading, war) if text]
    if position.trade_stop[slot]:
        items.append("trade stop")
    if position.plundered[slot]:
        items.append(style.strong("plundered"))
    winner = conquered_by(position, area_id) if items else NOBODY
    if winner >= 0:
        items.append(("conq. " if style.compact else "conquered by ") + style.seat(winner))
    found = position.discovered_by[slot]
    if found >= 0:
        turn = position.discovered_turn[slot]
        items.append(("disc. " if style.compact else "discovered by ") + style.seat(found) + f" (turn {turn})")
    if position.empire_of[slot] != area.empire:
        now = position.empire_of[slot]
        items.append(f"now {position.board.empire(now).name}" if now and position.board.has_empire(now) else "free now")
    return items


def _areas(state: Situation, style: _Style) -> list[str]:
    """The land areas that hold anything, grouped by empire, each with its coins and shields."""
    position = state.position
    groups: dict[str, list[str]] = {}
    for slot, area in enumerate(position.board.areas):
        items = _area_items(position, slot, style)
        if not items:
            continue
        value = (
            f"{position.trade_value(area.id)}c{area.shields}s"
            if style.compact
            else (f"{_plural(position.trade_value(area.id), 'coin')}, {area.shields}×{area.strength}")
        )
        joined = " ".join(items) if style.compact else ", ".join(items)
        groups.setdefault(_area_group(position, slot), []).append(f"{area.name} ({value}): {joined}")
    if not groups:
        return ["Areas: no camps or markers on the map yet"]
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    lines = [style.strong("Areas") + ("" if style.compact else " (camps held/cap; coins, shields×army strength)")]
    for heading, entries in groups.items():
        lines.extend(_wrap(f" {heading}: ", entries, width, 3))
    return lines


def _standing(state: Situation, style: _Style) -> list[str]:
    """The ships standing, per area: whose, how many of each type."""
    position = state.position
    entries = []
    for slot, area_id in enumerate(position.area_ids):
        parts = []
        for s in range(position.num_players):
            counts = [(kind, position.ships_at(s, kind, area_id)) for kind in SHIP_TYPES]
            counts = [(kind, n) for kind, n in counts if n]
            if not counts:
                continue
            if style.compact:
                parts.append(style.seat(s) + " " + "".join(f"{n}{TYPE_LETTERS[k]}" for k, n in counts))
            else:
                parts.append(style.seat(s) + " " + " ".join(f"{n}{TYPE_LETTERS[k]}" for k, n in counts))
        if parts:
            entries.append(f"{position.board.areas[slot].name}: {', '.join(parts)}")
    if not entries:
        return []
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    return _wrap("Ships standing (T trading, W war): " if not style.compact else "Ships: ", entries, width, 2)


def _journey(obs: dict[str, Any]) -> dict[str, Any]:
    """Phase 6's details from the observation, or {} before they exist."""
    journey = obs.get("journey")
    return journey if isinstance(journey, dict) else {}


def _fleets(state: Situation, obs: dict[str, Any], style: _Style) -> list[str]:
    """Each fleet under way: owner, type, size, area, danger counted since its last break, moves; the one on its
    journey marked."""
    position = state.position
    active = _journey(obs).get("fleet", NOBODY)
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    lines = []
    for index, fleet in enumerate(position.fleets):
        mark = ">" if index == active else " "
        items = [
            f"{fleet.kind} fleet of {fleet.size} in {area_name(position, fleet.area)}",
            f"danger {fleet.danger}" + ("" if style.compact else " (a roll at 10)"),
            _plural(fleet.moves, "move"),
        ]
        if fleet.entered_from and not style.compact:
            items.append(f"from {area_name(position, fleet.entered_from)}")
        lines.extend(_wrap(f"{mark}{style.seat(fleet.owner)}: ", items, width, 4))
    if lines:
        lines.insert(0, style.strong("Under way:" if style.compact else "Fleets under way (> on its journey):"))
    return lines


def _seats_list(seats: Any, style: _Style) -> str:
    return ", ".join(style.seat(int(s)) for s in seats) if isinstance(seats, list) and seats else "none"


def _journey_lines(state: Situation, obs: dict[str, Any], style: _Style) -> list[str]:
    """Initiative rolls and holder, the fight under way, the entry asked for (phase 6)."""
    journey = _journey(obs)
    if not journey or int(obs.get("phase", state.position.phase)) != JOURNEYS:
        return []
    position = state.position
    lines = []
    initiative = journey.get("initiative")
    if isinstance(initiative, dict):
        rolls = initiative.get("rolls") or []
        shown = [f"{style.seat(s)}: {r}" for s, r in enumerate(rolls) if r is not None]
        holder = int(initiative.get("holder", NOBODY))
        text = "Initiative: " + (", ".join(shown) if shown else "no rolls yet")
        if holder >= 0:
            text += f"; held by {style.seat(holder)}"
        passed = initiative.get("passed") or []
        if passed:
            text += f"; passed: {_seats_list(passed, style)}"
        lines.append(text)
    fight = journey.get("fight")
    if isinstance(fight, dict):
        where = area_name(position, str(fight.get("area", "")))
        size = fight.get("fleet_size", "?")
        if fight.get("against") == "defenders":
            defenders = [
                f"{style.seat(int(d.get('seat', NOBODY)))} {d.get('ships', 0)} ships, {d.get('camps', 0)} camps"
                for d in fight.get("defenders") or []
                if isinstance(d, dict)
            ]
            lines.append(f"Fight in {where}: fleet of {size} against " + ("; ".join(defenders) or "no defenders"))
        else:
            lines.append(
                f"Fight in {where}: fleet of {size} against {_plural(int(fight.get('armies', 0)), 'army')} of "
                f"strength {fight.get('strength', '?')}"
            )
    events = journey.get("events")
    if isinstance(events, list) and events:
        width = COMPACT_WIDTH if style.compact else FULL_WIDTH
        shown_events = [_event_text(e, position, style) for e in events[-EVENTS_SHOWN:] if isinstance(e, dict)]
        more = len(events) - EVENTS_SHOWN
        lines += _wrap("This phase: " + (f"({more} earlier) " if more > 0 else ""), shown_events, width, 2)
    entry = journey.get("entry")
    if isinstance(entry, dict):
        where = area_name(position, str(entry.get("area", "")))
        text = f"Entry into {where}: "
        text += style.strong("forbidden") if entry.get("forbidden") else f"duty {entry.get('duty', 0)} silver so far"
        text += f"; answered: {_seats_list(entry.get('asked'), style)}"
        lines.append(text)
    return lines


def _event_text(event: dict[str, Any], position: Position, style: _Style) -> str:
    """One event of the journeys ({seat, kind, area, n}) in a few words: "seat 2 danger Nordsjön 3"."""
    seat = event.get("seat", NOBODY)
    who = style.seat(seat) if isinstance(seat, int) and seat >= 0 else ""
    kind = str(event.get("kind", ""))
    words = EVENT_WORDS.get(kind, kind + " {n}")
    text = words.format(n=event.get("n", ""))
    where = area_name(position, str(event.get("area", "")))
    return " ".join(part for part in (who, text, f"in {where}" if where else "") if part)


def _record_line(record: Any, position: Position, style: _Style) -> str:
    """One line of a phase's results whose shape this module does not know in advance: its fields in order, seats
    and areas named."""
    if not isinstance(record, dict):
        return str(record)
    parts = []
    for key, value in record.items():
        if key == "seat" and isinstance(value, int):
            parts.append(style.seat(value))
        elif key == "kingdom" and isinstance(value, str):
            parts.append(kingdom_name(position, value) if value else "emigrant")
        elif key == "converted" and isinstance(value, list):
            if value:
                parts.append("Christian now: " + ", ".join(style.seat(int(v)) for v in value))
        elif isinstance(value, list) and not value:
            continue
        elif isinstance(value, str) and position.board.has_area(value):
            parts.append(f"{key} {area_name(position, value)}")
        elif isinstance(value, bool):
            parts.append(key if value else f"no {key}")
        elif isinstance(value, (int, str)):
            parts.append(f"{key} {value}")
        elif isinstance(value, list) and all(isinstance(v, (int, str)) for v in value):
            parts.append(f"{key} {'/'.join(str(v) for v in value)}")
    return ", ".join(parts).replace("_", " ")


def _records(title: str, records: Any, position: Position, style: _Style) -> list[str]:
    """A titled list of records (one line each), or nothing."""
    if not isinstance(records, list) or not records:
        if isinstance(records, dict) and records:
            records = [records]
        else:
            return []
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    return _wrap(f"{title}: ", [_record_line(r, position, style) for r in records], width, 2)


def _scorings(obs: dict[str, Any], position: Position, style: _Style) -> list[str]:
    """Victory-point lines in the observation (phase 9 and the end), if any."""
    lines = obs.get("scorings")
    return _score_lines(lines if isinstance(lines, list) else [], position, style)


def scoring_lines(position: Position, lines: list[Any], color: bool = False, compact: bool = False) -> list[str]:
    """Victory-point lines (`victory_points.ScoreLine` as dicts: seat, reason, subject, points; or reports holding
    such `lines`) as the table prints them: who scored what for which area, king or discovery."""
    return _score_lines(lines, position, _Style(color, compact, None))


def _score_lines(lines: list[Any], position: Position, style: _Style) -> list[str]:
    items: list[str] = []
    for line in lines:
        if not isinstance(line, dict):
            continue
        # A report of several lines ({"lines": [...]}, as `State.scorings()` gives) or a line itself.
        nested = line.get("lines")
        subs: list[Any] = nested if isinstance(nested, list) else [line]
        items.extend(_scoring_item(sub, position, style) for sub in subs if isinstance(sub, dict))
    if not items:
        return []
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    return _wrap("Victory points: ", items, width, 2)


def _scoring_item(line: dict[str, Any], position: Position, style: _Style) -> str:
    seat = int(line.get("seat", NOBODY))
    subject = str(line.get("subject", ""))
    if position.board.has_area(subject):
        subject = area_name(position, subject)
    elif subject in KINGDOMS:
        subject = kingdom_name(position, subject)
    reason = str(line.get("reason", line.get("text", "")))
    points = line.get("points", 0)
    what = " ".join(part for part in (reason, subject) if part)
    return f"{style.seat(seat)} {int(points):+d} {what}".rstrip()


def _phase_lines(state: Situation, obs: dict[str, Any], style: _Style) -> list[str]:
    """What the phase under way has done so far: reactions, the election, silver received."""
    position = state.position
    phase = int(obs.get("phase", position.phase))
    lines: list[str] = []
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    if REACTIONS <= phase <= BUYING_SHIPS:
        # This turn's reactions stay in view until the fleets sail: a player buying ships still wants to know.
        reactions = [
            f"{area_name(position, r['area'])} {style.seat(r['seat'])} {r['result']} ({r['total']})"
            + (f" +{r['silver']} silver" if r.get("silver") else "")
            for r in obs.get("reactions") or []
        ]
        if reactions:
            lines += _wrap("Reactions this turn: ", reactions, width, 2)
    if phase == ELECTIONS:
        lines += _election_lines(position, obs, style)
    if phase in (SILVER, BUYING_SHIPS):
        incomes = [
            f"{style.seat(i['seat'])} +{i['home'] + i['king'] + i['share']}"
            + (f" −{i['halved']} war" if i.get("halved") else "")
            for i in obs.get("silver") or []
        ]
        if incomes:
            lines += _wrap("Silver this turn: ", incomes, width, 2)
    # Taxes and christianisation stay in the observation until the next turn clears them; the table shows them
    # only while they are news (the aftermath lines said them as they happened), so the journeys keep the room.
    if TAXATION <= phase <= VICTORY_POINTS:
        lines += _records("Taxes", obs.get("taxes"), position, style)
    lines += _scorings(obs, position, style)
    if phase >= CHRISTIANISATION:
        lines += _records("Christianisation", obs.get("christianisation"), position, style)
    return lines


def _election_lines(position: Position, obs: dict[str, Any], style: _Style) -> list[str]:
    """The elections held this turn and the one under way: payments onto each roll, dice."""
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    done = []
    for result in obs.get("elections") or []:
        king = int(result["king"])
        done.append(
            f"{kingdom_name(position, result['kingdom'])}: " + (f"{style.seat(king)} king" if king >= 0 else "no king")
        )
    lines = _wrap("Elected: ", done, width, 2) if done else []
    election = obs.get("election") or {}
    kingdom = election.get("kingdom") or ""
    if kingdom and election.get("participants"):
        paid = election.get("paid") or []
        rolls = [
            f"{style.seat(s)} +{paid[s]}" if s < len(paid) and paid[s] else style.seat(s)
            for s in election["participants"]
        ]
        rolls.append(f"kingdom +{election.get('kingdom_paid', 0)}")
        dice = election.get("dice") or []
        head = f"{kingdom_name(position, kingdom)}'s election, paid onto rolls: "
        lines += _wrap(head, rolls, width, 2)
        sealed = election.get("sealed")
        if isinstance(sealed, dict) and sealed.get("pledges") is not None:
            own = [
                f"{'kingdom' if r < 0 else style.seat(r)} {n}"
                for r, n in zip(sealed["rolls"], sealed["pledges"], strict=False)
                if n
            ]
            lines.append("  your sealed pledges: " + (", ".join(own) if own else "none yet"))
        shown = [p for p in election.get("shown") or [] if p.get("kingdom") == kingdom]
        if shown:
            revealed = [
                f"{style.seat(p['seat'])} {p['paid']} onto " + ("kingdom" if p["roll"] < 0 else style.seat(p["roll"]))
                for p in shown
            ]
            lines += _wrap("  pledges shown: ", revealed, width, 4)
        if dice:
            lines.append("  dice so far: " + " ".join(str(d) for d in dice))
    return lines


# -- the whole table -----------------------------------------------------------------------------------------


def _card_lines(state: Situation, obs: dict[str, Any], style: _Style) -> list[str]:
    """The cards as the viewer sees them (the observation's `cards`): the deck, the pile, each hand's size, the
    cards shown this turn, the window open, and the viewer's own hand by title; a spectator sees no hand."""
    cards = obs.get("cards")
    if not isinstance(cards, dict) or not state.cards_on():
        return []
    titles = state.space.card_titles
    index = {card_id: i for i, card_id in enumerate(CARD_IDS)}
    sizes = ", ".join(f"{style.seat(s)} {n}" for s, n in enumerate(cards["hand_sizes"]))
    lines = [f"{style.strong('Cards')}: deck {cards['deck']}, pile {sum(cards['pile'].values())}; hands: {sizes}"]
    hand = cards.get("hand")
    if isinstance(hand, dict):
        held = [f"{titles[index[c]]}" + (f" ×{n}" if n > 1 else "") for c, n in sorted(hand.items())]
        lines.append(f"Your cards: {', '.join(held) if held else 'none'}")
    shown = [
        f"{style.seat(int(e['seat']))} {'played' if e['verb'] == 'play' else 'discarded'} {titles[index[e['card']]]}"
        + (f" ({e['target']})" if e["target"] else "")
        for e in cards["shown"][-CARDS_SHOWN:]
    ]
    if shown:
        lines.extend(_wrap("Cards this turn: ", shown, COMPACT_WIDTH if style.compact else FULL_WIDTH, 2))
    window = cards.get("window")
    if isinstance(window, dict):
        lines.append(f"Card window ({str(window['kind']).replace('_', ' ')}): {style.seat(int(window['asked']))} asked")
    return lines


def _render(state: Situation, style: _Style, seat: int | None) -> str:
    obs = state.observation(seat)
    # No blank lines: with the prompt and the choices below it, the table needs every line of a 30-line terminal.
    lines = [
        *_header(state, obs, style),
        *_seats(state, style),
        *_kingdoms(state, style),
        *_areas(state, style),
        *_standing(state, style),
        *_fleets(state, obs, style),
        *_journey_lines(state, obs, style),
        *_phase_lines(state, obs, style),
        *_card_lines(state, obs, style),
    ]
    width = COMPACT_WIDTH if style.compact else FULL_WIDTH
    return "\n".join(part for line in lines for part in _fit(line, width))


def render_text(state: Situation, color: bool = False, seat: int | None = None, names: list[str] | None = None) -> str:
    """The whole table for a terminal of 100 columns as `seat` (None: a spectator) sees it; with `color`, Rich
    markup paints the seats. `names`, when given, are written with the seat numbers."""
    return _render(state, _Style(color, False, names), seat)


def render_compact(
    state: Situation, color: bool = False, seat: int | None = None, names: list[str] | None = None
) -> str:
    """The same table in 80 columns: seats as s1…s6, types as T and W, one line per group of areas."""
    return _render(state, _Style(color, True, names), seat)
