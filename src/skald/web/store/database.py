"""What every store of the web table shares: the engine, the lock its writes queue on, and how it tells other
server processes of what it commits."""

from __future__ import annotations

import secrets
import threading
from collections import deque
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from sqlalchemy import Engine


class FairLock:
    """A lock granted in the order it was asked for. `threading.Lock` is not: a thread that releases it and asks
    again at once usually gets it back before a waiting thread wakes, and the commit thread does exactly that under
    load, so game creation, chat and the other writes would wait for a lull in the moves."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._held = False
        self._waiting: deque[threading.Lock] = deque()

    def __enter__(self) -> FairLock:
        with self._guard:
            if not self._held:
                self._held = True
                return self
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append(turn)
        turn.acquire()  # released by the holder before us, which hands the lock over without letting go
        return self

    def __exit__(self, *exc: object) -> None:
        with self._guard:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False


class Database:
    """One database as this process uses it; every write is one transaction, committed before the caller says
    anything."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: Whether every committed move batch is announced with `NOTIFY` (PostgreSQL), so other processes hear of it.
        self.notifies = engine.dialect.name == "postgresql"
        #: This process's name in its announcements, so that it can ignore its own.
        self.origin = secrets.token_hex(8)
        # SQLite allows one writer at a time; queueing writers here, in turn, avoids its busy-wait backoff sleeps.
        self.write_lock: AbstractContextManager[Any] = FairLock() if engine.dialect.name == "sqlite" else nullcontext()

    def listen_url(self) -> str:
        """The database's URL as libpq takes it (without SQLAlchemy's driver name), for the listening connection."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
