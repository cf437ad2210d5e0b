"""Opening the web table's database: SQLite by default and PostgreSQL by URL, one process per SQLite file, and the
schema brought up to date by the migrations."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Engine, create_engine, event


def default_url() -> str:
    """The SQLite file used when no `--db` is given: `$XDG_DATA_HOME/skald/skald.db`."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite:///{base / 'skald' / 'skald.db'}"


def normalise_url(url: str) -> str:
    """Use psycopg 3 for `postgresql://` URLs; leave other URLs as given."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for `url`; a SQLite file gets its folder created, WAL journaling and full sync on commit."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


class DatabaseInUse(Exception):
    """Another server process already serves this SQLite file."""


def sqlite_path(url: str) -> Path | None:
    """The file of a `sqlite:///…` URL; None for another database or an in-memory one."""
    url = normalise_url(url)
    if not url.startswith("sqlite") or "///" not in url:
        return None
    path = url.split("///", 1)[1].split("?", 1)[0]
    return Path(path) if path and path != ":memory:" else None


def hold_sqlite(url: str) -> IO[str] | None:
    """Take the SQLite file's server lock (`FILE.lock` beside it) for as long as the returned file stays open; raises
    `DatabaseInUse` if another process holds it. None for PostgreSQL, or where there are no `flock` locks.

    Each process keeps its own tables in memory and only PostgreSQL tells the others of its moves (`NOTIFY`), so a
    second process on one SQLite file would leave each one's players blind to the other's moves. The operating
    system frees the lock when the process ends, however it ends (a SIGKILL too), so a restart never finds it stale.
    """
    path = sqlite_path(url)
    try:
        import fcntl
    except ImportError:  # not a POSIX system: nothing to lock with
        return None
    if path is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = path.with_name(path.name + ".lock")
    handle = open(lock, "a+", encoding="utf-8")  # noqa: SIM115 -- held open for the life of the process
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        who = f"process {holder}" if holder.isdigit() else "another process"
        raise DatabaseInUse(
            f"the SQLite file {path} is already served by {who} (it holds {lock.name}); SQLite serves one process: "
            "stop that one, or serve several processes on PostgreSQL (--db postgresql://…)"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with Alembic (creating it on first start)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent.parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
