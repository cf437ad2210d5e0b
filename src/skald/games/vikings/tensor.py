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
    BUILDING_FIRST,
    EMPTY,
    FACE_UP_SPECIALS,
    GROUPS_PER_ROUND,
    ISLAND_ROWS,
    ISLANDS,
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

#: numpy's `frombuffer` and float32, imported on the first `encode_array` (the core package never imports numpy).
_frombuffer: Any = None
_FLOAT32: Any = None

#: Building tiles, one per middle piece's building (special types BUILDING_FIRST onwards).
BUILDINGS = NUM_SPECIAL_TYPES - BUILDING_FIRST
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
#: Fame and Gold have no bound in the rules (Fame can go negative): each is written as `x / (|x| + scale)`, which
#: keeps their order, is 0.5 at the scale and stays inside (-1, 1).
FAME_SCALE = 50.0
GOLD_SCALE = 50.0
VALUE_SCALE = 6.0
#: Vikings of all colours, and tiles of all kinds: the bounds of the counts that are not kept by colour or kind.
ALL_VIKINGS = sum(BAG_COUNTS)
ALL_TILES = sum(kind.count for kind in ISLANDS) + NUM_SHIPS

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
    """The advanced game's block: face-up special tiles, face-down counts, the auction, the Building being placed,
    each seat's specials."""
    per_seat = NUM_SPECIAL_TYPES + 3
    return FACE_UP_SPECIALS * NUM_SPECIAL_TYPES + NUM_SPECIAL_TYPES + 2 + BUILDINGS + num_players * per_seat


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
    out[at] = _signed(land.fame, FAME_SCALE)
    out[at + 1] = _signed(land.gold, GOLD_SCALE)
    if land.start_placed:
        out[at + 2] = 1.0
    if to_move:
        out[at + 3] = 1.0
    if start:
        out[at + 4] = 1.0
    if spent:
        out[at + 5] = spent / ALL_VIKINGS
    head = land.head
    if any(head):
        for colour, count in enumerate(head):
            if count:
                out[at + 6 + colour] = count / BAG_COUNTS[colour]


def _signed(value: int, scale: float) -> float:
    """`value / (|value| + scale)`: a count the rules do not bound, in order and inside (-1, 1)."""
    return value / (abs(value) + scale)


def _squares(out: MutableSequence[float], at: int, land: Mainland, width: int, offsets: tuple[int, ...]) -> None:
    """Write the Ship row's features and the island planes of `land` at `at`."""
    if land.ships:
        _ships(out, at, land.tiles)
    at += NUM_SHIPS * SHIP_FEATURES
    used = min(land.width, width)
    if used:
        for row in ISLAND_ROWS:
            _island_row(out, at, land, row, used, width, offsets)


def _ships(out: MutableSequence[float], at: int, tiles: list[int]) -> None:
    """Write the features of the ships in the Ship row at `at`."""
    for col, tile in enumerate(tiles[:NUM_SHIPS]):
        if tile != EMPTY:
            base = at + col * SHIP_FEATURES
            out[base], out[base + 1], out[base + 2] = _SHIP[tile]


def _island_row(
    out: MutableSequence[float], at: int, land: Mainland, row: int, used: int, width: int, offsets: tuple[int, ...]
) -> None:
    """Write one island row's first `used` columns into the planes that start at `at` (`width` columns each)."""
    square = row * MAX_COLUMNS
    cell = at + (row - 1) * width
    viking_plane = 3 * len(ISLAND_ROWS) * width
    standing = land.vikings[square : square + used]
    for col, tile in enumerate(land.tiles[square : square + used]):
        if tile != EMPTY:
            out[cell + col + offsets[tile]] = 1.0
            if standing[col] != EMPTY:
                out[cell + col + viking_plane] = 1.0


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


