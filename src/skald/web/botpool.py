"""Bot workers: the web table's bots think in a pool of worker processes, never on the server's request path.

A bot's search is pure Python and holds the interpreter lock while it runs; in one of the server's threads it slowed
every table. In a worker process it only shares the machine's cores, and the workers run at a lower scheduling
priority (`nice`) so that the server's event loop is given a core first.

A job carries what the server itself keeps for a game and replays when it loads one: the game's name, seats and
options, the actions so far, and the seat, spec and seed of the bot to move. The worker rebuilds the position (from
the last one it rebuilt for that game when the new actions extend it) and asks the bot, which reads from it only
what the bot contract allows: its seat's information state, on which it draws a world to search
(`Bot.step`, see `skald.bots.base`).

A worker that dies (killed, out of memory) breaks the pool: every job in flight fails. The pool is then replaced by
a fresh one and each failed job is tried once more there; a job that fails again is answered by the server itself
with a uniform choice among the legal actions, fixed by the bot's seed and what its seat knows (`Bot.draw`), so the
game goes on and the server never goes down with a worker.

The workers also review finished games on request (`BotPool.review`, see `skald.web.reviews`): a review is a long
job (up to a minute), so the server runs one at a time and the other workers keep playing bot moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from skald.bots.base import Bot
from skald.engine import State
from skald.web.botworker import BotAnswer, BotJob, ReviewJob, ready, review_game, start_worker, think

LOG = logging.getLogger("skald.web.bots")

#: How much lower the workers' scheduling priority is than the server's (`os.nice`): the server answers first.
WORKER_NICE = 10
#: Tries of one job on a (fresh) pool before the server answers it itself.
_TRIES = 2


def _context() -> Any:
    """How workers are started: from a fork server that has already imported the bots and games (cheap, and safe
    beside the server's threads) where there is one, else spawned afresh."""
    if sys.platform.startswith("linux"):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["skald.web.botworker"])
        return context
    return multiprocessing.get_context("spawn")


