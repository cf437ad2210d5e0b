"""The 112 Vikingatid cards, read from `cards.toml` (or any file laid out like it) into immutable records.

The rule text prints every card's text but neither how many copies of each kind the deck holds nor the tables the
cards name (VA-12, VA-25), and three cards lost their titles in translation (VA-13). Those parts are provisional
data, so a person who owns the printed cards replaces the file, not the code. Loading checks that the file is a
deck (42 kinds, 112 cards, known windows and targets, complete D10 tables, a PETJENEGHORDER route along land borders
of the board) and raises `CardDataError` naming the card or table and the field at fault.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from itertools import pairwise
from pathlib import Path
from typing import Any, Final, NamedTuple

from skald.engine.messages import shown
from skald.games.vikingatid.board import PROVENANCES, Board, Entry, Provenance, load_board

#: The card windows a card may name (VA-08). "any" is every window and the acting player's own decisions; the
#: others are the moments a card's own "(Play ...)" text names, where alone it may be played.
ANY: Final = "any"
AFTER_INITIATIVE: Final = "after_initiative"
BEFORE_FIGHT: Final = "before_fight"
AFTER_OWN_ROLL: Final = "after_own_roll"
AFTER_DISTRIBUTION: Final = "after_distribution"
ELECTION_ROLL: Final = "election_roll"
AFTER_ELECTION: Final = "after_election"
TRADE_JOURNEY: Final = "trade_journey"
BEFORE_DANGER_SEA: Final = "before_danger_sea"
BEFORE_DANGER_LAND: Final = "before_danger_land"
JOURNEY_START: Final = "journey_start"
WINDOWS: Final = (
    ANY,
    AFTER_INITIATIVE,
    BEFORE_FIGHT,
    AFTER_OWN_ROLL,
    AFTER_DISTRIBUTION,
    ELECTION_ROLL,
    AFTER_ELECTION,
    TRADE_JOURNEY,
    BEFORE_DANGER_SEA,
    BEFORE_DANGER_LAND,
    JOURNEY_START,
)
#: What a player names when he plays a card; "none" when the card acts on the moment at hand or on what it lists.
TARGETS: Final = ("none", "area", "seat", "kingdom", "fleet", "king")
#: "PEST! ... (3 different cards!)" makes 40 texts into 42 kinds; "The game includes 112 cards" (VA-12).
KIND_COUNT: Final = 42
CARD_COUNT: Final = 112
#: Every card table is read with one D10 (VA-07).
DIE_FACES: Final = 10

_DEFAULT_FILE: Final = "cards.toml"
_LINE: Final = re.compile(r"line (\d+)")
_ID: Final = re.compile(r"[a-z][a-z0-9_]*")
_RULE: Final = re.compile(r"VA-\d\d")
_TOP_LEVEL: Final = frozenset(
    {"schema_version", "game", "meta", "hand", "attack_armies", "varangian_price", "pecheneg", "expansion", "card"}
)


class CardDataError(ValueError):
    """A card file that cannot be read as the deck; the message starts with the file, then the entry and field."""


@dataclass(frozen=True)
class CardKind:
    """One kind of card: its place in the rule text's list (`index`, 0–41), its printed words, copies and windows.

    A frozen dataclass rather than a NamedTuple because its fields `index` and `count` would hide the tuple methods
    of those names (the Vikings components do the same with `count`).

    `title` is the Swedish title and `name` the English one, as printed (provisional for the three untitled cards,
    VA-13); `text` is the card's text verbatim with its "(Play ...)" timing; `windows` are names from `WINDOWS`;
    `target` is one of `TARGETS`; `rule` is the rulings item (VA-nn) that settles the card's open points.
    """

    index: int
    id: str
    title: str
    name: str
    text: str
    count: int
    windows: tuple[str, ...]
    target: str
    rule: str

    def playable_in(self, window: str) -> bool:
        """Whether the card may be played in `window`: a card that names no time fits every window (VA-08)."""
        return ANY in self.windows or window in self.windows


class Band(NamedTuple):
    """A run of D10 faces `low`–`high` that all give `value` (armies or silver)."""

    low: int
    high: int
    value: int


def _band_value(bands: tuple[Band, ...], face: int, table: str) -> int:
    """The value of a D10 face in a table whose bands the loader proved to cover 1–10 exactly once."""
    for band in bands:
        if band.low <= face <= band.high:
            return band.value
    raise ValueError(f"[{table}]: a D10 face is 1–{DIE_FACES}, got {shown(face)}")


class AttackTable(NamedTuple):
    """Armies sent by the five attack cards and MAGYARHORDER, by a D10 (VA-25); their strength is always 5."""

    bands: tuple[Band, ...]
    strength: int
    provenance: Provenance

    def armies(self, face: int) -> int:
        """How many armies a D10 face sends."""
        return _band_value(self.bands, face, "attack_armies")


class VarangianTable(NamedTuple):
    """VÄRINGAGARDE: up to `max_ships` war ships sold in `area` (Miklagård) at a D10's silver per ship (VA-25)."""

    bands: tuple[Band, ...]
    max_ships: int
    area: str
    provenance: Provenance

    def price(self, face: int) -> int:
        """Silver per ship for a D10 face."""
        return _band_value(self.bands, face, "varangian_price")


