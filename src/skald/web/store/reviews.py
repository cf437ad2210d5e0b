"""Finished games' reviews by the bot, kept once made."""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import ReviewRow, now


class ReviewStore:
    """Reading and keeping reviews."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def get(self, game_id: str) -> ReviewRow | None:
        """A game's review by the bot, if made."""
        with Session(self.engine, expire_on_commit=False) as session:
            row = session.get(ReviewRow, game_id)
            if row is not None:
                session.expunge(row)
            return row

    def save(self, game_id: str, data: dict[str, Any], seconds: float) -> None:
        """Keep a game's review (a review made meanwhile by another process stays: they are the same)."""
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                session.add(ReviewRow(game_id=game_id, data=data, seconds=seconds, created_at=now()))
        except IntegrityError:
            pass
