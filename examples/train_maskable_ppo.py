"""Train MaskablePPO on a Skald game for a fixed wall-clock budget, evaluate it against the random and greedy bots
with Wilson intervals, and draw the learning curve.

Needs the `train` extra (`pip install -e '.[train]'`: sb3-contrib, which brings stable-baselines3 and PyTorch).
The published baseline (docs/learning.md) is, on one core:

    taskset -c 1 python examples/train_maskable_ppo.py --game vikings --players 2 --minutes 15 --out runs/vikings

Training uses the Gymnasium environment with its training defaults (the learner's seat rotates, forced moves are
played for it) plus the observation tensor alone (`mask_in_observation=False`; the mask reaches MaskablePPO through
`action_masks()`) and the margin-shaped reward. Half of the environments play the random bot and half the greedy
bot (`--opponents`). Only time spent training counts against `--minutes`: the learning curve's evaluations are
made between training chunks, on seeds the training never sees, with the deterministic policy.

A game's score for the learner is its Skald return (1 for a win, 1/k for a victory shared by k, 0 for a loss), so
the "win rate" is the mean return; its 95% Wilson interval is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from skald.rl.gymnasium_env import SkaldGymEnv

#: Evaluation games are seeded from here on; training resets are seeded from `--seed`, far below.
EVAL_SEED = 10**9


def wilson(successes: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); fractional successes (shared wins) allowed."""
    if games == 0:
        return 0.0, 1.0
    p = successes / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_env(game: str, players: int, opponent: str, reward: str, seed: int) -> Any:
    """A training environment (wrapped for stable-baselines3's episode statistics)."""
    from stable_baselines3.common.monitor import Monitor

    env = SkaldGymEnv(game, players, opponents=opponent, reward=reward, mask_in_observation=False)
    env.reset(seed=seed)
    return Monitor(env)


def factory(game: str, players: int, opponent: str, reward: str, seed: int) -> Callable[[], Any]:
    """What a vector environment calls to build one training environment."""
    return lambda: make_env(game, players, opponent, reward, seed)


def evaluate(model: Any, game: str, players: int, opponent: str, games: int) -> dict[str, float]:
    """The deterministic policy's mean return over `games` games against `opponent`, seats rotating, with its 95%
    Wilson interval."""
    env = SkaldGymEnv(game, players, opponents=opponent, mask_in_observation=False)
    total = 0.0
    for g in range(games):
        observation, info = env.reset(seed=EVAL_SEED + g)
        terminated = truncated = False
        reward = 0.0
        while not (terminated or truncated):
            action, _ = model.predict(observation, action_masks=info["action_mask"].astype(bool), deterministic=True)
            observation, reward, terminated, truncated, info = env.step(int(action))
        total += reward
    low, high = wilson(total, games)
    return {"rate": total / games, "low": low, "high": high, "games": games}


def plot(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    """The learning curve: mean return against each opponent over training minutes, with Wilson bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    minutes = [point["minutes"] for point in curve]
    for opponent in curve[0]["eval"]:
        rates = [point["eval"][opponent]["rate"] for point in curve]
        lows = [point["eval"][opponent]["low"] for point in curve]
        highs = [point["eval"][opponent]["high"] for point in curve]
        ax.plot(minutes, rates, marker="o", label=f"against {opponent}")
        ax.fill_between(minutes, lows, highs, alpha=0.2)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("training minutes (one core)")
    ax.set_ylabel("mean return (win rate), 95% Wilson interval")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    """Train for `--minutes` of training time, evaluating every `--eval-every` minutes, then write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vikings")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=15.0, help="training time (evaluations not counted)")
    parser.add_argument("--eval-every", type=float, default=2.5, help="minutes of training between evaluations")
    parser.add_argument("--curve-games", type=int, default=100, help="games per opponent at each curve point")
    parser.add_argument("--eval-games", type=int, default=500, help="games per opponent at the end")
    parser.add_argument("--opponents", default="random,greedy", help="bot specs, one per training env in turn")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--reward", default="margin", choices=["win", "margin"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"))
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    opponents = args.opponents.split(",")
    vec_env = DummyVecEnv(
        [
            factory(args.game, args.players, opponents[i % len(opponents)], args.reward, args.seed + i)
            for i in range(args.envs)
        ]
    )
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    evaluated = ["random", "greedy"]

    def point(minutes: float, games: int) -> dict[str, Any]:
        results = {opponent: evaluate(model, args.game, args.players, opponent, games) for opponent in evaluated}
        row = {"minutes": minutes, "steps": int(model.num_timesteps), "eval": results}
        shown = "  ".join(f"{o}: {r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}]" for o, r in results.items())
        print(f"{minutes:6.2f} min  {row['steps']:>9,} steps  {shown}", flush=True)
        return row

    curve = [point(0.0, args.curve_games)]
    trained = 0.0
    chunk = 2048 * 4  # steps per learn() call; the clock is checked between them
    next_eval = args.eval_every
    while trained < args.minutes * 60:
        start = time.perf_counter()
        model.learn(chunk, reset_num_timesteps=False)
        trained += time.perf_counter() - start
        if trained >= min(next_eval, args.minutes) * 60:
            curve.append(point(trained / 60, args.curve_games))
            while next_eval * 60 <= trained:  # a slow chunk may have passed more than one mark
                next_eval += args.eval_every
    final = {opponent: evaluate(model, args.game, args.players, opponent, args.eval_games) for opponent in evaluated}
    summary = {
        "game": args.game,
        "players": args.players,
        "training_minutes": trained / 60,
        "steps": int(model.num_timesteps),
        "steps_per_second": model.num_timesteps / trained,
        "opponents": opponents,
        "reward": args.reward,
        "envs": args.envs,
        "seed": args.seed,
        "final": final,
        "curve": curve,
    }
    (args.out / "results.json").write_text(json.dumps(summary, indent=2))
    model.save(args.out / "model")
    plot(curve, args.out / "learning_curve.png", f"MaskablePPO, {args.game}, {args.players} players")
    print(f"trained {trained / 60:.1f} min, {model.num_timesteps:,} steps ({summary['steps_per_second']:.0f} steps/s)")
    for opponent, result in final.items():
        print(
            f"against {opponent}: {result['rate']:.3f} over {result['games']} games "
            f"(95% Wilson [{result['low']:.3f}, {result['high']:.3f}])"
        )
    print(f"wrote {args.out / 'results.json'}, {args.out / 'learning_curve.png'}, {args.out / 'model.zip'}")


if __name__ == "__main__":
    main()
