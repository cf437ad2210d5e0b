"""Action forms for people and files: the JSON form and the short notation, both round-tripping to ids.

Notation (case-insensitive when read): `deal V3`, `youngest R`, `upper`/`lower`, `b3` (place), `2a1-b1`
(move the top 2 Vikings of a1 onto b1; without the count, the whole stack), `pass`, `take V3`, `riot Mk`,
`ally Freya`, `swap 2-4` (island positions from the top, 1..5), `no swap`, `exchange 3`, `no exchange`,
`troop b2`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skald.engine import JSONDict
from skald.engine.messages import shown
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms.board import SQUARE_NAMES, square_from_name


def _tile_index(names: Sequence[str], text: Any, field: str) -> int:
    if isinstance(text, str):
        lowered = [n.lower() for n in names]
        if text.strip().lower() in lowered:
            return lowered.index(text.strip().lower())
    raise ValueError(f"{field}: expected a tile name, one of {list(names)}, got {shown(text)}")


def _ally_index(text: Any, field: str) -> int:
    if isinstance(text, str):
        for index, (name, ascii_name) in enumerate(zip(A.ALLY_NAMES, A.ALLY_ASCII, strict=True)):
            if text.strip().lower() in (name.lower(), ascii_name.lower()):
                return index
    raise ValueError(f"{field}: expected an ally, one of {list(A.ALLY_ASCII)}, got {shown(text)}")


def _square(text: Any, field: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"{field}: expected a square name a1..d4, got {shown(text)}")
    try:
        return square_from_name(text)
    except ValueError as error:
        raise ValueError(f"{field}: {error}") from None


def _int(value: Any, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{field}: expected an integer {low}..{high}, got {shown(value)}")
    return value


def to_json(action: int, names: Sequence[str]) -> JSONDict:
    """The JSON form of `action`."""
    what = A.kind(action)
    if what == "deal":
        return {"type": what, "tile": names[action - A.DEAL]}
    if what == "youngest":
        return {"type": what, "seat": action - A.YOUNGEST}
    if what == "start":
        return {"type": what, "island": A.START_ENDS[action - A.START]}
    if what in ("place", "troop"):
        base = A.PLACE if what == "place" else A.TROOP
        return {"type": what, "square": SQUARE_NAMES[action - base]}
    if what == "move":
        source, target, count = A.move_parts(action)
        return {"type": what, "from": SQUARE_NAMES[source], "to": SQUARE_NAMES[target], "count": count}
    if what in ("take", "riot"):
        base = A.TAKE if what == "take" else A.RIOT
        return {"type": what, "tile": names[action - base]}
    if what == "ally":
        return {"type": what, "ally": A.ALLY_ASCII[action - A.ALLY]}
    if what == "swap":
        first, second = A.ISLAND_PAIRS[action - A.SWAP]
        return {"type": what, "islands": [first + 1, second + 1]}
    if what == "exchange":
        return {"type": what, "count": action - A.EXCHANGE + 1}
    return {"type": what}


def from_json(data: Any, names: Sequence[str]) -> int:
    """The id of an action's JSON form; raises `ValueError` naming the field at fault."""
    if not isinstance(data, dict):
        raise ValueError(f"action: expected an object with a 'type', got {shown(data)}")
    what = data.get("type")
    if what == "deal":
        return A.DEAL + _tile_index(names, data.get("tile"), "tile")
    if what == "youngest":
        return A.YOUNGEST + _int(data.get("seat"), "seat", 0, 1)
    if what == "start":
        island = data.get("island")
        if island not in A.START_ENDS:
            raise ValueError(f"island: expected 'upper' or 'lower', got {shown(island)}")
        return A.START + A.START_ENDS.index(island)
    if what == "place":
        return A.PLACE + _square(data.get("square"), "square")
    if what == "troop":
        return A.TROOP + _square(data.get("square"), "square")
    if what == "move":
        source = _square(data.get("from"), "from")
        target = _square(data.get("to"), "to")
        return A.move_id(source, target, _int(data.get("count"), "count", 1, A.MAX_MOVE))
    if what == "take":
        return A.TAKE + _tile_index(names, data.get("tile"), "tile")
    if what == "riot":
        return A.RIOT + _tile_index(names, data.get("tile"), "tile")
    if what == "ally":
        return A.ALLY + _ally_index(data.get("ally"), "ally")
    if what == "swap":
        islands = data.get("islands")
        if not isinstance(islands, list) or len(islands) != 2:
            raise ValueError(f"islands: expected two island positions 1..5, got {shown(islands)}")
        pair = tuple(sorted(_int(i, "islands", 1, A.NUM_ISLANDS) - 1 for i in islands))
        if pair not in A.ISLAND_PAIRS:
            raise ValueError(f"islands: expected two different island positions, got {shown(islands)}")
        return A.SWAP + A.ISLAND_PAIRS.index(pair)
    if what == "exchange":
        return A.EXCHANGE + _int(data.get("count"), "count", 1, 12) - 1
    simple = {"pass": A.PASS, "no_swap": A.NO_SWAP, "no_exchange": A.NO_EXCHANGE}
    if isinstance(what, str) and what in simple:
        return simple[what]
    raise ValueError(f"type: not a Vikingdoms action type: {shown(what)}")


