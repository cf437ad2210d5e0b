"""A run's training curve: the model as it stood at moments of its training, each played against a fixed opponent.

A point is taken before the first round (the untrained network) and then each time the run's training time passes
another `every` seconds. The model of that moment is kept in `snapshots/` (so any point can be played again), its
games are a tournament (`skald.sim.tournament`) of `learned:SNAPSHOT` against the opponent, seats rotating, and
the point with its 95% Wilson interval is a line of `curve.jsonl`; `curve.svg` is drawn again after each point.
Time spent on the curve's games is not training time: it counts against the run's budget, not on the curve's axis.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from skald.sim.match import derive_seed
from skald.sim.tournament import TournamentConfig, run_tournament

CURVE_NAME = "curve.jsonl"
PLOT_NAME = "curve.svg"
SNAPSHOTS = "snapshots"


@dataclass(frozen=True)
class CurveSettings:
    """When the curve's points are taken and what they play: every `every` seconds of training (0: no curve),
    `games` games against `opponent` (a bot spec)."""

    every: float = 0.0
    games: int = 20
    opponent: str = "mcts:normal"


@dataclass(frozen=True)
class CurvePoint:
    """One point: the model after `seconds` of training (`rounds` rounds), its share of `games` games won against
    `opponent` (a shared win counted as a share) and the 95% interval of that share."""

    seconds: float
    rounds: int
    snapshot: str
    opponent: str
    games: int
    wins: float
    share: float
    low: float
    high: float
    move_seconds: float


def read_points(out: Path) -> list[CurvePoint]:
    """The points a run has taken so far (none for a run without a curve)."""
    path = out / CURVE_NAME
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [CurvePoint(**json.loads(line)) for line in lines if line.strip()]


def due(settings: CurveSettings, points: list[CurvePoint], seconds: float, rounds: int) -> bool:
    """Whether a point is due after `seconds` of training in `rounds` rounds: the first before any training, then
    one each time another `every` seconds have passed since the start, never two of the same model."""
    if settings.every <= 0 or (points and points[-1].rounds == rounds):
        return False
    return len(points) <= seconds // settings.every


def measure(
    settings: CurveSettings,
    game: str,
    players: int,
    options: dict[str, Any],
    snapshot: Path,
    seconds: float,
    rounds: int,
    seed: int,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
) -> CurvePoint:
    """Play the model in `snapshot` against the opponent and return the point it makes."""
    learned = f"learned:{snapshot}"
    config = TournamentConfig(
        game=game,
        bots=(learned, settings.opponent),
        num_players=players,
        games=settings.games,
        seed=derive_seed(seed, "curve", rounds),
        options=tuple(sorted(options.items())),
    )
    result = run_tournament(config, backend, workers, address)
    entrant = next(entrant for entrant in result.entrants if entrant.spec == learned)
    return CurvePoint(
        seconds=round(seconds, 3),
        rounds=rounds,
        snapshot=f"{SNAPSHOTS}/{snapshot.name}",
        opponent=settings.opponent,
        games=entrant.games,
        wins=entrant.wins,
        share=round(entrant.win_rate, 4),
        low=round(entrant.win_low, 4),
        high=round(entrant.win_high, 4),
        move_seconds=round(entrant.mean_move_seconds, 4),
    )


def record(out: Path, point: CurvePoint, points: list[CurvePoint], title: str) -> None:
    """Add `point` to the run's `curve.jsonl` and draw `curve.svg` again with every point so far."""
    with (out / CURVE_NAME).open("a", encoding="utf-8") as log:
        log.write(json.dumps(asdict(point)) + "\n")
    draw([*points, point], out / PLOT_NAME, title)


def draw(points: list[CurvePoint], path: Path, title: str) -> None:
    """The curve as an SVG: the share of games won by training hour, each with its 95% interval."""
    from matplotlib.figure import Figure  # imported when drawn: it takes a quarter of a second to load

    figure = Figure(figsize=(6.4, 4.0))
    axes = figure.add_subplot()
    hours = [point.seconds / 3600 for point in points]
    shares = [point.share for point in points]
    below = [point.share - point.low for point in points]
    above = [point.high - point.share for point in points]
    axes.errorbar(hours, shares, yerr=[below, above], marker="o", capsize=3)
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    axes.set_ylim(0, 1)
    axes.set_xlabel("training hours")
    opponents = sorted({point.opponent for point in points})
    axes.set_ylabel(f"share of games won against {', '.join(opponents)}")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    temporary = path.with_name(path.name + ".part")
    figure.savefig(temporary, format="svg")
    os.replace(temporary, path)
