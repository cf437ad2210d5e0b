"""The times the clocks are reckoned from: when each of a game's actions was committed."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import MoveRow


class ClockTimeStore:
    """Reading the moves' commit times."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    def stamps(self, game_id: str) -> list[tuple[int, datetime]]:
        """Each action's (seat, commit time), in order (chance's seat is below 0)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(MoveRow.seat, MoveRow.created_at).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)
            )
            return [(seat, at) for seat, at in rows]
