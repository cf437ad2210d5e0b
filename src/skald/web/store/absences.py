"""Absent players: a seat the table's rule gave to its stand-in bot when its clock ran out, the player's wish to come
back, and his return with the time his clock was given back."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import GameRow, SeatRow


class AbsenceStore:
    """Writing seats' absences and returns; they are read with the game's seats (`GameStore.load`)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def away(self, game_id: str, seat: int, ply: int) -> bool:
        """Record that a bot plays `seat` from `ply` on for its absent person; False if the game is over or the seat
        is away already."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            game = session.get(GameRow, game_id, with_for_update=True)
            row = session.get(SeatRow, (game_id, seat), with_for_update=True)
            if game is None or game.status == "over" or row is None or row.away_ply is not None:
                return False
            row.away_ply, row.coming_back = ply, None
            return True

    def returning(self, game_id: str, seat: int) -> bool:
        """Record that the person of the away `seat` asked for it back; False if it is not away."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            done = session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.away_ply.is_not(None))
                .values(coming_back=True)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def returned(self, game_id: str, seat: int, credit: float) -> None:
        """Record that `seat` is its person's again, his live clock given back `credit` seconds in all."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(away_ply=None, coming_back=None, credit=credit)
            )
