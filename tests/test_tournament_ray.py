"""The Ray backend: the same tournament on a local Ray instance gives the same results as the process pool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bots_fixture_game
from skald.cli.main import app

pytest.importorskip("ray", reason="the ray backend test needs skald[ray] (installed by skald[test])")


def test_a_tournament_on_local_ray_matches_the_process_pool(tmp_path: Path) -> None:
    runner = CliRunner()
    common = ["tournament", bots_fixture_game.GAME.name, "--import", "bots_fixture_game"]
    common += ["--bots", "mcts:iters=20,greedy,random", "-p", "3", "-n", "9", "--seed", "3", "-w", "2"]
    local = runner.invoke(app, [*common, "--out", str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    on_ray = runner.invoke(app, [*common, "--backend", "ray", "--out", str(tmp_path / "ray")])
    assert on_ray.exit_code == 0, on_ray.output

    def outcome(run: str) -> dict[str, object]:
        data = json.loads((tmp_path / run / "tournament.json").read_text())
        assert data["backend"] == run
        return {k: v for k, v in data.items() if k not in ("timing", "backend", "workers")}

    assert outcome("ray") == outcome("local")
    assert (tmp_path / "ray" / "tournament.png").exists()
