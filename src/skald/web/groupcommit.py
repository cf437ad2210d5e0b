"""Group commit: every game's moves are committed by one thread of their own, each transaction holding all that came
in while the one before it was being written.

The event loop only queues a write and awaits its future; the thread starts the next transaction the moment the
last one ends, without waiting for the busy event loop to notice that it has ended and hand over the next batch.
Each future is settled only after its transaction has committed (or failed), in one call into its loop a batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")
#: What one transaction reports for each of its items: None once committed, else the exception refusing it.
Outcome = Exception | None
#: An item queued, with the future its caller awaits and that future's event loop.
_Entry = tuple[Item, asyncio.Future[None], asyncio.AbstractEventLoop]


class CommitsClosed(RuntimeError):
    """A write submitted after `GroupCommit.close`: the server is stopping."""


class GroupCommit(Generic[Item]):
    """Writes items with `write` (one call, one transaction, a list of outcomes in the items' order) on a thread of
    its own, started at the first `submit`. `close` writes what is queued and stops it; nothing is taken after."""

    def __init__(self, write: Callable[[list[Item]], Sequence[Outcome]], name: str = "skald-commit") -> None:
        self._write = write
        self._name = name
        self._queue: queue.SimpleQueue[_Entry[Item] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Guards `_thread` and `_closed`, so that only the one live thread ever reads the queue and its stop mark.
        self._guard = threading.Lock()

    def submit(self, item: Item) -> asyncio.Future[None]:
        """Queue `item`; the future is done once its transaction has committed, or fails with what refused it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._guard:
            if self._closed:
                future.set_exception(CommitsClosed("the server is stopping: nothing more is written"))
                return future
            self._running()
            self._queue.put((item, future, loop))
        return future

    async def close(self) -> None:
        """Write everything queued, then stop the thread; later writes are refused (`CommitsClosed`)."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            thread = self._running()  # one that died (see `_run`) leaves what was queued after it to a new one
            self._queue.put(None)
        await asyncio.to_thread(thread.join)

    def _running(self) -> threading.Thread:
        """The live thread, started if there is none (called under `_guard`)."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()
        return self._thread

    def _run(self) -> None:
        """Take whatever is queued, write it in one transaction, tell its callers; again, until the stop mark."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stopping = False
            while True:
                try:
                    entry = self._queue.get_nowait()
                except queue.Empty:
                    break
                if entry is None:
                    stopping = True
                    break
                batch.append(entry)
            self._settle(batch)
            if stopping:
                return

    def _settle(self, batch: list[_Entry[Item]]) -> None:
        """Write `batch` in one transaction and tell each waiting loop how each item went."""
        outcomes: Sequence[Outcome]
        try:
            outcomes = self._write([item for item, _, _ in batch])
            if len(outcomes) != len(batch):
                raise RuntimeError(f"a transaction of {len(batch)} items reported {len(outcomes)} outcomes")
        except Exception as error:  # the database failed: nobody in this batch is told their move happened
            outcomes = [error] * len(batch)
        except BaseException:  # the thread itself is ending: its callers must not wait for ever
            _tell(batch, [RuntimeError("the commit thread stopped")] * len(batch))
            raise
        _tell(batch, outcomes)


def _tell(batch: list[_Entry[Item]], outcomes: Sequence[Outcome]) -> None:
    """Settle each entry's future with its outcome, in one call into each loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Outcome]]] = {}
    for (_, future, loop), outcome in zip(batch, outcomes, strict=True):
        by_loop.setdefault(loop, []).append((future, outcome))
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # that loop has closed: nobody is waiting any more
            loop.call_soon_threadsafe(_resolve, settled)


def _resolve(settled: list[tuple[asyncio.Future[None], Outcome]]) -> None:
    """On the futures' loop: each one's result, or its exception."""
    for future, outcome in settled:
        if future.done():
            continue  # its caller was cancelled (the server is stopping); the others must still be told
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)
