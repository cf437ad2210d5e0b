"""Positions as JSON: the full state a program saves, and the short form a person writes to settle a question.

The format is documented in docs/vikings-positions.md. Only `mainlands` is required; everything else has a
default, so a hand-written file can hold just the Mainlands to score.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from skald.engine import CHANCE, OptionError, PositionError
from skald.engine.messages import shown, shown_key
from skald.games.vikings import actions as A
from skald.games.vikings.components import (
    BAG_COUNTS,
    BUILDING_FIRST,
    COLOUR_OF_ROW,
    EAST,
    EMPTY,
    FACE_UP_SPECIALS,
    GOLD5,
    GROUPS_PER_ROUND,
    ISLAND_ROWS,
    LARGE_SCORING_ROUNDS,
    LETTERS,
    MAINLAND_EDGE,
    MAX_COLUMNS,
    MIDDLES,
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
    building_of,
    is_ship,
    tile_code,
    tile_from_code,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.scoring import ScoreLine, ScoreReport
from skald.games.vikings.steps import (
    AUCTION,
    BUY,
    DRAW_SPECIALS,
    DRAW_TILES,
    DRAW_VIKINGS,
    FERRY,
    GAME_OVER,
    LAND,
    PLACE_COLOURS,
    PLACE_TILE,
    PLACE_VIKING,
    REMOVE_VIKING,
    REPLACE_BUILDING,
    TAKE_SPECIAL,
)

STEP_KEYS = (
    "draw_tiles", "draw_vikings", "buy", "place_tile", "place_viking", "ferry", "land", "game_over",
    "draw_specials", "auction", "remove_viking", "place_colours", "take_special", "replace_building",
)  # fmt: skip


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


# -- reading: one field at a time, each error naming its field ---------------------------------------------------

POSITION_KEYS = {
    "game", "players", "options", "round", "step", "to_move", "start_player", "wheel", "drawn", "stacks", "bag",
    "mainlands", "turn", "ferry", "discarded", "boatswains_spent", "scorings", "seat", "comment", "specials",
    "auction",
}  # fmt: skip
MAINLAND_KEYS = {"name", "comment", "fame", "gold", "start_tile", "head", "rows", "specials", "waiting", "buildings"}
WHEEL_KEYS = {"offset", "groups"}
GROUP_KEYS = {"space", "price", "tile", "viking"}
TURN_KEYS = {"purchases", "tile", "viking", "placed"}
FERRY_KEYS = {"scoring_index", "load", "landed"}
TABLE_SPECIALS_KEYS = {"stacks", "face_up", "spent", "choosing"}
AUCTION_KEYS = {"high_bid", "high_bidder", "bidding", "removed_vikings"}
SCORING_KEYS = {"round", "when", "lines"}
LINE_KEYS = {"seat", "kind", "text", "fame", "gold", "square"}

#: Steps of the offer (the wheel is laid out from 0), of the purchases, and of the large scoring.
OFFER_STEPS = frozenset((DRAW_TILES, DRAW_VIKINGS, AUCTION, REMOVE_VIKING, PLACE_COLOURS))
PURCHASE_STEPS = frozenset((BUY, PLACE_TILE, PLACE_VIKING, TAKE_SPECIAL, REPLACE_BUILDING))
PLACING_STEPS = PURCHASE_STEPS - {BUY}
SCORING_STEPS = frozenset((FERRY, LAND))
ADVANCED_STEPS = frozenset((DRAW_SPECIALS, TAKE_SPECIAL, REPLACE_BUILDING, AUCTION, REMOVE_VIKING, PLACE_COLOURS))
AUCTION_STEPS = frozenset((AUCTION, REMOVE_VIKING, PLACE_COLOURS))

#: Special tiles a player keeps beside her Mainland (5 Gold is cashed at once; Buildings wait or are placed).
KEPT_SPECIALS = range(GOLD5 + 1, BUILDING_FIRST)


def _object(raw: Any, where: str, known: set[str], what: str) -> dict[str, Any]:
    """`raw` as an object whose keys are all `known`; a misspelt key is an error, never silently ignored."""
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object with {what}")
    _known_keys(raw, known, f"{where}.")
    return raw


def _known_keys(data: dict[str, Any], known: set[str], where: str) -> None:
    """A misspelt field is an error, not a silently empty Mainland."""
    for key in data:
        if key not in known:
            raise PositionError(f"{where}{shown_key(key)}: unknown field (known: {', '.join(sorted(known))})")


def _int(data: dict[str, Any], key: str, where: str, default: int | None, low: int = 0, high: int = 10**6) -> int:
    """`data[key]` (or `default` when absent), an integer from `low` to `high`; true and false are not numbers."""
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PositionError(f"{where}{key}: expected an integer {low}–{high}, got {shown(value)}")
    return value


def _count(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise PositionError(f"{where}: expected a count ≥ 0, got {shown(value)}")
    if value > 10**6:
        raise PositionError(f"{where}: expected a count up to 1000000, got {shown(value)}")
    return value


def _letter(raw: Any, where: str) -> int:
    """A Viking colour from its letter (F, G, S, N, W, B), in either case."""
    if not isinstance(raw, str) or len(raw) != 1 or raw.upper() not in LETTERS:
        raise PositionError(f"{where}: not a Viking letter ({', '.join(LETTERS)})")
    return LETTERS.index(raw.upper())


def _parse_tile(raw: Any, where: str) -> int:
    if not isinstance(raw, str):
        raise PositionError(f"{where}: expected a tile code (L, M1–M4, R, or a ship id such as red1), got {shown(raw)}")
    try:
        return tile_from_code(raw)
    except ValueError as error:
        raise PositionError(f"{where}: {error}") from None


def _parse_square(raw: Any, where: str) -> tuple[int, int]:
    if not isinstance(raw, str):
        raise PositionError(f"{where}: expected a square such as N3, got {shown(raw)}")
    try:
        return A.parse_square(raw)
    except ValueError as error:
        raise PositionError(f"{where}: {error}") from None


def _special(code: Any, where: str) -> int:
    if not isinstance(code, str) or code.lower() not in SPECIAL_CODES:
        raise PositionError(f"{where}: not a special tile ({', '.join(SPECIAL_CODES)})")
    return SPECIAL_CODES.index(code.lower())


def _list(raw: Any, where: str, what: str) -> list[Any]:
    if not isinstance(raw, list):
        raise PositionError(f"{where}: expected a list of {what}")
    return raw


def _colour_counts(raw: Any, where: str, default: list[int]) -> list[int]:
    if raw is None:
        return list(default)
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object of colour letters ({', '.join(LETTERS)}) to counts")
    counts = [0] * NUM_COLOURS
    seen: set[int] = set()
    for letter, n in raw.items():
        at = f"{where}.{shown_key(letter)}"
        colour = _letter(letter, at)
        if colour in seen:
            raise PositionError(f"{at}: the letter {LETTERS[colour]} is given twice")
        seen.add(colour)
        counts[colour] = _count(n, at)
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
        code, colon, letter = token.partition(":")
        tile = _parse_tile(code, at)
        if row == 0:
            if not is_ship(tile) or colon:
                raise PositionError(f"{at}: the Ship row holds only ship tiles, without Vikings")
            land.place_ship(tile, col)
            continue
        if is_ship(tile):
            raise PositionError(f"{at}: a ship tile belongs in the Ship row")
        land.place_island(tile, row, col)
        if colon:
            role = VIKINGS[COLOUR_OF_ROW[row]].role
            if letter.upper() != ROW_LETTERS[row]:
                raise PositionError(f"{at}: only a {role} ({ROW_LETTERS[row]}) may stand in the {role} row")
            land.put_viking(COLOUR_OF_ROW[row], row, col)


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


def _read_specials(land: Mainland, raw: dict[str, Any], where: str) -> None:
    counts = raw.get("specials", {})
    if not isinstance(counts, dict):
        raise PositionError(f"{where}.specials: expected an object of special tiles to counts")
    for code, n in counts.items():
        at = f"{where}.specials.{shown_key(code)}"
        special = _special(code, at)
        if special not in KEPT_SPECIALS:
            raise PositionError(
                f"{at}: not kept beside a Mainland (5 Gold is cashed at once; a Building tile is "
                "listed under waiting or buildings)"
            )
        land.specials[special] = _count(n, at)
    for i, code in enumerate(_list(raw.get("waiting", []), f"{where}.waiting", "Building tiles")):
        special = _special(code, f"{where}.waiting[{i}]")
        if special < BUILDING_FIRST:
            raise PositionError(f"{where}.waiting[{i}]: only a Building tile waits for a matching island tile")
        land.waiting.append(special)
    for i, name in enumerate(_list(raw.get("buildings", []), f"{where}.buildings", "squares")):
        row, col = _parse_square(name, f"{where}.buildings[{i}]")
        index = row * MAX_COLUMNS + col - 1
        if land.tile(row, col) not in MIDDLES:
            raise PositionError(f"{where}.buildings[{i}]: a Building tile stands where a middle piece would")
        if index in land.buildings:
            raise PositionError(f"{where}.buildings[{i}]: {A.square_name(row, col)} already holds a Building tile")
        land.buildings.append(index)
    land.buildings.sort()


def mainland_from_dict(raw: Any, where: str, players: int) -> Mainland:
    """Read one Mainland; `where` prefixes error messages."""
    raw = _object(raw, where, MAINLAND_KEYS, "fame, gold, head and rows")
    land = Mainland(
        _int(raw, "gold", f"{where}.", STARTING_GOLD[players]), _int(raw, "fame", f"{where}.", STARTING_FAME, -(10**6))
    )
    land.head = _colour_counts(raw.get("head"), f"{where}.head", [0] * NUM_COLOURS)
    rows = raw.get("rows", {})
    if not isinstance(rows, dict):
        raise PositionError(f"{where}.rows: expected an object with rows ship, W, N, S, G, F")
    names = [name.lower() for name in ROW_LETTERS]
    read: set[int] = set()
    for key, value in rows.items():
        at = f"{where}.rows.{shown_key(key)}"
        if key.lower() not in names:
            raise PositionError(f"{at}: not a row (ship, W, N, S, G, F)")
        row = names.index(key.lower())
        if row in read:
            raise PositionError(f"{at}: the {ROW_LETTERS[row]} row is given twice")
        read.add(row)
        _read_row(land, row, value, at)
    _check_layout(land, where)
    _read_specials(land, raw, where)
    start = raw.get("start_tile", "placed" if land.width else "in hand")
    if start not in ("placed", "in hand"):
        raise PositionError(f"{where}.start_tile: 'placed' or 'in hand'")
    land.start_placed = start == "placed"
    return land


def state_from_dict(data: Any, state_class: Any, game: Any) -> Any:
    """Build a state from a position's JSON; raises `PositionError` naming the field at fault.

    Each field is read and checked on its own, then the fields are checked against each other: a position the
    reader accepts is one the game can go on from (see `_check_agreement`).
    """
    if not isinstance(data, dict):
        raise PositionError("position: expected a JSON object")
    if data.get("game", "vikings") != "vikings":
        raise PositionError(f"game: this is a Vikings position reader, not {shown(data.get('game'))}")
    _known_keys(data, POSITION_KEYS, "")
    raw_lands = data.get("mainlands")
    if not isinstance(raw_lands, list) or not 2 <= len(raw_lands) <= 4:
        raise PositionError("mainlands: expected a list of 2–4 Mainlands")
    players = _int(data, "players", "", len(raw_lands), 2, 4)
    if players != len(raw_lands):
        raise PositionError(f"players: {players} players but {len(raw_lands)} Mainlands")
    raw_options = data.get("options", {})
    if not isinstance(raw_options, dict):
        raise PositionError("options: expected an object of rule options")
    try:
        options = game.resolve_options(raw_options)
    except OptionError as error:
        raise PositionError(str(error)) from None
    state = state_class(game, players, options)
    state.lands = [mainland_from_dict(raw, f"mainlands[{i}]", players) for i, raw in enumerate(raw_lands)]
    state.round = _int(data, "round", "", 1, 1, ROUNDS)
    state.start = _int(data, "start_player", "", (state.round - 1) % players, 0, players - 1)
    if "seat" in data:
        _int(data, "seat", "", -1, -1, players - 1)  # an observation's viewer: checked, not part of the state
    groups = _read_wheel(state, data.get("wheel", {}))
    _read_table_specials(state, data.get("specials"), data.get("auction"))
    # A hand-written position without a wheel stands before its round's offer; "game_over" must be said outright.
    step = data.get("step")
    if step is None:
        state.step = BUY if groups else _opening_step(state)
    elif step in STEP_KEYS:
        state.step = STEP_KEYS.index(step)
    else:
        raise PositionError(f"step: expected one of {', '.join(STEP_KEYS)}, got {shown(step)}")
    state.to_move = _int(data, "to_move", "", state.start_player, 0, players - 1)
    state.drawn = _colour_counts(data.get("drawn"), "drawn", [0] * NUM_COLOURS)
    state.bag = _colour_counts(data.get("bag"), "bag", list(BAG_COUNTS))
    _read_turn(state, data.get("turn", {}), len(groups))
    _read_ferry(state, data.get("ferry", {}))
    discarded = _list(data.get("discarded", []), "discarded", "tile codes")
    state.discarded = [_parse_tile(code, f"discarded[{i}]") for i, code in enumerate(discarded)]
    spent = data.get("boatswains_spent", [0] * players)
    if not isinstance(spent, list) or len(spent) != players:
        raise PositionError(f"boatswains_spent: expected {players} counts, one per player")
    state.boatswains_spent = [_count(n, f"boatswains_spent[{i}]") for i, n in enumerate(spent)]
    scorings = _list(data.get("scorings", []), "scorings", "scorings")
    state.reports = [_report(raw, f"scorings[{i}]", players) for i, raw in enumerate(scorings)]
    state.pool = _read_stacks(data["stacks"]) if "stacks" in data else _box_less_ships_in_play(state)
    _check_agreement(state, groups, {key for key in ("stacks", "bag") if key in data})
    return state


def _opening_step(state: Any) -> int:
    """The step a round opens with: turning up special tiles (advanced game), then the offer's first draw."""
    if state.advanced and EMPTY in state.face_up and any(state.specials_pool):
        return DRAW_SPECIALS
    return DRAW_VIKINGS if state.auction else DRAW_TILES


