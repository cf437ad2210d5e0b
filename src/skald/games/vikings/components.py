"""The components of Vikings, read from the data files in `data/`, and the fixed numbers of the rulebook."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Final

from skald.engine.messages import shown

# -- Viking colours, in the offer's colour order (rules/000 p.2) ------------------------------------------
# Every fixed number below is `Final`, so that the compiled build inlines it instead of looking it up by name.
BLUE: Final = 0
YELLOW: Final = 1
GREEN: Final = 2
RED: Final = 3
BLACK: Final = 4
GREY: Final = 5
FISHERMAN: Final = BLUE
GOLDSMITH: Final = YELLOW
SCOUT: Final = GREEN
NOBLE: Final = RED
WARRIOR: Final = BLACK
BOATSWAIN: Final = GREY
NUM_COLOURS: Final = 6

# -- Mainland rows, top to bottom (rules/000 p.3): Ships, Warriors, Nobles, Scouts, Goldsmiths, Fishermen --
SHIP_ROW: Final = 0
ISLAND_ROWS: Final = (1, 2, 3, 4, 5)
NUM_ROWS: Final = 6
ROW_NAMES: Final = ("Ship", "Warrior", "Noble", "Scout", "Goldsmith", "Fisherman")

# -- Island edges ----------------------------------------------------------------------------------------
SEA: Final = 0
LAND: Final = 1
#: The Mainland's edge that column 1 touches is sea (research §2.1: the start tile, a left end, sits there).
MAINLAND_EDGE: Final = SEA

# -- Tile types: one id per kind of island tile, one per ship tile -----------------------------------------
LEFT: Final = 0
MIDDLES: Final = (1, 2, 3, 4)
RIGHT: Final = 5
FIRST_SHIP: Final = 6
NUM_SHIPS: Final = 14
NUM_TILE_TYPES: Final = FIRST_SHIP + NUM_SHIPS
EMPTY: Final = -1

#: Columns a Mainland can ever need: two players buy 36 Groups each, plus the start tile.
MAX_COLUMNS: Final = 37

STACKS: Final = 6
GROUPS_PER_ROUND: Final = 12
ROUNDS: Final = 6
STARTING_FAME: Final = 10
STARTING_GOLD: Final = {2: 30, 3: 25, 4: 20}
LARGE_SCORING_ROUNDS: Final = (2, 4, 6)


@dataclass(frozen=True)
class VikingKind:
    """One colour of Viking: its role, notation letter, Mainland row (0 = none) and how many are in the bag."""

    colour: str
    role: str
    letter: str
    row: int
    count: int
    provenance: str


@dataclass(frozen=True)
class IslandKind:
    """One kind of island tile: its edges, building (middle pieces) and count."""

    kind: str
    name: str
    west: int
    east: int
    count: int
    start_tiles: int
    building: str
    provenance: str


@dataclass(frozen=True)
class Ship:
    """One ship tile: the sail's colour, the row it threatens down to, and its Fame or Gold."""

    id: str
    sail: int
    row: int
    reward: str
    value: int
    provenance: str


class ComponentError(ValueError):
    """A data file that does not describe the components the rules need; names the entry at fault."""


def _read(name: str) -> dict[str, Any]:
    return tomllib.loads(files("skald.games.vikings").joinpath("data", name).read_text(encoding="utf-8"))


def _edge(value: Any, where: str) -> int:
    if value not in ("sea", "land"):
        raise ComponentError(f"{where}: edge must be 'sea' or 'land', not {value!r}")
    return SEA if value == "sea" else LAND


def load_vikings() -> tuple[VikingKind, ...]:
    """The six Viking colours from `data/vikings.toml`, checked against the rulebook's 78 in six colours."""
    entries = _read("vikings.toml")["viking"]
    kinds = tuple(
        VikingKind(e["colour"], e["role"], e["letter"], int(e["row"]), int(e["count"]), e["provenance"])
        for e in entries
    )
    if len(kinds) != NUM_COLOURS or sum(k.count for k in kinds) != 78:
        raise ComponentError("vikings.toml: expected six colours and 78 Vikings in all")
    return kinds


def load_islands() -> tuple[IslandKind, ...]:
    """The island tile kinds from `data/islands.toml`, in tile-type order: left end, 4 middles, right end."""
    kinds = []
    for index, e in enumerate(_read("islands.toml")["island"]):
        where = f"islands.toml island[{index}]"
        kinds.append(
            IslandKind(
                e["kind"],
                e["name"],
                _edge(e["west"], where),
                _edge(e["east"], where),
                int(e["count"]),
                int(e.get("start_tiles", 0)),
                e.get("building", ""),
                e["provenance"],
            )
        )
    shape = [k.kind for k in kinds]
    if shape != ["left", "middle", "middle", "middle", "middle", "right"]:
        raise ComponentError(f"islands.toml: expected left, four middles, right; got {shape}")
    if kinds[LEFT].start_tiles != 4 or (kinds[LEFT].west, kinds[LEFT].east) != (SEA, LAND):
        raise ComponentError("islands.toml island[0]: the left end must hold the 4 start tiles, sea|land")
    if sum(k.count for k in kinds) != 62:
        raise ComponentError("islands.toml: the rulebook counts 62 island tiles")
    return tuple(kinds)


