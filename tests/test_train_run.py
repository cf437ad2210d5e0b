"""`skald train`: a whole run from the command line, its model, its checkpoints and --resume (needs PyTorch).

Without PyTorch (the `train` extra) these tests skip, except where `SKALD_REQUIRE_TORCH` is set, as CI's training
stage sets it: there they fail instead.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from skald.bots import make_bot
from skald.bots.model import read_model
from skald.cli.main import app
from skald.engine import CHANCE, TERMINAL, get_game, sample_chance

if os.environ.get("SKALD_REQUIRE_TORCH"):
    import torch
else:
    torch = pytest.importorskip("torch", reason="skald train needs PyTorch: pip install 'skald[train]'")

runner = CliRunner()

#: A run small enough for a test: one worker, tiny games of search, a tiny network.
SMALL = ["--games", "2", "--iterations", "4", "--hidden", "16", "--workers", "1", "--batch", "32"]


def _train(out: Path, *extra: str) -> str:
    result = runner.invoke(app, ["train", "vikingdoms", "--minutes", "0", "--out", str(out), *SMALL, *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_run_writes_a_model_that_the_learned_bot_plays_a_whole_game_with(tmp_path: Path) -> None:
    out = tmp_path / "run"
    output = _train(out)
    assert "round 1: 2 games" in output
    network = read_model(out / "model.npz")
    assert network.card.game == "vikingdoms" and network.card.hidden == (16,)
    assert network.card.training["games"] == 2 and network.card.training["rounds"] == 1
    game = get_game("vikingdoms")
    state = game.new_initial_state(2)
    bots = [make_bot(f"learned:{out / 'model.npz'}:iters=4", seed) for seed in range(2)]
    rng = random.Random(0)
    while (player := state.current_player()) != TERMINAL:
        state.apply(sample_chance(state, rng) if player == CHANCE else bots[player].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_a_stopped_run_goes_on_from_its_last_round_with_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _train(out)
    first = read_model(out / "model.npz")
    output = _train(out, "--resume")
    assert "round 2: 2 games" in output
    rounds = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    assert [r["round"] for r in rounds] == [1, 2]
    assert rounds[1]["total_games"] == 4 and rounds[1]["buffer"] == rounds[0]["positions"] + rounds[1]["positions"]
    second = read_model(out / "model.npz")
    assert second.card.training["games"] == 4
    # Training went on from the first round's weights and standardisation, not from a fresh network.
    assert np.array_equal(second.mean, first.mean)
    assert not np.array_equal(second.policy[0], first.policy[0])


def test_resume_names_the_setting_that_differs_and_a_fresh_run_will_not_overwrite_one(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _train(out)
    result = runner.invoke(
        app, ["train", "vikingdoms", "--minutes", "0", "--out", str(out), *SMALL, "--resume", "--seed", "7"]
    )
    assert result.exit_code == 2
    assert "seed" in result.output and "give the same seed" in result.output
    result = runner.invoke(app, ["train", "vikingdoms", "--minutes", "0", "--out", str(out)])
    assert result.exit_code == 2 and "--resume" in result.output
    result = runner.invoke(app, ["train", "vikingdoms", "--minutes", "0", "--out", str(tmp_path / "none"), "--resume"])
    assert result.exit_code == 2 and "no run to go on" in result.output


def test_the_exported_model_computes_what_the_trained_torch_network_does(tmp_path: Path) -> None:
    from skald.train.trainer import PolicyValueNet

    out = tmp_path / "run"
    _train(out)
    network = read_model(out / "model.npz")
    module = PolicyValueNet.from_network(network)
    rng = np.random.default_rng(0)
    observations = rng.uniform(-1, 1, (5, network.card.inputs)).astype(np.float32)
    mask = np.ones((5, network.card.num_actions), dtype=np.bool_)
    policy, values = network.policy_value(observations, mask)
    with torch.no_grad():
        logits, value_logits = module(torch.from_numpy(observations))
    assert np.allclose(policy, torch.softmax(logits, dim=1).numpy(), atol=1e-5)
    assert np.allclose(values, torch.softmax(value_logits, dim=1).numpy(), atol=1e-5)


def test_a_time_budget_is_required_and_a_bad_hidden_width_is_named() -> None:
    result = runner.invoke(app, ["train", "vikingdoms"])
    assert result.exit_code == 2 and "--hours" in result.output
    result = runner.invoke(app, ["train", "vikingdoms", "--minutes", "1", "--hidden", "16,x"])
    assert result.exit_code == 2 and "--hidden" in result.output


def test_the_training_curve_plays_the_model_before_training_and_after_each_interval(tmp_path: Path) -> None:
    out = tmp_path / "run"
    curve = ["--curve-every", "0.0001", "--curve-games", "2", "--curve-opponent", "random"]
    output = _train(out, *curve)
    assert "curve: after 0.0 min" in output
    points = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [point["rounds"] for point in points] == [0, 1]
    every_seconds = 0.0001 * 60
    assert points[0]["seconds"] == 0 and points[1]["seconds"] >= round(every_seconds, 3)
    for point in points:
        assert point["games"] == 2 and point["opponent"] == "random"
        assert 0 <= point["low"] <= point["share"] <= point["high"] <= 1
        assert read_model(out / point["snapshot"]).card.game == "vikingdoms"
    assert (out / "snapshots" / "model-round-0000.npz").exists()
    drawn = (out / "curve.svg").read_text()
    assert drawn.startswith("<?xml") and "<svg" in drawn

    _train(out, "--resume", *curve)
    resumed = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert resumed[:2] == points and [point["rounds"] for point in resumed] == [0, 1, 2]


def test_a_curve_opponent_that_is_not_a_bot_is_named_before_training(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "train",
            "vikingdoms",
            "--minutes",
            "1",
            "--out",
            str(tmp_path / "run"),
            "--curve-every",
            "1",
            "--curve-opponent",
            "bogus",
        ],
    )
    assert result.exit_code != 0
    assert "--curve-opponent" in result.output
    assert not (tmp_path / "run").exists()
