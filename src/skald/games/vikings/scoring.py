"""Small, large and end-game scoring (rules/000 p.4–5), each returning itemised lines that explain themselves."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from skald.games.vikings.actions import square_name
from skald.games.vikings.components import (
    BLACK,
    BLUE,
    EMPTY,
    FIRST_SHIP,
    FISH,
    FISHERMAN1,
    GOLD3,
    GOLDSMITH1,
    GOLDSMITH2,
    GREEN,
    HORN,
    MAX_COLUMNS,
    NOBLE1,
    NUM_TILE_TYPES,
    RED,
    SCOUT1,
    SPECIALS,
    VIKINGS,
    YELLOW,
    ship_of,
)
from skald.games.vikings.mainland import Mainland

GOLDSMITH_ROW, FISHERMAN_ROW = 4, 5
#: By tile type, the row a ship threatens down to (0 for island tiles).
SHIP_ROWS: Final = tuple(ship_of(tile).row if tile >= FIRST_SHIP else 0 for tile in range(NUM_TILE_TYPES))


class ScoreLine(NamedTuple):
    """One item of a scoring: who, what (`kind`, `square`, `text`) and how much Fame and Gold it gave or took.

    A named tuple: scorings make many of them, and a tuple is the cheapest immutable record to build.
    """

    seat: int
    kind: str
    text: str
    fame: int = 0
    gold: int = 0
    square: str = ""

    def to_json(self) -> dict[str, Any]:
        """The line as JSON-ready data."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "fame": self.fame,
            "gold": self.gold,
            "square": self.square,
        }


class ScoreReport:
    """A whole scoring: which round, which kind (`small`, `large`, `end`), and its lines. Never changed once made."""

    def __init__(self, round: int, when: str, lines: tuple[ScoreLine, ...]) -> None:
        self.round = round
        self.when = when
        self.lines = lines
        #: The lines as JSON, built on first use.
        self._json: tuple[dict[str, Any], ...] | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreReport):
            return NotImplemented
        return (self.round, self.when, self.lines) == (other.round, other.when, other.lines)

    def __hash__(self) -> int:
        return hash((self.round, self.when, self.lines))

    def __repr__(self) -> str:
        return f"ScoreReport(round={self.round!r}, when={self.when!r}, lines={self.lines!r})"

    def totals(self, seat: int) -> tuple[int, int]:
        """The (Fame, Gold) this scoring gave `seat` in all."""
        mine = [line for line in self.lines if line.seat == seat]
        return sum(line.fame for line in mine), sum(line.gold for line in mine)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (built once: a report never changes; callers get their own copy)."""
        if self._json is None:
            self._json = tuple(line.to_json() for line in self.lines)
        return {"round": self.round, "when": self.when, "lines": [dict(line) for line in self._json]}


class Threats:
    """Which squares unrepelled ships threaten, and which ships Warriors repel (rules/000 p.4, steps 2–3)."""

    def __init__(
        self, threatened: frozenset[int], repelled: tuple[tuple[int, int], ...], unrepelled: tuple[tuple[int, int], ...]
    ) -> None:
        self.threatened = threatened
        self.repelled = repelled
        self.unrepelled = unrepelled

    def is_threatened(self, row: int, col: int) -> bool:
        """Whether the Viking on (row, col) is threatened."""
        return row * MAX_COLUMNS + col - 1 in self.threatened


def threats(land: Mainland) -> Threats:
    """A ship threatens its column down to its sail's row, unless a Warrior stands directly below it."""
    threatened: set[int] = set()
    repelled, unrepelled = [], []
    tiles, vikings = land.tiles, land.vikings
    # Ships stand in columns 1..ships, except that the first three may leave gaps among columns 1–3.
    for col in range(1, max(land.ships, 3) + 1):
        tile = tiles[col - 1]
        if tile == EMPTY:
            continue
        if vikings[MAX_COLUMNS + col - 1] == BLACK:
            repelled.append((col, tile))
            continue
        unrepelled.append((col, tile))
        for row in range(1, SHIP_ROWS[tile] + 1):
            threatened.add(row * MAX_COLUMNS + col - 1)
    return Threats(frozenset(threatened), tuple(repelled), tuple(unrepelled))


def _vikings_of(land: Mainland, colour: int) -> list[int]:
    row = VIKINGS[colour].row
    base = row * MAX_COLUMNS
    return [c + 1 for c in range(land.width) if land.vikings[base + c] == colour]


def goldsmith_lines(seat: int, land: Mainland, seen: Threats) -> list[ScoreLine]:
    """3 Gold for each Goldsmith on an island, none when threatened."""
    lines = []
    for col in _vikings_of(land, YELLOW):
        square = square_name(GOLDSMITH_ROW, col)
        if seen.is_threatened(GOLDSMITH_ROW, col):
            lines.append(ScoreLine(seat, "goldsmith", f"Goldsmith on {square} is threatened: no Gold", 0, 0, square))
        else:
            lines.append(ScoreLine(seat, "goldsmith", f"Goldsmith on {square}", 0, 3, square))
    return lines


