"""Who holds each seat: the hash of its token, and the account that keeps it."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import GameRow, SeatRow


class SeatStore:
    """Reading and writing seats' tokens and accounts."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

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
        """Replace a person seat's token hash: the old token stops working. The account that kept the seat keeps it
        (a claim outlives every token that reaches the seat, so no one can drop it to choose which results count)."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat).values(token_hash=digest)
            )

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

    def seat_accounts(self, game_id: str) -> dict[int, str]:
        """The seats of a game kept in accounts, with their accounts."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(SeatRow.seat, SeatRow.account_id).where(
                    SeatRow.game_id == game_id, SeatRow.account_id.is_not(None)
                )
            )
            return {seat: account for seat, account in rows if account is not None}
