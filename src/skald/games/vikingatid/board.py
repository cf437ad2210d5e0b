"""The known world and its tables, read from `board.toml` (or any file laid out like it) into immutable records.

The rule text prints no board; every number here is data with its provenance (`confirmed`, `inferred`,
`provisional`) and source, so a person who owns the printed board replaces the file, not the code. Loading checks
the *form* of the file (TOML, the fields and their types) and raises `BoardError` naming the entry and field at
fault; `skald.games.vikingatid.validate` checks that the board is *sound* (links, reachability, tables, rules).
"""

from __future__ import annotations

import re
import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any, Final, NamedTuple

from skald.engine.messages import shown

#: The three levels of provenance (docs/DESIGN.md, "Rules as data").
PROVENANCES: Final = ("confirmed", "inferred", "provisional")
#: Area kinds (rule text, "The known world"; "Undiscovered land areas").
VIKING_KINGDOM: Final = "viking_kingdom"
EMPIRE_CORE: Final = "empire_core"
PROVINCE: Final = "province"
LAND: Final = "land"
SEA: Final = "sea"
UNDISCOVERED: Final = "undiscovered"
KINDS: Final = (VIKING_KINGDOM, EMPIRE_CORE, PROVINCE, LAND, SEA, UNDISCOVERED)
#: Terrains: Denmark alone is land and sea in one area (rule text, "Denmark, Norway and Sweden").
TERRAINS: Final = ("land", "sea", "land_and_sea")
#: The three relations between areas: fleets use the first two, cards and the province rule the third (VA-67).
SEA_LINKS: Final = "sea_links"
RIVER_LINKS: Final = "river_links"
LAND_BORDERS: Final = "land_borders"
RELATIONS: Final = (SEA_LINKS, RIVER_LINKS, LAND_BORDERS)
#: The results of a reaction table (rule text, phase 2).
KRIG: Final = "krig"
GALD: Final = "gald"
FRED: Final = "fred"
REACTION_RESULTS: Final = (KRIG, GALD, FRED)

#: Area slots in the fixed action space (the rulings' "Size of the game"): a board may have at most this many areas.
MAX_AREAS: Final = 80

_DEFAULT_FILE: Final = "board.toml"
_LINE: Final = re.compile(r"line (\d+)")


class BoardError(ValueError):
    """A board file that cannot be read as a board; the message starts with the file, then the entry and field."""


class Provenance(NamedTuple):
    """How sure an entry is: its weakest part's level, its source, and the fields that are surer than that."""

    level: str
    source: str
    confirmed_fields: tuple[str, ...]
    inferred_fields: tuple[str, ...]


class River(NamedTuple):
    """A river fleets may sail along; `mouth` is the sea its last land area runs into ("" for none)."""

    id: str
    name: str
    name_en: str
    mouth: str
    provenance: Provenance


class Area(NamedTuple):
    """One area of the map with its symbols (danger, coins, shields), links, flags and provenance.

    `strength` is the one strength of all the area's shields (VA-64): 2 uncivilised, 3 civilised, 5 empire; 0 where
    nothing is ever fought (seas, the Viking kingdoms). Text fields that do not apply (`kingdom`, `empire`, the
    exceptions) are "", and `trade_after_mines_dry` is 0 except in Khorasan (GRUVORNA SINAR).
    """

    id: str
    name: str
    name_en: str
    name_confirmed: bool
    kind: str
    terrain: str
    kingdom: str
    empire: str
    danger: int
    trade: int
    shields: int
    strength: int
    rivers: tuple[str, ...]
    sea_links: tuple[str, ...]
    river_links: tuple[str, ...]
    land_borders: tuple[str, ...]
    no_camps: bool
    no_war_fleets: bool
    no_foreign_fleets: bool
    passable: bool
    undiscovered: bool
    opened_by: tuple[str, ...]
    north_sea_side: tuple[str, ...]
    baltic_side: tuple[str, ...]
    trade_after_mines_dry: int
    war_fleet_exception: str
    border_exception: str
    provenance: Provenance

    def links(self, relation: str) -> tuple[str, ...]:
        """The areas this one touches by `relation` (sea_links, river_links or land_borders)."""
        if relation == SEA_LINKS:
            return self.sea_links
        if relation == RIVER_LINKS:
            return self.river_links
        if relation == LAND_BORDERS:
            return self.land_borders
        raise ValueError(f"relation: expected one of {list(RELATIONS)}, got {shown(relation)}")

    @property
    def is_land(self) -> bool:
        """Whether fleets stop here to trade, fight or build (every area but a pure sea)."""
        return self.terrain != "sea"


