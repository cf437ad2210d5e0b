"""Writing a tournament's results: JSON for programs, CSV for spreadsheets, a PNG chart for people."""

from __future__ import annotations

import csv
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from skald.sim.tournament import TournamentResult

JSON_NAME = "tournament.json"
BOTS_CSV = "bots.csv"
GAMES_CSV = "games.csv"
CHART_NAME = "tournament.png"


def to_dict(result: TournamentResult) -> dict[str, Any]:
    """The whole result as JSON-ready data; `timing` holds the only wall-clock (run-dependent) figures."""
    config = result.config
    return {
        "game": config.game,
        "players": config.num_players,
        "games": config.games,
        "seed": config.seed,
        "bots": list(config.bots),
        "options": dict(config.options),
        "backend": result.backend,
        "workers": result.workers,
        "entrants": [
            {k: v for k, v in entry.row().items() if k not in ("mean_move_seconds", "max_move_seconds")}
            | {"scores": entry.scores}
            for entry in result.entrants
        ],
        "seats": [asdict(seat) for seat in result.seats],
        "results": [game.outcome() for game in result.games],
        "timing": {
            entry.name: {
                "mean_move_seconds": entry.mean_move_seconds,
                "max_move_seconds": entry.max_move_seconds,
            }
            for entry in result.entrants
        },
    }


def write_json(result: TournamentResult, path: Path) -> None:
    """Write the result as indented JSON."""
    path.write_text(json.dumps(to_dict(result), indent=1) + "\n", encoding="utf-8")


def write_csv(result: TournamentResult, bots_path: Path, games_path: Path) -> None:
    """Write one row per entrant and one row per game and seat."""
    rows = [entry.row() for entry in result.entrants]
    with bots_path.open("w", newline="", encoding="utf-8") as handle:
        summary = csv.DictWriter(handle, fieldnames=list(rows[0]))
        summary.writeheader()
        summary.writerows(rows)
    with games_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["game", "seed", "seat", "entrant", "score", "rank", "return", "plies"])
        for game in result.games:
            for seat, name in enumerate(game.entrants):
                writer.writerow(
                    [
                        game.index,
                        game.seed,
                        seat,
                        name,
                        game.scores[seat],
                        game.ranks[seat],
                        game.returns[seat],
                        game.plies,
                    ]
                )


def write_chart(result: TournamentResult, path: Path) -> None:
    """A PNG: win rates with their 95% intervals beside the distribution of final scores, per entrant."""
    entrants = result.entrants
    names = [entry.name for entry in entrants]
    positions = list(range(len(entrants)))
    figure = Figure(figsize=(max(8.0, 2.2 * len(entrants) + 4), 4.5), dpi=100)
    wins, scores = figure.subplots(1, 2)
    rates = [entry.win_rate for entry in entrants]
    errors = [
        [max(0.0, entry.win_rate - entry.win_low) for entry in entrants],
        [max(0.0, entry.win_high - entry.win_rate) for entry in entrants],
    ]
    wins.bar(positions, rates, yerr=errors, capsize=6, color="#4c72b0")
    wins.axhline(1 / result.config.num_players, color="grey", linestyle="--", linewidth=1, label="fair share")
    wins.set_xticks(positions, names, rotation=20, ha="right")
    wins.set_ylim(0, 1)
    wins.set_ylabel("win rate (95% Wilson interval)")
    wins.set_title("Win rate")
    wins.legend(loc="upper right")
    scores.boxplot([entry.scores for entry in entrants], positions=positions)
    scores.set_xticks(positions, names, rotation=20, ha="right")
    scores.set_ylabel("final score")
    scores.set_title("Final scores")
    config = result.config
    figure.suptitle(f"{config.game}, {config.num_players} players, {config.games} games, seed {config.seed}")
    figure.tight_layout()
    figure.savefig(path, format="png")


def write_all(result: TournamentResult, out: Path) -> dict[str, Path]:
    """Write the JSON, both CSVs and the chart into `out` (created if missing); returns the paths by kind."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out / JSON_NAME,
        "bots_csv": out / BOTS_CSV,
        "games_csv": out / GAMES_CSV,
        "chart": out / CHART_NAME,
    }
    write_json(result, paths["json"])
    write_csv(result, paths["bots_csv"], paths["games_csv"])
    write_chart(result, paths["chart"])
    return paths
