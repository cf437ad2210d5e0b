"""Group commit (`skald.web.groupcommit`) on a real SQLite database: moves that come in while a transaction is being
written go in the next one together, each game's ply is still checked on its own, and nobody is told a move happened
before its transaction has committed."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from skald.web.groupcommit import CommitsClosed, GroupCommit, Outcome
from skald.web.store.database import FairLock
from skald.web.store.engine import make_engine, migrate
from skald.web.store.games import Batch, GameStore, StaleVersion, Write
from skald.web.store.schema import GameRow, SeatRow, now
from skald.web.store.stores import Stores

#: Seconds any test waits for a commit at most: a bug that leaves a caller waiting fails the test instead of hanging.
LIMIT = 10


T = TypeVar("T")


class Gated:
    """A store's `append_many` that holds its first transaction until `release` is set, and notes every batch."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.started = threading.Event()
        self.release = threading.Event()
        self.batches: list[list[str]] = []

    def __call__(self, batch: Batch) -> Sequence[Outcome]:
        self.batches.append([game_id for game_id, _version, _moves, _status, _undos in batch])
        if len(self.batches) == 1:
            self.started.set()
            assert self.release.wait(LIMIT)
        return self.store.append_many(batch)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    engine = make_engine(f"sqlite:///{tmp_path / 'skald.db'}")
    migrate(engine)
    yield Stores(engine).games
    engine.dispose()


