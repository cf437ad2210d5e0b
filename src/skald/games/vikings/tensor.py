"""The Vikings observation tensor for learning: what a seat sees, as one flat list of floats.

Layout (documented slice by slice in docs/rl-observation.md): one block per Mainland, the observer's own first and
then the others clockwise, followed by one block for the shared table. Every seat gets the same layout from its own
point of view. The stacks and the bag appear only as counts by kind, which anyone at the table can tally; the
engine stores no order for them, so none can leak.
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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
#: Per tile type: the nonzero (offset, value) pairs of its TILE_FEATURES.
_TILE_WRITES = tuple(
    ((0, 1.0), (1 + _PLANE[t], 1.0))
    if _PLANE[t] >= 0
    else ((0, 1.0), (4, 1.0), *((5 + i, v) for i, v in enumerate(_SHIP[t]) if v))
    for t in range(NUM_TILE_TYPES)
)

#: Float32 zeros of the tensor's size in bytes, by player count (the fast path's starting buffer).
_ZEROS: dict[int, bytes] = {}
#: Per player count: each tile type's offset from its square to its island plane.
_PLANE_OFFSETS: dict[int, tuple[int, ...]] = {}


def _plane_offsets(num_players: int) -> tuple[int, ...]:
    """`_PLANE[tile] * plane size` for each tile type, for `num_players`."""
    offsets = _PLANE_OFFSETS.get(num_players)
    if offsets is None:
        plane_size = len(ISLAND_ROWS) * columns(num_players)
        offsets = _PLANE_OFFSETS[num_players] = tuple(plane * plane_size for plane in _PLANE)
    return offsets


def _tile(out: MutableSequence[float], at: int, tile: int) -> None:
    """Write a tile's TILE_FEATURES at `at` (all zero when EMPTY)."""
    if tile != EMPTY:
        for offset, value in _TILE_WRITES[tile]:
            out[at + offset] = value


def _mainland(out: MutableSequence[float], at: int, land: Mainland, to_move: bool, start: bool, spent: int) -> None:
    """Write the scalars of one Mainland block at `at` (its squares follow, written by `_squares`)."""
    out[at] = land.fame / FAME_SCALE
    out[at + 1] = land.gold / GOLD_SCALE
    if land.start_placed:
        out[at + 2] = 1.0
    if to_move:
        out[at + 3] = 1.0
    if start:
        out[at + 4] = 1.0
    if spent:
        out[at + 5] = spent / COUNT_SCALE
    head = land.head
    if any(head):
        for colour, count in enumerate(head):
            if count:
                out[at + 6 + colour] = count / COUNT_SCALE


def _squares(out: MutableSequence[float], at: int, land: Mainland, width: int, offsets: tuple[int, ...]) -> None:
    """Write the Ship row's features and the island planes of `land` at `at`."""
    tiles, vikings = land.tiles, land.vikings
    if land.ships:
        for col, tile in enumerate(tiles[:NUM_SHIPS]):
            if tile != EMPTY:
                base = at + col * SHIP_FEATURES
                out[base], out[base + 1], out[base + 2] = _SHIP[tile]
    at += NUM_SHIPS * SHIP_FEATURES
    used = min(land.width, width)
    if not used:
        return
    viking_plane = 3 * len(ISLAND_ROWS) * width
    for row in ISLAND_ROWS:
        square = row * MAX_COLUMNS
        cell = at + (row - 1) * width
        standing = vikings[square : square + used]
        for col, tile in enumerate(tiles[square : square + used]):
            if tile != EMPTY:
                out[cell + col + offsets[tile]] = 1.0
                if standing[col] != EMPTY:
                    out[cell + col + viking_plane] = 1.0


#: The fast path's squares of recently seen Mainlands, by `id()`: (tiles, Vikings, has ships, width, W, floats).
#: An entry is used only when every input of `_squares` is equal, so a reused id can only miss, never mislead.
_SQUARES: dict[int, tuple[list[int], list[int], bool, int, int, array[float]]] = {}
#: The fast path's offer (with the drawn Vikings) and stack and bag counts, by everything they are made from.
_OFFERS: dict[tuple[int, ...], array[float]] = {}
_COUNTS: dict[tuple[int, ...], array[float]] = {}
#: Entries kept in each of these caches before it starts afresh.
_KEPT = 256