def _unthreatened(land: Mainland, colour: int, seen: Threats) -> int:
    row = VIKINGS[colour].row
    return sum(1 for col in _vikings_of(land, colour) if not seen.is_threatened(row, col))


def _bonus_line(
    seat: int, land: Mainland, special: int, colour: int, seen: Threats, per: int, unit: str
) -> list[ScoreLine]:
    """Advanced game: a special tile beside a row pays `per` for each unthreatened Viking of that row, per copy."""
    copies = land.specials[special]
    if not copies:
        return []
    count = _unthreatened(land, colour, seen)
    amount = copies * per * count
    times = f" ×{copies}" if copies > 1 else ""
    text = f"{SPECIALS[special].name} tile{times}: {count} unthreatened {VIKINGS[colour].role}s"
    fame, gold = (amount, 0) if unit == "fame" else (0, amount)
    return [ScoreLine(seat, "special", text, fame, gold)]


def _goldsmith_bonus(seat: int, land: Mainland, seen: Threats) -> list[ScoreLine]:
    return _bonus_line(seat, land, GOLDSMITH1, YELLOW, seen, 1, "gold") + _bonus_line(
        seat, land, GOLDSMITH2, YELLOW, seen, 2, "gold"
    )


def small_scoring(seat: int, land: Mainland) -> list[ScoreLine]:
    """Small scoring (rounds 1, 3, 5): only the Goldsmiths, 3 Gold each unless threatened (and Goldsmith tiles)."""
    seen = threats(land)
    lines = goldsmith_lines(seat, land, seen)
    if land.specials[GOLDSMITH1] or land.specials[GOLDSMITH2]:  # the advanced game's Goldsmith tiles
        lines += _goldsmith_bonus(seat, land, seen)
    return lines


def large_scoring(seat: int, land: Mainland) -> list[ScoreLine]:
    """Large scoring (rounds 2, 4, 6) after the Boatswains have ferried: ships, Warriors, Nobles, Scouts, Goldsmiths."""
    seen = threats(land)
    lines = []
    for col, tile in seen.repelled:
        ship = ship_of(tile)
        fame, gold = (ship.value, 0) if ship.reward == "fame" else (0, ship.value)
        square = square_name(1, col)
        lines.append(
            ScoreLine(
                seat,
                "warrior",
                f"Warrior on {square} repels ship {ship.id}: {ship.value} {ship.reward.title()}",
                fame,
                gold,
                square,
            )
        )
    for col in _vikings_of(land, RED):
        square = square_name(2, col)
        if seen.is_threatened(2, col):
            lines.append(ScoreLine(seat, "noble", f"Noble on {square} is threatened: no Fame", 0, 0, square))
        else:
            lines.append(ScoreLine(seat, "noble", f"Noble on {square}", 2, 0, square))
    for col in _vikings_of(land, GREEN):
        square = square_name(3, col)
        if seen.is_threatened(3, col):
            lines.append(
                ScoreLine(seat, "scout", f"Scout on {square} is threatened: no Fame, nor for those below", 0, 0, square)
            )
            continue
        below = [
            VIKINGS[land.viking(row, col)].role
            for row in (GOLDSMITH_ROW, FISHERMAN_ROW)
            if land.viking(row, col) in (YELLOW, BLUE)
        ]
        text = f"Scout on {square}" + (f" + {' and '.join(below)} below" if below else "")
        lines.append(ScoreLine(seat, "scout", text, 1 + len(below), 0, square))
    lines.extend(goldsmith_lines(seat, land, seen))
    specials = land.specials
    if specials[GOLDSMITH1] or specials[GOLDSMITH2] or specials[NOBLE1] or specials[SCOUT1] or specials[FISHERMAN1]:
        # The advanced game's special tiles (each _bonus_line is empty without its tile: the base game skips them).
        lines += _goldsmith_bonus(seat, land, seen)
        lines += _bonus_line(seat, land, NOBLE1, RED, seen, 1, "fame")
        lines += _bonus_line(seat, land, SCOUT1, GREEN, seen, 1, "fame")
        lines += _bonus_line(seat, land, FISHERMAN1, BLUE, seen, 1, "fame")
    return lines


def _majority(seat_counts: list[int], zero_scores: bool) -> set[int]:
    best = max(seat_counts)
    if best == 0 and not zero_scores:
        return set()
    return {seat for seat, count in enumerate(seat_counts) if count == best}


