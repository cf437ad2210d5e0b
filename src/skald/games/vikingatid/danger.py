"""Danger value (6.2): counting the danger of the areas a fleet enters, the breaks, and the roll for losses.

Rule text: "On the way to this destination, the player adds all danger values of passed areas together." "If a fleet
enters a land area with appropriate ("war" or "trading") camps of the same home country, that area's danger value is
reduced by one per camp. An area's danger value can never be less than zero." "When the fleet reaches its camp or
destination, the player rolls a dice. If he roll higher than the total of danger points accumulated during the
journey, the fleet suffers no losses. If he rolls lower or equal, he loses as many ships as the number he rolled. If
he rolls ten, the fleet suffers no loss at all." "A destination, or a camp of the same type as the fleet, works as
break ... The accumulated danger points are reset to zero". "A player also needs to roll a dice if his fleet
accumulates ten danger points."

Skald's readings: every area entered counts, the destination or camp area included, the start area not (VA-48,
`danger_at_destination`); the camp reduction counts camps of the fleet's type of the same kingdom (an emigrant's own
only), never separatist camps, which are no one's (VA-22); whose camps end a leg follows `camp_break` (VA-47); at
ten points the roll is against the whole total, the count restarts at 0 and points above 10 are dropped
(`danger_overflow: drop`) or start the next count (`carry`) (VA-49); with no danger counted there is nothing to roll
for (VA-51).
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.kingdoms_war import countrymen
from skald.games.vikingatid.position import Position

#: The total that forces a roll on the way (6.2).
TEN_POINTS: Final = 10
#: The face that always saves the fleet.
SAFE_FACE: Final = 10
OWN_CAMPS: Final = "own_camps"
KINGDOM_CAMPS: Final = "kingdom_camps"
ANY_CAMPS: Final = "any_camps"


def kingdom_camps(position: Position, seat: int, kind: str, area_id: str) -> int:
    """Camps of `kind` in the area belonging to the seat or his countrymen (an emigrant: his own); none in a
    separatist area, whose camps are "not under control of any player" (VA-22)."""
    return sum(
        position.controlled_camps(s, kind, area_id)
        for s in range(position.num_players)
        if countrymen(position, seat, s)
    )


def area_danger(position: Position, seat: int, kind: str, area_id: str) -> int:
    """The danger an area adds when the seat's fleet of `kind` enters it: its serpents or dragon heads, less one per
    camp of that type of his kingdom in a land area, never below 0."""
    area = position.board.area(area_id)
    if not area.is_land:
        return area.danger
    return max(area.danger - kingdom_camps(position, seat, kind, area_id), 0)


def breaks_leg(position: Position, seat: int, kind: str, area_id: str, camp_break: str) -> bool:
    """Whether entering the area ends the leg at a camp of the fleet's type (VA-47): the seat's own
    (`own_camps`), his kingdom's (`kingdom_camps`), or any camp at all, whoever owns it (`any_camps`, the literal
    "a camp of its type": a separatist camp too, since that reading asks for no owner). Under the first two a
    separatist camp is no one's and ends no leg (VA-22)."""
    if camp_break == OWN_CAMPS:
        return position.controlled_camps(seat, kind, area_id) > 0
    if camp_break == KINGDOM_CAMPS:
        return kingdom_camps(position, seat, kind, area_id) > 0
    if camp_break == ANY_CAMPS:
        return position.camps_in_area(kind, area_id) > 0
    raise ValueError(f"camp_break: {camp_break!r} is not one of ['own_camps', 'kingdom_camps', 'any_camps']")


def ships_lost(face: int, danger: int, size: int) -> int:
    """Ships a fleet of `size` loses to a roll of `face` against `danger` points: none on a 10 or a roll above the
    danger, else as many as the roll (at most the fleet)."""
    if face == SAFE_FACE or face > danger:
        return 0
    return min(face, size)


def danger_after_roll(danger: int, overflow: str) -> int:
    """The count after a roll: 0, or under `carry` the points above ten."""
    if overflow == "carry" and danger > TEN_POINTS:
        return danger - TEN_POINTS
    return 0