def _squares_cached(out: array[float], at: int, land: Mainland, width: int, offsets: tuple[int, ...]) -> None:
    """`_squares` into a float32 array, copying the floats written for the same Mainland squares last time."""
    key = id(land)
    seen = _SQUARES.get(key)
    if (
        seen is not None
        and seen[3] == land.width
        and seen[4] == width
        and seen[2] == bool(land.ships)
        and seen[0] == land.tiles
        and seen[1] == land.vikings
    ):
        written = seen[5]
    else:
        written = array("f", bytes(4 * (NUM_SHIPS * SHIP_FEATURES + ISLAND_PLANES * len(ISLAND_ROWS) * width)))
        _squares(written, 0, land, width, offsets)
        if len(_SQUARES) >= _KEPT:
            _SQUARES.clear()
        _SQUARES[key] = (land.tiles[:], land.vikings[:], bool(land.ships), land.width, width, written)
    out[at : at + len(written)] = written


def _offer(out: MutableSequence[float], at: int, state: Any) -> None:
    """Write the offer by price, then the drawn Vikings, at `at`."""
    offset = state.offset
    wheel_vikings = state.wheel_vikings
    for space, tile in enumerate(state.wheel_tiles[offset:GROUPS_PER_ROUND], offset):
        if tile != EMPTY:
            base = at + (space - offset) * OFFER_FEATURES
            for feature, value in _TILE_WRITES[tile]:
                out[base + feature] = value
            colour = wheel_vikings[space]
            if colour != EMPTY:
                out[base + TILE_FEATURES + colour] = 1.0
    at += GROUPS_PER_ROUND * OFFER_FEATURES
    for colour, count in enumerate(state.drawn):
        if count:
            out[at + colour] = count / GROUPS_PER_ROUND


def _counts(out: MutableSequence[float], at: int, state: Any) -> None:
    """Write the tiles left in the stacks, then the Vikings left in the bag, at `at`."""
    for tile, count in enumerate(state.pool):
        if count:
            out[at + tile] = count / STACK_COUNTS[tile]
    at += NUM_TILE_TYPES
    for colour, count in enumerate(state.bag):
        if count:
            out[at + colour] = count / BAG_COUNTS[colour]


def _cached(
    out: array[float],
    at: int,
    state: Any,
    cache: dict[tuple[int, ...], array[float]],
    key: tuple[int, ...],
    size: int,
    write: Any,
) -> None:
    """`write(out, at, state)` for a section of `size` floats that `key` determines, from `cache` when seen before."""
    written = cache.get(key)
    if written is None:
        written = array("f", bytes(4 * size))
        write(written, 0, state)
        if len(cache) >= _KEPT:
            cache.clear()
        cache[key] = written
    out[at : at + size] = written


def encode(state: Any, seat: int) -> list[float]:
    """The observation tensor of `state` (a VikingsState) from `seat`'s point of view."""
    out = [0.0] * shape(state.num_players)[0]
    _encode_into(out, state, seat, False)
    return out


def encode_array(state: Any, seat: int) -> npt.NDArray[np.float32]:
    """`encode(state, seat)` as a new float32 numpy array, without building the list (needs numpy)."""
    import numpy as np

    n = state.num_players
    zeros = _ZEROS.get(n)
    if zeros is None:
        zeros = _ZEROS[n] = bytes(4 * shape(n)[0])
    # An array.array of C floats takes Python floats as fast as a list does and hands its memory to numpy as is;
    # storing a double into it rounds to float32 exactly as numpy's float64-to-float32 conversion does.
    out = array("f", zeros)
    _encode_into(out, state, seat, True)
    return np.frombuffer(out, dtype=np.float32)


OFFER_SIZE = GROUPS_PER_ROUND * OFFER_FEATURES + NUM_COLOURS
COUNTS_SIZE = NUM_TILE_TYPES + NUM_COLOURS


