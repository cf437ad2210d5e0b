"""Setup: the kingdom choice in order of a D10 roll (rule text, setup; VA-01) and the start position (VA-02).

"All players roll their dice. The highest number is the first to choose his home country - Denmark, Norway or
Sweden. Then the other players choose, in order of their dice roll, until everybody has a home country. There is
no limit how many players can start in the same kingdom." Tied rolls are rolled again among the tied players, the
text's only tie rule (6.1 Initiative). The first to choose is the first seat of turn 1 (VA-06). Each roll is a
chance action (a D10 face); each choice a seat's action.
"""

from __future__ import annotations

from typing import Final, NamedTuple, Protocol

from skald.engine import IllegalAction
from skald.games.vikingatid import actions as A
from skald.games.vikingatid.board import Board

#: The Viking kingdoms in the rulebook's order (elections: "Denmark, Norway and Sweden, in this order").
KINGDOMS: Final = ("denmark", "norway", "sweden")
#: The faces of a D10 (VA-07: every roll is a chance node over 1-10, each 1/10).
D10_FACES: Final = tuple(range(1, 11))
#: No seat: nobody rolls or chooses now.
NOBODY: Final = -1

FREE: Final = "free"
SPREAD: Final = "spread"
FIXED: Final = "fixed"


class KingdomChoice:
    """The kingdom choice under way: each seat's rolls (re-rolls after ties), the choosing order, the choices.

    `mode` is the rule option `kingdom_choice`: `free`, `spread` or `fixed`. Under `fixed` nobody rolls and seat
    s takes Denmark, Norway, Sweden in turn.
    """

    def __init__(self, num_players: int, mode: str, source: KingdomChoice | None = None) -> None:
        if mode not in (FREE, SPREAD, FIXED):
            raise ValueError(f"kingdom_choice: {mode!r} is not one of ['free', 'spread', 'fixed']")
        self.num_players: Final = num_players
        self.mode: Final = mode
        if source is not None:
            self.rolls: list[list[int]] = [list(r) for r in source.rolls]
            self.kingdoms: list[str] = list(source.kingdoms)
            return
        self.rolls = [[] for _ in range(num_players)]
        self.kingdoms = [KINGDOMS[seat % 3] if mode == FIXED else "" for seat in range(num_players)]

    def clone(self) -> KingdomChoice:
        """An independent copy."""
        return KingdomChoice(self.num_players, self.mode, self)

    # -- the rolls -----------------------------------------------------------------------------------------------

    def _must_roll_again(self, seat: int) -> bool:
        """Whether the seat is still tied with another: its rolls so far begin another seat's rolls."""
        mine = self.rolls[seat]
        return any(other != seat and self.rolls[other][: len(mine)] == mine for other in range(self.num_players))

    def roller(self) -> int:
        """The seat whose D10 is rolled next (a chance action), or NOBODY when the order is settled.

        Every seat rolls once, in seat order; then tied seats roll again among themselves, the highest tie first
        and, within it, the seat behind (then the lower seat) first, until no two seats are tied.
        """
        if self.mode == FIXED:
            return NOBODY
        for seat in range(self.num_players):
            if not self.rolls[seat]:
                return seat
        tied = [seat for seat in range(self.num_players) if self._must_roll_again(seat)]
        if not tied:
            return NOBODY
        return min(tied, key=lambda seat: ([-face for face in self.rolls[seat]], seat))

    def roll(self, face: int) -> None:
        """The D10 of the seat to roll shows `face`; IllegalAction if no one rolls now or the face is not 1-10."""
        seat = self.roller()
        if seat == NOBODY:
            raise IllegalAction("VA-01", "no one rolls for the kingdom choice now")
        if face not in D10_FACES:
            raise IllegalAction("VA-07", f"a D10 shows 1 to 10, not {face}")
        self.rolls[seat].append(face)

    def order(self) -> list[int]:
        """The seats in choosing order: the highest roll first (re-rolls breaking ties); seat order under fixed."""
        if self.mode == FIXED:
            return list(range(self.num_players))
        return sorted(range(self.num_players), key=lambda seat: [-face for face in self.rolls[seat]])

    # -- the choices ---------------------------------------------------------------------------------------------

    def chooser(self) -> int:
        """The seat to choose a kingdom now, or NOBODY while dice are still to roll or when all have chosen."""
        if self.roller() != NOBODY:
            return NOBODY
        for seat in self.order():
            if not self.kingdoms[seat]:
                return seat
        return NOBODY

    def legal_kingdoms(self) -> list[str]:
        """The kingdoms the seat to choose may take: any under free; under spread none already taken while some
        kingdom is still empty."""
        if self.chooser() == NOBODY:
            return []
        if self.mode == SPREAD:
            taken = {k for k in self.kingdoms if k}
            empty = [k for k in KINGDOMS if k not in taken]
            if empty:
                return empty
        return list(KINGDOMS)

    def choose(self, kingdom: str) -> None:
        """The seat to choose takes `kingdom`; IllegalAction naming the rule otherwise (nothing changes)."""
        seat = self.chooser()
        if seat == NOBODY:
            raise IllegalAction("VA-01", "no one chooses a kingdom now: the dice decide the order first")
        if kingdom not in KINGDOMS:
            raise IllegalAction("VA-01", f"the home country is Denmark, Norway or Sweden, not {kingdom!r}")
        if kingdom not in self.legal_kingdoms():
            raise IllegalAction(
                "VA-01",
                f"under kingdom_choice 'spread' no kingdom takes a second player until every kingdom has one; "
                f"{', '.join(self.legal_kingdoms())} still has none",
            )
        self.kingdoms[seat] = kingdom

    def done(self) -> bool:
        """Whether every seat has a home country."""
        return all(self.kingdoms)

    def first_seat(self) -> int:
        """The first seat of turn 1: the first to choose a kingdom (VA-06)."""
        return self.order()[0] if self.roller() == NOBODY else NOBODY


