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

from typing import Any

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

BUY = 0
SHIP = BUY + GROUPS_PER_ROUND
ISLAND = SHIP + NUM_SHIPS
START = ISLAND + len(ISLAND_ROWS) * MAX_COLUMNS
VIKING = START + len(ISLAND_ROWS)
HEAD = VIKING + len(ISLAND_ROWS) * MAX_COLUMNS
FERRY = HEAD + 1
FERRY_EACH = FERRY + 5
DONE = FERRY_EACH + 1
DRAW_TILE = DONE + 1
DRAW_VIKING = DRAW_TILE + NUM_TILE_TYPES
DRAW_SPECIAL = DRAW_VIKING + 6
BID = DRAW_SPECIAL + NUM_SPECIAL_TYPES
MAX_BID = 99
PASS = BID + MAX_BID + 1
REMOVE = PASS + 1
PLACE_COLOUR = REMOVE + 6
TAKE_SPECIAL = PLACE_COLOUR + 6
DECLINE = TAKE_SPECIAL + 4
REPLACE = DECLINE + 1
BOAT_FERRY = REPLACE + len(ISLAND_ROWS) * MAX_COLUMNS
BOAT_FERRY_EACH = BOAT_FERRY + 5
NUM_ACTIONS = BOAT_FERRY_EACH + 1


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
    if len(text) < 2 or not text[1:].isdigit():
        raise ValueError(f"{text!r} is not a square (a row letter W, N, S, G or F and a column, e.g. N3)")
    letter, col = text[0], int(text[1:])
    rows = {ROW_LETTERS[r]: r for r in ISLAND_ROWS}
    if letter not in rows:
        raise ValueError(f"{text!r}: row letter must be one of W, N, S, G, F")
    if not 1 <= col <= MAX_COLUMNS:
        raise ValueError(f"{text!r}: column must be 1–{MAX_COLUMNS}")
    return rows[letter], col


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
        raise ValueError(f"{name}: expected {kind.__name__}, got {value!r}")
    return value


def from_json(data: Any) -> int:
    """Parse an action's JSON form; raises `ValueError` naming the field at fault."""
    if not isinstance(data, dict):
        raise ValueError("expected an object with a 'type' field")
    kind = data.get("type")
    try:
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
            row, col = parse_square(_field(data, "square", str))
            return (island if kind == "island" else viking)(row, col)
        if kind == "start":
            row, col = parse_square(_field(data, "square", str))
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
            return DRAW_TILE + tile_from_code(_field(data, "tile", str))
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
            row, col = parse_square(_field(data, "square", str))
            return REPLACE + square_index(row, col)
    except ValueError as error:
        if str(error).startswith(("price", "column", "square", "colour", "tile", "boat", "special", "gold", "slot")):
            raise
        raise ValueError(f"{_first_field(data)}: {error}") from None
    raise ValueError(f"type: unknown action type {kind!r}")


def _first_field(data: dict[str, Any]) -> str:
    return next((k for k in data if k != "type"), "type")


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


def from_notation(text: str) -> int:
    """Parse full notation (as `to_notation` writes it); raises `ValueError` saying what was not understood."""
    words = text.strip().split()
    if not words:
        raise ValueError("empty notation")
    head, rest = words[0].lower(), words[1:]
    arg = rest[0] if rest else ""
    forms: dict[str, dict[str, Any]] = {
        "buy": {"type": "buy", "price": int(arg) if arg.isdigit() else arg},
        "ship": {"type": "ship", "column": int(arg) if arg.isdigit() else arg},
        "tile": {"type": "island", "square": arg},
        "start": {"type": "start", "square": arg},
        "viking": {"type": "viking", "square": arg},
        "head": {"type": "head"},
        "ferry": {"type": "ferry", "colour": arg},
        "boat": {"type": "ferry", "colour": arg, "boat": True},
        "done": {"type": "done"},
        "bid": {"type": "bid", "gold": int(arg) if arg.isdigit() else arg},
        "pass": {"type": "pass"},
        "remove": {"type": "remove", "colour": arg},
        "place": {"type": "place_colour", "colour": arg},
        "take": {"type": "take_special", "slot": int(arg) if arg.isdigit() else arg},
        "decline": {"type": "decline"},
        "replace": {"type": "replace", "square": arg},
    }
    if head == "draw" and len(rest) == 2 and rest[0].lower() in ("tile", "viking", "special"):
        what = rest[0].lower()
        if what == "tile":
            return from_json({"type": "draw_tile", "tile": rest[1]})
        if what == "special":
            return from_json({"type": "draw_special", "special": rest[1]})
        return from_json({"type": "draw_viking", "colour": rest[1]})
    if head not in forms or len(rest) != (0 if head in ("head", "done", "pass", "decline") else 1):
        raise ValueError(
            f"{text!r} is not Vikings notation (e.g. 'buy 7', 'ship 3', 'tile N3', 'start W1', "
            "'viking N3', 'head', 'ferry G', 'ferry each', 'done')"
        )
    return from_json(forms[head])
