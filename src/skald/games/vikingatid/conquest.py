"""Conquest: who has conquered an area ("An area is conquered if …", the untitled section after 11. Next turn).

Rule text: "An area is conquered if it contains one trading camp per trading value AND one war camp per shield
symbol." "If an area contains camps of another player (only possible for the same Viking kingdom), the player
cannot conquer the area, except by using the cards Heritage ("Förläning") or Small Kingdom ("Smårike")". "If a camp
in a conquered area is lost, the area is not conquered any more. To re-conquer it, the player must rebuild any lost
camps."

Skald's reading (VA-60, RULE): conquest is not a marker but a fact of the table, read afresh after every change, so
losing any of the required camps ends it at once. One player must own at least one trading camp per coin (the
area's trade value now, `Position.trade_value`, so Khorasan needs fewer once the mines are dry) AND one war camp per
shield; no other player may have any camp there. An area with no shields needs trading camps only. Only land
areas where camps may be built can be conquered (not seas, Viking kingdoms or empire cores, VA-45).

Heritages and small kingdoms (FÖRLÄNING, SMÅRIKE; VA-23): "The area counts as conquered, and the player get victory
points for it every turn", even with other players' camps in it. The marker (`Position.fief`) holds while its holder
keeps at least one war camp in the area (`fief_loss: last_war_camp`, the card's own condition); it is read here
afresh like any conquest, and `drop_lost_fiefs` takes lost markers off the table so that a war camp rebuilt later
does not bring them back. No rule option is read here.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import SHIP_TYPES, TRADING, WAR
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.setup import NOBODY

#: The offsets of the two camp types in a seat's row of camps (type index × number of areas + slot).
_TRADING: Final = SHIP_TYPES.index(TRADING)
_WAR: Final = SHIP_TYPES.index(WAR)


def fief_holder(position: Position, slot: int) -> int:
    """The holder of the heritage or small kingdom in the area at `slot` while it holds (he keeps a war camp there,
    VA-23), or NOBODY."""
    holder = position.fief[slot]
    if holder == NOBODY or position.controlled_at(holder, _WAR * position.num_areas + slot) <= 0:
        return NOBODY
    return holder


def drop_lost_fiefs(position: Position) -> list[str]:
    """Take off the markers of heritages and small kingdoms whose holder has lost his last war camp there (VA-23:
    lost for good; a new war camp does not bring the marker back). Returns their areas, in board order."""
    lost: list[str] = []
    for slot, area_id in enumerate(position.area_ids):
        if position.fief[slot] != NOBODY and fief_holder(position, slot) == NOBODY:
            position.fief[slot] = NOBODY
            position.fief_kind[slot] = ""
            lost.append(area_id)
    return lost


def conqueror(position: Position, area_id: str) -> int:
    """The seat that has conquered the area now, or NOBODY: the holder of a heritage or small kingdom there
    (VA-23), else the only seat with camps there, holding at least one trading camp per coin and one war camp per
    shield (VA-60)."""
    area = position.board.area(area_id)
    if not area.is_land or area.no_camps:
        return NOBODY
    slot = position.slot(area_id)
    if position.separatists[slot]:
        # UTBRYTARE: "all camps remain there, but are not under control of any player" (VA-22): no one's camps
        # there, so no one's conquest (the loop below, reading controlled camps, would find the same).
        return NOBODY
    holder = fief_holder(position, slot)
    if holder != NOBODY:
        return holder
    n = position.num_areas
    owner = NOBODY
    trading = 0
    war = 0
    for seat in range(position.num_players):
        own_trading = position.controlled_at(seat, _TRADING * n + slot)
        own_war = position.controlled_at(seat, _WAR * n + slot)
        if own_trading or own_war:
            if owner != NOBODY:
                # Another player's camp in the area prevents conquest.
                return NOBODY
            owner, trading, war = seat, own_trading, own_war
    if owner == NOBODY:
        return NOBODY
    if trading >= position.trade_value(area_id) and war >= area.shields:
        return owner
    return NOBODY


def conquered_areas(position: Position, seat: int) -> list[str]:
    """The areas the seat has conquered now, in board order."""
    return [area_id for area_id in position.area_ids if conqueror(position, area_id) == seat]


def conquests(position: Position) -> list[tuple[str, int]]:
    """Every conquered area with its conqueror, in board order (one pass over the board, for scoring and views)."""
    found: list[tuple[str, int]] = []
    for area_id in position.area_ids:
        seat = conqueror(position, area_id)
        if seat != NOBODY:
            found.append((area_id, seat))
    return found


def conquered_count(position: Position) -> list[int]:
    """Per seat, how many areas he has conquered now (the `most_conquered` tie-break, VA-63)."""
    counts = [0] * position.num_players
    for _area_id, seat in conquests(position):
        counts[seat] += 1
    return counts
