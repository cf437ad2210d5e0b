"""The territory tiles: the six buildings, coins, prisoners and rioters, read from `data/tiles.toml`."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path

BUILDINGS = ("village", "port", "fortress", "workshop", "farm", "marketplace")
#: The buildings whose second copy brings an ally tile.
ALLY_BUILDINGS = ("village", "port", "fortress")
#: The buildings three of which build the VI. Kingdom.
KINGDOM_BUILDINGS = ("village", "port")
PROVENANCES = ("confirmed", "inferred", "provisional")
NUM_TILES = 12


@dataclass(frozen=True)
class Tile:
    """One territory tile: its building, the coins and prisoners in its corners, and any rioter."""

    name: str
    building: str
    coins: int
    prisoners: int
    rioter: bool
    provenance: str


def parse_tiles(text: str, source: str = "tiles.toml") -> tuple[Tile, ...]:
    """Parse a tile table; raises `ValueError` naming the entry and field at fault."""
    data = tomllib.loads(text)
    entries = data.get("tile")
    if not isinstance(entries, list) or len(entries) != NUM_TILES:
        raise ValueError(f"{source}: tile: expected {NUM_TILES} [[tile]] entries")
    tiles = []
    for index, entry in enumerate(entries):
        where = f"{source}: tile[{index}]"
        name, building = entry.get("name"), entry.get("building")
        coins, prisoners = entry.get("coins"), entry.get("prisoners")
        rioter, provenance = entry.get("rioter"), entry.get("provenance")
        if not isinstance(name, str) or not name.isalnum():
            raise ValueError(f"{where}.name: expected a short alphanumeric name")
        if building not in BUILDINGS:
            raise ValueError(f"{where}.building: expected one of {list(BUILDINGS)}")
        for field_name, value in (("coins", coins), ("prisoners", prisoners)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{where}.{field_name}: expected a non-negative integer")
        if not isinstance(rioter, bool):
            raise ValueError(f"{where}.rioter: expected true or false")
        if provenance not in PROVENANCES:
            raise ValueError(f"{where}.provenance: expected one of {list(PROVENANCES)}")
        assert isinstance(coins, int) and isinstance(prisoners, int)
        tiles.append(Tile(name, building, coins, prisoners, rioter, provenance))
    names = [t.name.lower() for t in tiles]
    if len(set(names)) != NUM_TILES:
        raise ValueError(f"{source}: tile names must be distinct (case-insensitively)")
    return tuple(tiles)


def load_tiles(path: str | Path | None = None) -> tuple[Tile, ...]:
    """The tile table at `path`, or the packaged provisional table."""
    if path is None:
        text = files("skald.games.vikingdoms").joinpath("data", "tiles.toml").read_text(encoding="utf-8")
        return parse_tiles(text)
    return parse_tiles(Path(path).read_text(encoding="utf-8"), str(path))


def with_second_rioter(tiles: tuple[Tile, ...], building: str) -> tuple[Tile, ...]:
    """The table with the non-port rioter moved onto a tile of `building` (rule option second_rioter)."""
    moved = [t for t in tiles if t.rioter and t.building != "port"]
    if not moved or moved[0].building == building:
        return tiles
    target = next(t for t in tiles if t.building == building and not t.rioter)
    return tuple(
        replace(t, rioter=False) if t is moved[0] else replace(t, rioter=True) if t is target else t for t in tiles
    )
