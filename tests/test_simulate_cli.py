"""`skald simulate`: the same seeds give the same figures on any number of workers; JSON, CSV, bots and charts."""

from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from skald.cli.main import app
from skald.engine import get_game, play_random_game

runner = CliRunner()


def skald(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real `skald` command in a new process."""
    return subprocess.run([sys.executable, "-m", "skald.cli.main", *args], capture_output=True, text=True, timeout=300)


def simulated(*args: str) -> dict[str, Any]:
    """The --json document of `skald simulate ARGS` run in this process."""
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_the_json_is_identical_for_one_worker_and_a_process_pool_of_two():
    flags = ["simulate", "vikings", "-p", "3", "-n", "40", "--seed", "5", "--compare", "ship_row=zman,touching"]
    alone = skald(*flags, "--workers", "1", "--json")
    pooled = skald(*flags, "--workers", "2", "--json")
    assert alone.returncode == 0 and pooled.returncode == 0, alone.stderr + pooled.stderr
    assert alone.stdout == pooled.stdout
    data = json.loads(alone.stdout)
    assert [variant["games"] for variant in data["variants"]] == [40, 40]
    assert data["seeds"] == [5, 44] and "comparison" in data
    # The person still sees the tables, on stderr, with the workers named.
    assert "40 random games of Vikings, 3 players" in pooled.stderr and "2 workers" in pooled.stderr


def test_game_i_of_a_run_is_the_single_game_seeded_seed_plus_i():
    """`game i uses seed + i`: any game of a run can be replayed alone."""
    run = simulated("vikings", "-p", "2", "-n", "6", "--seed", "10", "-w", "1")
    alone = simulated("vikings", "-p", "2", "-n", "1", "--seed", "14", "-w", "1")
    fifth = run["variants"][0]["results"][4]
    assert fifth["seed"] == 14 and {**fifth, "index": 0} == alone["variants"][0]["results"][0]


def test_random_play_is_the_game_play_random_game_plays_for_the_seed():
    data = simulated("vikingdoms", "-n", "3", "--seed", "7", "-w", "1")
    for row in data["variants"][0]["results"]:
        state = play_random_game(get_game("vikingdoms").new_initial_state(2), random.Random(row["seed"]))
        assert row["scores"] == state.scores() and row["winners"] == sorted(state.winners())
        assert row["actions"] == len(state.history)


def test_the_figures_add_up_over_the_games():
    data = simulated("vikings", "-p", "4", "-n", "30", "-w", "1")
    variant = data["variants"][0]
    games = variant["results"]
    assert variant["decisions"]["mean"] == round(sum(g["decisions"] for g in games) / 30, 6)
    assert sum(variant["decisions"]["histogram"]["counts"]) == 30
    assert sum(kind["count"] for kind in variant["kinds"].values()) == sum(g["decisions"] for g in games)
    assert variant["decisions"]["min"] <= variant["decisions"]["quantiles"]["50"] <= variant["decisions"]["max"]
    seats = variant["seats"]
    assert round(sum(seat["wins"] for seat in seats), 6) == 30
    for seat in seats:
        assert seat["win_low"] <= seat["win_rate"] <= seat["win_high"]
        assert seat["advantage"] == round(seat["win_rate"] - 0.25, 6)
    margins = [sorted(g["scores"])[-1] - sorted(g["scores"])[-2] for g in games]
    assert variant["margin"]["max"] == max(margins)


def test_csv_has_one_row_per_game_and_variant_with_each_kind_of_action_counted():
    result = runner.invoke(app, ["simulate", "vikings", "-p", "2", "-n", "5", "-w", "1", "--csv"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [row["game"] for row in rows] == ["0", "1", "2", "3", "4"]
    for row in rows:
        kinds = sum(int(value) for key, value in row.items() if key.startswith("kind_"))
        assert kinds == int(row["decisions"]) and int(row["kind_buy"]) > 0
        assert int(row["actions"]) > int(row["decisions"])  # chance draws the tiles and Vikings


def test_bots_play_every_seat_or_a_line_up_and_greedy_beats_random():
    data = simulated("vikings", "-p", "2", "-n", "6", "--bots", "greedy,random", "-w", "1")
    assert data["play"] == ["greedy", "random"]
    seats = data["variants"][0]["seats"]
    assert seats[0]["win_rate"] > seats[1]["win_rate"]
    everyone = simulated("vikings", "-p", "3", "-n", "2", "--bots", "greedy", "-w", "1")
    assert everyone["play"] == ["greedy", "greedy", "greedy"]


def test_plot_writes_a_png_with_or_without_a_comparison(tmp_path: Path):
    for name, flags in (("summary.png", []), ("compare.png", ["--compare", "fame_floor=none,zero"])):
        path = tmp_path / name
        result = runner.invoke(
            app, ["simulate", "vikings", "-p", "2", "-n", "8", "-w", "1", "--plot", str(path), *flags]
        )
        assert result.exit_code == 0, result.stderr
        assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_the_players_help_reads_without_a_stray_space():
    result = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"})
    assert "Seats at the table (the most the game allows if not given)." in result.stdout
    assert " ." not in result.stdout


def test_a_comparisons_plot_is_one_screen_of_the_games_outcomes_however_many_kinds_of_action(tmp_path: Path):
    import struct

    path = tmp_path / "compare.png"
    result = runner.invoke(
        app,
        [
            "simulate",
            "vikings",
            "-p",
            "4",
            "-n",
            "8",
            "-w",
            "1",
            "--plot",
            str(path),
            "--compare",
            "ship_row=zman,touching",
        ],
    )
    assert result.exit_code == 0, result.stderr
    width, height = struct.unpack(">II", path.read_bytes()[16:24])  # the PNG header's IHDR
    assert width <= 1400 and height <= 800