class StartPosition(NamedTuple):
    """The numbers the game starts from, read from the board's start values (VA-02)."""

    year: int
    cards: int
    silver: int
    treasury: int
    home_silver: int
    ship_cost: int
    max_fleet: int
    hand_limit: int


def start_position(board: Board) -> StartPosition:
    """The start position the board's data gives: Year marker at 800, 0 silver, empty treasuries (VA-02)."""

    def number(key: str) -> int:
        value = board.start_value(key)
        if not isinstance(value, int):
            raise ValueError(f"start_value {key}: expected an integer, got {value!r}")
        return value

    return StartPosition(
        year=number("start_year"),
        cards=number("start_cards"),
        silver=number("start_silver"),
        treasury=number("start_treasury"),
        home_silver=number("home_silver"),
        ship_cost=number("ship_cost"),
        max_fleet=number("max_fleet"),
        hand_limit=number("hand_limit_end_of_turn"),
    )


# -- the steps (`step_rules.STEP_RULES`): KINGDOM_ROLL and KINGDOM_CHOICE -------------------------------------------


class Chooser(Protocol):
    """What the kingdom choice's steps read of the position: the choice under way."""

    @property
    def choice(self) -> KingdomChoice: ...


class SetupTable(Protocol):
    """What the kingdom choice's steps read of the state (`situation.Situation` is one)."""

    @property
    def position(self) -> Chooser: ...


def apply_kingdom_roll(table: SetupTable, action: int) -> None:
    """A seat's D10 for the choosing order."""
    table.position.choice.roll(action - A.ROLL + 1)


def legal_kingdom_choice(table: SetupTable) -> list[int]:
    """The home countries the chooser may take."""
    return [A.KINGDOM + A.KINGDOMS.index(k) for k in table.position.choice.legal_kingdoms()]


def apply_kingdom_choice(table: SetupTable, action: int) -> None:
    """The chooser takes a home country."""
    table.position.choice.choose(A.KINGDOMS[action - A.KINGDOM])


def explain_kingdom_choice(table: SetupTable, action: int) -> IllegalAction | None:
    """Why a home country may not be taken (`KingdomChoice.choose`'s refusal), tried on a copy of the choice."""
    trial = table.position.choice.clone()
    try:
        trial.choose(A.KINGDOMS[action - A.KINGDOM])
    except IllegalAction as error:
        return error
    return None
