"""The Vikings table as SVG: the wheel with its Groups and prices, every Mainland, Fame, Gold and the rounds.

`render_svg` draws from a state or from its observation (what a seat may see), so the web table, the docs and
any other front end show the same board. Squares, Groups and Boatswain chips that an action could name carry
`data-action` (the action's JSON form) so a front end can offer the legal ones and ask the state why the
others are forbidden; the renderer itself decides nothing about legality.
"""

from __future__ import annotations

from html import escape
from typing import Any

from skald.engine import target_key
from skald.games.vikings.components import (
    EMPTY,
    ISLANDS,
    LARGE_SCORING_ROUNDS,
    LETTERS,
    MAX_COLUMNS,
    ROUNDS,
    ROW_LETTERS,
    ROW_OF_COLOUR,
    SPECIAL_CODES,
    SPECIALS,
    is_ship,
    ship_of,
    tile_from_code,
)

#: Viking colours by notation letter (blue Fishermen, yellow Goldsmiths, green Scouts, red Nobles,
#: black Warriors, grey Boatswains).
#: The Vikings' colours, as on the pieces, each with a letter drawn on it in ink of at least 4.5:1 (WCAG 1.4.3). The
#: Scouts' green is a deep blue-green, so that it stays apart from the Nobles' red for a red-blind or green-blind
#: eye (tests/test_play_vikings_table.py simulates both), and the rows' coast is darkened for its white names.
COLOURS = {"F": "#2f6fd0", "G": "#e4b21b", "S": "#00695c", "N": "#cf3a2c", "W": "#26262b", "B": "#9aa0a6"}
INK = {"F": "#fff", "G": "#3a2a00", "S": "#fff", "N": "#fff", "W": "#fff", "B": "#1d1d1d"}
ROLES = {"F": "Fishermen", "G": "Goldsmiths", "S": "Scouts", "N": "Nobles", "W": "Warriors", "B": "Boatswains"}
SEA, DEEP, LAND, GRASS, COAST = "#d6ebf5", "#a9d0e6", "#e2cf98", "#9cbf6b", "#5b7a3e"
CELL = 34
LABEL = 120
STEP_TEXT = {
    "draw_tiles": "the offer is drawn",
    "draw_vikings": "the Vikings are drawn",
    "buy": "buy a Group",
    "place_tile": "place the tile",
    "place_viking": "place the Viking",
    "ferry": "ferry with Boatswains",
    "land": "land the ferried Vikings",
    "game_over": "game over",
    "draw_specials": "special tiles are turned up",
    "auction": "bid for the Start Player Ship",
    "remove_viking": "remove one drawn Viking",
    "place_colours": "lay a colour from space 11 down",
    "take_special": "take a special tile",
    "replace_building": "choose the tile the Building replaces",
}


def _attr(action: dict[str, Any]) -> str:
    return escape(target_key(action), quote=True)


def _tile(code: str) -> int:
    try:
        return tile_from_code(code)
    except ValueError:
        return EMPTY


def _observation(source: Any) -> dict[str, Any]:
    if isinstance(source, dict):
        return source
    from skald.games.vikings.position import state_to_dict

    return state_to_dict(source)


def _threatened(raw: dict[str, Any], players: int) -> set[tuple[int, int]]:
    """Squares whose Viking an unrepelled ship threatens (drawn lying down, as the rulebook suggests)."""
    try:
        from skald.games.vikings.position import mainland_from_dict
        from skald.games.vikings.scoring import threats

        land = mainland_from_dict(
            {k: v for k, v in raw.items() if k in ("fame", "gold", "head", "rows")}, "mainland", players
        )
        seen = threats(land)
    except Exception:  # a position the reader cannot rebuild is still drawn, without threat marks
        return set()
    return {(row, col) for row in range(1, 6) for col in range(1, MAX_COLUMNS + 1) if seen.is_threatened(row, col)}


