"""Emigration and homelessness (the untitled emigration section after "Winning the game"), at the start of phase 7.

Rule text: "A player can leave his original kingdom by saying that he emigrates. This is done in the beginning of
the Taxation phase (phase 7), before the player pays his taxes." "When emigrating, a player chooses one of his
conquered countries as new home country A home country marker is placed in the area." "The same player can
emigrate several times. He only needs a conquered territory that he can choose as new home country." "A player who
is king may not emigrate from the country of which he is king." "A player who loses his home country becomes
homeless. This is the case even if he loses only one camp in his home country, which thus is no longer conquered.
... If he conquers another area, he may declare it as home country."

Skald's readings (VA-61, VA-06): in seat order from the turn's first seat, each seat that may emigrate says where
(one of his conquered areas other than his current home, `conquest.conqueror`) or passes; a member who is king of
his own kingdom may not leave it. An emigrant (`Position.emigrated`) keeps the kingdom he left on record
(`Position.kingdom_of`) but is no longer its member; his home is `Position.home` ("" while homeless). Losing any camp in
the home area makes him homeless (`check_homeless`: the state calls it after every journey and at the start of phase
7, `christianisation.roll` after an assimilation); a homeless emigrant may declare a newly conquered area at the
start of a later phase 7, by the same choice.

The cards (VA-18, VA-20): once RIKSENANDE has taken effect for a kingdom (`Position.unified`), its members may no longer
emigrate (an emigrant, already out of every kingdom, may still declare a new home). A player sent into exile
(`Position.exiled`, EXIL: "must leave his homeland this turn") leaves at the start of phase 7 whatever RIKSENANDE says
(he was sent before it, or it would have forbidden the card): he chooses one of his conquered areas as home, or,
if he passes or has none, leaves homeless (`exile_without_conquest: homeless`); under `stays` an exile with no
conquered area stays a member and the exile lapses. Options read: `exile_without_conquest` (passed to `begin`);
`turn_order` through the table's first seat.
"""

from __future__ import annotations

from typing import Final, NamedTuple, Protocol

from skald.engine import IllegalAction
from skald.games.vikingatid.actions import EMIGRATE, KINGDOMS, PASS, ActionSpace
from skald.games.vikingatid.conquest import conquered_areas, conqueror, drop_lost_fiefs
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.steps import seat_order

#: `emigrant()` once the emigration step is over.
OVER: Final = -1
#: `exile_without_conquest` (VA-18): an exile with no conquered area leaves homeless, or stays and the exile lapses.
HOMELESS: Final = "homeless"
STAYS: Final = "stays"


class Emigrated(NamedTuple):
    """One emigration, for the log: the seat, the new home, and what he left (his kingdom, his old home, or "" if
    he was homeless)."""

    seat: int
    area: str
    left: str


class Emigration:
    """The emigration step of phase 7 under way: the seats still to choose (head first) and the emigrations made.
    Plain class, cloned through its constructor (mypyc-ready)."""

    def __init__(self, source: Emigration | None = None) -> None:
        if source is not None:
            self.queue: list[int] = list(source.queue)
            self.moves: list[Emigrated] = list(source.moves)
            return
        self.queue = []
        self.moves = []

    def clone(self) -> Emigration:
        """An independent copy."""
        return Emigration(self)


def in_exile(position: Position, seat: int) -> bool:
    """Whether the seat was sent into exile this turn and has not left yet (EXIL, VA-18)."""
    return position.exiled[seat] and not position.emigrated[seat]


def candidates(position: Position, seat: int) -> list[str]:
    """The areas the seat may emigrate to now, in board order: his conquered areas other than his current home; none
    while he is the king of the kingdom he would leave (an emigrant leaves a home country, not a kingdom), nor while
    RIKSENANDE holds for his kingdom (VA-20), unless he was sent into exile (VA-18)."""
    if not position.emigrated[seat] and not position.exiled[seat]:
        kingdom = position.kingdom_of(seat)
        if kingdom in KINGDOMS:
            k = KINGDOMS.index(kingdom)
            if position.king[k] == seat or position.unified[k]:
                return []
    home = position.home[seat] if position.emigrated[seat] else ""
    return [area_id for area_id in conquered_areas(position, seat) if area_id != home]


