"""What a simulation measures, and how two rule variants differ on the same seeds.

Every per-game metric is an integer (a win shared by k seats counts as `lcm / k` of a scaled win), so the
bootstrap's and the permutation test's sums are exact: the figures are the same on any machine, whatever the order
they are added in.

A comparison answers "does this variant matter" in three steps: how many of the paired games the variant changed at
all (played differently, a different result, a different winner); each metric's difference with a paired-bootstrap
95% interval; and each metric's p-value from a paired sign-flip permutation test, corrected for multiple
comparisons by Holm's method within each family of metrics (the game's outcomes; the action kinds).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from skald.sim.simulation import GameSummary
from skald.sim.stats import wilson

#: The quantiles reported for every distribution, in percent.
QUANTILES = (5, 25, 50, 75, 95)
#: A histogram has at most this many bins (each a whole number of units wide).
HISTOGRAM_BINS = 20
#: Bootstrap resamples for each interval, and the fixed seed they are drawn from.
RESAMPLES = 2000
BOOTSTRAP_SEED = 0
#: Resamples drawn at a time (bounds the memory a large comparison needs).
CHUNK = 200
#: Random sign flips of the paired differences for each p-value, and their fixed seed.
PERMUTATIONS = 9999
PERMUTATION_SEED = 1
#: The level an adjusted p-value must be under for a difference to be called significant.
LEVEL = 0.05
#: The two families of metrics, each corrected on its own: what a game came to, and how often it chose each kind.
OUTCOMES = "outcome"
KINDS = "kind"


def rounded(value: float) -> float:
    """A figure rounded for reports: six decimals are beyond any simulation's precision."""
    return round(value, 6)


