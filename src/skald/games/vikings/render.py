"""The Vikings table as text: the wheel with prices, each Mainland as a grid, Fame, Gold and what comes next; and a
compact form of the same table (`render_compact`) for a terminal too short to show the grids and the choices.

Readable without colour: Vikings and sails are letters (F G S N W B); a threatened Viking is written in lower
case, as the rulebook suggests laying it on its side; a ship reads `^S5g` (sail of the Scout row's colour,
5 Gold) or `^F3f` (Fisherman-row colour, 3 Fame). With colour, Rich markup paints letters in their colours.
"""

from __future__ import annotations

import re
from typing import Any

from skald.games.vikings.components import (
    EMPTY,
    GROUPS_PER_ROUND,
    LARGE_SCORING_ROUNDS,
    LETTERS,
    MAX_COLUMNS,
    ROUNDS,
    ROW_LETTERS,
    ROW_NAMES,
    SPECIALS,
    is_ship,
    ship_of,
    tile_code,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.scoring import threats
from skald.games.vikings.steps import FERRY, LAND, PLACE_TILE, PLACE_VIKING

STYLES = {
    "F": "bold blue",
    "G": "bold yellow",
    "S": "bold green",
    "N": "bold red",
    "W": "bold white on grey30",
    "B": "bold grey62",
}
CELL = 5


def _paint(text: str, letter: str, color: bool) -> str:
    if not color or letter.upper() not in STYLES:
        return text
    return f"[{STYLES[letter.upper()]}]{text}[/]"


def _pad(text: str, visible: int) -> str:
    return text + " " * max(0, CELL - visible)


def ship_label(tile: int) -> str:
    """A ship as `^S5g`: sail letter, value, f(ame) or g(old)."""
    ship = ship_of(tile)
    return f"^{LETTERS[ship.sail]}{ship.value}{ship.reward[0]}"


def _tile_cell(land: Mainland, row: int, col: int, threatened: bool, color: bool) -> str:
    tile = land.tile(row, col)
    if tile == EMPTY:
        return _pad(".", 1)
    if is_ship(tile):
        label = ship_label(tile)
        return _pad(_paint(label, LETTERS[ship_of(tile).sail], color), len(label))
    code = tile_code(tile)
    if row * MAX_COLUMNS + col - 1 in land.buildings:
        code += "*"  # a Building special tile stands here
    viking = land.viking(row, col)
    if viking == EMPTY:
        return _pad(code, len(code))
    letter = LETTERS[viking].lower() if threatened else LETTERS[viking]
    return _pad(code + ":" + _paint(letter, letter, color), len(code) + 2)


def render_mainland(land: Mainland, name: str, color: bool = False) -> list[str]:
    """One Mainland: a header with Fame, Gold and the Head Boatswain, then one line per row."""
    waiting = " ".join(_paint(f"{LETTERS[c]}{n}", LETTERS[c], color) for c, n in enumerate(land.head) if n)
    start = "" if land.start_placed else "  (start tile in hand)"
    lines = [f"{name}: {land.fame} Fame, {land.gold} Gold · Head Boatswain: {waiting or '—'}{start}"]
    held = [f"{SPECIALS[t].name}" + (f" ×{n}" if n > 1 else "") for t, n in enumerate(land.specials) if n]
    held += [f"{SPECIALS[t].name} (waiting for its island tile)" for t in land.waiting]
    if held:
        lines.append(f"  special tiles: {', '.join(held)}")
    width = max(3, land.rightmost())
    lines.append("        " + "".join(_pad(str(c), len(str(c))) for c in range(1, width + 1)))
    seen = threats(land)
    for row in range(6):
        cells = "".join(_tile_cell(land, row, col, seen.is_threatened(row, col), color) for col in range(1, width + 1))
        label = ROW_LETTERS[row] if row else "ship"
        lines.append(f"  {label:<5} {cells.rstrip()}   {ROW_NAMES[row]}")
    return lines


def render_wheel(state: Any, color: bool = False) -> list[str]:
    """The 12 spaces of the wheel: price, tile and Viking of each Group still there."""
    spaces = [s for s in range(GROUPS_PER_ROUND) if state.wheel_tiles[s] != EMPTY]
    if not spaces:
        return ["The wheel is empty."]
    prices, tiles, vikings = ["price "], ["tile  "], ["viking"]
    for space in spaces:
        tile = state.wheel_tiles[space]
        label = ship_label(tile) if is_ship(tile) else tile_code(tile)
        prices.append(f"{space - state.offset:>5}")
        tiles.append(f"{label:>5}")
        letter = LETTERS[state.wheel_vikings[space]] if state.wheel_vikings[space] != EMPTY else "?"
        vikings.append(" " * 4 + _paint(letter, letter, color))
    return ["The wheel:", " ".join(prices), " ".join(tiles), " ".join(vikings)]


def render_advanced(state: Any, names: list[str], color: bool = False) -> list[str]:
    """The advanced game's table: the four face-up special tiles and, while it runs, the auction."""
    shown = [f"{slot + 1} {SPECIALS[t].name}" for slot, t in enumerate(state.face_up) if t != EMPTY]
    lines = [f"Special tiles face up: {' · '.join(shown) or '—'} ({sum(state.specials_pool)} face down)"]
    if state.pending_special != EMPTY:
        lines.append(f"Being placed: {SPECIALS[state.pending_special].name} (the island tile it replaces is chosen)")
    if any(state.drawn):
        drawn = " ".join(_paint(f"{LETTERS[c]}{n}", LETTERS[c], color) for c, n in enumerate(state.drawn) if n)
        lines.append(f"Vikings drawn for the wheel: {drawn}")
    if any(state.bidding):
        bid = f"{state.high_bid} by {names[state.high_bidder]}" if state.high_bid >= 0 else "no bid yet"
        still = ", ".join(names[s] for s, b in enumerate(state.bidding) if b)
        lines.append(f"Auction for the Start Player Ship: highest bid {bid}; still bidding: {still}")
    return lines


def _heading(state: Any, names: list[str], compact: bool) -> str:
    """The table's first line: the round, its scoring, the start player and who does what now (or the winners)."""
    if state.current_player() < 0 and state.step_name() == "game over":
        return f"Vikings — game over. Winner: {', '.join(names[s] for s in state.winners())}"
    scoring = "large" if state.round in LARGE_SCORING_ROUNDS else "small"
    mover = names[state.to_move] if state.current_player() >= 0 else "chance"
    if compact:
        return (
            f"Vikings · round {state.round}/{ROUNDS} ({scoring} scoring) · start: {names[state.start_player]} · "
            f"now: {mover} ({state.step_name()})"
        )
    return (
        f"Vikings — round {state.round} of {ROUNDS}, {scoring} scoring after it · start player: "
        f"{names[state.start_player]} · now: {mover} ({state.step_name()})"
    )


def render_text(state: Any, color: bool = False, names: list[str] | None = None) -> str:
    """The whole table."""
    names = names or [f"Player {seat + 1}" for seat in range(state.num_players)]
    lines = [_heading(state, names, compact=False), ""]
    if state.advanced:
        lines += [*render_advanced(state, names, color), ""]
    if state.current_player() >= 0 or state.step_name() == "draw Vikings":
        lines += [*render_wheel(state, color), ""]
    for seat, land in enumerate(state.lands):
        lines += [*render_mainland(land, names[seat], color), ""]
    return "\n".join(lines).rstrip() + "\n"


#: The compact form's width: it is written for an 80-column terminal.
COMPACT_WIDTH = 80
#: The colour tags `_paint` adds (`[bold blue]`, `[/]`).
_MARKUP = re.compile(r"\[[^\]]*\]")


def _compact_cell(land: Mainland, row: int, col: int, threatened: bool, color: bool) -> str:
    """A square as `L`, `M2:W` (a Viking on it), `^S5g` (a ship) or `.` (empty, between tiles)."""
    tile = land.tile(row, col)
    if tile == EMPTY:
        return "."
    if is_ship(tile):
        return _paint(ship_label(tile), LETTERS[ship_of(tile).sail], color)
    code = tile_code(tile) + ("*" if row * MAX_COLUMNS + col - 1 in land.buildings else "")
    viking = land.viking(row, col)
    if viking == EMPTY:
        return code
    letter = LETTERS[viking].lower() if threatened else LETTERS[viking]
    return f"{code}:{_paint(letter, letter, color)}"


def _visible(markup: str) -> int:
    """The printed width of a compact cell or group (its colour markup aside)."""
    return len(_MARKUP.sub("", markup))


def compact_mainland(land: Mainland, name: str, color: bool = False, rows: bool = True) -> list[str]:
    """One Mainland in a few lines: Fame, Gold and the Head Boatswain, then (with `rows`) its rows one after another
    (`W L:W R .`: the row's letter, then its squares from column 1; an empty row is left out), wrapped at 80
    columns."""
    waiting = " ".join(_paint(f"{LETTERS[c]}{n}", LETTERS[c], color) for c, n in enumerate(land.head) if n)
    start = " · start tile in hand" if not land.start_placed else ""
    held = sum(land.specials) + len(land.waiting)
    specials = f" · {held} special tile{'s' if held > 1 else ''}" if held else ""
    lines = [f"{name}: {land.fame} Fame, {land.gold} Gold · Head Boatswain: {waiting or '—'}{start}{specials}"]
    if not rows:
        return lines
    seen = threats(land)
    words: list[str] = []
    for row in range(6):
        last = max((col for col in range(1, MAX_COLUMNS + 1) if land.tile(row, col) != EMPTY), default=0)
        if last:
            cells = [_compact_cell(land, row, col, seen.is_threatened(row, col), color) for col in range(1, last + 1)]
            # A row's letter keeps its first square's company, so that no line ends in a bare letter.
            words += ["│"] if words else []
            words += [f"{'ship' if row == 0 else ROW_LETTERS[row]} {cells[0]}", *cells[1:]]
    if not words:
        return [*lines, "  (no tiles yet)"]
    return [*lines, *_wrapped(words, " ", " ", " ")]


def compact_wheel(state: Any, color: bool = False) -> list[str]:
    """The wheel in a line or two: `price tile+Viking` for each Group (`3 R+G`, `10 ^N3g+B`)."""
    spaces = [s for s in range(GROUPS_PER_ROUND) if state.wheel_tiles[s] != EMPTY]
    if not spaces:
        return ["The wheel is empty."]
    groups = []
    for space in spaces:
        tile = state.wheel_tiles[space]
        label = ship_label(tile) if is_ship(tile) else tile_code(tile)
        letter = LETTERS[state.wheel_vikings[space]] if state.wheel_vikings[space] != EMPTY else "?"
        groups.append(f"{space - state.offset} {label}+{_paint(letter, letter, color)}")
    return _wrapped(groups, "Wheel:", "      ", "  ")


def _wrapped(words: list[str], first: str, indent: str, gap: str) -> list[str]:
    """`words` (colour markup aside, as printed) in lines of at most 80 columns: the first line starts with `first`,
    the others with `indent`, and each word follows `gap`."""
    lines: list[str] = []
    line, width = first, len(first)
    for word in words:
        size = _visible(word)
        if width + len(gap) + size > COMPACT_WIDTH and line != first:
            lines.append(line)
            line, width = indent, len(indent)
        line += gap + word
        width += len(gap) + size
    return [*lines, line]


#: The steps whose close-up (presentation.py) draws the mover's Mainland in full, with the choices on its squares.
CLOSE_UP_STEPS = (PLACE_TILE, PLACE_VIKING, FERRY, LAND)


def render_compact(state: Any, color: bool = False, names: list[str] | None = None, choosing: bool = False) -> str:
    """The whole table in a few lines, for a short terminal: the step in one line, the wheel in one or two, each
    Mainland in two or three. Drawn for the seat about to choose (`choosing`: its choices and close-up follow), it
    leaves out what those show: the wheel at a purchase (the choices list every Group), and at a step whose close-up
    draws the mover's Mainland in full (placing a tile or a Viking, ferrying) the Mainlands' rows, so that the
    close-up and the choices share the screen with it."""
    names = names or [f"Player {seat + 1}" for seat in range(state.num_players)]
    lines = [_heading(state, names, compact=True)]
    if state.advanced:
        lines += render_advanced(state, names, color)
    # At a purchase the choices list every Group on the wheel with its price, tile and Viking: the wheel is not
    # drawn twice.
    shown_by_choices = choosing and state.step_name() == "buy a Group"
    if (state.current_player() >= 0 and not shown_by_choices) or state.step_name() == "draw Vikings":
        lines += compact_wheel(state, color)
    close_up = choosing and state.current_player() >= 0 and state.step in CLOSE_UP_STEPS
    for seat, land in enumerate(state.lands):
        if not (close_up and seat == state.to_move):  # the close-up heads the mover's grid with the same line
            lines += compact_mainland(land, names[seat], color, rows=not close_up)
    return "\n".join(lines) + "\n"