class BotPool:
    """The server's bot workers: a process pool of `workers` processes (0: the bots think in the server's threads,
    as before there were workers — for tests and comparison only), replaced whole if a worker dies."""

    def __init__(self, workers: int, nice: int = WORKER_NICE) -> None:
        self.workers = workers
        self.nice = nice
        self._executor: ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[ProcessPoolExecutor] | None = None
        self._closed = False
        #: Whether the workers could not be started (bots then think in the server's threads).
        self.failed = False
        #: Jobs submitted and not yet answered: a serial number each, with the game and seat.
        self.thinking: dict[int, tuple[str, int]] = {}
        self._serials = itertools.count(1)
        #: Moves answered by the workers, the pids that answered them, pools replaced after a worker died, and moves
        #: the server chose itself after a job failed twice.
        self.answered = 0
        self.answered_by: set[int] = set()
        self.crashes = 0
        self.fallbacks = 0
        #: Reviews of finished games being made by the workers now, and made by them since the start.
        self.reviewing = 0
        self.reviews = 0

    def start(self) -> None:
        """Create the pool and start its workers in the background, unless done already; called by the first bot
        move, so a server nobody plays bots on runs no workers. Bot moves asked for meanwhile wait for them."""
        if self.workers <= 0 or self._starting is not None or self._closed:
            return
        self._starting = asyncio.get_running_loop().create_task(asyncio.to_thread(self._new_executor))
        self._starting.add_done_callback(self._started)

    def _started(self, starting: asyncio.Task[ProcessPoolExecutor]) -> None:
        """Adopt the pool made in the background (unless the server stopped meanwhile: then shut it down)."""
        if starting.cancelled() or starting.exception() is not None:
            # Bots then think in the server's threads, as they did before there were workers: slower for everyone,
            # but every game goes on.
            self.failed = True
            LOG.error(
                "the bot workers did not start: bots think in the server's threads",
                exc_info=None if starting.cancelled() else starting.exception(),
            )
            return
        if self._closed:
            starting.result().shutdown(wait=False, cancel_futures=True)
            return
        self._executor = starting.result()

    def _new_executor(self) -> ProcessPoolExecutor:
        """A fresh pool, its workers started at once (each submitted job starts one more, up to the size)."""
        executor = ProcessPoolExecutor(
            self.workers, mp_context=_context(), initializer=start_worker, initargs=(self.nice, os.getpid())
        )
        for _ in range(self.workers):
            executor.submit(ready)
        return executor

    def pids(self) -> list[int]:
        """The pids of the live workers (for the health report and the operator)."""
        if self._executor is None:
            return []
        # The pool keeps its processes by pid; there is no public way to list them.
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(pid for pid, process in processes.items() if process.is_alive())

    async def move(self, job: BotJob, bot: Bot, state: State) -> int:
        """The action of the bot to move at `state` (described by `job` for a worker): from a worker, or in one of
        the server's threads when there are no workers, or — when a job failed on two pools — a uniform legal choice
        fixed by the bot's seed and what its seat knows."""
        serial = next(self._serials)
        self.thinking[serial] = (job.game_id, job.seat)
        self.start()
        try:
            if self._executor is None and self._starting is not None and not self._closed:
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._starting)
            if self.workers <= 0 or self.failed:
                thinker = bot if job.within is None else bot.within(job.within)
                return await asyncio.to_thread(thinker.step, state)
            for _ in range(_TRIES):
                executor = self._executor
                if executor is None:
                    break  # the pool is closed: the server is stopping
                try:
                    answer: BotAnswer = await asyncio.get_running_loop().run_in_executor(executor, think, job)
                except BrokenProcessPool:
                    self._replace(executor)
                    continue
                self.answered += 1
                self.answered_by.add(answer.pid)
                return answer.action
        finally:
            del self.thinking[serial]
        self.fallbacks += 1
        LOG.error(
            "game %s: the bot of seat %d failed in two workers; it plays a uniform legal choice", job.game_id, job.seat
        )
        legal = state.legal_actions()
        return legal[bot.draw(state, len(legal))]

    async def review(self, job: ReviewJob) -> tuple[dict[str, Any], float]:
        """The review of a finished game (`botworker.review_game`), made by a worker like a bot move (in one of the
        server's threads when there are none); a job whose worker died is tried on a fresh pool once more."""
        self.start()
        if self._executor is None and self._starting is not None and not self._closed:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._starting)
        if self.workers > 0 and not self.failed:
            for _ in range(_TRIES):
                executor = self._executor
                if executor is None:
                    raise RuntimeError("the bot workers are stopping")
                self.reviewing += 1
                try:
                    made: tuple[dict[str, Any], float] = await asyncio.get_running_loop().run_in_executor(
                        executor, review_game, job
                    )
                except BrokenProcessPool:
                    self._replace(executor)
                    continue
                finally:
                    self.reviewing -= 1
                self.reviews += 1
                return made
            raise RuntimeError(f"game {job.game_id}: the review failed in two workers")
        return await asyncio.to_thread(review_game, job)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Put a fresh pool in place of `broken` (a worker died), once however many of its jobs failed."""
        if self._executor is not broken:
            return
        self.crashes += 1
        LOG.error("a bot worker died; its pool is replaced and the moves it was computing are tried again")
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor = self._new_executor()

    async def close(self) -> None:
        """Stop the workers now, searches and all (a bot move not yet committed is computed again after a restart)."""
        self._closed = True
        if self._starting is not None and not self._starting.done():
            with contextlib.suppress(Exception):
                await self._starting  # a pool being made is shut down as it arrives (see `_started`)
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        await asyncio.to_thread(executor.shutdown, True)

    def stats(self) -> dict[str, Any]:
        """The workers, the moves being computed now (job serial, game, seat), and the counts since the start."""
        return {
            "workers": self.workers,
            "pids": self.pids(),
            "thinking": [{"job": serial, "game": game, "seat": seat} for serial, (game, seat) in self.thinking.items()],
            "answered": self.answered,
            "answered_by": sorted(self.answered_by),
            "crashes": self.crashes,
            "fallbacks": self.fallbacks,
            "reviewing": self.reviewing,
            "reviews": self.reviews,
            "failed": self.failed,
        }