def _turn(out: Any, at: int, state: Any, width: int) -> int:
    """Write the Viking in hand, where the bought tile went, purchases and the ferry from `at`; the next offset."""
    if state.pending_viking != EMPTY:
        out[at + state.pending_viking] = 1.0
    at += NUM_COLOURS
    placed = state.placed_at
    if placed >= 0:
        out[at + placed // MAX_COLUMNS - 1] = 1.0
        out[at + len(ISLAND_ROWS)] = (placed % MAX_COLUMNS + 1) / width
    at += len(ISLAND_ROWS) + 1
    if state.purchases:
        out[at] = state.purchases / GROUPS_PER_ROUND
    at += 1
    load = state.ferry_load
    if any(load):
        for colour, count in enumerate(load):
            if count:
                out[at + colour] = count / BAG_COUNTS[colour]
    at += NUM_COLOURS
    if state.ferry_landed:
        out[at] = state.ferry_landed / ALL_VIKINGS
    return at + 1


def encode(state: Any, seat: int) -> list[float]:
    """The observation tensor of `state` (a VikingsState) from `seat`'s point of view."""
    out = [0.0] * shape(state.num_players)[0]
    _encode_into(out, state, seat)
    return out


def encode_array(state: Any, seat: int) -> npt.NDArray[np.float32]:
    """`encode(state, seat)` as a new float32 numpy array, without building the list (needs numpy)."""
    global _frombuffer, _FLOAT32
    if _frombuffer is None:
        try:
            import numpy
        except ImportError:
            raise ModuleNotFoundError("observation arrays need numpy: pip install 'skald[rl]'") from None
        _frombuffer, _FLOAT32 = numpy.frombuffer, numpy.dtype(numpy.float32)
    return _frombuffer(_encode_fast(state, seat), dtype=_FLOAT32)  # type: ignore[no-any-return]


OFFER_SIZE = GROUPS_PER_ROUND * OFFER_FEATURES + NUM_COLOURS
COUNTS_SIZE = NUM_TILE_TYPES + NUM_COLOURS


def _encode_into(out: MutableSequence[float], state: Any, seat: int) -> None:
    """Write the observation of `state` from `seat` into `out`, zeros of the tensor's size (the reference path)."""
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not one of the {n} seats")
    width = columns(n)
    block = mainland_size(n)
    offsets = _plane_offsets(n)
    to_move = state.current_player()
    start = state.start_player
    lands, spent = state.lands, state.boatswains_spent
    for k in range(n):
        other = (seat + k) % n
        _mainland(out, k * block, lands[other], other == to_move, other == start, spent[other])
        _squares(out, k * block + MAINLAND_SCALARS, lands[other], width, offsets)

    at = n * block
    out[at + state.round - 1] = 1.0
    at += ROUNDS
    out[at + state.step] = 1.0
    at += NUM_STEPS
    _offer(out, at, state)
    at += OFFER_SIZE
    _tile(out, at, state.pending_tile)
    at += TILE_FEATURES
    at = _turn(out, at, state, width)
    _counts(out, at, state)
    at += COUNTS_SIZE
    if state.discarded:
        out[at] = len(state.discarded) / ALL_TILES
    at += 1
    _advanced(out, at, state, seat)


def _advanced(out: MutableSequence[float], at: int, state: Any, seat: int) -> None:
    """The advanced game's block (all zeros in the base game)."""
    if not state.advanced:
        return
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
        out[at] = _signed(state.high_bid, GOLD_SCALE)
    if state.removed_vikings:
        out[at + 1] = state.removed_vikings / ROUNDS
    at += 2
    if state.pending_special != EMPTY:  # a Building tile taken, the island tile it replaces not yet chosen
        out[at + state.pending_special - BUILDING_FIRST] = 1.0
    at += BUILDINGS
    n = state.num_players
    lands, bidding = state.lands, state.bidding
    for k in range(n):
        other = (seat + k) % n
        land = lands[other]
        specials = land.specials
        if any(specials):
            for special, count in enumerate(specials):
                if count:
                    out[at + special] = count / SPECIAL_COUNTS[special]
        if land.waiting:
            out[at + NUM_SPECIAL_TYPES] = len(land.waiting) / 4
        if land.buildings:
            out[at + NUM_SPECIAL_TYPES + 1] = len(land.buildings) / 4
        if bidding[other]:
            out[at + NUM_SPECIAL_TYPES + 2] = 1.0
        at += NUM_SPECIAL_TYPES + 3


class _LandMemo:
    """What the fast path last wrote for one Mainland: the Mainland, its scalars, how much of its change log it has
    read, and the floats of its block (without the State's flags for to move, start player and Boatswains spent)."""

    __slots__ = ("fame", "floats", "gold", "head", "land", "read", "start_placed")

    def __init__(self, land: Mainland, width: int, block: int, offsets: tuple[int, ...]) -> None:
        self.land = land
        self.floats = array("f", bytes(4 * block))
        _mainland(self.floats, 0, land, False, False, 0)
        _squares(self.floats, MAINLAND_SCALARS, land, width, offsets)
        self.fame, self.gold, self.start_placed, self.head = land.fame, land.gold, land.start_placed, land.head[:]
        self.read = len(land.changed)

    def catch_up(self, land: Mainland, width: int, offsets: tuple[int, ...]) -> None:
        """Rewrite the scalars that changed, and the squares changed since the log was last read."""
        floats = self.floats
        if self.fame != land.fame:
            self.fame = land.fame
            floats[0] = _signed(land.fame, FAME_SCALE)
        if self.gold != land.gold:
            self.gold = land.gold
            floats[1] = _signed(land.gold, GOLD_SCALE)
        if self.start_placed != land.start_placed:
            self.start_placed = land.start_placed
            floats[2] = 1.0 if land.start_placed else 0.0
        if self.head != land.head:
            self.head = land.head[:]
            for colour, count in enumerate(self.head):
                floats[MAINLAND_SCALARS - NUM_COLOURS + colour] = count / BAG_COUNTS[colour]
        changed = land.changed
        for index in changed[self.read :]:
            _rewrite_square(floats, land, index, width, offsets)
        self.read = len(changed)


class _Memo:
    """The fast path's memory for one State (kept on it as `tensor_memo`): a block per Mainland, the offer with the
    drawn Vikings, and the stack and bag counts, each with the inputs it was written from."""

    __slots__ = ("bag", "counts", "drawn", "lands", "offer", "offset", "pool", "wheel_tiles", "wheel_vikings")

    def __init__(self, num_players: int) -> None:
        self.lands: list[_LandMemo | None] = [None] * num_players
        #: The inputs the offer was last written from (-1: never).
        self.offset = -1
        self.wheel_tiles: list[int] = []
        self.wheel_vikings: list[int] = []
        self.drawn: list[int] = []
        self.offer = array("f", bytes(4 * OFFER_SIZE))
        self.pool: list[int] = []
        self.bag: list[int] = []
        self.counts = array("f", bytes(4 * COUNTS_SIZE))

    def offer_floats(self, state: Any) -> array[float]:
        """The offer by price with the drawn Vikings (changed by each purchase and draw)."""
        if not (
            self.offset == state.offset
            and self.wheel_tiles == state.wheel_tiles
            and self.wheel_vikings == state.wheel_vikings
            and self.drawn == state.drawn
        ):
            offer = self.offer = array("f", _OFFER_ZEROS)
            at, vikings = 0, state.wheel_vikings
            for space, tile in enumerate(state.wheel_tiles[state.offset :], state.offset):
                if tile != EMPTY:
                    offer[at : at + OFFER_FEATURES] = _GROUPS[tile][vikings[space]]
                at += OFFER_FEATURES
            for colour, count in enumerate(state.drawn, GROUPS_PER_ROUND * OFFER_FEATURES):
                if count:
                    offer[colour] = count / GROUPS_PER_ROUND
            self.offset, self.wheel_tiles = state.offset, state.wheel_tiles[:]
            self.wheel_vikings, self.drawn = state.wheel_vikings[:], state.drawn[:]
        return self.offer

    def counts_floats(self, state: Any) -> array[float]:
        """The stack and bag counts (changed only by draws)."""
        if not (self.pool == state.pool and self.bag == state.bag):
            self.counts = array("f", bytes(4 * COUNTS_SIZE))
            _counts(self.counts, 0, state)
            self.pool, self.bag = state.pool[:], state.bag[:]
        return self.counts


#: By player count and observer: the seats in the order their Mainlands appear (the observer's first, then clockwise).
_ORDERS = {n: tuple((*range(seat, n), *range(seat)) for seat in range(n)) for n in range(1, 7)}
_OFFER_ZEROS = bytes(4 * OFFER_SIZE)


def _group_floats(tile: int, colour: int) -> array[float]:
    """The OFFER_FEATURES of one Group on the wheel: its tile, and its Viking's colour unless EMPTY."""
    floats = array("f", bytes(4 * OFFER_FEATURES))
    _tile(floats, 0, tile)
    if colour != EMPTY:
        floats[TILE_FEATURES + colour] = 1.0
    return floats


#: Per tile type, per Viking colour (EMPTY, -1, is the last entry): the Group's offer floats.
_GROUPS = tuple(
    tuple(_group_floats(tile, colour) for colour in (*range(NUM_COLOURS), EMPTY)) for tile in range(NUM_TILE_TYPES)
)
#: Where a Mainland block's island planes start.
_PLANES_AT = MAINLAND_SCALARS + NUM_SHIPS * SHIP_FEATURES
#: Per player count: zeros of the tensor as bytes, island columns, Mainland block size, plane offsets by tile.
_LAYOUTS: dict[int, tuple[bytes, int, int, tuple[int, ...]]] = {}


def _layout(n: int) -> tuple[bytes, int, int, tuple[int, ...]]:
    """The fast path's sizes for `n` players, computed once."""
    found = _LAYOUTS.get(n)
    if found is None:
        found = _LAYOUTS[n] = (bytes(4 * shape(n)[0]), columns(n), mainland_size(n), _plane_offsets(n))
    return found


def _rewrite_square(floats: array[float], land: Mainland, index: int, width: int, offsets: tuple[int, ...]) -> None:
    """Write again the floats of one square (flat index) of a cached Mainland block."""
    row, col = divmod(index, MAX_COLUMNS)
    tile = land.tiles[index]
    if not row:
        if col < NUM_SHIPS:
            at = MAINLAND_SCALARS + col * SHIP_FEATURES
            floats[at], floats[at + 1], floats[at + 2] = _SHIP[tile] if tile != EMPTY else (0.0, 0.0, 0.0)
        return
    if col >= width:
        return
    plane_size = len(ISLAND_ROWS) * width
    cell = _PLANES_AT + (row - 1) * width + col
    for plane in range(ISLAND_PLANES):
        floats[cell + plane * plane_size] = 0.0
    if tile != EMPTY:
        floats[cell + offsets[tile]] = 1.0
        if land.vikings[index] != EMPTY:
            floats[cell + 3 * plane_size] = 1.0


def _encode_fast(state: Any, seat: int) -> array[float]:
    """`_encode_into` as a new float32 array, from the State's memo of the blocks written before (`_Memo`)."""
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not one of the {n} seats")
    zeros, width, block, offsets = _LAYOUTS.get(n) or _layout(n)
    memo = state.tensor_memo
    if memo is None:
        memo = state.tensor_memo = _Memo(n)
    out = array("f", zeros)
    lands, memos = state.lands, memo.lands
    at = 0
    for other in _ORDERS[n][seat]:
        land = lands[other]
        seen = memos[other]
        if seen is None or seen.land is not land:
            seen = memos[other] = _LandMemo(land, width, block, offsets)
        elif (
            seen.read != len(land.changed)
            or seen.fame != land.fame
            or seen.gold != land.gold
            or seen.head != land.head
            or seen.start_placed != land.start_placed
        ):
            seen.catch_up(land, width, offsets)
        out[at : at + block] = seen.floats
        at += block
    # The State's flags, each in the block of the Mainland it belongs to (counted from the observer's).
    to_move = state.current_player()
    if to_move >= 0:
        out[(to_move - seat) % n * block + 3] = 1.0
    out[(state.start_player - seat) % n * block + 4] = 1.0
    spent = state.boatswains_spent
    if any(spent):
        for other, count in enumerate(spent):
            if count:
                out[(other - seat) % n * block + 5] = count / ALL_VIKINGS
    out[at + state.round - 1] = 1.0
    at += ROUNDS
    out[at + state.step] = 1.0
    at += NUM_STEPS
    out[at : at + OFFER_SIZE] = memo.offer_floats(state)
    at += OFFER_SIZE
    tile = state.pending_tile
    if tile != EMPTY:
        for offset, value in _TILE_WRITES[tile]:
            out[at + offset] = value
    at = _turn(out, at + TILE_FEATURES, state, width)
    out[at : at + COUNTS_SIZE] = memo.counts_floats(state)
    at += COUNTS_SIZE
    if state.discarded:
        out[at] = len(state.discarded) / ALL_TILES
    _advanced(out, at + 1, state, seat)
    return out
