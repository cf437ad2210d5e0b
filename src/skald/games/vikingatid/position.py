"""The position of a game of Vikingatid: everything on the table and in front of the players, as a plain class.

What is on the board: each player's ships standing in areas (placed in phase 5, or left by a journey under
`journey_end: stay`) and the fleets under way with their danger count; each player's trading and war camps per area;
the trade stop and plundered markers; which empire each area belongs to (cards move provinces); the
unknown lands discovered and by whom. In front of the players: kingdom, home country (after emigrating), silver,
victory points, religion. Per Viking kingdom: king, treasury, War / Peace? marker (and, under `war_tracking:
per_pair`, each pair's state), King's Peaces. The turn on the track (its year follows, VA-03), the phase and the
turn's first seat (VA-06).

Every change of ships, camps and silver goes through a method that also keeps a ledger (what entered and left the
game), so `problems(table)` can prove them conserved; rule modules never write the lists directly. The class is
mypyc-ready (docs/engine.md, "Writing a game that compiles"): typed fields assigned in `__init__`, `clone()` through
the constructor, records as NamedTuples.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, Final, NamedTuple

from skald.games.vikingatid.actions import KINGDOMS, SHIP_TYPES, TRADING, WAR
from skald.games.vikingatid.board import Board
from skald.games.vikingatid.setup import NOBODY, KingdomChoice, start_position

#: The marker of a Viking kingdom (rule text, "War between Viking kingdoms"; VA-40): none, War, or Peace?.
NO_MARKER: Final = ""
WAR_MARKER: Final = "war"
PEACE_PENDING: Final = "peace?"
WAR_STATES: Final = (NO_MARKER, WAR_MARKER, PEACE_PENDING)
#: The pairs of kingdoms, by index into KINGDOMS, for per-pair war states and King's Peaces.
KINGDOM_PAIRS: Final = ((0, 1), (0, 2), (1, 2))
#: The phase before the first turn: the kingdom choice (setup).
SETUP_PHASE: Final = 0


class Fleet(NamedTuple):
    """A fleet under way (6.1, 6.2): its owner, type, ships, the area it is in, the danger counted since its last
    break (VA-48), the moves made this journey (VA-50) and the sea it entered its land area from (VA-46; "" if
    none)."""

    owner: int
    kind: str
    size: int
    area: str
    danger: int
    moves: int
    entered_from: str


def pair_index(first: str, second: str) -> int:
    """The index in KINGDOM_PAIRS of two different kingdoms, in either order."""
    a, b = sorted((KINGDOMS.index(first), KINGDOMS.index(second)))
    if a == b:
        raise ValueError(f"kingdoms: a pair needs two different kingdoms, got {first!r} twice")
    return KINGDOM_PAIRS.index((a, b))


class Position:
    """The whole position. Build it with `Position(board, num_players, kingdom_choice)`, the setup's start values
    (VA-02); `clone()` copies it through the constructor.

    Per-area lists are indexed by the area's slot (its place in the board file); ships and camps by
    `seat`, then `type_index * num_areas + slot` (trading 0, war 1).
    """

    def __init__(
        self, board: Board, num_players: int, kingdom_choice: str = "free", source: Position | None = None
    ) -> None:
        if not 2 <= num_players <= 6:
            raise ValueError(f"num_players: Vikingatid is for 2 to 6 players, got {num_players}")
        self.board: Final = board
        self.num_players: Final = num_players
        self.num_areas: Final = len(board.areas)
        # The board's area ids and slots, built once and shared by every copy (no rule changes them).
        self.area_ids: Final[tuple[str, ...]] = (
            source.area_ids if source is not None else tuple(area.id for area in board.areas)
        )
        self._slot: Final[dict[str, int]] = (
            source._slot
            if source is not None
            else {area_id: slot for slot, area_id in reversed(list(enumerate(self.area_ids)))}
        )
        if source is not None:
            self.choice: KingdomChoice = source.choice.clone()
            self.turn: int = source.turn
            self.phase: int = source.phase
            self.first_seat: int = source.first_seat
            self.home: list[str] = list(source.home)
            self.emigrated: list[bool] = list(source.emigrated)
            self.silver: list[int] = list(source.silver)
            self.vp: list[int] = list(source.vp)
            self.christian: list[bool] = list(source.christian)
            self.ships: list[list[int]] = [list(row) for row in source.ships]
            self.camps: list[list[int]] = [list(row) for row in source.camps]
            self.fleets: list[Fleet] = list(source.fleets)
            self.king: list[int] = list(source.king)
            self.treasury: list[int] = list(source.treasury)
            self.war: list[str] = list(source.war)
            self.pair_war: list[str] = list(source.pair_war)
            self.kings_peace: list[bool] = list(source.kings_peace)
            self.trade_stop: list[bool] = list(source.trade_stop)
            self.plundered: list[bool] = list(source.plundered)
            self.empire_of: list[str] = list(source.empire_of)
            self.discovered_by: list[int] = list(source.discovered_by)
            self.discovered_turn: list[int] = list(source.discovered_turn)
            self.mines_dry: bool = source.mines_dry
            self.fief: list[int] = list(source.fief)
            self.fief_kind: list[str] = list(source.fief_kind)
            self.separatists: list[bool] = list(source.separatists)
            self.expanded: list[bool] = list(source.expanded)
            self.unified: list[bool] = list(source.unified)
            self.exiled: list[bool] = list(source.exiled)
            self.fief_loss: str = source.fief_loss
            self.keep_dry_excess: bool = source.keep_dry_excess
            self.ships_in: list[int] = list(source.ships_in)
            self.ships_out: list[int] = list(source.ships_out)
            self.camps_in: list[int] = list(source.camps_in)
            self.camps_out: list[int] = list(source.camps_out)
            self.silver_in: int = source.silver_in
            self.silver_out: int = source.silver_out
            return
        start = start_position(board)
        track = board.turn_track
        # VA-02: the Year marker at 800, start silver (0) and treasuries (0), no king, no war, no ship or camp.
        self.choice = KingdomChoice(num_players, kingdom_choice)
        self.turn = (start.year - track.first_year) // track.years_per_turn + 1
        self.phase = SETUP_PHASE
        self.first_seat = NOBODY
        self.home = ["" for _ in range(num_players)]
        self.emigrated = [False] * num_players
        self.silver = [start.silver] * num_players
        self.vp = [0] * num_players
        self.christian = [False] * num_players
        self.ships = [[0] * (len(SHIP_TYPES) * self.num_areas) for _ in range(num_players)]
        self.camps = [[0] * (len(SHIP_TYPES) * self.num_areas) for _ in range(num_players)]
        self.fleets = []
        self.king = [NOBODY] * len(KINGDOMS)
        self.treasury = [start.treasury] * len(KINGDOMS)
        self.war = [NO_MARKER] * len(KINGDOMS)
        self.pair_war = [NO_MARKER] * len(KINGDOM_PAIRS)
        self.kings_peace = [False] * len(KINGDOM_PAIRS)
        self.trade_stop = [False] * self.num_areas
        self.plundered = [False] * self.num_areas
        self.empire_of = [area.empire for area in board.areas]
        # Unknown lands start undiscovered (rule text, "Undiscovered land areas"); -1: nobody has found it.
        self.discovered_by = [NOBODY] * self.num_areas
        self.discovered_turn = [0] * self.num_areas
        self.mines_dry = False
        # The cards' markers: a heritage or small kingdom's holder per area (FÖRLÄNING, SMÅRIKE, VA-23)
        # and which of the two it is; separatists (UTBRYTARE, VA-22); areas an expansion card took; RIKSENANDE in
        # force per kingdom (VA-20: every kingdom under `all_players`); players sent into exile (EXIL, VA-18).
        self.fief = [NOBODY] * self.num_areas
        self.fief_kind = [""] * self.num_areas
        self.separatists = [False] * self.num_areas
        self.expanded = [False] * self.num_areas
        self.unified = [False] * len(KINGDOMS)
        self.exiled = [False] * num_players
        # When a heritage or small kingdom is lost (VA-23 `fief_loss`): with the last war camp (conquest.py reads
        # it) or with any camp of its holder there (here, as the camp goes).
        self.fief_loss = "last_war_camp"
        # Whether trading camps above Khorasan's dry value stay (GRUVORNA SINAR, `mines_dry_camps: keep_excess`).
        self.keep_dry_excess = False
        self.ships_in = [0] * num_players
        self.ships_out = [0] * num_players
        self.camps_in = [0] * num_players
        self.camps_out = [0] * num_players
        # Silver the players and treasuries start with entered the game at setup.
        self.silver_in = sum(self.silver) + sum(self.treasury)
        self.silver_out = 0

    def clone(self) -> Position:
        """An independent copy."""
        return Position(self.board, self.num_players, self.choice.mode, self)

    # -- reading -------------------------------------------------------------------------------------------------

    def slot(self, area_id: str) -> int:
        """An area's slot; `ValueError` naming it if the board has no such area."""
        try:
            return self._slot[area_id]
        except KeyError:
            raise ValueError(f"area: no area {area_id!r} on the board") from None

    def _index(self, kind: str, area_id: str) -> int:
        slot = self._slot.get(area_id, -1)
        if slot < 0:
            raise ValueError(f"area: no area {area_id!r} on the board")
        if kind == TRADING:
            return slot
        if kind == WAR:
            return self.num_areas + slot
        raise ValueError(f"kind: expected 'trading' or 'war', got {kind!r}")

    @property
    def year(self) -> int:
        """The year of the current turn on the track: 775 + 25 × turn (VA-03)."""
        return self.board.year(self.turn)

    def kingdom_of(self, seat: int) -> str:
        """The seat's Viking kingdom ("" until chosen; an emigrant keeps the kingdom he left, VA-61)."""
        return self.choice.kingdoms[seat]

    def members(self, kingdom: str) -> list[int]:
        """The seats that belong to a kingdom and have not emigrated (the rulings' "member")."""
        return [s for s in range(self.num_players) if self.kingdom_of(s) == kingdom and not self.emigrated[s]]

    def ships_at(self, seat: int, kind: str, area_id: str) -> int:
        """The seat's ships of a type standing in an area (not in a fleet under way)."""
        return self.ships[seat][self._index(kind, area_id)]

    def camps_at(self, seat: int, kind: str, area_id: str) -> int:
        """The seat's camps of a type in an area, as the counters stand (separatist camps included; whose a camp is
        asks `controlled_camps`)."""
        return self.camps[seat][self._index(kind, area_id)]

    def controlled_camps(self, seat: int, kind: str, area_id: str) -> int:
        """The seat's camps of a type in an area that are under his control: none in a separatist area (UTBRYTARE:
        "all camps remain there, but are not under control of any player", VA-22). Every rule that asks whose a
        camp is (purchases, danger and legs, elections, taxes, conquest, scoring, reactions, duties, fights,
        christianisation) reads this or `controlled_row`; `camps_at` is the counter on the board, for the caps,
        the armies and the cards that remove camps."""
        index = self._index(kind, area_id)
        return 0 if self.separatists[index % self.num_areas] else self.camps[seat][index]

    def controlled_at(self, seat: int, index: int) -> int:
        """`controlled_camps` by index into the seat's row (`type_index * num_areas + slot`), for loops over rows."""
        if self.separatists[index % self.num_areas]:
            return 0
        return self.camps[seat][index]

    def controlled_row(self, seat: int) -> list[int]:
        """The seat's camps under his control, indexed as `camps[seat]` (`type_index * num_areas + slot`): his row
        with the separatist areas' camps left out (VA-22). Read only: with no separatist area it is his row itself."""
        row = self.camps[seat]
        if True not in self.separatists:
            return row
        n = self.num_areas
        return [0 if self.separatists[index % n] else camps for index, camps in enumerate(row)]

    def controlled_total(self, seat: int) -> int:
        """How many camps the seat controls on the map (his camps outside separatist areas, VA-22)."""
        return sum(self.controlled_row(seat))

    def camps_in_area(self, kind: str, area_id: str) -> int:
        """All players' camps of a type in an area, separatist camps included (the caps of 6.3 and "Establish war
        camps" and the armies count these: VA-22, "They still count towards the area's camp limits")."""
        index = self._index(kind, area_id)
        return sum(row[index] for row in self.camps)

    def camped_slots(self, war_only: bool = False) -> list[bool]:
        """For each area slot, whether anyone has a camp there (a war camp, with `war_only`), in one pass over every
        seat's camps."""
        n = self.num_areas
        camped = [False] * n
        # Most entries are 0: `compress` finds the others without a Python loop over every slot.
        slots = _slots_twice(n)
        for row in self.camps:
            for slot in compress(slots[n:], row[n:]) if war_only else compress(slots, row):
                camped[slot] = True
        return camped

    def ships_on_board(self, seat: int) -> int:
        """The seat's ships standing in areas and in fleets under way."""
        return sum(self.ships[seat]) + sum(f.size for f in self.fleets if f.owner == seat)

    def trade_value(self, area_id: str) -> int:
        """An area's trade value now: its coins, Khorasan's lower value once the mines are dry (GRUVORNA SINAR)."""
        area = self.board.area(area_id)
        if self.mines_dry and area.trade_after_mines_dry:
            return area.trade_after_mines_dry
        return area.trade

    def is_discovered(self, area_id: str) -> bool:
        """Whether the area is on the known map: known from the start, an unknown land someone has discovered, or
        an unknown sea that leads to one (VA-26: "through the seas that lead to it"). When others may sail there
        (the turn after, "Undiscovered land areas") is for the journeys, from `discovered_turn`."""
        area = self.board.area(area_id)
        if not area.undiscovered:
            return True
        if area.opened_by:
            return any(self.discovered_by[self.slot(land)] != NOBODY for land in area.opened_by)
        return self.discovered_by[self.slot(area_id)] != NOBODY

    # -- changes that keep the ledger ----------------------------------------------------------------------------

    def place_ships(self, seat: int, kind: str, area_id: str, n: int) -> None:
        """Ships enter the game standing in an area (bought in phase 5, a pulled-down camp, a Gäld result)."""
        self.ships[seat][self._index(kind, area_id)] += _positive("ships", n)
        self.ships_in[seat] += n

    def remove_ships(self, seat: int, kind: str, area_id: str, n: int) -> None:
        """Standing ships leave the game (lost, stranded, removed at the end of phase 6)."""
        index = self._index(kind, area_id)
        if self.ships[seat][index] < _positive("ships", n):
            raise ValueError(f"ships: seat {seat} has {self.ships[seat][index]} {kind} ships in {area_id}, not {n}")
        self.ships[seat][index] -= n
        self.ships_out[seat] += n

    def launch(self, seat: int, kind: str, area_id: str, size: int) -> int:
        """Standing ships form a fleet under way (6.1); returns its index in `fleets`."""
        index = self._index(kind, area_id)
        if self.ships[seat][index] < _positive("size", size):
            raise ValueError(f"size: seat {seat} has {self.ships[seat][index]} {kind} ships in {area_id}, not {size}")
        self.ships[seat][index] -= size
        self.fleets.append(Fleet(seat, kind, size, area_id, 0, 0, ""))
        return len(self.fleets) - 1

    def lose_fleet_ships(self, fleet: int, n: int) -> None:
        """A fleet loses ships (danger, combat, a trade, two per camp built); a fleet of no ships is gone."""
        f = self.fleets[fleet]
        if f.size < _positive("ships", n):
            raise ValueError(f"ships: the fleet has {f.size} ships, not {n}")
        self.ships_out[f.owner] += n
        if f.size == n:
            del self.fleets[fleet]
        else:
            self.fleets[fleet] = f._replace(size=f.size - n)

    def land_fleet(self, fleet: int) -> None:
        """A fleet's ships stand in its area again (journey_end: stay, VA-50)."""
        f = self.fleets.pop(fleet)
        self.ships[f.owner][self._index(f.kind, f.area)] += f.size

    def build_camps(self, seat: int, kind: str, area_id: str, n: int) -> None:
        """Camps enter the board (6.3, "Establish war camps"); the ships they cost leave through the fleet."""
        self.camps[seat][self._index(kind, area_id)] += _positive("camps", n)
        self.camps_in[seat] += n

    def remove_camps(self, seat: int, kind: str, area_id: str, n: int) -> None:
        """Camps leave the board (Krig, Gäld, pulled down, destroyed, assimilated)."""
        index = self._index(kind, area_id)
        if self.camps[seat][index] < _positive("camps", n):
            raise ValueError(f"camps: seat {seat} has {self.camps[seat][index]} {kind} camps in {area_id}, not {n}")
        self.camps[seat][index] -= n
        self.camps_out[seat] += n
        slot = self._slot[area_id]
        if self.fief_loss == "any_camp" and self.fief[slot] == seat:
            self.fief[slot] = NOBODY
            self.fief_kind[slot] = ""

    def gain_silver(self, seat: int, n: int) -> None:
        """Silver enters the game to a player (home silver, trade, plunder, Gäld, trading camps abroad)."""
        self.silver[seat] += _positive("silver", n)
        self.silver_in += n

    def spend_silver(self, seat: int, n: int) -> None:
        """Silver leaves the game from a player (ships, bids to the bank, war halving); never below 0."""
        if self.silver[seat] < _positive("silver", n):
            raise ValueError(f"silver: seat {seat} has {self.silver[seat]} silver, not {n}")
        self.silver[seat] -= n
        self.silver_out += n

    def give_silver(self, giver: int, receiver: int, n: int) -> None:
        """Silver passes between players (gifts, duties)."""
        if self.silver[giver] < _positive("silver", n):
            raise ValueError(f"silver: seat {giver} has {self.silver[giver]} silver, not {n}")
        self.silver[giver] -= n
        self.silver[receiver] += n

    def pay_treasury(self, seat: int, kingdom: str, n: int) -> None:
        """A player pays into his kingdom's treasury (7. Taxation)."""
        if self.silver[seat] < _positive("silver", n):
            raise ValueError(f"silver: seat {seat} has {self.silver[seat]} silver, not {n}")
        self.silver[seat] -= n
        self.treasury[KINGDOMS.index(kingdom)] += n

    def draw_treasury(self, kingdom: str, seat: int, n: int) -> None:
        """A player takes silver from a treasury (4. Distribution of silver)."""
        k = KINGDOMS.index(kingdom)
        if self.treasury[k] < _positive("silver", n):
            raise ValueError(f"treasury: {kingdom} holds {self.treasury[k]} silver, not {n}")
        self.treasury[k] -= n
        self.silver[seat] += n

    def treasury_gains(self, kingdom: str, n: int) -> None:
        """Silver enters a treasury from outside (one per untroubled trading camp, 7. Taxation)."""
        self.treasury[KINGDOMS.index(kingdom)] += _positive("silver", n)
        self.silver_in += n

    def treasury_loses(self, kingdom: str, n: int) -> None:
        """Silver leaves a treasury and the game (the king's half with no king, 4. Distribution of silver)."""
        k = KINGDOMS.index(kingdom)
        if self.treasury[k] < _positive("silver", n):
            raise ValueError(f"treasury: {kingdom} holds {self.treasury[k]} silver, not {n}")
        self.treasury[k] -= n
        self.silver_out += n

    # -- snapshot ------------------------------------------------------------------------------------------------

    def _by_area(self, row: list[int]) -> dict[str, dict[str, int]]:
        """Non-zero counts of one seat's ships or camps: {area: {type: n}}, areas in board order."""
        found: dict[str, dict[str, int]] = {}
        for slot, area_id in enumerate(self.area_ids):
            for t, kind in enumerate(SHIP_TYPES):
                n = row[t * self.num_areas + slot]
                if n:
                    found.setdefault(area_id, {})[kind] = n
        return found

    def snapshot(self) -> dict[str, Any]:
        """The whole position as JSON-ready data, exact: `Position.from_snapshot` rebuilds an equal table from it."""
        return {
            "players": self.num_players,
            "turn": self.turn,
            "year": self.year,
            "phase": self.phase,
            "first_seat": self.first_seat,
            "kingdom_choice": {"mode": self.choice.mode, "rolls": [list(r) for r in self.choice.rolls]},
            "seats": [
                {
                    "kingdom": self.kingdom_of(s),
                    "home": self.home[s],
                    "emigrated": self.emigrated[s],
                    "silver": self.silver[s],
                    "vp": self.vp[s],
                    "christian": self.christian[s],
                    "ships": self._by_area(self.ships[s]),
                    "camps": self._by_area(self.camps[s]),
                }
                for s in range(self.num_players)
            ],
            "fleets": [f._asdict() for f in self.fleets],
            "kingdoms": {
                k: {"king": self.king[i], "treasury": self.treasury[i], "war": self.war[i]}
                for i, k in enumerate(KINGDOMS)
            },
            "pairs": {
                f"{KINGDOMS[a]}-{KINGDOMS[b]}": {"war": self.pair_war[i], "kings_peace": self.kings_peace[i]}
                for i, (a, b) in enumerate(KINGDOM_PAIRS)
            },
            "trade_stops": [a for s, a in enumerate(self.area_ids) if self.trade_stop[s]],
            "plundered": [a for s, a in enumerate(self.area_ids) if self.plundered[s]],
            "empires": {
                a: self.empire_of[s]
                for s, a in enumerate(self.area_ids)
                if self.empire_of[s] != self.board.areas[s].empire
            },
            "discovered": {
                a: {"by": self.discovered_by[s], "turn": self.discovered_turn[s]}
                for s, a in enumerate(self.area_ids)
                if self.discovered_by[s] != NOBODY
            },
            "mines_dry": self.mines_dry,
            "fiefs": {
                a: {"seat": self.fief[s], "kind": self.fief_kind[s]}
                for s, a in enumerate(self.area_ids)
                if self.fief[s] != NOBODY
            },
            "separatists": [a for s, a in enumerate(self.area_ids) if self.separatists[s]],
            "expanded": [a for s, a in enumerate(self.area_ids) if self.expanded[s]],
            "unified": [k for i, k in enumerate(KINGDOMS) if self.unified[i]],
            "exiled": [s for s in range(self.num_players) if self.exiled[s]],
            "ledger": {
                "ships_in": list(self.ships_in),
                "ships_out": list(self.ships_out),
                "camps_in": list(self.camps_in),
                "camps_out": list(self.camps_out),
                "silver_in": self.silver_in,
                "silver_out": self.silver_out,
            },
        }

    @staticmethod
    def from_snapshot(board: Board, data: dict[str, Any]) -> Position:
        """A table from a snapshot of one on the same board (test fixtures); `ValueError` naming the field at fault
        if the snapshot does not fit."""
        try:
            return _from_snapshot(board, data)
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ValueError(
                f"snapshot: does not fit the board or is incomplete ({type(error).__name__}: {error})"
            ) from None


