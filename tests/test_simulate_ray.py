"""`skald simulate --backend ray`: a local Ray instance gives the very JSON of the process pool."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from skald.cli.main import app

pytest.importorskip("ray", reason="the ray backend test needs skald[ray] (installed by skald[test])")


def test_a_simulation_on_local_ray_gives_the_json_of_the_process_pool() -> None:
    runner = CliRunner()
    common = ["simulate", "vikings", "-p", "2", "-n", "24", "--seed", "3", "-w", "2", "--json"]
    common += ["--compare", "ship_row=zman,touching"]
    pooled = runner.invoke(app, common)
    assert pooled.exit_code == 0, pooled.stderr
    on_ray = runner.invoke(app, [*common, "--backend", "ray"])
    assert on_ray.exit_code == 0, on_ray.stderr
    assert on_ray.stdout == pooled.stdout
    assert "on ray" in on_ray.stderr or "ray, 2 workers" in on_ray.stderr