def _read_wheel(state: Any, raw: Any) -> dict[int, str]:
    """The wheel's offset and Groups; returns each occupied space with the field that put a Group there."""
    wheel = _object(raw, "wheel", WHEEL_KEYS, "'offset' and 'groups'")
    state.offset = _int(wheel, "offset", "wheel.", 0, 0, GROUPS_PER_ROUND)
    groups: dict[int, str] = {}
    for index, group in enumerate(_list(wheel.get("groups", []), "wheel.groups", "Groups")):
        where = f"wheel.groups[{index}]"
        group = _object(group, where, GROUP_KEYS, "space, tile and viking")
        space = _int(group, "space", f"{where}.", 0, 0, GROUPS_PER_ROUND - 1)
        if space in groups:
            raise PositionError(f"{where}.space: space {space} already holds {groups[space]}")
        if "price" in group and group["price"] != space - state.offset:
            raise PositionError(
                f"{where}.price: {shown(group['price'])}, but space {space} with the wheel at offset "
                f"{state.offset} costs {space - state.offset}"
            )
        groups[space] = where
        state.wheel_tiles[space] = _parse_tile(group.get("tile"), f"{where}.tile")
        if group.get("viking") is not None:
            state.wheel_vikings[space] = _letter(group["viking"], f"{where}.viking")
    return groups


