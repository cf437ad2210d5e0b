"""The observation as a flat vector for learning, always from the observer's side ("mine" before "theirs")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms.board import NUM_SQUARES, TROOP_HEIGHT

if TYPE_CHECKING:
    from skald.games.vikingdoms.state import VikingdomsState

PHASES = (
    "dealing",
    "youngest",
    "choosing start",
    "recruitment",
    "choosing troop",
    "taking tiles",
    "riot",
    "choosing ally",
    "Gunnar",
    "prisoner exchange",
    "game over",
)
_LEVELS = TROOP_HEIGHT - 1
#: Board (square × level × side), camps and lockups, territories, islands, raided, marker, direction, allies,
#: troop counts, leader, phase, to move, tiles taken, rioter, ally owed, undrawn.
SIZE = (NUM_SQUARES * _LEVELS * 2 + 4 + A.NUM_TILES * 2 + A.NUM_ISLANDS * A.NUM_TILES + A.NUM_ISLANDS * 2 + 1) + (
    4 * 3 + 2 + 2 + len(PHASES) + 1 + A.NUM_TILES * 2 + 2 + 1 + 1
)


def encode(state: VikingdomsState, seat: int) -> list[float]:
    """`state.observation(seat)` as `SIZE` floats; undrawn tiles appear only as a count."""
    sides = (seat, 1 - seat)
    out: list[float] = []
    for stack in state.board:
        for level in range(_LEVELS):
            owner = stack[level] if level < len(stack) else -1
            out += [float(owner == sides[0]), float(owner == sides[1])]
    out += [state.camp[s] / 12 for s in sides] + [state.lockup[s] / 12 for s in sides]
    for s in sides:
        out += [float(t in state.territory[s]) for t in range(A.NUM_TILES)]
    for position in range(A.NUM_ISLANDS):
        lying = state.island_tiles(position)
        out += [float(t in lying) for t in range(A.NUM_TILES)]
    out += [float(r) for r in state.raided]
    out += [float(p == state.marker) for p in range(A.NUM_ISLANDS)]
    out.append(float(state.direction))
    for owner in state.allies:
        out += [float(owner == sides[0]), float(owner == sides[1]), float(owner < 0)]
    out += [state.troop.count(s) / 12 for s in sides]
    out += [float(state.leader == s) for s in sides]
    out += [float(state.phase == p) for p in PHASES]
    out.append(float(state.current_player() == seat))
    for s in sides:
        out += [float(state.taken[s] == t) for t in range(A.NUM_TILES)]
    out += [float(state.rioter == s) for s in sides]
    out.append(float(any(owed == seat for owed, _ in state.pending_allies)))
    out.append((len(state.tiles) - len(state.dealt)) / len(state.tiles))
    return out
