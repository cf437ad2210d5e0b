"""Phase 10, "Christianisation": pagan players roll from the year 900; Christian camps may be assimilated.

Rule text (10. Christianisation): "Each turn, starting in the year 900, every player rolls a dice to see if he
becomes christianised, The chances for this are gives on the turn track. When all players have become
christianised, the game ends after this turn." "ac urn, a dice is rolled for each area in Britain or the
German-Roman empire that contain Christian camps. At a roll of one, these camps go up in the regional population and
are removed from the board." Summary: "10. Christianisation Starting in the year 900, each player rolls a dice to see
if he becomes christianised."

Skald's readings (VA-03, VA-04, VA-62, VA-06): the turn's box on the track (`Board.turn_track`) gives the chance in
tenths; a D10 showing at most that number christianises the roller, so the chance is what counts, not which end of
the die the printed board asks for (VA-04). No one rolls before the track's `christianisation_from` year (900) or
while the box's chance is 0; beyond the last box (`last_year: none`) the last chance is repeated (VA-05). The pagan
players roll in seat order from the turn's first seat; a player who is Christian by the time his roll comes (by a
card) does not roll. Then, under `assimilation: phase_10` (the default; the state passes `assimilate`), one D10
for each area of the empires with a Christian bonus on the board (Britain and the German-Roman Empire), by the
empire each area belongs to now (`Position.empire_of`), that holds camps of Christian players, in board order, the
christianisations just rolled included; on a 1 every Christian player's camps there are removed, pagan camps stay.
An emigrant whose home loses a camp so becomes homeless at once (VA-61). Under `assimilation: phase_2` the state
rolls for `assimilation_areas` with the reactions instead (`begin_assimilation`). Heritage areas (VA-23) come with
the cards. Every roll is a chance node (VA-07).
"""

from __future__ import annotations

from typing import Final, Protocol

from skald.engine import IllegalAction
from skald.games.vikingatid.actions import ROLL, SHIP_TYPES
from skald.games.vikingatid.emigration import check_homeless
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.setup import D10_FACES
from skald.games.vikingatid.steps import seat_order

#: `roller()` while no seat rolls (the assimilation rolls, or the phase is over).
NO_ROLLER: Final = -1
#: The face of the assimilation die that removes the Christian camps ("At a roll of one").
ASSIMILATION_FACE: Final = 1


class Christianisation:
    """Phase 10 under way: the chance of this turn's box, the pagan seats still to roll (head first), the areas still
    to roll for assimilation (filled once the seats have rolled), and what happened. Plain class, cloned through its
    constructor (mypyc-ready)."""

    def __init__(self, assimilate: bool, chance: int, source: Christianisation | None = None) -> None:
        self.assimilate: Final = assimilate
        self.chance: Final = chance
        if source is not None:
            self.queue: list[int] = list(source.queue)
            self.areas: list[str] = list(source.areas)
            self.assimilating: bool = source.assimilating
            self.converted: list[int] = list(source.converted)
            self.assimilated: list[str] = list(source.assimilated)
            self.homeless: list[int] = list(source.homeless)
            return
        self.queue = []
        self.areas = []
        self.assimilating = False
        self.converted = []
        self.assimilated = []
        self.homeless = []

    def clone(self) -> Christianisation:
        """An independent copy."""
        return Christianisation(self.assimilate, self.chance, self)


def chance(position: Position) -> int:
    """This turn's chance of christianisation in tenths: 0 before the track's first year of rolls (900); the box's
    chance; beyond the last box, the last box's chance (VA-04, VA-05)."""
    track = position.board.turn_track
    if position.year < track.christianisation_from or not track.turns:
        return 0
    last = track.turns[0]
    for box in track.turns:
        if box.turn == position.turn:
            return box.chance
        if box.turn > last.turn:
            last = box
    return last.chance if position.turn > last.turn else 0


def _christian_empires(position: Position) -> list[str]:
    """The empires whose areas assimilate Christian camps: those with a Christian bonus on the board (Britain and
    the German-Roman Empire)."""
    return [empire.id for empire in position.board.empires if empire.christian_bonus > 0]


def _christian_camps(position: Position, slot: int) -> bool:
    """Whether any Christian player has a camp under his control in the area at `slot` (separatist camps are no
    one's, so no Christian's, VA-22)."""
    n = position.num_areas
    return any(
        position.christian[seat] and position.controlled_at(seat, t * n + slot)
        for seat in range(position.num_players)
        for t in range(len(SHIP_TYPES))
    )


