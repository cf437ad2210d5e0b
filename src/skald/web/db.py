"""The web table's database: games, seats and every move, with SQLite by default and PostgreSQL by URL."""

from __future__ import annotations

import os
import secrets
import threading
from collections import deque
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

#: The most characters a chat message may have, and the most messages a game's chat keeps.
CHAT_LENGTH = 300
CHAT_MESSAGES = 2000


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
    #: Whether chance draws from the seed mixed with the server's secret (null for games made before there was one).
    secret_seed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    #: Whether spectators may read and write in the table chat (seats always may; null for games made before chat).
    chat_spectators: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=False)


class SecretRow(Base):
    """A secret the server keeps in its database, so every process on it shares the same one."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class SeatRow(Base):
    """A seat: its name, `human` or a bot spec, and the SHA-256 of a person's secret token."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The account that claimed the seat (its holder then takes it wherever he signs in), or null.
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True, default=None
    )


class AccountRow(Base):
    """A person's account: a name shown as typed, its folded form (unique), and the password's Argon2 hash."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie, its account, the token its requests that change something
    must carry (CSRF), and when it ends."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingRow(Base):
    """An account's openskill rating at one game (its name): mean and uncertainty, and the rated games counted."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedRow(Base):
    """One account's part in one rated game: its place and its rating before and after (its history)."""

    __tablename__ = "rated_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    place: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class IdempotencyRow(Base):
    """A game creation made with an `Idempotency-Key`: the SHA-256 of the client and its key, of the request body,
    and the game made (null while it is being made), so that a repeat within the window gets the same game."""

    __tablename__ = "idempotency_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class MoveRow(Base):
    """One action of a game, chance outcomes included; (game, ply) is unique, so a ply is taken only once."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One message in a game's table chat: numbered from 1 in the order written, by a seat or (seat null) a spectator.
    Kept beside the game, never in its record."""

    __tablename__ = "chat_messages"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(CHAT_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewRow(Base):
    """A finished game's review by the bot (`skald.bots.review`), made once and kept: the game never changes."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    seconds: Mapped[float] = mapped_column(Float)
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
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


#: Bump a game's version only if it is still the one the move was checked against (compiled once, reused).
_BUMP = (
    update(GameRow)
    .where(GameRow.id == bindparam("b_id"), GameRow.version == bindparam("b_old"))
    .values(version=bindparam("b_new"), status=bindparam("b_status"), updated_at=bindparam("b_at"))
)
#: Rows per multi-row INSERT (5 parameters each, well under SQLite's 32766).
_INSERT_CHUNK = 1000
#: Games per batched UPDATE (7 parameters each).
_BUMP_CHUNK = 250
#: One game's moves to commit: its id, its version they were checked against, (seat, action) each, its status after.
Write = tuple[str, int, list[tuple[int, int]], str]
Batch = list[Write]


def _marks(connection: Connection) -> str | None:
    """The DB-API's positional placeholder (`?` for sqlite3, `%s` for psycopg), or None if it has none."""
    style = connection.dialect.paramstyle
    return "?" if style == "qmark" else "%s" if style in ("format", "pyformat") else None


def _stamp(connection: Connection, stamp: datetime) -> Any:
    """`stamp` as the dialect stores a timezone-aware DateTime (SQLite: text), as SQLAlchemy itself would."""
    dialect = connection.dialect
    process = GameRow.__table__.c.updated_at.type.dialect_impl(dialect).bind_processor(dialect)
    return process(stamp) if process is not None else stamp


def _bump_all(connection: Connection, batch: Batch, stamp: datetime) -> bool:
    """Bump every game's version with one UPDATE per chunk; False if any game was not at its expected version."""
    mark = _marks(connection)
    if mark is None:
        return False
    at = _stamp(connection, stamp)
    for start in range(0, len(batch), _BUMP_CHUNK):
        chunk = batch[start : start + _BUMP_CHUNK]
        whens = " ".join([f"WHEN {mark} THEN {mark}"] * len(chunk))
        sql = (
            f"UPDATE games SET version = CASE id {whens} END, status = CASE id {whens} END, updated_at = {mark} "
            f"WHERE id IN ({', '.join([mark] * len(chunk))}) AND version = CASE id {whens} END"
        )
        params: list[Any] = []
        for game_id, version, moves, _status in chunk:
            params += (game_id, version + len(moves))
        for game_id, _version, _moves, status in chunk:
            params += (game_id, status)
        params.append(at)
        params.extend(game_id for game_id, _version, _moves, _status in chunk)
        for game_id, version, _moves, _status in chunk:
            params += (game_id, version)
        if connection.exec_driver_sql(sql, tuple(params)).rowcount != len(chunk):
            return False
    return True


def _insert_moves(connection: Connection, batch: Batch, stamp: datetime) -> None:
    """Insert every game's moves, in as few multi-row INSERTs as the database allows."""
    rows = [
        {"game_id": game_id, "ply": version + i, "seat": seat, "action": action, "created_at": stamp}
        for game_id, version, moves, _status in batch
        for i, (seat, action) in enumerate(moves)
    ]
    mark = _marks(connection)
    if mark is None:
        if rows:
            connection.execute(insert(MoveRow), rows)
        return
    at = _stamp(connection, stamp)
    for start in range(0, len(rows), _INSERT_CHUNK):
        chunk = rows[start : start + _INSERT_CHUNK]
        values = ", ".join([f"({mark}, {mark}, {mark}, {mark}, {mark})"] * len(chunk))
        params = tuple(v for row in chunk for v in (row["game_id"], row["ply"], row["seat"], row["action"], at))
        connection.exec_driver_sql(
            f"INSERT INTO moves (game_id, ply, seat, action, created_at) VALUES {values}", params
        )


#: The PostgreSQL channel every committed move batch is announced on (see `skald.web.notify`).
MOVES_CHANNEL = "skald_moves"
#: The PostgreSQL channel every chat message is announced on: `ORIGIN ID:SEQ`, the game and the message's number.
CHAT_CHANNEL = "skald_chat"
#: Bytes of one notification's payload at most (PostgreSQL refuses 8,000 or more).
_PAYLOAD_LIMIT = 7000


def announcements(origin: str, games: Iterable[tuple[str, int, list[int]]]) -> list[str]:
    """The payloads telling that each of `games` (game id, its version before, the actions committed after it) has
    moved on: `ORIGIN ID:FROM:TO:A.B.C …`, as many payloads as needed to stay under PostgreSQL's limit. A game whose
    actions alone would not fit is told as `ID:FROM:TO` (its hearers read them from the database). The actions are
    what every process replays from the database, which is no more than any process on it may know."""
    payloads: list[str] = []
    line = origin
    for game_id, start, actions in games:
        item = f" {game_id}:{start}:{start + len(actions)}"
        moves = ".".join(map(str, actions))
        if len(origin) + len(item) + 1 + len(moves) <= _PAYLOAD_LIMIT:
            item += ":" + moves
        if len(line) + len(item) > _PAYLOAD_LIMIT:
            payloads.append(line)
            line = origin
        line += item
    if line != origin:
        payloads.append(line)
    return payloads


class ChatFull(Exception):
    """A game's chat holds `CHAT_MESSAGES` messages already."""


class StaleVersion(Exception):
    """Another submission took this ply first."""


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


class Store:
    """Reading and writing games; every write is one transaction, committed before the caller says anything."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: Whether every committed move batch is announced with `NOTIFY` (PostgreSQL), so other processes hear of it.
        self.notifies = engine.dialect.name == "postgresql"
        #: This process's name in its announcements, so that it can ignore its own.
        self.origin = secrets.token_hex(8)
        # SQLite allows one writer at a time; queueing writers here, in turn, avoids its busy-wait backoff sleeps.
        self._write_lock: AbstractContextManager[Any] = FairLock() if engine.dialect.name == "sqlite" else nullcontext()

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

    def append_many(self, batch: Batch) -> list[StaleVersion | None]:
        """Commit several games' moves in one transaction (one sync to disk); each game's ply is checked apart."""
        stamp = now()
        with self._write_lock, self.engine.connect() as connection:
            if len(batch) > 1:
                # The usual case, in a handful of statements: every game is still at the version its move was
                # checked against. Few statements matter: the database thread waits for the busy event loop to
                # hand back the GIL after each one.
                with connection.begin() as transaction:
                    if _bump_all(connection, batch, stamp):
                        _insert_moves(connection, batch, stamp)
                        self._announce(connection, batch)
                        return [None] * len(batch)
                    transaction.rollback()
            results: list[StaleVersion | None] = []
            with connection.begin():
                fresh = []
                for item in batch:
                    game_id, version, moves, status = item
                    # A batch holds at most one write per game; an UPDATE that matched no row changed nothing.
                    result = connection.execute(
                        _BUMP,
                        {
                            "b_id": game_id,
                            "b_old": version,
                            "b_new": version + len(moves),
                            "b_status": status,
                            "b_at": stamp,
                        },
                    )
                    stale = result.rowcount != 1
                    results.append(StaleVersion(game_id) if stale else None)
                    if not stale:
                        fresh.append(item)
                _insert_moves(connection, fresh, stamp)
                self._announce(connection, fresh)
        return results

    def _announce(self, connection: Connection, batch: Batch) -> None:
        """On PostgreSQL, `NOTIFY` every other process of the moves `batch` commits, in the transaction that commits
        them: PostgreSQL delivers a notification only when (and if) that transaction commits."""
        if not self.notifies or not batch:
            return
        games = ((game_id, version, [action for _seat, action in moves]) for game_id, version, moves, _status in batch)
        for payload in announcements(self.origin, games):
            connection.exec_driver_sql("SELECT pg_notify(%s, %s)", (MOVES_CHANNEL, payload))

    def say(self, game_id: str, seat: int | None, name: str, text: str) -> ChatRow:
        """Add a message to a game's chat, numbered after the last one (on PostgreSQL announced to every other
        process, on commit); raises KeyError if there is no such game."""
        for _attempt in range(10):
            try:
                with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
                    if session.get(GameRow, game_id) is None:
                        raise KeyError(game_id)
                    last = session.scalar(select(func.max(ChatRow.seq)).where(ChatRow.game_id == game_id))
                    if (last or 0) >= CHAT_MESSAGES:
                        raise ChatFull(game_id)
                    row = ChatRow(
                        game_id=game_id, seq=(last or 0) + 1, seat=seat, name=name, text=text, created_at=now()
                    )
                    session.add(row)
                    session.flush()
                    if self.notifies:
                        session.connection().exec_driver_sql(
                            "SELECT pg_notify(%s, %s)", (CHAT_CHANNEL, f"{self.origin} {game_id}:{row.seq}")
                        )
                return row
            except IntegrityError:
                continue  # another process numbered a message of this game at the same moment: number it again
        raise RuntimeError(f"chat of game {game_id}: could not number a message")

    def chat_tail(self, game_id: str, count: int) -> list[ChatRow]:
        """A game's latest `count` chat messages, in order."""
        with Session(self.engine, expire_on_commit=False) as session:
            rows = list(
                session.scalars(
                    select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.seq.desc()).limit(count)
                )
            )
            session.expunge_all()
            return rows[::-1]

    def chat(self, game_id: str, after: int = 0) -> list[ChatRow]:
        """A game's chat messages numbered after `after`, in order."""
        with Session(self.engine, expire_on_commit=False) as session:
            rows = list(
                session.scalars(
                    select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.seq > after).order_by(ChatRow.seq)
                )
            )
            session.expunge_all()
            return rows

    def review(self, game_id: str) -> ReviewRow | None:
        """A game's review by the bot, if made."""
        with Session(self.engine, expire_on_commit=False) as session:
            row = session.get(ReviewRow, game_id)
            if row is not None:
                session.expunge(row)
            return row

    def save_review(self, game_id: str, data: dict[str, Any], seconds: float) -> None:
        """Keep a game's review (a review made meanwhile by another process stays: they are the same)."""
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                session.add(ReviewRow(game_id=game_id, data=data, seconds=seconds, created_at=now()))
        except IntegrityError:
            pass

    # -- accounts ------------------------------------------------------------------------------------------

    def create_account(self, row: AccountRow) -> bool:
        """Add an account; False if its name (folded) is taken."""
        try:
            with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
                session.add(row)
            return True
        except IntegrityError:
            return False

    def account_named(self, name_key: str) -> AccountRow | None:
        """The account whose folded name is `name_key`."""
        with Session(self.engine, expire_on_commit=False) as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key))
            if row is not None:
                session.expunge(row)
            return row

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """Replace an account's password hash (with the same password, hashed with today's parameters)."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash))

    def open_session(self, row: SessionRow) -> None:
        """Record a signed-in browser (and forget the sessions that have ended)."""
        with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.expires_at < now()))
            session.add(row)

    def session_of(self, token_hash: str) -> tuple[SessionRow, AccountRow] | None:
        """The session with this cookie hash and its account, or None (ended sessions included: the caller tells)."""
        with Session(self.engine, expire_on_commit=False) as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_hash == token_hash)
            ).first()
            if found is None:
                return None
            session.expunge_all()
            return found[0], found[1]

    def close_session(self, token_hash: str) -> None:
        """Sign a browser out: its cookie stops working, wherever it is."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def close_sessions(self, account_id: str) -> None:
        """Sign an account out everywhere."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    def claim_seat(self, game_id: str, seat: int, account_id: str) -> tuple[str | None, int | None]:
        """Give a seat to an account unless another account has it or the account keeps another seat of the game:
        (the seat's account afterwards, the other seat the account keeps); (None, None) if there is no such seat."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).with_for_update()))
            row = next((found for found in seats if found.seat == seat), None)
            if row is None:
                return None, None
            other = next((found.seat for found in seats if found.account_id == account_id and found.seat != seat), None)
            if row.account_id is None and other is None:
                row.account_id = account_id
            return row.account_id, other

    def account_seat(self, game_id: str, account_id: str) -> int | None:
        """The seat an account keeps in a game, or None."""
        with Session(self.engine) as session:
            return session.scalar(
                select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.account_id == account_id).limit(1)
            )

    def account_seats(self, account_id: str, limit: int) -> list[tuple[str, int]]:
        """The (game, seat) pairs an account has claimed, the games moved most recently first."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeatRow.game_id, SeatRow.seat)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id == account_id)
                .order_by(GameRow.updated_at.desc())
                .limit(limit)
            )
            return [(game_id, seat) for game_id, seat in rows]

    # -- ratings -------------------------------------------------------------------------------------------

    def seat_accounts(self, game_id: str) -> dict[int, str]:
        """The seats of a game kept in accounts, with their accounts."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeatRow.seat, SeatRow.account_id).where(
                    SeatRow.game_id == game_id, SeatRow.account_id.is_not(None)
                )
            )
            return {seat: account for seat, account in rows if account is not None}

    def rate(
        self,
        game_id: str,
        game: str,
        seats: list[tuple[str | None, tuple[float, float] | None, int]],
        update: Callable[[list[tuple[float, float]], list[int]], list[tuple[float, float]]],
        fresh: tuple[float, float],
    ) -> bool:
        """Rate a finished game once: `seats` are (account or None, a bot's fixed rating or None, rank) each;
        `update` turns the ratings before (accounts' stored, else `fresh`; bots' fixed) and the ranks into the
        ratings after. False (nothing written) if the game was rated already."""
        stamp = now()
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                accounts = [account for account, _fixed, _rank in seats if account is not None]
                stored = {
                    row.account_id: row
                    for row in session.scalars(
                        select(RatingRow)
                        .where(RatingRow.game == game, RatingRow.account_id.in_(accounts))
                        .with_for_update()
                    )
                }
                before = [
                    fixed
                    if fixed is not None
                    else ((stored[account].mu, stored[account].sigma) if account in stored else fresh)
                    for account, fixed, _rank in seats
                ]
                after = update(before, [rank for _account, _fixed, rank in seats])
                for seat, ((account, _fixed, rank), old, new) in enumerate(zip(seats, before, after, strict=True)):
                    if account is None:
                        continue
                    session.add(
                        RatedRow(
                            game_id=game_id,
                            seat=seat,
                            account_id=account,
                            game=game,
                            place=rank,
                            players=len(seats),
                            mu_before=old[0],
                            sigma_before=old[1],
                            mu=new[0],
                            sigma=new[1],
                            created_at=stamp,
                        )
                    )
                    row = stored.get(account)
                    if row is None:
                        row = RatingRow(account_id=account, game=game, games=0)
                        session.add(row)
                        stored[account] = row
                    row.mu, row.sigma, row.games, row.updated_at = new[0], new[1], row.games + 1, stamp
            return True
        except IntegrityError:
            if self.rated(game_id):
                return False  # another process rated it at the same moment
            raise  # another clash (two first ratings of one account at once): the caller tries again

    def rated(self, game_id: str) -> bool:
        """Whether a game was rated."""
        with Session(self.engine) as session:
            return session.scalar(select(RatedRow.seat).where(RatedRow.game_id == game_id).limit(1)) is not None

    def ratings(self, game: str) -> list[tuple[str, float, float, int]]:
        """Every account's rating at a game: (name, mu, sigma, rated games)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game)
            )
            return [(name, mu, sigma, games) for name, mu, sigma, games in rows]

    def rating_history(self, game: str, name_key: str) -> list[RatedRow] | None:
        """An account's rated games at a game, oldest first; None if there is no such account."""
        with Session(self.engine, expire_on_commit=False) as session:
            account = session.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key))
            if account is None:
                return None
            rows = list(
                session.scalars(
                    select(RatedRow)
                    .where(RatedRow.account_id == account, RatedRow.game == game)
                    .order_by(RatedRow.created_at, RatedRow.game_id)
                )
            )
            session.expunge_all()
            return rows

    def listen_url(self) -> str:
        """The database's URL as libpq takes it (without SQLAlchemy's driver name), for the listening connection."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

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

    def since(self, game_id: str, ply: int) -> tuple[str | None, list[int]] | None:
        """A game's rematch and its actions from `ply` on, in order; None if there is no such game.

        Every commit adds the plies right after the version it checked, so the rows read are always whole commits
        following `ply`, even while other processes commit more."""
        with Session(self.engine) as session:
            rematch = session.execute(select(GameRow.rematch_id).where(GameRow.id == game_id)).first()
            if rematch is None:
                return None
            actions = list(
                session.scalars(
                    select(MoveRow.action).where(MoveRow.game_id == game_id, MoveRow.ply >= ply).order_by(MoveRow.ply)
                )
            )
            return rematch[0], actions

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The version of each of `game_ids` still in the database."""
        found: dict[str, int] = {}
        with Session(self.engine) as session:
            for start in range(0, len(game_ids), 500):
                chunk = game_ids[start : start + 500]
                rows = session.execute(select(GameRow.id, GameRow.version).where(GameRow.id.in_(chunk)))
                found.update((game_id, version) for game_id, version in rows)
        return found

    def unfinished(self) -> list[str]:
        """Ids of every game still being played."""
        with Session(self.engine) as session:
            return list(session.scalars(select(GameRow.id).where(GameRow.status == "playing")))

    def server_secret(self) -> bytes:
        """The server's 256-bit secret, made on first use and shared by every process on this database."""
        with Session(self.engine) as session:
            row = session.get(SecretRow, "chance")
            if row is not None:
                return bytes.fromhex(row.value)
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                session.add(SecretRow(name="chance", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first: use theirs
        with Session(self.engine) as session:
            made = session.get(SecretRow, "chance")
            assert made is not None
            return bytes.fromhex(made.value)

    def reserve_key(
        self, key_hash: str, fingerprint: str, window: timedelta, abandoned: timedelta
    ) -> tuple[str, str | None] | None:
        """Reserve an idempotency key for a creation about to be made: None if reserved now, else the fingerprint of
        the request that holds it and its game (None while that one is still being made).

        Keys older than `window` are forgotten first, and so are reservations that never got their game within
        `abandoned` (a server stopped half-way): their keys may be used again."""
        stamp = now()
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                session.execute(
                    delete(IdempotencyRow).where(
                        (IdempotencyRow.created_at < stamp - window)
                        | (IdempotencyRow.game_id.is_(None) & (IdempotencyRow.created_at < stamp - abandoned))
                    )
                )
                session.add(IdempotencyRow(key_hash=key_hash, fingerprint=fingerprint, game_id=None, created_at=stamp))
            return None
        except IntegrityError:
            pass  # the key is taken: by an earlier request, or by one made at this very moment
        with Session(self.engine) as session:
            row = session.get(IdempotencyRow, key_hash)
            if row is None:  # forgotten meanwhile: the caller may try again
                return self.reserve_key(key_hash, fingerprint, window, abandoned)
            return row.fingerprint, row.game_id

    def settle_key(self, key_hash: str, game_id: str) -> None:
        """Record the game made under a reserved idempotency key."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(update(IdempotencyRow).where(IdempotencyRow.key_hash == key_hash).values(game_id=game_id))

    def release_key(self, key_hash: str) -> None:
        """Free a reserved idempotency key whose creation failed (it made no game), so it may be used again."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                delete(IdempotencyRow).where(IdempotencyRow.key_hash == key_hash, IdempotencyRow.game_id.is_(None))
            )

    def claim_token(self, game_id: str, seat: int, digest: str) -> str | None:
        """Set a person seat's token hash if it has none yet; returns the seat's hash afterwards."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (game_id, seat), with_for_update=True)
            if row is None:
                return None
            if row.token_hash is None:
                row.token_hash = digest
            return row.token_hash

    def set_token(self, game_id: str, seat: int, digest: str) -> None:
        """Replace a person seat's token hash: the old token stops working, and so does the claim of any account that
        kept the seat (whoever leaked the link may have claimed it); the new token's holder may claim it again."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(token_hash=digest, account_id=None)
            )

    def expire(self, days: float, keep: set[str]) -> list[str]:
        """Delete every unfinished game without a move (or creation) for `days` days, except those in `keep` (in
        use here); returns their ids. Finished games stay: their records are worth keeping."""
        cutoff = now() - timedelta(days=days)
        with Session(self.engine) as session:
            stale = [
                game_id
                for game_id in session.scalars(
                    select(GameRow.id).where(GameRow.status != "over", GameRow.updated_at < cutoff)
                )
                if game_id not in keep
            ]
        deleted: list[str] = []
        for start in range(0, len(stale), 500):
            chunk = stale[start : start + 500]
            with self._write_lock, Session(self.engine) as session, session.begin():
                # Checked again inside the deleting transaction: a move may have come in since the list was read.
                gone = list(
                    session.scalars(
                        select(GameRow.id).where(
                            GameRow.id.in_(chunk), GameRow.status != "over", GameRow.updated_at < cutoff
                        )
                    )
                )
                session.execute(delete(MoveRow).where(MoveRow.game_id.in_(gone)))
                session.execute(delete(ChatRow).where(ChatRow.game_id.in_(gone)))
                session.execute(delete(SeatRow).where(SeatRow.game_id.in_(gone)))
                session.execute(delete(GameRow).where(GameRow.id.in_(gone)))
            deleted += gone
        return deleted

    # -- the chat's rolling window and deleting an account ------------------------------------------------------

    def say_keeping(self, game_id: str, seat: int | None, name: str, text: str, keep: int) -> ChatRow:
        """Add a message to a game's chat, numbered after the last one, and forget the messages `keep` or more before
        it: the chat keeps its latest `keep`, so it is never full (on PostgreSQL the message is announced to every
        other process, on commit); raises KeyError if there is no such game."""
        for _attempt in range(10):
            try:
                with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
                    if session.get(GameRow, game_id) is None:
                        raise KeyError(game_id)
                    last = session.scalar(select(func.max(ChatRow.seq)).where(ChatRow.game_id == game_id)) or 0
                    row = ChatRow(game_id=game_id, seq=last + 1, seat=seat, name=name, text=text, created_at=now())
                    session.add(row)
                    session.flush()
                    session.execute(delete(ChatRow).where(ChatRow.game_id == game_id, ChatRow.seq <= row.seq - keep))
                    if self.notifies:
                        session.connection().exec_driver_sql(
                            "SELECT pg_notify(%s, %s)", (CHAT_CHANNEL, f"{self.origin} {game_id}:{row.seq}")
                        )
                return row
            except IntegrityError:
                continue  # another process numbered a message of this game at the same moment: number it again
        raise RuntimeError(f"chat of game {game_id}: could not number a message")

    def delete_account(self, account_id: str) -> None:
        """Delete an account with its sessions and ratings; the games stay, the seats it kept belong to no account."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(account_id=None))
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            session.execute(delete(RatedRow).where(RatedRow.account_id == account_id))
            session.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
            session.execute(delete(AccountRow).where(AccountRow.id == account_id))
