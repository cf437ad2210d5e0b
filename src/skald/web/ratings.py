"""Ratings: every account has an openskill rating (Plackett–Luce) at each game, updated by its rated games.

A finished game is rated when every person's seat in it was kept in an account (`skald.web.accounts`) by its end,
unless it was abandoned by all: every person at it (two or more) resigned. A seat that resigned has lost, ranked below
every seat left in the game (the first to resign lowest), so resigning is no way out of a rating; a person alone
against bots who resigns has lost to them.
its bots take part with the fixed ratings below, which rated games never change, so a person's rating says how he
fares against the bots too. Ranks come from the final standings (seats that share the win share the first place;
the others follow the game's own order of the standings). A game is rated once, in the transaction that records
each account's part in it, so two processes that see it end rate it once between them.

The bots' ratings are provisional anchors, in the order of their strength as measured by `skald tournament`
(docs/bots.md): random < greedy < mcts:easy < mcts:normal < mcts:hard, each with a small uncertainty.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy.exc import IntegrityError

from skald.web import projection
from skald.web.accounts import name_key
from skald.web.live_table import HUMAN, LiveTable
from skald.web.store.ratings import RatingStore
from skald.web.store.seats import SeatStore

LOG = logging.getLogger("skald.web")

MODEL = PlackettLuce()
#: A new account's rating: openskill's default (mu 25, sigma 25/3).
FRESH = (MODEL.mu, MODEL.sigma)
#: The bots' fixed ratings (mu, sigma); provisional, see the module's text.
BOTS: dict[str, tuple[float, float]] = {
    "random": (12.0, 1.0),
    "greedy": (22.0, 1.0),
    "mcts:easy": (25.0, 1.0),
    "mcts:normal": (28.0, 1.0),
    "mcts:hard": (31.0, 1.0),
}


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown and ordered by: the mean less three uncertainties (a cautious estimate)."""
    return mu - 3 * sigma


def update(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The ratings after a game between seats rated `before`, finishing at `ranks` (1 best, ties shared)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def ranks(result: dict[str, Any]) -> list[int]:
    """Each seat's rank from a finished table's `result`: the winners share 1, and seats that the standings list
    with the same values share a rank (competition ranking: 1, 1, 3)."""
    rows = sorted(result["standings"], key=lambda row: row["place"])
    keys = [key["key"] for key in result["columns"]]
    winners = set(result["winners"])
    ranking = [0] * len(rows)
    previous: tuple[Any, ...] | None = None
    for index, row in enumerate(rows):
        # A seat that resigned ranks alone, below all those left (the standings list them in that order).
        key = (
            ("winner",)
            if row["seat"] in winners
            else ("resigned", row["seat"])
            if row.get("resigned")
            else tuple(row.get(k) for k in keys)
        )
        if key != previous:
            rank = index + 1
        ranking[row["seat"]] = rank
        previous = key
    return ranking


def abandoned(table: LiveTable) -> bool:
    """Whether a game was abandoned by all: two or more people sat at it, and every one of them resigned."""
    people = [info for info in table.seats if info.kind == HUMAN]
    return len(people) >= 2 and all(info.resigned is not None for info in people)


class Ratings:
    """Rates finished games (in the background) and answers about ratings."""

    def __init__(self, store: RatingStore, seats: SeatStore) -> None:
        self.store = store
        self.seats = seats
        self.rated = 0

    async def game_over(self, table: LiveTable) -> None:
        """Rate `table`'s finished game if every person's seat in it is kept in an account."""
        result = projection.result(table)
        if result is None or await asyncio.to_thread(self.store.rated, table.id):
            return
        accounts = await asyncio.to_thread(self.seats.seat_accounts, table.id)
        people = [seat for seat, info in enumerate(table.seats) if info.kind == HUMAN]
        if not people or any(seat not in accounts for seat in people) or len(table.seats) < 2:
            return
        if abandoned(table):
            return
        if len(set(accounts.values())) < len(accounts):
            return  # one account in two seats (kept before claims were one a game): not a fair rating
        ranking = ranks(result)
        seats = [
            (accounts.get(seat), None if info.kind == HUMAN else BOTS.get(info.kind, FRESH), ranking[seat])
            for seat, info in enumerate(table.seats)
        ]
        for _attempt in range(3):  # a clash with another game's first rating of an account is tried again
            try:
                if await asyncio.to_thread(self.store.rate, table.id, table.game.name, seats, update, FRESH):
                    self.rated += 1
                return
            except IntegrityError:
                continue
        LOG.error("game %s could not be rated", table.id)

    async def table(self, game: str) -> list[dict[str, Any]]:
        """Every account's and bot's rating at `game`, best first."""
        rows = await asyncio.to_thread(self.store.table, game)
        players = [
            {
                "name": name,
                "bot": False,
                "rating": round(ordinal(mu, sigma), 2),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "games": games,
            }
            for name, mu, sigma, games in rows
        ]
        players += [
            {"name": spec, "bot": True, "rating": round(ordinal(mu, sigma), 2), "mu": mu, "sigma": sigma, "games": None}
            for spec, (mu, sigma) in BOTS.items()
        ]
        return sorted(players, key=lambda row: (-row["rating"], row["name"]))

    async def history(self, game: str, name: str) -> list[dict[str, Any]] | None:
        """An account's rated games at `game`, oldest first; None if there is no such account."""
        key = name_key(name)
        rows = None if key is None else await asyncio.to_thread(self.store.history, game, key)
        if rows is None:
            return None
        return [
            {
                "id": row.game_id,
                "at": row.created_at.isoformat(),
                "place": row.place,
                "players": row.players,
                "before": round(ordinal(row.mu_before, row.sigma_before), 2),
                "after": round(ordinal(row.mu, row.sigma), 2),
            }
            for row in rows
        ]
