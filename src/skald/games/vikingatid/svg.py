"""The Vikingatid map as SVG: the known world with its areas, links, symbols, camps, ships, fleets and markers, the
turn track, the players and their hands, and a legend, drawn from what one viewer may see.

The rule text prints no board, so where each area lies on the map is data: `map_layout.toml` (provisional, a
schematic of the known world), read and checked by `load_layout`, which names the area at fault. Everything that
changes comes from `state.observation(seat)` (the viewer's own hand face up, every other hand as a count) and
from the table, which holds nothing hidden (conquests are read from it by `conquest.conquests`).

Readable without colour: each seat is drawn in one of the six colours of `render.SEAT_COLOURS` and always with its
number; trading and war are told by the letters T and W as well as by the shape; area kinds by fill and pattern;
markers by words and by a tooltip (`<title>`) on everything.

Clicking: for the seat to move only, every legal action that names an area (start a fleet, move, buy, pull down,
emigrate, a card's target area) is a `data-action` on that area, in the canonical JSON text the web table's legal
keys use, so the table offers it with no script of the game's own. An area whose two types of ship are both
legal there carries the second as `data-alt` (the table's toggle chooses), and each such action also has a target
of its own (the seat's ships or camps of that type, or a "buy" chip). While a fleet moves, every area it could
sail to is a target: the illegal ones let the table say why not. Nothing else is clickable, and no other viewer
gets any target.

What an area holds, for a table to say in words (docs/web.md, "What an area holds"): the area's `<title>` names it,
its kind and values; each seat's row of pieces there is a `data-holder` (its seat) titled with its holdings; each
marker a `data-marker` titled with its words; each fleet a `data-holder` that is `data-in` its area, as is each
piece or chip drawn apart from its area. All of it is the same for every viewer but the targets.
"""

from __future__ import annotations

import re
import tomllib
from html import escape
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from skald.engine import target_key
from skald.engine.messages import shown
from skald.games.vikingatid import conquest
from skald.games.vikingatid.actions import CARD_IDS, KINGDOMS, SHIP_TYPES
from skald.games.vikingatid.board import (
    EMPIRE_CORE,
    PROVINCE,
    SEA,
    UNDISCOVERED,
    VIKING_KINGDOM,
    Area,
    Board,
)
from skald.games.vikingatid.position import KINGDOM_PAIRS
from skald.games.vikingatid.render import SEAT_COLOURS

if TYPE_CHECKING:
    from skald.games.vikingatid.situation import Situation

#: The layout file in the package (the loader's default).
LAYOUT_FILE: Final = "map_layout.toml"
#: How an area is drawn: a rounded rectangle (land) or a pill with waves (sea).
SHAPES: Final = ("land", "sea")
#: The fields of one area's place.
PLACE_FIELDS: Final = ("x", "y", "w", "h", "shape")
#: Area actions by their JSON type (those whose JSON names an area).
AREA_ACTIONS: Final = ("move", "emigrate", "target_area", "fleet", "buy", "pull_down")
#: Letters of the two types of ship and camp.
TYPE_LETTER: Final = {"trading": "T", "war": "W"}
#: Each empire's fill and the initials on its badge (fill and initials together: never colour alone).
EMPIRE_LOOK: Final = {
    "britain": ("#efc1c1", "BR"),
    "german_roman": ("#cfc8ec", "GR"),
    "byzantine": ("#f4cfa4", "BY"),
    "w_caliphate": ("#bfe3c2", "WC"),
    "e_caliphate": ("#e3e9a6", "EC"),
    "kazakstan": ("#dcc3ab", "KH"),
}
#: Each empire as the legend names it, beside its badge.
LEGEND_EMPIRES: Final = {
    "britain": "Britain",
    "german_roman": "German-Roman Empire",
    "byzantine": "Byzantium",
    "w_caliphate": "Western Caliphate",
    "e_caliphate": "Eastern Caliphate",
    "kazakstan": "Khazaria",
}
#: Text on light seat colours is dark, on dark ones white (orange, bluish green and sky blue are light).
LIGHT_SEATS: Final = frozenset((1, 4, 5))
#: Space for the panels under the map: the turn track and status, the players, the legend.
TRACK_H: Final = 74
PLAYERS_H: Final = 212
LEGEND_H: Final = 152
FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"

STYLE: Final = f"""
.vikingatid-map{{font-family:{FONT}}}
.vikingatid-map text{{fill:#2b2118}}
.vikingatid-map .name{{font-size:12.5px;font-weight:bold;paint-order:stroke;stroke:#fffaf0;stroke-width:3px;
stroke-linejoin:round}}
.vikingatid-map .name.sea{{font-style:italic;font-weight:bold;fill:#163d5e}}
.vikingatid-map .name.unknown{{fill:#525252}}
.vikingatid-map .labels{{pointer-events:none}}
.vikingatid-map .num{{font-size:10.5px;font-weight:bold;text-anchor:middle}}
.vikingatid-map .tok{{font-size:9.5px;font-weight:bold;text-anchor:middle}}
.vikingatid-map .badge text{{font-size:9px;font-weight:bold;text-anchor:middle;fill:#fff}}
.vikingatid-map .small{{font-size:12px}}
.vikingatid-map .label{{font-size:13px}}
.vikingatid-map .head{{font-size:15px;font-weight:bold}}
.vikingatid-map .big{{font-size:21px;font-weight:bold}}
.vikingatid-map .mid{{text-anchor:middle}}
.vikingatid-map .end{{text-anchor:end}}
.vikingatid-map .dark{{fill:#2b2118}}
.vikingatid-map .light{{fill:#fff}}
.vikingatid-map .sealink{{stroke:#6f9cc4;stroke-width:2;stroke-dasharray:5 3;fill:none}}
.vikingatid-map .river{{stroke:#1f5f9e;stroke-width:4;fill:none;stroke-linecap:round}}
.vikingatid-map .riverbed{{stroke:#fff;stroke-width:7;fill:none;stroke-linecap:round}}
.vikingatid-map .route{{fill:none;stroke-width:4;stroke-linejoin:round;stroke-linecap:round;stroke-opacity:.85}}
.vikingatid-map .links,.vikingatid-map .route-line{{pointer-events:none}}
.vikingatid-map .target{{cursor:pointer}}
.vikingatid-map .area.legal>.shape{{stroke:#d18b00;stroke-width:4}}
.vikingatid-map .area.legal:hover>.shape{{fill:#ffe08a}}
.vikingatid-map .area.forbidden>.shape{{stroke-dasharray:2 3}}
.vikingatid-map .chip.legal>rect:first-child{{stroke:#d18b00;stroke-width:2.5}}
"""

DEFS: Final = (
    "<defs>"
    '<pattern id="va-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<line x1="0" y1="0" x2="0" y2="8" stroke="#000" stroke-opacity=".16" stroke-width="2"/></pattern>'
    '<pattern id="va-cross" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<path d="M0,0V7M0,0H7" stroke="#000" stroke-opacity=".2" stroke-width="1.6"/></pattern>'
    '<pattern id="va-wave" width="16" height="8" patternUnits="userSpaceOnUse">'
    '<path d="M0,5 q4,-4 8,0 t8,0" fill="none" stroke="#fff" stroke-opacity=".7" stroke-width="1.2"/></pattern>'
    '<pattern id="va-dots" width="9" height="9" patternUnits="userSpaceOnUse">'
    '<circle cx="4.5" cy="4.5" r="1.4" fill="#000" fill-opacity=".22"/></pattern>'
    '<pattern id="va-crown" width="14" height="10" patternUnits="userSpaceOnUse">'
    '<path d="M2,8 l1,-5 l2.5,3 l1.5,-4 l1.5,4 l2.5,-3 l1,5 z" fill="#8a6a10" fill-opacity=".13"/></pattern>'
    '<marker id="va-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
    'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="context-stroke"/></marker>'
    "</defs>"
)