def end_scoring(lands: list[Mainland], order: list[int], zero_majority: bool, fame_floor: bool) -> list[ScoreLine]:
    """End-game scoring in the rulebook's order, applied to working copies of Fame and Gold.

    Steps (rules/000 p.5): unrepelled ships, 5 Gold → 1 Fame, most Boatswains 10, most completed islands 7,
    longest completed island 5, over- and underfeeding.
    """
    fame = [land.fame for land in lands]
    gold = [land.gold for land in lands]
    lines: list[ScoreLine] = []

    def add(seat: int, kind: str, text: str, dfame: int, dgold: int, square: str = "") -> None:
        if fame_floor and fame[seat] + dfame < 0:
            dfame = -fame[seat]
            text += " (Fame stops at 0: rule option fame_floor=zero)"
        fame[seat] += dfame
        gold[seat] += dgold
        lines.append(ScoreLine(seat, kind, text, dfame, dgold, square))

    seen = [threats(land) for land in lands]
    for seat in order:
        for col, tile in seen[seat].unrepelled:
            ship = ship_of(tile)
            square = f"ship{col}"
            if ship.reward == "fame":
                add(
                    seat,
                    "ship",
                    f"Ship {ship.id} in column {col} not repelled: −{ship.value} Fame",
                    -ship.value,
                    0,
                    square,
                )
            else:
                paid = min(gold[seat], ship.value)
                short = ship.value - paid
                text = f"Ship {ship.id} in column {col} not repelled: −{ship.value} Gold"
                if short:
                    text += f" ({paid} paid, {short} short, lost as Fame)"
                add(seat, "ship", text, -short, -paid, square)
    for seat in order:
        rate = 3 if lands[seat].specials[GOLD3] else 5  # the "3 Gold = 1 Fame" special tile
        if gold[seat] >= rate:
            add(
                seat,
                "gold",
                f"{gold[seat]} Gold: {gold[seat] // rate} Fame (1 for every {rate}), {gold[seat] % rate} Gold kept",
                gold[seat] // rate,
                -(gold[seat] // rate) * rate,
            )

    boatswains = [land.boatswains() for land in lands]
    for seat in sorted(_majority(boatswains, zero_majority), key=order.index):
        horns = lands[seat].specials[HORN]
        note = f", {horns} of them Boatswain-with-horn tiles" if horns else ""
        add(seat, "boatswains", f"Most Boatswains ({boatswains[seat]}{note})", 10, 0)

    islands = [land.completed_islands() for land in lands]
    counts = [len(i) for i in islands]
    for seat in sorted(_majority(counts, zero_majority), key=order.index):
        add(seat, "islands", f"Most completed islands ({counts[seat]})", 7, 0)
    longest = [max((length for _, _, length in i), default=0) for i in islands]
    for seat in sorted(_majority(longest, False), key=order.index):
        add(seat, "longest", f"Longest completed island ({longest[seat]} tiles)", 5, 0)

    for seat in order:
        land = lands[seat]
        fishermen = [c for c in _vikings_of(land, BLUE) if not seen[seat].is_threatened(FISHERMAN_ROW, c)]
        food = 5 * len(fishermen)
        mouths = land.vikings_owned()
        surplus = food - mouths
        text = f"{len(fishermen)} Fishermen feed {food}, {mouths} Vikings to feed"
        if surplus > 0:
            per = 3 if land.specials[FISH] else 2  # the "Fisherman with fish" special tile pays 3
            add(seat, "feeding", f"{text}: overfeeding {surplus} × {per}", per * surplus, 0)
        elif surplus < 0:
            add(seat, "feeding", f"{text}: underfeeding {-surplus} × −1", surplus, 0)
        else:
            add(seat, "feeding", f"{text}: exactly fed", 0, 0)
    for seat in order:
        for line in building_lines(seat, lands[seat], seen[seat]):
            add(seat, line.kind, line.text, line.fame, 0, line.square)
    return lines


def building_lines(seat: int, land: Mainland, seen: Threats) -> list[ScoreLine]:
    """Advanced game: each Building tile scores 1 per Viking on it and its eight neighbours (at most 9), unless
    the Building tile itself is threatened."""
    lines = []
    for index in land.buildings:
        row, col = divmod(index, MAX_COLUMNS)
        col += 1
        square = square_name(row, col)
        if seen.is_threatened(row, col):
            lines.append(ScoreLine(seat, "building", f"Building tile on {square} is threatened: nothing", 0, 0, square))
            continue
        around = sum(
            1
            for r in (row - 1, row, row + 1)
            for c in (col - 1, col, col + 1)
            if 1 <= r <= 5 and land.viking(r, c) != EMPTY
        )
        lines.append(
            ScoreLine(
                seat, "building", f"Building tile on {square}: {around} Vikings on and around it", around, 0, square
            )
        )
    return lines


def apply_lines(lands: list[Mainland], lines: list[ScoreLine]) -> None:
    """Add each line's Fame and Gold to its player."""
    for line in lines:
        lands[line.seat].fame += line.fame
        lands[line.seat].gold += line.gold
