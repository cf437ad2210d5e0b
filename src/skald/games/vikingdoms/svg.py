"""The Vikingdoms table as SVG: the five islands, the 4×4 recruitment board, the allies, the raid under way and
both territories, drawn from what one seat may see (`state.observation(seat)`).

Things an action could name carry `data-action` (the action's JSON form, in the web table's canonical key text),
so a front end can offer the legal ones and ask the state why the others are forbidden; the renderer itself
decides nothing about legality. They are drawn only for the seat whose decision it is.

Moving a stack and Gunnar's swap take two clicks, with no script of the table's own: the Viking to move from
(or the first island) is a focusable `g.pick`, and its choices (`g.option`, each with `data-action`) show only
while it has focus. Clicking a choice keeps the focus on the pick, because the choice lies inside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from skald.engine import target_key
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.board import PIECES, SIZE, SQUARE_NAMES, TROOP_HEIGHT, targets
from skald.games.vikingdoms.notation import to_notation
from skald.games.vikingdoms.options import OPTIONS
from skald.games.vikingdoms.presentation import ALLY_ABILITY, HINTS, PROMPTS
from skald.games.vikingdoms.tiles import Tile

#: Red (seat 0) and Blue (seat 1): the colours of their Vikings.
SEAT_FILL = ("#c0392b", "#2f6fd0")
BUILDING_FILL = {
    "village": "#e6c98f",
    "port": "#9cc8e4",
    "fortress": "#b9b4aa",
    "workshop": "#d3a67a",
    "farm": "#b8d48a",
    "marketplace": "#f0cf6a",
}
#: A small pictogram per building, drawn in a 24×16 box centred on the origin.
BUILDING_ICON = {
    "village": "M-9,7 v-8 l9,-7 l9,7 v8 z M-2,7 v-5 h4 v5",
    "port": "M-11,2 h22 l-4,6 h-14 z M0,2 v-12 M0,-10 l7,8 h-7",
    "fortress": "M-8,8 v-14 h3 v3 h3 v-3 h4 v3 h3 v-3 h3 v14 z",
    "workshop": "M-10,-3 h16 l4,-3 v5 l-4,1 h-2 v3 h3 v5 h-14 v-5 h3 v-3 h-6 z",
    "farm": "M-11,8 l4,-14 M-4,8 l4,-14 M3,8 l4,-14 M-11,0 h22",
    "marketplace": "M-11,-2 l3,-6 h16 l3,6 z M-9,-2 v10 M9,-2 v10 M-9,4 h18",
}

WIDTH = 980
TILE_W, TILE_H = 58, 68
#: The "new" badge over a tile taken in this raid.
BADGE_W, BADGE_H = 28, 11
SQUARE = 96
DISC_H, DISC_PITCH = 12, 14
ISLAND_ROW = 76
ISLAND_W = 196
TOP = 132  # where the islands, the board and the allies start
BOARD_X = 250
ALLIES_X = 656
PANELS_TOP = TOP + 462
PANEL_H = 116
HEIGHT = PANELS_TOP + 2 * (PANEL_H + 10) + 30

STYLE = """
.vikingdoms-board text{font-family:Georgia,'DejaVu Serif',serif;fill:#3b2a14}
.vikingdoms-board .title{font-size:26px;font-weight:bold}
.vikingdoms-board .status{font-size:17px}
.vikingdoms-board .hint{font-size:13px;font-style:italic;fill:#8c2f1b}
.vikingdoms-board .heading{font-size:14px;font-weight:bold}
.vikingdoms-board .name{font-size:17px;font-weight:bold}
.vikingdoms-board .big{font:bold 22px 'DejaVu Sans',sans-serif}
.vikingdoms-board .small{font:11px 'DejaVu Sans',sans-serif}
.vikingdoms-board .tiny{font:9px 'DejaVu Sans',sans-serif}
.vikingdoms-board .num{font:bold 11px 'DejaVu Sans',sans-serif;text-anchor:middle}
.vikingdoms-board .mid{text-anchor:middle}
.vikingdoms-board .end{text-anchor:end}
.vikingdoms-board .light{fill:#fff}
.vikingdoms-board .target.legal,.vikingdoms-board .pick{cursor:pointer}
.vikingdoms-board .legal>.face{stroke:#a35f00;stroke-width:3}
.vikingdoms-board .legal:hover>.face{stroke:#8c2f1b}
.vikingdoms-board .legal>.cell{fill:#fff1c2}
.vikingdoms-board .legal:hover>.cell{fill:#ffd35c}
.vikingdoms-board .forbidden{cursor:not-allowed}
.vikingdoms-board .pick{outline:none}
.vikingdoms-board .hit{fill:#fff;fill-opacity:0;stroke:none}
.vikingdoms-board .pick:has(.option.legal)>.hit{stroke:#a35f00;stroke-width:1.5;stroke-dasharray:3 2}
.vikingdoms-board .pick:has(.option):hover>.hit{stroke:#f0a800;stroke-width:2;stroke-dasharray:none}
.vikingdoms-board .pick:has(.option):focus-within>.hit,.vikingdoms-board .pick:has(.option):focus-within~.pick>.hit{
  stroke:#1a4fa0;stroke-width:3;stroke-dasharray:none}
.vikingdoms-board .option{display:none}
.vikingdoms-board .pick:focus-within .option{display:inline}
.vikingdoms-board .option:focus>.face{stroke:#1a4fa0;stroke-width:4}
.vikingdoms-board .picks:focus-within .pickset:not(:focus-within){pointer-events:none}
.vikingdoms-board .option>.face{fill:#f7c948;fill-opacity:.5;stroke:#b07d00;stroke-width:2}
.vikingdoms-board .option.forbidden>.face{fill:#9a9a9a;stroke:#666}
"""

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(value: object) -> str:
    """Text safe inside an element or a quoted attribute; characters XML forbids outright are dropped."""
    return escape(_XML_INVALID.sub("", str(value)), quote=True)


def _text(x: float, y: float, content: object, cls: str = "small", extra: str = "") -> str:
    return f'<text x="{x:g}" y="{y:g}" class="{cls}"{extra}>{_esc(content)}</text>'


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _group(cls: str, body: str, title: str = "", action: Mapping[str, Any] | None = None, at: str | None = None) -> str:
    """A group with its own tooltip; with `action`, something to click, carrying the action's JSON form as
    `data-action` in the canonical text the web table's legal keys use; with `at`, its name for the last move
    (`data-at`, see `VikingdomsPresentation.last_move`)."""
    attrs = f' class="{cls}"'
    if action is not None:
        key = target_key(action)
        attrs = f' class="{cls} target" data-action="{_esc(key)}"'
    if at is not None:
        attrs += f' data-at="{_esc(at)}"'
    tip = f"<title>{_esc(title)}</title>" if title else ""
    return f"<g{attrs}>{tip}{body}</g>"


@dataclass(frozen=True)
class _Table:
    """The observation, with what every part of the drawing asks of it."""

    obs: Mapping[str, Any]
    tiles: Mapping[str, Tile]
    names: tuple[str, str]

    @property
    def phase(self) -> str:
        return str(self.obs["phase"])

    @property
    def mover(self) -> int:
        return int(self.obs["to_move"])

    @property
    def viewer(self) -> int:
        return int(self.obs["seat"])

    @property
    def deciding(self) -> bool:
        """Whether the viewer is the seat to decide, so its choices are drawn."""
        return self.mover >= 0 and self.viewer == self.mover

    def choosing(self, phase: str) -> bool:
        return self.deciding and self.phase == phase

    def who(self, seat: int) -> str:
        """A player's name with the colour of their Vikings, e.g. 'Astrid (Red)'."""
        colour = A.SEAT_NAMES[seat]
        return colour if self.names[seat] == colour else f"{self.names[seat]} ({colour})"


def render_svg(observation: Mapping[str, Any], tiles: Sequence[Tile], names: Sequence[str] | None = None) -> str:
    """The table as an SVG document, from a seat's observation and the (public) tile table."""
    table = _Table(observation, {t.name: t for t in tiles}, _names(names))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        'class="vikingdoms-board" role="img" aria-label="Vikingdoms table">',
        f"<style>{STYLE}</style>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#efe3c5"/>',
        *_header(table),
        *_islands(table, 16, TOP),
        *_board(table, BOARD_X, TOP),
        *_allies(table, ALLIES_X, TOP),
        *_raid(table, ALLIES_X, TOP + 170),
    ]
    # The viewer's own territory lies at the bottom, nearest to them.
    viewer = table.viewer
    order = (1 - viewer, viewer) if viewer in (0, 1) else (0, 1)
    for index, seat in enumerate(order):
        parts += _territory(table, seat, 12, PANELS_TOP + index * (PANEL_H + 10))
    parts.append(_text(16, HEIGHT - 12, _options_line(observation)))
    parts.append("</svg>")
    return "".join(parts)


def _names(names: Sequence[str] | None) -> tuple[str, str]:
    """The players' names, each seat's colour where none is given."""
    given = list(names or [])
    red, blue = (given[seat] if seat < len(given) and given[seat] else A.SEAT_NAMES[seat] for seat in (0, 1))
    return red, blue


def disc(x: float, y: float, seat: int, width: float = 64) -> str:
    """One Viking seen from the side, in its owner's colour, with the owner's letter."""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{DISC_H}" rx="6" fill="{SEAT_FILL[seat]}" '
        'stroke="#fff" stroke-width="1"/>'
        + _text(x + width / 2, y + DISC_H - 2.5, A.SEAT_LETTERS[seat], "tiny mid light")
    )


def tile_glyph(x: float, y: float, tile: Tile, new: bool = False, action: Mapping[str, Any] | None = None) -> str:
    """A territory tile: its building, coins (upper left), prisoners (upper right) and any rioter."""
    w, h = TILE_W, TILE_H
    parts = [
        f'<rect class="face" x="{x:g}" y="{y:g}" width="{w}" height="{h}" rx="6" '
        f'fill="{BUILDING_FILL.get(tile.building, "#ddd")}" stroke="#6b5230" stroke-width="1.2"/>',
        f'<circle cx="{x + 11:g}" cy="{y + 11:g}" r="9" fill="#e4b21b" stroke="#8a6a00"/>',
        _text(x + 11, y + 15, tile.coins, "num"),
        f'<rect x="{x + w - 20:g}" y="{y + 2:g}" width="18" height="18" rx="3" fill="#3b2a14"/>',
        _text(x + w - 11, y + 15, tile.prisoners, "num light"),
    ]
    icon = BUILDING_ICON.get(tile.building)
    if icon:
        parts.append(
            f'<path transform="translate({x + w / 2:g},{y + 32:g})" d="{icon}" fill="none" stroke="#3b2a14" '
            'stroke-width="1.6" stroke-linejoin="round"/>'
        )
    parts.append(_text(x + w / 2, y + 52, tile.building, "tiny mid"))
    parts.append(_text(x + w / 2, y + 64, tile.name, "num"))
    if tile.rioter:
        parts.append(f'<circle cx="{x + 10:g}" cy="{y + h - 10:g}" r="7" fill="#c0392b"/>')
        parts.append(_text(x + 10, y + h - 6, "!", "num light"))
    if new:
        # Under the tile, clear of it: inside, every corner and line already shows something.
        parts.append(
            f'<rect class="badge" x="{x + w / 2 - BADGE_W / 2:g}" y="{y + h + 2:g}" width="{BADGE_W}" '
            f'height="{BADGE_H}" rx="3" fill="#8c2f1b"/>'
        )
        parts.append(_text(x + w / 2, y + h + 10, "new", "tiny mid light"))
    about = f"{tile.name}: {tile.building}, {_count(tile.coins, 'coin')}, {_count(tile.prisoners, 'prisoner')}"
    about += ", rioter" if tile.rioter else ""
    return _group("tile", "".join(parts), about + (" (taken in this raid)" if new else ""), action)


# -- the header: whose decision it is, and the choices that are not places on the table -------------------


def _status(table: _Table) -> str:
    obs, phase = table.obs, table.phase
    if phase == S.DEALING:
        return f"Set-up: the territory tiles are drawn ({obs['undrawn']} still face down)"
    if phase == S.YOUNGEST:
        return "Set-up: the coins are tied, so the youngest player will choose where the raiding starts"
    if phase == S.OVER:
        return f"Game over: {table.who(int(obs['winner']))} wins ({obs['ending']})"
    if phase == S.RIOTING:
        prompt = f"riot! take a tile from {table.who(int(obs['rioter']))}'s territory"
    elif phase == S.CHOOSING_ALLY and obs["pending_allies"]:
        prompt = f"take an ally for the second {obs['pending_allies'][0][1]}"
    else:
        prompt = PROMPTS[phase]
    return f"{table.who(table.mover)}: {prompt}"


def _choices(table: _Table) -> list[tuple[dict[str, Any], str]]:
    """The deciding seat's choices that name no place on the table, as (action, label)."""
    if not table.deciding:
        return []
    phase = table.phase
    if phase == S.CHOOSING_START:
        return [
            ({"type": "start", "island": "upper"}, "start at island 1"),
            ({"type": "start", "island": "lower"}, "start at island 5"),
        ]
    if phase == S.RECRUITMENT:
        return [({"type": "pass"}, "pass")]
    if phase == S.GUNNAR_SWAP:
        return [({"type": "no_swap"}, "no swap")]
    if phase == S.EXCHANGING:
        most = min(table.obs["lockup"])
        offers = [({"type": "exchange", "count": n}, f"exchange {n}") for n in range(1, most + 1)]
        return [*offers, ({"type": "no_exchange"}, "no exchange")]
    return []


def _header(table: _Table) -> list[str]:
    out = [
        f'<rect x="6" y="6" width="{WIDTH - 12}" height="{TOP - 14}" rx="12" fill="#f7edd3" stroke="#c8ad78"/>',
        _text(24, 40, "Vikingdoms", "title"),
        _text(24, 68, _status(table), "status", ' data-role="status"'),
    ]
    obs = table.obs
    if table.phase != S.OVER:
        raid = f"Raid {int(obs['raids']) + 1}" if int(obs["raid_marker"]) >= 0 else "Before the first raid"
        out.append(_text(WIDTH - 24, 40, raid, "heading end"))
    if table.deciding:
        out.append(_text(24, 90, f"Your turn. {HINTS[table.phase]}", "hint"))
    x = 24.0
    for action, label in _choices(table):
        width = 18 + 7.2 * len(label)
        chip = (
            f'<rect class="face" x="{x:g}" y="98" width="{width:g}" height="24" rx="12" fill="#fffaf0" '
            f'stroke="#8c6f3f"/>{_text(x + width / 2, 114, label, "small mid")}'
        )
        out.append(_group("choice", chip, "", action))
        x += width + 8
    return out


# -- the islands: five pairs of tiles in a column, the raid marker beside one ---------------------------


def _face_down(x: float, y: float) -> str:
    return _group(
        "face-down",
        f'<rect x="{x:g}" y="{y:g}" width="{TILE_W}" height="{TILE_H}" rx="6" fill="#5b3b1f" stroke="#3b2410"/>'
        f'<rect x="{x + 6:g}" y="{y + 6:g}" width="{TILE_W - 12}" height="{TILE_H - 12}" rx="4" fill="none" '
        'stroke="#a07a4a" stroke-dasharray="4 3"/>',
        "a tile still face down",
    )


def _islands(table: _Table, x: float, y: float) -> list[str]:
    obs = table.obs
    marker = int(obs["raid_marker"])
    choosing_start = table.choosing(S.CHOOSING_START)
    taking = table.choosing(S.TAKING)
    out = [_text(x, y + 14, "Islands", "heading")]
    for position in range(A.NUM_ISLANDS):
        top = y + 26 + position * ISLAND_ROW
        lying = [str(name) for name in obs["islands"][position]]
        row = [
            f'<rect class="face" x="{x - 4:g}" y="{top - 4:g}" width="{ISLAND_W}" height="{TILE_H + 8}" rx="8" '
            f'fill="{"#d8ecf5" if position == marker else "#e3eef4"}" stroke="#a9c7d8"/>',
            f'<circle cx="{x + 10:g}" cy="{top + TILE_H / 2:g}" r="10" fill="#4e3621"/>',
            _text(x + 10, top + TILE_H / 2 + 4, position + 1, "num light"),
        ]
        for slot in range(2):
            tx = x + 26 + slot * (TILE_W + 6)
            if slot < len(lying):
                take = {"type": "take", "tile": lying[slot]} if taking and position == marker else None
                row.append(tile_glyph(tx, top, table.tiles[lying[slot]], action=take))
            elif not obs["raided"][position]:
                row.append(_face_down(tx, top))
        if obs["raided"][position] and not lying:
            row.append(_text(x + 26 + TILE_W + 3, top + TILE_H / 2 + 4, "raided", "small mid"))
        if position == marker:
            row.append(_raid_marker(x + 26 + 2 * (TILE_W + 6), top + TILE_H / 2, int(obs["direction"])))
        end = {0: "upper", A.NUM_ISLANDS - 1: "lower"}.get(position)
        if choosing_start and end:
            title = f"start the raiding at island {position + 1} ({end})"
            out.append(_group("island", "".join(row), title, {"type": "start", "island": end}))
        else:
            out.append(_group("island", "".join(row), f"island {position + 1}"))
    if table.choosing(S.GUNNAR_SWAP):
        out += _swap_picks(table, x, y + 26)
    return out


def _raid_marker(x: float, y: float, direction: int) -> str:
    """The raid marker: a pointer at the island being raided, with the way it moves on."""
    return _group(
        "raid-marker",
        f'<path d="M{x:g},{y:g} l14,-12 h14 v24 h-14 z" fill="#8c2f1b"/>'
        + _text(x + 21, y + 4, "▼" if direction > 0 else "▲", "tiny mid light"),
        f"the raid marker; it moves on {'down' if direction > 0 else 'up'} the column",
    )


def _swap_picks(table: _Table, x: float, y: float) -> list[str]:
    """Gunnar: click one island not raided yet, then the island to swap it with."""
    open_islands = [p for p in range(A.NUM_ISLANDS) if table.obs["islands"][p]]
    out = ['<g class="picks">']
    for first in open_islands:
        top = y + first * ISLAND_ROW
        options = []
        for second in open_islands:
            if second == first:
                continue
            pair = sorted((first + 1, second + 1))
            other = y + second * ISLAND_ROW
            face = (
                f'<rect class="face" x="{x - 4:g}" y="{other - 4:g}" width="{ISLAND_W}" height="{TILE_H + 8}" rx="8"/>'
                + _text(x + ISLAND_W / 2 - 2, other + TILE_H / 2 + 5, f"swap with {first + 1}", "heading mid")
            )
            options.append(_group("option", face, f"swap {pair[0]}-{pair[1]}", {"type": "swap", "islands": pair}))
        out.append(
            f'<g class="pickset"><g class="pick" tabindex="0" data-island="{first + 1}">'
            f"<title>swap island {first + 1} with…</title>"
            f'<rect class="hit" x="{x - 4:g}" y="{top - 4:g}" width="{ISLAND_W}" height="{TILE_H + 8}" rx="8"/>'
            f"{''.join(options)}</g></g>"
        )
    out.append("</g>")
    return out


# -- the recruitment board: stacks of Vikings, bottom to top ----------------------------------------------


def _square_origin(x: float, y: float, square: int) -> tuple[float, float]:
    """The upper-left corner of `square`: rank 4 at the top, file a on the left, as the notation reads."""
    row, col = divmod(square, SIZE)
    return x + col * SQUARE, y + (SIZE - 1 - row) * SQUARE


def _disc_y(sy: float, level: int) -> float:
    """The top of the disc at `level` (0 = bottom) of a stack standing in the square whose top is `sy`."""
    return sy + SQUARE - 8 - (level + 1) * DISC_PITCH


def _board(table: _Table, x: float, y: float) -> list[str]:
    board = [[int(seat) for seat in stack] for stack in table.obs["board"]]
    placing = table.choosing(S.RECRUITMENT)
    choosing_troop = table.choosing(S.CHOOSING_TROOP)
    top = y + 26
    out = [_text(x, y + 14, "The board", "heading")]
    for square, stack in enumerate(board):
        sx, sy = _square_origin(x, top, square)
        name = SQUARE_NAMES[square]
        shade = "#e8d9b0" if (square // SIZE + square % SIZE) % 2 else "#dccb9c"
        cell = f'<rect class="cell" x="{sx:g}" y="{sy:g}" width="{SQUARE}" height="{SQUARE}" fill="{shade}"/>'
        if not stack:
            place = {"type": "place", "square": name} if placing else None
            out.append(
                _group("square", cell, f"place a Viking on {name}" if placing else name, place, f"square:{name}")
            )
            continue
        face = (
            f'<rect class="face" x="{sx + 2:g}" y="{sy + 2:g}" width="{SQUARE - 4}" height="{SQUARE - 4}" '
            'fill="none" stroke="none"/>'
        )
        about = f"{name}: {len(stack)} Vikings, bottom to top {''.join(A.SEAT_LETTERS[s] for s in stack)}"
        troop = {"type": "troop", "square": name} if choosing_troop else None
        out.append(_group("square", cell + face + _stack(sx, sy, stack), about, troop, f"square:{name}"))
    out.append(
        f'<rect x="{x:g}" y="{top:g}" width="{SIZE * SQUARE}" height="{SIZE * SQUARE}" fill="none" '
        'stroke="#6b5230" stroke-width="2"/>'
    )
    for index in range(SIZE):
        out.append(_text(x + (index + 0.5) * SQUARE, top + SIZE * SQUARE + 16, "abcd"[index], "heading mid"))
        out.append(_text(x - 12, top + (SIZE - 1 - index + 0.5) * SQUARE + 5, index + 1, "heading mid"))
    legend = " · ".join(f"{h} {piece}" for h, piece in PIECES.items())
    legend = f"A stack moves by its whole height: {legend}; {TROOP_HEIGHT} or more is the raiding troop."
    out.append(_text(x, top + SIZE * SQUARE + 36, legend, "tiny"))
    if placing:
        out += _move_picks(x, top, board)
    return out


def _stack(sx: float, sy: float, stack: Sequence[int]) -> str:
    """A stack seen from the side, bottom to top, under the chess piece its height moves like."""
    label = f"{len(stack)} · {PIECES.get(len(stack), 'troop')}"
    discs = "".join(disc(sx + 16, _disc_y(sy, level), seat) for level, seat in enumerate(stack))
    return _text(sx + SQUARE / 2, sy + 14, label, "tiny mid") + discs


def _move_picks(x: float, y: float, board: Sequence[Sequence[int]]) -> list[str]:
    """Each Viking on the board as a pick: it and those above it move onto a stack lit once it is clicked.

    The picks of a stack come bottom first, so the style can light the Vikings above the one clicked.
    """
    heights = [len(stack) for stack in board]
    out = ['<g class="picks">']
    for source, stack in enumerate(board):
        if not stack:
            continue
        sx, sy = _square_origin(x, y, source)
        name = SQUARE_NAMES[source]
        reachable = targets(heights, source)
        out.append(f'<g class="pickset" data-square="{name}">')
        for level in range(len(stack)):
            count = len(stack) - level
            options = "".join(
                _move_option(x, y, source, target, count, heights[target] + count) for target in reachable
            )
            out.append(
                f'<g class="pick" tabindex="0" data-square="{name}" data-count="{count}">'
                f"<title>move the top {count} from {name}</title>"
                f'<rect class="hit" x="{sx + 14:g}" y="{_disc_y(sy, level) - 1:g}" width="68" height="{DISC_PITCH}" '
                f'rx="7"/>{options}</g>'
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _move_option(x: float, y: float, source: int, target: int, count: int, result: int) -> str:
    """Where a pick may go: the target stack lit, with how many arrive and the height they make."""
    tx, ty = _square_origin(x, y, target)
    src, dst = SQUARE_NAMES[source], SQUARE_NAMES[target]
    face = (
        f'<rect class="face" x="{tx + 4:g}" y="{ty + 4:g}" width="{SQUARE - 8}" height="{SQUARE - 8}" rx="8"/>'
        + _text(tx + SQUARE / 2, ty + 40, f"+{count}", "big mid")
        + _text(tx + SQUARE / 2, ty + 58, "raiding troop!" if result >= TROOP_HEIGHT else f"→ {result}", "heading mid")
    )
    title = f"{to_notation(A.move_id(source, target, count), ())}: the top {count} from {src} onto {dst}"
    return _group("option", face, title, {"type": "move", "from": src, "to": dst, "count": count})


# -- the allies by the board, and the raid under way -----------------------------------------------------


def _allies(table: _Table, x: float, y: float) -> list[str]:
    owners: Mapping[str, int] = table.obs["allies"]
    choosing = table.choosing(S.CHOOSING_ALLY)
    out = [_text(x, y + 14, "Allies", "heading")]
    for index, ascii_name in enumerate(A.ALLY_ASCII):
        cx = x + (index % 2) * 156
        cy = y + 26 + (index // 2) * 68
        owner = int(owners.get(ascii_name, -1))
        short, rules = ALLY_ABILITY[ascii_name]
        card = [
            f'<rect class="face" x="{cx:g}" y="{cy:g}" width="148" height="60" rx="8" '
            f'fill="{"#f3e6c4" if owner < 0 else "#e6dcc6"}" stroke="#8c6f3f"/>',
            _text(cx + 12, cy + 22, A.ALLY_NAMES[index], "name"),
            _text(cx + 12, cy + 40, short, "tiny"),
        ]
        if owner >= 0:
            card.append(
                f'<rect x="{cx + 94:g}" y="{cy + 8:g}" width="46" height="18" rx="9" fill="{SEAT_FILL[owner]}"/>'
            )
            card.append(_text(cx + 117, cy + 21, A.SEAT_NAMES[owner], "tiny mid light"))
            card.append(_text(cx + 12, cy + 53, f"{table.who(owner)}'s", "tiny"))
        else:
            card.append(_text(cx + 12, cy + 53, "by the board", "tiny"))
        take = {"type": "ally", "ally": ascii_name} if choosing and owner < 0 else None
        out.append(_group("ally", "".join(card), f"{A.ALLY_NAMES[index]}: {rules}", take))
    return out


def _raid(table: _Table, x: float, y: float) -> list[str]:
    """The raid under way: the troop on the raid marker, its leader, the tiles taken and the effects owed."""
    obs = table.obs
    out = [
        f'<rect x="{x - 8:g}" y="{y:g}" width="{WIDTH - x - 4:g}" height="250" rx="10" fill="#f7edd3" '
        'stroke="#c8ad78"/>',
        _text(x + 4, y + 22, "The raid", "heading"),
    ]
    lines: list[str] = []
    troop = [int(s) for s in obs["troop"]]
    leader = int(obs["leader"])
    line_y = y + 44
    if troop:
        out.append(_text(x + 4, line_y, f"Raiding troop of {len(troop)} Vikings, bottom to top:"))
        out += [disc(x + 4 + index * 30, line_y + 10, seat, 28) for index, seat in enumerate(troop)]
        out.append(_text(x + 4 + (len(troop) - 1) * 30 + 14, line_y + 36, "top", "tiny mid"))
        lines.append(f"{table.who(leader)} leads: the Viking on top.")
        line_y += 56
    else:
        lines.append("No raid under way.")
        if leader >= 0:
            lines.append(f"The last raid was led by {table.who(leader)}.")
    taken = obs["taken"]
    if any(taken):
        lines.append("Taken: " + ", ".join(f"{table.who(s)} {taken[s]}" for s in (0, 1) if taken[s]))
    if int(obs["rioter"]) >= 0:
        lines.append(f"Riot: {table.who(int(obs['rioter']))} collected the second rioter.")
    for seat, building in obs["pending_allies"]:
        lines.append(f"Ally owed: {table.who(int(seat))}, for the second {building}.")
    if obs["set_aside"]:
        lines.append("Set aside unraided: " + ", ".join(obs["set_aside"]))
    lines.append(f"Raids so far: {obs['raids']}; tiles face down: {obs['undrawn']}.")
    out += [_text(x + 4, line_y + index * 18, line) for index, line in enumerate(lines)]
    return out


# -- the territories: tiles, coins, buildings, camp and lockup --------------------------------------------


def _territory(table: _Table, seat: int, x: float, y: float) -> list[str]:
    obs = table.obs
    names = [str(n) for n in obs["territory"][seat]]
    tiles = [table.tiles[n] for n in names]
    to_move = table.mover == seat and table.phase != S.OVER
    winner = int(obs["winner"]) == seat
    border = "#d18b00" if winner else "#8c2f1b" if to_move else "#8c6f3f"
    tags = (
        (" · you" if table.viewer == seat else "") + (" · to move" if to_move else "") + (" · wins" if winner else "")
    )
    count = {b: sum(1 for t in tiles if t.building == b) for b in ("village", "port", "fortress")}
    rioters = sum(1 for t in tiles if t.rioter)
    buildings = (
        f"villages {count['village']}/{S.BUILDINGS_TO_WIN} · ports {count['port']}/{S.BUILDINGS_TO_WIN} · "
        f"fortresses {count['fortress']} · rioters {rioters}/2"
    )
    out = [
        f'<g class="territory" data-seat="{seat}">',
        f'<rect x="{x:g}" y="{y:g}" width="{WIDTH - 2 * x:g}" height="{PANEL_H}" rx="10" fill="#fbf6ea" '
        f'stroke="{border}" stroke-width="{3 if to_move or winner else 1.5}"/>',
        f'<rect x="{x:g}" y="{y:g}" width="10" height="{PANEL_H}" rx="5" fill="{SEAT_FILL[seat]}"/>',
        _text(x + 22, y + 26, table.who(seat) + tags, "name"),
        _text(x + 22, y + 58, f"{int(obs['coins'][seat])} / {S.COINS_TO_WIN} coins", "big", ' data-role="coins"'),
        _text(x + 22, y + 80, buildings),
        disc(x + 22, y + 92, seat, 22),
        _text(x + 50, y + 102, f"camp {obs['camp'][seat]}"),
        disc(x + 120, y + 92, 1 - seat, 22),
        _text(x + 148, y + 102, f"lockup {obs['lockup'][seat]} (prisoners)"),
    ]
    rioting = table.choosing(S.RIOTING) and int(obs["rioter"]) == seat
    taken = obs["taken"][seat]
    for index, (name, tile) in enumerate(zip(names, tiles, strict=True)):
        riot = {"type": "riot", "tile": name} if rioting else None
        # The row leaves room under the tiles for the "new" badge, inside the panel.
        out.append(tile_glyph(x + 320 + index * (TILE_W + 6), y + 34, tile, new=name == taken, action=riot))
    if not names:
        out.append(_text(x + 320, y + 76, "no territory tile yet"))
    allies = [A.ALLY_NAMES[i] for i, a in enumerate(A.ALLY_ASCII) if int(obs["allies"].get(a, -1)) == seat]
    if allies:
        out.append(_text(WIDTH - 2 * x, y + 26, "Allies: " + ", ".join(allies), "small end"))
    out.append("</g>")
    return out


def _options_line(obs: Mapping[str, Any]) -> str:
    """The rule options that differ from their defaults (each one a reading the rules text leaves open)."""
    chosen = obs.get("options", {})
    changed = [f"{o.name}={chosen[o.name]}" for o in OPTIONS if o.name in chosen and chosen[o.name] != o.default]
    return "Rule options: " + (", ".join(changed) if changed else "all defaults (docs/vikingdoms.md)")
