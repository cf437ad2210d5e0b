"""Reviews of finished games by the bot (`skald.bots.review`): made in the bot workers on request, never on the
request path, and kept in the database with the game.

`POST /api/games/ID/review` asks for one: the answer is the review when it is made already, else `computing` (202)
while a worker makes it; `GET` tells where it stands. A game is reviewed only once it is over: by then its whole
record is public, so its review tells nobody anything hidden. The server makes `AT_ONCE` review at a time, so bots
at other tables keep the other workers; `WAITING` more may wait for their turn, and past them a request is refused
(429) with a word on when to ask again. A review that failed (a worker died twice) may be asked for again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from skald.web.botpool import BotPool
from skald.web.botworker import ReviewJob
from skald.web.errors import TableError
from skald.web.live_table import LiveTable
from skald.web.store.reviews import ReviewStore

LOG = logging.getLogger("skald.web")

#: Reviews made at the same time, and reviews that may wait for their turn.
AT_ONCE = 1
WAITING = 8


class Reviews:
    """The reviews this process is making, and the way to ask for one."""

    def __init__(self, store: ReviewStore, pool: BotPool) -> None:
        self.store = store
        self.pool = pool
        #: Games whose review is being made (or waits for a worker), and those whose review failed, with why.
        self.making: dict[str, asyncio.Task[None]] = {}
        self.failed: dict[str, str] = {}
        self._slots = asyncio.Semaphore(AT_ONCE)

    async def status(self, table: LiveTable) -> dict[str, Any]:
        """Where the review of `table`'s game stands: `ready` (with it), `computing`, `failed` or `none`."""
        names = [seat.name for seat in table.seats]
        row = await asyncio.to_thread(self.store.get, table.id)
        if row is not None:
            return {"status": "ready", "seats": names, "seconds": round(row.seconds, 1), "review": row.data}
        if table.id in self.making:
            return {"status": "computing", "seats": names}
        if table.id in self.failed:
            return {"status": "failed", "seats": names, "message": self.failed[table.id]}
        return {"status": "none", "seats": names}

    async def request(self, table: LiveTable) -> dict[str, Any]:
        """Ask for the review of `table`'s game: it, if made; else it is started (or goes on) in the bot workers."""
        if not table.state.is_terminal():
            raise TableError("not_over", "review: a game is reviewed by the bot once it is over", 409)
        found = await self.status(table)
        if found["status"] == "ready":
            return found
        if table.id in self.making:  # asked for again meanwhile (the status was read from the database)
            return {**found, "status": "computing"}
        if len(self.making) >= AT_ONCE + WAITING:
            raise TableError(
                "reviews_busy",
                f"review: the server is already making {len(self.making)} reviews; ask again in a few minutes",
                429,
            )
        job = ReviewJob(table.id, table.game.name, table.state.num_players, table.options, list(table.state.history))
        self.failed.pop(table.id, None)
        self.making[table.id] = asyncio.get_running_loop().create_task(self._make(job))
        return {**found, "status": "computing"}

    async def _make(self, job: ReviewJob) -> None:
        """Make a review in the bot workers (one at a time) and keep it."""
        try:
            async with self._slots:
                data, seconds = await self.pool.review(job)
            await asyncio.to_thread(self.store.save, job.game_id, data, seconds)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            LOG.error("the review of game %s failed: %s", job.game_id, error)
            self.failed[job.game_id] = "the review failed; ask for it again"
        finally:
            self.making.pop(job.game_id, None)

    async def close(self) -> None:
        """Stop making reviews (the server is stopping; a review asked for again is made then)."""
        for task in list(self.making.values()):
            task.cancel()
        for task in list(self.making.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
