"""The fixed action space of Vikings: integer ids, their JSON form and their notation.

| ids       | action                                   | JSON                                        | notation      |
|-----------|------------------------------------------|---------------------------------------------|---------------|
| 0–11      | buy the Group that costs 0–11            | {"type": "buy", "price": 7}                 | buy 7         |
| 12–25     | place the bought ship in column 1–14     | {"type": "ship", "column": 3}               | ship 3        |
| 26–210    | place the bought island tile on a square | {"type": "island", "square": "N3"}          | tile N3       |
| 211–215   | place the start tile in a row, column 1  | {"type": "start", "square": "N1"}           | start N1      |
| 216–400   | put a Viking on the tile of a square     | {"type": "viking", "square": "N3"}          | viking N3     |
| 401       | put the bought Viking with the Head Boatswain | {"type": "head"}                       | head          |
| 402–406   | spend a Boatswain to ferry one colour    | {"type": "ferry", "colour": "G"}            | ferry G       |
| 407       | spend a Boatswain to ferry one of each   | {"type": "ferry", "colour": "each"}         | ferry each    |
| 408       | stop ferrying (or end this ferry)        | {"type": "done"}                            | done          |
| 409–428   | chance: the next tile drawn              | {"type": "draw_tile", "tile": "M2"}         | draw tile M2  |
| 429–434   | chance: the next Viking drawn            | {"type": "draw_viking", "colour": "S"}      | draw viking S |

The advanced game adds (the ids above never change, so base-game records stay valid):

| ids       | action                                   | JSON                                        | notation      |
|-----------|------------------------------------------|---------------------------------------------|---------------|
| 435–448   | chance: a special tile turned up  | {"type": "draw_special", "special": "boat"} | draw special boat |
| 449–548   | bid 0–99 Gold for the Start Player Ship  | {"type": "bid", "gold": 4}                  | bid 4         |
| 549       | pass in the auction                      | {"type": "pass"}                            | pass          |
| 550–555   | remove one drawn Viking of a colour      | {"type": "remove", "colour": "B"}           | remove B      |
| 556–561   | place a colour's Vikings from space 11 down | {"type": "place_colour", "colour": "G"}  | place G       |
| 562–565   | take face-up special tile 1–4            | {"type": "take_special", "slot": 2}         | take 2        |
| 566       | take no special tile                     | {"type": "decline"}                         | decline       |
| 567–751   | a Building tile replaces the tile on a square | {"type": "replace", "square": "N3"}    | replace N3    |
| 752–756   | a Boat and a Boatswain ferry one colour  | {"type": "ferry", "colour": "G", "boat": true} | boat G     |
| 757       | a Boat and a Boatswain ferry one of each | {"type": "ferry", "colour": "each", "boat": true} | boat each |

A square is a row letter (W, N, S, G, F: the row of that Viking's colour) and a column from 1.
"""

from __future__ import annotations

from typing import Any, Final

from skald.engine.messages import shown
from skald.games.vikings.components import (
    GROUPS_PER_ROUND,
    ISLAND_ROWS,
    LETTERS,
    MAX_COLUMNS,
    NUM_SHIPS,
    NUM_SPECIAL_TYPES,
    NUM_TILE_TYPES,
    ROW_LETTERS,
    SPECIAL_CODES,
    tile_code,
    tile_from_code,
)