def _rows(raw: dict[str, Any]) -> list[list[tuple[str, str]]]:
    """Each row (Ship row first) as (tile code or '', Viking letter or '') per column."""
    rows = []
    for row in range(6):
        text = raw.get("rows", {}).get(ROW_LETTERS[row], "")
        cells = []
        for token in str(text).split():
            code, _, letter = token.partition(":")
            cells.append(("" if code == "." else code, letter))
        rows.append(cells)
    return rows


def viking_chip(x: float, y: float, letter: str, r: float = 10, lying: bool = False) -> str:
    """A Viking: a disc of its colour with its letter (lower case and tilted when threatened)."""
    colour, ink = COLOURS.get(letter.upper(), "#777"), INK.get(letter.upper(), "#fff")
    shown = letter.lower() if lying else letter.upper()
    if lying:
        return (
            f'<ellipse cx="{x:.1f}" cy="{y + 3:.1f}" rx="{r + 3:.1f}" ry="{r * 0.6:.1f}" fill="{colour}" '
            f'stroke="#c0392b" stroke-width="1.8" stroke-dasharray="3 2"/>'
            f'<text x="{x:.1f}" y="{y + 3 + r * 0.4:.1f}" class="chip" fill="{ink}">{shown}</text>'
            "<title>threatened by a ship</title>"
        )
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}" stroke="#fff" stroke-width="1.5"/>'
        f'<text x="{x:.1f}" y="{y + r * 0.42:.1f}" class="chip" fill="{ink}" font-size="{r * 1.15:.1f}">{shown}</text>'
    )


def ship_glyph(x: float, y: float, size: float, code: str) -> str:
    """A ship tile: a hull with the letter of the row it threatens down to, a sail in that row's colour (the letter
    tells red from green to a colour-blind eye), and its Fame or Gold."""
    tile = _tile(code)
    if tile == EMPTY or not is_ship(tile):
        return f'<text x="{x + size / 2:.1f}" y="{y + size / 2:.1f}" class="small">{escape(code)}</text>'
    ship = ship_of(tile)
    letter = LETTERS[ship.sail]
    sail, s = COLOURS[letter], size
    reward = f"{ship.value}{'★' if ship.reward == 'fame' else '●'}"
    return (
        f'<g class="ship"><rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{s - 2:.1f}" height="{s - 2:.1f}" rx="3" '
        f'fill="{DEEP}"/>'
        f'<path d="M{x + s * 0.14:.1f},{y + s * 0.66:.1f} L{x + s * 0.86:.1f},{y + s * 0.66:.1f} '
        f'L{x + s * 0.74:.1f},{y + s * 0.84:.1f} L{x + s * 0.26:.1f},{y + s * 0.84:.1f} Z" fill="#7a4a24"/>'
        f'<line x1="{x + s * 0.5:.1f}" y1="{y + s * 0.12:.1f}" x2="{x + s * 0.5:.1f}" y2="{y + s * 0.66:.1f}" '
        f'stroke="#5a3518" stroke-width="1.5"/>'
        f'<rect x="{x + s * 0.22:.1f}" y="{y + s * 0.16:.1f}" width="{s * 0.56:.1f}" height="{s * 0.42:.1f}" '
        f'rx="2" fill="{sail}" stroke="#fff" stroke-width="0.8"/>'
        f'<text x="{x + s * 0.5:.1f}" y="{y + s * 0.47:.1f}" class="reward" fill="{INK[letter]}">{reward}</text>'
        f'<rect x="{x + s * 0.36:.1f}" y="{y + s * 0.64:.1f}" width="{s * 0.28:.1f}" height="{s * 0.3:.1f}" rx="2" '
        f'fill="#3b2a14"/>'
        f'<text x="{x + s * 0.5:.1f}" y="{y + s * 0.88:.1f}" class="hull" fill="#fff">{letter}</text>'
        f"<title>ship {escape(ship.id)}: {ROLES[letter]}-row sail; {ship.value} "
        f"{'Fame' if ship.reward == 'fame' else 'Gold'}</title></g>"
    )


