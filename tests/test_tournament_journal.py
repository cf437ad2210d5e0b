"""A tournament's journal: every finished game is kept as it ends, so a stopped or killed run resumes where it
stopped and ends with the results an unbroken run has."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bots_fixture_game
from skald.cli.main import app

runner = CliRunner()
#: The tests folder, which holds `bots_fixture_game`: a `skald` subprocess imports it from there.
TESTS = Path(__file__).resolve().parent
HAUL = bots_fixture_game.GAME.name
SETTINGS = ["--import", "bots_fixture_game", "--bots", "mcts:iters=30,greedy,random", "-p", "3", "--seed", "11"]


def tournament(out: Path, games: int, *extra: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", HAUL, *SETTINGS, "-n", str(games), "-w", "1", "--out", str(out), *extra])
    return result.exit_code, result.output


def outcomes(out: Path) -> list[dict[str, object]]:
    return json.loads((out / "tournament.json").read_text())["results"]


def journal_lines(out: Path) -> list[str]:
    return (out / "games.jsonl").read_text().splitlines()


def deterministic(line: str) -> dict[str, object]:
    """A journalled game without its wall times."""
    return {k: v for k, v in json.loads(line).items() if k not in ("move_seconds", "max_move_seconds")}


def test_a_resumed_tournament_ends_with_the_results_of_an_unbroken_one(tmp_path: Path) -> None:
    code, output = tournament(tmp_path / "whole", 9)
    assert code == 0, output
    code, output = tournament(tmp_path / "parts", 4)
    assert code == 0, output
    assert len(journal_lines(tmp_path / "parts")) == 1 + 4
    code, output = tournament(tmp_path / "parts", 9, "--resume")
    assert code == 0, output
    assert "Resuming: 4 of 9 games were finished earlier." in output
    assert outcomes(tmp_path / "parts") == outcomes(tmp_path / "whole")
    assert len(journal_lines(tmp_path / "parts")) == 1 + 9


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["killed", "ctrl-c"])
def test_a_stopped_tournament_keeps_its_finished_games_and_resumes_from_them(tmp_path: Path, stop: int) -> None:
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    code, output = tournament(whole, 30)
    assert code == 0, output
    command = [sys.executable, "-m", "skald.cli.main", "tournament", HAUL, *SETTINGS, "-n", "30", "-w", "2"]
    with subprocess.Popen(
        [*command, "--out", str(killed)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        deadline = time.monotonic() + 120
        while not (killed / "games.jsonl").exists() or len(journal_lines(killed)) < 1 + 3:
            assert process.poll() is None and time.monotonic() < deadline, "the run ended before it could be stopped"
            time.sleep(0.02)
        os.killpg(process.pid, stop)  # to the run and its workers, as a terminal's Ctrl-C or a killed session does
        _, stderr = process.communicate(timeout=60)
    kept = len(journal_lines(killed)) - 1
    if stop == signal.SIGINT:
        assert process.returncode == 130
        assert f"after {kept} of 30 games; they are kept in {killed / 'games.jsonl'}" in " ".join(stderr.split())
    assert 3 <= kept < 30
    assert not (killed / "tournament.json").exists()
    code, output = tournament(killed, 30, "--resume")
    assert code == 0, output
    assert f"Resuming: {kept} of 30 games were finished earlier." in output
    assert outcomes(killed) == outcomes(whole)


def test_a_torn_last_line_is_dropped_and_that_game_played_again(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = tournament(out, 3)
    assert code == 0, output
    lines = journal_lines(out)
    (out / "games.jsonl").write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:25])
    code, output = tournament(out, 3, "--resume")
    assert code == 0, output
    assert "Resuming: 2 of 3 games were finished earlier." in output
    assert journal_lines(out)[:3] == lines[:3]
    assert deterministic(journal_lines(out)[3]) == deterministic(lines[3])


def test_resuming_another_tournaments_journal_is_refused_and_leaves_it_untouched(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = tournament(out, 2)
    assert code == 0, output
    before = (out / "games.jsonl").read_bytes()
    result = runner.invoke(
        app, ["tournament", HAUL, *SETTINGS[:-1], "12", "-n", "4", "-w", "1", "--out", str(out), "--resume"]
    )
    assert result.exit_code == 2
    assert "played with seed 11, not 12" in " ".join(result.output.split())
    assert (out / "games.jsonl").read_bytes() == before


def test_a_damaged_journal_line_is_named_with_its_field(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = tournament(out, 2)
    assert code == 0, output
    lines = journal_lines(out)
    row = json.loads(lines[2])
    row["scores"] = ["ten", 3, 4]
    (out / "games.jsonl").write_text("\n".join([*lines[:2], json.dumps(row)]) + "\n")
    code, output = tournament(out, 2, "--resume")
    assert code == 2
    assert "line 3: field 'scores' must be a list of int" in " ".join(output.split())


def test_without_resume_a_new_run_starts_a_new_journal(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert tournament(out, 3)[0] == 0
    code, output = tournament(out, 2)
    assert code == 0, output
    assert "Resuming" not in output
    assert len(journal_lines(out)) == 1 + 2
    assert len(outcomes(out)) == 2


def test_resuming_with_fewer_games_counts_those_and_keeps_the_rest_in_the_journal(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert tournament(out, 6)[0] == 0
    code, output = tournament(out, 4, "--resume")
    assert code == 0, output
    assert "Resuming: 4 of 4 games were finished earlier." in output
    assert len(outcomes(out)) == 4
    assert len(journal_lines(out)) == 1 + 6


def test_a_stopped_run_is_not_replaced_by_a_new_run_that_forgot_resume(tmp_path: Path) -> None:
    """Hours of games are not lost to a forgotten --resume: the journal of the same tournament stopped before its
    end is refused to a new run, untouched, with what to do."""
    out = tmp_path / "run"
    assert tournament(out, 4)[0] == 0
    lines = journal_lines(out)
    (out / "games.jsonl").write_text("\n".join(lines[:3]) + "\n")  # stopped after 2 of 4 games
    before = (out / "games.jsonl").read_bytes()
    code, output = tournament(out, 4)
    assert code == 2
    assert "holds 2 of 4 games of this same tournament, stopped before its end: add --resume" in " ".join(
        output.split()
    )
    assert (out / "games.jsonl").read_bytes() == before
    code, output = tournament(out, 4, "--resume")
    assert code == 0 and "Resuming: 2 of 4 games were finished earlier." in output
