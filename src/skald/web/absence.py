"""The table's rule for a player whose clock runs out, chosen at creation (`ClockSetting.timeout`):

- `expel` (the default): he is expelled and scored last, exactly as if he resigned (`skald.web.endings.resign`;
  BGA: "the first player to quit loses as if last"), which the ratings count as a loss;
- `bot`: the table's stand-in bot (`ClockSetting.stand_in`, a level chosen at creation) plays his seat until he
  comes back: "I'm back" asks for it, and he has it again at his next turn, his live clock given back a reserve
  (`ClockSetting.reserve`). The seat keeps its place in the standings, so a rated game stays rated as played;
- `pass`: as `bot`, except that where the rules allow a pass (`Presentation.pass_action`) his turn is passed; at a
  decision without one the stand-in bot decides.

An absence, a wish to come back and a return are stored at once, so a restart keeps them.
"""

from __future__ import annotations

import asyncio

from skald.bots.spec import make_bot
from skald.web import projection
from skald.web.endings import resign
from skald.web.errors import TableError
from skald.web.live_table import LiveTable
from skald.web.registry import Tables


async def timed_out(tables: Tables, table: LiveTable, seat: int) -> None:
    """`seat`'s clock ran out: the table's rule applies (nothing happens if the game ended, or he left, meanwhile)."""
    setting = table.clock_setting
    try:
        if setting is None or setting.timeout == "expel":
            await resign(tables, table, seat)
        else:
            await away(tables, table, seat)
    except TableError:
        return


async def away(tables: Tables, table: LiveTable, seat: int) -> None:
    """Give `seat` to the table's stand-in bot until its person comes back."""
    async with table.lock:
        info = table.seats[seat]
        if table.over or info.resigned is not None or info.away or table.state.current_player() != seat:
            return
        ply = table.version
        if not await asyncio.to_thread(tables.stores.absences.away, table.id, seat, ply):
            return
        info.away_ply, info.returning = ply, False
        table.standing.pop(seat, None)
        table.draw_offer = None
        table.bots[seat] = make_bot(table.bot_spec(seat), seed=table.stored_seed + seat)
        projection.broadcast(table, [])
    tables.commits.adopted(table, False)
    tables.driver.drive(table)


async def back(tables: Tables, table: LiveTable, seat: int) -> None:
    """The person of the away `seat` is back: his seat is his again at his next turn."""
    async with table.lock:
        info = table.seats[seat]
        if table.over:
            raise TableError("game_over", "back: the game is over", 409)
        if not info.away or info.resigned is not None:
            raise TableError("not_away", "back: your seat is yours already; no bot plays it", 409)
        if not info.returning:
            if not await asyncio.to_thread(tables.stores.absences.returning, table.id, seat):
                raise TableError("not_away", "back: your seat is yours already; no bot plays it", 409)
            info.returning = True
        projection.broadcast(table, [])


def turned(tables: Tables, table: LiveTable) -> None:
    """The turn moved on (the clocks counted): if it came to an away seat whose person asked for it back, it is his
    again now, his live clock given back its reserve. Stored in the background (a return lost to a crash is made
    again when the table is loaded: the same turn, the same reserve)."""
    player = table.state.current_player()
    if player < 0 or table.over:
        return
    info = table.seats[player]
    if not info.away or not info.returning or info.resigned is not None:
        return
    if table.clock is not None:
        info.credit += table.clock.give_back(player)
    info.away_ply, info.returning = None, False
    table.bots.pop(player, None)
    tables.in_background(asyncio.to_thread(tables.stores.absences.returned, table.id, player, info.credit))
