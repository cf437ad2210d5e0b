"""Games that end off the board: a person resigns, or the two people of a game agree a draw.

A person may resign at any time. He is ranked last (below everyone still in the game, the first to resign lowest:
`skald.engine.Departures`), which the log, the seat panels and the standings show and the ratings count. If two or
more seats are left, the game goes on for them and the table's stand-in bot (`STAND_IN`, the greedy bot) plays
his seat to the end; if one is left, the game is over and that seat wins. A game of two people, neither resigned,
may end by agreement: one offers a draw, which stands until the other answers or a move is made; accepted, the two
share the victory. Resignations and an agreed end are stored at once, so a restarted server shows them.
"""

from __future__ import annotations

import asyncio

from skald.bots.spec import make_bot
from skald.engine import Departures
from skald.web import projection
from skald.web.errors import TableError
from skald.web.live_table import HUMAN, STAND_IN, LiveTable
from skald.web.registry import Tables

#: What a seat may do about a draw.
DRAW_ACTS = ("offer", "accept", "decline")


async def resign(tables: Tables, table: LiveTable, seat: int) -> None:
    """`seat` resigns: ranked last, its seat played by the stand-in bot while two or more seats are left, else the
    game is over."""
    async with table.lock:
        info = table.seats[seat]
        if table.over:
            raise TableError("game_over", "resign: the game is over", 409)
        if table.waiting:
            raise TableError("waiting", "resign: the table has not started; it waits for its players", 409)
        if info.resigned is not None:
            raise TableError("resigned", "resign: you have resigned this game already", 409)
        ply = table.version
        ends = Departures((*table.departures.resigned, seat), table.agreed).decided(table.state)
        order = await asyncio.to_thread(tables.stores.departures.resign, table.id, seat, ply, ends)
        if order is None:  # another process on the database ended it, or took the resignation, first
            raise TableError("game_over", "resign: the game is over, or you resigned already", 409)
        info.resigned, info.resigned_ply = order, ply
        table.standing.pop(seat, None)
        table.draw_offer = None
        if not ends:
            table.bots[seat] = make_bot(STAND_IN, seed=(table.seed + seat) % (1 << 48))
        projection.broadcast(table, [])
    told(tables, table, ends)


async def draw(tables: Tables, table: LiveTable, seat: int, act: object) -> None:
    """`seat` offers a draw, accepts the one offered to it, or declines it (or takes back its own offer)."""
    if act not in DRAW_ACTS:
        raise TableError("act", f"act: expected one of {', '.join(DRAW_ACTS)}, not {act!r}")
    async with table.lock:
        if table.over:
            raise TableError("game_over", "draw: the game is over", 409)
        if table.waiting:
            raise TableError("waiting", "draw: the table has not started; it waits for its players", 409)
        if len(table.seats) != 2 or any(info.kind != HUMAN for info in table.seats) or table.departures.resigned:
            raise TableError("draw", "draw: only a game of two people may end by agreement", 409)
        offer = table.draw_offer if table.draw_offer and table.draw_offer[1] == table.version else None
        agreed = False
        if act == "offer" and (offer is None or offer[0] == seat):
            table.draw_offer = (seat, table.version)
        elif act == "decline":
            table.draw_offer = None
        elif offer is None or offer[0] == seat:
            raise TableError("draw", "draw: no draw is offered to you now (an offer lapses when a move is made)", 409)
        else:  # accepted, or offered back to the seat that offered it
            if not await asyncio.to_thread(tables.stores.departures.agree, table.id):
                raise TableError("game_over", "draw: the game is over", 409)
            table.agreed, table.draw_offer, agreed = True, None, True
        projection.broadcast(table, [])
    told(tables, table, agreed)


def told(tables: Tables, table: LiveTable, ends: bool) -> None:
    """After a departure: the table was used, its watchers are told; an ended game is rated, else its bots (the
    stand-in among them) carry on."""
    tables.commits.adopted(table, ends)
    if not ends:
        tables.driver.drive(table)
