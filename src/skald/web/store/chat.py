"""The table chat's messages, numbered in the order written; on PostgreSQL each announced to the other server
processes."""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import CHAT_MESSAGES, ChatRow, GameRow, now

#: The PostgreSQL channel every chat message is announced on: `ORIGIN ID:SEQ`, the game and the message's number.
CHAT_CHANNEL = "skald_chat"


class ChatStore:
    """Reading and writing games' chat messages."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock
        #: Whether each message is announced (`Database.notifies`), and this process's name in the announcements.
        self.notifies = database.notifies
        self.origin = database.origin

    def say(self, game_id: str, seat: int | None, name: str, text: str, keep: int = CHAT_MESSAGES) -> ChatRow:
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

    def tail(self, game_id: str, count: int) -> list[ChatRow]:
        """A game's latest `count` chat messages, in order."""
        with Session(self.engine, expire_on_commit=False) as session:
            rows = list(
                session.scalars(
                    select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.seq.desc()).limit(count)
                )
            )
            session.expunge_all()
            return rows[::-1]

    def after(self, game_id: str, after: int = 0) -> list[ChatRow]:
        """A game's chat messages numbered after `after`, in order."""
        with Session(self.engine, expire_on_commit=False) as session:
            rows = list(
                session.scalars(
                    select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.seq > after).order_by(ChatRow.seq)
                )
            )
            session.expunge_all()
            return rows