# Final (and written with literals), so that the compiled build inlines the ids; 5 is len(ISLAND_ROWS).
BUY: Final = 0
SHIP: Final = BUY + GROUPS_PER_ROUND
ISLAND: Final = SHIP + NUM_SHIPS
START: Final = ISLAND + 5 * MAX_COLUMNS
VIKING: Final = START + 5
HEAD: Final = VIKING + 5 * MAX_COLUMNS
FERRY: Final = HEAD + 1
FERRY_EACH: Final = FERRY + 5
DONE: Final = FERRY_EACH + 1
DRAW_TILE: Final = DONE + 1
DRAW_VIKING: Final = DRAW_TILE + NUM_TILE_TYPES
DRAW_SPECIAL: Final = DRAW_VIKING + 6
BID: Final = DRAW_SPECIAL + NUM_SPECIAL_TYPES
MAX_BID: Final = 99
PASS: Final = BID + MAX_BID + 1
REMOVE: Final = PASS + 1
PLACE_COLOUR: Final = REMOVE + 6
TAKE_SPECIAL: Final = PLACE_COLOUR + 6
DECLINE: Final = TAKE_SPECIAL + 4
REPLACE: Final = DECLINE + 1
BOAT_FERRY: Final = REPLACE + 5 * MAX_COLUMNS
BOAT_FERRY_EACH: Final = BOAT_FERRY + 5
NUM_ACTIONS: Final = BOAT_FERRY_EACH + 1


def square_index(row: int, col: int) -> int:
    """Offset of island square (row 1–5, column 1–MAX_COLUMNS) within the ISLAND and VIKING blocks."""
    return (row - 1) * MAX_COLUMNS + (col - 1)


def square_of(offset: int) -> tuple[int, int]:
    """The (row, column) of an offset within the ISLAND or VIKING block."""
    return offset // MAX_COLUMNS + 1, offset % MAX_COLUMNS + 1


def square_name(row: int, col: int) -> str:
    """A square's name: its row letter and column, e.g. N3."""
    return f"{ROW_LETTERS[row]}{col}"


def parse_square(text: str) -> tuple[int, int]:
    """Parse a square name such as `N3`; raises `ValueError`."""
    text = text.strip().upper()
    col = _number(text[1:])
    if col is None:
        raise ValueError(f"{shown(text)} is not a square (a row letter W, N, S, G or F and a column, e.g. N3)")
    rows = {ROW_LETTERS[r]: r for r in ISLAND_ROWS}
    if text[0] not in rows:
        raise ValueError(f"{shown(text)}: row letter must be one of W, N, S, G, F")
    if not 1 <= col <= MAX_COLUMNS:
        raise ValueError(f"{shown(text)}: column must be 1–{MAX_COLUMNS}")
    return rows[text[0]], col


def _number(text: str) -> int | None:
    """`text` as a whole number if written in ASCII digits (not '²' or '٣'); None if not, or if too long to be any
    price, column, bid or slot."""
    if text.isascii() and text.isdecimal() and len(text) <= 9:
        return int(text)
    return None


def island(row: int, col: int) -> int:
    """The action placing the bought island tile on (row, col)."""
    return ISLAND + square_index(row, col)


def viking(row: int, col: int) -> int:
    """The action putting a Viking on the tile at (row, col)."""
    return VIKING + square_index(row, col)


