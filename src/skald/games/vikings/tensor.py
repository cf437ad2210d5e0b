"""The Vikings observation tensor for learning: what a seat sees, as one flat list of floats.

Layout (documented slice by slice in docs/rl-observation.md): one block per Mainland, the observer's own first and
then the others clockwise, followed by one block for the shared table. Every seat gets the same layout from its own
point of view. The stacks and the bag appear only as counts by kind, which anyone at the table can tally; the
engine stores no order for them, so none can leak.
"""

from __future__ import annotations

from typing import Any

from skald.games.vikings.components import (
    BAG_COUNTS,
    EMPTY,
    FACE_UP_SPECIALS,
    GROUPS_PER_ROUND,
    ISLAND_ROWS,
    LEFT,
    MAX_COLUMNS,
    NUM_COLOURS,
    NUM_SHIPS,
    NUM_SPECIAL_TYPES,
    NUM_TILE_TYPES,
    RIGHT,
    ROUNDS,
    SPECIAL_COUNTS,
    STACK_COUNTS,
    is_ship,
    ship_of,
)
from skald.games.vikings.mainland import Mainland

#: Scalars per Mainland: Fame, Gold, start tile placed, to move, start player, Boatswains spent, Head (6 colours).
MAINLAND_SCALARS = 6 + NUM_COLOURS
#: Features per ship column of the Ship row: threatened row depth, Fame value, Gold value.
SHIP_FEATURES = 3
#: Island-row planes: left end, middle piece, right end, a Viking on the tile.
ISLAND_PLANES = 4
#: Features of a tile on the wheel or in hand: present, left end, middle, right end, ship, then the ship features.
TILE_FEATURES = 5 + SHIP_FEATURES
#: Features of one price on the wheel: its tile, then its Viking's colour one-hot.
OFFER_FEATURES = TILE_FEATURES + NUM_COLOURS
NUM_STEPS = 14  # the steps of the flow, skald.games.vikings.state.STEP_NAMES
FAME_SCALE = 50.0
GOLD_SCALE = 50.0
COUNT_SCALE = 10.0
VALUE_SCALE = 6.0

#: The global block: round, step, the offer by price, drawn Vikings, the Group in hand, purchases, the ferry,
#: stacks and bag counts, discarded tiles.
GLOBAL_SIZE = (
    ROUNDS
    + NUM_STEPS
    + GROUPS_PER_ROUND * OFFER_FEATURES
    + NUM_COLOURS
    + TILE_FEATURES
    + NUM_COLOURS
    + len(ISLAND_ROWS)
    + 1
    + 1
    + NUM_COLOURS
    + 1
    + NUM_TILE_TYPES
    + NUM_COLOURS
    + 1
)