def new_games(store: GameStore, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        stamp = now()
        game_id = secrets.token_urlsafe(12)
        row = GameRow(
            id=game_id,
            game="vikings",
            players=2,
            options={},
            seed=1,
            secret_seed=False,
            version=0,
            status="playing",
            rematch_id=None,
            created_at=stamp,
            updated_at=stamp,
        )
        store.create(row, [SeatRow(game_id=game_id, seat=i, name=f"P{i}", kind="human") for i in range(2)])
        ids.append(game_id)
    return ids


def stored_actions(store: GameStore, game_id: str) -> list[int]:
    loaded = store.load(game_id)
    assert loaded is not None
    return loaded[2]


async def wait_for(event: threading.Event) -> None:
    assert await asyncio.to_thread(event.wait, LIMIT)


def run(play: Coroutine[Any, Any, T]) -> T:
    """Run a test's coroutine with a time limit."""
    return asyncio.run(asyncio.wait_for(play, LIMIT))


def test_moves_that_come_in_while_a_transaction_is_written_commit_together_in_the_next(store: GameStore) -> None:
    first, *others = new_games(store, 4)
    gated = Gated(store)

    async def play() -> None:
        commits = GroupCommit(gated)
        opening = commits.submit((first, 0, [(-1, 3)], "playing", 0))
        await wait_for(gated.started)
        waiting = [commits.submit((game_id, 0, [(-1, 4)], "playing", 0)) for game_id in others]
        await asyncio.sleep(0.05)
        # Nothing is told before its transaction has committed, and the first is still being written.
        assert not opening.done() and not any(future.done() for future in waiting)
        # When a caller is told, its move is in the database for anyone to read.
        seen: list[list[int]] = []

        def read(game_id: str) -> Callable[[object], None]:
            return lambda _future: seen.append(stored_actions(store, game_id))

        for game_id, future in zip(others, waiting, strict=True):
            future.add_done_callback(read(game_id))
        gated.release.set()
        await asyncio.gather(opening, *waiting)
        await commits.close()
        assert seen == [[4]] * len(others)

    run(play())
    assert gated.batches == [[first], others]
    assert stored_actions(store, first) == [3]
    assert all(stored_actions(store, game_id) == [4] for game_id in others)


def test_a_stale_move_in_a_group_is_refused_alone_and_the_others_commit(store: GameStore) -> None:
    played, fresh = new_games(store, 2)
    store.append(played, 0, [(-1, 1)], "playing")
    gated = Gated(store)

    async def play() -> tuple[BaseException | None, BaseException | None]:
        commits = GroupCommit(gated)
        opening = commits.submit((fresh, 0, [(-1, 2)], "playing", 0))
        await wait_for(gated.started)
        stale = commits.submit((played, 0, [(-1, 5)], "playing", 0))  # ply 0 of this game is taken
        good = commits.submit((fresh, 1, [(0, 6)], "playing", 0))
        gated.release.set()
        await opening
        outcomes = await asyncio.gather(stale, good, return_exceptions=True)
        await commits.close()
        return outcomes[0], outcomes[1]

    stale_outcome, good_outcome = run(play())
    assert gated.batches == [[fresh], [played, fresh]]  # the stale move and the good one shared a transaction
    assert isinstance(stale_outcome, StaleVersion) and good_outcome is None
    assert stored_actions(store, played) == [1] and stored_actions(store, fresh) == [2, 6]


def test_a_transaction_that_fails_fails_every_move_in_it_and_the_next_one_commits(store: GameStore) -> None:
    first, second, third, fourth = new_games(store, 4)
    gated = Gated(store)

    def failing_second(batch: Batch) -> Sequence[Outcome]:
        if len(gated.batches) == 1:  # the second transaction, the first being held open
            gated.batches.append([game_id for game_id, _version, _moves, _status, _undos in batch])
            raise OSError("disk I/O error")
        return gated(batch)

    async def play() -> list[BaseException | None]:
        commits = GroupCommit(failing_second)
        opening = commits.submit((first, 0, [(-1, 3)], "playing", 0))
        await wait_for(gated.started)
        failing = [commits.submit((game_id, 0, [(-1, 4)], "playing", 0)) for game_id in (second, third)]
        gated.release.set()
        await opening
        refused = await asyncio.gather(*failing, return_exceptions=True)
        later = await asyncio.gather(commits.submit((fourth, 0, [(-1, 5)], "playing", 0)), return_exceptions=True)
        await commits.close()
        return [*refused, *later]

    *refused, later = run(play())
    assert gated.batches == [[first], [second, third], [fourth]]
    assert all(isinstance(outcome, OSError) for outcome in refused) and later is None
    assert [stored_actions(store, game_id) for game_id in (first, second, third, fourth)] == [[3], [], [], [5]]


def test_closing_commits_what_is_queued_and_stops_the_thread(store: GameStore) -> None:
    first, second = new_games(store, 2)
    gated = Gated(store)

    async def play() -> GroupCommit[Write]:
        commits = GroupCommit(gated, name="skald-commit-test")
        opening = commits.submit((first, 0, [(-1, 3)], "playing", 0))
        await wait_for(gated.started)
        queued = commits.submit((second, 0, [(-1, 4)], "playing", 0))
        closing = asyncio.ensure_future(commits.close())
        await asyncio.sleep(0.05)
        assert not closing.done()  # it waits for the transaction being written and the one queued
        gated.release.set()
        await asyncio.gather(opening, queued, closing)
        return commits

    run(play())
    assert stored_actions(store, first) == [3] and stored_actions(store, second) == [4]
    assert "skald-commit-test" not in [thread.name for thread in threading.enumerate()]


def test_a_waiter_cancelled_meanwhile_does_not_keep_the_others_in_its_transaction_from_being_told(
    store: GameStore,
) -> None:
    first, second, third = new_games(store, 3)
    gated = Gated(store)

    async def play() -> None:
        commits = GroupCommit(gated)
        opening = commits.submit((first, 0, [(-1, 3)], "playing", 0))
        await wait_for(gated.started)
        cancelled = commits.submit((second, 0, [(-1, 4)], "playing", 0))
        kept = commits.submit((third, 0, [(-1, 5)], "playing", 0))
        cancelled.cancel()
        gated.release.set()
        await asyncio.gather(opening, kept)
        await commits.close()

    run(play())
    # The cancelled caller is not told, but its move was written with the rest, as a crash would have left it.
    assert [stored_actions(store, game_id) for game_id in (first, second, third)] == [[3], [4], [5]]


def test_a_write_submitted_while_closing_is_refused_and_closing_still_ends(store: GameStore) -> None:
    first, second = new_games(store, 2)
    gated = Gated(store)

    async def play() -> BaseException | None:
        commits = GroupCommit(gated)
        opening = commits.submit((first, 0, [(-1, 3)], "playing", 0))
        await wait_for(gated.started)
        closing = asyncio.ensure_future(commits.close())
        await asyncio.sleep(0)  # closing has begun: it waits for the transaction being written
        late = commits.submit((second, 0, [(-1, 4)], "playing", 0))
        gated.release.set()
        await asyncio.gather(opening, closing)
        return (await asyncio.gather(late, return_exceptions=True))[0]

    late_outcome = run(play())
    assert isinstance(late_outcome, CommitsClosed)
    assert stored_actions(store, first) == [3] and stored_actions(store, second) == []


def test_the_database_write_lock_is_granted_in_the_order_asked_for() -> None:
    """A thread that releases the lock and asks again at once (as the commit thread does) waits its turn behind the
    threads already waiting, where `threading.Lock` would usually give it straight back."""
    lock = FairLock()
    order: list[str] = []
    asked = threading.Semaphore(0)

    def waiter(name: str) -> None:
        asked.release()
        with lock:
            order.append(name)

    with lock:
        waiters: list[threading.Thread] = []
        for name in ("create", "chat"):
            thread = threading.Thread(target=waiter, args=(name,))
            thread.start()
            assert asked.acquire(timeout=LIMIT)
            deadline = time.monotonic() + LIMIT
            while len(lock._waiting) < len(waiters) + 1:  # until the thread has queued for the lock
                assert time.monotonic() < deadline, "a thread asking for the held lock was not queued"
                time.sleep(0.001)
            waiters.append(thread)
    with lock:  # asked again at once by the thread that just let go
        order.append("commit")
    for thread in waiters:
        thread.join(LIMIT)
    assert order == ["create", "chat", "commit"]