class PechenegRoute(NamedTuple):
    """PETJENEGHORDER: `armies` of `strength` moving along the printed `route`, a chain of land borders."""

    route: tuple[str, ...]
    armies: int
    strength: int
    provenance: Provenance


class Expansion(NamedTuple):
    """The three expansion cards: "Four ... armies (strength 5) invade one of the areas below"."""

    armies: int
    strength: int
    provenance: Provenance


class Hand(NamedTuple):
    """Cards dealt at setup, drawn in phase 1, and kept at most at the end of a turn (VA-11)."""

    start: int
    draw: int
    limit: int
    provenance: Provenance


class CardData:
    """The deck: the 42 kinds in file order, their counts, the card tables and the hand sizes."""

    def __init__(
        self,
        source: str,
        kinds: tuple[CardKind, ...],
        provenances: tuple[Provenance, ...],
        hand: Hand,
        attack_table: AttackTable,
        varangian_table: VarangianTable,
        pecheneg: PechenegRoute,
        expansion: Expansion,
        meta: Provenance,
    ) -> None:
        self.source: Final = source
        self.kinds: Final = kinds
        #: Each kind's provenance, in the order of `kinds`.
        self.provenances: Final = provenances
        self.by_id: Final[dict[str, CardKind]] = {kind.id: kind for kind in kinds}
        self.counts: Final = tuple(kind.count for kind in kinds)
        #: Each kind's windows (VA-08), in the order of `kinds`.
        self.windows: Final = tuple(kind.windows for kind in kinds)
        self.hand: Final = hand
        self.attack_table: Final = attack_table
        self.varangian_table: Final = varangian_table
        self.pecheneg: Final = pecheneg
        self.expansion: Final = expansion
        self.meta: Final = meta

    def __repr__(self) -> str:
        return f"<Vikingatid cards from {self.source}: {len(self.kinds)} kinds, {sum(self.counts)} cards>"

    def kind(self, card_id: str) -> CardKind:
        """The kind with this id; `KeyError` naming it otherwise."""
        try:
            return self.by_id[card_id]
        except KeyError:
            raise KeyError(f"no card kind {shown(card_id)}") from None

    def deck(self) -> tuple[int, ...]:
        """The whole deck as kind indices, each repeated by its count, in file order (a fresh, unshuffled deck)."""
        return tuple(kind.index for kind in self.kinds for _ in range(kind.count))

    def attack_armies(self, face: int) -> int:
        """Armies an attack card or MAGYARHORDER sends for a D10 face (VA-25)."""
        return self.attack_table.armies(face)

    def varangian_price(self, face: int) -> int:
        """Silver per war ship VÄRINGAGARDE pays for a D10 face (VA-25)."""
        return self.varangian_table.price(face)


# -- reading ------------------------------------------------------------------------------------------------


class _Entry(Entry):
    """A table of the card file: the board's reader (`board.Entry`) raising `CardDataError`, with the two checks the
    cards need besides."""

    def __init__(self, source: str, where: str, data: Any) -> None:
        super().__init__(source, where, data, CardDataError)

    def at_least(self, field: str, lowest: int) -> int:
        """A required integer field of at least `lowest` (counts, armies and prices are never negative)."""
        value = self.integer(field)
        if value < lowest:
            raise self.fail(field, f"expected at least {lowest}, got {value}")
        return value

    def checked_provenance(self) -> Provenance:
        """The entry's provenance, whose level must be one of the three (docs/DESIGN.md, "Rules as data")."""
        provenance = self.provenance()
        if provenance.level not in PROVENANCES:
            raise self.fail("provenance", f"expected one of {list(PROVENANCES)}, got {shown(provenance.level)}")
        return provenance


