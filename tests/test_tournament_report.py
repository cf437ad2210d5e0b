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


def test_results_that_fail_to_write_part_way_leave_the_earlier_results_whole(tmp_path: Path) -> None:
    """A full disk is simulated by a file-size limit that the new tournament.json, written first, outgrows."""
    out = tmp_path / "results"
    assert tournament(out, games=2).returncode == 0
    earlier = {path.name: path.read_bytes() for path in out.iterdir()}
    assert sorted(earlier) == ["bots.csv", "games.csv", "tournament.json", "tournament.png"]

    failed = tournament(out, games=60, file_size_limit=len(earlier["tournament.json"]) + 1000)
    assert failed.returncode == 1
    assert failed.stderr.strip() == f"error: --out {out}: cannot write the results: File too large"
    assert {path.name: path.read_bytes() for path in out.iterdir()} == earlier, "no file half-written or left over"
