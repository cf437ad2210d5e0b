"""A tournament's results on disk: a write that fails part-way leaves the earlier results whole."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import bots_fixture_game

TESTS = Path(__file__).parent


def tournament(out: Path, games: int, file_size_limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """`skald tournament` of the fixture game into `out`, in a process whose files may not grow past the limit."""

    def limit_file_size() -> None:  # a write past the limit fails with EFBIG (Python ignores SIGXFSZ)
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, resource.RLIM_INFINITY))

    args = ["tournament", bots_fixture_game.GAME.name, "--import", "bots_fixture_game", "--bots", "greedy,random"]
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", *args, "-n", str(games), "-w", "1", "--out", str(out)],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit_file_size,
    )


def results(out: Path) -> dict[str, bytes]:
    """The result files in `out` (the journal, which the run in progress writes, aside)."""
    return {path.name: path.read_bytes() for path in out.iterdir() if path.name != "games.jsonl"}


def test_results_that_fail_to_write_part_way_leave_the_earlier_results_whole(tmp_path: Path) -> None:
    """A full disk is simulated by a file-size limit that the new tournament.json, written first, outgrows."""
    out = tmp_path / "results"
    assert tournament(out, games=2).returncode == 0
    earlier = results(out)
    assert sorted(earlier) == ["bots.csv", "games.csv", "tournament.json", "tournament.png"]

    # The limit lets the journal of 60 games grow (it is written as they end) but not their tournament.json.
    measured = tournament(tmp_path / "measure", games=60)
    assert measured.returncode == 0
    journal_size = (tmp_path / "measure" / "games.jsonl").stat().st_size
    assert journal_size + 1000 < (tmp_path / "measure" / "tournament.json").stat().st_size
    failed = tournament(out, games=60, file_size_limit=journal_size + 1000)
    assert failed.returncode == 1
    assert failed.stderr.strip() == f"error: --out {out}: cannot write the results: File too large"
    assert results(out) == earlier, "no file half-written or left over"


def test_a_journal_that_cannot_grow_stops_the_run_with_the_earlier_results_whole(tmp_path: Path) -> None:
    out = tmp_path / "results"
    assert tournament(out, games=2).returncode == 0
    earlier = results(out)
    journal = (out / "games.jsonl").stat().st_size

    failed = tournament(out, games=60, file_size_limit=journal + 1000)
    assert failed.returncode == 1
    assert failed.stderr.strip() == f"error: --out {out}: cannot write the journal: File too large"
    assert results(out) == earlier