def _read_windows(e: _Entry) -> tuple[str, ...]:
    """A card's windows: known names, none twice, and "any" alone (it already means every window)."""
    windows = e.names("windows", required=True)
    if not windows:
        raise e.fail("windows", "expected at least one window")
    for window in windows:
        if window not in WINDOWS:
            raise e.fail("windows", f"unknown window {shown(window)}; expected names from {list(WINDOWS)}")
    if len(set(windows)) != len(windows):
        raise e.fail("windows", f"a window is named twice in {list(windows)}")
    if ANY in windows and len(windows) > 1:
        raise e.fail("windows", '"any" already means every window; name it alone')
    return windows


def _read_card(source: str, index: int, data: Any) -> tuple[CardKind, Provenance]:
    """One [[card]] entry, checked field by field."""
    ident = data.get("id") if isinstance(data, dict) else None
    e = _Entry(source, f"card {ident!r}" if isinstance(ident, str) else f"card[{index}]", data)
    card_id = e.text("id")
    if not _ID.fullmatch(card_id):
        raise e.fail("id", f"expected lower-case letters, digits and _, got {shown(card_id)}")
    title, name, text = e.text("title"), e.text("name"), e.text("text")
    for field, value in (("title", title), ("name", name), ("text", text)):
        if not value.strip():
            raise e.fail(field, "empty")
    count = e.at_least("count", 1)
    windows = _read_windows(e)
    target = e.text("target")
    if target not in TARGETS:
        raise e.fail("target", f"expected one of {list(TARGETS)}, got {shown(target)}")
    rule = e.text("rule")
    if not _RULE.fullmatch(rule):
        raise e.fail("rule", f"expected a rulings item such as 'VA-08', got {shown(rule)}")
    provenance = e.checked_provenance()
    e.done()
    return CardKind(index, card_id, title, name, text, count, windows, target, rule), provenance


def _read_kinds(source: str, data: dict[str, Any]) -> tuple[tuple[CardKind, ...], tuple[Provenance, ...]]:
    """The [[card]] entries: 42 kinds with distinct ids whose counts make the 112 cards (VA-12)."""
    entries = data.get("card")
    if not isinstance(entries, list):
        raise CardDataError(f"{source}: [[card]]: expected a list of [[card]] entries, got {shown(entries)}")
    kinds: list[CardKind] = []
    provenances: list[Provenance] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        kind, provenance = _read_card(source, index, entry)
        if kind.id in seen:
            raise CardDataError(
                f"{source}: card {kind.id!r}.id: duplicate id (entries {seen[kind.id]} and {index} of [[card]])"
            )
        seen[kind.id] = index
        kinds.append(kind)
        provenances.append(provenance)
    if len(kinds) != KIND_COUNT:
        raise CardDataError(f"{source}: [[card]]: expected {KIND_COUNT} kinds (VA-12), got {len(kinds)}")
    total = sum(kind.count for kind in kinds)
    if total != CARD_COUNT:
        raise CardDataError(f"{source}: [[card]].count: the counts sum to {total}, expected {CARD_COUNT} (VA-12)")
    return tuple(kinds), tuple(provenances)


def _read_bands(e: _Entry, value_field: str) -> tuple[Band, ...]:
    """A D10 table's bands: each face 1–10 in exactly one band, so every roll has its value."""
    bands: list[Band] = []
    for number, row in enumerate(e.entries("bands")):
        r = _Entry(e.source, f"{e.where}.bands[{number}]", row)
        band = Band(r.at_least("low", 1), r.at_least("high", 1), r.at_least(value_field, 0))
        r.done()
        if band.low > band.high:
            raise e.fail("bands", f"band {number} runs from {band.low} down to {band.high}")
        bands.append(band)
    following = 1
    for band in sorted(bands):
        if band.low > following:
            raise e.fail("bands", f"faces {following}–{band.low - 1} are in no band (a gap)")
        if band.low < following:
            raise e.fail("bands", f"face {band.low} is in two bands")
        following = band.high + 1
    if following != DIE_FACES + 1:
        if following <= DIE_FACES:
            raise e.fail("bands", f"faces {following}–{DIE_FACES} are in no band (a gap)")
        raise e.fail("bands", f"faces above {DIE_FACES} are not on a D10")
    return tuple(bands)


def _area_on_board(e: _Entry, field: str, area_id: str, board: Board) -> None:
    """Refuse an area id the board does not have (a card table must name real areas)."""
    if not board.has_area(area_id):
        raise e.fail(field, f"no area {shown(area_id)} on the board ({board.source})")


