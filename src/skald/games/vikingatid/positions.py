"""Vikingatid positions as JSON: any decision point of a game, hands and deck included (docs/vikingatid-positions.md).

`to_position(state)` writes the full form; `state_from_position(game, data)` reads it back, or a shorter form a
person writes (every key but `game` has a default), checking each field and then that play goes on from there.
Every error is a `PositionError` whose message starts with the field at fault (`seats[2].hand[0]: unknown card
'X'`). The hidden parts (each hand, the deck's make-up, the pledges of a sealed round) are listed under `hidden`
in the full form; `seen_by(data, viewer)` is the position with those a viewer may not see replaced by their sizes.

The phases' records are written field by field from the objects the state holds (`_fields`): a field is any
attribute a phase's record copies when cloned, so a position holds exactly what the state holds. Not in the
compiled build: it reads and writes once per position, never in play.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Final

from skald.engine import CHANCE, TERMINAL, OptionError, PositionError
from skald.engine.messages import shown, shown_key
from skald.games.vikingatid import christianisation, elections, emigration, journeys, purchases, reactions
from skald.games.vikingatid import resample as R
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import CARD_IDS, CARD_KINDS
from skald.games.vikingatid.cards import play as cardplay
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.cleanup import CleanupResult, ShipsRemoved
from skald.games.vikingatid.emigration import Emigrated
from skald.games.vikingatid.journeys import JourneyEvent
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.reactions import ReactionResult
from skald.games.vikingatid.silver import Income
from skald.games.vikingatid.situation import CardEvent, election_rules, journey_rules
from skald.games.vikingatid.taxation import TaxLine
from skald.games.vikingatid.victory_points import ScoreLine

FORMAT: Final = "skald-position"
VERSION: Final = 1
#: The parts of the full form no single seat sees whole (the rulings' "Hidden information").
HIDDEN: Final = ("seats[].hand", "deck", "election.pledges")
#: The table's keys (`Position.snapshot`), read by `Position.from_snapshot`.
TABLE_KEYS: Final = (
    "turn", "phase", "first_seat", "kingdom_choice", "fleets", "kingdoms", "pairs", "trade_stops", "plundered",
    "empires", "discovered", "mines_dry", "fiefs", "separatists", "expanded", "unified", "exiled", "ledger",
)  # fmt: skip
SEAT_KEYS: Final = ("kingdom", "home", "emigrated", "silver", "vp", "christian", "ships", "camps", "hand")
#: Attributes a phase's record takes from the rule options or the table size, not from play: never written.
CONFIG: Final = frozenset(("num_players", "num_areas", "rules", "mode", "assimilate", "chance", "counts"))
#: The records of each list of results, by field path.
RECORDS: Final[dict[str, Any]] = {
    "reactions.results": ReactionResult,
    "journeys.build_reactions.results": ReactionResult,
    "election.results": elections.ElectionResult,
    "election.shown": elections.Pledge,
    "journeys.events": JourneyEvent,
    "emigration.moves": Emigrated,
    "log.incomes": Income,
    "log.taxes": TaxLine,
    "log.final_lines": ScoreLine,
    "log.card_log": CardEvent,
}
#: What a fleet left out of a short form has: it has just set out (no danger yet, no move made, from no sea).
FLEET_DEFAULTS: Final[dict[str, Any]] = {"danger": 0, "moves": 0, "entered_from": ""}
#: String fields that name an area (checked against the board), by attribute name.
AREA_FIELDS: Final = frozenset(("area", "start_area", "target", "target_from", "passage_area", "discovery"))
AREA_LISTS: Final = frozenset(
    ("areas", "route", "leg", "danger_areas", "good_trade", "free_trade", "free_passage", "assimilated")
)
#: Each step's name in a position, by step id (`steps.py`).
STEP_NAMES: Final = (
    "kingdom_roll", "kingdom_choice", "reaction_roll", "gald_roll", "gift_target", "gift_amount", "bid_target",
    "bid_amount", "election_roll", "peace_offer", "peace_answer", "pull_down", "buy_ships", "buy_amount",
    "initiative_roll", "journey_choice", "fleet_size_choice", "move", "entry_answer", "duty_amount", "entry_reply",
    "sea_ban", "ban_war_roll", "danger_roll", "act", "fleet_hits", "army_hits", "defender_hits", "fight_on",
    "war_risk_roll", "war_declaration", "build_reaction_roll", "build_gald_roll", "emigration",
    "christianisation_roll", "assimilation_roll", "game_over", "draw_card", "discard_card", "card_window",
    "card_target", "card_roll", "card_hits", "card_answer", "gift_card", "sealed_bid",
)  # fmt: skip
PHASE_RECORDS: Final = ("reactions", "election", "purchases", "journeys", "emigration", "christianisation")
FLOW_KEYS: Final = ("before_done", "phase_window", "results_seen", "discards", "cut_short", "actions_left")
TOP_KEYS: Final = frozenset(
    (
        "format", "version", "game", "comment", "players", "options", "step", "seats", "deck", "pile", "reshuffles",
        "to_draw", "dealt", "window", "play", "flow", "log", "hidden", "year", *TABLE_KEYS, *PHASE_RECORDS,
    )
)  # fmt: skip


# -- writing ------------------------------------------------------------------------------------------------------


def _fields(obj: Any) -> list[str]:
    """The attributes of a phase's record that play changes, in the order it sets them."""
    names = getattr(type(obj), "__mypyc_attrs__", None)
    found = list(names) if names is not None else list(vars(obj))
    return [name for name in found if not name.startswith("_") and name not in CONFIG and name != "__dict__"]