def columns(num_players: int) -> int:
    """Island columns encoded per row: no Mainland can hold more tiles than its 72/n purchases plus the start tile."""
    return min(MAX_COLUMNS, GROUPS_PER_ROUND * ROUNDS // num_players + 1)


def mainland_size(num_players: int) -> int:
    """Floats in one Mainland block."""
    return MAINLAND_SCALARS + NUM_SHIPS * SHIP_FEATURES + ISLAND_PLANES * len(ISLAND_ROWS) * columns(num_players)


def advanced_size(num_players: int) -> int:
    """The advanced game's block: face-up special tiles, face-down counts, the auction, each seat's specials."""
    return FACE_UP_SPECIALS * NUM_SPECIAL_TYPES + NUM_SPECIAL_TYPES + 2 + num_players * (NUM_SPECIAL_TYPES + 3)


def shape(num_players: int) -> tuple[int]:
    """The flat tensor's shape for `num_players`."""
    return (num_players * mainland_size(num_players) + GLOBAL_SIZE + advanced_size(num_players),)


def _ship_features(tile: int) -> tuple[float, float, float]:
    ship = ship_of(tile)
    value = ship.value / VALUE_SCALE
    return ship.row / len(ISLAND_ROWS), value if ship.reward == "fame" else 0.0, value if ship.reward == "gold" else 0.0


#: Per tile type: its island plane (0 left end, 1 middle, 2 right end) or -1 for ships.
_PLANE = tuple(-1 if is_ship(t) else 0 if t == LEFT else 2 if t == RIGHT else 1 for t in range(NUM_TILE_TYPES))
_SHIP = {t: _ship_features(t) for t in range(NUM_TILE_TYPES) if is_ship(t)}


def _tile(out: list[float], at: int, tile: int) -> None:
    """Write a tile's TILE_FEATURES at `at` (all zero when EMPTY)."""
    if tile == EMPTY:
        return
    out[at] = 1.0
    plane = _PLANE[tile]
    if plane >= 0:
        out[at + 1 + plane] = 1.0
    else:
        out[at + 4] = 1.0
        out[at + 5], out[at + 6], out[at + 7] = _SHIP[tile]


def _mainland(out: list[float], at: int, land: Mainland, width: int, flags: tuple[float, float, float]) -> None:
    """Write one Mainland block at `at`; `flags` are (to move, start player, Boatswains spent / COUNT_SCALE)."""
    out[at] = land.fame / FAME_SCALE
    out[at + 1] = land.gold / GOLD_SCALE
    out[at + 2] = 1.0 if land.start_placed else 0.0
    out[at + 3], out[at + 4], out[at + 5] = flags
    for colour, count in enumerate(land.head):
        out[at + 6 + colour] = count / COUNT_SCALE
    at += MAINLAND_SCALARS
    tiles, vikings = land.tiles, land.vikings
    for col in range(NUM_SHIPS if land.ships else 0):
        tile = tiles[col]
        if tile != EMPTY:
            base = at + col * SHIP_FEATURES
            out[base], out[base + 1], out[base + 2] = _SHIP[tile]
    at += NUM_SHIPS * SHIP_FEATURES
    plane_size = len(ISLAND_ROWS) * width
    for row in ISLAND_ROWS:
        square = row * MAX_COLUMNS
        cell = at + (row - 1) * width
        for col in range(min(land.width, width)):
            tile = tiles[square + col]
            if tile != EMPTY:
                out[cell + col + _PLANE[tile] * plane_size] = 1.0
                if vikings[square + col] != EMPTY:
                    out[cell + col + 3 * plane_size] = 1.0


def encode(state: Any, seat: int) -> list[float]:
    """The observation tensor of `state` (a VikingsState) from `seat`'s point of view."""
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not one of the {n} seats")
    width = columns(n)
    block = mainland_size(n)
    out = [0.0] * (n * block + GLOBAL_SIZE + advanced_size(n))
    to_move = state.current_player()
    start = state.start_player
    for k in range(n):
        other = (seat + k) % n
        flags = (
            1.0 if other == to_move else 0.0,
            1.0 if other == start else 0.0,
            state.boatswains_spent[other] / COUNT_SCALE,
        )
        _mainland(out, k * block, state.lands[other], width, flags)

    at = n * block
    out[at + state.round - 1] = 1.0
    at += ROUNDS
    out[at + state.step] = 1.0
    at += NUM_STEPS
    offset = state.offset
    wheel_tiles, wheel_vikings = state.wheel_tiles, state.wheel_vikings
    for space in range(offset, GROUPS_PER_ROUND):
        tile = wheel_tiles[space]
        if tile != EMPTY:
            base = at + (space - offset) * OFFER_FEATURES
            _tile(out, base, tile)
            colour = wheel_vikings[space]
            if colour != EMPTY:
                out[base + TILE_FEATURES + colour] = 1.0
    at += GROUPS_PER_ROUND * OFFER_FEATURES
    for colour, count in enumerate(state.drawn):
        out[at + colour] = count / GROUPS_PER_ROUND
    at += NUM_COLOURS
    _tile(out, at, state.pending_tile)
    at += TILE_FEATURES
    if state.pending_viking != EMPTY:
        out[at + state.pending_viking] = 1.0
    at += NUM_COLOURS
    if state.placed_at >= 0:
        out[at + state.placed_at // MAX_COLUMNS - 1] = 1.0
        out[at + len(ISLAND_ROWS)] = (state.placed_at % MAX_COLUMNS + 1) / width
    at += len(ISLAND_ROWS) + 1
    out[at] = state.purchases / GROUPS_PER_ROUND
    at += 1
    for colour, count in enumerate(state.ferry_load):
        out[at + colour] = count / COUNT_SCALE
    at += NUM_COLOURS
    out[at] = state.ferry_landed / COUNT_SCALE
    at += 1
    for tile, count in enumerate(state.pool):
        out[at + tile] = count / STACK_COUNTS[tile]
    at += NUM_TILE_TYPES
    for colour, count in enumerate(state.bag):
        out[at + colour] = count / BAG_COUNTS[colour]
    at += NUM_COLOURS
    out[at] = len(state.discarded) / COUNT_SCALE
    at += 1
    _advanced(out, at, state, seat)
    return out


def _advanced(out: list[float], at: int, state: Any, seat: int) -> None:
    """The advanced game's block (all zeros in the base game)."""
    for slot, special in enumerate(state.face_up):
        if special != EMPTY:
            out[at + slot * NUM_SPECIAL_TYPES + special] = 1.0
    at += FACE_UP_SPECIALS * NUM_SPECIAL_TYPES
    for special, count in enumerate(state.specials_pool):
        out[at + special] = count / SPECIAL_COUNTS[special]
    at += NUM_SPECIAL_TYPES
    out[at] = max(state.high_bid, 0) / GOLD_SCALE
    out[at + 1] = state.removed_vikings / ROUNDS
    at += 2
    n = state.num_players
    for k in range(n):
        other = (seat + k) % n
        land = state.lands[other]
        for special, count in enumerate(land.specials):
            out[at + special] = float(count)
        out[at + NUM_SPECIAL_TYPES] = len(land.waiting) / 4
        out[at + NUM_SPECIAL_TYPES + 1] = len(land.buildings) / 4
        out[at + NUM_SPECIAL_TYPES + 2] = 1.0 if state.bidding[other] else 0.0
        at += NUM_SPECIAL_TYPES + 3
