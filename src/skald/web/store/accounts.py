"""Accounts and their sign-in sessions (signed-in browsers)."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import AccountRow, RatedRow, RatingRow, SeatRow, SessionRow, now


class AccountStore:
    """Reading and writing accounts and sessions."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def create(self, row: AccountRow) -> bool:
        """Add an account; False if its name (folded) is taken."""
        try:
            with self._write_lock, Session(self.engine, expire_on_commit=False) as session, session.begin():
                session.add(row)
            return True
        except IntegrityError:
            return False

    def named(self, name_key: str) -> AccountRow | None:
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

    def delete(self, account_id: str) -> None:
        """Delete an account with its sessions and ratings; the games stay, the seats it kept belong to no account."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(account_id=None))
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            session.execute(delete(RatedRow).where(RatedRow.account_id == account_id))
            session.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
            session.execute(delete(AccountRow).where(AccountRow.id == account_id))