def _from_snapshot(board: Board, data: dict[str, Any]) -> Position:
    choice = data["kingdom_choice"]
    position = Position(board, data["players"], choice["mode"])
    position.choice.rolls = [list(r) for r in choice["rolls"]]
    position.turn = data["turn"]
    position.phase = data["phase"]
    position.first_seat = data["first_seat"]
    for s, seat in enumerate(data["seats"]):
        position.choice.kingdoms[s] = seat["kingdom"]
        position.home[s] = seat["home"]
        position.emigrated[s] = seat["emigrated"]
        position.silver[s] = seat["silver"]
        position.vp[s] = seat["vp"]
        position.christian[s] = seat["christian"]
        for field, rows in (("ships", position.ships), ("camps", position.camps)):
            for area_id, counts in seat[field].items():
                for kind, n in counts.items():
                    rows[s][position._index(kind, area_id)] = n
    position.fleets = [Fleet(**f) for f in data["fleets"]]
    for i, k in enumerate(KINGDOMS):
        entry = data["kingdoms"][k]
        position.king[i], position.treasury[i], position.war[i] = entry["king"], entry["treasury"], entry["war"]
    for i, (a, b) in enumerate(KINGDOM_PAIRS):
        entry = data["pairs"][f"{KINGDOMS[a]}-{KINGDOMS[b]}"]
        position.pair_war[i], position.kings_peace[i] = entry["war"], entry["kings_peace"]
    for area_id in data["trade_stops"]:
        position.trade_stop[position.slot(area_id)] = True
    for area_id in data["plundered"]:
        position.plundered[position.slot(area_id)] = True
    for area_id, empire in data["empires"].items():
        position.empire_of[position.slot(area_id)] = empire
    for area_id, found in data["discovered"].items():
        position.discovered_by[position.slot(area_id)] = found["by"]
        position.discovered_turn[position.slot(area_id)] = found["turn"]
    position.mines_dry = data["mines_dry"]
    for area_id, fief in data.get("fiefs", {}).items():
        position.fief[position.slot(area_id)] = fief["seat"]
        position.fief_kind[position.slot(area_id)] = fief["kind"]
    for field, flags in (("separatists", position.separatists), ("expanded", position.expanded)):
        for area_id in data.get(field, []):
            flags[position.slot(area_id)] = True
    for kingdom in data.get("unified", []):
        position.unified[KINGDOMS.index(kingdom)] = True
    for seat in data.get("exiled", []):
        position.exiled[seat] = True
    ledger = data["ledger"]
    position.ships_in, position.ships_out = list(ledger["ships_in"]), list(ledger["ships_out"])
    position.camps_in, position.camps_out = list(ledger["camps_in"]), list(ledger["camps_out"])
    position.silver_in, position.silver_out = ledger["silver_in"], ledger["silver_out"]
    return position


