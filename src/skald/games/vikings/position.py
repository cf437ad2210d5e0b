"""Positions as JSON: the full state a program saves, and the short form a person writes to settle a question.

The format is documented in docs/vikings-positions.md. Only `mainlands` is required; everything else has a
default, so a hand-written file can hold just the Mainlands to score.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from skald.engine import OptionError
from skald.games.vikings import actions as A
from skald.games.vikings.components import (
    BAG_COUNTS,
    EAST,
    EMPTY,
    FACE_UP_SPECIALS,
    GROUPS_PER_ROUND,
    ISLAND_ROWS,
    LETTERS,
    MAINLAND_EDGE,
    MAX_COLUMNS,
    NUM_COLOURS,
    NUM_SPECIAL_TYPES,
    NUM_TILE_TYPES,
    ROUNDS,
    ROW_LETTERS,
    ROW_OF_COLOUR,
    SPECIAL_CODES,
    STACK_COUNTS,
    STARTING_FAME,
    STARTING_GOLD,
    VIKINGS,
    WEST,
    is_ship,
    tile_code,
    tile_from_code,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.scoring import ScoreLine, ScoreReport

STEP_KEYS = (
    "draw_tiles", "draw_vikings", "buy", "place_tile", "place_viking", "ferry", "land", "game_over",
    "draw_specials", "auction", "remove_viking", "place_colours", "take_special", "replace_building",
)  # fmt: skip


class PositionError(ValueError):
    """A position that cannot be read; the message starts with the field at fault."""


# -- writing ----------------------------------------------------------------------------------------------------


def _row_text(land: Mainland, row: int) -> str:
    last = land.rightmost()
    tokens = []
    for col in range(1, last + 1):
        tile = land.tile(row, col)
        if tile == EMPTY:
            tokens.append(".")
            continue
        viking = land.viking(row, col)
        tokens.append(tile_code(tile) + (f":{LETTERS[viking]}" if viking != EMPTY else ""))
    return " ".join(tokens)


def _counts(counts: list[int], names: str | list[str]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts)}


def _square(index: int) -> str:
    return A.square_name(index // MAX_COLUMNS, index % MAX_COLUMNS + 1)


def mainland_to_dict(land: Mainland) -> dict[str, Any]:
    """A Mainland as JSON: Fame, Gold, the Head Boatswain's Vikings, each row as text, and any special tiles."""
    data: dict[str, Any] = {
        "fame": land.fame,
        "gold": land.gold,
        "start_tile": "placed" if land.start_placed else "in hand",
        "head": _counts(land.head, LETTERS),
        "rows": {ROW_LETTERS[row]: _row_text(land, row) for row in range(6)},
    }
    if any(land.specials) or land.waiting or land.buildings:
        data["specials"] = {SPECIAL_CODES[t]: n for t, n in enumerate(land.specials) if n}
        data["waiting"] = [SPECIAL_CODES[t] for t in land.waiting]
        data["buildings"] = [_square(index) for index in land.buildings]
    return data