def _read_stacks(raw: Any) -> list[int]:
    if not isinstance(raw, dict):
        raise PositionError("stacks: expected an object of tile codes to counts")
    pool = [0] * NUM_TILE_TYPES
    for code, n in raw.items():
        at = f"stacks.{shown_key(code)}"
        tile = _parse_tile(code, at)
        if pool[tile]:
            raise PositionError(f"{at}: the tile {tile_code(tile)} is given twice")
        pool[tile] = _count(n, at)
    return pool


def _box_less_ships_in_play(state: Any) -> list[int]:
    """Stacks a position leaves out: every tile of the box, less the ships already in play (each ship is unique).

    A hand-written position does not tally its island tiles, so all of them stay in the stacks.
    """
    pool = list(STACK_COUNTS)
    in_play = [*state.wheel_tiles, state.pending_tile, *state.discarded]
    in_play += [land.tiles[col - 1] for land in state.lands for col in land.ship_columns()]
    for tile in in_play:
        if tile != EMPTY and is_ship(tile):
            pool[tile] = 0
    return pool


def _read_turn(state: Any, raw: Any, groups: int) -> None:
    """The Group being bought and placed, and how many Groups were bought this round."""
    turn = _object(raw, "turn", TURN_KEYS, "purchases, tile, viking and placed")
    # Unless told otherwise, the Groups not on the wheel were bought this round (one of them being placed now).
    being_placed = 1 if state.step in PLACING_STEPS else 0
    default = GROUPS_PER_ROUND - groups - being_placed if state.step in PURCHASE_STEPS else 0
    state.purchases = _int(turn, "purchases", "turn.", max(0, default), 0, GROUPS_PER_ROUND - 1)
    if turn.get("tile") is not None:
        state.pending_tile = _parse_tile(turn["tile"], "turn.tile")
    if turn.get("viking") is not None:
        state.pending_viking = _letter(turn["viking"], "turn.viking")
    if turn.get("placed") is not None:
        row, col = _parse_square(turn["placed"], "turn.placed")
        state.placed_at = row * MAX_COLUMNS + col - 1


