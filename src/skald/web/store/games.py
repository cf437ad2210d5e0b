"""The games and their moves: a game and its seats made, every move committed at the version it was checked against
(many games' moves in one transaction), and on PostgreSQL each commit announced to the other server processes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import ChatRow, GameRow, MoveRow, SeatRow, UndoRow, now


class StaleVersion(Exception):
    """Another submission took this ply first."""


#: Bump a game's version only if it is still the one the move was checked against, with as many steps taken back
#: (compiled once, reused).
_BUMP = (
    update(GameRow)
    .where(
        GameRow.id == bindparam("b_id"),
        GameRow.version == bindparam("b_old"),
        GameRow.undos == bindparam("b_undos"),
    )
    .values(version=bindparam("b_new"), status=bindparam("b_status"), updated_at=bindparam("b_at"))
)
#: Rows per multi-row INSERT (5 parameters each, well under SQLite's 32766).
_INSERT_CHUNK = 1000
#: Games per batched UPDATE (9 parameters each).
_BUMP_CHUNK = 250
#: One game's moves to commit: its id, its version they were checked against, (seat, action) each, its status
#: after, and the count of steps taken back it was checked against (`GameRow.undos`).
Write = tuple[str, int, list[tuple[int, int]], str, int]
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
            f"WHERE id IN ({', '.join([mark] * len(chunk))}) AND version = CASE id {whens} END "
            f"AND undos = CASE id {whens} END"
        )
        params: list[Any] = []
        for game_id, version, moves, _status, _undos in chunk:
            params += (game_id, version + len(moves))
        for game_id, _version, _moves, status, _undos in chunk:
            params += (game_id, status)
        params.append(at)
        params.extend(game_id for game_id, _version, _moves, _status, _undos in chunk)
        for game_id, version, _moves, _status, _undos in chunk:
            params += (game_id, version)
        for game_id, _version, _moves, _status, undos in chunk:
            params += (game_id, undos)
        if connection.exec_driver_sql(sql, tuple(params)).rowcount != len(chunk):
            return False
    return True


def _insert_moves(connection: Connection, batch: Batch, stamp: datetime) -> None:
    """Insert every game's moves, in as few multi-row INSERTs as the database allows."""
    rows = [
        {"game_id": game_id, "ply": version + i, "seat": seat, "action": action, "created_at": stamp}
        for game_id, version, moves, _status, _undos in batch
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


class GameStore:
    """Reading and writing games and their moves."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock
        #: Whether each commit is announced (`Database.notifies`), and this process's name in the announcements.
        self.notifies = database.notifies
        self.origin = database.origin

    def create(self, row: GameRow, seats: list[SeatRow]) -> None:
        """Insert a new game and its seats."""
        with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.add(row)
            session.flush()
            session.add_all(seats)

    def append(self, game_id: str, version: int, moves: list[tuple[int, int]], status: str, undos: int = 0) -> None:
        """Commit `moves` as (seat, action) from ply `version` on (with `undos` steps taken back so far); raises
        `StaleVersion` if that ply is taken."""
        error = self.append_many([(game_id, version, moves, status, undos)])[0]
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
                    game_id, version, moves, status, undos = item
                    # A batch holds at most one write per game; an UPDATE that matched no row changed nothing.
                    result = connection.execute(
                        _BUMP,
                        {
                            "b_id": game_id,
                            "b_old": version,
                            "b_undos": undos,
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
        games = (
            (game_id, version, [action for _seat, action in moves])
            for game_id, version, moves, _status, _undos in batch
        )
        for payload in announcements(self.origin, games):
            connection.exec_driver_sql("SELECT pg_notify(%s, %s)", (MOVES_CHANNEL, payload))

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

    def since(self, game_id: str, ply: int) -> tuple[str | None, int, list[int]] | None:
        """A game's rematch, its count of steps taken back, and its actions from `ply` on, in order; None if there is
        no such game.

        Every commit adds the plies right after the version it checked, so the rows read are always whole commits
        following `ply`, even while other processes commit more; a count of steps taken back that is not the
        reader's says that plies before its version may have changed too."""
        with Session(self.engine) as session, session.begin():
            found = session.execute(select(GameRow.rematch_id, GameRow.undos).where(GameRow.id == game_id)).first()
            if found is None:
                return None
            actions = list(
                session.scalars(
                    select(MoveRow.action).where(MoveRow.game_id == game_id, MoveRow.ply >= ply).order_by(MoveRow.ply)
                )
            )
            return found[0], found[1], actions

    def take_back(self, game_id: str, version: int, undos: int, ply: int, seat: int) -> bool:
        """Take the game back from `version` to `ply` for `seat`: its later moves deleted and the step back counted
        and kept (`UndoRow`), all in one transaction; False if the game is no longer at that version and count (another
        process moved it). On PostgreSQL the other processes are told (`ID:VERSION:PLY`, going back)."""
        stamp = now()
        with self._write_lock, Session(self.engine) as session, session.begin():
            moved = session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.version == version, GameRow.undos == undos)
                .values(version=ply, undos=undos + 1, status="playing", updated_at=stamp)
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return False
            session.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply))
            session.add(
                UndoRow(game_id=game_id, seq=undos + 1, seat=seat, ply=ply, steps=version - ply, created_at=stamp)
            )
            if self.notifies:
                payload = f"{self.origin} {game_id}:{version}:{ply}"
                session.execute(select(func.pg_notify(MOVES_CHANNEL, payload)))
        return True

    def undos(self, game_id: str) -> list[tuple[int, int, int]]:
        """Every step back taken in the game, in order: (seat, the version it went back to, actions taken back)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(UndoRow.seat, UndoRow.ply, UndoRow.steps).where(UndoRow.game_id == game_id).order_by(UndoRow.seq)
            )
            return [(seat, ply, steps) for seat, ply, steps in rows]

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
                session.execute(delete(UndoRow).where(UndoRow.game_id.in_(gone)))
                session.execute(delete(SeatRow).where(SeatRow.game_id.in_(gone)))
                session.execute(delete(GameRow).where(GameRow.id.in_(gone)))
            deleted += gone
        return deleted
