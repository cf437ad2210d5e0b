"""Reviews of finished games by the bot (`skald.bots.review`): made in the bot workers on request, never on the
request path, within a time budget, in a queue fair between clients, and kept in the database with the game.

`POST /api/games/ID/review` asks for one: the answer is the review when it is made already, else `computing` (202)
while a worker makes it; `GET` tells where it stands. A game is reviewed only once it is over: by then its whole
record is public, so its review tells nobody anything hidden.

- **Budget.** A review looks at a bounded number of decisions with a bounded search each, and stops after
  `skald.bots.review.SECONDS` of CPU time whatever the game: `BUDGET_MINUTES` is what the page promises.
- **Queue.** The server makes `AT_ONCE` review at a time, so bots at other tables keep the other workers; `WAITING`
  more may wait for their turn, first asked first made. One client (address) has at most `PER_CLIENT` review made
  or waiting: asking for another meanwhile is refused (429 `review_pending`), so one client cannot fill the queue
  and the others are still served. Past the queue a request is refused (429 `reviews_busy`).
- **Progress.** The worker writes how far it got (decisions looked at, of how many, and the moves so far, marked
  as they would be if it ended there) to a file of the review's own, at most once a second; `GET` reads it, so the
  page shows a progress bar and the marked moves as they come. A review that failed (a worker died twice) may be
  asked for again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import shutil
import tempfile
from typing import Any

from skald.bots.review import SECONDS
from skald.web.botpool import BotPool
from skald.web.botworker import ReviewJob
from skald.web.errors import TableError
from skald.web.live_table import LiveTable
from skald.web.store.reviews import ReviewStore

LOG = logging.getLogger("skald.web")

#: Reviews made at the same time, reviews that may wait for their turn, and reviews of one client made or waiting.
AT_ONCE = 1
WAITING = 8
PER_CLIENT = 1
#: The longest a review takes, as the page says it (the CPU budget, with room for a busy machine).
BUDGET_MINUTES = max(1, round(SECONDS / 60 + 0.5))


def read_progress(path: str) -> dict[str, Any] | None:
    """A review's progress as its worker last wrote it, or None before the first write."""
    try:
        with open(path, encoding="utf-8") as file:
            found: dict[str, Any] = json.load(file)
            return found
    except (OSError, ValueError):
        return None


class Reviews:
    """The reviews this process is making, and the way to ask for one."""

    def __init__(self, store: ReviewStore, pool: BotPool) -> None:
        self.store = store
        self.pool = pool
        #: Games whose review is being made or waits for a worker (in the order asked), who asked, and those whose
        #: review failed, with why.
        self.making: dict[str, asyncio.Task[None]] = {}
        self.asked_by: dict[str, str] = {}
        self.running: set[str] = set()
        self.failed: dict[str, str] = {}
        self._slots = asyncio.Semaphore(AT_ONCE)
        self._folder = tempfile.mkdtemp(prefix="skald-reviews-")

    def progress_path(self, game_id: str) -> str:
        """The file a game's review writes its progress to."""
        return os.path.join(self._folder, hashlib.blake2b(game_id.encode(), digest_size=12).hexdigest() + ".json")

    async def status(self, table: LiveTable) -> dict[str, Any]:
        """Where the review of `table`'s game stands: `ready` (with it), `computing` (with its progress),
        `failed` or `none`."""
        names = [seat.name for seat in table.seats]
        row = await asyncio.to_thread(self.store.get, table.id)
        if row is not None:
            return {"status": "ready", "seats": names, "seconds": round(row.seconds, 1), "review": row.data}
        if table.id in self.making:
            return {"status": "computing", "seats": names, **await self.progress(table.id)}
        if table.id in self.failed:
            return {"status": "failed", "seats": names, "message": self.failed[table.id]}
        return {"status": "none", "seats": names}

    async def progress(self, game_id: str) -> dict[str, Any]:
        """How far a review being made got: the reviews ahead of it in the queue, the decisions looked at of those
        planned (and in percent), the moves so far, and the budget in minutes."""
        waiting = [made for made in self.making if made not in self.running]
        ahead = waiting.index(game_id) + len(self.running) if game_id in waiting else 0
        found = await asyncio.to_thread(read_progress, self.progress_path(game_id))
        done, planned = (found["done"], found["planned"]) if found else (0, 0)
        return {
            "ahead": ahead,
            "progress": {"done": done, "planned": planned, "percent": 100 * done // planned if planned else 0},
            "partial": found["moves"] if found else [],
            "budget_minutes": BUDGET_MINUTES,
        }

    async def request(self, table: LiveTable, client: str = "") -> dict[str, Any]:
        """Ask for the review of `table`'s game for `client`: it, if made; else it is started (or goes on) in the
        bot workers. One client has at most `PER_CLIENT` reviews made or waiting."""
        if not table.state.is_terminal():
            raise TableError("not_over", "review: a game is reviewed by the bot once it is over", 409)
        found = await self.status(table)
        if found["status"] == "ready":
            return found
        if table.id in self.making:  # asked for again meanwhile (the status was read from the database)
            return {**found, "status": "computing", **await self.progress(table.id)}
        if sum(1 for asker in self.asked_by.values() if asker == client) >= PER_CLIENT:
            raise TableError(
                "review_pending",
                "review: your review of another game is still being made; ask for this one once it is ready",
                429,
            )
        if len(self.making) >= AT_ONCE + WAITING:
            raise TableError(
                "reviews_busy",
                f"review: the server is already making {len(self.making)} reviews; ask again in a few minutes",
                429,
            )
        job = ReviewJob(
            table.id,
            table.game.name,
            table.state.num_players,
            table.options,
            list(table.state.history),
            self.progress_path(table.id),
        )
        self.failed.pop(table.id, None)
        self.asked_by[table.id] = client
        self.making[table.id] = asyncio.get_running_loop().create_task(self._make(job))
        return {**found, "status": "computing", **await self.progress(table.id)}

    async def _make(self, job: ReviewJob) -> None:
        """Make a review in the bot workers (`AT_ONCE` at a time, first asked first made) and keep it."""
        try:
            async with self._slots:
                self.running.add(job.game_id)
                data, seconds = await self.pool.review(job)
            await asyncio.to_thread(self.store.save, job.game_id, data, seconds)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            LOG.error("the review of game %s failed: %s", job.game_id, error)
            self.failed[job.game_id] = "the review failed; ask for it again"
        finally:
            self.making.pop(job.game_id, None)
            self.asked_by.pop(job.game_id, None)
            self.running.discard(job.game_id)
            with contextlib.suppress(OSError):
                os.remove(job.progress_path)

    async def close(self) -> None:
        """Stop making reviews (the server is stopping; a review asked for again is made then)."""
        for task in list(self.making.values()):
            task.cancel()
        for task in list(self.making.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        shutil.rmtree(self._folder, ignore_errors=True)