def _read_ferry(state: Any, raw: Any) -> None:
    ferry = _object(raw, "ferry", FERRY_KEYS, "scoring_index, load and landed")
    state.scoring_index = _int(ferry, "scoring_index", "ferry.", 0, 0, state.num_players)
    state.ferry_load = _colour_counts(ferry.get("load"), "ferry.load", [0] * NUM_COLOURS)
    state.ferry_landed = _int(ferry, "landed", "ferry.", 0)


def _read_table_specials(state: Any, specials: Any, auction: Any) -> None:
    """The advanced game's face-down and face-up special tiles and the auction, if the position has them."""
    if specials is not None:
        specials = _object(specials, "specials", TABLE_SPECIALS_KEYS, "stacks, face_up, spent")
        stacks = specials.get("stacks", {})
        if not isinstance(stacks, dict):
            raise PositionError("specials.stacks: expected an object of special tiles to counts")
        state.specials_pool = [0] * NUM_SPECIAL_TYPES
        for code, n in stacks.items():
            at = f"specials.stacks.{shown_key(code)}"
            state.specials_pool[_special(code, at)] = _count(n, at)
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
        auction = _object(auction, "auction", AUCTION_KEYS, "high_bid, high_bidder, bidding")
        state.high_bid = _int(auction, "high_bid", "auction.", -1, -1, A.MAX_BID)
        state.high_bidder = _int(auction, "high_bidder", "auction.", -1, -1, state.num_players - 1)
        bidding = auction.get("bidding", [False] * state.num_players)
        if not isinstance(bidding, list) or len(bidding) != state.num_players:
            raise PositionError(f"auction.bidding: expected {state.num_players} true/false values")
        if not all(isinstance(b, bool) for b in bidding):
            raise PositionError(f"auction.bidding: expected true or false for each player, got {shown(bidding)}")
        state.bidding = list(bidding)
        state.removed_vikings = _int(auction, "removed_vikings", "auction.", 0)


