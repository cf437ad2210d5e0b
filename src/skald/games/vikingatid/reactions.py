"""Phase 2, "Roll for empire reaction": a D10 for each empire area with camps, read on the empire's table.

Rule text: "For each area that contains camps in an empire, roll a dice and compare the result the that empire's
reaction table, adding +1 to the roll for each war camp in that area." Fred: nothing happens. Krig: "All camps in
the area are destroyed." Gäld: "The player gets money corresponding to the "Gäld" table on the board (roll a
dice). Then he converts all camps into the corresponding type of ship, placing them in the same area (one ship per
camp)." Christian players get +2 against Britain and the German-Roman Empire (10. Christianisation; the empire's
`christian_bonus` in the board data).

Skald's readings: one D10 per area (`reaction_roll: per_area`, VA-31) or one per player with camps there
(`per_player`); each player's total is the roll +1 per war camp in the area, whoever owns it, counted before any
result of that area is applied, + his Christian bonus, and decides for his own camps; each Gäld result rolls its
own Gäld die, in seat order from the turn's first seat (VA-06); Gäld silver goes to the player, the ships stand in
the area (VA-33). Areas are taken in board order. Every roll is a chance node (VA-07).
"""

from __future__ import annotations

from typing import Final, NamedTuple, Protocol

from skald.games.vikingatid import conquest
from skald.games.vikingatid.actions import ROLL, SHIP_TYPES
from skald.games.vikingatid.board import GALD, KRIG
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.steps import seat_order

PER_AREA: Final = "per_area"
PER_PLAYER: Final = "per_player"


class ReactionResult(NamedTuple):
    """What one reaction did to one player's camps: the area, seat, D10, modified total, result, and the silver a
    Gäld result paid (0 until its Gäld die is rolled, and for Krig and Fred)."""

    area: str
    seat: int
    roll: int
    total: int
    result: str
    silver: int


class Reactions:
    """Phase 2 under way: the areas still to roll, the seats still to roll in the current area (per_player), the
    seats waiting for their Gäld die, and what each reaction did this turn. Plain class, cloned through its
    constructor (mypyc-ready)."""

    def __init__(self, mode: str = PER_AREA, source: Reactions | None = None) -> None:
        if mode not in (PER_AREA, PER_PLAYER):
            raise ValueError(f"reaction_roll: {mode!r} is not one of ['per_area', 'per_player']")
        self.mode: Final = mode
        if source is not None:
            self.areas: list[str] = list(source.areas)
            self.to_roll: list[int] = list(source.to_roll)
            self.war_camps: int = source.war_camps
            self.gald: list[int] = list(source.gald)
            self.results: list[ReactionResult] = list(source.results)
            self.only: int = source.only
            return
        self.areas = []
        self.to_roll = []
        self.war_camps = 0
        self.gald = []
        self.results = []
        # The one seat whose camps a roll concerns (a build under `reaction_on_build: builder_only`), or -1: all.
        self.only = -1

    def clone(self) -> Reactions:
        """An independent copy."""
        return Reactions(self.mode, self)


def seats_with_camps(position: Position, area_id: str) -> list[int]:
    """The seats with any camp in the area, in seat order from the turn's first seat (VA-06); none in a separatist
    area (UTBRYTARE: its camps belong to no one and trigger no reaction roll, VA-22)."""
    slot = position.slot(area_id)
    n = position.num_areas
    return [
        s
        for s in seat_order(position.first_seat, position.num_players)
        if any(position.controlled_at(s, t * n + slot) for t in range(len(SHIP_TYPES)))
    ]


def empire_areas_with_camps(position: Position) -> list[str]:
    """The areas of an empire (as the table now says: expansions move provinces) holding camps, in board order."""
    return [
        area_id
        for slot, area_id in enumerate(position.area_ids)
        if position.empire_of[slot]
        and conquest.fief_holder(position, slot) == NOBODY
        and seats_with_camps(position, area_id)
    ]


def on_build(position: Position, mode: str, area_id: str, only: int) -> Reactions:
    """The roll when camps are built in a province (VA-32): once, after the building, the new camps counting; for
    every player with camps there (`reaction_on_build: whole_area`, `only` -1) or the builder alone (`only`)."""
    reactions = Reactions(mode)
    reactions.only = only
    reactions.areas = [area_id]
    _enter_area(position, reactions)
    return reactions