class ReactionRow(NamedTuple):
    """One row of an empire's reaction table: a modified D10 total and its result (krig, gald or fred)."""

    roll: int
    result: str


class Empire(NamedTuple):
    """An empire: its core, provinces, Christian bonus, the cards that name it and its reaction table (phase 2)."""

    id: str
    name: str
    name_en: str
    core: str
    provinces: tuple[str, ...]
    christian_bonus: int
    card_army_strength: int
    attack_card: str
    expansion_card: str
    expansion_targets: tuple[str, ...]
    reaction_max_roll: int
    reaction: tuple[ReactionRow, ...]
    provenance: Provenance

    def reaction_to(self, total: int) -> str:
        """The result for a modified roll; a total above the table reads as its top row (VA-29)."""
        row = min(max(total, 1), self.reaction_max_roll)
        for entry in self.reaction:
            if entry.roll == row:
                return entry.result
        raise KeyError(f"empire {self.id}: reaction table has no row {row}")


class ReactionResults(NamedTuple):
    """What the three reaction results do, and their order from the Vikings' worst to best total (VA-29)."""

    krig: str
    gald: str
    fred: str
    order_low_to_high: tuple[str, ...]
    lowest: str
    provenance: Provenance


class TableRow(NamedTuple):
    """One row of a D10 table: the roll and the number it gives (silver, armies)."""

    roll: int
    value: int


class DieTable(NamedTuple):
    """A D10 table printed on the board or named by cards (the Gäld table; VA-25's card tables)."""

    key: str
    value_field: str
    rows: tuple[TableRow, ...]
    strength: int
    provenance: Provenance

    def __call__(self, roll: int) -> int:
        """The value for a D10 roll."""
        for row in self.rows:
            if row.roll == roll:
                return row.value
        raise KeyError(f"[{self.key}]: no row for roll {roll}")


class TurnBox(NamedTuple):
    """A box of the turn track: turn number, year, christianisation chance in tenths (VA-03, VA-04)."""

    turn: int
    year: int
    chance: int
    last: bool
    provenance: Provenance


class TurnTrack(NamedTuple):
    """The turn track (Spelomgångsvisare): 25 years a turn from 800, the christianisation chances, the last box."""

    first_year: int
    years_per_turn: int
    christianisation_from: int
    last_year: int
    last_year_options: tuple[str, ...]
    turns: tuple[TurnBox, ...]
    provenance: Provenance


class StartValue(NamedTuple):
    """A number of the setup or the rulebook that the game reads from data (VA-02): start silver, ship cost, …"""

    key: str
    value: int | str
    provenance: Provenance


class Discovery(NamedTuple):
    """The unknown lands, any order of discovery, and the victory points for a first discovery."""

    lands: tuple[str, ...]
    order: tuple[str, ...]
    vp: int
    provenance: Provenance


class RouteCheck(NamedTuple):
    """A route the rule text implies, which the validator finds under the movement rules (and may bound)."""

    id: str
    label: str
    starts: tuple[str, ...]
    targets: tuple[str, ...]
    fleets: tuple[str, ...]
    via_river: str
    expect_danger: tuple[int, ...]
    provenance: Provenance


class LinkNote(NamedTuple):
    """A link whose provenance is not the file's default for links, or that needs a word."""

    relation: str
    between: tuple[str, ...]
    provenance: Provenance


