"""The observation as a flat vector for learning, always from the observer's side ("mine" before "theirs").

Nearly every feature is 0 or 1, so `features` describes the tensor sparsely (the indices holding 1, and the few
scaled counts), and both the list (`encode`) and the numpy array (`encode_array`) are laid out from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms.board import NUM_SQUARES, TROOP_HEIGHT
from skald.games.vikingdoms.table import Table

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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
_PHASE_INDEX = {phase: index for index, phase in enumerate(PHASES)}
#: Levels of a stack on the board, bottom first: a stack of six leaves the board at once as the raiding troop.
LEVELS = TROOP_HEIGHT - 1
#: Each player's Vikings (`state.VIKINGS_PER_PLAYER`): camps, lockups and the troop are counted in twelfths.
VIKINGS = 12
#: A seat is owed at most two allies in one raid (the tile it took and the tile a riot gave it).
MOST_ALLIES_OWED = 2

#: The slices in order, each with its size (docs/rl-observation.md, "Vikingdoms").
LAYOUT = (
    ("board", NUM_SQUARES * LEVELS * 2),  # square a1..d4, level bottom up, (mine, theirs)
    ("camp", 2),
    ("lockup", 2),
    ("territory", 2 * A.NUM_TILES),  # mine, then theirs, by tile
    ("islands", A.NUM_ISLANDS * A.NUM_TILES),  # island 1..5, by tile
    ("raided", A.NUM_ISLANDS),
    ("marker", A.NUM_ISLANDS),
    ("direction", 1),
    ("allies", len(A.ALLY_NAMES) * 3),  # Freya, Völund, Gunnar, Löke: (mine, theirs, by the board)
    ("troop", 2),
    ("leader", 2),
    ("phase", len(PHASES)),
    ("to move", 2),
    ("taken", 2 * A.NUM_TILES),  # mine, then theirs, by tile
    ("rioter", 2),
    ("allies owed", 2),
    ("undrawn", 1),
)
OFFSET = {name: sum(size for _, size in LAYOUT[:index]) for index, (name, _) in enumerate(LAYOUT)}
SIZE = sum(size for _, size in LAYOUT)
#: Where the scaled counts go, in the order `features` gives their values; every other feature is 0 or 1.
SCALED = (
    OFFSET["camp"],
    OFFSET["camp"] + 1,
    OFFSET["lockup"],
    OFFSET["lockup"] + 1,
    OFFSET["direction"],
    OFFSET["troop"],
    OFFSET["troop"] + 1,
    OFFSET["allies owed"],
    OFFSET["allies owed"] + 1,
    OFFSET["undrawn"],
)


def features(state: Table, seat: int) -> tuple[list[int], list[float]]:
    """The tensor of `seat` sparsely: the indices that hold 1, and the values at `SCALED`; everything else is 0."""
    # Plain loops rather than comprehensions: this runs at every step of an environment, and they are cheaper here.
    other = 1 - seat
    hot: list[int] = []
    for square, stack in enumerate(state.board):
        at = OFFSET["board"] + square * LEVELS * 2
        for level, owner in enumerate(stack):
            hot.append(at + 2 * level + (owner != seat))
    for side, holder in enumerate((seat, other)):
        at = OFFSET["territory"] + side * A.NUM_TILES
        for tile in state.territory[holder]:
            hot.append(at + tile)
    # Island i holds slots 2i and 2i+1; an undrawn tile has no place yet, so nothing shows where it will lie.
    for slot, tile in enumerate(state.islands):
        if tile >= 0:
            hot.append(OFFSET["islands"] + slot // 2 * A.NUM_TILES + tile)
    for island, raided in enumerate(state.raided):
        if raided:
            hot.append(OFFSET["raided"] + island)
    if state.marker >= 0:
        hot.append(OFFSET["marker"] + state.marker)
    for ally, owner in enumerate(state.allies):
        hot.append(OFFSET["allies"] + 3 * ally + (2 if owner < 0 else owner != seat))
    hot.append(OFFSET["phase"] + _PHASE_INDEX[state.phase])
    for name, who in (("leader", state.leader), ("to move", state.current_player()), ("rioter", state.rioter)):
        if who >= 0:
            hot.append(OFFSET[name] + (who != seat))
    for side, holder in enumerate((seat, other)):
        if state.taken[holder] >= 0:
            hot.append(OFFSET["taken"] + side * A.NUM_TILES + state.taken[holder])
    owed = [owner for owner, _ in state.pending_allies]
    scaled = [
        state.camp[seat] / VIKINGS,
        state.camp[other] / VIKINGS,
        state.lockup[seat] / VIKINGS,
        state.lockup[other] / VIKINGS,
        float(state.direction),
        state.troop.count(seat) / VIKINGS,
        state.troop.count(other) / VIKINGS,
        owed.count(seat) / MOST_ALLIES_OWED,
        owed.count(other) / MOST_ALLIES_OWED,
        (len(state.tiles) - len(state.dealt)) / len(state.tiles),
    ]
    return hot, scaled


def encode(state: Table, seat: int) -> list[float]:
    """`state.observation(seat)` as `SIZE` floats; undrawn tiles appear only as a count."""
    hot, scaled = features(state, seat)
    out = [0.0] * SIZE
    for index in hot:
        out[index] = 1.0
    for index, value in zip(SCALED, scaled, strict=True):
        out[index] = value
    return out


def encode_array(state: Table, seat: int) -> npt.NDArray[np.float32]:
    """`encode(state, seat)` as a new float32 numpy array, written without building the list (needs numpy)."""
    try:
        import numpy as np  # here, not at the top: the game, and every front end that loads it, runs without it
    except ImportError:  # the learning extra installs it
        raise ModuleNotFoundError("observation arrays need numpy: pip install 'skald[rl]'") from None
    hot, scaled = features(state, seat)
    out = np.zeros(SIZE, dtype=np.float32)
    out[hot] = 1.0
    out[list(SCALED)] = scaled
    return out
