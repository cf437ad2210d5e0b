"""Summaries of a tournament: win rates with Wilson intervals, scores, openskill ratings, seat advantage."""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from skald.sim.lineup import spec_of
from skald.sim.match import GameResult

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (a shared win counts as its fraction)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # Rounding can push a bound past p itself when p is 0 or 1.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass
class EntrantStats:
    """How one entrant (a bot in one or more seats of every game) did over the tournament."""

    name: str
    spec: str
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    mean_score: float = 0.0
    score_stdev: float = 0.0
    mean_rank: float = 0.0
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    rating_ordinal: float = 0.0
    mean_move_seconds: float = 0.0
    max_move_seconds: float = 0.0
    scores: list[int] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        """The summary as a flat row (no score list), for CSV and tables."""
        data = asdict(self)
        del data["scores"]
        return data


@dataclass
class SeatStats:
    """How whoever sat in one seat did: the seat's advantage or handicap."""

    seat: int
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    mean_score: float = 0.0
    #: Win rate minus the fair share 1/players.
    advantage: float = 0.0


def summarise_entrants(results: list[GameResult], names: list[str]) -> list[EntrantStats]:
    """Per-entrant statistics, in the order the entrants were named; ratings use the games in index order."""
    stats = {name: EntrantStats(name, spec_of(name)) for name in names}
    ranks: dict[str, list[int]] = {name: [] for name in names}
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    moves = dict.fromkeys(names, 0)
    seconds = dict.fromkeys(names, 0.0)
    for result in sorted(results, key=lambda r: r.index):
        for seat, name in enumerate(result.entrants):
            entry = stats[name]
            entry.games += 1
            entry.wins += result.returns[seat]
            entry.scores.append(result.scores[seat])
            ranks[name].append(result.ranks[seat])
            moves[name] += result.moves[seat] if result.moves else 0
            seconds[name] += result.move_seconds[seat] if result.move_seconds else 0.0
            if result.max_move_seconds:
                entry.max_move_seconds = max(entry.max_move_seconds, result.max_move_seconds[seat])
        rated = model.rate([[ratings[name]] for name in result.entrants], ranks=list(result.ranks))
        for name, team in zip(result.entrants, rated, strict=True):
            ratings[name] = team[0]
    for name, entry in stats.items():
        if entry.games:
            entry.win_rate = entry.wins / entry.games
            entry.win_low, entry.win_high = wilson(entry.wins, entry.games)
            entry.mean_score = statistics.fmean(entry.scores)
            entry.score_stdev = statistics.pstdev(entry.scores)
            entry.mean_rank = statistics.fmean(ranks[name])
        entry.rating_mu = ratings[name].mu
        entry.rating_sigma = ratings[name].sigma
        entry.rating_ordinal = ratings[name].ordinal()
        entry.mean_move_seconds = seconds[name] / moves[name] if moves[name] else 0.0
    return list(stats.values())


def summarise_seats(results: list[GameResult], num_players: int) -> list[SeatStats]:
    """Per-seat win rates and scores over all games, with the advantage over a fair share."""
    seats = [SeatStats(seat) for seat in range(num_players)]
    scores: list[list[int]] = [[] for _ in range(num_players)]
    for result in results:
        for seat, entry in enumerate(seats):
            entry.games += 1
            entry.wins += result.returns[seat]
            scores[seat].append(result.scores[seat])
    for entry in seats:
        if entry.games:
            entry.win_rate = entry.wins / entry.games
            entry.win_low, entry.win_high = wilson(entry.wins, entry.games)
            entry.mean_score = statistics.fmean(scores[entry.seat])
            entry.advantage = entry.win_rate - 1 / num_players
    return seats