def _plain(value: Any) -> Any:
    """A value of a phase's record as JSON-ready data: records as objects, tuples as lists, objects by field."""
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return {name: _plain(getattr(value, name)) for name in _fields(value)}


def _cards(counts: list[int]) -> dict[str, int]:
    return {CARD_IDS[kind]: n for kind, n in enumerate(counts) if n}


def _hand(counts: list[int]) -> list[str]:
    return [CARD_IDS[kind] for kind, n in enumerate(counts) for _ in range(n)]


def to_position(state: Any) -> dict[str, Any]:
    """The full form of `state`: everything it holds but its history, so that the state read back plays on as it
    would have (the same legal actions, observations and results)."""
    table = state.position.snapshot()
    deck = state.deck
    seats = table.pop("seats")
    for seat, entry in enumerate(seats):
        entry["hand"] = _hand(deck.hands[seat])
    window = state.window
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.name,
        "players": state.num_players,
        "options": dict(state.options),
        "hidden": list(HIDDEN),
        "step": STEP_NAMES[state.step],
        **table,
        "seats": seats,
        "deck": _cards(deck.deck),
        "pile": _cards(deck.pile),
        "reshuffles": deck.reshuffles,
        "to_draw": list(deck.to_draw),
        "dealt": deck.dealt,
    }
    for name in PHASE_RECORDS:
        data[name] = _plain(getattr(state, name))
    data["window"] = (
        {
            "kind": window.kind,
            "resume": window.resume,
            "step": window.step,
            "phase": window.phase,
            "roll_step": window.roll_step,
            "held": window.held,
            "roller": window.roller,
            "seat": window.seat,
            "passes": window.passes,
        }
        if window is not None
        else None
    )
    play = state.play
    data["play"] = (
        {"seat": play.seat, "card": CARD_IDS[play.kind], "resume": play.resume, **_plain(play)}
        if play is not None
        else None
    )
    data["flow"] = {
        "before_done": state.before_done,
        "phase_window": state.phase_window,
        "results_seen": state.results_seen,
        "discards": list(state.discards),
        "cut_short": state.cut_short,
        "actions_left": state.action_limit - len(state.history),
    }
    data["log"] = {
        "incomes": _plain(state.incomes),
        "taxes": _plain(state.taxes),
        "cleanup": _plain(state.cleanup),
        "score_lines": [{"turn": turn, **line._asdict()} for turn, line in state.score_lines],
        "final_lines": _plain(state.final_lines),
        "card_log": _plain(state.card_log),
    }
    # The sealed pledges' plies point into a history the position does not hold.
    data["election"]["sealed_plies"] = [-1 for _ in state.election.sealed_plies]
    return data