def assimilation_areas(position: Position) -> list[str]:
    """The areas of Britain and the German-Roman Empire (as the table says now) holding camps of Christian players,
    in board order (VA-62)."""
    empires = _christian_empires(position)
    return [
        area_id
        for slot, area_id in enumerate(position.area_ids)
        if position.empire_of[slot] in empires and _christian_camps(position, slot)
    ]


def _settle(position: Position, c: Christianisation) -> None:
    """The next roll, from the table as it is now: skip seats already Christian; once the seats are done, list the
    areas to assimilate (with the new Christians), and skip areas no longer holding Christian camps."""
    while c.queue and position.christian[c.queue[0]]:
        c.queue.pop(0)
    if c.queue:
        return
    if not c.assimilating:
        c.assimilating = True
        if c.assimilate:
            c.areas = assimilation_areas(position)
    while c.areas and not _christian_camps(position, position.slot(c.areas[0])):
        c.areas.pop(0)


def begin(position: Position, assimilate: bool) -> Christianisation:
    """The start of phase 10: the pagan seats in seat order from the turn's first seat roll if this turn's chance is
    above 0; then, if `assimilate`, the assimilation rolls."""
    c = Christianisation(assimilate, chance(position))
    if c.chance > 0:
        c.queue = [
            seat for seat in seat_order(position.first_seat, position.num_players) if not position.christian[seat]
        ]
    _settle(position, c)
    return c


def begin_assimilation(position: Position) -> Christianisation:
    """The assimilation rolls alone (`assimilation: phase_2`): one for each area of `assimilation_areas`."""
    c = Christianisation(True, 0)
    _settle(position, c)
    return c


def roller(c: Christianisation) -> int:
    """The seat rolling for christianisation now, or NO_ROLLER (-1) during the assimilation rolls and once over."""
    return c.queue[0] if c.queue else NO_ROLLER


def area(c: Christianisation) -> str:
    """The area rolling for assimilation now ("" while seats roll, and once over)."""
    return c.areas[0] if not c.queue and c.areas else ""


def done(c: Christianisation) -> bool:
    """Whether phase 10 (or the assimilation rolls) is over."""
    return not c.queue and not c.areas


def assimilate_area(position: Position, area_id: str) -> list[int]:
    """The Christian players' camps in the area "go up in the regional population": all of them are removed, pagan
    camps stay, and so do separatist camps, which belong to no one (VA-22). Returns the seats that lost camps."""
    losers: list[int] = []
    for seat in range(position.num_players):
        if not position.christian[seat]:
            continue
        for kind in SHIP_TYPES:
            n = position.controlled_camps(seat, kind, area_id)
            if n > 0:
                position.remove_camps(seat, kind, area_id, n)
                if seat not in losers:
                    losers.append(seat)
    return losers


def roll(position: Position, c: Christianisation, face: int) -> None:
    """The D10 shows `face`: the roller is christianised if it is at most the chance; an assimilation roll of 1
    removes the Christian camps of its area. `IllegalAction` (nothing changes) if no one rolls or the face is not
    1-10."""
    if face not in D10_FACES:
        raise IllegalAction("VA-07", f"a D10 shows 1 to 10, not {face}")
    if c.queue:
        seat = c.queue.pop(0)
        if face <= c.chance:
            position.christian[seat] = True
            c.converted.append(seat)
    elif c.areas:
        area_id = c.areas.pop(0)
        if face == ASSIMILATION_FACE:
            assimilate_area(position, area_id)
            c.assimilated.append(area_id)
            c.homeless.extend(check_homeless(position))
    else:
        raise IllegalAction("10. Christianisation", "no one rolls for christianisation or assimilation now")
    _settle(position, c)


# -- the steps (`step_rules.STEP_RULES`): CHRISTIANISATION_ROLL and ASSIMILATION_ROLL -------------------------------


class ChristianisationTable(Protocol):
    """What phase 10's steps (and the assimilation rolls of phase 2) read of the state (`situation.Situation` is
    one)."""

    position: Position
    christianisation: Christianisation


def apply_roll(table: ChristianisationTable, action: int) -> None:
    """A D10 for christianisation or for assimilation."""
    roll(table.position, table.christianisation, action - ROLL + 1)