def begin(position: Position, exile_without_conquest: str = HOMELESS) -> Emigration:
    """The start of phase 7: the seats that may emigrate, in seat order from the turn's first seat (VA-06, VA-61).
    An exile with no conquered area leaves homeless at once, or under `stays` the exile lapses (VA-18)."""
    em = Emigration()
    for seat in seat_order(position.first_seat, position.num_players):
        if candidates(position, seat):
            em.queue.append(seat)
        elif in_exile(position, seat):
            if exile_without_conquest == STAYS:
                position.exiled[seat] = False
            else:
                _leave(position, em, seat, "")
    return em


def _leave(position: Position, em: Emigration, seat: int, area_id: str) -> None:
    """The seat emigrates to `area_id` ("" leaves him homeless); an exile has then left (VA-18, VA-61)."""
    left = position.home[seat] if position.emigrated[seat] else position.kingdom_of(seat)
    position.emigrated[seat] = True
    position.home[seat] = area_id
    position.exiled[seat] = False
    em.moves.append(Emigrated(seat, area_id, left))


def _settle(position: Position, em: Emigration) -> None:
    """Drop seats at the head of the queue that can no longer emigrate (the table as it is now decides)."""
    while em.queue and not candidates(position, em.queue[0]):
        em.queue.pop(0)


def emigrant(em: Emigration) -> int:
    """The seat choosing now, or OVER (-1) once every seat has chosen."""
    return em.queue[0] if em.queue else OVER


def done(em: Emigration) -> bool:
    """Whether the emigration step is over."""
    return not em.queue


def emigrate(position: Position, em: Emigration, area_id: str) -> None:
    """The seat choosing now emigrates: the area becomes his home country (Home country marker); he is no longer a
    member of his kingdom. `IllegalAction` (and nothing changes) if no one chooses now or the area is not one he may
    take."""
    seat = emigrant(em)
    if seat == OVER:
        raise IllegalAction("VA-61", "no one emigrates now")
    allowed = candidates(position, seat)
    if area_id not in allowed:
        raise IllegalAction(
            "VA-61",
            f"seat {seat} may not make {area_id!r} his home country: 'a player chooses one of his conquered "
            f"countries as new home country' (he may choose {', '.join(allowed) or 'none'})",
        )
    _leave(position, em, seat, area_id)
    em.queue.pop(0)
    _settle(position, em)


def pass_emigration(position: Position, em: Emigration) -> None:
    """The seat choosing now stays where he is (an exile, who "must leave his homeland this turn", leaves homeless
    instead, VA-18); the next seat chooses."""
    seat = emigrant(em)
    if seat == OVER:
        raise IllegalAction("VA-61", "no one emigrates now")
    if in_exile(position, seat):
        _leave(position, em, seat, "")
    em.queue.pop(0)
    _settle(position, em)


def check_homeless(position: Position) -> list[int]:
    """Emigrants whose home area they no longer conquer become homeless (home ""): 'This is the case even if he loses
    only one camp in his home country'. Heritages and small kingdoms lost since the last look are taken off first
    (VA-23: a home that was one is lost with it). Returns those seats, in seat order."""
    drop_lost_fiefs(position)
    found: list[int] = []
    for seat in range(position.num_players):
        home = position.home[seat]
        if position.emigrated[seat] and home and conqueror(position, home) != seat:
            position.home[seat] = ""
            found.append(seat)
    return found


def is_homeless(position: Position, seat: int) -> bool:
    """Whether the seat has emigrated and has no home country now."""
    return position.emigrated[seat] and not position.home[seat]


# -- the step (`step_rules.STEP_RULES`): EMIGRATION -----------------------------------------------------------------


class EmigrationTable(Protocol):
    """What the emigration step reads of the state (`situation.Situation` is one)."""

    position: Position
    emigration: Emigration

    @property
    def space(self) -> ActionSpace: ...


def legal_emigration(table: EmigrationTable) -> list[int]:
    """The conquered areas the emigrant may move to, and a pass unless he is in exile."""
    position = table.position
    seat = emigrant(table.emigration)
    moves = sorted(EMIGRATE + position.slot(a) for a in candidates(position, seat))
    # An exile "must leave his homeland this turn" (EXIL, VA-18): he chooses where, he may not stay.
    return moves if in_exile(position, seat) and moves else [PASS, *moves]


def apply_emigration(table: EmigrationTable, action: int) -> None:
    """The emigrant passes or moves to a conquered area."""
    if action == PASS:
        pass_emigration(table.position, table.emigration)
    else:
        emigrate(table.position, table.emigration, table.space.to_json(action)["area"])
