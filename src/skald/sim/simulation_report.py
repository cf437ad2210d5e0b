"""A simulation's results as JSON for notebooks, CSV for spreadsheets and a PNG for people.

Nothing here depends on the backend, the number of workers or the clock: the same run gives the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from skald.engine import get_game
from skald.sim.metrics import (
    BOOTSTRAP_SEED,
    LEVEL,
    OUTCOMES,
    PERMUTATION_SEED,
    PERMUTATIONS,
    RESAMPLES,
    changes,
    compare,
    summarise,
)
from skald.sim.simulation import GameSummary, Simulation

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMAT = "skald-simulation"
VERSION = 1


def to_dict(simulation: Simulation, played: list[list[GameSummary]]) -> dict[str, Any]:
    """The whole run as JSON-ready data: settings, each variant's figures and games, and the comparison."""
    game = get_game(simulation.game)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": simulation.game,
        "players": simulation.num_players,
        "games": simulation.games,
        "seed": simulation.seed,
        "seeds": [simulation.seed, simulation.seed + simulation.games - 1],
        "play": list(simulation.seat_bots()) or "random",
        "variants": [
            {
                "label": variant.label,
                "options": game.resolve_options(dict(variant.options)),
                **summarise(games, simulation.num_players),
                "results": [summary.row() for summary in games],
            }
            for variant, games in zip(simulation.variants, played, strict=True)
        ],
    }
    if len(played) > 1:
        data["comparison"] = {
            "baseline": simulation.variants[0].label,
            "method": f"paired bootstrap over the same seeds, {RESAMPLES} resamples, seed {BOOTSTRAP_SEED}, 95%",
            "test": f"paired sign-flip permutation test, {PERMUTATIONS} flips, seed {PERMUTATION_SEED}, two-sided",
            "correction": f"Holm within the outcomes and within the action kinds; significant: adjusted p < {LEVEL}",
            "variants": [
                {
                    "label": variant.label,
                    "changed": changes(played[0], games),
                    "metrics": compare(played[0], games, simulation.num_players),
                }
                for variant, games in zip(simulation.variants[1:], played[1:], strict=True)
            ],
        }
    return data


def json_text(data: dict[str, Any]) -> str:
    """The run as indented JSON."""
    return json.dumps(data, indent=1) + "\n"


def csv_text(simulation: Simulation, played: list[list[GameSummary]]) -> str:
    """One row per game and variant: length, scores, winners, ties and the count of each kind of action."""
    kinds = sorted({kind for games in played for game in games for kind in game.kinds})
    seats = range(1, simulation.num_players + 1)
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(
        [
            *("variant", "game", "seed", "decisions", "actions"),
            *(f"score_{seat}" for seat in seats),
            *("winners", "margin", "top_score_tied", "shared_victory"),
            *(f"kind_{kind}" for kind in kinds),
        ]
    )
    for variant, games in zip(simulation.variants, played, strict=True):
        for game in games:
            writer.writerow(
                [
                    *(variant.label, game.index, game.seed, game.decisions, game.actions, *game.scores),
                    " ".join(str(seat + 1) for seat in game.winners),
                    *(game.margin, int(game.top_tied), int(game.shared)),
                    *(game.kinds.get(kind, 0) for kind in kinds),
                ]
            )
    return text.getvalue()


def plot_png(data: dict[str, Any]) -> bytes:
    """A PNG: with variants compared, the game's outcomes in three panels (each variant's difference from the
    baseline with its 95% interval, significant ones in red); otherwise the length, margin, seat and action-kind
    figures."""
    first, last = data["seeds"]
    title = f"{data['game']}, {data['players']} players, {data['games']} games, seeds {first}–{last}"
    if "comparison" in data:
        figure = _comparison_figure(data["comparison"])
    else:
        figure = _summary_figure(data["variants"][0], data["players"])
    figure.suptitle(title)
    figure.tight_layout(rect=(0.0, 0.02, 1.0, 0.97))  # room for the title above and the key below
    image = io.BytesIO()
    figure.savefig(image, format="png")
    return image.getvalue()


