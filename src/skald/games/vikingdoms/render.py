"""The Vikingdoms table as plain text (readable without colour), optionally with Rich colour markup: whole
(`render_text`), or in the compact form (`render_compact`) for a terminal too short to show it and the choices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms.board import SIZE
from skald.games.vikingdoms.table import Table

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

_CELL = 7


def _seat(seat: int, color: bool, text: str | None = None) -> str:
    word = A.SEAT_LETTERS[seat] if text is None else text
    return f"[{A.SEAT_COLOURS[seat]}]{word}[/]" if color else word


def _stack(stack: tuple[int, ...], color: bool, cell: int = _CELL) -> str:
    """A stack bottom to top as seat letters, padded to the cell width (padding counts visible letters)."""
    if not stack:
        return ".".ljust(cell)
    letters = "".join(_seat(s, color) for s in stack)
    return letters + " " * (cell - len(stack))


def render_text(state: Table, color: bool = False, names: Sequence[str] | None = None) -> str:
    """The islands, the board (stacks bottom to top), both territories and whose decision it is; each seat by its
    colour, or by its name and colour (`Astrid (Red)`) when `names` are given."""

    def who(seat: int) -> str:
        return f"{names[seat]} ({A.SEAT_NAMES[seat]})" if names else A.SEAT_NAMES[seat]

    lines = [f"Vikingdoms · raid {state.raids + 1} · {state.phase}" + _whose(state, color, who)]
    if state.ending:
        lines[0] = f"Vikingdoms · game over · {_seat(state.winner, color, who(state.winner))} wins"
        lines.append(f"  {state.ending}")
    lines.append("")
    lines.append("Islands (upper to lower):")
    for position in range(A.NUM_ISLANDS):
        mark = ">" if position == state.marker else " "
        lines.append(f" {mark}{position + 1}  {_island(state, position)}")
    lines.append("")
    lines.append("Board (each stack bottom to top):")
    lines.append(("    " + "".join(f.ljust(_CELL) for f in "abcd")).rstrip())
    for row in range(SIZE - 1, -1, -1):
        cells = "".join(_stack(state.board[row * SIZE + col], color) for col in range(SIZE))
        lines.append(f" {row + 1}  {cells.rstrip()}")
    if state.troop:
        troop = "".join(_seat(s, color) for s in state.troop)
        leader = _seat(state.leader, color, who(state.leader))
        lines.append(f"Raiding troop: {troop} (led by {leader})")
    lines.append("")
    for seat in (0, 1):
        name = _seat(seat, color, f"{who(seat)} ({A.SEAT_LETTERS[seat]})" if not names else who(seat))
        lines.append(
            f"{name}: camp {state.camp[seat]} · lockup {state.lockup[seat]} · "
            f"{state.coins(seat)} coins · villages {state.count(seat, 'village')} · "
            f"ports {state.count(seat, 'port')}"
        )
        tiles = [state.tiles[t] for t in state.territory[seat]]
        lines.append(
            "    tiles: "
            + ("  ".join(_tile_label(t.name, t.building, t.coins, t.prisoners, t.rioter) for t in tiles) or "none")
        )
        allies = [A.ALLY_NAMES[a] for a, owner in enumerate(state.allies) if owner == seat]
        if allies:
            lines.append("    allies: " + ", ".join(allies))
    free = [A.ALLY_NAMES[a] for a, owner in enumerate(state.allies) if owner < 0]
    lines.append("Allies by the board: " + (", ".join(free) or "none"))
    return "\n".join(lines)


#: The compact form's width: the islands beside the board fit 80 columns.
COMPACT_WIDTH = 80


def render_compact(
    state: Table, color: bool = False, names: Sequence[str] | None = None, width: int = COMPACT_WIDTH
) -> str:
    """The table in eight or nine lines: the step (with the allies by the board where the line has room), the board
    with the islands beside it, the raiding troop if one is out, and each seat's camp, lockup, coins, territory
    tiles (named by building: V4 a village, P2 a port) and allies on one line."""

    def who(seat: int) -> str:
        return f"{names[seat]} ({A.SEAT_NAMES[seat]})" if names else A.SEAT_NAMES[seat]

    free = [A.ALLY_NAMES[a] for a, owner in enumerate(state.allies) if owner < 0]
    allies = "free allies: " + (", ".join(free) or "none")
    heading = f"Vikingdoms · raid {state.raids + 1} · {state.phase}"
    lines = [heading]
    if state.ending:
        lines = [f"Vikingdoms · game over · {_seat(state.winner, color, who(state.winner))} wins", f"  {state.ending}"]
    elif len(f"{heading} · {allies}") <= width:
        lines = [f"{heading} · {allies}"]
    else:
        lines.append(allies[:1].upper() + allies[1:])
    cell = max(6, 1 + max((len(stack) for stack in state.board), default=0))
    grid = [
        f" {row + 1}  " + "".join(_stack(state.board[row * SIZE + col], color, cell) for col in range(SIZE))
        for row in range(SIZE - 1, -1, -1)
    ]
    grid.append("    " + "".join(f.ljust(cell) for f in "abcd"))
    for position, row in enumerate(grid):
        mark = ">" if position == state.marker else " "
        lines.append(f"{row}  {mark}{position + 1} {_island(state, position)}".rstrip())
    if state.troop:
        troop = "".join(_seat(s, color) for s in state.troop)
        lines.append(f"Raiding troop: {troop} (led by {_seat(state.leader, color, who(state.leader))})")
    for seat in (0, 1):
        tiles = [state.tiles[t] for t in state.territory[seat]]
        named = " ".join(t.name + (" (rioter)" if t.rioter else "") for t in tiles) or "none"
        owned = [A.ALLY_NAMES[a] for a, owner in enumerate(state.allies) if owner == seat]
        lines.append(
            f"{_seat(seat, color, who(seat))}: camp {state.camp[seat]} · lockup {state.lockup[seat]} · "
            f"{state.coins(seat)} coins · tiles {named}" + "".join(f" · {ally}" for ally in owned)
        )
    return "\n".join(lines)


def _island(state: Table, position: int) -> str:
    """An island's tiles, or whether it was raided or is still to be drawn."""
    tiles = [state.tiles[t] for t in state.island_tiles(position)]
    if tiles:
        return "  ".join(_tile_label(t.name, t.building, t.coins, t.prisoners, t.rioter) for t in tiles)
    return "raided" if state.raided[position] else "not drawn yet"


def _tile_label(name: str, building: str, coins: int, prisoners: int, rioter: bool) -> str:
    return f"{name} {building} {coins}c {prisoners}p" + (" rioter" if rioter else "")


def _whose(state: Table, color: bool, who: Callable[[int], str]) -> str:
    seat = state.current_player()
    if seat < 0:
        return ""
    return f" · {_seat(seat, color, who(seat))} to decide"
