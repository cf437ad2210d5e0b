"""Accounts' ratings at each game and their part in every rated game."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import AccountRow, RatedRow, RatingRow, now


class RatingStore:
    """Rating finished games and reading ratings."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def rate(
        self,
        game_id: str,
        game: str,
        seats: list[tuple[str | None, tuple[float, float] | None, int]],
        update: Callable[[list[tuple[float, float]], list[int]], list[tuple[float, float]]],
        fresh: tuple[float, float],
    ) -> bool:
        """Rate a finished game once: `seats` are (account or None, a bot's fixed rating or None, rank) each;
        `update` turns the ratings before (accounts' stored, else `fresh`; bots' fixed) and the ranks into the
        ratings after. False (nothing written) if the game was rated already."""
        stamp = now()
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                accounts = [account for account, _fixed, _rank in seats if account is not None]
                stored = {
                    row.account_id: row
                    for row in session.scalars(
                        select(RatingRow)
                        .where(RatingRow.game == game, RatingRow.account_id.in_(accounts))
                        .with_for_update()
                    )
                }
                before = [
                    fixed
                    if fixed is not None
                    else ((stored[account].mu, stored[account].sigma) if account in stored else fresh)
                    for account, fixed, _rank in seats
                ]
                after = update(before, [rank for _account, _fixed, rank in seats])
                for seat, ((account, _fixed, rank), old, new) in enumerate(zip(seats, before, after, strict=True)):
                    if account is None:
                        continue
                    session.add(
                        RatedRow(
                            game_id=game_id,
                            seat=seat,
                            account_id=account,
                            game=game,
                            place=rank,
                            players=len(seats),
                            mu_before=old[0],
                            sigma_before=old[1],
                            mu=new[0],
                            sigma=new[1],
                            created_at=stamp,
                        )
                    )
                    row = stored.get(account)
                    if row is None:
                        row = RatingRow(account_id=account, game=game, games=0)
                        session.add(row)
                        stored[account] = row
                    row.mu, row.sigma, row.games, row.updated_at = new[0], new[1], row.games + 1, stamp
            return True
        except IntegrityError:
            if self.rated(game_id):
                return False  # another process rated it at the same moment
            raise  # another clash (two first ratings of one account at once): the caller tries again

    def rated(self, game_id: str) -> bool:
        """Whether a game was rated."""
        with Session(self.engine) as session:
            return session.scalar(select(RatedRow.seat).where(RatedRow.game_id == game_id).limit(1)) is not None

    def table(self, game: str) -> list[tuple[str, float, float, int]]:
        """Every account's rating at a game: (name, mu, sigma, rated games)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game)
            )
            return [(name, mu, sigma, games) for name, mu, sigma, games in rows]

    def history(self, game: str, name_key: str) -> list[RatedRow] | None:
        """An account's rated games at a game, oldest first; None if there is no such account."""
        with Session(self.engine, expire_on_commit=False) as session:
            account = session.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key))
            if account is None:
                return None
            rows = list(
                session.scalars(
                    select(RatedRow)
                    .where(RatedRow.account_id == account, RatedRow.game == game)
                    .order_by(RatedRow.created_at, RatedRow.game_id)
                )
            )
            session.expunge_all()
            return rows
