"""A player's Mainland: the rows of ship and island tiles, the Vikings on them, the Head Boatswain, Fame and Gold."""

from __future__ import annotations

from typing import Final

from skald.games.vikings.components import (
    EAST,
    EMPTY,
    FIRST_SHIP,
    GREY,
    HORN,
    ISLAND_ROWS,
    ISLANDS,
    LAND,
    LEFT,
    MAINLAND_EDGE,
    MAX_COLUMNS,
    NUM_COLOURS,
    NUM_ROWS,
    NUM_SPECIAL_TYPES,
    RIGHT,
    ROW_NAMES,
    SEA,
    SHIP_ROW,
    WEST,
)

#: Bit sets over the flat squares of the island rows (bit `row * MAX_COLUMNS + column - 1`): column 1, all columns
#: but the first, all but the last, and (by n) columns 1..n.
_ISLAND_ROW_BITS: Final = [1 << (row * MAX_COLUMNS) for row in ISLAND_ROWS]
FIRST_COLUMN: Final = sum(_ISLAND_ROW_BITS)
UP_TO_COLUMN: Final = tuple(sum(bit * ((1 << n) - 1) for bit in _ISLAND_ROW_BITS) for n in range(MAX_COLUMNS + 1))
NOT_FIRST_COLUMN: Final = UP_TO_COLUMN[MAX_COLUMNS] & ~FIRST_COLUMN
NOT_LAST_COLUMN: Final = UP_TO_COLUMN[MAX_COLUMNS - 1]

#: Rulebook pages cited in reasons (rules/000: p.2 purchasing, p.3 placing, p.4 scoring, p.5 end game).
PLACING = "rules/000 p.3, Placing tiles and Vikings"


def edge_name(edge: int) -> str:
    """'land' or 'sea'."""
    return "land" if edge == LAND else "sea"


class SquareCaches:
    """What a Mainland keeps beside the game to answer faster: computed from its squares, never part of a position
    (so `Mainland.__slots__` lists the game alone)."""

    __slots__ = ("islands", "placements", "shared")

    def __init__(self) -> None:
        #: `island_offsets` by the tile's (west, east) edges, until the next island tile is placed (None: not yet).
        self.placements: list[list[int] | None] = [None] * 4
        #: `completed_islands()` until the next island tile is placed (None: not yet).
        self.islands: list[tuple[int, int, int]] | None = None
        #: Whether the squares may be shared with a clone: copied before the first write (copy-on-write, since
        #: tree search clones far more often than it places).
        self.shared = False