def to_json(action: int) -> dict[str, Any]:
    """The JSON form of an action id."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} is outside 0–{NUM_ACTIONS - 1}")
    if action < SHIP:
        return {"type": "buy", "price": action - BUY}
    if action < ISLAND:
        return {"type": "ship", "column": action - SHIP + 1}
    if action < START:
        return {"type": "island", "square": square_name(*square_of(action - ISLAND))}
    if action < VIKING:
        return {"type": "start", "square": square_name(action - START + 1, 1)}
    if action < HEAD:
        return {"type": "viking", "square": square_name(*square_of(action - VIKING))}
    if action == HEAD:
        return {"type": "head"}
    if action < FERRY_EACH:
        return {"type": "ferry", "colour": LETTERS[action - FERRY]}
    if action == FERRY_EACH:
        return {"type": "ferry", "colour": "each"}
    if action == DONE:
        return {"type": "done"}
    if action < DRAW_VIKING:
        return {"type": "draw_tile", "tile": tile_code(action - DRAW_TILE)}
    if action < DRAW_SPECIAL:
        return {"type": "draw_viking", "colour": LETTERS[action - DRAW_VIKING]}
    if action < BID:
        return {"type": "draw_special", "special": SPECIAL_CODES[action - DRAW_SPECIAL]}
    if action < PASS:
        return {"type": "bid", "gold": action - BID}
    if action == PASS:
        return {"type": "pass"}
    if action < PLACE_COLOUR:
        return {"type": "remove", "colour": LETTERS[action - REMOVE]}
    if action < TAKE_SPECIAL:
        return {"type": "place_colour", "colour": LETTERS[action - PLACE_COLOUR]}
    if action < DECLINE:
        return {"type": "take_special", "slot": action - TAKE_SPECIAL + 1}
    if action == DECLINE:
        return {"type": "decline"}
    if action < BOAT_FERRY:
        return {"type": "replace", "square": square_name(*square_of(action - REPLACE))}
    if action < BOAT_FERRY_EACH:
        return {"type": "ferry", "colour": LETTERS[action - BOAT_FERRY], "boat": True}
    return {"type": "ferry", "colour": "each", "boat": True}


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ValueError(f"{name}: expected {kind.__name__}, got {shown(value)}")
    return value


def _square_field(data: dict[str, Any]) -> tuple[int, int]:
    """The (row, column) named by the `square` field."""
    text = _field(data, "square", str)
    try:
        return parse_square(text)
    except ValueError as error:
        raise ValueError(f"square: {error}") from None


def _tile_field(data: dict[str, Any]) -> int:
    """The tile named by the `tile` field."""
    code = _field(data, "tile", str)
    try:
        return tile_from_code(code)
    except ValueError as error:
        raise ValueError(f"tile: {error}") from None


def from_json(data: Any) -> int:
    """Parse an action's JSON form; raises `ValueError` naming the field at fault."""
    if not isinstance(data, dict):
        raise ValueError("expected an object with a 'type' field")
    kind = data.get("type")
    if kind == "buy":
        price: int = _field(data, "price", int)
        if not 0 <= price < GROUPS_PER_ROUND:
            raise ValueError(f"price: must be 0–{GROUPS_PER_ROUND - 1}")
        return BUY + price
    if kind == "ship":
        column: int = _field(data, "column", int)
        if not 1 <= column <= NUM_SHIPS:
            raise ValueError(f"column: must be 1–{NUM_SHIPS}")
        return SHIP + column - 1
    if kind in ("island", "viking"):
        row, col = _square_field(data)
        return (island if kind == "island" else viking)(row, col)
    if kind == "start":
        row, col = _square_field(data)
        if col != 1:
            raise ValueError("square: the start tile goes in column 1")
        return START + row - 1
    if kind == "head":
        return HEAD
    if kind == "ferry":
        colour = _field(data, "colour", str).upper()
        boat = data.get("boat", False)
        if not isinstance(boat, bool):
            raise ValueError("boat: expected true or false")
        if colour == "EACH":
            return BOAT_FERRY_EACH if boat else FERRY_EACH
        if len(colour) != 1 or colour not in LETTERS[:5]:
            raise ValueError("colour: must be one of F, G, S, N, W or 'each'")
        return (BOAT_FERRY if boat else FERRY) + LETTERS.index(colour)
    if kind == "done":
        return DONE
    if kind == "draw_tile":
        return DRAW_TILE + _tile_field(data)
    if kind in ("draw_viking", "remove", "place_colour"):
        colour = _field(data, "colour", str).upper()
        if len(colour) != 1 or colour not in LETTERS:
            raise ValueError(f"colour: must be one of {', '.join(LETTERS)}")
        base = {"draw_viking": DRAW_VIKING, "remove": REMOVE, "place_colour": PLACE_COLOUR}[kind]
        return base + LETTERS.index(colour)
    if kind == "draw_special":
        code = _field(data, "special", str).lower()
        if code not in SPECIAL_CODES:
            raise ValueError(f"special: must be one of {', '.join(SPECIAL_CODES)}")
        return DRAW_SPECIAL + SPECIAL_CODES.index(code)
    if kind == "bid":
        gold: int = _field(data, "gold", int)
        if not 0 <= gold <= MAX_BID:
            raise ValueError(f"gold: a bid is 0–{MAX_BID}")
        return BID + gold
    if kind == "pass":
        return PASS
    if kind == "decline":
        return DECLINE
    if kind == "take_special":
        slot: int = _field(data, "slot", int)
        if not 1 <= slot <= 4:
            raise ValueError("slot: the face-up special tiles are numbered 1–4")
        return TAKE_SPECIAL + slot - 1
    if kind == "replace":
        row, col = _square_field(data)
        return REPLACE + square_index(row, col)
    raise ValueError(f"type: unknown action type {shown(kind)}")