_XML_INVALID: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_LINE: Final = re.compile(r"line (\d+)")


# -- the layout -------------------------------------------------------------------------------------------------


class LayoutError(ValueError):
    """A layout file that cannot be used with the board; the message names the file and the area at fault."""


class Place(NamedTuple):
    """Where an area is drawn: the centre, the size and the shape (`SHAPES`)."""

    x: float
    y: float
    w: float
    h: float
    shape: str


class MapLayout:
    """Every area's place on a map of `width` × `height` map units, read from a layout file."""

    def __init__(self, source: str, width: float, height: float, places: dict[str, Place]) -> None:
        self.source: Final = source
        self.width: Final = width
        self.height: Final = height
        self.places: Final = places

    def place(self, area_id: str) -> Place:
        """The place of an area; `KeyError` naming it if the layout has none."""
        try:
            return self.places[area_id]
        except KeyError:
            raise KeyError(f"{self.source}: no place for area {shown(area_id)}") from None


def _number(source: str, where: str, data: dict[str, Any], field: str) -> float:
    """A number field of the layout; `LayoutError` naming the entry and field otherwise."""
    if field not in data:
        raise LayoutError(f"{source}: {where}.{field}: missing")
    value = data[field]
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise LayoutError(f"{source}: {where}.{field}: expected a number, got {shown(value)}")
    return float(value)


def _read_place(source: str, area_id: str, data: Any, width: float, height: float) -> Place:
    """One area's place, checked: numbers, a positive size, a known shape, inside the map, no other field."""
    where = f"area {area_id!r}"
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: {where}: expected a table {{ x, y, w, h, shape }}, got {shown(data)}")
    unknown = sorted(str(k) for k in data if k not in PLACE_FIELDS)
    if unknown:
        raise LayoutError(f"{source}: {where}.{unknown[0]}: not a field of a place (expected {list(PLACE_FIELDS)})")
    x, y = _number(source, where, data, "x"), _number(source, where, data, "y")
    w, h = _number(source, where, data, "w"), _number(source, where, data, "h")
    if w <= 0 or h <= 0:
        raise LayoutError(f"{source}: {where}: the size must be positive, got w = {w:g}, h = {h:g}")
    if not (0 <= x <= width and 0 <= y <= height):
        raise LayoutError(f"{source}: {where}: the centre ({x:g}, {y:g}) lies outside the map {width:g} × {height:g}")
    shape = data.get("shape")
    if shape not in SHAPES:
        raise LayoutError(f"{source}: {where}.shape: expected one of {list(SHAPES)}, got {shown(shape)}")
    return Place(x, y, w, h, str(shape))


def _area_at_line(text: str, line: int) -> str:
    """The area a TOML error's line falls in, so the message names it."""
    for raw in reversed(text.splitlines()[: max(line, 0)]):
        match = re.match(r"\s*([A-Za-z0-9_\-]+)\s*=\s*\{", raw)
        if match:
            return f" (in area {match.group(1)!r})"
    return ""


def parse_layout(text: str, board: Board, source: str = LAYOUT_FILE) -> MapLayout:
    """A layout from the text of a layout file, for `board`: every area of the board needs a place and no other
    area may have one; `LayoutError` names the file and the area at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _LINE.search(str(error))
        where = _area_at_line(text, int(found.group(1))) if found else ""
        raise LayoutError(f"{source}: not valid TOML: {error}{where}") from None
    if data.get("schema_version") != 1:
        raise LayoutError(f"{source}: schema_version: expected 1, got {shown(data.get('schema_version'))}")
    size = {}
    for field in ("width", "height"):
        value = data.get(field)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
            raise LayoutError(f"{source}: {field}: expected a positive number, got {shown(value)}")
        size[field] = float(value)
    areas = data.get("areas")
    if not isinstance(areas, dict):
        raise LayoutError(f"{source}: [areas]: expected a table of areas, got {shown(areas)}")
    for area_id in areas:
        if not board.has_area(area_id):
            raise LayoutError(f"{source}: area {area_id!r}: no such area on the board (a misspelling?)")
    places = {}
    for area in board.areas:
        if area.id not in areas:
            raise LayoutError(f"{source}: area {area.id!r}: the board has it but the map gives it no place")
        places[area.id] = _read_place(source, area.id, areas[area.id], size["width"], size["height"])
    return MapLayout(source, size["width"], size["height"], places)


def load_layout(board: Board, path: str | Path | None = None) -> MapLayout:
    """The layout in the file at `path`, or the package's `map_layout.toml`, checked against `board`."""
    if path is None:
        text = files("skald.games.vikingatid").joinpath("data", LAYOUT_FILE).read_text(encoding="utf-8")
        return parse_layout(text, board, LAYOUT_FILE)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise LayoutError(f"{path}: cannot read: {error}") from None
    return parse_layout(text, board, str(path))


class _Base:
    """What never changes for one board: its layout, the links drawn, the legend, each area's fixed texts."""

    def __init__(self, board: Board, layout: MapLayout) -> None:
        self.board = board
        self.layout = layout
        self.links = _links(board, layout)
        self.width = layout.width
        self.height = layout.height + TRACK_H + PLAYERS_H + LEGEND_H
        self.legend = _legend(layout.height + TRACK_H + PLAYERS_H, self.width)
        #: Under the areas: the style, the patterns, the parchment, the sea and the links.
        self.ground = "".join(
            (
                f"<style>{STYLE}</style>",
                DEFS,
                f'<rect width="{_f(self.width)}" height="{_f(self.height)}" fill="#e9dcbc"/>',
                f'<rect x="4" y="4" width="{_f(layout.width - 8)}" height="{_f(layout.height - 8)}" rx="12" '
                'fill="#dcebf4" stroke="#8c6f3f"/>',
                self.links,
            )
        )
        #: Each area's fixed drawing by (area, empire, discovered, trade value): see `_fixed`.
        self.fixed: dict[tuple[str, str, bool, int], str] = {}
        #: Each area's label by (area, discovered): see `_label`.
        self.labels: dict[tuple[str, bool], str] = {}


#: One base per board object (a board never changes once loaded), with the board kept so its id stays its own.
_BASES: Final[dict[int, tuple[Board, _Base]]] = {}


def _base(board: Board) -> _Base:
    """The board's fixed drawing, made once."""
    known = _BASES.get(id(board))
    if known is not None and known[0] is board:
        return known[1]
    base = _Base(board, load_layout(board))
    _BASES[id(board)] = (board, base)
    return base


# -- small pieces -----------------------------------------------------------------------------------------------


def _esc(value: object) -> str:
    """Text safe inside an element or a quoted attribute; characters XML forbids outright are dropped."""
    return escape(_XML_INVALID.sub("", str(value)), quote=True)