def _report(raw: Any, where: str, players: int) -> ScoreReport:
    report = _object(raw, where, SCORING_KEYS, "round, when and lines")
    when = report.get("when")
    if when not in ("small", "large", "end"):
        raise PositionError(f"{where}.when: expected 'small', 'large' or 'end', got {shown(when)}")
    lines = _list(report.get("lines"), f"{where}.lines", "scoring lines")
    return ScoreReport(
        _int(report, "round", f"{where}.", None, 1, ROUNDS),
        when,
        tuple(_score_line(line, f"{where}.lines[{i}]", players) for i, line in enumerate(lines)),
    )


def _score_line(raw: Any, where: str, players: int) -> ScoreLine:
    line = _object(raw, where, LINE_KEYS, "seat, kind, text, fame and gold")
    texts: dict[str, str] = {}
    for key in ("kind", "text", "square"):
        text = line.get(key, "" if key == "square" else None)
        if not isinstance(text, str):
            raise PositionError(f"{where}.{key}: expected a string, got {shown(text)}")
        texts[key] = text
    return ScoreLine(
        seat=_int(line, "seat", f"{where}.", None, 0, players - 1),
        fame=_int(line, "fame", f"{where}.", 0, -(10**6)),
        gold=_int(line, "gold", f"{where}.", 0, -(10**6)),
        **texts,
    )


# -- checking the fields against each other ---------------------------------------------------------------------


def _check_agreement(state: Any, groups: dict[int, str], tallied: set[str]) -> None:
    """The fields must describe one moment of one game: what the step needs is there, and nothing it rules out.

    Each check keeps the game from a state it could never reach and would fail in (a chance node with nothing to
    draw, a player with no legal action, a Viking landed from an empty ferry).
    """
    step, name = state.step, STEP_KEYS[state.step]
    if step in ADVANCED_STEPS and not state.advanced:
        raise PositionError(f"step: '{name}' belongs to the advanced game (options.variant = 'advanced')")
    if step in AUCTION_STEPS and not state.auction:
        raise PositionError(f"step: '{name}' belongs to the auction (options.auction = 'on')")
    if step == GAME_OVER and state.round != ROUNDS:
        raise PositionError(
            f"step: 'game_over' comes after round {ROUNDS}'s end-game scoring, not in round {state.round}"
        )
    for seat, land in enumerate(state.lands):
        if land.fame < 0 and step != GAME_OVER:
            raise PositionError(f"mainlands[{seat}].fame: below 0, which only the end-game scoring can do")
    _check_wheel(state, groups, name)
    _check_drawn(state, name)
    _check_turn(state, len(groups), name)
    _check_scoring(state, name)
    _check_advanced(state, name)
    _check_ships(state)
    _check_supplies(state, tallied)
    _check_playable(state, name)


