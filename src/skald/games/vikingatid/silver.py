"""Phase 4, "Distribution of Silver": home silver, the king's half, the shares, and the halving of a kingdom at war.

Rule text: "Each player belonging to Denmark, Norway or Sweden gets five silver from his home country. This
symbolises the country's trading value and does not influence the treasury." "The king of a country gets half the
treasury, rounded down. If there is no king, that silver vanishes instead." "The rest of the treasury is shared
among the players of that kingdom (rounded down), including the king. Any silver that cannot be divided up remains
in the treasury until the following turn." "If a Viking kingdom is at war, the players' silver is halved (rounded
down) at the end of this phase. This silver is out of the game." "Players with their own home country (i.e. they
have emigrated) get no silver from their land". War between Viking kingdoms: "Players of kingdom at war get only
half as much silver ... A King's Peace makes them get their normal rate of silver, even if there was war between
the kingdoms one turn before."

Skald's readings: a War and a Peace? marker both count as at war (VA-41 `war_silver`); all the silver each member
holds is halved (`war_halving: all_silver`) or only this phase's income (`income_only`); a King's Peace made this
turn lifts the halving for both kingdoms in it (VA-41); a king from another kingdom takes the half but shares in
the rest only under `foreign_king_share: half_and_share` (VA-42); emigrants get nothing and are in no war (untitled,
emigration). The phase has no decision: it is applied at once. Kingdoms are taken in the rulebook's order.
"""

from __future__ import annotations

from typing import NamedTuple

from skald.games.vikingatid.actions import KINGDOMS
from skald.games.vikingatid.position import KINGDOM_PAIRS, PEACE_PENDING, WAR_MARKER, Position
from skald.games.vikingatid.setup import NOBODY, start_position


class SilverRules(NamedTuple):
    """The rule options phase 4 reads (VA-40 – VA-42)."""

    war_tracking: str = "per_kingdom"
    war_silver: str = "war_or_peace_pending"
    war_halving: str = "all_silver"
    foreign_king_share: str = "half_only"


class Income(NamedTuple):
    """What one seat got in phase 4: home silver, the king's half, his share of the rest, and the silver lost to
    war (0 if his kingdom was not at war)."""

    seat: int
    home: int
    king: int
    share: int
    halved: int


def _halving_marker(marker: str, rules: SilverRules) -> bool:
    if rules.war_silver == "war_only":
        return marker == WAR_MARKER
    return marker in (WAR_MARKER, PEACE_PENDING)


def at_war(position: Position, kingdom: str, rules: SilverRules) -> bool:
    """Whether the kingdom's members' silver is halved this phase 4: its War (or Peace?) marker under `per_kingdom`,
    unless a King's Peace with any kingdom was made this turn; under `per_pair`, any pair of it at war without a
    King's Peace between the two (VA-40, VA-41)."""
    k = KINGDOMS.index(kingdom)
    pairs = [i for i, pair in enumerate(KINGDOM_PAIRS) if k in pair]
    if rules.war_tracking == "per_pair":
        # The pairs' states, and the kingdom's own marker of a war with an emigrant's home country.
        paired = any(_halving_marker(position.pair_war[i], rules) and not position.kings_peace[i] for i in pairs)
        return paired or _halving_marker(position.war[k], rules)
    if any(position.kings_peace[i] for i in pairs):
        return False
    return _halving_marker(position.war[k], rules)


def distribute(position: Position, rules: SilverRules) -> list[Income]:
    """Phase 4 on the table, through its ledger; returns each seat's income in seat order."""
    n = position.num_players
    home = [0] * n
    king_half = [0] * n
    share = [0] * n
    halved = [0] * n
    home_silver = start_position(position.board).home_silver
    for kingdom in KINGDOMS:
        k = KINGDOMS.index(kingdom)
        members = position.members(kingdom)
        for seat in members:
            if home_silver > 0:
                position.gain_silver(seat, home_silver)
                home[seat] += home_silver
        half = position.treasury[k] // 2
        king = position.king[k]
        if half > 0:
            if king == NOBODY:
                position.treasury_loses(kingdom, half)
            else:
                position.draw_treasury(kingdom, king, half)
                king_half[king] += half
        sharers = list(members)
        if king != NOBODY and king not in sharers and rules.foreign_king_share == "half_and_share":
            sharers.append(king)
        rest = position.treasury[k]
        each = rest // len(sharers) if sharers else 0
        if each > 0:
            for seat in sharers:
                position.draw_treasury(kingdom, seat, each)
                share[seat] += each
    # The halving comes at the end of the phase, after every kingdom has paid out.
    for kingdom in KINGDOMS:
        if not at_war(position, kingdom, rules):
            continue
        for seat in position.members(kingdom):
            base = position.silver[seat]
            if rules.war_halving == "income_only":
                base = min(base, home[seat] + king_half[seat] + share[seat])
            lost = base - base // 2
            if lost > 0:
                position.spend_silver(seat, lost)
                halved[seat] = lost
    return [Income(s, home[s], king_half[s], share[s], halved[s]) for s in range(n)]
