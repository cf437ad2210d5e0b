"""The baseline's training script (examples/train_maskable_ppo.py): its Wilson intervals, and a whole tiny run."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "train_maskable_ppo.py"


def load_script() -> ModuleType:
    """The example as a module (it imports its learning library only when run)."""
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_intervals_match_the_textbook_values() -> None:
    wilson = load_script().wilson
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(500, 500)
    assert high == pytest.approx(1.0) and round(low, 4) == 0.9924
    assert wilson(0, 20)[0] == 0.0


def test_a_tiny_training_run_writes_results_a_curve_and_the_model(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the training script needs sb3-contrib (the train extra)")
    out = tmp_path / "run"
    command = [sys.executable, str(SCRIPT), "--minutes", "0.01", "--eval-every", "0.01", "--curve-games", "2"]
    command += ["--eval-games", "4", "--envs", "2", "--out", str(out)]
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, text=True, timeout=600)
    results = json.loads((out / "results.json").read_text())
    assert results["steps"] >= 8192 and set(results["final"]) == {"random", "greedy"}
    assert all(0.0 <= r["low"] <= r["rate"] <= r["high"] <= 1.0 for r in results["final"].values())
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "model.zip").exists()
