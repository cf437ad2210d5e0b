"""A person takes back his last decision at the web table (the WebSocket's `undo` message).

Board Game Arena's policy, decided by the engine (`skald.engine.undo`): a seat takes back its own steps until
another seat acts or something hidden or random is revealed; the answers the table gave for it since go with its
decision. Each undo takes back one decision; a refusal names the rule ("chance has drawn since (draw tile M4);
undo stops at a draw or a roll"). Rated games allow it too, as Board Game Arena does within a turn: it changes
nothing another seat has answered, and every step back is counted, stored and shown in the log to everyone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from skald.engine import TakeBack
from skald.web import takeback
from skald.web.commits import checked_version
from skald.web.errors import TableError
from skald.web.live_table import HUMAN, LiveTable
from skald.web.registry import Tables


async def undo(tables: Tables, table: LiveTable, seat: int, version: Any) -> None:
    """`seat` takes back its last decision at `version`, if the rule allows it; else a `TableError` says why."""
    version = checked_version(version, "undo")
    async with table.lock:
        if version > table.version:
            await tables.commits.refresh(table)
        refusal = _refusal(table, seat, version)
        if refusal is not None:
            raise refusal
        rule = table.take_back(seat)
        if rule.plies == 0:
            raise TableError("undo", f"undo: {_words(table, seat, rule)}", 409)
        if not await takeback.take(tables.stores.games, table, seat, rule.plies):
            await tables.commits.refresh(table)
            raise TableError("stale", "stale: the game moved on meanwhile; the table has been refreshed", 409)
        if table.clock is not None:  # the time used is counted again from the moves left
            stamps = await asyncio.to_thread(tables.stores.clock_times.stamps, table.id)
            tables.clocks.start(table, table.clock.setting.to_json(), table.created_at, stamps)
    tables.commits.adopted(table, False)
    tables.driver.drive(table)


def _refusal(table: LiveTable, seat: int, version: int) -> TableError | None:
    """Why `seat` may not ask for a step back at all now, or None."""
    if table.over:
        return TableError("game_over", "undo: the game is over", 409)
    info = table.seats[seat]
    if info.kind != HUMAN or info.resigned is not None:
        return TableError("resigned", "undo: you resigned this game; a bot plays your seat", 409)
    if version != table.version:
        return TableError(
            "stale",
            f"stale: your undo was for version {version} but the game is at version {table.version}; "
            "the table has been refreshed",
            409,
        )
    return None


def _words(table: LiveTable, seat: int, rule: TakeBack) -> str:
    """The engine's refusal, naming the action in the way as `seat` saw it (its log entry)."""
    blocking = "" if rule.at is None else str(table.log[rule.at].for_viewer(seat, table.over)["notation"])
    return rule.refusal([info.name for info in table.seats], blocking)
