"""6.3 Trading fleets: trade, trade stops, and trading camps with their cap.

Rule text: "After having rolled for losses, the trading fleet can do two things: Trade; Establish trading camps. It
is allowed to conduct trade and establish trading camps in the same area, if the fleet contains enough ships." "The
player removes one ship from the fleet. He gets silver equal to the areas trade value. A trading stop occurs in the
area ... In areas with trading stop, no trading is allowed, but trading fleets may still move through or establish
trading camps there." "He removes two ships per camp and substitutes them with a "trading camp" counter. All
players together may not have more trading camps in an area than the area's trading value." Plundered areas: a
trading fleet "can neither trade nor build trading camps in the area". Kingdoms: "No camps may be built there ...
Trade works as usual."

Skald's readings: no one trades in Denmark, Norway or Sweden (`home_trade: none`), or members in their own homeland
(`own_members`) (VA-52); trade in empire cores is allowed (VA-45); a stop allows one trade and one building action.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import MAX_BUILD
from skald.games.vikingatid.board import VIKING_KINGDOM
from skald.games.vikingatid.kingdoms_war import side
from skald.games.vikingatid.position import Position

#: Ships a camp costs (6.3, "Establish war camps").
SHIPS_PER_CAMP: Final = 2
TRADING: Final = "trading"


def can_trade(position: Position, seat: int, area_id: str, home_trade: str, despite_plunder: bool = False) -> bool:
    """Whether the seat's trading fleet may trade in the area now: a land area with a trade value, no trade stop,
    not plundered (`despite_plunder`: FRI LEJD with FRI HANDEL, VA-28); a Viking homeland only under `home_trade:
    own_members`, and only his own."""
    slot = position.slot(area_id)
    area = position.board.area(area_id)
    if not area.is_land or position.trade_stop[slot] or position.trade_value(area_id) <= 0:
        return False
    if position.plundered[slot] and not despite_plunder:
        return False
    if area.kind == VIKING_KINGDOM:
        return home_trade == "own_members" and side(position, seat) == area.kingdom
    return True


def trade(position: Position, fleet: int, times: int = 1) -> int:
    """The fleet trades where it is: one ship leaves it, its owner gets the area's trade value (`times` over: BRA
    HANDEL doubles it for one trade, the silver only), a trade stop goes down. Returns the silver."""
    f = position.fleets[fleet]
    silver = position.trade_value(f.area) * times
    position.lose_fleet_ships(fleet, 1)
    position.gain_silver(f.owner, silver)
    position.trade_stop[position.slot(f.area)] = True
    return silver


def camp_room(position: Position, kind: str, area_id: str) -> int:
    """How many more camps of `kind` the area takes: trading camps up to its trade value, war camps up to its
    shields, all players together; none where camps are banned."""
    area = position.board.area(area_id)
    if area.no_camps or not area.is_land or area.kind == VIKING_KINGDOM:
        return 0
    cap = position.trade_value(area_id) if kind == TRADING else area.shields
    return max(cap - position.camps_in_area(kind, area_id), 0)


def build_counts(position: Position, fleet: int, room: int) -> range:
    """The numbers of camps the fleet may build: 1 up to its ships / 2, the room, and MAX_BUILD."""
    return range(1, min(position.fleets[fleet].size // SHIPS_PER_CAMP, room, MAX_BUILD) + 1)


def build(position: Position, fleet: int, n: int) -> None:
    """The fleet builds `n` camps of its type where it is, two ships a camp."""
    f = position.fleets[fleet]
    position.lose_fleet_ships(fleet, SHIPS_PER_CAMP * n)
    position.build_camps(f.owner, f.kind, f.area, n)