def _positive(field: str, n: int) -> int:
    if n <= 0:
        raise ValueError(f"{field}: expected a positive number, got {n}")
    return n


def problems(position: Position) -> list[str]:
    """Every broken invariant of a position, one line each naming the seat, area or kingdom (empty if sound).

    Conservation: each seat's ships on the board (standing and under way) and camps equal what entered less what
    left, and the silver of players and treasuries equals what entered the game less what left it. Caps: trading
    camps in an area at most its trade value (6.3), war camps at most its shields ("Establish war camps"), none
    where camps are banned (VA-45), war camps of one kingdom per area save an emigrant's (VA-61), fleets of 1 to
    `max_fleet` ships (6.1). Never negative: ships, camps, silver, treasuries, victory points. Markers and kings
    valid.
    """
    found: list[str] = []
    board = position.board
    max_fleet = start_position(board).max_fleet
    for seat in range(position.num_players):
        who = f"seat {seat}"
        if position.silver[seat] < 0:
            found.append(f"{who}: silver {position.silver[seat]} is negative")
        if position.vp[seat] < 0:
            found.append(f"{who}: victory points {position.vp[seat]} are negative")
        for name, row in (("ships", position.ships[seat]), ("camps", position.camps[seat])):
            for index, n in enumerate(row):
                if n < 0:
                    kind, slot = divmod(index, position.num_areas)
                    found.append(f"{who}: {n} {SHIP_TYPES[kind]} {name} in {position.area_ids[slot]}")
        on_board = position.ships_on_board(seat)
        if on_board != position.ships_in[seat] - position.ships_out[seat]:
            found.append(
                f"{who}: ships not conserved: {on_board} on the board, but {position.ships_in[seat]} entered and "
                f"{position.ships_out[seat]} left"
            )
        camps = sum(position.camps[seat])
        if camps != position.camps_in[seat] - position.camps_out[seat]:
            found.append(
                f"{who}: camps not conserved: {camps} on the board, but {position.camps_in[seat]} built and "
                f"{position.camps_out[seat]} lost"
            )
    silver = sum(position.silver) + sum(position.treasury)
    if silver != position.silver_in - position.silver_out:
        found.append(
            f"silver not conserved: players and treasuries hold {silver}, but {position.silver_in} entered the game "
            f"and {position.silver_out} left it"
        )
    for i, kingdom in enumerate(KINGDOMS):
        if position.treasury[i] < 0:
            found.append(f"kingdom {kingdom}: treasury {position.treasury[i]} is negative")
        if position.king[i] != NOBODY and not 0 <= position.king[i] < position.num_players:
            found.append(f"kingdom {kingdom}: king {position.king[i]} is not a seat")
        if position.war[i] not in WAR_STATES:
            found.append(f"kingdom {kingdom}: war marker {position.war[i]!r} is not one of {list(WAR_STATES)}")
    for i, state in enumerate(position.pair_war):
        if state not in WAR_STATES:
            a, b = KINGDOM_PAIRS[i]
            found.append(f"kingdoms {KINGDOMS[a]}-{KINGDOMS[b]}: war state {state!r} is not one of {list(WAR_STATES)}")
    for slot, area in enumerate(board.areas):
        trading = position.camps_in_area("trading", area.id)
        war = position.camps_in_area("war", area.id)
        if (trading or war) and (area.no_camps or not area.is_land):
            found.append(f"area {area.id}: camps where none may be built (VA-45)")
        # Under GRUVORNA SINAR's `mines_dry_camps: keep_excess` the camps built before the mines went dry stay.
        dry_kept = position.keep_dry_excess and position.mines_dry and area.trade_after_mines_dry
        cap = area.trade if dry_kept else position.trade_value(area.id)
        if trading > cap:
            found.append(f"area {area.id}: {trading} trading camps, more than its trade value {cap}")
        if war > area.shields:
            found.append(f"area {area.id}: {war} war camps, more than its {area.shields} shields")
        index = SHIP_TYPES.index("war") * position.num_areas + slot
        sides = {
            f"emigrant {s}" if position.emigrated[s] else position.kingdom_of(s)
            for s in range(position.num_players)
            if position.camps[s][index] > 0
        }
        kingdoms = [side for side in sides if not side.startswith("emigrant")]
        if len(kingdoms) > 1:
            found.append(f"area {area.id}: war camps of more than one kingdom ({', '.join(sorted(kingdoms))})")
    for number, fleet in enumerate(position.fleets):
        if not 0 <= fleet.owner < position.num_players:
            found.append(f"fleet {number}: owner {fleet.owner} is not a seat")
        if fleet.kind not in SHIP_TYPES:
            found.append(f"fleet {number}: type {fleet.kind!r} is not trading or war")
        if not 1 <= fleet.size <= max_fleet:
            found.append(f"fleet {number}: {fleet.size} ships, not 1 to {max_fleet} (6.1)")
        if not board.has_area(fleet.area):
            found.append(f"fleet {number}: area {fleet.area!r} is not on the board")
        if fleet.danger < 0:
            found.append(f"fleet {number}: danger {fleet.danger} is negative")
    return found


_SLOTS_TWICE: dict[int, list[int]] = {}


def _slots_twice(n: int) -> list[int]:
    """The area slots 0 … n-1 twice over: each entry's slot in a row of trading camps, then war camps."""
    found = _SLOTS_TWICE.get(n)
    if found is None:
        found = _SLOTS_TWICE[n] = list(range(n)) * 2
    return found