def state_to_dict(state: Any) -> dict[str, Any]:
    """The whole position as JSON-ready data. The stacks and bag appear only as counts, which anyone can tally."""
    tile_names = [tile_code(t) for t in range(NUM_TILE_TYPES)]
    groups = [
        {
            "space": space,
            "price": space - state.offset,
            "tile": tile_code(state.wheel_tiles[space]),
            "viking": LETTERS[state.wheel_vikings[space]] if state.wheel_vikings[space] != EMPTY else None,
        }
        for space in range(GROUPS_PER_ROUND)
        if state.wheel_tiles[space] != EMPTY
    ]
    placed = None
    if state.placed_at >= 0:
        placed = A.square_name(state.placed_at // MAX_COLUMNS, state.placed_at % MAX_COLUMNS + 1)
    return {
        "game": "vikings",
        "players": state.num_players,
        "options": dict(state.options),
        "round": state.round,
        "step": STEP_KEYS[state.step],
        "to_move": state.to_move,
        "start_player": state.start_player,
        "wheel": {"offset": state.offset, "groups": groups},
        "drawn": _counts(state.drawn, LETTERS),
        "stacks": {name: n for name, n in zip(tile_names, state.pool, strict=True) if n},
        "bag": _counts(state.bag, LETTERS),
        "mainlands": [mainland_to_dict(land) for land in state.lands],
        "turn": {
            "purchases": state.purchases,
            "tile": tile_code(state.pending_tile) if state.pending_tile != EMPTY else None,
            "viking": LETTERS[state.pending_viking] if state.pending_viking != EMPTY else None,
            "placed": placed,
        },
        "ferry": {
            "scoring_index": state.scoring_index,
            "load": _counts(state.ferry_load, LETTERS),
            "landed": state.ferry_landed,
        },
        "discarded": [tile_code(t) for t in state.discarded],
        "boatswains_spent": list(state.boatswains_spent),
        "scorings": [report.to_json() for report in state.reports],
        "specials": {
            "stacks": {SPECIAL_CODES[t]: n for t, n in enumerate(state.specials_pool) if n},
            "face_up": [SPECIAL_CODES[t] if t != EMPTY else None for t in state.face_up],
            "spent": state.specials_spent,
            "choosing": SPECIAL_CODES[state.pending_special] if state.pending_special != EMPTY else None,
        },
        "auction": {
            "high_bid": state.high_bid,
            "high_bidder": state.high_bidder,
            "bidding": list(state.bidding),
            "removed_vikings": state.removed_vikings,
        },
    }


# -- reading ----------------------------------------------------------------------------------------------------


def _int(data: dict[str, Any], key: str, where: str, default: int, low: int = 0, high: int = 10**6) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{where}{key}: expected an integer {low}–{high}, got {value!r}")
    return value


def _colour_counts(raw: Any, where: str, default: list[int]) -> list[int]:
    if raw is None:
        return list(default)
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object of colour letters ({', '.join(LETTERS)}) to counts")
    counts = [0] * NUM_COLOURS
    for letter, n in raw.items():
        if letter.upper() not in LETTERS or len(letter) != 1:
            raise PositionError(f"{where}.{letter}: not a Viking letter ({', '.join(LETTERS)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise PositionError(f"{where}.{letter}: expected a count ≥ 0")
        counts[LETTERS.index(letter.upper())] = n
    return counts


def _tokens(raw: Any, where: str) -> list[str]:
    if isinstance(raw, str):
        return raw.split()
    if isinstance(raw, list) and all(isinstance(t, str) or t is None for t in raw):
        return [t or "." for t in raw]
    raise PositionError(f"{where}: expected a row as text ('L:N M1 R . L') or a list of squares")


def _read_row(land: Mainland, row: int, raw: Any, where: str) -> None:
    for col, token in enumerate(_tokens(raw, where), start=1):
        at = f"{where}[{col}]"
        if col > MAX_COLUMNS:
            raise PositionError(f"{at}: a Mainland has at most {MAX_COLUMNS} columns")
        if token == ".":
            continue
        code, _, letter = token.partition(":")
        try:
            tile = tile_from_code(code)
        except ValueError as error:
            raise PositionError(f"{at}: {error}") from None
        if row == 0:
            if not is_ship(tile) or letter:
                raise PositionError(f"{at}: the Ship row holds only ship tiles, without Vikings")
            land.tiles[col - 1] = tile
            land.ships += 1
            continue
        if is_ship(tile):
            raise PositionError(f"{at}: a ship tile belongs in the Ship row")
        land.place_island(tile, row, col)
        if letter:
            if letter.upper() not in LETTERS or ROW_OF_COLOUR[LETTERS.index(letter.upper())] != row:
                raise PositionError(
                    f"{at}: only a {VIKINGS[LETTERS.index(ROW_LETTERS[row])].role} ({ROW_LETTERS[row]}) may stand "
                    f"in the {VIKINGS[LETTERS.index(ROW_LETTERS[row])].role} row"
                )
            land.vikings[row * MAX_COLUMNS + col - 1] = LETTERS.index(letter.upper())


def _check_layout(land: Mainland, where: str) -> None:
    """Islands must be placeable as the rules allow: edges matching, each tile connected to the Mainland."""
    ships = land.ship_columns()
    if ships and (ships != list(range(1, len(ships) + 1)) and not (len(ships) < 3 and max(ships) <= 3)):
        raise PositionError(f"{where}.rows.ship: ships fill columns 1–3 first, then 4, 5, … without gaps")
    seen: set[tuple[int, int]] = set()
    queue: deque[tuple[int, int]] = deque()
    for row in ISLAND_ROWS:
        for col in range(1, land.width + 1):
            tile = land.tile(row, col)
            if tile == EMPTY:
                continue
            west = land.tile(row, col - 1) if col > 1 else EMPTY
            if (col == 1 and WEST[tile] != MAINLAND_EDGE) or (west != EMPTY and EAST[west] != WEST[tile]):
                raise PositionError(
                    f"{where}.rows.{ROW_LETTERS[row]}[{col}]: its west edge does not match (land meets land, "
                    "sea meets sea; the Mainland's edge is sea)"
                )
            if col == 1:
                seen.add((row, col))
                queue.append((row, col))
    while queue:
        row, col = queue.popleft()
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if r in ISLAND_ROWS and c >= 1 and (r, c) not in seen and land.tile(r, c) != EMPTY:
                seen.add((r, c))
                queue.append((r, c))
    for row in ISLAND_ROWS:
        for col in range(1, land.width + 1):
            if land.tile(row, col) != EMPTY and (row, col) not in seen:
                raise PositionError(
                    f"{where}.rows.{ROW_LETTERS[row]}[{col}]: not connected to the Mainland through island tiles"
                )


POSITION_KEYS = {
    "game", "players", "options", "round", "step", "to_move", "start_player", "wheel", "drawn", "stacks", "bag",
    "mainlands", "turn", "ferry", "discarded", "boatswains_spent", "scorings", "seat", "comment", "specials",
    "auction",
}  # fmt: skip
MAINLAND_KEYS = {"name", "comment", "fame", "gold", "start_tile", "head", "rows", "specials", "waiting", "buildings"}


def _special(code: Any, where: str) -> int:
    if not isinstance(code, str) or code.lower() not in SPECIAL_CODES:
        raise PositionError(f"{where}: not a special tile ({', '.join(SPECIAL_CODES)})")
    return SPECIAL_CODES.index(code.lower())


def _read_specials(land: Mainland, raw: dict[str, Any], where: str) -> None:
    counts = raw.get("specials", {})
    if not isinstance(counts, dict):
        raise PositionError(f"{where}.specials: expected an object of special tiles to counts")
    for code, n in counts.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise PositionError(f"{where}.specials.{code}: expected a count ≥ 0")
        land.specials[_special(code, f"{where}.specials.{code}")] = n
    waiting = raw.get("waiting", [])
    if not isinstance(waiting, list):
        raise PositionError(f"{where}.waiting: expected a list of Building tiles")
    land.waiting = [_special(code, f"{where}.waiting[{i}]") for i, code in enumerate(waiting)]
    buildings = raw.get("buildings", [])
    if not isinstance(buildings, list):
        raise PositionError(f"{where}.buildings: expected a list of squares")
    for i, name in enumerate(buildings):
        try:
            row, col = A.parse_square(str(name))
        except ValueError as error:
            raise PositionError(f"{where}.buildings[{i}]: {error}") from None
        if land.tile(row, col) not in (1, 2, 3, 4):
            raise PositionError(f"{where}.buildings[{i}]: a Building tile stands where a middle piece would")
        land.buildings.append(row * MAX_COLUMNS + col - 1)


def _known_keys(data: dict[str, Any], known: set[str], where: str) -> None:
    """A misspelt field is an error, not a silently empty Mainland."""
    for key in data:
        if key not in known:
            raise PositionError(f"{where}{key}: unknown field (known: {', '.join(sorted(known))})")


def mainland_from_dict(raw: Any, where: str, players: int) -> Mainland:
    """Read one Mainland; `where` prefixes error messages."""
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object")
    _known_keys(raw, MAINLAND_KEYS, f"{where}.")
    land = Mainland(
        _int(raw, "gold", f"{where}.", STARTING_GOLD[players]), _int(raw, "fame", f"{where}.", STARTING_FAME, -(10**6))
    )
    land.head = _colour_counts(raw.get("head"), f"{where}.head", [0] * NUM_COLOURS)
    rows = raw.get("rows", {})
    if not isinstance(rows, dict):
        raise PositionError(f"{where}.rows: expected an object with rows ship, W, N, S, G, F")
    for key, value in rows.items():
        names = [name.lower() for name in ROW_LETTERS]
        if key.lower() not in names:
            raise PositionError(f"{where}.rows.{key}: not a row (ship, W, N, S, G, F)")
        _read_row(land, names.index(key.lower()), value, f"{where}.rows.{key}")
    _check_layout(land, where)
    _read_specials(land, raw, where)
    start = raw.get("start_tile", "placed" if land.width else "in hand")
    if start not in ("placed", "in hand"):
        raise PositionError(f"{where}.start_tile: 'placed' or 'in hand'")
    land.start_placed = start == "placed"
    return land


def state_from_dict(data: Any, state_class: Any, game: Any) -> Any:
    """Build a state from a position's JSON; raises `PositionError` naming the field at fault."""
    if not isinstance(data, dict):
        raise PositionError("position: expected a JSON object")
    if data.get("game", "vikings") != "vikings":
        raise PositionError(f"game: this is a Vikings position reader, not {data.get('game')!r}")
    _known_keys(data, POSITION_KEYS, "")
    raw_lands = data.get("mainlands")
    if not isinstance(raw_lands, list) or not 2 <= len(raw_lands) <= 4:
        raise PositionError("mainlands: expected a list of 2–4 Mainlands")
    players = _int(data, "players", "", len(raw_lands), 2, 4)
    if players != len(raw_lands):
        raise PositionError(f"players: {players} players but {len(raw_lands)} Mainlands")
    try:
        options = game.resolve_options(data.get("options"))
    except OptionError as error:
        raise PositionError(str(error)) from None
    state = state_class(game, players, options)
    state.lands = [mainland_from_dict(raw, f"mainlands[{i}]", players) for i, raw in enumerate(raw_lands)]
    state.round = _int(data, "round", "", 1, 1, ROUNDS)
    state.start = _int(data, "start_player", "", (state.round - 1) % players, 0, players - 1)

    wheel = data.get("wheel", {})
    if not isinstance(wheel, dict):
        raise PositionError("wheel: expected an object with 'offset' and 'groups'")
    state.offset = _int(wheel, "offset", "wheel.", 0, 0, GROUPS_PER_ROUND)
    groups = wheel.get("groups", [])
    if not isinstance(groups, list):
        raise PositionError("wheel.groups: expected a list")
    for index, group in enumerate(groups):
        where = f"wheel.groups[{index}]"
        if not isinstance(group, dict):
            raise PositionError(f"{where}: expected an object with space, tile and viking")
        space = _int(group, "space", f"{where}.", 0, 0, GROUPS_PER_ROUND - 1)
        try:
            state.wheel_tiles[space] = tile_from_code(str(group.get("tile")))
        except ValueError as error:
            raise PositionError(f"{where}.tile: {error}") from None
        letter = group.get("viking")
        if letter is not None:
            if not isinstance(letter, str) or letter.upper() not in LETTERS or len(letter) != 1:
                raise PositionError(f"{where}.viking: not a Viking letter ({', '.join(LETTERS)})")
            state.wheel_vikings[space] = LETTERS.index(letter.upper())

    # A hand-written position without a wheel stands before its round's offer; "game_over" must be said outright.
    step = data.get("step", "buy" if groups else "draw_tiles")
    if step not in STEP_KEYS:
        raise PositionError(f"step: expected one of {', '.join(STEP_KEYS)}")
    state.step = STEP_KEYS.index(step)
    state.to_move = _int(data, "to_move", "", state.start_player, 0, players - 1)
    state.drawn = _colour_counts(data.get("drawn"), "drawn", [0] * NUM_COLOURS)
    state.bag = _colour_counts(data.get("bag"), "bag", _unused(BAG_COUNTS, [0] * NUM_COLOURS))
    stacks = data.get("stacks")
    if stacks is None:
        state.pool = list(STACK_COUNTS)
    else:
        if not isinstance(stacks, dict):
            raise PositionError("stacks: expected an object of tile codes to counts")
        state.pool = [0] * NUM_TILE_TYPES
        for code, n in stacks.items():
            try:
                state.pool[tile_from_code(code)] = n
            except ValueError as error:
                raise PositionError(f"stacks.{code}: {error}") from None

    turn = data.get("turn", {})
    if not isinstance(turn, dict):
        raise PositionError("turn: expected an object")
    state.purchases = _int(turn, "purchases", "turn.", 0, 0, GROUPS_PER_ROUND - 1)
    try:
        state.pending_tile = tile_from_code(turn["tile"]) if turn.get("tile") else EMPTY
    except ValueError as error:
        raise PositionError(f"turn.tile: {error}") from None
    viking = turn.get("viking")
    state.pending_viking = LETTERS.index(viking.upper()) if isinstance(viking, str) and viking else EMPTY
    placed = turn.get("placed")
    if placed:
        try:
            row, col = A.parse_square(placed)
        except ValueError as error:
            raise PositionError(f"turn.placed: {error}") from None
        state.placed_at = row * MAX_COLUMNS + col - 1

    ferry = data.get("ferry", {})
    if not isinstance(ferry, dict):
        raise PositionError("ferry: expected an object")
    state.scoring_index = _int(ferry, "scoring_index", "ferry.", 0, 0, players)
    state.ferry_load = _colour_counts(ferry.get("load"), "ferry.load", [0] * NUM_COLOURS)
    state.ferry_landed = _int(ferry, "landed", "ferry.", 0)
    try:
        state.discarded = [tile_from_code(code) for code in data.get("discarded", [])]
    except (ValueError, TypeError) as error:
        raise PositionError(f"discarded: {error}") from None
    spent = data.get("boatswains_spent", [0] * players)
    if not isinstance(spent, list) or len(spent) != players or not all(isinstance(n, int) for n in spent):
        raise PositionError(f"boatswains_spent: expected {players} counts")
    state.boatswains_spent = list(spent)
    state.reports = [_report(raw, f"scorings[{i}]") for i, raw in enumerate(data.get("scorings", []))]
    _read_table_specials(state, data.get("specials"), data.get("auction"))
    return state


def _read_table_specials(state: Any, specials: Any, auction: Any) -> None:
    """The advanced game's face-down and face-up special tiles and the auction, if the position has them."""
    if specials is not None:
        if not isinstance(specials, dict):
            raise PositionError("specials: expected an object with stacks, face_up, spent")
        stacks = specials.get("stacks", {})
        if not isinstance(stacks, dict):
            raise PositionError("specials.stacks: expected an object of special tiles to counts")
        state.specials_pool = [0] * NUM_SPECIAL_TYPES
        for code, n in stacks.items():
            state.specials_pool[_special(code, f"specials.stacks.{code}")] = n
        face_up = specials.get("face_up", [None] * FACE_UP_SPECIALS)
        if not isinstance(face_up, list) or len(face_up) != FACE_UP_SPECIALS:
            raise PositionError(f"specials.face_up: expected {FACE_UP_SPECIALS} spaces (null when empty)")
        state.face_up = [
            EMPTY if code is None else _special(code, f"specials.face_up[{i}]") for i, code in enumerate(face_up)
        ]
        state.specials_spent = _int(specials, "spent", "specials.", 0)
        choosing = specials.get("choosing")
        state.pending_special = EMPTY if choosing is None else _special(choosing, "specials.choosing")
    if auction is not None:
        if not isinstance(auction, dict):
            raise PositionError("auction: expected an object")
        state.high_bid = _int(auction, "high_bid", "auction.", -1, -1, A.MAX_BID)
        state.high_bidder = _int(auction, "high_bidder", "auction.", -1, -1, state.num_players - 1)
        bidding = auction.get("bidding", [False] * state.num_players)
        if not isinstance(bidding, list) or len(bidding) != state.num_players:
            raise PositionError(f"auction.bidding: expected {state.num_players} true/false values")
        state.bidding = [bool(b) for b in bidding]
        state.removed_vikings = _int(auction, "removed_vikings", "auction.", 0)


def _unused(full: tuple[int, ...], used: list[int]) -> list[int]:
    return [max(0, n - u) for n, u in zip(full, used, strict=True)]


def _report(raw: Any, where: str) -> ScoreReport:
    try:
        lines = tuple(ScoreLine(**line) for line in raw["lines"])
        return ScoreReport(int(raw["round"]), str(raw["when"]), lines)
    except (KeyError, TypeError) as error:
        raise PositionError(f"{where}: malformed scoring ({error})") from None
