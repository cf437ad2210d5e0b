"""Games that end off the board: seats' resignations, in the order they came, and ends agreed by the seats left."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import GameRow, SeatRow, now


class DepartureStore:
    """Writing resignations and agreed ends; they are read with the game's seats (`GameStore.load`)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def resign(self, game_id: str, seat: int, ply: int, ends: bool) -> int | None:
        """Record that `seat` resigned at `ply` (and, if `ends`, that the game is over): its place in the order of
        resignations (1: the first), or None if it had resigned already, the game is over, or there is no such
        seat."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            game = session.get(GameRow, game_id, with_for_update=True)
            seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).with_for_update()))
            row = next((found for found in seats if found.seat == seat), None)
            if game is None or game.status == "over" or row is None or row.resigned is not None:
                return None
            row.resigned = 1 + sum(1 for found in seats if found.resigned is not None)
            row.resigned_ply = ply
            if ends:
                game.status = "over"
            game.updated_at = now()
            return row.resigned

    def agree(self, game_id: str) -> bool:
        """Record that the seats left agreed to end the game with a shared result; False if it was over already."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            game = session.get(GameRow, game_id, with_for_update=True)
            if game is None or game.status == "over":
                return False
            game.agreed, game.status, game.updated_at = True, "over", now()
            return True