def island_glyph(x: float, y: float, size: float, code: str) -> str:
    """An island tile: sea with land meeting its land edges (a left end has sea to the west)."""
    tile = _tile(code)
    s = size
    if tile == EMPTY or is_ship(tile):
        return (
            f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{s - 2:.1f}" height="{s - 2:.1f}" fill="{LAND}"/>'
            f'<text x="{x + s / 2:.1f}" y="{y + s / 2 + 4:.1f}" class="small">{escape(code)}</text>'
        )
    kind = ISLANDS[tile]
    west_land, east_land = kind.west == 1, kind.east == 1
    left = x + (0 if west_land else s * 0.3)
    right = x + (s if east_land else s * 0.7)
    parts = [
        f'<rect x="{x + 0.5:.1f}" y="{y + 0.5:.1f}" width="{s - 1:.1f}" height="{s - 1:.1f}" fill="{SEA}"/>',
        f'<rect x="{left:.1f}" y="{y + s * 0.12:.1f}" width="{right - left:.1f}" height="{s * 0.76:.1f}" '
        f'rx="{0 if west_land and east_land else s * 0.22:.1f}" fill="{LAND}"/>',
        f'<rect x="{left + (0 if west_land else 3):.1f}" y="{y + s * 0.16:.1f}" '
        f'width="{max(2.0, right - left - (0 if west_land else 3) - (0 if east_land else 3)):.1f}" '
        f'height="{s * 0.34:.1f}" fill="{GRASS}" opacity="0.8"/>',
    ]
    if kind.building:
        parts.append(
            f'<path d="M{x + s * 0.18:.1f},{y + s * 0.72:.1f} l{s * 0.1:.1f},-{s * 0.12:.1f} '
            f'l{s * 0.1:.1f},{s * 0.12:.1f} z" fill="#8a5a2b"><title>{escape(kind.name)}</title></path>'
        )
    return "".join(parts)


def _wheel(obs: dict[str, Any], x: float, y: float, radius: float, buying: bool) -> list[str]:
    """The wheel: 12 spaces, each with its Group (tile and Viking) and the price the dial shows there."""
    from math import cos, pi, sin

    wheel = obs.get("wheel", {})
    offset = int(wheel.get("offset", 0))
    groups = {int(g["space"]): g for g in wheel.get("groups", [])}
    out = [
        f'<circle cx="{x}" cy="{y}" r="{radius + 22}" fill="#4e3621"/>',
        f'<circle cx="{x}" cy="{y}" r="{radius + 20}" fill="#f3e6c4" stroke="#4e3621" stroke-width="2"/>',
        f'<circle cx="{x}" cy="{y}" r="{radius - 44}" fill="#e8d7ad" stroke="#b89c64"/>',
        f'<text x="{x}" y="{y - 6}" class="wheel-title">The wheel</text>',
        f'<text x="{x}" y="{y + 12}" class="small">price = space − {offset}</text>',
    ]
    for space in range(12):
        angle = -pi / 2 + space * 2 * pi / 12
        gx, gy = x + cos(angle) * (radius - 32), y + sin(angle) * (radius - 32)
        px, py = x + cos(angle) * (radius + 10), y + sin(angle) * (radius + 10)
        price = space - offset
        if price >= 0:
            out.append(f'<text x="{px:.1f}" y="{py + 4:.1f}" class="price">{price}</text>')
        group = groups.get(space)
        if group is None:
            out.append(f'<circle cx="{gx:.1f}" cy="{gy:.1f}" r="5" fill="#cdb88a"/>')
            continue
        action = {"type": "buy", "price": int(group["price"])}
        tile = str(group["tile"])
        viking = group.get("viking")
        target = f' data-action="{_attr(action)}"' if buying else ""
        who = ROLES.get(viking or "", "?")
        out.append(
            f'<g class="group target"{target}><title>price {group["price"]}: tile {escape(tile)}, '
            f"{who[:-1] if who.endswith('s') else who}</title>"
        )
        out.append(
            f'<rect x="{gx - 27:.1f}" y="{gy - 20:.1f}" width="54" height="40" rx="7" class="slot" '
            'fill="#fffaf0" stroke="#8c6f3f"/>'
        )
        glyph = ship_glyph if is_ship(_tile(tile)) else island_glyph
        out.append(glyph(gx - 24, gy - 15, 30, tile))
        if viking:
            out.append(viking_chip(gx + 15, gy, viking, 9))
        out.append("</g>")
    return out