def distribution(values: list[int]) -> dict[str, Any]:
    """Mean, spread, quantiles and a histogram of whole-number values."""
    low, high = min(values), max(values)
    cuts = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else [float(low)] * 99
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    counts = [0] * ((high - low) // width + 1)
    for value in values:
        counts[(value - low) // width] += 1
    return {
        "mean": rounded(statistics.fmean(values)),
        "stdev": rounded(statistics.pstdev(values)),
        "min": low,
        "max": high,
        "quantiles": {str(q): rounded(cuts[q - 1]) for q in QUANTILES},
        # Bin k holds the values from edges[k] up to edges[k + 1] - 1.
        "histogram": {"edges": [low + k * width for k in range(len(counts) + 1)], "counts": counts},
    }


def seat_table(games: list[GameSummary], num_players: int) -> list[dict[str, Any]]:
    """Per seat: wins (a shared win split), the win rate's Wilson interval, the advantage over 1/players, scores."""
    rows = []
    for seat in range(num_players):
        wins = sum(game.returns[seat] for game in games)
        rate = wins / len(games)
        low, high = wilson(wins, len(games))
        rows.append(
            {
                "seat": seat + 1,
                "wins": rounded(wins),
                "win_rate": rounded(rate),
                "win_low": rounded(low),
                "win_high": rounded(high),
                "advantage": rounded(rate - 1 / num_players),
                "mean_score": rounded(statistics.fmean(game.scores[seat] for game in games)),
            }
        )
    return rows


def kind_totals(games: list[GameSummary]) -> dict[str, dict[str, Any]]:
    """Each kind of action chosen (the `type` of its JSON form): how often, per game, and as a share of decisions."""
    totals: dict[str, int] = {}
    for game in games:
        for kind, count in game.kinds.items():
            totals[kind] = totals.get(kind, 0) + count
    decisions = sum(game.decisions for game in games) or 1
    return {
        kind: {"count": count, "per_game": rounded(count / len(games)), "share": rounded(count / decisions)}
        for kind, count in sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    }


def summarise(games: list[GameSummary], num_players: int) -> dict[str, Any]:
    """Everything measured over one variant's games."""
    tied = [game for game in games if game.top_tied]
    return {
        "games": len(games),
        "seeds": [games[0].seed, games[-1].seed],
        "decisions": distribution([game.decisions for game in games]),
        "actions": distribution([game.actions for game in games]),
        "scores": distribution([score for game in games for score in game.scores]),
        "winning_score": distribution([max(game.scores) for game in games]),
        "margin": distribution([game.margin for game in games]),
        "seats": seat_table(games, num_players),
        "ties": {
            "top_score_tied": len(tied),
            "decided_by_tie_break": sum(not game.shared for game in tied),
            "shared_victories": sum(game.shared for game in games),
        },
        "kinds": kind_totals(games),
    }


@dataclass(frozen=True)
class Metric:
    """A per-game figure compared between variants: `value(game)` divided by `scale` is the figure itself."""

    name: str
    value: Callable[[GameSummary], int]
    scale: int = 1
    #: `OUTCOMES` or `KINDS`: the family it is corrected with.
    family: str = OUTCOMES
    #: Whether the figure is a rate (shown in percent, its differences in percentage points).
    rate: bool = False


def metrics(num_players: int, kinds: list[str]) -> list[Metric]:
    """The figures a comparison reports: length, scores, margins, ties, each seat's wins and score, each kind."""
    shares = math.lcm(*range(1, num_players + 1))  # a win shared by k seats is shares // k whole units
    found = [
        Metric("decisions", lambda g: g.decisions),
        Metric("actions", lambda g: g.actions),
        Metric("winning score", lambda g: max(g.scores)),
        Metric("margin", lambda g: g.margin),
        Metric("top score tied", lambda g: int(g.top_tied), rate=True),
        Metric("shared victory", lambda g: int(g.shared), rate=True),
    ]
    for seat in range(num_players):
        found.append(Metric(f"seat {seat + 1} win rate", _seat_wins(seat, shares), shares, rate=True))
        found.append(Metric(f"seat {seat + 1} score", _seat_score(seat)))
    found.extend(Metric(f"{kind} per game", _kind_count(kind), family=KINDS) for kind in kinds)
    return found


def _seat_wins(seat: int, shares: int) -> Callable[[GameSummary], int]:
    return lambda game: shares // len(game.winners) if seat in game.winners else 0


def _seat_score(seat: int) -> Callable[[GameSummary], int]:
    return lambda game: game.scores[seat]


def _kind_count(kind: str) -> Callable[[GameSummary], int]:
    return lambda game: game.kinds.get(kind, 0)


def changes(baseline: list[GameSummary], variant: list[GameSummary]) -> dict[str, int]:
    """Of the paired games (the same seed under each variant): how many, how many the variant played differently,
    how many ended with other scores or winners, and how many with other winners."""
    pairs = list(zip(baseline, variant, strict=True))
    return {
        "games": len(pairs),
        "played_differently": sum(b.digest != v.digest for b, v in pairs),
        "results_changed": sum(b.scores != v.scores or b.winners != v.winners for b, v in pairs),
        "winners_changed": sum(b.winners != v.winners for b, v in pairs),
    }


def compare(baseline: list[GameSummary], variant: list[GameSummary], num_players: int) -> list[dict[str, Any]]:
    """Per metric: the variant's mean minus the baseline's over the same seeds, with a 95% paired-bootstrap
    interval, the permutation test's p-value and Holm's adjusted one within the metric's family; `significant`
    when the adjusted p-value is under `LEVEL`."""
    if [game.seed for game in baseline] != [game.seed for game in variant]:
        raise ValueError("compare: the variants were not played on the same seeds")
    kinds = sorted({kind for game in baseline + variant for kind in game.kinds})
    chosen = metrics(num_players, kinds)
    differences = np.array(
        [[metric.value(v) - metric.value(b) for b, v in zip(baseline, variant, strict=True)] for metric in chosen],
        dtype=np.int64,
    )
    low, high = bootstrap(differences)
    p_values = permutation_p_values(differences)
    adjusted = [0.0] * len(chosen)
    for family in (OUTCOMES, KINDS):
        members = [number for number, metric in enumerate(chosen) if metric.family == family]
        for number, value in zip(members, holm([p_values[number] for number in members]), strict=True):
            adjusted[number] = value
    count = len(baseline)
    rows = []
    for number, metric in enumerate(chosen):
        scale = metric.scale * count
        rows.append(
            {
                "metric": metric.name,
                "family": metric.family,
                "rate": metric.rate,
                "baseline": rounded(sum(metric.value(game) for game in baseline) / scale),
                "variant": rounded(sum(metric.value(game) for game in variant) / scale),
                "difference": rounded(int(differences[number].sum()) / scale),
                "low": rounded(low[number] / scale),
                "high": rounded(high[number] / scale),
                "p": rounded(p_values[number]),
                "p_adjusted": rounded(adjusted[number]),
                "significant": adjusted[number] < LEVEL,
            }
        )
    return rows


def permutation_p_values(differences: np.ndarray[Any, np.dtype[np.int64]]) -> list[float]:
    """Each row's two-sided p-value for "the variant changes nothing on average": under that hypothesis each paired
    difference is as likely negated, so the observed sum is compared with `PERMUTATIONS` sums under random sign
    flips (the same flips for every row, from a fixed seed); p = (1 + flips at least as far from 0) / (1 +
    PERMUTATIONS). A row of zeros (no game changed the metric) has p = 1."""
    rows, count = differences.shape
    p_values = [1.0] * rows
    moved = [row for row in range(rows) if differences[row].any()]
    if not moved:
        return p_values
    # Float sums of integers below 2**53 are exact, and let the matrix product use BLAS.
    values = differences[moved].astype(np.float64)
    observed = np.abs(values.sum(axis=1))
    extreme = np.zeros(len(moved), dtype=np.int64)
    rng = np.random.default_rng(PERMUTATION_SEED)
    for start in range(0, PERMUTATIONS, CHUNK):
        size = min(CHUNK, PERMUTATIONS - start)
        signs = rng.integers(0, 2, size=(size, count), dtype=np.int8).astype(np.float64) * 2 - 1
        sums = np.abs(values @ signs.T)
        extreme += (sums >= observed[:, None]).sum(axis=1)
    for index, row in enumerate(moved):
        p_values[row] = (1 + int(extreme[index])) / (1 + PERMUTATIONS)
    return p_values


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of a family's p-values (each compared with `LEVEL` controls the chance of any
    false finding in the family): the k-th smallest times (m - k + 1), never below the one before it, at most 1."""
    order = sorted(range(len(p_values)), key=lambda number: p_values[number])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, number in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[number]))
        adjusted[number] = running
    return adjusted


def bootstrap(differences: np.ndarray[Any, np.dtype[np.int64]]) -> tuple[list[int], list[int]]:
    """The 2.5% and 97.5% order statistics of each row's resampled sum (games drawn with replacement, the same
    draws for every row, from a fixed seed)."""
    rows, count = differences.shape
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    sums = np.empty((rows, RESAMPLES), dtype=np.int64)
    even = np.full(count, 1 / count)
    for start in range(0, RESAMPLES, CHUNK):
        # How many times each game is drawn into each resample; integer weights keep every sum exact.
        weights = rng.multinomial(count, even, size=min(CHUNK, RESAMPLES - start)).astype(np.int64)
        sums[:, start : start + len(weights)] = differences @ weights.T
    sums.sort(axis=1)
    lower = int(0.025 * RESAMPLES)
    upper = math.ceil(0.975 * RESAMPLES) - 1
    return [int(value) for value in sums[:, lower]], [int(value) for value in sums[:, upper]]
