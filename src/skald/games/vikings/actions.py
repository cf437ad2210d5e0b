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
    NUM_TILE_TYPES,
    ROW_LETTERS,
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
NUM_ACTIONS = DRAW_VIKING + 6


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
    return {"type": "draw_viking", "colour": LETTERS[action - DRAW_VIKING]}


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
            if colour == "EACH":
                return FERRY_EACH
            if len(colour) != 1 or colour not in LETTERS[:5]:
                raise ValueError("colour: must be one of F, G, S, N, W or 'each'")
            return FERRY + LETTERS.index(colour)
        if kind == "done":
            return DONE
        if kind == "draw_tile":
            return DRAW_TILE + tile_from_code(_field(data, "tile", str))
        if kind == "draw_viking":
            colour = _field(data, "colour", str).upper()
            if len(colour) != 1 or colour not in LETTERS:
                raise ValueError(f"colour: must be one of {', '.join(LETTERS)}")
            return DRAW_VIKING + LETTERS.index(colour)
    except ValueError as error:
        if str(error).startswith(("price", "column", "square", "colour", "tile")):
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
        return f"ferry {data['colour']}"
    if kind == "draw_tile":
        return f"draw tile {data['tile']}"
    if kind == "draw_viking":
        return f"draw viking {data['colour']}"
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
        "done": {"type": "done"},
    }
    if head == "draw" and len(rest) == 2 and rest[0].lower() in ("tile", "viking"):
        if rest[0].lower() == "tile":
            return from_json({"type": "draw_tile", "tile": rest[1]})
        return from_json({"type": "draw_viking", "colour": rest[1]})
    if head not in forms or len(rest) != (0 if head in ("head", "done") else 1):
        raise ValueError(
            f"{text!r} is not Vikings notation (e.g. 'buy 7', 'ship 3', 'tile N3', 'start W1', "
            "'viking N3', 'head', 'ferry G', 'ferry each', 'done')"
        )
    return from_json(forms[head])