class Board:
    """The whole board: areas, rivers, empires and their reaction tables, the D10 tables and the turn track."""

    def __init__(
        self,
        source: str,
        areas: tuple[Area, ...],
        rivers: tuple[River, ...],
        empires: tuple[Empire, ...],
        reaction_results: ReactionResults,
        tables: tuple[DieTable, ...],
        turn_track: TurnTrack,
        start_values: tuple[StartValue, ...],
        discovery: Discovery,
        route_checks: tuple[RouteCheck, ...],
        link_notes: tuple[LinkNote, ...],
        sections: tuple[tuple[str, Provenance], ...],
    ) -> None:
        self.source: Final = source
        self.areas: Final = areas
        self.rivers: Final = rivers
        self.empires: Final = empires
        self.reaction_results: Final = reaction_results
        self.tables: Final = tables
        self.turn_track: Final = turn_track
        self.start_values: Final = start_values
        self.discovery: Final = discovery
        self.route_checks: Final = route_checks
        self.link_notes: Final = link_notes
        #: The file's plain tables that carry only a provenance ([meta], [links]), by name.
        self.sections: Final = sections
        # The first entry of an id wins; the validator reports a repeated id.
        self._areas: dict[str, Area] = {}
        for area in areas:
            self._areas.setdefault(area.id, area)
        self._empires: dict[str, Empire] = {}
        for empire in empires:
            self._empires.setdefault(empire.id, empire)

    def __repr__(self) -> str:
        return f"<Vikingatid board from {self.source}: {len(self.areas)} areas, {len(self.empires)} empires>"

    def has_area(self, area_id: str) -> bool:
        """Whether the board has an area with this id."""
        return area_id in self._areas

    def area(self, area_id: str) -> Area:
        """The area with this id; `KeyError` naming it otherwise."""
        try:
            return self._areas[area_id]
        except KeyError:
            raise KeyError(f"no area {shown(area_id)} on the board") from None

    def empire(self, empire_id: str) -> Empire:
        """The empire with this id; `KeyError` naming it otherwise."""
        try:
            return self._empires[empire_id]
        except KeyError:
            raise KeyError(f"no empire {shown(empire_id)} on the board") from None

    def has_empire(self, empire_id: str) -> bool:
        """Whether the board has an empire with this id."""
        return empire_id in self._empires

    def table(self, key: str) -> DieTable:
        """A D10 table by its key: gald_table, attack_armies_table, vaeringagarde_price_table."""
        for table in self.tables:
            if table.key == key:
                return table
        raise KeyError(f"no table [{key}] on the board")

    def gald(self, roll: int) -> int:
        """Silver paid on a Gäld result for a D10 roll (rule text, phase 2)."""
        return self.table("gald_table")(roll)

    def start_value(self, key: str) -> int | str:
        """A setup or rulebook number by key (VA-02): start_silver, home_silver, ship_cost, max_fleet, …"""
        for value in self.start_values:
            if value.key == key:
                return value.value
        raise KeyError(f"no start_value {shown(key)} on the board")

    def year(self, turn: int) -> int:
        """The year of a turn: 775 + 25 × turn with the printed track (VA-03)."""
        track = self.turn_track
        return track.first_year + track.years_per_turn * (turn - 1)

    def kingdom_area(self, kingdom: str) -> Area:
        """The homeland of a Viking kingdom (denmark, norway, sweden)."""
        for area in self.areas:
            if area.kind == VIKING_KINGDOM and area.kingdom == kingdom:
                return area
        raise KeyError(f"no Viking kingdom {shown(kingdom)} on the board")


# -- reading ------------------------------------------------------------------------------------------------


