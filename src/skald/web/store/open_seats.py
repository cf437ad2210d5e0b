"""Open tables: seats open to anyone, taken one by one (or given to bots by the creator), and the list of the tables
still waiting for players."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import GameRow, SeatRow, now


class OpenSeatStore:
    """Taking open seats, filling them with bots, and listing the tables that wait."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def join(
        self, game_id: str, seat: int, name: str, digest: str, account_id: str | None
    ) -> tuple[str, datetime | None]:
        """Give the open `seat` to a person named `name` (his token's hash `digest`, his account if any): `ok`, or why
        not (`over`, `started`: no seat is open, `taken`: that one is not, `claimed`: the account has a seat here
        already); and when the table started, if this was its last open seat."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            game = session.get(GameRow, game_id, with_for_update=True)
            seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).with_for_update()))
            row = next((found for found in seats if found.seat == seat), None)
            if game is None or game.status == "over":
                return "over", None
            if not any(found.is_open for found in seats):
                return "started", None
            if row is None or not row.is_open:
                return "taken", None
            if account_id is not None and any(found.account_id == account_id for found in seats):
                return "claimed", None
            row.name, row.token_hash, row.is_open, row.account_id = name, digest, False, account_id
            started = None if any(found.is_open for found in seats) else now()
            game.started_at, game.updated_at = started, now()
            return "ok", started

    def fill(self, game_id: str, bots: dict[int, tuple[str, str]]) -> datetime | None:
        """Give each open seat in `bots` to a bot (name, level) and start the table; when it started, or None if the
        table no longer waits for exactly those seats (someone joined meanwhile, or it is over)."""
        with self._write_lock, Session(self.engine) as session, session.begin():
            game = session.get(GameRow, game_id, with_for_update=True)
            seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).with_for_update()))
            if game is None or game.status == "over" or {row.seat for row in seats if row.is_open} != set(bots):
                return None
            for row in seats:
                if row.seat in bots:
                    row.name, row.kind = bots[row.seat]
                    row.is_open = False
            game.started_at = game.updated_at = now()
            return game.started_at

    def waiting(self, limit: int) -> list[tuple[GameRow, list[SeatRow]]]:
        """The tables still waiting for players, newest first, each with its seats."""
        with Session(self.engine, expire_on_commit=False) as session:
            waiting = select(SeatRow.game_id).where(SeatRow.is_open.is_(True)).distinct().scalar_subquery()
            games = list(
                session.scalars(
                    select(GameRow)
                    .where(GameRow.status == "playing", GameRow.id.in_(waiting))
                    .order_by(GameRow.created_at.desc())
                    .limit(limit)
                )
            )
            found: dict[str, list[SeatRow]] = {game.id: [] for game in games}
            if found:
                for row in session.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(list(found))).order_by(SeatRow.seat)
                ):
                    found[row.game_id].append(row)
            session.expunge_all()
            return [(game, found[game.id]) for game in games]
