"""E-mail reminders: each account's address and wishes, and for each seat the reminder of its current wait.

A wait is a seat's turn at one version of its game: the row of a seat says, for the version it was last looked at,
whether its reminder was sent, is being sent, waits to be tried again, was given up, or was not due (another seat
to move, a live clock). A move changes the game's version, and so starts a new wait with nothing sent. Every change
of a row is a compare-and-set on what was read, so two server processes never both send one reminder.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from skald.web.store.database import Database
from skald.web.store.schema import AccountRow, Base, GameRow, SeatRow, now

#: The waits looked at in one sweep at most, the longest waiting first.
BATCH = 100


class MailRow(Base):
    """An account's e-mail address, whether it wants reminders, and whether also for games without a clock."""

    __tablename__ = "account_mail"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    reminders: Mapped[bool] = mapped_column(Boolean)
    untimed: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReminderRow(Base):
    """The reminder of a seat's wait at `version`: `status` is `sending`, `sent`, `retry` (at `next_at`), `failed`
    (given up after `attempts` failures) or `skipped` (not due at that version)."""

    __tablename__ = "reminders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12))
    attempts: Mapped[int] = mapped_column(Integer)
    next_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Wait:
    """A seat of an unfinished game that has not moved since `since`, kept in an account with an address; `seen` is
    its reminder row as read (version, status, failures), or None."""

    game_id: str
    game: str
    version: int
    since: datetime
    clock: dict[str, Any] | None
    seat: int
    account_id: str
    name: str
    address: str
    untimed: bool
    seen: tuple[int, str, int] | None


class ReminderStore:
    """Reading and writing addresses and reminders."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def mail_of(self, account_id: str) -> MailRow | None:
        """The account's address and wishes, or None."""
        with Session(self.engine, expire_on_commit=False) as session:
            row = session.get(MailRow, account_id)
            if row is not None:
                session.expunge(row)
            return row

    def set_mail(self, account_id: str, address: str | None, reminders: bool, untimed: bool) -> None:
        """Set (or, with no address, remove) the account's address and wishes; waits passed over under the old
        wishes are looked at again."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                delete(ReminderRow).where(ReminderRow.account_id == account_id, ReminderRow.status == "skipped")
            )
            row = session.get(MailRow, account_id)
            if address is None:
                if row is not None:
                    session.delete(row)
                return
            if row is None:
                row = MailRow(account_id=account_id)
                session.add(row)
            row.address, row.reminders, row.untimed, row.updated_at = address, reminders, untimed, now()

    def stop(self, account_id: str) -> bool:
        """Turn the account's reminders off (its address kept); False if it has no address (or no longer exists)."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            done = session.execute(
                update(MailRow).where(MailRow.account_id == account_id).values(reminders=False, updated_at=now())
            )
            return bool(getattr(done, "rowcount", 0))

    def due(self, cutoff: datetime, stamp: datetime) -> list[Wait]:
        """Seats of unfinished games unmoved since before `cutoff`, kept in accounts that want reminders, whose wait
        was not looked at yet (or whose reminder is to be tried again by `stamp`), the longest waiting first."""
        seen = ReminderRow
        query = (
            select(
                GameRow.id,
                GameRow.game,
                GameRow.version,
                GameRow.updated_at,
                GameRow.clock,
                SeatRow.seat,
                AccountRow.id,
                AccountRow.name,
                MailRow.address,
                MailRow.untimed,
                seen.version,
                seen.status,
                seen.attempts,
            )
            .join(GameRow, GameRow.id == SeatRow.game_id)
            .join(AccountRow, AccountRow.id == SeatRow.account_id)
            .join(MailRow, MailRow.account_id == AccountRow.id)
            .outerjoin(seen, (seen.game_id == SeatRow.game_id) & (seen.seat == SeatRow.seat))
            .where(
                GameRow.status == "playing",
                GameRow.updated_at <= cutoff,
                MailRow.reminders.is_(True),
                SeatRow.resigned.is_(None),
                (seen.version.is_(None))
                | (seen.version != GameRow.version)
                | ((seen.status == "retry") & (seen.next_at <= stamp)),
            )
            .order_by(GameRow.updated_at)
            .limit(BATCH)
        )
        with Session(self.engine) as session:
            return [
                Wait(
                    game_id=row[0],
                    game=row[1],
                    version=row[2],
                    since=row[3],
                    clock=row[4],
                    seat=row[5],
                    account_id=row[6],
                    name=row[7],
                    address=row[8],
                    untimed=row[9],
                    seen=None if row[10] is None else (row[10], row[11], row[12]),
                )
                for row in session.execute(query)
            ]

    def take(self, wait: Wait, status: str, attempts: int = 0, next_at: datetime | None = None) -> bool:
        """Mark a wait's reminder `status` if its row is still as `wait` read it: False if another process (or a
        move) changed it first."""
        values = {"version": wait.version, "status": status, "attempts": attempts, "next_at": next_at}
        with self._write_lock, Session(self.engine) as session:
            try:
                with session.begin():
                    if wait.seen is None:
                        session.add(
                            ReminderRow(
                                game_id=wait.game_id,
                                seat=wait.seat,
                                account_id=wait.account_id,
                                updated_at=now(),
                                **values,
                            )
                        )
                        return True
                    version, was, failures = wait.seen
                    done = session.execute(
                        update(ReminderRow)
                        .where(
                            ReminderRow.game_id == wait.game_id,
                            ReminderRow.seat == wait.seat,
                            ReminderRow.version == version,
                            ReminderRow.status == was,
                            ReminderRow.attempts == failures,
                        )
                        .values(account_id=wait.account_id, updated_at=now(), **values)
                    )
                    return bool(getattr(done, "rowcount", 0))
            except IntegrityError:
                return False

    def settle(self, wait: Wait, status: str, attempts: int, next_at: datetime | None = None) -> None:
        """Record how sending a wait's reminder ended: `sent`, `retry` at `next_at`, or `failed`."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                update(ReminderRow)
                .where(
                    ReminderRow.game_id == wait.game_id,
                    ReminderRow.seat == wait.seat,
                    ReminderRow.version == wait.version,
                    ReminderRow.status == "sending",
                )
                .values(status=status, attempts=attempts, next_at=next_at, updated_at=now())
            )
