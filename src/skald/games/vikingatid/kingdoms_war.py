"""Between Viking kingdoms: who counts as one's own, the King's Peace, war markers, and the risk of war after a fight.

Rule text ("War between Viking kingdoms"): "Players from the same country may not fight each other." "For each
land area where camps or ships are destroyed, there is a risk of war between the participating Viking kingdoms.
Each participating player rolls a dice. If anyone's result is lower or equal the number of ships he lost, plus two
per camp, then war breaks out between his and opponent's kingdom. Any player involved in the combat can
furthermore declare war voluntarily after the fight." "Combat between home countries and Viking kingdoms always
result in war for the kingdom since home countries can never be at war." "If there is any combat between the two
kingdoms, the "Peace?" marker is immediately turned back to its War side." "If two Viking kings agree, they can
announce a King's Peace ... Then, no players from their kingdoms may fight each other." Emigration: the emigrant
"gets not involved in any wars his home country is participating in"; "The old fellow countrymen become enemies,
like the other Vikings".

Skald's readings (VA-40, VA-54, VA-58, VA-61): an emigrant is his own side, of no kingdom; War goes on both
kingdoms (`war_tracking: per_kingdom`, the physical markers) or on the pair (`per_pair`); a fight between an
emigrant and a kingdom puts War on the kingdom alone; between two emigrants nothing. A King's Peace forbids the
fight itself; a ban at Denmark's sea is not a fight, but its war roll is skipped between kingdoms at King's Peace.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import KINGDOMS
from skald.games.vikingatid.position import PEACE_PENDING, WAR_MARKER, Position, pair_index

PER_PAIR: Final = "per_pair"


def side(position: Position, seat: int) -> str:
    """The seat's side in war: his Viking kingdom, or "" once he has emigrated (he is then nobody's countryman)."""
    return "" if position.emigrated[seat] else position.kingdom_of(seat)


def countrymen(position: Position, a: int, b: int) -> bool:
    """Whether two seats are of the same Viking kingdom (a seat is always his own countryman): they never fight,
    and each passes the other's war camps freely."""
    if a == b:
        return True
    kingdom = side(position, a)
    return kingdom != "" and kingdom == side(position, b)


def at_kings_peace(position: Position, a: int, b: int) -> bool:
    """Whether a King's Peace holds between the two seats' kingdoms, so they may not fight each other."""
    first, second = side(position, a), side(position, b)
    if not first or not second or first == second:
        return False
    return position.kings_peace[pair_index(first, second)]


def may_fight(position: Position, attacker: int, defender: int) -> bool:
    """Whether the attacker may fight the defender: not countrymen, no King's Peace between them."""
    return not countrymen(position, attacker, defender) and not at_kings_peace(position, attacker, defender)


def break_out_war(position: Position, a: int, b: int, war_tracking: str) -> list[str]:
    """War between the two seats' sides: War on both kingdoms (a Peace? turns back to War), or on the kingdom alone
    when the other is an emigrant, nothing between two emigrants or countrymen. Returns the kingdoms marked."""
    first, second = side(position, a), side(position, b)
    marked = [k for k in (first, second) if k]
    if countrymen(position, a, b) or not marked:
        return []
    if war_tracking == PER_PAIR and first and second:
        # Each pair keeps its own state; a war with an emigrant's home country marks the kingdom alone (below).
        position.pair_war[pair_index(first, second)] = WAR_MARKER
        return marked
    for kingdom in marked:
        position.war[KINGDOMS.index(kingdom)] = WAR_MARKER
    return marked


def renew_war(position: Position, a: int, b: int, war_tracking: str) -> None:
    """ "If there is any combat between the two kingdoms, the "Peace?" marker is immediately turned back to its War
    side" (VA-40): a fight between two kingdoms turns a Peace? on either (or on their pair) back to War; the journeys
    call it as the fight starts (`war_renewal: first_round`) or once it is over (`after_fight`)."""
    first, second = side(position, a), side(position, b)
    if not first or not second or first == second:
        return
    if war_tracking == PER_PAIR:
        i = pair_index(first, second)
        if position.pair_war[i] == PEACE_PENDING:
            position.pair_war[i] = WAR_MARKER
        return
    for kingdom in (first, second):
        k = KINGDOMS.index(kingdom)
        if position.war[k] == PEACE_PENDING:
            position.war[k] = WAR_MARKER


def at_war_with(position: Position, a: int, b: int, war_tracking: str) -> bool:
    """Whether War already stands between the two sides (then a declaration would change nothing)."""
    first, second = side(position, a), side(position, b)
    if not first or not second or first == second:
        return False
    if war_tracking == PER_PAIR:
        return position.pair_war[pair_index(first, second)] == WAR_MARKER
    return position.war[KINGDOMS.index(first)] == WAR_MARKER and position.war[KINGDOMS.index(second)] == WAR_MARKER


def war_is_certain(position: Position, a: int, b: int) -> bool:
    """A fight between an emigrant's home country and a Viking kingdom always brings war to the kingdom, with no
    roll ("home countries can never be at war")."""
    return (side(position, a) == "") != (side(position, b) == "")


def war_risk(lost_ships: int, lost_camps: int) -> int:
    """The highest D10 that brings war for a participant: the ships he lost plus two per camp."""
    return lost_ships + 2 * lost_camps