def _check_wheel(state: Any, groups: dict[int, str], name: str) -> None:
    step = state.step
    vikings = [space for space in groups if state.wheel_vikings[space] != EMPTY]
    if step in OFFER_STEPS and state.offset:
        raise PositionError(
            f"wheel.offset: the offer lays the wheel out from 0, so the offset is 0, not {state.offset}"
        )
    if step in PURCHASE_STEPS:
        for space, where in groups.items():
            if state.wheel_vikings[space] == EMPTY:
                raise PositionError(f"{where}.viking: a Group on sale has its Viking (step '{name}')")
            if space < state.offset:
                raise PositionError(
                    f"{where}.space: space {space} lies behind the 0-cost space (offset {state.offset}); "
                    f"nothing costs {space - state.offset}"
                )
        if step == BUY and not groups:
            raise PositionError("wheel.groups: no Group left to buy at step 'buy'")
        # Buying the 0-cost Group turns the wheel until a Group stands on 0 again, so while any is left, one does.
        if groups and state.offset not in groups:
            raise PositionError(
                f"wheel.offset: {state.offset}, but no Group stands on space {state.offset}, the 0-cost space; the "
                f"wheel turns on to the next Group, so the offset is {min(groups)}"
            )
    elif step in (DRAW_TILES, PLACE_COLOURS) or (step == DRAW_VIKINGS and not state.auction):
        full = step != DRAW_TILES
        if full and len(groups) < GROUPS_PER_ROUND:
            raise PositionError(
                f"wheel.groups: {len(groups)} tiles on the wheel, but all {GROUPS_PER_ROUND} are laid out before "
                f"step '{name}'"
            )
        if not full and len(groups) == GROUPS_PER_ROUND:
            raise PositionError("wheel.groups: the wheel is full, so no tile is left to draw at step 'draw_tiles'")
        # Colours are laid from space 11 down; before that (and in the base game's offer) no Viking is on the wheel.
        top = sorted(range(GROUPS_PER_ROUND - len(vikings), GROUPS_PER_ROUND))
        if vikings and (step != PLACE_COLOURS or sorted(vikings) != top):
            where = groups[min(vikings)]
            raise PositionError(
                f"{where}.viking: at step '{name}' "
                + ("colours fill the wheel from space 11 down" if step == PLACE_COLOURS else "no Viking is laid yet")
            )
    elif groups:
        raise PositionError(f"wheel.groups: the wheel is empty at step '{name}'")


def _check_drawn(state: Any, name: str) -> None:
    """Vikings drawn for the wheel but not yet laid: only while the offer draws and lays them."""
    step, drawn, laid = state.step, sum(state.drawn), sum(1 for v in state.wheel_vikings if v != EMPTY)
    offer = GROUPS_PER_ROUND + 1 if state.auction else GROUPS_PER_ROUND
    if step == DRAW_VIKINGS:
        allowed = range(offer)
    elif step in (AUCTION, REMOVE_VIKING):
        allowed = range(offer, offer + 1)
    elif step == PLACE_COLOURS or (step == DRAW_TILES and state.auction):
        allowed = range(GROUPS_PER_ROUND - laid, GROUPS_PER_ROUND - laid + 1)
    else:
        allowed = range(1)
    if drawn not in allowed:
        expected = f"{allowed.start}–{allowed.stop - 1}" if len(allowed) > 1 else str(allowed.start)
        raise PositionError(f"drawn: {drawn} Vikings drawn and not yet laid, but {expected} at step '{name}'")


def _check_turn(state: Any, groups: int, name: str) -> None:
    """The bought Group: its tile and Viking are held only while it is placed; a round has 12 purchases."""
    step = state.step
    if step in PURCHASE_STEPS:
        being_placed = 1 if step in PLACING_STEPS else 0
        if state.purchases + groups + being_placed != GROUPS_PER_ROUND:
            raise PositionError(
                f"turn.purchases: {state.purchases} Groups bought, {groups} on the wheel"
                + (" and one being placed" if being_placed else "")
                + f" do not make the round's {GROUPS_PER_ROUND}"
            )
    elif state.purchases:
        raise PositionError(f"turn.purchases: Groups are bought only in the purchases, not at step '{name}'")
    if step in PLACING_STEPS and state.pending_viking == EMPTY:
        raise PositionError(f"turn.viking: the bought Group's Viking is missing at step '{name}'")
    if step not in PLACING_STEPS:
        for field, value in (("tile", state.pending_tile), ("viking", state.pending_viking)):
            if value != EMPTY:
                raise PositionError(
                    f"turn.{field}: a bought Group is held only while it is placed, not at step '{name}'"
                )
    if step == PLACE_VIKING and state.pending_tile != EMPTY:
        raise PositionError("turn.tile: the bought tile is placed (or discarded) before its Viking")
    if state.placed_at >= 0:
        if step not in (PLACE_TILE, PLACE_VIKING):
            raise PositionError(f"turn.placed: only while a bought Group is placed, not at step '{name}'")
        land, row, col = state.lands[state.to_move], state.placed_at // MAX_COLUMNS, state.placed_at % MAX_COLUMNS + 1
        if land.tile(row, col) == EMPTY or land.viking(row, col) != EMPTY:
            raise PositionError(
                f"turn.placed: {A.square_name(row, col)} of mainlands[{state.to_move}] holds no island tile "
                "free of Vikings, where the bought tile went"
            )