def _round_track(obs: dict[str, Any], x: float, y: float, names: list[str]) -> list[str]:
    current = int(obs.get("round", 1))
    out = [f'<text x="{x}" y="{y}" class="label-left">Rounds</text>']
    for r in range(1, ROUNDS + 1):
        cx = x + 20 + (r - 1) * 52
        large = r in LARGE_SCORING_ROUNDS
        fill = "#8c2f1b" if r == current else ("#d9c59a" if r > current else "#a8916a")
        out.append(f'<circle cx="{cx}" cy="{y + 24}" r="15" fill="{fill}" stroke="#4e3621" stroke-width="1.5"/>')
        out.append(
            f'<text x="{cx}" y="{y + 29}" class="round" fill="{"#fff" if r == current else "#3b2a14"}">{r}</text>'
        )
        out.append(f'<text x="{cx}" y="{y + 54}" class="small">{"large" if large else "small"}</text>')
    start = int(obs.get("start_player", 0))
    out.append(f'<text x="{x}" y="{y + 84}" class="label-left">Start player:</text>')
    out.append(
        f'<path d="M{x + 96},{y + 78} l22,0 l-4,6 l-14,0 z" fill="#7a4a24"/>'
        f'<path d="M{x + 107},{y + 62} l0,15 l-9,0 z" fill="#8c2f1b"/>'
    )
    out.append(f'<text x="{x + 126}" y="{y + 84}" class="label-left">{escape(names[start])}</text>')
    return out


