"""Writing a tournament's results: JSON for programs, CSV for spreadsheets, a PNG chart for people."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from skald.engine.record import write_file_atomically
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


def json_text(result: TournamentResult) -> str:
    """The result as indented JSON."""
    return json.dumps(to_dict(result), indent=1) + "\n"


def bots_csv(result: TournamentResult) -> str:
    """One CSV row per entrant."""
    rows = [entry.row() for entry in result.entrants]
    text = io.StringIO(newline="")
    summary = csv.DictWriter(text, fieldnames=list(rows[0]))
    summary.writeheader()
    summary.writerows(rows)
    return text.getvalue()


def games_csv(result: TournamentResult) -> str:
    """One CSV row per game and seat."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
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
    return text.getvalue()


def chart_png(result: TournamentResult) -> bytes:
    """A PNG: win rates with their 95% intervals beside the distribution of final scores, per entrant."""
    from matplotlib.figure import Figure  # imported when drawn: it takes a quarter of a second to load

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
    image = io.BytesIO()
    figure.savefig(image, format="png")
    return image.getvalue()


def write_all(result: TournamentResult, out: Path) -> dict[str, Path]:
    """Write the JSON, both CSVs and the chart into `out` (created if missing); returns the paths by kind.

    Everything is made before anything is written, and each file is replaced whole or not at all: a write that
    fails (a full disk) leaves that file and those after it as an earlier run left them."""
    contents: dict[str, tuple[Path, str | bytes]] = {
        "json": (out / JSON_NAME, json_text(result)),
        "bots_csv": (out / BOTS_CSV, bots_csv(result)),
        "games_csv": (out / GAMES_CSV, games_csv(result)),
        "chart": (out / CHART_NAME, chart_png(result)),
    }
    out.mkdir(parents=True, exist_ok=True)
    for path, content in contents.values():
        write_file_atomically(path, content)
    return {kind: path for kind, (path, _) in contents.items()}
