"""Idempotency keys: a game creation that may be repeated gets the same game."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import IdempotencyRow, now


class IdempotencyStore:
    """Reserving, settling and releasing idempotency keys."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def reserve(
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
                return self.reserve(key_hash, fingerprint, window, abandoned)
            return row.fingerprint, row.game_id

    def settle(self, key_hash: str, game_id: str) -> None:
        """Record the game made under a reserved idempotency key."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(update(IdempotencyRow).where(IdempotencyRow.key_hash == key_hash).values(game_id=game_id))

    def release(self, key_hash: str) -> None:
        """Free a reserved idempotency key whose creation failed (it made no game), so it may be used again."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            session.execute(
                delete(IdempotencyRow).where(IdempotencyRow.key_hash == key_hash, IdempotencyRow.game_id.is_(None))
            )
