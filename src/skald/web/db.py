"""The web table's database: games, seats and every move, with SQLite by default and PostgreSQL by URL."""

from __future__ import annotations

import os
import threading
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the web tables."""


class GameRow(Base):
    """One game at the web table: its rule options, seed and how many actions it has (its version)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    """A seat: its name, `human` or a bot spec, and the SHA-256 of a person's secret token."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MoveRow(Base):
    """One action of a game, chance outcomes included; (game, ply) is unique, so a ply is taken only once."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


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


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with Alembic (creating it on first start)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class StaleVersion(Exception):
    """Another submission took this ply first."""


class Store:
    """Reading and writing games; every write is one transaction, committed before the caller says anything."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SQLite allows one writer at a time; queueing writers here avoids its busy-wait backoff sleeps.
        self._write_lock: AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else nullcontext()
        )

    def create(self, row: GameRow, seats: list[SeatRow]) -> None:
        """Insert a new game and its seats."""
        with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.add(row)
            session.flush()
            session.add_all(seats)

    def append(self, game_id: str, version: int, moves: list[tuple[int, int]], status: str) -> None:
        """Commit `moves` as (seat, action) from ply `version` on; raises `StaleVersion` if that ply is taken."""
        error = self.append_many([(game_id, version, moves, status)])[0]
        if error is not None:
            raise error

    def append_many(self, batch: list[tuple[str, int, list[tuple[int, int]], str]]) -> list[StaleVersion | None]:
        """Commit several games' moves in one transaction (one sync to disk); each game's ply is checked apart."""
        stamp = now()
        results: list[StaleVersion | None] = []
        with self._write_lock, Session(self.engine) as session, session.begin():
            for game_id, version, moves, status in batch:
                # A batch holds at most one write per game; an UPDATE that matched no row changed nothing.
                result = session.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.version == version)
                    .values(version=version + len(moves), status=status, updated_at=stamp)
                )
                if result.rowcount != 1:  # type: ignore[attr-defined]
                    results.append(StaleVersion(game_id))
                    continue
                session.add_all(
                    MoveRow(game_id=game_id, ply=version + i, seat=seat, action=action, created_at=stamp)
                    for i, (seat, action) in enumerate(moves)
                )
                session.flush()
                results.append(None)
        return results

    def set_rematch(self, game_id: str, rematch_id: str) -> str:
        """Record `rematch_id` as the game's rematch unless one exists; returns the rematch's id."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            row = session.get(GameRow, game_id, with_for_update=True)
            if row is None:
                raise KeyError(game_id)
            if row.rematch_id is None:
                row.rematch_id = rematch_id
            return row.rematch_id

    def load(self, game_id: str) -> tuple[GameRow, list[SeatRow], list[int]] | None:
        """A game, its seats and its actions in order; None if there is no such game."""
        with Session(self.engine, expire_on_commit=False) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)))
            actions = list(
                session.scalars(select(MoveRow.action).where(MoveRow.game_id == game_id).order_by(MoveRow.ply))
            )
            session.expunge_all()
            return row, seats, actions

    def unfinished(self) -> list[str]:
        """Ids of every game still being played."""
        with Session(self.engine) as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.status == "playing")))
