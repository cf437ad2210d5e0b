"""The watch kept on every clocked table: its clocks counted at each commit, and a timer on the seat to move that
applies the table's rule when its flag falls (`on_flag`: the seat is expelled and scored last, as a resignation, or
given to a bot until its player comes back: `skald.web.absence`). A seat a bot plays has no timer; `on_turn` is
told each time the turn moves on, so that a player who asked for his seat back gets it at his turn.

While a clock runs its table stays in memory (the watch holds it), so the flag falls on time even if nobody looks
at the table; after a restart every unfinished game is loaded, its clocks rebuilt from the stored timestamps, and a
flag that fell meanwhile falls at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from skald.web.clocks import ClockSetting, rebuilt
from skald.web.live_table import HUMAN, LiveTable


def epoch(stamp: datetime) -> float:
    """A stored time as seconds since the epoch (SQLite gives it back without its zone, which is UTC)."""
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)).timestamp()


def clocked(table: LiveTable) -> list[bool]:
    """Which seats are clocked: people's, unless they resigned."""
    return [info.kind == HUMAN and info.resigned is None for info in table.seats]


class ClockWatch:
    """The clocks of every clocked table in memory, and their timers."""

    def __init__(self, release: Callable[[LiveTable], None]) -> None:
        self.release = release
        #: Told of a seat whose flag fell (set by the app: the table's rule applies).
        self.on_flag: Callable[[LiveTable, int], Awaitable[None]] | None = None
        #: Told that the turn moved on, the clocks counted, before the timer is set (set by the app: a player who
        #: asked for his seat back gets it now if it is his turn).
        self.on_turn: Callable[[LiveTable], None] | None = None
        self._timers: dict[str, asyncio.Task[None]] = {}
        self.flags = 0

    def start(
        self, table: LiveTable, setting: Any, started: datetime | None, stamps: Sequence[tuple[int, datetime]]
    ) -> None:
        """Set a new or loaded table's clocks from its stored `setting`, when it started (None: it waits for players,
        its clocks stopped) and its moves' (seat, commit time), then watch the seat to move."""
        found = ClockSetting.from_json(setting)
        if found is None or started is None:
            return
        times = [(seat, epoch(at)) for seat, at in stamps]
        table.clock = rebuilt(found, len(table.seats), epoch(started), times, clocked(table))
        table.clock.credit = [info.credit for info in table.seats]
        self.turned(table)

    def moved(self, table: LiveTable) -> None:
        """The table moved on (or a seat left): count the commit's actions, then watch whoever is to move now."""
        state = table.clock
        if state is None:
            return
        movers = [entry.whole["seat"] for entry in table.log[state.counted :]]
        if movers:
            state.count(movers, time.time(), clocked(table))
        self.turned(table)

    def turned(self, table: LiveTable) -> None:
        """The clocks are counted: whoever asked for his seat back gets it if it is his turn, then the timer is set."""
        if self.on_turn is not None:
            self.on_turn(table)
        self.arm(table)

    def arm(self, table: LiveTable) -> None:
        """Set the timer on the seat to move, if it is a clocked seat a person plays (else none)."""
        self.disarm(table)
        state = table.clock
        player = table.state.current_player()
        if state is None or table.over or player < 0 or not clocked(table)[player] or player in table.bots:
            return
        table.holders += 1  # held while the clock runs: the flag must fall even if nobody looks
        wait = max(0.0, state.deadline(player) - time.time())
        self._timers[table.id] = asyncio.get_running_loop().create_task(self._fall(table, player, table.version, wait))

    def disarm(self, table: LiveTable) -> None:
        """Stop the table's timer, if any, and let go of the table."""
        timer = self._timers.pop(table.id, None)
        if timer is None:
            return
        if not timer.done():
            timer.cancel()
        self.release(table)

    async def _fall(self, table: LiveTable, seat: int, version: int, wait: float) -> None:
        await asyncio.sleep(wait)
        if table.version != version or table.over or self.on_flag is None:
            return
        self._timers.pop(table.id, None)
        self.release(table)
        self.flags += 1
        await self.on_flag(table, seat)

    async def close(self) -> None:
        """Stop every timer."""
        for timer in list(self._timers.values()):
            timer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await timer
        self._timers.clear()
