"""`skald tournament` through the real command line: tables printed, JSON, CSV and PNG written."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import bots_fixture_game
from proof_game import subprocess_env
from skald.cli.main import app

runner = CliRunner()


def test_a_small_vikings_tournament_writes_json_csv_and_png(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["tournament", "vikings", "--bots", "mcts:iters=10,greedy,random", "--players", "3"]
    result = runner.invoke(app, [*args, "--games", "3", "--seed", "7", "--workers", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "Seats" in result.output
    data = json.loads((out / "tournament.json").read_text())
    assert data["game"] == "vikings" and data["players"] == 3 and len(data["results"]) == 3
    assert [e["name"] for e in data["entrants"]] == ["mcts:iters=10", "greedy", "random"]
    with (out / "bots.csv").open() as handle:
        assert [row["name"] for row in csv.DictReader(handle)] == ["mcts:iters=10", "greedy", "random"]
    with (out / "games.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == 3 * 3
    assert (out / "tournament.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_game_registered_by_an_imported_module_can_be_played(tmp_path: Path) -> None:
    args = ["tournament", bots_fixture_game.GAME.name, "--import", "bots_fixture_game", "--bots", "greedy"]
    result = runner.invoke(app, [*args, "-p", "4", "-n", "4", "-w", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    names = [e["name"] for e in json.loads((tmp_path / "tournament.json").read_text())["entrants"]]
    assert names == ["greedy", "greedy#2", "greedy#3", "greedy#4"]


def test_a_bad_bot_spec_is_refused_before_any_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "vikings", "--bots", "greedy,mcts:wild", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "mcts:wild" in result.output
    assert not (tmp_path / "tournament.json").exists()


def test_too_many_players_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "vikings", "--players", "5", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "5" in result.output


def test_a_hidden_information_game_plays_in_tournament_and_simulate_subprocesses(tmp_path: Path) -> None:
    # The proof game reaches a `skald` subprocess through SKALD_GAMES, as a game not installed would.
    skald = [sys.executable, "-m", "skald.cli.main"]
    flags = ["--bots", "mcts:iters=20,greedy,random", "-p", "3", "-n", "6", "-w", "2", "--out", str(tmp_path)]
    tournament = [*skald, "tournament", "proof", *flags]
    done = subprocess.run(tournament, env=subprocess_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["game"] == "proof" and len(data["results"]) == 6
    simulate = [*skald, "simulate", "proof", "-p", "4", "-n", "20", "--show"]
    done = subprocess.run(simulate, env=subprocess_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "20 random games of Proof, 4 players" in done.stdout and "Final Points" in done.stdout