class Mainland(SquareCaches):
    """One player's side of the table. Squares are flat lists indexed by `row * MAX_COLUMNS + column - 1`."""

    __slots__ = (
        "buildings",
        "changed",
        "east_land",
        "fame",
        "free",
        "gold",
        "head",
        "occupied",
        "ships",
        "specials",
        "standing",
        "start_placed",
        "tiles",
        "vikings",
        "waiting",
        "west_land",
        "width",
    )

    def __init__(self, gold: int, fame: int, source: Mainland | None = None) -> None:
        super().__init__()
        if source is not None:
            self._copy(source)
            return
        self.fame = fame
        self.gold = gold
        self.tiles = [EMPTY] * (NUM_ROWS * MAX_COLUMNS)
        self.vikings = [EMPTY] * (NUM_ROWS * MAX_COLUMNS)
        #: Vikings waiting with the Head Boatswain, by colour (Boatswains included).
        self.head = [0] * NUM_COLOURS
        #: Ship tiles placed; they always fill columns 1..ships once three are down.
        self.ships = 0
        #: The rightmost island column holding a tile (0 when none).
        self.width = 0
        self.start_placed = False
        #: Advanced game: special tiles beside the Mainland by type, Building tiles waiting for a matching island
        #: tile, and the squares where a Building tile has replaced the island tile.
        self.specials = [0] * NUM_SPECIAL_TYPES
        self.waiting: list[int] = []
        self.buildings: list[int] = []
        #: Flat indices of the squares whose tile or Viking changed, in order, since this object was made; readers
        #: that keep something computed from the squares (the observation tensor) catch up from where they stopped.
        self.changed: list[int] = []
        #: Per row, how many island tiles have no Viking (kept as squares change: ferrying asks it often).
        self.free = [0] * NUM_ROWS
        #: Vikings standing on island tiles (they never leave them).
        self.standing = 0
        #: The squares holding an island tile, as a bit set by flat index (where tiles may go is read from it).
        self.occupied = 0
        #: Of those, the ones whose tile has land on its west edge, and on its east edge.
        self.west_land = 0
        self.east_land = 0

    def _copy(self, source: Mainland) -> None:
        """Become a copy of `source`; the squares are shared until either side writes one."""
        source.shared = True
        self.shared = True
        self.fame = source.fame
        self.gold = source.gold
        self.tiles = source.tiles
        self.vikings = source.vikings
        self.head = source.head[:]
        self.ships = source.ships
        self.width = source.width
        self.start_placed = source.start_placed
        self.specials = source.specials[:]
        self.waiting = source.waiting[:]
        self.buildings = source.buildings[:]
        self.changed = []
        self.free = source.free[:]
        self.placements = source.placements[:]  # the cached lists themselves are never changed, only replaced
        self.occupied = source.occupied
        self.west_land = source.west_land
        self.east_land = source.east_land
        self.standing = source.standing
        self.islands = source.islands

    def clone(self) -> Mainland:
        """An independent copy."""
        return Mainland(self.gold, self.fame, self)

    def _own_squares(self) -> None:
        """Copy the shared squares before writing to them."""
        self.tiles = self.tiles[:]
        self.vikings = self.vikings[:]
        self.shared = False

    def pay(self, amount: int) -> None:
        """Pay with Gold first; a shortfall is exchanged from Fame 1:1 (the caller has checked Fame suffices)."""
        if amount <= self.gold:
            self.gold -= amount
        else:
            self.fame -= amount - self.gold
            self.gold = 0

    # -- squares --------------------------------------------------------------------------------------------

    def tile(self, row: int, col: int) -> int:
        """The tile type on (row, col), or EMPTY (also off the Mainland)."""
        if 1 <= col <= MAX_COLUMNS and 0 <= row < NUM_ROWS:
            return self.tiles[row * MAX_COLUMNS + col - 1]
        return EMPTY

    def viking(self, row: int, col: int) -> int:
        """The colour of the Viking on (row, col), or EMPTY."""
        if 1 <= col <= MAX_COLUMNS and 0 <= row < NUM_ROWS:
            return self.vikings[row * MAX_COLUMNS + col - 1]
        return EMPTY

    def ship_columns(self) -> list[int]:
        """Columns of the Ship row holding a ship."""
        return [c for c in range(1, MAX_COLUMNS + 1) if self.tiles[c - 1] != EMPTY]

    def free_tiles(self, row: int) -> list[int]:
        """Columns of `row` holding an island tile with no Viking on it."""
        base = row * MAX_COLUMNS
        tiles, vikings = self.tiles, self.vikings
        return [c + 1 for c in range(self.width) if tiles[base + c] != EMPTY and vikings[base + c] == EMPTY]

    def count_free(self, row: int) -> int:
        """How many island tiles of `row` have no Viking."""
        return self.free[row]

    def vikings_owned(self) -> int:
        """Every Viking the player has: on islands and with the Head Boatswain (rules/000 p.5, feeding)."""
        return self.standing + sum(self.head)

    def tile_count(self) -> int:
        """Tiles on the Mainland, ships included."""
        return sum(1 for t in self.tiles if t != EMPTY)

    # -- placing island tiles (rules/000 p.3) --------------------------------------------------------------

    def island_reason(self, tile: int, row: int, col: int) -> tuple[str, str] | None:
        """Why island tile `tile` may not go on (row, col), as (rule, reason); None when it may."""
        if row not in ISLAND_ROWS:
            return "placement.island_rows", "an island tile goes in one of the five Viking rows"
        if not 1 <= col <= MAX_COLUMNS:
            return "placement.columns", f"column {col} is off the Mainland"
        tiles = self.tiles
        index = row * MAX_COLUMNS + col - 1
        if tiles[index] != EMPTY:
            return "placement.occupied", f"{ROW_NAMES[row]} row column {col} already holds a tile"
        west_tile = tiles[index - 1] if col > 1 else EMPTY
        east_tile = tiles[index + 1] if col < MAX_COLUMNS else EMPTY
        touches = (
            col == 1
            or west_tile != EMPTY
            or east_tile != EMPTY
            or (row > 1 and tiles[index - MAX_COLUMNS] != EMPTY)
            or (row < 5 and tiles[index + MAX_COLUMNS] != EMPTY)
        )
        if not touches:
            return (
                "placement.adjacent",
                "an island tile must touch the Mainland or an island tile orthogonally (diagonals do not "
                f"count); {ROW_NAMES[row]} row column {col} touches neither ({PLACING})",
            )
        name = ISLANDS[tile].name
        if col == 1 and WEST[tile] != MAINLAND_EDGE:
            return (
                "placement.edges",
                f"a {name} has land on its west edge; column 1 faces the Mainland's sea — land may not meet "
                f"sea ({PLACING})",
            )
        if west_tile != EMPTY and EAST[west_tile] != WEST[tile]:
            return (
                "placement.edges",
                f"a {name} has {edge_name(WEST[tile])} on its west edge; the {ISLANDS[west_tile].name} to its "
                f"west has {edge_name(EAST[west_tile])} — land meets land and sea meets sea, no rotation "
                f"({PLACING})",
            )
        if east_tile != EMPTY and WEST[east_tile] != EAST[tile]:
            return (
                "placement.edges",
                f"a {name} has {edge_name(EAST[tile])} on its east edge; the {ISLANDS[east_tile].name} to its "
                f"east has {edge_name(WEST[east_tile])} — land meets land and sea meets sea, no rotation "
                f"({PLACING})",
            )
        return None

    def island_squares(self, tile: int, limit: int = 0) -> list[tuple[int, int]]:
        """Every (row, col) where island tile `tile` may be placed, row by row, left to right (the first `limit`)."""
        found = self.island_offsets(tile)
        return [(offset // MAX_COLUMNS + 1, offset % MAX_COLUMNS + 1) for offset in (found[:limit] if limit else found)]

    def island_offsets(self, tile: int) -> list[int]:
        """`island_squares` as offsets `(row - 1) * MAX_COLUMNS + col - 1` (those of the ISLAND and VIKING action
        blocks); the list is shared with a cache, so the caller must not change it."""
        key = WEST[tile] * 2 + EAST[tile]
        found = self.placements[key]
        if found is None:
            found = self.placements[key] = self._island_offsets(tile)
        return found

    def _island_offsets(self, tile: int) -> list[int]:
        # Where a tile may go, from the bit sets of island tiles and of their land edges: an empty square that
        # touches an island tile or the Mainland (column 1), whose west neighbour (or the Mainland's sea) shows
        # the tile's west edge and whose east neighbour shows its east edge. Lowest square first.
        west, east = WEST[tile], EAST[tile]
        occupied = self.occupied
        # Island tiles whose east edge differs from this tile's west edge, and whose west edge differs from its east.
        clash_west = self.east_land if west == SEA else occupied & ~self.east_land
        clash_east = self.west_land if east == SEA else occupied & ~self.west_land
        touching = (
            ((occupied << 1) & NOT_FIRST_COLUMN)
            | ((occupied >> 1) & NOT_LAST_COLUMN)
            | (occupied << MAX_COLUMNS)
            | (occupied >> MAX_COLUMNS)
            | FIRST_COLUMN
        )
        open_squares = (
            touching
            & ~occupied
            & ~((clash_west << 1) & NOT_FIRST_COLUMN)
            & ~((clash_east >> 1) & NOT_LAST_COLUMN)
            & UP_TO_COLUMN[min(self.width + 1, MAX_COLUMNS)]
        )
        if west != MAINLAND_EDGE:
            open_squares &= ~FIRST_COLUMN
        squares = []
        while open_squares:
            lowest = open_squares & -open_squares
            open_squares ^= lowest
            squares.append(lowest.bit_length() - 1 - MAX_COLUMNS)
        return squares

    def place_island(self, tile: int, row: int, col: int) -> None:
        """Put an island tile on a square already known to be legal."""
        if self.shared:
            self._own_squares()
        index = row * MAX_COLUMNS + col - 1
        self.tiles[index] = tile
        self.changed.append(index)
        if self.vikings[index] == EMPTY:
            self.free[row] += 1
        self.placements = [None] * 4
        bit = 1 << index
        self.occupied |= bit
        if WEST[tile] == LAND:
            self.west_land |= bit
        if EAST[tile] == LAND:
            self.east_land |= bit
        self.islands = None
        if col > self.width:
            self.width = col

    def put_viking(self, colour: int, row: int, col: int) -> None:
        """Stand a Viking of `colour` on the island tile at (row, col), already known to be free."""
        if self.shared:
            self._own_squares()
        index = row * MAX_COLUMNS + col - 1
        self.vikings[index] = colour
        self.changed.append(index)
        self.standing += 1
        if self.tiles[index] != EMPTY:
            self.free[row] -= 1

    # -- placing ship tiles (rules/000 p.3) ----------------------------------------------------------------

    def ship_reason(self, col: int, touching: bool) -> tuple[str, str] | None:
        """Why a ship may not go in Ship-row column `col`; None when it may."""
        if not 1 <= col <= MAX_COLUMNS:
            return "ship.columns", f"column {col} is off the Mainland"
        tiles = self.tiles
        if tiles[col - 1] != EMPTY:
            return "ship.occupied", f"Ship row column {col} already holds a ship"
        if self.ships < 3:
            if col > 3:
                return (
                    "ship.first_three",
                    f"the first 3 Ship tiles go in the first 3 spaces of the Ship row; column {col} waits until "
                    f"columns 1–3 hold ships ({PLACING})",
                )
            if touching and self.ships and not ((col > 1 and tiles[col - 2] != EMPTY) or tiles[col] != EMPTY):
                return (
                    "ship.touching",
                    f"each ship after the first must touch a placed ship (rule option ship_row=touching, "
                    f"rules/001); column {col} touches none",
                )
            return None
        if col != self.ships + 1:
            return (
                "ship.adjacent",
                f"further Ship tiles go next to a placed ship, left to right: column {self.ships + 1} is next "
                f"({PLACING})",
            )
        return None

    def ship_columns_open(self, touching: bool) -> list[int]:
        """The Ship-row columns where the next ship may go."""
        if self.ships >= 3:
            return [self.ships + 1]
        return [c for c in (1, 2, 3) if self.ship_reason(c, touching) is None]

    def place_ship(self, tile: int, col: int) -> None:
        """Put a ship tile in the Ship row."""
        if self.shared:
            self._own_squares()
        index = SHIP_ROW * MAX_COLUMNS + col - 1
        self.tiles[index] = tile
        self.changed.append(index)
        self.ships += 1

    # -- islands as the end-game scoring counts them (rules/000 p.5) -----------------------------------------

    def completed_islands(self) -> list[tuple[int, int, int]]:
        """Each completed island as (row, first column, length): a left end, middles, a right end, no holes."""
        if self.islands is None:
            self.islands = self._completed_islands()
        return self.islands[:]

    def _completed_islands(self) -> list[tuple[int, int, int]]:
        islands = []
        for row in ISLAND_ROWS:
            base = row * MAX_COLUMNS
            col = 0
            while col < self.width:
                if self.tiles[base + col] == LEFT:
                    end = col + 1
                    while end < self.width and self.tiles[base + end] not in (EMPTY, LEFT, RIGHT):
                        end += 1
                    if end < self.width and self.tiles[base + end] == RIGHT:
                        islands.append((row, col + 1, end - col + 1))
                        col = end
                col += 1
        return islands

    def boatswains(self) -> int:
        """Boatswains for the most-Boatswains award: those still waiting, plus each Boatswain-with-horn tile."""
        return self.head[GREY] + self.specials[HORN]

    def building_squares(self, middle: int) -> list[int]:
        """Flat indices of island tiles showing the building of middle kind `middle`, not yet replaced."""
        return [
            index
            for index in range(MAX_COLUMNS, NUM_ROWS * MAX_COLUMNS)
            if self.tiles[index] == middle and index not in self.buildings
        ]

    def is_ship_tile(self, row: int, col: int) -> bool:
        """Whether (row, col) holds a ship."""
        return row == SHIP_ROW and self.tile(row, col) >= FIRST_SHIP

    def rightmost(self) -> int:
        """The rightmost column holding anything, ships included (the first ships may leave gaps in columns 1–3)."""
        ships = self.ships if self.ships >= 3 else max(self.ship_columns(), default=0)
        return max(self.width, ships)