def load_ships(vikings: tuple[VikingKind, ...]) -> tuple[Ship, ...]:
    """The 14 ship tiles from `data/ships.toml`."""
    colour_index = {k.colour: i for i, k in enumerate(vikings)}
    ships = []
    for index, e in enumerate(_read("ships.toml")["ship"]):
        where = f"ships.toml ship[{index}]"
        if e["sail"] not in colour_index or vikings[colour_index[e["sail"]]].row == 0:
            raise ComponentError(f"{where}.sail: {e['sail']!r} is not the colour of a Viking row")
        if e["reward"] not in ("fame", "gold"):
            raise ComponentError(f"{where}.reward: must be 'fame' or 'gold'")
        sail = colour_index[e["sail"]]
        ships.append(Ship(e["id"], sail, vikings[sail].row, e["reward"], int(e["value"]), e["provenance"]))
    if len({ship.id for ship in ships}) != len(ships):
        raise ComponentError("ships.toml: every ship needs its own id")
    if len(ships) != NUM_SHIPS:
        raise ComponentError(f"ships.toml: the rulebook counts {NUM_SHIPS} ship tiles, not {len(ships)}")
    return tuple(ships)


VIKINGS: Final = load_vikings()
ISLANDS: Final = load_islands()
SHIPS: Final = load_ships(VIKINGS)

LETTERS: Final = "".join(k.letter for k in VIKINGS)
ROW_OF_COLOUR: Final = tuple(k.row for k in VIKINGS)
COLOUR_OF_ROW: Final = {k.row: i for i, k in enumerate(VIKINGS) if k.row}
ROW_LETTERS: Final = ("ship", *(VIKINGS[COLOUR_OF_ROW[r]].letter for r in ISLAND_ROWS))

#: West and east edge of every island tile type; ships have none.
WEST: Final = tuple(k.west for k in ISLANDS)
EAST: Final = tuple(k.east for k in ISLANDS)

#: How many of each tile type go into the six stacks (start tiles held back).
STACK_COUNTS: Final = (*(k.count - k.start_tiles for k in ISLANDS), *(1,) * NUM_SHIPS)
BAG_COUNTS: Final = tuple(k.count for k in VIKINGS)


def is_ship(tile: int) -> bool:
    """Whether a tile type is a ship tile."""
    return tile >= FIRST_SHIP


def ship_of(tile: int) -> Ship:
    """The ship data of a ship tile type."""
    return SHIPS[tile - FIRST_SHIP]


def tile_name(tile: int) -> str:
    """A person's name for a tile type."""
    return f"ship {ship_of(tile).id}" if is_ship(tile) else ISLANDS[tile].name


def tile_code(tile: int) -> str:
    """The tile's code in position files: L, M1–M4, R, or the ship's id."""
    if is_ship(tile):
        return ship_of(tile).id
    if tile == LEFT:
        return "L"
    if tile == RIGHT:
        return "R"
    return f"M{tile}"


def tile_from_code(code: str) -> int:
    """Parse a tile code (`L`, `M1`…`M4`, `R`, or a ship id); raises `ValueError`."""
    upper = code.strip().upper()
    if upper == "L":
        return LEFT
    if upper == "R":
        return RIGHT
    if upper in ("M1", "M2", "M3", "M4"):
        return int(upper[1])
    for index, ship in enumerate(SHIPS):
        if ship.id.lower() == code.strip().lower():
            return FIRST_SHIP + index
    raise ValueError(f"{shown(code)} is not a tile code (L, M1–M4, R, or a ship id such as {SHIPS[0].id})")


# -- The advanced game's special tiles (rules/000, supplementary sheet) ---------------------------------------

GOLD5: Final = 0
GOLDSMITH1: Final = 1
GOLDSMITH2: Final = 2
BOAT: Final = 3
NOBLE1: Final = 4
SCOUT1: Final = 5
FISHERMAN1: Final = 6
HORN: Final = 7
FISH: Final = 8
GOLD3: Final = 9
#: The four Building tiles, one per middle piece's building: special type BUILDING_FIRST + k - 1 for middle k.
BUILDING_FIRST: Final = 10
NUM_SPECIAL_TYPES: Final = 14
FACE_UP_SPECIALS: Final = 4
SPECIAL_KINDS: Final = (
    "gold5",
    "goldsmith1",
    "goldsmith2",
    "boat",
    "noble1",
    "scout1",
    "fisherman1",
    "horn",
    "fish",
    "gold3",
    "building",
    "building",
    "building",
    "building",
)


@dataclass(frozen=True)
class Special:
    """One kind of special tile: its name, how many, when it acts, its effect, and (Building tiles) its building."""

    kind: str
    name: str
    count: int
    when: str
    effect: str
    building: int
    provenance: str


def load_specials() -> tuple[Special, ...]:
    """The special tile kinds from `data/specials.toml`, in special-type order; 25 tiles in all."""
    specials = tuple(
        Special(
            e["kind"], e["name"], int(e["count"]), e["when"], e["effect"], int(e.get("building", 0)), e["provenance"]
        )
        for e in _read("specials.toml")["special"]
    )
    if tuple(s.kind for s in specials) != SPECIAL_KINDS:
        raise ComponentError(f"specials.toml: expected the kinds {', '.join(SPECIAL_KINDS)} in this order")
    if [s.building for s in specials[BUILDING_FIRST:]] != [1, 2, 3, 4]:
        raise ComponentError("specials.toml: the four Building tiles show buildings 1, 2, 3, 4 (the middle kinds)")
    if sum(s.count for s in specials) != 25:
        raise ComponentError("specials.toml: the rulebook counts 25 special tiles")
    return specials


SPECIALS: Final = load_specials()
SPECIAL_COUNTS: Final = tuple(s.count for s in SPECIALS)
SPECIAL_CODES: Final = (*SPECIAL_KINDS[:BUILDING_FIRST], "building1", "building2", "building3", "building4")


def building_of(special: int) -> int:
    """The middle tile type whose building a Building special tile shows (0 for other specials)."""
    return special - BUILDING_FIRST + 1 if special >= BUILDING_FIRST else 0