def _check_scoring(state: Any, name: str) -> None:
    """The large scoring: the right player ferries, and a ferry carries Vikings she has room and a claim to."""
    step = state.step
    if step in SCORING_STEPS:
        if state.round not in LARGE_SCORING_ROUNDS:
            raise PositionError(
                f"step: '{name}' belongs to the large scorings after rounds 2, 4 and 6, not round {state.round}"
            )
        if state.scoring_index >= state.num_players:
            raise PositionError(f"ferry.scoring_index: every player has scored; expected 0–{state.num_players - 1}")
        seat = state.turn_order()[state.scoring_index]
        if state.to_move != seat:
            raise PositionError(
                f"to_move: seat {seat} ferries as player {state.scoring_index + 1} of the scoring from start player "
                f"{state.start_player}, not seat {state.to_move}"
            )
    land = state.lands[state.to_move]
    for colour, load in enumerate(state.ferry_load):
        if not load:
            continue
        where = f"ferry.load.{LETTERS[colour]}"
        if step != LAND:
            raise PositionError(f"{where}: a ferry carries Vikings only at step 'land', not '{name}'")
        row = ROW_OF_COLOUR[colour]
        if row == 0:
            raise PositionError(f"{where}: a Boatswain ferries other Vikings, never Boatswains")
        if load > min(land.head[colour], land.count_free(row)):
            raise PositionError(
                f"{where}: {load} aboard, but mainlands[{state.to_move}] has {land.head[colour]} waiting and "
                f"{land.count_free(row)} free tiles in the {VIKINGS[colour].role} row"
            )
    if step == LAND and not any(state.ferry_load):
        raise PositionError("ferry.load: empty at step 'land'; a Boatswain's ferry carries at least one Viking")


def _check_advanced(state: Any, name: str) -> None:
    """Special tiles and the auction: each in the step that uses it, and none of them in the base game."""
    step = state.step
    if not state.advanced:
        for seat, land in enumerate(state.lands):
            if any(land.specials) or land.waiting or land.buildings:
                raise PositionError(
                    f"mainlands[{seat}]: special tiles belong to the advanced game (options.variant is 'base')"
                )
        if any(state.specials_pool) or any(t != EMPTY for t in state.face_up) or state.specials_spent:
            raise PositionError("specials: special tiles belong to the advanced game (options.variant is 'base')")
        if state.removed_vikings or state.high_bid >= 0:
            raise PositionError("auction: the auction belongs to the advanced game (options.variant is 'base')")
    if step == DRAW_SPECIALS and EMPTY not in state.face_up:
        raise PositionError("specials.face_up: all spaces are full, so nothing is turned up at step 'draw_specials'")
    special = state.pending_special
    if step == REPLACE_BUILDING and special == EMPTY:
        raise PositionError("specials.choosing: empty, but step 'replace_building' places a Building tile")
    if special != EMPTY:
        # A Building tile is placed at step 'replace_building'; with building_choice=after_placing it is also held at
        # 'place_tile' while the bought tile showing its building is placed (that tile may be the one replaced).
        if special < BUILDING_FIRST:
            raise PositionError(f"specials.choosing: {SPECIAL_CODES[special]} is not a Building tile")
        held = (
            step == PLACE_TILE
            and state.options["building_choice"] == "after_placing"
            and state.pending_tile == building_of(special)
        )
        if step != REPLACE_BUILDING and not held:
            raise PositionError(
                f"specials.choosing: a Building tile is chosen at step 'replace_building' (or, with rule option "
                f"building_choice=after_placing, held at 'place_tile' for the bought tile showing its building); "
                f"not at '{name}'"
            )
        if any(special in land.waiting for land in state.lands):
            raise PositionError(f"specials.choosing: {SPECIAL_CODES[special]} is also listed as waiting")
    for seat, land in enumerate(state.lands):
        for i, waiting in enumerate(land.waiting):
            if land.building_squares(building_of(waiting)):
                raise PositionError(
                    f"mainlands[{seat}].waiting[{i}]: {SPECIAL_CODES[waiting]} waits only while no island tile "
                    f"showing its building is on the Mainland; it would have replaced one"
                )
    if step != AUCTION:
        if any(state.bidding):
            raise PositionError(f"auction.bidding: nobody bids outside step 'auction' (the step is '{name}')")
        return
    if not state.bidding[state.to_move] or sum(state.bidding) < 2:
        raise PositionError(
            f"auction.bidding: the player to move (seat {state.to_move}) and at least one other are still bidding"
        )
    if (state.high_bid < 0) != (state.high_bidder < 0):
        raise PositionError("auction.high_bidder: a highest bid has its bidder, and no bid has none")
    if state.high_bidder >= 0:
        winner = state.lands[state.high_bidder]
        if not state.bidding[state.high_bidder]:
            raise PositionError(f"auction.high_bidder: seat {state.high_bidder} has passed, so cannot hold the bid")
        if state.high_bid > winner.gold + winner.fame:
            raise PositionError(
                f"auction.high_bid: {state.high_bid} is more than seat {state.high_bidder}'s Gold and Fame together"
            )