def _f(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _key(data: dict[str, Any]) -> str:
    """An action's JSON form in the canonical text of the web table's legal keys."""
    return _esc(target_key(data))


def _title(text: str) -> str:
    """A tooltip (and a screen reader's words) for the element it stands in."""
    return f"<title>{_esc(text)}</title>"


def _text(x: float, y: float, content: object, cls: str = "small", extra: str = "") -> str:
    """A line of text, escaped, styled by its class."""
    return f'<text x="{_f(x)}" y="{_f(y)}" class="{cls}"{extra}>{_esc(content)}</text>'


def _fitted(x: float, y: float, content: str, cls: str, room: float, per_char: float, extra: str = "") -> str:
    """Text squeezed into `room` map units if its estimated width would pass it."""
    if len(content) * per_char > room:
        extra += f' textLength="{_f(room)}" lengthAdjust="spacingAndGlyphs"'
    return _text(x, y, content, cls, extra)


def _ink(seat: int) -> str:
    """Text colour on a seat's colour."""
    return "#1b1b1b" if seat in LIGHT_SEATS else "#ffffff"


def _colour(seat: int) -> str:
    """The seat's colour (`render.SEAT_COLOURS`, the terminal's too)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _seat_disc(x: float, y: float, seat: int, r: float = 6.5) -> str:
    """A seat: a disc of its colour with its number."""
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{_colour(seat)}" stroke="#1b1b1b" stroke-width=".8"/>'
        f'<text x="{_f(x)}" y="{_f(y + r * 0.5)}" class="tok" fill="{_ink(seat)}" '
        f'style="fill:{_ink(seat)}" font-size="{_f(r * 1.45)}">{seat + 1}</text>'
    )


def _badge(x: float, y: float, text: str, fill: str, tip: str, ink: str = "#fff", kind: str = "") -> tuple[str, float]:
    """A marker badge ending at `x` (right-aligned), with its words as a tooltip and its kind as `data-marker`;
    returns it and its left edge."""
    w = 6 + 5.6 * len(text)
    left = x - w
    marker = f' data-marker="{kind}"' if kind else ""
    body = (
        f'<g class="badge"{marker}>{_title(tip)}'
        f'<rect x="{_f(left)}" y="{_f(y - 6.5)}" width="{_f(w)}" height="13" rx="3" '
        f'fill="{fill}" stroke="#1b1b1b" stroke-width=".8"/>'
        f'<text x="{_f(left + w / 2)}" y="{_f(y + 3)}" style="fill:{ink}">{_esc(text)}</text></g>'
    )
    return body, left - 2


def _coin(x: float, y: float, value: int) -> str:
    """A coin with the trade value."""
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="6.5" fill="#f2c94c" stroke="#8a6d1a" stroke-width="1"/>'
        f'<text x="{_f(x)}" y="{_f(y + 3.3)}" class="num">{value}</text>'
    )


def _shield(x: float, y: float, value: int, strength: int) -> str:
    """A shield with the number of armies; its shade says their strength (2, 3 or 5)."""
    fill = {2: "#d9d2c3", 3: "#a9b4c8", 5: "#9d8fc8"}.get(strength, "#cccccc")
    return (
        f'<path d="M{_f(x - 6)},{_f(y - 6.5)}h12v5c0,5 -3,7.5 -6,9c-3,-1.5 -6,-4 -6,-9z" fill="{fill}" '
        f'stroke="#3d3d5c" stroke-width="1"/><text x="{_f(x)}" y="{_f(y + 2.8)}" class="num">{value}</text>'
    )


def _danger(x: float, y: float, value: int) -> str:
    """The danger: dragon heads on land, sea serpents at sea."""
    return (
        f'<path d="M{_f(x)},{_f(y - 7)}l7,12.5h-14z" fill="#e8a39a" stroke="#8e1b10" stroke-width="1"/>'
        f'<text x="{_f(x)}" y="{_f(y + 4.2)}" class="num">{value}</text>'
    )


def _camp_shape(x: float, y: float, seat: int, war: bool) -> str:
    """A camp: a tent of the seat's colour (a war camp with a thick dark rim)."""
    rim = 'stroke="#1b1b1b" stroke-width="1.8"' if war else 'stroke="#1b1b1b" stroke-width=".7"'
    return f'<path d="M{_f(x - 11)},{_f(y + 6)}v-7l11,-6l11,6v7z" fill="{_colour(seat)}" {rim}/>'


def _ship_shape(x: float, y: float, seat: int, war: bool, half: float = 11) -> str:
    """A ship: a hull of the seat's colour (a war ship with a thick dark rim)."""
    rim = 'stroke="#1b1b1b" stroke-width="1.8"' if war else 'stroke="#1b1b1b" stroke-width=".7"'
    return (
        f'<path d="M{_f(x - half - 2)},{_f(y - 5)}h{_f(2 * half + 4)}l-4,10.5h{_f(-2 * half + 4)}z" '
        f'fill="{_colour(seat)}" {rim}/>'
    )


def _plural(n: int, word: str) -> str:
    """`n` and the word, plural unless one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- the links (drawn once per board) -----------------------------------------------------------------------------


def _links(board: Board, layout: MapLayout) -> str:
    """Sea links as dashed lines and rivers as blue bands, centre to centre, under the areas."""
    seen: set[tuple[str, str]] = set()
    sea: list[str] = []
    beds: list[str] = []
    rivers: list[str] = []
    for area in board.areas:
        a = layout.places[area.id]
        for relation, other_ids in (("sea", area.sea_links), ("river", area.river_links)):
            for other in other_ids:
                pair = (relation, *sorted((area.id, other)))
                if (pair[0], pair[1] + "|" + pair[2]) in seen or not board.has_area(other):
                    continue
                seen.add((pair[0], pair[1] + "|" + pair[2]))
                b = layout.places[other]
                line = f'x1="{_f(a.x)}" y1="{_f(a.y)}" x2="{_f(b.x)}" y2="{_f(b.y)}"'
                if relation == "sea":
                    sea.append(f'<line {line} class="sealink"/>')
                else:
                    beds.append(f'<line {line} class="riverbed"/>')
                    rivers.append(f'<line {line} class="river"/>')
    return f'<g class="links">{"".join(sea)}{"".join(beds)}{"".join(rivers)}</g>'


# -- the legend (drawn once per board) ----------------------------------------------------------------------------


def _legend(top: float, width: float) -> str:
    """What every fill, line, symbol, piece and marker means."""
    out = [
        f'<g class="legend"><rect x="8" y="{_f(top)}" width="{_f(width - 16)}" height="{LEGEND_H - 8}" rx="8" '
        'fill="#fbf6ea" stroke="#8c6f3f"/>'
    ]
    out.append(_text(20, top + 18, "Legend", "head"))
    y = top + 40
    x = 20.0
    kinds = (
        ("Viking kingdom", "#f3dc9a", "va-crown", "#7a5a12"),
        ("Empire core (★)", EMPIRE_LOOK["britain"][0], "va-cross", "#5a2a2a"),
        ("Province", EMPIRE_LOOK["german_roman"][0], "va-hatch", "#5b4f7a"),
        ("Free land", "#efe6cf", "", "#7d6b4a"),
        ("Sea", "#cfe4f2", "va-wave", "#5d8fb8"),
        ("Undiscovered", "#dadada", "va-dots", "#777"),
    )
    for label, fill, pattern, stroke in kinds:
        dash = ' stroke-dasharray="4 3"' if label == "Undiscovered" else ""
        out.append(
            f'<rect x="{_f(x)}" y="{_f(y - 9)}" width="26" height="16" rx="4" fill="{fill}" stroke="{stroke}"'
            f' stroke-width="1.5"{dash}/>'
        )
        if pattern:
            out.append(f'<rect x="{_f(x)}" y="{_f(y - 9)}" width="26" height="16" rx="4" fill="url(#{pattern})"/>')
        out.append(_text(x + 31, y + 3, label, "label"))
        x += 46 + 7.4 * len(label)
    out.append(f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 30)}" y2="{_f(y)}" class="sealink"/>')
    out.append(_text(x + 35, y + 4, "sea link", "label"))
    x += 105
    out.append(
        f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 30)}" y2="{_f(y)}" class="riverbed"/>'
        f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 30)}" y2="{_f(y)}" class="river"/>'
    )
    out.append(_text(x + 35, y + 4, "river", "label"))
    x = 20.0
    y += 3 * 28
    out.append(_text(x, y + 4, "Empires:", "label"))
    x += 66
    # Each empire's badge beside its name, a short text each: zoomed on a phone, each fits the screen.
    for empire, (fill, initials) in EMPIRE_LOOK.items():
        out.append(f'<rect x="{_f(x)}" y="{_f(y - 7)}" width="22" height="14" rx="3" fill="{fill}" stroke="#555"/>')
        out.append(_text(x + 11, y + 3.5, initials, "tok"))
        name = LEGEND_EMPIRES[empire]
        out.append(_text(x + 27, y + 4, name, "small"))
        x += 45 + 6.9 * len(name)
    y -= 2 * 28
    x = 20.0
    pieces = (
        (_coin(27, y, 3), "trade value"),
        (_shield(27, y, 2, 3), "shields (shade: strength 2, 3, 5)"),
        (_danger(27, y, 1), "danger"),
        (_camp_shape(32, y, 0, False) + _text(32, y + 4, "T2", "tok", ' style="fill:#fff"'), "trading camps"),
        (_camp_shape(32, y, 0, True) + _text(32, y + 4, "W1", "tok", ' style="fill:#fff"'), "war camps"),
        (_ship_shape(32, y, 0, False) + _text(32, y + 3.5, "T3", "tok", ' style="fill:#fff"'), "trading ships"),
        (_ship_shape(32, y, 0, True) + _text(32, y + 3.5, "W2", "tok", ' style="fill:#fff"'), "war ships"),
        (_seat_disc(27, y, 0), "seat"),
        (
            _ship_shape(32, y, 0, True, 14) + _text(32, y + 3.5, "1·W5", "tok", ' style="fill:#fff"'),
            "fleet under way, danger count",
        ),
    )
    for drawing, label in pieces:
        out.append(f'<g transform="translate({_f(x - 20)},0)">{drawing}</g>')
        gap = 40 if label.startswith("fleet") else 30
        out.append(_text(x + gap, y + 4.5, label, "label"))
        x += 44 + 7.4 * len(label)
    y += 28
    x = 20.0
    markers = (
        ("STOP", "#b3261e", "trade stop"),
        ("PLU", "#6d3b12", "plundered"),
        ("C1", "#0072B2", "conquered by seat 1"),
        ("H1", "#0072B2", "heritage"),
        ("SK1", "#0072B2", "small kingdom"),
        ("SEP", "#5b5b5b", "separatists"),
        ("EXP", "#7a4b9c", "empire expansion"),
        ("F1", "#0072B2", "discovered"),
        ("WAR", "#c62828", "War / Peace? marker"),
        ("K1", "#0072B2", "king"),
        ("UNI", "#2e7d32", "unified"),
    )
    for text, fill, label in markers:
        badge, _left = _badge(x + 6 + 5.6 * len(text), y, text, fill, label)
        out.append(badge)
        out.append(_text(x + 10 + 5.6 * len(text), y + 4, label, "small"))
        x += 24 + 5.6 * len(text) + 6.9 * len(label)
    out.append("</g>")
    return "".join(out)


# -- what the viewer sees --------------------------------------------------------------------------------------


class _View:
    """The observation of one viewer with what the drawing asks of it, read once."""

    def __init__(self, state: Situation, seat: int | None, names: list[str] | None) -> None:
        self.state = state
        self.board = state.board
        self.seat = seat
        self.obs = state.observation(seat)
        self.snap: dict[str, Any] = self.obs["table"]
        self.players = int(self.snap["players"])
        self.names = names
        n = len(self.board.areas)
        self.index = {area.id: slot for slot, area in enumerate(self.board.areas)}
        # Per area slot: each seat's (trading ships, war ships, trading camps, war camps).
        self.pieces: list[dict[int, list[int]]] = [{} for _ in range(n)]
        for s, row in enumerate(self.snap["seats"]):
            for field, offset in (("ships", 0), ("camps", 2)):
                for area_id, counts in row[field].items():
                    slot = self.index.get(area_id)
                    if slot is None:
                        continue
                    entry = self.pieces[slot].setdefault(s, [0, 0, 0, 0])
                    for t, kind in enumerate(SHIP_TYPES):
                        entry[offset + t] += int(counts.get(kind, 0))
        # Per area: the seats with camps, standing ships or a fleet there.
        self.holders: dict[str, set[int]] = {}
        for area in self.board.areas:
            if self.pieces[self.index[area.id]]:
                self.holders[area.id] = set(self.pieces[self.index[area.id]])
        for fleet in self.snap["fleets"]:
            self.holders.setdefault(str(fleet["area"]), set()).add(int(fleet["owner"]))
        self.trade_stops = set(self.snap["trade_stops"])
        self.plundered = set(self.snap["plundered"])
        self.separatists = set(self.snap.get("separatists", []))
        self.expanded = set(self.snap.get("expanded", []))
        self.fiefs: dict[str, dict[str, Any]] = dict(self.snap.get("fiefs", {}))
        self.discovered: dict[str, dict[str, Any]] = dict(self.snap["discovered"])
        self.empires_now: dict[str, str] = dict(self.snap["empires"])
        self.conquered = dict(conquest.conquests(state.position))
        self.to_act = self.obs["to_act"]
        self.legal: dict[str, list[dict[str, Any]]] = {}
        if seat is not None and seat >= 0 and self.to_act == seat:
            for action in state.legal_actions():
                data = state.action_to_json(action)
                if data.get("type") in AREA_ACTIONS and isinstance(data.get("area"), str):
                    self.legal.setdefault(data["area"], []).append(data)
        journey = self.obs.get("journey") or {}
        fleet_index = journey.get("fleet", -1)
        fleets = self.snap["fleets"]
        self.active: dict[str, Any] | None = (
            fleets[fleet_index] if isinstance(fleet_index, int) and 0 <= fleet_index < len(fleets) else None
        )
        effects = journey.get("cards") or {}
        self.route: list[str] = [a for a in effects.get("route", []) if a in self.index]
        # A fight or an entry under way, by its area (both public, phase 6).
        fight = journey.get("fight")
        self.fight: dict[str, Any] = fight if isinstance(fight, dict) else {}
        asked = journey.get("entry")
        self.entry: dict[str, Any] = asked if isinstance(asked, dict) else {}
        # While the seat to move may sail its fleet, every area it could sail to is a target (legal or not).
        self.sail_to: set[str] = set()
        moves = any(d["type"] == "move" for ds in self.legal.values() for d in ds)
        if moves and self.active is not None and self.board.has_area(self.active["area"]):
            here = self.board.area(self.active["area"])
            self.sail_to = {a for a in (*here.sea_links, *here.river_links) if a in self.index}

    def name(self, seat: int) -> str:
        """The seat's name with its number."""
        if self.names is not None and 0 <= seat < len(self.names) and self.names[seat]:
            name = self.names[seat][:18]
            return name if f"seat {seat + 1}" in name.lower() else f"{name} (seat {seat + 1})"
        return f"seat {seat + 1}"

    def empire_of(self, area: Area) -> str:
        """The empire an area belongs to now (an expansion card may have moved it)."""
        return self.empires_now.get(area.id, area.empire)

    def is_discovered(self, area: Area) -> bool:
        """Whether an unknown land (or a sea that leads to one) is on the known map now."""
        if not area.undiscovered:
            return True
        lands = area.opened_by if area.opened_by else (area.id,)
        return any(land in self.discovered for land in lands)

    def trade_value(self, area: Area) -> int:
        """An area's trade value now (Khorasan's lower value once the mines are dry)."""
        if self.snap.get("mines_dry") and area.trade_after_mines_dry:
            return area.trade_after_mines_dry
        return area.trade

    def kingdom_words(self, kingdom: str) -> str:
        """A Viking kingdom by its homeland's name on the board."""
        for area in self.board.areas:
            if area.kind == VIKING_KINGDOM and area.kingdom == kingdom:
                return area.name
        return kingdom.capitalize()


# -- one area ---------------------------------------------------------------------------------------------------


def _look(v: _View, area: Area) -> tuple[str, str, str, str]:
    """An area's class, fill, pattern and rim, from its kind, its empire now and whether it is known."""
    if area.kind == SEA or (area.undiscovered and not area.is_land):
        if not v.is_discovered(area):
            return "sea unknown", "#dfe8ee", "va-dots", "#8aa3b5"
        return "sea", "#cfe4f2", "va-wave", "#5d8fb8"
    if area.kind == UNDISCOVERED and not v.is_discovered(area):
        return "land unknown", "#dadada", "va-dots", "#777777"
    if area.kind == VIKING_KINGDOM:
        return "land kingdom", "#f3dc9a", "va-crown", "#7a5a12"
    empire = v.empire_of(area)
    if empire:
        fill = EMPIRE_LOOK.get(empire, ("#dddddd", "?"))[0]
        if area.kind == EMPIRE_CORE:
            return f"land core e-{empire}", fill, "va-cross", "#4a3a3a"
        return f"land province e-{empire}", fill, "va-hatch", "#5b4f6a"
    return "land free", "#efe6cf", "", "#7d6b4a"


def _describe_area(v: _View, area: Area) -> str:
    """The area in words, for its tooltip."""
    parts = [area.name if area.name == area.name_en else f"{area.name} ({area.name_en})"]
    if area.kind == SEA:
        parts.append(f"sea, danger {area.danger}")
    else:
        empire = v.empire_of(area)
        kind = {
            VIKING_KINGDOM: "Viking kingdom",
            EMPIRE_CORE: "empire core",
            PROVINCE: "province",
            UNDISCOVERED: "unknown land",
        }.get(area.kind, "land")
        if empire:
            kind += f" of {_empire_name(v.board, empire)}"
        parts.append(kind)
        if area.kind == VIKING_KINGDOM:
            parts.append(f"danger {area.danger}")
        else:
            parts.append(
                f"trade {v.trade_value(area)}, {_plural(area.shields, 'shield')} (strength {area.strength}),"
                f" danger {area.danger}"
            )
    if area.rivers:
        parts.append("on the " + ", ".join(r.capitalize() for r in area.rivers))
    if area.undiscovered and not v.is_discovered(area):
        parts.append("not yet discovered")
    return "; ".join(parts)


def _empire_name(board: Board, empire: str) -> str:
    """An empire by its English name (its id if the board has no such empire)."""
    return board.empire(empire).name_en if board.has_empire(empire) else empire


def _targets(v: _View, area: Area) -> tuple[str, str]:
    """The area's class and attributes as a target: its first legal action and a second as `data-alt`; a sail
    target (legal or not) while the fleet moves."""
    actions = v.legal.get(area.id, [])
    if len(actions) == 2 and actions[0]["type"] == actions[1]["type"] == "pull_down":
        actions = []  # the two camps are told apart on the camps themselves
    if actions:
        attrs = f' data-action="{_key(actions[0])}"'
        if len(actions) > 1:
            attrs += f' data-alt="{_key(actions[1])}"'
        return " target", attrs
    if area.id in v.sail_to:
        return " target", f' data-action="{_key({"type": "move", "area": area.id})}"'
    return "", ""


def _area(v: _View, area: Area, p: Place, inside: str) -> str:
    """One area: its shape, pattern, name, symbols, empire badge and what `inside` holds (its markers and pieces),
    one group that is the target of its actions."""
    cls, fill, pattern, rim = _look(v, area)
    x0, y0 = p.x - p.w / 2, p.y - p.h / 2
    rx = p.h / 2 if p.shape == "sea" else 7
    seat = v.conquered.get(area.id, -1)
    width = 2.4 if area.kind in (VIKING_KINGDOM, EMPIRE_CORE) else 1.3
    dash = ' stroke-dasharray="5 3"' if "unknown" in cls else ""
    target_cls, target_attrs = _targets(v, area)
    box = f'x="{_f(x0)}" y="{_f(y0)}" width="{_f(p.w)}" height="{_f(p.h)}" rx="{_f(rx)}"'
    # The seats with pieces here (public, the same for every viewer): a table shows its own seat's areas' labels first.
    holders = v.holders.get(area.id)
    seats = f' data-seats="{" ".join(str(s) for s in sorted(holders))}"' if holders else ""
    out = [
        f'<g class="area {cls}{target_cls}" data-area="{_esc(area.id)}" data-at="area:{_esc(area.id)}"'
        f"{seats}{target_attrs}>",
        f'<rect class="shape" {box} fill="{fill}" stroke="{rim}" stroke-width="{width}"{dash}/>',
        _fixed(v, area, p, pattern, box),
    ]
    if seat >= 0:
        out.append(
            f'<rect x="{_f(x0 + 2.5)}" y="{_f(y0 + 2.5)}" width="{_f(p.w - 5)}" height="{_f(p.h - 5)}" '
            f'rx="{_f(max(rx - 2, 2))}" fill="none" stroke="{_colour(seat)}" stroke-width="4"/>'
        )
    out.append(inside)
    out.append("</g>")
    return "".join(out)


def _fixed(v: _View, area: Area, p: Place, pattern: str, box: str) -> str:
    """An area's tooltip, pattern and symbols: the same while its empire, its discovery and its trade value
    are, so drawn once for each (a map is drawn at every step of a long game)."""
    key = (area.id, v.empire_of(area), v.is_discovered(area), v.trade_value(area))
    known = _base(v.board).fixed
    found = known.get(key)
    if found is not None:
        return found
    out = [_title(_describe_area(v, area))]
    if pattern:
        out.append(f'<rect {box} fill="url(#{pattern})"/>')
    x0, y0 = p.x - p.w / 2, p.y - p.h / 2
    if area.terrain == "land_and_sea":
        # Denmark is land and sea in one area: a band of sea along its foot.
        band = f'x="{_f(x0 + 3)}" y="{_f(y0 + p.h - 13)}" width="{_f(p.w - 6)}" height="10" rx="4"'
        out.append(f'<rect {band} fill="#cfe4f2"/><rect {band} fill="url(#va-wave)"/>')
    out.append(_area_texts(v, area, p, x0, y0))
    found = "".join(out)
    known[key] = found
    return found


def _area_texts(v: _View, area: Area, p: Place, x0: float, y0: float) -> str:
    """On land the coins, shields and danger under the name; at sea the danger beside it."""
    out: list[str] = []
    if p.shape == "sea":
        out.append(_danger(x0 + p.w - 16, y0 + 12, area.danger))
        return "".join(out)
    if area.kind == VIKING_KINGDOM:
        out.append(_danger(x0 + 20 + min(8.2 * len(area.name), p.w - 40), y0 + 17, area.danger))
        return "".join(out)
    out.append(_coin(x0 + 12, y0 + 27.5, v.trade_value(area)))
    if area.shields:
        out.append(_shield(x0 + 30, y0 + 27.5, area.shields, area.strength))
    out.append(_danger(x0 + (48 if area.shields else 30), y0 + 27.5, area.danger))
    empire = v.empire_of(area)
    if empire:
        initials = EMPIRE_LOOK.get(empire, ("", empire[:2].upper()))[1]
        label = ("★" if area.kind == EMPIRE_CORE and empire == area.empire else "") + initials
        w = 6 + 6.8 * len(label)
        out.append(
            f'<rect x="{_f(x0 + p.w - w - 4)}" y="{_f(y0 + 20.5)}" width="{_f(w)}" height="14" rx="3" '
            f'fill="#fffaf0" stroke="#555" stroke-width=".8"/>' + _text(x0 + p.w - 4 - w / 2, y0 + 31, label, "tok")
        )
    return "".join(out)


def _labels(v: _View) -> str:
    """Every area's name, in a layer of its own over the areas, the pieces and the fleets: a table may draw a name
    larger than its area (where the map is drawn small) and leave out those it has no room for (docs/web.md, "Map
    labels"). Each is a `data-label` (its rank: a Viking kingdom's 1, before the rest) that `data-names` its area."""
    known = _base(v.board).labels
    layout = _base(v.board).layout
    out = ['<g class="labels">']
    for area in v.board.areas:
        discovered = v.is_discovered(area)
        key = (area.id, discovered)
        label = known.get(key)
        if label is None:
            label = known[key] = _label(area, layout.places[area.id], discovered, _look(v, area)[0])
        out.append(label)
    out.append("</g>")
    return "".join(out)


def _label(area: Area, p: Place, discovered: bool, look: str) -> str:
    """An area's name, at the top of its area (lower in a kingdom, whose king, treasury and War marker stand along
    its top edge); an unknown land's with a question mark."""
    x0, y0 = p.x - p.w / 2, p.y - p.h / 2
    cls = "name" + "".join(f" {word}" for word in ("sea", "unknown") if word in look.split())
    rank = 1 if area.kind == VIKING_KINGDOM else 0
    attrs = f' data-label="{rank}" data-names="{_esc(area.id)}"'
    if p.shape == "sea":
        return _fitted(x0 + 14, y0 + 16, area.name, cls, p.w - 38, 7.4, attrs)
    if area.kind == VIKING_KINGDOM:
        return _fitted(x0 + 6, y0 + 21, area.name, cls, p.w - 32, 7.6, attrs)
    name = area.name if discovered or not area.undiscovered else f"{area.name} ?"
    return _fitted(x0 + 5, y0 + 14, name, cls, p.w - 10, 7.6, attrs)


# -- markers ----------------------------------------------------------------------------------------------------


def _marks(v: _View, area: Area, p: Place) -> str:
    """The markers on an area, as badges along its top edge from the right."""
    x = p.x + p.w / 2 - 4
    y = p.y - p.h / 2
    out: list[str] = []

    def add(kind: str, text: str, fill: str, tip: str, ink: str = "#fff") -> None:
        nonlocal x
        badge, x = _badge(x, y, text, fill, tip, ink, kind)
        out.append(badge)

    if area.id in v.trade_stops:
        add("trade_stop", "STOP", "#b3261e", f"Trade stop in {area.name}: no more trade here this turn")
    if area.id in v.plundered:
        add("plundered", "PLU", "#6d3b12", f"{area.name} is plundered: no trading fleet may enter")
    seat = v.conquered.get(area.id, -1)
    fief = v.fiefs.get(area.id)
    if fief is not None:
        holder = int(fief.get("seat", -1))
        word = "heritage" if fief.get("kind") == "heritage" else "small kingdom"
        if 0 <= holder < v.players:
            add(
                str(fief.get("kind", "fief")),
                ("H" if word == "heritage" else "SK") + str(holder + 1),
                _colour(holder),
                f"{area.name} is {v.name(holder)}'s {word}",
                _ink(holder),
            )
    if seat >= 0:
        add("conquered", f"C{seat + 1}", _colour(seat), f"{area.name} is conquered by {v.name(seat)}", _ink(seat))
    if area.id in v.separatists:
        add("separatists", "SEP", "#5b5b5b", f"Separatists in {area.name}: its camps are under no player's control")
    if area.id in v.expanded:
        empire = v.empire_of(area)
        add("expanded", "EXP", "#7a4b9c", f"{area.name} was taken by {_empire_name(v.board, empire)}'s expansion")
    found = v.discovered.get(area.id)
    if found is not None:
        by = int(found.get("by", -1))
        if 0 <= by < v.players:
            add(
                "discovered",
                f"F{by + 1}",
                _colour(by),
                f"{area.name} was discovered by {v.name(by)} in turn {found.get('turn')}",
                _ink(by),
            )
    if v.fight.get("area") == area.id:
        against = "the armies" if v.fight.get("against") == "armies" else "the defenders"
        tip = (
            f"Fight in {area.name} against {against}: {v.fight.get('armies', 0)} armies of strength "
            f"{v.fight.get('strength', '?')}, round {v.fight.get('round', 0)}"
        )
        add("fight", "FIGHT", "#8e1b10", tip)
    if v.entry.get("area") == area.id:
        words = "forbidden" if v.entry.get("forbidden") else f"duty {v.entry.get('duty', 0)} silver asked"
        add("entry", "ENTRY", "#455a64", f"The fleet asks to enter {area.name}: {words}")
    if area.kind == VIKING_KINGDOM and area.kingdom in KINGDOMS:
        out.extend(_kingdom_marks(v, area, x, y))
    return "".join(out)


def _kingdom_marks(v: _View, area: Area, x: float, y: float) -> list[str]:
    """A Viking kingdom's king, War / Peace? marker and RIKSENANDE, from the right at `x`."""
    out: list[str] = []
    entry = v.snap["kingdoms"].get(area.kingdom, {})
    marker = str(entry.get("war", ""))
    if marker:
        text = "WAR" if marker == "war" else "PEACE?"
        badge, x = _badge(
            x,
            y,
            text,
            "#c62828" if marker == "war" else "#f0a800",
            f"{area.name} shows the {text.capitalize()} marker",
            "#fff" if marker == "war" else "#1b1b1b",
            "war" if marker == "war" else "peace_pending",
        )
        out.append(badge)
    if area.kingdom in v.snap.get("unified", []):
        badge, x = _badge(x, y, "UNI", "#2e7d32", f"{area.name} is unified (RIKSENANDE)", kind="unified")
        out.append(badge)
    king = int(entry.get("king", -1))
    if 0 <= king < v.players:
        badge, x = _badge(
            x, y, f"K{king + 1}", _colour(king), f"{v.name(king)} is king of {area.name}", _ink(king), "king"
        )
        out.append(badge)
    treasury = int(entry.get("treasury", 0))
    out.append(
        f'<g class="badge" data-marker="treasury">{_title(f"Treasury of {area.name}: {treasury} silver")}'
        f'<rect x="{_f(x - 44)}" y="{_f(y - 6.5)}" width="44" height="13" rx="3" fill="#fff3c4" '
        f'stroke="#8a6d1a" stroke-width=".8"/><text x="{_f(x - 22)}" y="{_f(y + 3)}" '
        f'style="fill:#5a4300">T {treasury}</text></g>'
    )
    return out


# -- ships, camps and fleets ------------------------------------------------------------------------------------


def _piece_target(v: _View, action: dict[str, Any]) -> tuple[str, str]:
    """The class and attribute of a piece that a legal action of the viewer names."""
    area_id = str(action["area"])
    for data in v.legal.get(area_id, []):
        if data == action:
            return ' class="chip target"', f' data-action="{_key(action)}" data-in="{_esc(area_id)}"'
    return "", ""


def _pieces(v: _View, area: Area, p: Place) -> tuple[str, str]:
    """Each seat's camps and standing ships in the area, a row a seat: its disc, then camps and ships by type.
    Returns what is drawn inside the area's group and, apart, the pieces and chips that are targets of their own
    (so a click on them is theirs, not the area's)."""
    holdings = v.pieces[v.index[area.id]]
    chips = _buy_chips(v, area, p)
    if not holdings:
        return "", chips
    x0 = p.x - p.w / 2
    top = p.y - p.h / 2 + (35 if p.shape == "sea" else 32 if area.kind == VIKING_KINGDOM else 41)
    rows = max(1, int((p.y + p.h / 2 - top + 6) // 13))
    out: list[str] = []
    targets: list[str] = [chips]
    seats = sorted(holdings)
    for row, seat in enumerate(seats):
        counts = holdings[seat]
        if row >= rows:
            break
        y = top + row * 13
        if row == rows - 1 and len(seats) > rows:
            out.append(_crowded(v, area, seats[row:], x0 + 9, y))
            break
        words = _holding_words(counts)
        out.append(
            f'<g data-holder="{seat}">{_title(f"{v.name(seat)} in {area.name}: {words}")}'
            f"{_seat_disc(x0 + 9, y, seat)}</g>"
        )
        x = x0 + 30
        for kind, war in ((2, False), (3, True), (0, False), (1, True)):
            n = counts[kind]
            if not n:
                continue
            letter = "W" if war else "T"
            camp = kind >= 2
            ship_type = "war" if war else "trading"
            shape = _camp_shape(x, y, seat, war) if camp else _ship_shape(x, y, seat, war)
            label = _text(x, y + (4 if camp else 3.3), f"{letter}{n}", "tok", f' style="fill:{_ink(seat)}"')
            what = f"{_plural(n, ship_type + (' camp' if camp else ' ship'))}"
            cls, attrs = "", ""
            if seat == v.seat:
                action = (
                    {"type": "pull_down", "camp": ship_type, "area": area.id}
                    if camp
                    else {"type": "fleet", "ships": ship_type, "area": area.id}
                )
                cls, attrs = _piece_target(v, action)
            piece = f"<g{cls}{attrs}>{_title(f'{v.name(seat)}: {what} in {area.name}')}{shape}{label}</g>"
            (targets if attrs else out).append(piece)
            x += 25
    return "".join(out), "".join(targets)


def _holding_words(counts: list[int]) -> str:
    """A seat's ships and camps in an area in words (trading ships, war ships, trading camps, war camps)."""
    words = [
        _plural(n, word)
        for n, word in zip(counts, ("trading ship", "war ship", "trading camp", "war camp"), strict=True)
        if n
    ]
    return ", ".join(words)


def _crowded(v: _View, area: Area, seats: list[int], x: float, y: float) -> str:
    """More seats than rows: their discs in one row, each with its holdings as a tooltip."""
    out = []
    for seat in seats:
        words = _holding_words(v.pieces[v.index[area.id]][seat])
        tip = _title(f"{v.name(seat)} in {area.name}: {words}")
        out.append(f'<g data-holder="{seat}">{tip}{_seat_disc(x, y, seat)}</g>')
        x += 15
    return "".join(out)


def _buy_chips(v: _View, area: Area, p: Place) -> str:
    """For the buyer: a "+T" / "+W" chip per type of ship that may be bought in the area."""
    buys = [d for d in v.legal.get(area.id, []) if d["type"] == "buy"]
    out = []
    x = p.x + p.w / 2 - 18
    y = p.y + p.h / 2 - 9
    for data in reversed(buys):
        letter = TYPE_LETTER.get(str(data["ships"]), "?")
        out.append(
            f'<g class="chip target" data-action="{_key(data)}" data-in="{_esc(area.id)}">'
            f'<rect x="{_f(x - 14)}" y="{_f(y - 7)}" width="28" height="14" rx="4" fill="#fff3c4" stroke="#8a6d1a"/>'
            f"{_title('buy ' + str(data['ships']) + ' ships at ' + area.name)}"
            f"{_text(x, y + 3.5, f'+{letter}', 'tok')}</g>"
        )
        x -= 31
    return "".join(out)


def _fleets(v: _View) -> str:
    """Every fleet under way on its area (the one in motion larger, with its route and danger count)."""
    out: list[str] = []
    layout = _base(v.board).layout
    if v.active is not None and v.route:
        out.append(_route(v, layout))
    for number, fleet in enumerate(v.snap["fleets"]):
        area_id = str(fleet["area"])
        if area_id not in layout.places:
            continue
        p = layout.places[area_id]
        seat = int(fleet["owner"])
        active = fleet is v.active
        x = p.x + p.w / 2 - 26 - number * 6
        y = p.y + p.h / 2 + 2 + number * 6
        war = fleet["kind"] == "war"
        letter = "W" if war else "T"
        area_name = v.board.area(area_id).name if v.board.has_area(area_id) else area_id
        tip = (
            f"{v.name(seat)}'s {fleet['kind']} fleet of {_plural(int(fleet['size']), 'ship')} in {area_name}"
            f"{' (in motion)' if active else ''}: danger {fleet['danger']} counted since its last break "
            f"(a roll at 10); {_plural(int(fleet['moves']), 'move')} this journey"
        )
        scale = 1.35 if active else 1.0
        out.append(
            f'<g class="fleet{" active" if active else ""}" data-in="{_esc(area_id)}" data-holder="{seat}">'
            f"{_title(tip)}"
            f'<g transform="translate({_f(x)},{_f(y)}) scale({scale})">'
            + _ship_shape(0, 0, seat, war, 14)
            + '<path d="M0,-5v-12l9,9z" fill="#fffaf0" stroke="#1b1b1b" stroke-width=".8"/>'
            + _text(0, 3.6, f"{seat + 1}·{letter}{fleet['size']}", "tok", f' style="fill:{_ink(seat)}"')
            + '<path d="M24,-12l9,16h-18z" fill="#ffd54f" stroke="#8e1b10" stroke-width="1.2"/>'
            + _text(24, 2.4, str(fleet["danger"]), "num")
            + "</g></g>"
        )
    return f'<g class="fleets">{"".join(out)}</g>'


def _route(v: _View, layout: MapLayout) -> str:
    """The fleet in motion's way this journey: a line through the areas it entered, each numbered in order."""
    assert v.active is not None
    seat = int(v.active["owner"])
    points = [layout.places[a] for a in v.route]
    path = " ".join(f"{_f(p.x)},{_f(p.y)}" for p in points)
    out = [f'<polyline points="{path}" class="route" stroke="{_colour(seat)}" marker-end="url(#va-arrow)"/>']
    for step, p in enumerate(points, start=1):
        x, y = p.x - p.w / 2 + 2, p.y + p.h / 2 - 2
        out.append(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="7" fill="#fffaf0" stroke="{_colour(seat)}" '
            f'stroke-width="2"/>' + _text(x, y + 3.3, step, "num")
        )
    return f'<g class="route-line">{_title("the route of the fleet in motion this journey")}{"".join(out)}</g>'


# -- the panels -------------------------------------------------------------------------------------------------


def _status(v: _View, top: float, width: float) -> tuple[str, str]:
    """The turn track with the year, and the phase, step and who acts (apart: the second changes every move)."""
    board = v.board
    snap = v.snap
    track = board.turn_track
    out = [
        f'<rect x="8" y="{_f(top + 4)}" width="{_f(width - 16)}" height="{TRACK_H - 8}" rx="8" fill="#fbf6ea" '
        'stroke="#8c6f3f"/>'
    ]
    year = int(snap["year"])
    out.append(_text(20, top + 33, f"Year {year}", "big"))
    out.append(_text(20, top + 55, f"turn {snap['turn']}", "small"))
    x = 140.0
    for box in track.turns:
        now = box.turn == int(snap["turn"])
        fill = "#8c2f1b" if now else "#f3e6c4"
        ink = "#fff" if now else "#2b2118"
        tip = f"Turn {box.turn}: {box.year}" + (f", christianisation on {box.chance} or less" if box.chance else "")
        if box.last:
            tip += " (the last box)"
        out.append(
            f'<g>{_title(tip)}<rect x="{_f(x)}" y="{_f(top + 12)}" width="44" height="50" rx="4" '
            f'fill="{fill}" stroke="#8c6f3f" stroke-width="{2.5 if now else 1}"/>'
            + _text(x + 22, top + 33, box.year, "label mid", f' style="fill:{ink};font-weight:bold"')
            + _text(x + 22, top + 53, f"✝{box.chance}" if box.chance else "–", "small mid", f' style="fill:{ink}"')
            + "</g>"
        )
        x += 47
    phase = str(v.obs.get("phase_name", ""))
    step = str(v.obs.get("step", ""))
    acting = v.to_act
    who = v.name(acting) if isinstance(acting, int) and 0 <= acting < v.players else "the dice"
    if step == "game over":
        who = "nobody: the game is over"
    room = width - x - 40
    line = _fitted(x + 14, top + 33, f"Phase {snap['phase']}: {phase}", "head", room, 8.6) + _fitted(
        x + 14, top + 55, f"{step} · to act: {who}", "label", room, 7.4
    )
    return "".join(out), line


def _players(v: _View, top: float, width: float) -> list[str]:
    """Each seat: name, kingdom or home, silver, victory points, faith, and its hand (the viewer's face up); the
    frame, each seat and the line of cards shown as pieces of their own."""
    cards = v.obs.get("cards") or {}
    sizes = cards.get("hand_sizes") or [0] * v.players
    hand = cards.get("hand")
    titles = v.state.space.card_titles
    pieces = [
        f'<rect x="8" y="{_f(top)}" width="{_f(width - 16)}" height="{PLAYERS_H - 8}" rx="8" fill="#fbf6ea" '
        'stroke="#8c6f3f"/>'
    ]
    col = (width - 24) / max(v.players, 1)
    col = min(col, 420.0)
    for s in range(v.players):
        out: list[str] = []
        row = v.snap["seats"][s]
        x = 16 + s * col
        y = top + 8
        you = s == v.seat
        acting = s == v.to_act
        out.append(
            f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(col - 8)}" height="{PLAYERS_H - 40}" rx="6" '
            f'fill="#fffaf0" stroke="{_colour(s)}" stroke-width="{4 if acting else 2}"/>'
        )
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(col - 8)}" height="24" rx="6" fill="{_colour(s)}"/>')
        head = v.name(s) + (" · you" if you else "") + (" · to act" if acting else "")
        out.append(_fitted(x + 8, y + 17, head, "label", col - 24, 7.6, f' style="fill:{_ink(s)};font-weight:bold"'))
        kingdom = str(row["kingdom"])
        where = v.kingdom_words(kingdom) if kingdom else "no kingdom yet"
        if row["emigrated"]:
            home = v.board.area(row["home"]).name if v.board.has_area(str(row["home"])) else str(row["home"])
            where = f"emigrant, home {home}" if row["home"] else f"emigrant from {where} (homeless)"
        kings = [v.kingdom_words(k) for k in KINGDOMS if int(v.snap["kingdoms"][k]["king"]) == s]
        if kings:
            where += " · king of " + ", ".join(kings)
        out.append(_fitted(x + 8, y + 41, where, "small", col - 24, 6.9))
        faith = "Christian ✝" if row["christian"] else "pagan"
        exiled = " · in exile" if s in v.snap.get("exiled", []) else ""
        out.append(_text(x + 8, y + 59, f"{row['silver']} silver · {row['vp']} VP · {faith}{exiled}", "small"))
        count = int(sizes[s]) if s < len(sizes) else 0
        if you and isinstance(hand, dict):
            out.append(
                _text(x + 8, y + 79, f"Your hand ({_plural(count, 'card')}):", "small", ' style="font-weight:bold"')
            )
            names: list[str] = []
            for card_id, n in sorted(hand.items(), key=lambda item: CARD_IDS.index(item[0])):
                title = titles[CARD_IDS.index(card_id)] if card_id in CARD_IDS else str(card_id)
                names.extend([title] * int(n))
            # Titles are capitals, wider than the average letter.
            lines = _wrap(names, int((col - 24) / 8.4))
            for i, line in enumerate(lines[:5]):
                out.append(_fitted(x + 8, y + 96 + i * 15, line, "small", col - 24, 8.4))
        else:
            out.append(_text(x + 8, y + 79, f"Hand: {_plural(count, 'card')}", "small"))
            for i in range(min(count, 12)):
                cx = x + 10 + i * 13
                out.append(
                    f'<rect x="{_f(cx)}" y="{_f(y + 88)}" width="10" height="15" rx="2" fill="#7a5230" '
                    'stroke="#3b2a14"/>'
                )
        pieces.append(f'<g data-seat="{s}">{"".join(out)}</g>')
    out = []
    shown = _shown_cards(v, cards)
    if shown:
        out.append(_fitted(20, top + PLAYERS_H - 17, shown, "small", width - 300, 6.9))
    deck = cards.get("deck")
    pile = sum(int(n) for n in (cards.get("pile") or {}).values())
    if deck is not None:
        out.append(_text(width - 20, top + PLAYERS_H - 17, f"deck {deck} · face-up pile {pile}", "small end"))
    pieces.append("".join(out))
    return pieces


def _shown_cards(v: _View, cards: dict[str, Any]) -> str:
    """The cards shown to the table this turn (played or discarded, public) and the card under way, in a line."""
    titles = v.state.space.card_titles
    words = []
    for event in cards.get("shown") or []:
        card = str(event.get("card", ""))
        title = titles[CARD_IDS.index(card)] if card in CARD_IDS else card
        seat = int(event.get("seat", -1))
        verb = "played" if event.get("verb") == "play" else "discarded"
        words.append(f"{title} ({verb} by seat {seat + 1})")
    play = cards.get("play")
    if isinstance(play, dict) and play.get("card") in CARD_IDS:
        words.append(f"under way: {titles[CARD_IDS.index(str(play['card']))]} of seat {int(play['seat']) + 1}")
    return ("Cards this turn: " + ", ".join(words)) if words else ""


def _wrap(words: list[str], limit: int) -> list[str]:
    """Card titles joined with commas into lines of at most about `limit` characters."""
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line}, {word}" if line else word
        if line and len(candidate) > limit:
            lines.append(line + ",")
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def _peace(v: _View, x: float, y: float) -> str:
    """King's Peaces and each pair's war state (under `war_tracking: per_pair`), where any is set."""
    words = []
    pairs = v.snap.get("pairs", {})
    for a, b in KINGDOM_PAIRS:
        entry = pairs.get(f"{KINGDOMS[a]}-{KINGDOMS[b]}", {})
        names = f"{v.kingdom_words(KINGDOMS[a])}–{v.kingdom_words(KINGDOMS[b])}"
        if entry.get("kings_peace"):
            words.append(f"King's Peace {names}")
        if entry.get("war"):
            words.append(f"{names}: {'War' if entry['war'] == 'war' else 'Peace?'}")
    return _text(x, y, " · ".join(words), "small") if words else ""


