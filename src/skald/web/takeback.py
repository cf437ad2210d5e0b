"""Steps taken back at a live table: the earlier position rebuilt, stored, and shown to every viewer.

The rule of what a seat may take back is the engine's (`skald.engine.undo`); `skald.web.undos` asks it when a
person sends `undo`. Here the table is taken back: the actions after the position reached are deleted from the
database with the step back counted (so a restart shows the position reached), the table's state and log are
replaced in place, and every client is sent its view again with its whole log (`"rewound": true`). Nothing is
revealed by it: every viewer saw the position reached before, and sees it again as it saw it then.
"""

from __future__ import annotations

import asyncio

from skald.engine import Record, Seat, State
from skald.web import projection
from skald.web.errors import TableError
from skald.web.live_table import LiveTable
from skald.web.store.games import GameStore


def replayed(table: LiveTable, actions: list[int]) -> State:
    """The table's game after `actions` from its first position (heavy: run it off the event loop)."""
    seats = [Seat(info.name, info.kind) for info in table.seats]
    return Record(table.game.name, table.state.num_players, dict(table.options), seats, actions).replay()


async def take(games: GameStore, table: LiveTable, seat: int, plies: int) -> bool:
    """Take back the table's last `plies` actions for `seat`, stored first; False if the database had moved on (another
    process committed or took back first: the caller refreshes). Called under the table's lock."""
    version = table.version
    at = version - plies
    state = await asyncio.to_thread(replayed, table, table.state.history[:at])
    if not await asyncio.to_thread(games.take_back, table.id, version, table.undos, at, seat):
        return False
    table.rewind(state, (seat, at, plies))
    projection.rewound(table)
    return True


async def follow(games: GameStore, table: LiveTable) -> None:
    """Another process took steps back at this game: read it whole again and take the table there in place."""
    loaded = await asyncio.to_thread(games.since, table.id, 0)
    if loaded is None:
        raise TableError("not_found", f"no game {table.id!r} here", 404)
    table.rematch_id, undos, actions = loaded
    undone = await asyncio.to_thread(games.undos, table.id)
    common = 0
    while common < min(len(actions), table.version) and actions[common] == table.state.history[common]:
        common += 1
    # The log is kept up to where the two lines part; the rest is made again from the position read.
    kept = await asyncio.to_thread(replayed, table, actions[:common])
    table.rewind(kept, None)
    table.undos, table.undone = undos, undone
    if undone:
        table.standing.pop(undone[-1][0], None)
    after = kept.clone()
    entries = []
    for action in actions[common:]:
        entries.append(table.entry(after, action))
        after.apply(action)
    table.log.extend(entries)
    table.state = after
    projection.rewound(table)