def to_notation(action: int, names: Sequence[str]) -> str:
    """The short notation of `action`."""
    what = A.kind(action)
    if what == "deal":
        return f"deal {names[action - A.DEAL]}"
    if what == "youngest":
        return f"youngest {A.SEAT_LETTERS[action - A.YOUNGEST]}"
    if what == "start":
        return A.START_ENDS[action - A.START]
    if what == "place":
        return SQUARE_NAMES[action - A.PLACE]
    if what == "move":
        source, target, count = A.move_parts(action)
        return f"{count}{SQUARE_NAMES[source]}-{SQUARE_NAMES[target]}"
    if what == "take":
        return f"take {names[action - A.TAKE]}"
    if what == "riot":
        return f"riot {names[action - A.RIOT]}"
    if what == "ally":
        return f"ally {A.ALLY_ASCII[action - A.ALLY]}"
    if what == "swap":
        first, second = A.ISLAND_PAIRS[action - A.SWAP]
        return f"swap {first + 1}-{second + 1}"
    if what == "exchange":
        return f"exchange {action - A.EXCHANGE + 1}"
    if what == "troop":
        return f"troop {SQUARE_NAMES[action - A.TROOP]}"
    return what.replace("_", " ")


def from_notation(text: str, names: Sequence[str], heights: Sequence[int]) -> int:
    """The id written as `text`; `heights` (by square) completes a move written without a count."""
    words = text.strip().split()
    if not words:
        raise ValueError("empty notation")
    head = words[0].lower()
    rest = " ".join(words[1:])
    if len(words) == 1:
        if head in A.START_ENDS:
            return A.START + A.START_ENDS.index(head)
        if head == "pass":
            return A.PASS
        if head in SQUARE_NAMES:
            return A.PLACE + SQUARE_NAMES.index(head)
        if "-" in head:
            return _move_from_notation(head, heights)
    if len(words) == 2:
        if head == "deal":
            return A.DEAL + _tile_index(names, rest, "tile")
        if head == "youngest":
            letters = [s.lower() for s in A.SEAT_LETTERS]
            if rest.lower() not in letters:
                raise ValueError(f"youngest: expected a seat letter R or B, got {shown(rest)}")
            return A.YOUNGEST + letters.index(rest.lower())
        if head == "take":
            return A.TAKE + _tile_index(names, rest, "tile")
        if head == "riot":
            return A.RIOT + _tile_index(names, rest, "tile")
        if head == "ally":
            return A.ALLY + _ally_index(rest, "ally")
        if head == "troop":
            return A.TROOP + _square(rest, "square")
        if head == "no" and rest.lower() in ("swap", "exchange"):
            return A.NO_SWAP if rest.lower() == "swap" else A.NO_EXCHANGE
        if head == "exchange" and rest.isdecimal():
            return A.EXCHANGE + _int(int(rest), "exchange", 1, 12) - 1
        if head == "swap":
            parts = rest.split("-")
            if len(parts) == 2 and all(p.isdecimal() for p in parts):
                pair = tuple(sorted(int(p) - 1 for p in parts))
                if pair in A.ISLAND_PAIRS:
                    return A.SWAP + A.ISLAND_PAIRS.index(pair)
            raise ValueError(f"swap: expected two different island positions like 2-4, got {shown(rest)}")
    raise ValueError(
        f"{shown(text)} is not Vikingdoms notation (e.g. b3, 2a1-b1, pass, take V3, riot Mk, ally Freya, "
        "swap 2-4, no swap, exchange 3, no exchange, upper, lower)"
    )


def _move_from_notation(text: str, heights: Sequence[int]) -> int:
    count_text = ""
    while text and text[0].isdecimal():
        count_text, text = count_text + text[0], text[1:]
    source_text, _, target_text = text.partition("-")
    source = _square(source_text, "from")
    target = _square(target_text, "to")
    count = int(count_text) if count_text else heights[source]
    if not 1 <= count <= A.MAX_MOVE:
        raise ValueError(f"count: a move carries 1..{A.MAX_MOVE} Vikings, got {count}")
    return A.move_id(source, target, count)
