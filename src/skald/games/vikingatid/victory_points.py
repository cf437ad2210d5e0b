"""Phase 9, "Victory points distribution", and the final scoring of "Winning the game".

Rule text (9. Victory points): "Each turn, players get victory points for their conquered areas corresponding to the
areas' trade value. Players also get two points per turn and kingdom for being king of a Viking kingdom.
Furthermore, players get five victory points for discovering a hitherto unknown land area." Conquest: "For each
conquered area, the player gets victory points equal to the area's trade value each time victory points are given."
Winning the game: "When the game ends, each player gets one victory point for each of his camps."

Skald's readings (VA-60, VA-63): each conquered area (`conquest.conqueror`, read now) scores its current trade value
(Khorasan's lower value once the mines are dry); whoever holds each king counter in phase 9 scores 2, so a king of
two kingdoms scores 4; the first discoverer of each land discovered this turn (`Position.discovered_by`,
`discovered_turn == turn`) scores the board's discovery VP (5). VP never go down. At the end each player scores +1
VP per own trading or war camp. Each score is one `ScoreLine` (the scoring explanation per phase). No rule option is
read here; the phases have no decision.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from skald.games.vikingatid.actions import KINGDOMS, SHIP_TYPES
from skald.games.vikingatid.conquest import conquests
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.setup import NOBODY

#: Victory points per king counter per turn ("two points per turn and kingdom").
KING_VP: Final = 2
#: Victory points per camp at the end ("one victory point for each of his camps").
CAMP_VP: Final = 1
CONQUEST: Final = "conquest"
KING: Final = "king"
DISCOVERY: Final = "discovery"
CAMPS: Final = "camps"


class ScoreLine(NamedTuple):
    """One score: the seat, why ("conquest", "king", "discovery", "camps"), what for (an area id, or a kingdom for
    "king"), and the points."""

    seat: int
    reason: str
    subject: str
    points: int


def _apply(position: Position, lines: list[ScoreLine]) -> list[ScoreLine]:
    """Add the lines' points to the seats' victory points."""
    for line in lines:
        position.vp[line.seat] += line.points
    return lines


def phase_scores(position: Position) -> list[ScoreLine]:
    """What phase 9 would give now, without applying it: conquests in board order, kings in kingdom order,
    discoveries of this turn in board order."""
    lines: list[ScoreLine] = []
    # A separatist area is conquered by no one (`conqueror` reads only camps under control, VA-22).
    for area_id, seat in conquests(position):
        points = position.trade_value(area_id)
        if points > 0:
            lines.append(ScoreLine(seat, CONQUEST, area_id, points))
    for k, kingdom in enumerate(KINGDOMS):
        if position.king[k] != NOBODY:
            lines.append(ScoreLine(position.king[k], KING, kingdom, KING_VP))
    vp = position.board.discovery.vp
    for slot, area_id in enumerate(position.area_ids):
        if position.discovered_by[slot] != NOBODY and position.discovered_turn[slot] == position.turn and vp > 0:
            lines.append(ScoreLine(position.discovered_by[slot], DISCOVERY, area_id, vp))
    return lines


def score(position: Position) -> list[ScoreLine]:
    """Phase 9 on the table: the lines of `phase_scores`, added to the seats' victory points."""
    return _apply(position, phase_scores(position))


def final_scores(position: Position) -> list[ScoreLine]:
    """What the final scoring would give now, without applying it: per seat, per area in board order, its camps of
    both types."""
    lines: list[ScoreLine] = []
    n = position.num_areas
    for seat in range(position.num_players):
        # "Separatist camps count for no one" (VA-63, VA-22): only the camps he controls score.
        row = position.controlled_row(seat)
        for slot, area_id in enumerate(position.area_ids):
            camps = sum(row[t * n + slot] for t in range(len(SHIP_TYPES)))
            if camps > 0:
                lines.append(ScoreLine(seat, CAMPS, area_id, CAMP_VP * camps))
    return lines


def final_scoring(position: Position) -> list[ScoreLine]:
    """The end of the game (VA-63): +1 VP per own camp, added to the seats' victory points."""
    return _apply(position, final_scores(position))