def _concerned(position: Position, reactions: Reactions, area_id: str) -> list[int]:
    """The seats a roll in the area decides for."""
    seats = seats_with_camps(position, area_id)
    return [s for s in seats if s == reactions.only] if reactions.only >= 0 else seats


def begin(position: Position, mode: str) -> Reactions:
    """Phase 2 starts: every empire area with camps is to roll."""
    reactions = Reactions(mode)
    reactions.areas = empire_areas_with_camps(position)
    _enter_area(position, reactions)
    return reactions


def _enter_area(position: Position, reactions: Reactions) -> None:
    """Make the first area still to roll current: its war camps counted now, its rollers (per_player) listed."""
    if not reactions.areas:
        return
    area_id = reactions.areas[0]
    reactions.war_camps = position.camps_in_area("war", area_id)
    reactions.to_roll = _concerned(position, reactions, area_id) if reactions.mode == PER_PLAYER else []


def done(reactions: Reactions) -> bool:
    """Whether phase 2 is over."""
    return not reactions.areas


def gald_roller(reactions: Reactions) -> int:
    """The seat whose Gäld die is rolled next, or -1 while a reaction roll comes first (or the phase is over)."""
    return reactions.gald[0] if reactions.gald else -1


def total_for(position: Position, reactions: Reactions, seat: int, roll: int) -> int:
    """A player's modified total: the D10, +1 per war camp in the area, + the empire's Christian bonus if he is
    Christian (rule text, 2. and 10.)."""
    area_id = reactions.areas[0]
    empire = position.board.empire(position.empire_of[position.slot(area_id)])
    bonus = empire.christian_bonus if position.christian[seat] else 0
    return roll + reactions.war_camps + bonus


def reaction_roll(position: Position, reactions: Reactions, face: int) -> None:
    """The area's D10 (per_area) or the next player's (per_player) shows `face`: each player concerned gets his
    result; Krig destroys his camps at once, Gäld waits for its die."""
    area_id = reactions.areas[0]
    empire = position.board.empire(position.empire_of[position.slot(area_id)])
    seats = [reactions.to_roll.pop(0)] if reactions.mode == PER_PLAYER else _concerned(position, reactions, area_id)
    for seat in seats:
        total = total_for(position, reactions, seat, face)
        result = empire.reaction_to(total)
        reactions.results.append(ReactionResult(area_id, seat, face, total, result, 0))
        if result == KRIG:
            _remove_all_camps(position, seat, area_id, into_ships=False)
        elif result == GALD:
            reactions.gald.append(seat)
    _next(position, reactions)


def gald_roll(position: Position, reactions: Reactions, face: int) -> None:
    """The Gäld die of the first seat waiting shows `face`: he gets the Gäld table's silver, and his camps in the
    area become ships of their type there, one per camp."""
    seat = reactions.gald.pop(0)
    area_id = reactions.areas[0]
    silver = position.board.gald(face)
    position.gain_silver(seat, silver)
    _remove_all_camps(position, seat, area_id, into_ships=True)
    for index in range(len(reactions.results) - 1, -1, -1):
        entry = reactions.results[index]
        if entry.area == area_id and entry.seat == seat and entry.result == GALD:
            reactions.results[index] = entry._replace(silver=silver)
            break
    _next(position, reactions)


def _remove_all_camps(position: Position, seat: int, area_id: str, into_ships: bool) -> None:
    for kind in SHIP_TYPES:
        n = position.camps_at(seat, kind, area_id)
        if n:
            position.remove_camps(seat, kind, area_id, n)
            if into_ships:
                position.place_ships(seat, kind, area_id, n)


def _next(position: Position, reactions: Reactions) -> None:
    """Move on to the next area once the current one has no roll and no Gäld die left."""
    if reactions.gald or reactions.to_roll:
        return
    reactions.areas.pop(0)
    _enter_area(position, reactions)


# -- the steps (`step_rules.STEP_RULES`): REACTION_ROLL and GALD_ROLL -----------------------------------------------


class ReactionTable(Protocol):
    """What phase 2's steps read of the state (`situation.Situation` is one)."""

    position: Position
    reactions: Reactions


def apply_reaction_roll(table: ReactionTable, action: int) -> None:
    """A D10 on the empire's reaction table."""
    reaction_roll(table.position, table.reactions, action - ROLL + 1)


def apply_gald_roll(table: ReactionTable, action: int) -> None:
    """A D10 on the Gäld table."""
    gald_roll(table.position, table.reactions, action - ROLL + 1)