def _mainland(
    obs: dict[str, Any], seat: int, raw: dict[str, Any], x: float, y: float, ncols: int, names: list[str], width: float
) -> tuple[list[str], float]:
    """One Mainland panel; returns its SVG and height."""
    step = obs.get("step", "")
    to_move = int(obs.get("to_move", 0))
    viewer = obs.get("seat")
    turn = obs.get("turn", {}) or {}
    mine = step not in ("draw_tiles", "draw_vikings", "game_over") and seat == to_move
    rows = _rows(raw)
    lying = _threatened(raw, int(obs.get("players", len(names))))
    height = 44 + 6 * CELL + 10
    border = "#c0392b" if mine else ("#2f6fd0" if viewer == seat else "#8c6f3f")
    out = [
        f'<g class="mainland" data-seat="{seat}">',
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="10" fill="#fbf6ea" stroke="{border}" '
        f'stroke-width="{3 if mine else 1.5}"/>',
    ]
    tag = " (you)" if viewer == seat else ""
    start = "  · start tile in hand" if raw.get("start_tile") == "in hand" else ""
    out.append(
        f'<text x="{x + 12}" y="{y + 26}" class="name">{escape(names[seat])}{tag}{" — to move" if mine else ""}</text>'
    )
    out.append(
        f'<text x="{x + width - 12}" y="{y + 26}" class="score">★ {raw.get("fame", 0)} Fame   '
        f"● {raw.get('gold', 0)} Gold{escape(start)}</text>"
    )
    gx, gy = x + LABEL, y + 40
    out.append(f'<rect x="{x + 8}" y="{gy}" width="{LABEL - 12}" height="{6 * CELL}" rx="6" fill="{COAST}"/>')
    placing_ship = mine and step == "place_tile" and is_ship(_tile(str(turn.get("tile") or "")))
    placing_island = mine and step == "place_tile" and turn.get("tile") and not placing_ship
    start_in_hand = mine and step == "place_tile" and raw.get("start_tile") == "in hand"
    viking_rows: set[int] = set()
    if mine and step == "place_viking" and turn.get("viking"):
        viking_rows = {ROW_OF_COLOUR[LETTERS.index(turn["viking"])]}
    if mine and step == "land":
        viking_rows = {1, 2, 3, 4, 5}
    for row in range(6):
        ry = gy + row * CELL
        label = "Ships" if row == 0 else f"{ROLES[ROW_LETTERS[row]]} ({ROW_LETTERS[row]})"
        out.append(f'<text x="{x + 14}" y="{ry + CELL / 2 + 4}" class="rowlabel">{escape(label)}</text>')
        for col in range(1, ncols + 1):
            cx = gx + (col - 1) * CELL
            code, letter = rows[row][col - 1] if col <= len(rows[row]) else ("", "")
            square = f"{ROW_LETTERS[row]}{col}"
            if not code:
                action: dict[str, Any] | None = None
                alt: dict[str, Any] | None = None
                if row == 0 and placing_ship:
                    action = {"type": "ship", "column": col}
                elif row > 0 and placing_island:
                    action = {"type": "island", "square": square}
                if row > 0 and col == 1 and start_in_hand:
                    alt = {"type": "start", "square": square}
                    if action is None:
                        action, alt = alt, None
                attrs = ""
                if action is not None:
                    attrs = f' class="square target" data-action="{_attr(action)}"'
                    if alt is not None:
                        attrs += f' data-alt="{_attr(alt)}"'
                else:
                    attrs = ' class="square"'
                attrs += f' data-at="{seat}:{square}"'
                fill = "#edf5f9" if row else "#e3eef4"
                out.append(
                    f'<rect x="{cx + 1}" y="{ry + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3" '
                    f'fill="{fill}" stroke="#c9dbe4"{attrs}><title>{square}</title></rect>'
                )
                continue
            if row == 0:
                out.append(f'<g data-at="{seat}:{square}">{ship_glyph(cx, ry, CELL, code)}</g>')
                continue
            target = ""
            if not letter and row in viking_rows:
                target = f' class="target" data-action="{_attr({"type": "viking", "square": square})}"'
            out.append(
                f'<g{target} data-at="{seat}:{square}">{island_glyph(cx, ry, CELL, code)}<title>{square}: '
                f"{escape(ISLANDS[_tile(code)].name if 0 <= _tile(code) < len(ISLANDS) else code)}"
                "</title>"
            )
            if letter:
                out.append(viking_chip(cx + CELL / 2, ry + CELL / 2, letter, 10, (row, col) in lying))
            out.append("</g>")
    for col in range(1, ncols + 1):
        out.append(f'<text x="{gx + (col - 0.5) * CELL:.1f}" y="{gy + 6 * CELL + 11}" class="colnum">{col}</text>')
    # The Head Boatswain: Vikings waiting, by colour.
    head = raw.get("head", {}) or {}
    hx = x + 290
    out.append(f'<text x="{hx}" y="{y + 26}" class="label-left" data-at="{seat}:head">Head Boatswain:</text>')
    hx += 122
    placing_head = mine and step == "place_viking"
    if placing_head:
        out.append(
            f'<g class="target" data-action="{_attr({"type": "head"})}"><rect x="{hx - 4}" y="{y + 8}" '
            f'width="58" height="24" rx="12" fill="#f3e6c4" stroke="#8c6f3f"/>'
            f'<text x="{hx + 25}" y="{y + 25}" class="small">to head</text></g>'
        )
        hx += 64
    for letter in LETTERS:
        n = int(head.get(letter, 0))
        if not n:
            continue
        ferry = mine and step == "ferry" and letter != "B"
        attrs = f' class="target" data-action="{_attr({"type": "ferry", "colour": letter})}"' if ferry else ""
        out.append(
            f"<g{attrs}>{viking_chip(hx + 10, y + 20, letter, 10)}"
            f'<text x="{hx + 24}" y="{y + 25}" class="count">×{n}</text>'
            f"<title>{n} {ROLES[letter]} waiting</title></g>"
        )
        hx += 48
    out.append("</g>")
    return out, height