def to_notation(action: int) -> str:
    """The short notation of an action id."""
    data = to_json(action)
    kind = data["type"]
    if kind == "buy":
        return f"buy {data['price']}"
    if kind == "ship":
        return f"ship {data['column']}"
    if kind == "island":
        return f"tile {data['square']}"
    if kind in ("start", "viking"):
        return f"{kind} {data['square']}"
    if kind == "ferry":
        return f"{'boat' if data.get('boat') else 'ferry'} {data['colour']}"
    if kind == "draw_tile":
        return f"draw tile {data['tile']}"
    if kind == "draw_viking":
        return f"draw viking {data['colour']}"
    if kind == "draw_special":
        return f"draw special {data['special']}"
    if kind == "bid":
        return f"bid {data['gold']}"
    if kind == "remove":
        return f"remove {data['colour']}"
    if kind == "place_colour":
        return f"place {data['colour']}"
    if kind == "take_special":
        return f"take {data['slot']}"
    if kind == "replace":
        return f"replace {data['square']}"
    return str(kind)


#: Notation of one word and no argument: the word is the action's type.
_BARE_WORDS = ("head", "done", "pass", "decline")
#: Notation of a word and one argument: the action type and the JSON field the argument fills.
_WORD_AND_ARGUMENT: dict[str, tuple[str, str]] = {
    "buy": ("buy", "price"),
    "ship": ("ship", "column"),
    "tile": ("island", "square"),
    "start": ("start", "square"),
    "viking": ("viking", "square"),
    "ferry": ("ferry", "colour"),
    "boat": ("ferry", "colour"),
    "bid": ("bid", "gold"),
    "remove": ("remove", "colour"),
    "place": ("place_colour", "colour"),
    "take": ("take_special", "slot"),
    "replace": ("replace", "square"),
}
_NUMBER_FIELDS = ("price", "column", "gold", "slot")
#: `draw <what> <argument>`: chance's actions.
_DRAWS: dict[str, tuple[str, str]] = {
    "tile": ("draw_tile", "tile"),
    "viking": ("draw_viking", "colour"),
    "special": ("draw_special", "special"),
}


def from_notation(text: str) -> int:
    """Parse full notation (as `to_notation` writes it); raises `ValueError` saying what was not understood."""
    words = text.strip().split()
    if not words:
        raise ValueError("empty notation")
    head, rest = words[0].lower(), words[1:]
    if head in _BARE_WORDS and not rest:
        return from_json({"type": head})
    if head in _WORD_AND_ARGUMENT and len(rest) == 1:
        kind, field = _WORD_AND_ARGUMENT[head]
        argument: int | str | None = _number(rest[0]) if field in _NUMBER_FIELDS else rest[0]
        if argument is not None:
            return from_json({"type": kind, field: argument} | ({"boat": True} if head == "boat" else {}))
    if head == "draw" and len(rest) == 2 and rest[0].lower() in _DRAWS:
        kind, field = _DRAWS[rest[0].lower()]
        return from_json({"type": kind, field: rest[1]})
    raise ValueError(
        f"{shown(text)} is not Vikings notation (e.g. 'buy 7', 'ship 3', 'tile N3', 'start W1', "
        "'viking N3', 'head', 'ferry G', 'ferry each', 'done')"
    )
