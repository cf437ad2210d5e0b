"""Phase 8, "Clear markers and discard": markers go, War turns to Peace?, ships that could not move are removed.

Rule text (8. Remove markers and discard): "All trade stop and plundered markers are removed from the map. Remove
all Peace? markers. Turn all War markers unto their "Peace?" side (remember the misprint). Remove ships that could
not move ( like e trading ships locked in an area due to plundering). Players with more than three cards must
discard their hand down to three cards per player." War between Viking kingdoms: "Peace occurs at the end of the
next turn, when the "Peace?" marker is removed, if none of the countries at war have fought each other any more."

Skald's readings (VA-40): Peace? markers are removed first, then War markers turn to Peace?, so a war lasts through
the next turn as Peace? and ends at the cleanup after it unless a fight turns it back to War. Under `war_tracking:
per_kingdom` this acts on each kingdom's marker (`Position.war`), under `per_pair` on each pair's state
(`Position.pair_war`). Every ship still on the board, standing or in a fleet still under way, leaves the game: phase 6
removes unused ships at its end ("All unused ships are removed from the board"), so what is left could not move.
Discarding is one of the cards' steps. Option read: `war_tracking`. The phase has no decision.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from skald.games.vikingatid.actions import KINGDOMS, SHIP_TYPES
from skald.games.vikingatid.position import KINGDOM_PAIRS, NO_MARKER, PEACE_PENDING, WAR_MARKER, Position

PER_KINGDOM: Final = "per_kingdom"
PER_PAIR: Final = "per_pair"


class ShipsRemoved(NamedTuple):
    """Ships that could not move and left the game: the owner, type, area and number."""

    seat: int
    kind: str
    area: str
    n: int


class CleanupResult(NamedTuple):
    """What phase 8 did, for the log: the areas that lost a trade stop or plundered marker, the kingdoms (or pairs,
    "denmark-norway") whose Peace? went (peace) and whose War turned to Peace?, and the ships removed."""

    trade_stops: tuple[str, ...]
    plundered: tuple[str, ...]
    peace: tuple[str, ...]
    war_to_peace: tuple[str, ...]
    ships: tuple[ShipsRemoved, ...]


def _next_marker(marker: str) -> str:
    """Phase 8 on one marker: Peace? goes, War turns to Peace?, none stays none."""
    if marker == PEACE_PENDING:
        return NO_MARKER
    if marker == WAR_MARKER:
        return PEACE_PENDING
    return marker


def _clear_markers(position: Position, war_tracking: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The war markers' turn (VA-40); returns the kingdoms (pairs) at peace now and those turned to Peace?."""
    if war_tracking == PER_KINGDOM:
        markers = position.war
        names = list(KINGDOMS)
    elif war_tracking == PER_PAIR:
        markers = position.pair_war
        names = [f"{KINGDOMS[a]}-{KINGDOMS[b]}" for a, b in KINGDOM_PAIRS]
    else:
        raise ValueError(f"war_tracking: {war_tracking!r} is not one of ['per_kingdom', 'per_pair']")
    peace: list[str] = []
    war_to_peace: list[str] = []
    if war_tracking == PER_PAIR:
        # A war with an emigrant's home country marks the kingdom alone, per kingdom, under either mode.
        for k, marker in enumerate(position.war):
            position.war[k] = _next_marker(marker)
    for i, marker in enumerate(markers):
        if marker == PEACE_PENDING:
            peace.append(names[i])
        elif marker == WAR_MARKER:
            war_to_peace.append(names[i])
        markers[i] = _next_marker(marker)
    return tuple(peace), tuple(war_to_peace)


def _remove_ships(position: Position) -> tuple[ShipsRemoved, ...]:
    """Every ship still on the board leaves the game through the ledger: fleets under way, then standing ships."""
    removed: list[ShipsRemoved] = []
    while position.fleets:
        last = len(position.fleets) - 1
        fleet = position.fleets[last]
        position.lose_fleet_ships(last, fleet.size)
        removed.append(ShipsRemoved(fleet.owner, fleet.kind, fleet.area, fleet.size))
    areas = position.num_areas
    for seat in range(position.num_players):
        row = position.ships[seat]
        for index in range(len(row)):
            n = row[index]
            if n > 0:
                kind, area_id = SHIP_TYPES[index // areas], position.area_ids[index % areas]
                position.remove_ships(seat, kind, area_id, n)
                removed.append(ShipsRemoved(seat, kind, area_id, n))
    return tuple(removed)


def clean(position: Position, war_tracking: str) -> CleanupResult:
    """Phase 8 on the table."""
    trade_stops = tuple(area_id for slot, area_id in enumerate(position.area_ids) if position.trade_stop[slot])
    plundered = tuple(area_id for slot, area_id in enumerate(position.area_ids) if position.plundered[slot])
    for slot in range(position.num_areas):
        position.trade_stop[slot] = False
        position.plundered[slot] = False
    peace, war_to_peace = _clear_markers(position, war_tracking)
    ships = _remove_ships(position)
    return CleanupResult(trade_stops, plundered, peace, war_to_peace, ships)
