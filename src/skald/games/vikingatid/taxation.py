"""Phase 7, "Taxation": members pay half their silver into the treasury; untroubled trading camps pay 1 each.

Rule text: "A player from a Viking kingdom pays half his silver (rounded down) into the treasury." "The treasury of
a Viking KINGDOM gets also one silver per trading camp which this kingdom has established on the map. Trading camps
which have a trade stop or were plundered do not contribute to this." "A player who emigrated from his home count
keeps all his silver. He also gets as much silver he has trading camps on the map, except for trading camps which
have a trade stop or were plundered."

Skald's readings (VA-61): a kingdom's trading camps are its members' (an emigrant's camps no longer count as his old
kingdom's); a trade stop or plundered marker on the area stops every trading camp there; an emigrant, homeless or
not, pays nothing and gains 1 silver per such camp of his own. Emigration comes first (the state runs
`emigration` before this). The phase has no decision: it is applied at once, kingdoms in the rulebook's order, then
the emigrants in seat order. No rule option is read here.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from skald.games.vikingatid.actions import KINGDOMS, SHIP_TYPES, TRADING
from skald.games.vikingatid.position import Position

_TRADING: Final = SHIP_TYPES.index(TRADING)


class TaxLine(NamedTuple):
    """What one seat's taxation did, for the log: his kingdom ("" for an emigrant), the silver he paid into its
    treasury, and the silver his untroubled trading camps brought (into the treasury for a member, to himself for
    an emigrant)."""

    seat: int
    kingdom: str
    paid: int
    camp_silver: int


def untroubled_trading_camps(position: Position, seat: int) -> int:
    """The seat's trading camps in areas with neither a trade stop nor a plundered marker, nor a separatists marker
    (UTBRYTARE: those camps belong to no one and pay no silver, VA-22)."""
    row = position.controlled_row(seat)
    base = _TRADING * position.num_areas
    return sum(
        row[base + slot]
        for slot in range(position.num_areas)
        if row[base + slot] and not position.trade_stop[slot] and not position.plundered[slot]
    )


def tax(position: Position) -> list[TaxLine]:
    """Phase 7 on the table, through its ledger; one line per seat, members by kingdom, then the emigrants."""
    lines: list[TaxLine] = []
    for kingdom in KINGDOMS:
        gains = 0
        for seat in position.members(kingdom):
            paid = position.silver[seat] // 2
            if paid > 0:
                position.pay_treasury(seat, kingdom, paid)
            camps = untroubled_trading_camps(position, seat)
            gains += camps
            lines.append(TaxLine(seat, kingdom, paid, camps))
        if gains > 0:
            position.treasury_gains(kingdom, gains)
    for seat in range(position.num_players):
        if position.emigrated[seat]:
            camps = untroubled_trading_camps(position, seat)
            if camps > 0:
                position.gain_silver(seat, camps)
            lines.append(TaxLine(seat, "", 0, camps))
    return lines
