"""The Vikingdoms table as plain text (readable without colour), optionally with Rich colour markup."""

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


def _stack(stack: tuple[int, ...], color: bool) -> str:
    """A stack bottom to top as seat letters, padded to the cell width (padding counts visible letters)."""
    if not stack:
        return ".".ljust(_CELL)
    letters = "".join(_seat(s, color) for s in stack)
    return letters + " " * (_CELL - len(stack))


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
        tiles = [state.tiles[t] for t in state.island_tiles(position)]
        if tiles:
            text = "  ".join(_tile_label(t.name, t.building, t.coins, t.prisoners, t.rioter) for t in tiles)
        elif state.raided[position]:
            text = "raided"
        else:
            text = "not drawn yet"
        lines.append(f" {mark}{position + 1}  {text}")
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


def _tile_label(name: str, building: str, coins: int, prisoners: int, rioter: bool) -> str:
    return f"{name} {building} {coins}c {prisoners}p" + (" rioter" if rioter else "")


def _whose(state: Table, color: bool, who: Callable[[int], str]) -> str:
    seat = state.current_player()
    if seat < 0:
        return ""
    return f" · {_seat(seat, color, who(seat))} to decide"