#: The comparison plot's panels: the outcomes of a game, each in its own unit.
PANELS = (
    ("length", "difference in actions or decisions a game"),
    ("score", "difference in points of score"),
    ("rate", "difference in percentage points"),
)


def _panel(row: dict[str, Any]) -> str:
    """Which panel an outcome's row is drawn in."""
    if row["rate"]:
        return "rate"
    return "length" if row["metric"] in ("decisions", "actions") else "score"


def _comparison_figure(comparison: dict[str, Any]) -> Figure:
    """One screen: the game's outcomes only (length; scores and margin; win rates and ties in points), each
    variant's difference from the baseline with its 95% interval, red where significant after correction."""
    from matplotlib.figure import Figure  # imported when drawn: it takes a quarter of a second to load

    entries = comparison["variants"]
    outcomes = [row for row in entries[0]["metrics"] if row["family"] == OUTCOMES]
    figure = Figure(figsize=(13.0, 6.5), dpi=100)
    axes = figure.subplots(1, len(PANELS), gridspec_kw={"width_ratios": [2, 4, 5]})
    for panel, (name, label) in zip(axes, PANELS, strict=True):
        names = [row["metric"] for row in outcomes if _panel(row) == name]
        spread = 0.6 / max(1, len(entries))
        for position, entry in enumerate(entries):
            rows = {row["metric"]: row for row in entry["metrics"]}
            for place, metric in enumerate(names):
                row = rows[metric]
                unit = 100.0 if row["rate"] else 1.0
                centre = unit * row["difference"]
                errors = [[centre - unit * row["low"]], [unit * row["high"] - centre]]
                colour = "#c0392b" if row["significant"] else "#4c72b0"
                marker = "osD^v"[position % 5]
                y = place + (position - (len(entries) - 1) / 2) * spread
                panel.errorbar([centre], [y], xerr=errors, fmt=marker, color=colour, capsize=3, markersize=4)
        panel.axvline(0, color="grey", linewidth=1, linestyle="--")
        panel.set_yticks(range(len(names)), names, fontsize=8)
        panel.set_ylim(len(names) - 0.5, -0.5)
        panel.set_xlabel(label, fontsize=8)
    markers = ", ".join(f"{'osD^v'[n % 5]} {entry['label']}" for n, entry in enumerate(entries))
    figure.text(
        0.01,
        0.005,
        f"difference from {comparison['baseline']} with its 95% interval; red: significant after Holm's correction. "
        f"{markers}",
        fontsize=8,
    )
    return figure


def _summary_figure(variant: dict[str, Any], players: int) -> Figure:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12.0, 7.5), dpi=100)
    (length, margin), (seats, kinds) = figure.subplots(2, 2)
    for panel, key, label in ((length, "decisions", "decisions a game"), (margin, "margin", "first minus second")):
        histogram = variant[key]["histogram"]
        edges = histogram["edges"]
        panel.bar(
            edges[:-1], histogram["counts"], width=[b - a for a, b in pairwise(edges)], align="edge", color="#4c72b0"
        )
        panel.set_xlabel(label)
        panel.set_ylabel("games")
        panel.set_title(f"{key}: mean {variant[key]['mean']:.1f}")
    rows = variant["seats"]
    rates = [row["win_rate"] for row in rows]
    errors = [[row["win_rate"] - row["win_low"] for row in rows], [row["win_high"] - row["win_rate"] for row in rows]]
    seats.bar([str(row["seat"]) for row in rows], rates, yerr=errors, capsize=6, color="#4c72b0")
    seats.axhline(1 / players, color="grey", linestyle="--", linewidth=1, label="fair share")
    seats.set_xlabel("seat")
    seats.set_ylabel("win rate (95% Wilson interval)")
    seats.set_title("Win rate by seat")
    seats.legend(loc="lower right")
    names = list(variant["kinds"])
    kinds.barh(names, [variant["kinds"][name]["per_game"] for name in names], color="#4c72b0")
    kinds.invert_yaxis()
    kinds.set_xlabel("chosen per game")
    kinds.set_title("Action kinds")
    return figure