STYLE = """
text{font-family:Georgia,'DejaVu Serif',serif;text-anchor:middle;dominant-baseline:auto}
.chip{font:bold 11px 'DejaVu Sans',sans-serif;text-anchor:middle}
.reward{font:bold 9px 'DejaVu Sans',sans-serif;text-anchor:middle}
.hull{font:bold 8px 'DejaVu Sans',sans-serif;text-anchor:middle}
.price{font:bold 15px 'DejaVu Sans',sans-serif;fill:#4e3621}
.small{font:11px 'DejaVu Sans',sans-serif;fill:#4e3621}
.colnum{font:10px 'DejaVu Sans',sans-serif;fill:#6b5a3a}
.count{font:bold 12px 'DejaVu Sans',sans-serif;text-anchor:start;fill:#3b2a14}
.round{font:bold 14px 'DejaVu Sans',sans-serif}
.wheel-title{font:bold 17px Georgia,serif;fill:#4e3621}
.title{font:bold 24px Georgia,serif;fill:#3b2a14;text-anchor:start}
.status{font:16px Georgia,serif;fill:#3b2a14;text-anchor:start}
.label-left{font:bold 13px Georgia,serif;fill:#3b2a14;text-anchor:start}
.name{font:bold 16px Georgia,serif;fill:#3b2a14;text-anchor:start}
.score{font:bold 14px 'DejaVu Sans',sans-serif;fill:#5b3b12;text-anchor:end}
.rowlabel{font:12px Georgia,serif;fill:#fff;text-anchor:start}
"""


SPECIAL_NAMES = dict(zip(SPECIAL_CODES, (special.name for special in SPECIALS), strict=True))