def _read_route(e: _Entry, board: Board) -> tuple[str, ...]:
    """PETJENEGHORDER's route: land areas of the board, each sharing a land border with the next (VA-25)."""
    route = e.names("route", required=True)
    if not route:
        raise e.fail("route", "expected at least one area")
    for area_id in route:
        _area_on_board(e, "route", area_id, board)
        if not board.area(area_id).is_land:
            raise e.fail("route", f"{area_id!r} is a sea; the hordes move over land")
    for here, there in pairwise(route):
        if there not in board.area(here).land_borders:
            raise e.fail("route", f"{here!r} and {there!r} share no land border on the board ({board.source})")
    return route


def _read_tables(
    source: str, data: dict[str, Any], board: Board
) -> tuple[Hand, AttackTable, VarangianTable, PechenegRoute, Expansion]:
    """The card tables: hand sizes, the attack armies, VÄRINGAGARDE's price, the hordes' route, the expansions."""
    e = _Entry(source, "[hand]", data.get("hand"))
    hand = Hand(e.at_least("start", 0), e.at_least("draw", 0), e.at_least("limit", 0), e.checked_provenance())
    e.done()
    e = _Entry(source, "[attack_armies]", data.get("attack_armies"))
    attack = AttackTable(_read_bands(e, "armies"), e.at_least("strength", 1), e.checked_provenance())
    e.done()
    e = _Entry(source, "[varangian_price]", data.get("varangian_price"))
    area = e.text("area")
    _area_on_board(e, "area", area, board)
    varangian = VarangianTable(_read_bands(e, "silver"), e.at_least("max_ships", 1), area, e.checked_provenance())
    e.done()
    e = _Entry(source, "[pecheneg]", data.get("pecheneg"))
    pecheneg = PechenegRoute(
        _read_route(e, board), e.at_least("armies", 1), e.at_least("strength", 1), e.checked_provenance()
    )
    e.done()
    e = _Entry(source, "[expansion]", data.get("expansion"))
    expansion = Expansion(e.at_least("armies", 1), e.at_least("strength", 1), e.checked_provenance())
    e.done()
    return hand, attack, varangian, pecheneg, expansion


def _entry_at_line(text: str, line: int) -> str:
    """The [[card]] (or table) a TOML error's line falls in, so the message names the card at fault."""
    for raw in reversed(text.splitlines()[: max(line, 0)]):
        stripped = raw.strip()
        match = re.match(r"id\s*=\s*\"([^\"]*)\"", stripped)
        if match:
            return f" (in card {match.group(1)!r})"
        if stripped.startswith("["):
            return f" (in {stripped})"
    return ""


def parse_cards(text: str, source: str = _DEFAULT_FILE, board: Board | None = None) -> CardData:
    """The deck from the text of a card file, with areas checked on `board` (the package's board by default)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _LINE.search(str(error))
        where = _entry_at_line(text, int(found.group(1))) if found else ""
        raise CardDataError(f"{source}: not valid TOML: {error}{where}") from None
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise CardDataError(f"{source}: {unknown[0]}: unknown top-level entry (a misspelling?)")
    if data.get("schema_version") != 1:
        raise CardDataError(f"{source}: schema_version: expected 1, got {shown(data.get('schema_version'))}")
    meta = _Entry(source, "[meta]", data.get("meta"))
    meta_provenance = meta.checked_provenance()
    meta.done(also=("rule_text", "note"))
    kinds, provenances = _read_kinds(source, data)
    hand, attack, varangian, pecheneg, expansion = _read_tables(source, data, board or load_board())
    return CardData(source, kinds, provenances, hand, attack, varangian, pecheneg, expansion, meta_provenance)


def default_cards_path() -> str:
    """Where the package's card file lies (the loader's default)."""
    return str(files("skald.games.vikingatid").joinpath("data", _DEFAULT_FILE))


def load_cards(path: str | Path | None = None, board: Board | None = None) -> CardData:
    """The deck in the file at `path`, or the package's `cards.toml`; `CardDataError` if it is not a deck."""
    if path is None:
        text = files("skald.games.vikingatid").joinpath("data", _DEFAULT_FILE).read_text(encoding="utf-8")
        return parse_cards(text, _DEFAULT_FILE, board)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise CardDataError(f"{path}: cannot read: {reason}") from None
    return parse_cards(text, str(path), board)


#: The package's deck once read (a list, not a global rebinding, so a compiled module may fill it).
_LOADED: Final[list[CardData]] = []


def cards() -> CardData:
    """The package's deck, read from `cards.toml` on first use and shared after: the file never changes in play."""
    if not _LOADED:
        _LOADED.append(load_cards())
    return _LOADED[0]