def _encode_into(out: Any, state: Any, seat: int, fast: bool) -> None:
    """Write the observation of `state` from `seat` into `out`, zeros of the tensor's size (`fast`: a float32 array)."""
    # The fast path copies sections already written for the same inputs (`_cached`, `_squares_cached`); the values
    # are the same either way, as tests/test_rl_tensor.py checks.
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not one of the {n} seats")
    width = columns(n)
    block = mainland_size(n)
    offsets = _plane_offsets(n)
    squares = _squares_cached if fast else _squares
    to_move = state.current_player()
    start = state.start_player
    lands, spent = state.lands, state.boatswains_spent
    for k in range(n):
        other = (seat + k) % n
        _mainland(out, k * block, lands[other], other == to_move, other == start, spent[other])
        squares(out, k * block + MAINLAND_SCALARS, lands[other], width, offsets)

    at = n * block
    out[at + state.round - 1] = 1.0
    at += ROUNDS
    out[at + state.step] = 1.0
    at += NUM_STEPS
    if fast:
        key = (state.offset, *state.wheel_tiles, *state.wheel_vikings, *state.drawn)
        _cached(out, at, state, _OFFERS, key, OFFER_SIZE, _offer)
    else:
        _offer(out, at, state)
    at += OFFER_SIZE
    _tile(out, at, state.pending_tile)
    at += TILE_FEATURES
    if state.pending_viking != EMPTY:
        out[at + state.pending_viking] = 1.0
    at += NUM_COLOURS
    if state.placed_at >= 0:
        out[at + state.placed_at // MAX_COLUMNS - 1] = 1.0
        out[at + len(ISLAND_ROWS)] = (state.placed_at % MAX_COLUMNS + 1) / width
    at += len(ISLAND_ROWS) + 1
    if state.purchases:
        out[at] = state.purchases / GROUPS_PER_ROUND
    at += 1
    ferry = state.ferry_load
    if any(ferry):
        for colour, count in enumerate(ferry):
            if count:
                out[at + colour] = count / COUNT_SCALE
    at += NUM_COLOURS
    if state.ferry_landed:
        out[at] = state.ferry_landed / COUNT_SCALE
    at += 1
    if fast:
        _cached(out, at, state, _COUNTS, (*state.pool, *state.bag), COUNTS_SIZE, _counts)
    else:
        _counts(out, at, state)
    at += COUNTS_SIZE
    if state.discarded:
        out[at] = len(state.discarded) / COUNT_SCALE
    at += 1
    _advanced(out, at, state, seat)


def _advanced(out: MutableSequence[float], at: int, state: Any, seat: int) -> None:
    """The advanced game's block (all zeros in the base game)."""
    face_up = state.face_up
    if face_up.count(EMPTY) != len(face_up):
        for slot, special in enumerate(face_up):
            if special != EMPTY:
                out[at + slot * NUM_SPECIAL_TYPES + special] = 1.0
    at += FACE_UP_SPECIALS * NUM_SPECIAL_TYPES
    pool = state.specials_pool
    if any(pool):
        for special, count in enumerate(pool):
            if count:
                out[at + special] = count / SPECIAL_COUNTS[special]
    at += NUM_SPECIAL_TYPES
    if state.high_bid > 0:
        out[at] = state.high_bid / GOLD_SCALE
    if state.removed_vikings:
        out[at + 1] = state.removed_vikings / ROUNDS
    at += 2
    n = state.num_players
    lands, bidding = state.lands, state.bidding
    for k in range(n):
        other = (seat + k) % n
        land = lands[other]
        specials = land.specials
        if any(specials):
            for special, count in enumerate(specials):
                if count:
                    out[at + special] = float(count)
        if land.waiting:
            out[at + NUM_SPECIAL_TYPES] = len(land.waiting) / 4
        if land.buildings:
            out[at + NUM_SPECIAL_TYPES + 1] = len(land.buildings) / 4
        if bidding[other]:
            out[at + NUM_SPECIAL_TYPES + 2] = 1.0
        at += NUM_SPECIAL_TYPES + 3
