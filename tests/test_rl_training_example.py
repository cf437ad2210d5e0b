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


def run_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    """The script run with `arguments`, its output captured (not checked: some runs are meant to be refused)."""
    pytest.importorskip("sb3_contrib", reason="the training script needs sb3-contrib (the train extra)")
    command = [sys.executable, str(SCRIPT), *arguments]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def tiny_run(out: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """A run of a few seconds on 2-player Vikingdoms, one environment, no evaluation unless `arguments` ask."""
    cheap = ["--game", "vikingdoms", "--envs", "1", "--curve-games", "0", "--eval-games", "0", "--out", str(out)]
    return run_script(*cheap, *arguments)


def test_a_tiny_training_run_writes_results_a_curve_and_the_model(tmp_path: Path) -> None:
    out = tmp_path / "run"
    arguments = ["--minutes", "0.01", "--eval-every", "0.01", "--curve-games", "2", "--eval-games", "4"]
    done = run_script(*arguments, "--envs", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["steps"] > 0 and set(results["final"]) == {"random", "greedy"}
    assert all(0.0 <= r["low"] <= r["rate"] <= r["high"] <= 1.0 for r in results["final"].values())
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "model.zip").exists()


#: How far past its budget a run may train: one environment step, and room for a loaded machine's clock.
ONE_STEP = 0.5


def test_the_time_budget_is_a_hard_limit_on_training(tmp_path: Path) -> None:
    # A rollout of this run (256 steps) takes about a second: a budget checked only between rollouts overruns.
    done = tiny_run(tmp_path / "run", "--minutes", "0.05")
    assert done.returncode == 0, done.stderr
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    seconds = results["training_minutes"] * 60
    assert 1.0 < seconds <= 3.0 + ONE_STEP
    assert 0 < results["learned_steps"] <= results["steps"] < 8192
    assert f"{results['steps']:,} steps" in done.stdout
    assert results["final"] == {} and results["curve"] == []  # --eval-games 0 and --curve-games 0
    assert not (tmp_path / "run" / "learning_curve.png").exists()


def test_a_resumed_run_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = tiny_run(out, "--minutes", "0.05", "--curve-games", "1")
    assert first.returncode == 0, first.stderr
    before = json.loads((out / "progress.json").read_text())
    assert before["seconds"] <= 3.0 + ONE_STEP and len(before["curve"]) == 2  # before training, and at the end
    again = tiny_run(
        out, "--minutes", "0.1", "--curve-games", "1", "--eval-games", "1", "--evaluate", "random", "--resume"
    )
    assert again.returncode == 0, again.stderr
    after = json.loads((out / "progress.json").read_text())
    results = json.loads((out / "results.json").read_text())
    assert after["curve"][:2] == before["curve"] and len(after["curve"]) == 3
    assert after["steps"] == results["steps"] > before["steps"] == after["curve"][1]["steps"]
    assert after["learned_steps"] >= before["learned_steps"]
    assert before["seconds"] < after["seconds"] <= 6.0 + ONE_STEP
    assert results["training_minutes"] == pytest.approx(after["seconds"] / 60)
    assert set(results["final"]) == {"random"} and results["final"]["random"]["games"] == 1


def test_resume_refuses_a_different_game_and_a_fresh_run_will_not_overwrite_a_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert run_script("--resume", "--out", str(out)).returncode != 0  # nothing to go on from
    assert tiny_run(out, "--minutes", "0.01").returncode == 0
    saved = {name: (out / name).read_bytes() for name in ("progress.json", "model.zip")}
    refused = tiny_run(out, "--minutes", "0.02", "--resume", "--game", "vikings")
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "game 'vikingdoms', not 'vikings'" in refused.stderr
    refused = tiny_run(out, "--minutes", "0.02", "--resume", "--seed", "1")
    assert refused.returncode != 0 and "seed 0, not 1" in refused.stderr
    refused = tiny_run(out, "--minutes", "0.02")
    assert refused.returncode != 0 and "--resume" in refused.stderr and "Traceback" not in refused.stderr
    assert {name: (out / name).read_bytes() for name in saved} == saved


def test_an_unknown_rule_option_is_named_before_training(tmp_path: Path) -> None:
    refused = tiny_run(tmp_path / "run", "--minutes", "0.01", "--option", "ferry=true")
    assert refused.returncode != 0
    assert refused.stderr.strip().count("\n") == 0 and "ferry" in refused.stderr
    assert not (tmp_path / "run").exists()
    done = tiny_run(tmp_path / "run", "--minutes", "0.01", "--option", "undo_ban=true")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "run" / "results.json").read_text())["options"]["undo_ban"] is True


def test_rule_options_reach_the_training_and_the_evaluation_games(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("stable_baselines3", reason="the training environments come wrapped by stable-baselines3")
    script = load_script()
    env = script.make_env("vikingdoms", 2, "random", "margin", {"undo_ban": True}, 0)
    assert env.unwrapped.options["undo_ban"] is True
    built: list[dict[str, object]] = []

    class Recorded(script.SkaldGymEnv):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            built.append(self.options)

    class FirstLegal:
        def predict(self, observation: object, action_masks: object, deterministic: bool) -> tuple[int, None]:
            return int(action_masks.argmax()), None

    monkeypatch.setattr(script, "SkaldGymEnv", Recorded)
    assert script.evaluate(FirstLegal(), "vikingdoms", 2, "random", 1, {"undo_ban": True})["games"] == 1
    assert built and built[0]["undo_ban"] is True


def test_several_environments_in_worker_processes_train_and_save(tmp_path: Path) -> None:
    # SubprocVecEnv: each environment in its own process, MaskablePPO asking each for its mask (env_method).
    out = tmp_path / "run"
    done = tiny_run(out, "--envs", "2", "--vec", "subproc", "--minutes", "0.1")
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text())
    assert (results["vec"], results["envs"]) == ("subproc", 2)
    assert results["learned_steps"] > 0 and results["steps"] % 2 == 0  # every step is one of each environment
    assert (out / "model.zip").exists()


def test_self_play_draws_opponents_from_the_runs_past_policies(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = tiny_run(out, "--self-play", "--pool", "2", "--minutes", "0.1", "--eval-every", "0.02")
    assert done.returncode == 0, done.stderr
    pool = json.loads((out / "progress.json").read_text())["self_play"]
    # Random until the first checkpoint, then the last two policies saved, each a file of the run.
    assert 1 <= len(pool["pool"]) <= 2 and all(name.startswith("pool/policy-") for name in pool["pool"])
    assert sorted(path.name for path in (out / "pool").iterdir()) == sorted(Path(n).name for n in pool["pool"])
    assert pool["games"]["random"] > 0
    assert sum(games for name, games in pool["games"].items() if name != "random") > 0
    refused = tiny_run(out, "--minutes", "0.2", "--resume")
    assert refused.returncode != 0 and "self_play True, not False" in refused.stderr
    again = tiny_run(out, "--self-play", "--pool", "2", "--minutes", "0.15", "--eval-every", "0.02", "--resume")
    assert again.returncode == 0, again.stderr
    after = json.loads((out / "progress.json").read_text())["self_play"]
    assert after["pool"] != pool["pool"] and "random" not in after["pool"]
    assert all(after["games"].get(name, 0) >= games for name, games in pool["games"].items())