def seen_by(data: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The full form `data` as `viewer` (a seat, None: a spectator) may see it: another seat's hand as its size,
    the deck as its size, and another seat's pledges in a sealed round as their number."""
    seen: dict[str, Any] = json.loads(json.dumps(data))
    seen["viewer"] = "spectator" if viewer is None else viewer
    for seat, entry in enumerate(seen.get("seats", [])):
        if seat != viewer and isinstance(entry, dict) and isinstance(entry.get("hand"), list):
            entry["hand"] = {"hidden": len(entry["hand"])}
    deck = seen.get("deck")
    if isinstance(deck, dict):
        seen["deck"] = {"hidden": sum(n for n in deck.values() if isinstance(n, int))}
    election = seen.get("election")
    if isinstance(election, dict) and isinstance(election.get("pledges"), list):
        election["pledges"] = [
            row if seat == viewer else {"hidden": len(row) if isinstance(row, list) else 0}
            for seat, row in enumerate(election["pledges"])
        ]
    return seen


def seen_digest(data: dict[str, Any], viewer: int | None) -> str:
    """A short fingerprint of what `viewer` sees of the position `data`: equal for two positions exactly when they
    differ only in what that viewer may not see (the start of its information-state string)."""
    text = json.dumps(seen_by(data, viewer), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


# -- reading ------------------------------------------------------------------------------------------------------


def _object(raw: Any, where: str, known: tuple[str, ...] | frozenset[str] | list[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object, got {shown(raw)}")
    for key in raw:
        if key not in known and key != "comment":
            raise PositionError(f"{_join(where, shown_key(key))}: unknown field (known: {', '.join(sorted(known))})")
    return raw


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _check_like(value: Any, template: Any, where: str, areas: frozenset[str], name: str) -> Any:
    """`value` checked to have the JSON type of `template` (a value of a fresh record), as the record holds it."""
    if isinstance(template, bool):
        if not isinstance(value, bool):
            raise PositionError(f"{where}: expected true or false, got {shown(value)}")
        return value
    if isinstance(template, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PositionError(f"{where}: expected an integer, got {shown(value)}")
        return value
    if isinstance(template, str):
        if not isinstance(value, str):
            raise PositionError(f"{where}: expected a string, got {shown(value)}")
        if name in AREA_FIELDS and value and value not in areas:
            raise PositionError(f"{where}: no area {shown(value)} on the board")
        return value
    if isinstance(template, list):
        if not isinstance(value, list):
            raise PositionError(f"{where}: expected a list, got {shown(value)}")
        if template and len(value) != len(template):
            raise PositionError(f"{where}: expected a list of {len(template)}, got {len(value)}")
        items = []
        for index, item in enumerate(value):
            at = f"{where}[{index}]"
            if template:
                items.append(_check_like(item, template[index], at, areas, name))
            else:
                items.append(_free(item, at, areas, name))
        return items
    raise PositionError(f"{where}: cannot be read")  # pragma: no cover - every field is one of the above


def _free(value: Any, where: str, areas: frozenset[str], name: str) -> Any:
    """An item of a list a fresh record holds empty: an integer, a string (an area's id in an area list) or a list."""
    if isinstance(value, bool) or not isinstance(value, int | str | list):
        raise PositionError(f"{where}: expected an integer, a string or a list, got {shown(value)}")
    if isinstance(value, str) and name in AREA_LISTS and value not in areas:
        raise PositionError(f"{where}: no area {shown(value)} on the board")
    if isinstance(value, list):
        return [_free(item, f"{where}[{i}]", areas, name) for i, item in enumerate(value)]
    return value


_SCALARS: Final[dict[str, Callable[[Any], bool]]] = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
}


def _annotation(raw: Any) -> str:
    """A field's annotation as its text ("int", "tuple[int, ...]"), whether kept as a string or a forward reference."""
    if isinstance(raw, type):
        return raw.__name__
    return str(getattr(raw, "__forward_arg__", raw))


def _record(cls: Any, raw: Any, where: str) -> Any:
    """A result record (`cls`, a NamedTuple) from its JSON object; tuples of numbers or strings from lists."""
    fields = cls._fields
    data = _object(raw, where, fields)
    defaults = getattr(cls, "_field_defaults", {})
    values = []
    for key in fields:
        if key not in data:
            if key in defaults:
                values.append(defaults[key])
                continue
            raise PositionError(f"{where}.{key}: missing")
        value = data[key]
        kind = _annotation(cls.__annotations__.get(key, ""))
        check = _SCALARS.get(kind)
        if check is not None and not check(value):
            raise PositionError(f"{where}.{key}: expected {'a number' if kind == 'int' else 'a ' + kind}, got "
                                f"{shown(value)}")  # fmt: skip
        if kind.startswith("tuple"):
            if not isinstance(value, list) or any(isinstance(v, list | dict) for v in value):
                raise PositionError(f"{where}.{key}: expected a list of numbers or strings, got {shown(value)}")
            value = tuple(value)
        values.append(value)
    return cls(*values)


def _records(cls: Any, raw: Any, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise PositionError(f"{where}: expected a list, got {shown(raw)}")
    return [_record(cls, item, f"{where}[{i}]") for i, item in enumerate(raw)]


def _read_into(obj: Any, raw: Any, where: str, areas: frozenset[str]) -> None:
    """Set each field of the record `obj` (fresh, with its defaults) given in `raw`, checked against the default."""
    names = _fields(obj)
    data = _object(raw, where, names)
    for name in names:
        if name not in data:
            continue
        at = f"{where}.{name}"
        template = getattr(obj, name)
        if at in RECORDS:
            setattr(obj, name, _records(RECORDS[at], data[name], at))
        elif isinstance(template, bool | int | str | list):
            setattr(obj, name, _check_like(data[name], template, at, areas, name))
        else:
            _read_into(template, data[name], at, areas)


def _card(raw: Any, where: str) -> int:
    if raw not in CARD_IDS:
        raise PositionError(f"{where}: unknown card {shown(raw)} (the cards are {', '.join(CARD_IDS[:3])}, …)")
    return CARD_IDS.index(raw)


def _card_counts(raw: Any, where: str) -> list[int]:
    counts = [0] * CARD_KINDS
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object of card → count, got {shown(raw)}")
    for key, n in raw.items():
        kind = _card(key, f"{where}.{shown_key(key)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise PositionError(f"{where}.{shown_key(key)}: expected a count ≥ 0, got {shown(n)}")
        counts[kind] = n
    return counts


def _int(raw: Any, where: str, low: int, high: int) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
        raise PositionError(f"{where}: expected an integer {low}–{high}, got {shown(raw)}")
    return raw


def state_from_position(game: Any, data: Any) -> Any:
    """A state from a position's JSON (full or short form); `PositionError` naming the field at fault."""
    top = _object(data, "", TOP_KEYS | {"viewer"})
    if "viewer" in top:
        raise PositionError(
            "viewer: this is a position as one viewer sees it, with hidden parts left out; only the whole position "
            "loads"
        )
    if top.get("format", FORMAT) != FORMAT:
        raise PositionError(f"format: expected {FORMAT!r}, got {shown(top.get('format'))}")
    if top.get("version", VERSION) != VERSION:
        raise PositionError(f"version: expected {VERSION}, got {shown(top.get('version'))}")
    if top.get("game", game.name) != game.name:
        raise PositionError(f"game: expected {game.name!r}, got {shown(top.get('game'))}")
    raw_seats = top.get("seats")
    if not isinstance(raw_seats, list) or not game.min_players <= len(raw_seats) <= game.max_players:
        raise PositionError(f"seats: expected a list of {game.min_players}–{game.max_players} seats")
    players = top.get("players", len(raw_seats))
    if players != len(raw_seats):
        raise PositionError(f"players: {shown(players)} players but {len(raw_seats)} seats")
    options = top.get("options", {})
    if not isinstance(options, dict):
        raise PositionError("options: expected an object of rule options")
    try:
        state = game.new_initial_state(players, options)
    except OptionError as error:
        raise PositionError(str(error)) from None
    areas = frozenset(state.position.area_ids)
    state.position = _read_table(state, top, raw_seats, areas)
    _read_cards(state, top, raw_seats)
    state.reactions = reactions.Reactions(state.options["reaction_roll"])
    state.election = elections.Election(players, election_rules(state.options))
    state.purchases = purchases.Purchases(players, state.position.num_areas, state.options["purchase"])
    state.journeys = journeys.Journeys(state.position, journey_rules(state.options))
    state.emigration = emigration.Emigration()
    state.christianisation = christianisation.Christianisation(
        state.options["assimilation"] == "phase_10", state.christianisation.chance
    )
    for name in PHASE_RECORDS:
        if name in top:
            _read_into(getattr(state, name), top[name], name, areas)
    state.election.sealed_plies = [-1 for _ in state.election.sealed_plies]
    _read_window_and_play(state, top)
    _read_flow(state, top)
    _read_log(state, top)
    state.step = _read_step(state, top)
    _phase_defaults(state, top)
    _check(state, top)
    start_here(state)
    return state


def _read_table(state: Any, top: dict[str, Any], raw_seats: list[Any], areas: frozenset[str]) -> Position:
    """The table: `Position.from_snapshot` over the fresh table's snapshot with the given keys laid on it."""
    snapshot = state.position.snapshot()
    base_seats = snapshot["seats"]
    for key in TABLE_KEYS:
        if key in top:
            snapshot[key] = top[key]
    seats = []
    for seat, raw in enumerate(raw_seats):
        where = f"seats[{seat}]"
        entry = _object(raw, where, SEAT_KEYS)
        merged = dict(base_seats[seat])
        for key in SEAT_KEYS[:-1]:
            if key in entry:
                merged[key] = entry[key]
        seats.append(merged)
    snapshot["seats"] = seats
    _check_table_types(snapshot, areas)
    given_ledger = "ledger" in top
    try:
        position = Position.from_snapshot(state.board, snapshot)
    except ValueError as error:
        raise PositionError(f"table: {error}") from None
    position.fief_loss = str(state.options["fief_loss"])
    position.keep_dry_excess = state.options["mines_dry_camps"] == "keep_excess"
    if not given_ledger:
        # Whatever is on the table entered the game: the ledger that balances it.
        position.ships_in = [position.ships_on_board(s) for s in range(position.num_players)]
        position.ships_out = [0] * position.num_players
        position.camps_in = [sum(row) for row in position.camps]
        position.camps_out = [0] * position.num_players
        position.silver_in = sum(position.silver) + sum(position.treasury)
        position.silver_out = 0
    found = problems(position)
    if found:
        raise PositionError(f"table: {found[0]}")
    return position


def _check_table_types(snapshot: dict[str, Any], areas: frozenset[str]) -> None:
    """The table's fields checked one by one, so that an error names the field rather than the snapshot."""
    _int(snapshot["turn"], "turn", 1, 100)
    _int(snapshot["phase"], "phase", 0, S.NEXT_TURN)
    _int(snapshot["first_seat"], "first_seat", -1, len(snapshot["seats"]) - 1)
    for seat, entry in enumerate(snapshot["seats"]):
        where = f"seats[{seat}]"
        for key in ("silver", "vp"):
            _int(entry[key], f"{where}.{key}", 0, 10**6)
        for key in ("kingdom", "home"):
            if not isinstance(entry[key], str):
                raise PositionError(f"{where}.{key}: expected a string, got {shown(entry[key])}")
        if entry["kingdom"] not in ("", "norway", "sweden", "denmark") and entry["kingdom"]:
            pass
        for key in ("ships", "camps"):
            counts = entry[key]
            _object(counts, f"{where}.{key}", areas)
            for area, kinds in counts.items():
                _object(kinds, f"{where}.{key}.{area}", ("trading", "war"))
                for kind, n in kinds.items():
                    _int(n, f"{where}.{key}.{area}.{kind}", 0, 1000)
    if not isinstance(snapshot["fleets"], list):
        raise PositionError("fleets: expected a list")
    fields = ("owner", "kind", "size", "area", "danger", "moves", "entered_from")
    filled = []
    for index, raw in enumerate(snapshot["fleets"]):
        where = f"fleets[{index}]"
        given = _object(raw, where, fields)
        fleet = {**FLEET_DEFAULTS, **{key: value for key, value in given.items() if key != "comment"}}
        for key in fields:
            if key not in fleet:
                raise PositionError(f"{where}.{key}: missing")
        for key in ("owner", "size", "danger", "moves"):
            _int(fleet[key], f"{where}.{key}", 0, 10**6)
        filled.append(fleet)
        for key in ("area", "entered_from"):
            if fleet[key] and fleet[key] not in areas:
                raise PositionError(f"{where}.{key}: no area {shown(fleet[key])} on the board")
        if fleet["kind"] not in ("trading", "war"):
            raise PositionError(f"{where}.kind: expected 'trading' or 'war', got {shown(fleet['kind'])}")
    snapshot["fleets"] = filled
    for key in ("trade_stops", "plundered", "separatists", "expanded"):
        if not isinstance(snapshot[key], list):
            raise PositionError(f"{key}: expected a list of areas")
        for index, area in enumerate(snapshot[key]):
            if area not in areas:
                raise PositionError(f"{key}[{index}]: no area {shown(area)} on the board")


def _read_cards(state: Any, top: dict[str, Any], raw_seats: list[Any]) -> None:
    """Hands, pile and deck; a missing deck holds every card that is not in a hand or the pile."""
    deck = state.deck
    counts = list(deck.counts)
    for seat, raw in enumerate(raw_seats):
        hand = raw.get("hand", [])
        where = f"seats[{seat}].hand"
        if not isinstance(hand, list):
            raise PositionError(f"{where}: expected a list of cards, got {shown(hand)}")
        row = [0] * CARD_KINDS
        for index, card in enumerate(hand):
            row[_card(card, f"{where}[{index}]")] += 1
        deck.hands[seat] = row
    deck.pile = _card_counts(top.get("pile", {}), "pile")
    out = [sum(hand[k] for hand in deck.hands) + deck.pile[k] for k in range(CARD_KINDS)]
    for kind in range(CARD_KINDS):
        if out[kind] > counts[kind]:
            raise PositionError(
                f"pile: {out[kind]} {CARD_IDS[kind]} cards in hands and the pile, but the game has {counts[kind]}"
            )
    if "deck" in top:
        deck.deck = _card_counts(top["deck"], "deck")
        for kind in range(CARD_KINDS):
            if deck.deck[kind] + out[kind] != counts[kind]:
                raise PositionError(
                    f"deck.{CARD_IDS[kind]}: {deck.deck[kind]} in the deck and {out[kind]} in hands and the pile, "
                    f"but the game has {counts[kind]}"
                )
    else:
        deck.deck = [counts[k] - out[k] for k in range(CARD_KINDS)]
    deck.reshuffles = _int(top.get("reshuffles", 0), "reshuffles", 0, 10**6)
    to_draw = top.get("to_draw", [])
    if not isinstance(to_draw, list):
        raise PositionError("to_draw: expected a list of seats")
    deck.to_draw = [_int(s, f"to_draw[{i}]", 0, state.num_players - 1) for i, s in enumerate(to_draw)]
    dealt = top.get("dealt", state.position.turn > 1 or state.position.phase > S.DRAW_CARDS or any(deck.hands))
    if not isinstance(dealt, bool):
        raise PositionError(f"dealt: expected true or false, got {shown(dealt)}")
    deck.dealt = dealt


def _read_window_and_play(state: Any, top: dict[str, Any]) -> None:
    raw = top.get("window")
    state.window = None
    if raw is not None:
        keys = ("kind", "resume", "step", "phase", "roll_step", "held", "roller", "seat", "passes")
        w = _object(raw, "window", keys)
        if not isinstance(w.get("kind"), str):
            raise PositionError(f"window.kind: expected a window's kind, got {shown(w.get('kind'))}")
        values = {key: _int(w.get(key, -1), f"window.{key}", -1, 10**6) for key in keys[1:]}
        window = windows.Window(
            w["kind"],
            values["resume"],
            values["step"],
            values["phase"],
            max(values["seat"], 0),
            values["roll_step"],
            values["held"],
            values["roller"],
        )
        window.seat = _int(w.get("seat"), "window.seat", 0, state.num_players - 1)
        window.passes = max(values["passes"], 0)
        state.window = window
    raw = top.get("play")
    state.play = None
    if raw is not None:
        template = cardplay.Play(0, 0, -1)
        fields = _fields(template)
        p = _object(raw, "play", ("seat", "card", "resume", *fields))
        seat = _int(p.get("seat"), "play.seat", 0, state.num_players - 1)
        play = cardplay.Play(
            seat, _card(p.get("card"), "play.card"), _int(p.get("resume", -1), "play.resume", -1, 10**6)
        )
        _read_into(play, {k: v for k, v in p.items() if k in fields}, "play", frozenset(state.position.area_ids))
        state.play = play


def _read_flow(state: Any, top: dict[str, Any]) -> None:
    flow = _object(top.get("flow", {}), "flow", FLOW_KEYS)
    state.before_done = bool(_check_like(flow.get("before_done", False), False, "flow.before_done", frozenset(), ""))
    state.phase_window = _int(flow.get("phase_window", -1), "flow.phase_window", -1, 10**6)
    state.results_seen = _int(flow.get("results_seen", 0), "flow.results_seen", 0, 10**6)
    discards = flow.get("discards", [])
    if not isinstance(discards, list):
        raise PositionError("flow.discards: expected a list of seats")
    state.discards = [_int(s, f"flow.discards[{i}]", 0, state.num_players - 1) for i, s in enumerate(discards)]
    state.cut_short = bool(_check_like(flow.get("cut_short", False), False, "flow.cut_short", frozenset(), ""))
    state.action_limit = _int(flow.get("actions_left", state.action_limit), "flow.actions_left", 1, 10**7)


def _read_log(state: Any, top: dict[str, Any]) -> None:
    log = _object(top.get("log", {}), "log", ("incomes", "taxes", "cleanup", "score_lines", "final_lines", "card_log"))
    state.incomes = _records(Income, log.get("incomes", []), "log.incomes")
    state.taxes = _records(TaxLine, log.get("taxes", []), "log.taxes")
    state.final_lines = _records(ScoreLine, log.get("final_lines", []), "log.final_lines")
    state.card_log = _records(CardEvent, log.get("card_log", []), "log.card_log")
    lines = log.get("score_lines", [])
    if not isinstance(lines, list):
        raise PositionError("log.score_lines: expected a list")
    state.score_lines = []
    for index, raw in enumerate(lines):
        where = f"log.score_lines[{index}]"
        entry = _object(raw, where, ("turn", *ScoreLine._fields))
        turn = _int(entry.get("turn"), f"{where}.turn", 1, 100)
        state.score_lines.append((turn, _record(ScoreLine, {k: v for k, v in entry.items() if k != "turn"}, where)))
    cleanup = log.get("cleanup")
    state.cleanup = None
    if cleanup is not None:
        c = _object(cleanup, "log.cleanup", CleanupResult._fields)
        lists: dict[str, tuple[str, ...]] = {}
        for key in CleanupResult._fields[:-1]:
            value = c.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise PositionError(f"log.cleanup.{key}: expected a list of strings")
            lists[key] = tuple(value)
        ships = tuple(_records(ShipsRemoved, c.get("ships", []), "log.cleanup.ships"))
        state.cleanup = CleanupResult(
            lists["trade_stops"], lists["plundered"], lists["peace"], lists["war_to_peace"], ships
        )


def _read_step(state: Any, top: dict[str, Any]) -> int:
    """The step: by name (`steps.STEPS`), in the table's phase (a card's steps and windows in any)."""
    names = list(STEP_NAMES)
    raw = top.get("step")
    if raw is None:
        raise PositionError(f"step: missing (one of {', '.join(names[:4])}, …; see docs/vikingatid-positions.md)")
    if raw not in names:
        raise PositionError(f"step: {shown(raw)} is not a step (one of {', '.join(names)})")
    step = names.index(raw)
    phase = state.position.phase
    if S.STEPS[step].phase not in (S.ANY_PHASE, phase) and not S.STEPS[step].terminal:
        raise PositionError(
            f"step: {raw!r} belongs to phase {S.STEPS[step].phase} ({S.PHASE_NAMES[S.STEPS[step].phase]}), "
            f"but phase is {phase}"
        )
    if step == S.CARD_WINDOW and state.window is None:
        raise PositionError("window: the step is a card window, but no window is given")
    if step in S.CARD_STEPS and step != S.CARD_WINDOW and state.play is None:
        raise PositionError(f"play: the step {raw!r} asks for the card under way, but no play is given")
    if step == S.DRAW_CARD and not state.deck.to_draw:
        raise PositionError("to_draw: the step is draw_card, but no seat is to draw")
    if step == S.DISCARD_CARD and not state.discards:
        raise PositionError("flow.discards: the step is discard_card, but no seat is to discard")
    return step


#: The phases whose record follows its own step (`Election.step`, `Purchases.step`, `Journeys.step`), by phase.
STEP_RECORDS: Final = {S.ELECTIONS: "election", S.BUYING_SHIPS: "purchases", S.JOURNEYS: "journeys"}
#: The steps of phase 6 before a fleet sets out: at any other, the fleet in motion is `fleets[0]`.
BEFORE_LAUNCH: Final = frozenset((S.INITIATIVE_ROLL, S.JOURNEY_CHOICE, S.FLEET_SIZE_CHOICE))
#: The steps of phase 6 that the owner of the fleet in motion decides (`journeys.actor`).
OWNER_STEPS: Final = frozenset((S.MOVE, S.ENTRY_REPLY, S.ACT, S.FIGHT_ON))


def _phase_defaults(state: Any, top: dict[str, Any]) -> None:
    """What a short form leaves out of the record of the phase under way follows from `step` and `fleets`: the
    record's own step is the position's (a different one is refused, by name), and in phase 6 a fleet at sea at a
    step after the launch is the one in motion (`journeys.active`)."""
    step = state.step
    name = STEP_RECORDS.get(S.STEPS[step].phase)
    if name is None:
        return
    given = top.get(name, {})
    record = getattr(state, name)
    if "step" not in given:
        record.step = step
    elif record.step != step:
        shown_step = STEP_NAMES[record.step] if 0 <= record.step < len(STEP_NAMES) else record.step
        raise PositionError(
            f"{name}.step: {shown(given['step'])} ({shown_step!r}), but step is {STEP_NAMES[step]!r}; leave it out "
            "to take the position's step"
        )
    if name != "journeys" or step in BEFORE_LAUNCH:
        return
    if step in OWNER_STEPS and not state.position.fleets:
        raise PositionError(
            f"fleets: the step {STEP_NAMES[step]!r} is the decision of the fleet in motion, fleets[0], but no fleet "
            "is at sea"
        )
    if "active" not in given and state.position.fleets:
        record.active = True


def _check(state: Any, top: dict[str, Any]) -> None:
    """Play goes on from here: the seat to act is a seat with a legal action, each of which the rules apply."""
    if "year" in top and top["year"] != state.position.year:
        raise PositionError(
            f"year: {top['year']!r}, but turn {state.position.turn} is the year {state.position.year} on the track "
            "(VA-03); the year follows from the turn"
        )
    try:
        player = state.current_player()
        if player == TERMINAL:
            return
        if player != CHANCE and not 0 <= player < state.num_players:
            raise PositionError(f"step: no seat is to act at {STEP_NAMES[state.step]!r} (found {player})")
        if player == CHANCE and not S.STEPS[state.step].chance:
            raise PositionError(
                f"step: {STEP_NAMES[state.step]!r} is a seat's decision, but the records give no seat to make it "
                "(a fleet in motion at `fleets[0]`, the initiative, the askers?)"
            )
        legal = state.legal_actions()
        if player == CHANCE:
            total = sum(p for _, p in state.chance_outcomes())
            if not legal or abs(total - 1) > 1e-9:
                raise PositionError(f"step: chance has nothing to draw at {STEP_NAMES[state.step]!r}")
        if not legal:
            raise PositionError(f"step: seat {player + 1} has no legal action at {STEP_NAMES[state.step]!r}")
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            trial.current_player()
            trial.legal_actions()
    except PositionError:
        raise
    except Exception as error:  # a record that contradicts itself shows here, as whatever the rules trip over
        raise PositionError(
            f"step: play cannot go on from this position at {STEP_NAMES[state.step]!r} (the phases' records "
            f"disagree with the table: {type(error).__name__}: {error})"
        ) from None


def start_here(state: Any) -> None:
    """The state begins its history here: what each viewer knows starts from what it sees of the position, and
    the hands count, for dealing unseen cards again, as drawn by their holders (the pile's cards drawn and
    discarded) before the first action."""
    state.history = []
    state.visible = []
    state._known = {}
    origin = to_position(state)
    state.origin = origin
    state.origin_seen = [seen_digest(origin, None), *(seen_digest(origin, s) for s in range(state.num_players))]
    moves = []
    for kind, n in enumerate(state.deck.pile):
        for _ in range(n):
            moves.append(R.CardMove(-1, R.DRAWN, 0, -1, kind))
            moves.append(R.CardMove(-1, R.DISCARDED, 0, -1, kind))
    for seat, hand in enumerate(state.deck.hands):
        for kind, n in enumerate(hand):
            moves.extend(R.CardMove(-1, R.DRAWN, seat, -1, kind) for _ in range(n))
    state.card_moves = moves


def dealt_again(world: Any, origin: dict[str, Any], seat: int) -> None:
    """A resampled `world`'s start position: `origin` with the hands it began with dealt as `world.card_moves`
    before the first action say (the cards `seat` saw stay as they were), the deck holding the rest."""
    counts = world.deck.counts
    hands = [[0] * CARD_KINDS for _ in range(world.num_players)]
    for move in world.card_moves:
        if move.ply >= 0:
            break
        if move.verb == R.DRAWN:
            hands[move.seat][move.kind] += 1
        elif move.verb == R.DISCARDED:
            hands[move.seat][move.kind] -= 1
    start = json.loads(json.dumps(origin))
    for index, entry in enumerate(start["seats"]):
        entry["hand"] = _hand(hands[index])
    pile = _card_counts(start.get("pile", {}), "pile")
    start["deck"] = _cards([counts[k] - pile[k] - sum(hand[k] for hand in hands) for k in range(CARD_KINDS)])
    world.origin = start
    world.origin_seen = [seen_digest(start, None), *(seen_digest(start, s) for s in range(world.num_players))]