def render_svg(source: Any, names: list[str] | None = None) -> str:
    """The whole table as an SVG document, from a `VikingsState` or its observation."""
    obs = _observation(source)
    mainlands = obs.get("mainlands", [])
    players = len(mainlands)
    names = list(names or [f"Player {i + 1}" for i in range(players)])
    ncols = 6
    for raw in mainlands:
        ncols = max(ncols, max(len(cells) for cells in _rows(raw)) + 1)
    ncols = min(ncols, MAX_COLUMNS)
    width = max(980, 24 + LABEL + ncols * CELL + 8)
    step = str(obs.get("step", ""))
    to_move = int(obs.get("to_move", 0))
    radius = 150
    advanced = (obs.get("options") or {}).get("variant") == "advanced"
    top = 414 if advanced else 380
    panels: list[str] = []
    y: float = top
    for seat, raw in enumerate(mainlands):
        svg, height = _mainland(obs, seat, raw, 12, y, ncols, names, width - 24)
        panels += svg
        y += height + 14
    total = y + 6
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total}" width="{width}" height="{total}" '
        'class="vikings-board" role="img" aria-label="Vikings table">',
        f"<style>{STYLE}</style>",
        f'<rect x="0" y="0" width="{width}" height="{total}" fill="#efe3c5"/>',
        f'<rect x="6" y="6" width="{width - 12}" height="{top - 16}" rx="14" fill="#f7edd3" stroke="#c8ad78"/>',
    ]
    cx = 12 + radius + 30
    head += _wheel(obs, cx, 20 + radius + 22, radius, step == "buy")
    ix = cx + radius + 60
    head.append(f'<text x="{ix}" y="52" class="title">Vikings</text>')
    if step == "game_over":
        status = "Game over"
    elif step in ("draw_tiles", "draw_vikings", "draw_specials"):
        status = f"Round {obs.get('round', 1)}: {STEP_TEXT[step]}"
    else:
        status = f"{names[to_move]}: {STEP_TEXT.get(step, step)}"
    head.append(f'<text x="{ix}" y="82" class="status">{escape(status)}</text>')
    turn = obs.get("turn", {}) or {}
    if step in ("place_tile", "place_viking") and (turn.get("tile") or turn.get("viking")):
        head.append(f'<text x="{ix}" y="114" class="label-left">Bought:</text>')
        bx = ix + 64
        if turn.get("tile"):
            tile = str(turn["tile"])
            head.append((ship_glyph if is_ship(_tile(tile)) else island_glyph)(bx, 94, 32, tile))
            bx += 40
        if turn.get("viking"):
            head.append(viking_chip(bx + 12, 110, str(turn["viking"]), 11))
    head += _round_track(obs, ix, 150, names)
    # Fame and Gold at a glance, and what each large scoring or the end counts.
    sx = ix
    sy = 262
    head.append(f'<text x="{sx}" y="{sy}" class="label-left">Fame and Gold</text>')
    for seat, raw in enumerate(mainlands):
        line = f"{names[seat]}: ★ {raw.get('fame', 0)}  ● {raw.get('gold', 0)}"
        head.append(f'<text x="{sx}" y="{sy + 22 + seat * 20}" class="status">{escape(line)}</text>')
    legend_x = ix + 300
    head.append(f'<text x="{legend_x}" y="{sy}" class="label-left">Vikings</text>')
    for i, letter in enumerate(LETTERS):
        ly = sy + 16 + i * 16
        head.append(viking_chip(legend_x + 8, ly, letter, 7))
        head.append(
            f'<text x="{legend_x + 20}" y="{ly + 4}" class="small" text-anchor="start" '
            f'style="text-anchor:start">{ROLES[letter]}</text>'
        )
    if advanced:
        head += _advanced_strip(obs, names, 24, top - 30)
    return "".join([*head, *panels, "</svg>"])


def _advanced_strip(obs: dict[str, Any], names: list[str], x: float, y: float) -> list[str]:
    """The advanced game: the face-up special tiles, the auction while it runs, and each player's special tiles."""
    specials = obs.get("specials") or {}
    shown = [
        f"{slot + 1} {SPECIAL_NAMES.get(code, code)}" for slot, code in enumerate(specials.get("face_up", [])) if code
    ]
    parts = [f"Special tiles face up: {' · '.join(shown) or '—'}"]
    choosing = specials.get("choosing")
    if choosing:
        parts.append(f"being placed: {SPECIAL_NAMES.get(choosing, choosing)}")
    drawn = " ".join(f"{letter}{n}" for letter, n in (obs.get("drawn") or {}).items() if n)
    if drawn:
        parts.append(f"drawn for the wheel: {drawn}")
    auction = obs.get("auction") or {}
    if any(auction.get("bidding", [])):
        high = auction.get("high_bid", -1)
        bidder = auction.get("high_bidder", -1)
        parts.append(f"auction: highest bid {high} by {names[bidder]}" if high >= 0 else "auction: no bid yet")
    for seat, raw in enumerate(obs.get("mainlands", [])):
        held = [
            f"{SPECIAL_NAMES.get(code, code)}{f' ×{n}' if n > 1 else ''}"
            for code, n in (raw.get("specials") or {}).items()
        ]
        held += [f"{SPECIAL_NAMES.get(code, code)} (waiting)" for code in raw.get("waiting") or []]
        if held:
            parts.append(f"{names[seat]}: {', '.join(held)}")
    return [f'<text x="{x}" y="{y}" class="status" style="font-size:14px">{escape("   |   ".join(parts))}</text>']