def _check_ships(state: Any) -> None:
    """Every ship tile is unique: it lies in the stacks, on the wheel, in a hand, on one Mainland or discarded."""
    places = [("stacks", tile) for tile, n in enumerate(state.pool) for _ in range(n)]
    places += [("wheel.groups", tile) for tile in state.wheel_tiles]
    places += [("turn.tile", state.pending_tile), *(("discarded", tile) for tile in state.discarded)]
    for seat, land in enumerate(state.lands):
        places += [(f"mainlands[{seat}].rows.ship", land.tiles[col - 1]) for col in land.ship_columns()]
    seen: dict[int, str] = {}
    for where, tile in places:
        if tile != EMPTY and is_ship(tile):
            if tile in seen:
                raise PositionError(
                    f"{where}: ship {tile_code(tile)} is also in {seen[tile]}; each ship tile is unique"
                )
            seen[tile] = where


def _check_supplies(state: Any, tallied: set[str]) -> None:
    """The stacks and the bag, where the position gives them (`tallied`), hold what the rest of the game draws:
    12 tiles and 12 Vikings (13 with the auction) a round. Left out, they hold the whole box."""
    if state.step == GAME_OVER:
        return
    step, auction = state.step, state.auction
    per_round = GROUPS_PER_ROUND + 1 if auction else GROUPS_PER_ROUND
    empty = sum(1 for tile in state.wheel_tiles if tile == EMPTY)
    if step == DRAW_SPECIALS or (auction and step in (DRAW_VIKINGS, AUCTION, REMOVE_VIKING)):
        tiles_now = GROUPS_PER_ROUND
    else:
        tiles_now = empty if step == DRAW_TILES else 0
    if step == DRAW_SPECIALS or (step == DRAW_TILES and not auction):
        vikings_now = per_round
    else:
        vikings_now = per_round - sum(state.drawn) if step == DRAW_VIKINGS else 0
    later = ROUNDS - state.round
    for field, held, needed, what in (
        ("stacks", sum(state.pool), tiles_now + later * GROUPS_PER_ROUND, "tiles face down"),
        ("bag", sum(state.bag), vikings_now + later * per_round, "Vikings in the bag"),
    ):
        if field in tallied and held < needed:
            raise PositionError(f"{field}: {held} {what}, but the rest of the game draws {needed}")


def _check_playable(state: Any, name: str) -> None:
    """Chance has something to draw; the seat to act has something to do, and everything offered to it is accepted."""
    if state.is_terminal():
        return
    if state.current_player() == CHANCE:
        if not state.chance_outcomes():
            field = {DRAW_TILES: "stacks", DRAW_VIKINGS: "bag", DRAW_SPECIALS: "specials.stacks"}[state.step]
            raise PositionError(f"{field}: empty, but step '{name}' draws from it")
        return
    legal = state.legal_actions()
    if not legal:
        raise PositionError(f"step: '{name}' leaves seat {state.to_move} no legal action in this position")
    for action in legal:
        reason = state.illegal_reason(action)
        if reason is not None:
            raise PositionError(
                f"step: '{name}' offers '{A.to_notation(action)}' to seat {state.to_move}, which its rules refuse "
                f"({reason})"
            )
