"""6.4 after the fight: plunder by strength, war camps and their cap, and destroying other kingdoms' trading camps.

Rule text: "A fleet that defeats all armies in an area can plunder it. If the army strength was five, the Viking
player gets as many silver as the number of armies he defeated. If the strength was three, he receives one silver.
If the army strength was two, he does not get anything." "A plundered area cannot be plundered again in the same
turn. ... There is automatically a trading stop in all plundered areas." "A war fleet that defeats all armies in an
area can establish war camps there. ... He removes two ships per camp ... All players together cannot have more war
camps per area than the number of shields printed on the map. Only players from the same kingdom can have war camps
in the same area." "Other players' trading camps can be destroyed by moving a war fleet there, if the other player
has neither war ships nor war camps in the area."

Skald's readings: a fleet that beat the armies may plunder (if the area is not plundered this turn) and also build
war camps (`after_victory: both`), or only one of them (`one`) (VA-57); an area without armies pays nothing at
strength 5 and 1 at strength 3 (`armyless_area: free_win`) or cannot be plundered (`nothing`) (VA-56); after an
emigration, where he and his old countrymen both hold war camps, neither side adds more while the other's remain
(`mixed_war_camps: frozen`) (VA-61); trading camps are destroyed once the armies are beaten, all of each such owner's
at once (VA-58).
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.kingdoms_war import countrymen, may_fight
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.trade import camp_room

WAR: Final = "war"
TRADING: Final = "trading"


def plunder_silver(strength: int, armies_defeated: int) -> int:
    """The silver a plunder pays: the armies defeated at strength 5, one at strength 3, nothing at strength 2."""
    if strength >= 5:
        return armies_defeated
    if strength >= 3:
        return 1
    return 0


def plunder(position: Position, fleet: int, armies_defeated: int) -> int:
    """The fleet plunders where it is: its owner gets the silver, a plundered marker goes down. Returns the
    silver."""
    f = position.fleets[fleet]
    silver = plunder_silver(position.board.area(f.area).strength, armies_defeated)
    if silver:
        position.gain_silver(f.owner, silver)
    position.plundered[position.slot(f.area)] = True
    return silver


def war_camp_room(position: Position, seat: int, area_id: str, mixed_war_camps: str) -> int:
    """How many war camps the seat may add in the area: the shields' room, and none while another kingdom's war
    camps stand there (his old countrymen's too under `mixed_war_camps: frozen`)."""
    for other in range(position.num_players):
        if other == seat or not position.controlled_camps(other, WAR, area_id) or countrymen(position, seat, other):
            continue
        old_countrymen = position.kingdom_of(seat) == position.kingdom_of(other)
        if not (old_countrymen and mixed_war_camps == "allowed"):
            return 0
    return camp_room(position, WAR, area_id)


def destroy_targets(position: Position, seat: int, area_id: str) -> list[int]:
    """The seats whose trading camps the seat's war fleet may destroy: of another kingdom, not at King's Peace with
    him, with trading camps there and neither war ships nor war camps (camps under his control: separatist camps
    are no one's, VA-22, and go only as `journeys` lets a victor remove them)."""
    return [
        other
        for other in range(position.num_players)
        if may_fight(position, seat, other)
        and position.controlled_camps(other, TRADING, area_id)
        and not position.controlled_camps(other, WAR, area_id)
        and not position.ships_at(other, WAR, area_id)
    ]


def destroy(position: Position, seat: int, area_id: str) -> list[tuple[int, int]]:
    """The seat's war fleet destroys every trading camp of the seats it may (see `destroy_targets`); returns
    (owner, camps) destroyed."""
    lost = []
    for other in destroy_targets(position, seat, area_id):
        n = position.camps_at(other, TRADING, area_id)
        position.remove_camps(other, TRADING, area_id, n)
        lost.append((other, n))
    return lost
