"""The moves a live table makes by itself: chance drawn on the server, standing answers given, bots' moves asked of
the bot workers (`skald.web.botpool`), each committed like a person's.

Chance is sampled from a generator seeded by the game's seed and the ply (`skald.engine.fair.draw`), so a game
resumed after a crash draws exactly what it would have drawn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from skald.engine import CHANCE, State
from skald.engine.fair import draw
from skald.web.botpool import BotPool
from skald.web.botworker import BotJob
from skald.web.live_table import LiveTable, LogEntry

LOG = logging.getLogger("skald.web")

#: Commit a table's moves at its version, reaching a state, logged as entries; False if refused as stale.
Commit = Callable[[LiveTable, int, list[tuple[int, int]], State, list[LogEntry]], Awaitable[bool]]


def report_failure(task: asyncio.Task[None]) -> None:
    """Log why a table's driver (or other background work) stopped, if it failed (the game waits until the table is
    loaded again)."""
    if not task.cancelled() and task.exception() is not None:
        LOG.error("a table's bots and chance stopped", exc_info=task.exception())


def follow(table: LiveTable, after: State, moves: list[tuple[int, int]], entries: list[LogEntry]) -> None:
    """Draw every chance outcome due next in `after` and give each standing answer due (`LiveTable.standing`),
    adding them to `moves` and `entries` (committed together), until a seat must decide or the game is over."""
    while not after.is_terminal():
        player = after.current_player()
        if player == CHANCE:
            action = draw(after, table.seed)
        else:
            answer = table.standing_action(after)
            if answer is None:
                return
            action = answer
        moves.append((player, action))
        entries.append(table.entry(after, action))
        after.apply(action)


def due(table: LiveTable) -> bool:
    """Whether the table's next move is chance's, a bot's or a standing answer."""
    state = table.state
    player = state.current_player()
    if table.over:
        return False
    return player < 0 or player in table.bots or table.standing_action(state) is not None


class Driver:
    """Plays the moves tables make by themselves, one task per table while any is due, committing each through
    `commit`; `settle` is told when a table's task ends (nothing may need the table any more)."""

    def __init__(self, pool: BotPool, commit: Commit, settle: Callable[[LiveTable], None]) -> None:
        self.pool = pool
        self.commit = commit
        self.settle = settle

    def drive(self, table: LiveTable) -> None:
        """Start the task that plays chance, bot seats and standing answers when one is due, unless it is already
        running."""
        if not due(table):
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))
            table.driver.add_done_callback(report_failure)
            table.driver.add_done_callback(lambda _driver: self.settle(table))

    async def _drive(self, table: LiveTable) -> None:
        while True:
            async with table.lock:
                state = table.state
                player = state.current_player()
                if not due(table):
                    return
                version = table.version
                if player not in table.bots:  # chance, or a person's standing answer
                    after = state.clone()
                    moves: list[tuple[int, int]] = []
                    entries: list[LogEntry] = []
                    follow(table, after, moves, entries)
                    # Committed, or refused because another process drew first: either way, look again.
                    await self.commit(table, version, moves, after, entries)
                    continue
                snapshot = state.clone()
                job = BotJob(
                    table.id,
                    table.game.name,
                    state.num_players,
                    table.options,
                    list(state.history),
                    player,
                    table.bot_spec(player),
                    table.bots[player].seed,
                )
            # In a worker process: the search never holds this process's interpreter lock (see `skald.web.botpool`).
            action = await self.pool.move(job, table.bots[player], snapshot)
            async with table.lock:
                if table.version != version:
                    continue
                moves, entries = [(player, action)], [table.entry(table.state, action)]
                after = table.state.clone()
                after.apply(action)
                follow(table, after, moves, entries)
                await self.commit(table, version, moves, after, entries)