class Entry:
    """One TOML table being read: typed getters that name the entry and field, and a check for unknown fields. The
    board's files raise `BoardError`; another data file of the game (the cards) passes its own error class."""

    def __init__(self, source: str, where: str, data: Any, error: type[ValueError] = BoardError) -> None:
        if not isinstance(data, dict):
            raise error(f"{source}: {where}: expected a table, got {shown(data)}")
        self.source = source
        self.where = where
        self.data: dict[str, Any] = data
        self.used: set[str] = set()
        self.error = error

    def fail(self, field: str, message: str) -> ValueError:
        return self.error(f"{self.source}: {self.where}.{field}: {message}")

    def _get(self, field: str, required: bool) -> Any:
        self.used.add(field)
        if field not in self.data:
            if required:
                raise self.fail(field, "missing")
            return None
        return self.data[field]

    def text(self, field: str, required: bool = True) -> str:
        value = self._get(field, required)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise self.fail(field, f"expected a string, got {shown(value)}")
        return value

    def integer(self, field: str, required: bool = True) -> int:
        value = self._get(field, required)
        if value is None:
            return 0
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(field, f"expected an integer, got {shown(value)}")
        return value

    def flag(self, field: str, required: bool = False) -> bool:
        value = self._get(field, required)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {shown(value)}")
        return value

    def names(self, field: str, required: bool = False) -> tuple[str, ...]:
        value = self._get(field, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise self.fail(field, f"expected a list of strings, got {shown(value)}")
        return tuple(value)

    def integers(self, field: str, required: bool = False) -> tuple[int, ...]:
        value = self._get(field, required)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            raise self.fail(field, f"expected a list of integers, got {shown(value)}")
        return tuple(value)

    def entries(self, field: str) -> list[Any]:
        value = self._get(field, True)
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list of tables, got {shown(value)}")
        return value

    def provenance(self) -> Provenance:
        """The entry's provenance; a missing level reads as "" for the validator to report with the rest."""
        return Provenance(
            self.text("provenance", required=False),
            self.text("source", required=False),
            self.names("confirmed_fields"),
            self.names("inferred_fields"),
        )

    def done(self, also: tuple[str, ...] = ()) -> None:
        """Refuse fields this reader does not know (a misspelt field would otherwise be silently ignored)."""
        unknown = sorted(set(self.data) - self.used - set(also))
        if unknown:
            raise self.fail(unknown[0], "unknown field (a misspelling?)")
        for field in (*self.names("confirmed_fields"), *self.names("inferred_fields")):
            if field not in self.data:
                raise self.fail(field, "named in confirmed_fields/inferred_fields but the entry has no such field")


def _label(data: Any, index: int, kind: str) -> str:
    ident = data.get("id") if isinstance(data, dict) else None
    return f"{kind} {ident!r}" if isinstance(ident, str) else f"{kind}[{index}]"


def _read_area(source: str, index: int, data: Any) -> Area:
    e = Entry(source, _label(data, index, "area"), data)
    strength = e.data.get("strength")
    if isinstance(strength, list):
        raise e.fail("strength", f"one strength per area (VA-64), got {shown(strength)}")
    area = Area(
        id=e.text("id"),
        name=e.text("name"),
        name_en=e.text("name_en"),
        name_confirmed=e.flag("name_confirmed"),
        kind=e.text("kind"),
        terrain=e.text("terrain"),
        kingdom=e.text("kingdom", required=False),
        empire=e.text("empire", required=False),
        danger=e.integer("danger"),
        trade=e.integer("trade"),
        shields=e.integer("shields"),
        strength=e.integer("strength", required=False),
        rivers=e.names("rivers"),
        sea_links=e.names(SEA_LINKS, required=True),
        river_links=e.names(RIVER_LINKS, required=True),
        land_borders=e.names(LAND_BORDERS, required=True),
        no_camps=e.flag("no_camps"),
        no_war_fleets=e.flag("no_war_fleets"),
        no_foreign_fleets=e.flag("no_foreign_fleets"),
        passable=e.flag("passable"),
        undiscovered=e.flag("undiscovered"),
        opened_by=e.names("opened_by"),
        north_sea_side=e.names("north_sea_side"),
        baltic_side=e.names("baltic_side"),
        trade_after_mines_dry=e.integer("trade_after_mines_dry", required=False),
        war_fleet_exception=e.text("war_fleet_exception", required=False),
        border_exception=e.text("border_exception", required=False),
        provenance=e.provenance(),
    )
    e.done()
    return area


def _read_river(source: str, index: int, data: Any) -> River:
    e = Entry(source, _label(data, index, "river"), data)
    river = River(e.text("id"), e.text("name"), e.text("name_en"), e.text("mouth", False), e.provenance())
    e.done()
    return river


def _read_empire(source: str, index: int, data: Any) -> Empire:
    e = Entry(source, _label(data, index, "empire"), data)
    rows = []
    for number, row in enumerate(e.entries("reaction")):
        r = Entry(source, f"{e.where}.reaction[{number}]", row)
        rows.append(ReactionRow(r.integer("roll"), r.text("result")))
        r.done()
    empire = Empire(
        id=e.text("id"),
        name=e.text("name"),
        name_en=e.text("name_en"),
        core=e.text("core"),
        provinces=e.names("provinces", required=True),
        christian_bonus=e.integer("christian_bonus"),
        card_army_strength=e.integer("card_army_strength"),
        attack_card=e.text("attack_card", required=False),
        expansion_card=e.text("expansion_card", required=False),
        expansion_targets=e.names("expansion_targets"),
        reaction_max_roll=e.integer("reaction_max_roll"),
        reaction=tuple(rows),
        provenance=e.provenance(),
    )
    e.done()
    return empire


def _read_table(source: str, data: dict[str, Any], key: str, value_field: str) -> DieTable:
    e = Entry(source, f"[{key}]", data.get(key))
    rows = []
    for number, row in enumerate(e.entries("rows")):
        r = Entry(source, f"[{key}].rows[{number}]", row)
        rows.append(TableRow(r.integer("roll"), r.integer(value_field)))
        r.done()
    table = DieTable(key, value_field, tuple(rows), e.integer("strength", required=False), e.provenance())
    e.done()
    return table


def _read_turn_track(source: str, data: Any) -> TurnTrack:
    e = Entry(source, "[turn_track]", data)
    boxes = []
    for number, row in enumerate(e.entries("turns")):
        r = Entry(source, f"[turn_track].turns[{number}]", row)
        boxes.append(TurnBox(r.integer("turn"), r.integer("year"), r.integer("chance"), r.flag("last"), r.provenance()))
        r.done()
    track = TurnTrack(
        e.integer("first_year"),
        e.integer("years_per_turn"),
        e.integer("christianisation_from"),
        e.integer("last_year"),
        e.names("last_year_options"),
        tuple(boxes),
        e.provenance(),
    )
    e.done()
    return track


def _read_start_value(source: str, index: int, data: Any) -> StartValue:
    where = f"start_value {data.get('key')!r}" if isinstance(data, dict) else f"start_value[{index}]"
    e = Entry(source, where, data)
    value = e.data.get("value")
    if not isinstance(value, (int, str)) or isinstance(value, bool):
        raise e.fail("value", f"expected an integer or a string, got {shown(value)}")
    e.used.add("value")
    start = StartValue(e.text("key"), value, e.provenance())
    e.done()
    return start


def _read_reaction_results(source: str, data: Any) -> ReactionResults:
    e = Entry(source, "[reaction_results]", data)
    results = ReactionResults(
        e.text(KRIG), e.text(GALD), e.text(FRED), e.names("order_low_to_high", True), e.text("lowest"), e.provenance()
    )
    e.done()
    return results


def _read_discovery(source: str, data: Any) -> Discovery:
    e = Entry(source, "[discovery]", data)
    discovery = Discovery(e.names("lands", True), e.names("order"), e.integer("vp"), e.provenance())
    e.done()
    return discovery


def _read_route_check(source: str, index: int, data: Any) -> RouteCheck:
    e = Entry(source, _label(data, index, "route_check"), data)
    route = RouteCheck(
        e.text("id"),
        e.text("label"),
        e.names("from", True),
        e.names("targets", True),
        e.names("fleets", True),
        e.text("via_river", False),
        e.integers("expect_danger"),
        e.provenance(),
    )
    e.done()
    return route


def _read_link_note(source: str, index: int, data: Any) -> LinkNote:
    e = Entry(source, f"link_note[{index}]", data)
    note = LinkNote(e.text("relation"), e.names("between", True), e.provenance())
    e.done()
    return note


def _section(source: str, data: dict[str, Any], key: str) -> tuple[str, Provenance]:
    e = Entry(source, f"[{key}]", data.get(key))
    provenance = e.provenance()
    e.done(also=("rule_text", "note"))
    return key, provenance


def _entries(source: str, data: dict[str, Any], key: str, optional: bool = False) -> list[Any]:
    value = data.get(key, [] if optional else None)
    if not isinstance(value, list):
        raise BoardError(f"{source}: [[{key}]]: expected a list of [[{key}]] entries, got {shown(value)}")
    return value


_TOP_LEVEL: Final = frozenset(
    {
        "schema_version", "game", "meta", "links", "river", "area", "reaction_results", "empire", "gald_table",
        "attack_armies_table", "vaeringagarde_price_table", "turn_track", "start_value", "discovery",
        "route_check", "link_note",
    }
)  # fmt: skip


def _entry_at_line(text: str, line: int) -> str:
    """The [[area]] (or other entry) a TOML error's line falls in, so the message names the area at fault."""
    lines = text.splitlines()[: max(line, 0)]
    for raw in reversed(lines):
        stripped = raw.strip()
        match = re.match(r"(id|key)\s*=\s*\"([^\"]*)\"", stripped)
        if match:
            return f" (in {match.group(1)} {match.group(2)!r})"
        if stripped.startswith("["):
            return f" (in {stripped})"
    return ""


def parse_board(text: str, source: str = _DEFAULT_FILE) -> Board:
    """A board from the text of a board file; `BoardError` names the file, entry and field at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _LINE.search(str(error))
        where = _entry_at_line(text, int(found.group(1))) if found else ""
        raise BoardError(f"{source}: not valid TOML: {error}{where}") from None
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise BoardError(f"{source}: {unknown[0]}: unknown top-level entry (a misspelling?)")
    if data.get("schema_version") != 1:
        raise BoardError(f"{source}: schema_version: expected 1, got {shown(data.get('schema_version'))}")
    return Board(
        source=source,
        areas=tuple(_read_area(source, i, a) for i, a in enumerate(_entries(source, data, "area"))),
        rivers=tuple(_read_river(source, i, r) for i, r in enumerate(_entries(source, data, "river"))),
        empires=tuple(_read_empire(source, i, e) for i, e in enumerate(_entries(source, data, "empire"))),
        reaction_results=_read_reaction_results(source, data.get("reaction_results")),
        tables=(
            _read_table(source, data, "gald_table", "silver"),
            _read_table(source, data, "attack_armies_table", "armies"),
            _read_table(source, data, "vaeringagarde_price_table", "silver"),
        ),
        turn_track=_read_turn_track(source, data.get("turn_track")),
        start_values=tuple(
            _read_start_value(source, i, s) for i, s in enumerate(_entries(source, data, "start_value"))
        ),
        discovery=_read_discovery(source, data.get("discovery")),
        route_checks=tuple(
            _read_route_check(source, i, r) for i, r in enumerate(_entries(source, data, "route_check", True))
        ),
        link_notes=tuple(
            _read_link_note(source, i, n) for i, n in enumerate(_entries(source, data, "link_note", True))
        ),
        sections=(_section(source, data, "meta"), _section(source, data, "links")),
    )


def default_board_path() -> str:
    """Where the package's board file lies (the loader's default)."""
    return str(files("skald.games.vikingatid").joinpath("data", _DEFAULT_FILE))


def load_board(path: str | Path | None = None) -> Board:
    """The board in the file at `path`, or the package's `board.toml`; `BoardError` if it cannot be read as one.

    This checks the file's form only; `skald.games.vikingatid.validate.checked_board` also proves it sound.
    """
    if path is None:
        text = files("skald.games.vikingatid").joinpath("data", _DEFAULT_FILE).read_text(encoding="utf-8")
        return parse_board(text, _DEFAULT_FILE)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise BoardError(f"{path}: cannot read: {reason}") from None
    return parse_board(text, str(path))