# -- the whole --------------------------------------------------------------------------------------------------


def render_svg(state: Situation, seat: int | None, names: list[str] | None = None) -> str:
    """The map for the viewer in `seat` (None: a spectator), drawn from what that viewer may see; the seat to move
    also gets its legal area actions as click targets."""
    return "".join(render_svg_parts(state, seat, names))


def render_svg_parts(state: Situation, seat: int | None, names: list[str] | None = None) -> list[str]:
    """`render_svg` in pieces that change apart: the opening tag (its label names the year), the fixed drawing
    (style, patterns, sea, links), each area, each area's pieces outside it, the fleets, the areas' names, the peace
    line, the status, the players, the legend and the end. A move changes a few of them, so a client holding the
    board is sent those."""
    base = _base(state.board)
    layout = base.layout
    v = _View(state, seat, names)
    width, height = base.width, base.height
    areas: list[str] = []
    targets: list[str] = []
    for area in v.board.areas:
        p = layout.places[area.id]
        inside, apart = _pieces(v, area, p)
        areas.append(_area(v, area, p, inside + _marks(v, area, p)))
        targets.append(apart)
    who = "a spectator" if seat is None or seat < 0 else v.name(seat)
    label = f"Vikingatid map, year {v.snap['year']}, as {who} sees it"
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" width="{_f(width)}" '
        f'height="{_f(height)}" class="vikingatid-map" role="img" aria-label="{_esc(label)}">',
        base.ground,
        '<g class="areas">',
        *areas,
        '</g><g class="pieces">',
        *targets,
        "</g>",
        _fleets(v),
        _labels(v),
        _peace(v, 20, layout.height - 14),
        *_status(v, layout.height, width),
        *_players(v, layout.height + TRACK_H, width),
        base.legend,
        "</svg>",
    ]
