"""Train MaskablePPO on a Skald game within a budget of training time, evaluate it against bots (random and greedy
by default) with Wilson intervals, and draw the learning curve.

Needs the `train` extra (`pip install -e '.[train]'`: sb3-contrib, which brings stable-baselines3 and PyTorch).
The published baseline (docs/learning.md) is, on one core:

    taskset -c 1 python examples/train_maskable_ppo.py --game vikings --players 2 --minutes 15 --out runs/vikings

Training uses the Gymnasium environment with its training defaults (the learner's seat rotates, forced moves are
played for it) plus the observation tensor alone (`mask_in_observation=False`; the mask reaches MaskablePPO through
`action_masks()`) and the margin-shaped reward. Half of the environments play the random bot and half the greedy
bot (`--opponents`); every environment, and every evaluation game, plays the rule options given by `--option`.

`--vec subproc` steps the environments in worker processes (stable-baselines3's SubprocVecEnv; MaskablePPO asks
each worker for its mask through `env_method("action_masks")`) instead of one after the other in this process.

`--self-play` draws each environment's opponents, at every rollout, from a pool: `random` until the first checkpoint,
then the policies saved at the last `--pool` checkpoints (`pool/policy-STEPS.pt` in `--out`), each sampling its moves
from its masked distribution. The progress file records the pool and how many games were finished against each.

Only time spent training counts against `--minutes`, and learning stops as soon as it is spent (a stable-baselines3
callback checks the clock at every step). The learning curve's evaluations, against random and greedy, are made
between an update and the next rollout, on seeds the training never sees, with the deterministic policy; each is
followed by a checkpoint in `--out` (`model.zip` and `progress.json`), from which `--resume` goes on.

A game's score for the learner is its Skald return (1 for a win, 1/k for a victory shared by k, 0 for a loss), so
the "win rate" is the mean return; its 95% Wilson interval is printed beside it.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer

from skald.cli.common import parse_option
from skald.rl.gymnasium_env import SkaldGymEnv

#: Evaluation games are seeded from here on; training resets are seeded from `--seed`, far below.
EVAL_SEED = 10**9
#: What `--out` holds for `--resume`: the model, and the run's progress (steps, training seconds, the curve, and the
#: settings a resumed run must keep). Both are written at every curve point and at the end.
MODEL_NAME = "model.zip"
PROGRESS_NAME = "progress.json"
#: Where `--self-play` keeps the policies of its pool, inside `--out`.
POOL_DIR = "pool"
#: The opponent of a self-play pool before its first checkpoint.
POOL_START = "random"
#: Settings a run's progress did not always record, with the value such a run had.
FIXED_BEFORE = {"self_play": False}


def wilson(successes: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); fractional successes (shared wins) allowed."""
    if games == 0:
        return 0.0, 1.0
    p = successes / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_env(
    game: str, players: int, opponent: str, reward: str, options: dict[str, Any], seed: int, threads: int = 0
) -> Any:
    """A training environment (wrapped for stable-baselines3's episode statistics); `threads`, if given, is how
    many PyTorch may use in this process (where a self-play opponent's policy thinks)."""
    import torch
    from stable_baselines3.common.monitor import Monitor

    if threads:
        torch.set_num_threads(threads)
    env = SkaldGymEnv(game, players, opponents=opponent, options=options, reward=reward, mask_in_observation=False)
    env.reset(seed=seed)
    return Monitor(env)


def factory(
    game: str, players: int, opponent: str, reward: str, options: dict[str, Any], seed: int, threads: int
) -> Callable[[], Any]:
    """What a vector environment calls to build one training environment."""
    return lambda: make_env(game, players, opponent, reward, options, seed, threads)


#: The policies loaded in this process, by path (each worker of a SubprocVecEnv loads its own).
_loaded: dict[str, Any] = {}


class SnapshotPolicy:
    """An opponent that plays the policy saved at `path`, sampling each move from its masked distribution. It pickles
    as its path alone, so that it can be sent to a worker process, which loads the policy once."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path = state["path"]

    def __call__(self, observation: Any, action_mask: Any) -> int:
        if self.path not in _loaded:
            from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

            while len(_loaded) > 16:  # policies that left the pool
                del _loaded[next(iter(_loaded))]
            _loaded[self.path] = MaskableActorCriticPolicy.load(self.path, device="cpu")
        action, _ = _loaded[self.path].predict(observation, action_masks=action_mask.astype(bool), deterministic=False)
        return int(action)


class Pool:
    """The self-play pool of one run: `random` until the first checkpoint, then the last `size` saved policies."""

    def __init__(self, out: Path, size: int, saved: dict[str, Any] | None, seed: int) -> None:
        import random

        self.out, self.size = out, size
        self.members: list[str] = list(saved["pool"]) if saved else [POOL_START]
        self.games: dict[str, int] = dict(saved["games"]) if saved else {}
        self.draw = random.Random(seed)

    def add(self, policy: Any, steps: int) -> None:
        """Save `policy` into the pool (dropping the oldest beyond its size, and `random` with the first)."""
        (self.out / POOL_DIR).mkdir(exist_ok=True)
        name = f"{POOL_DIR}/policy-{steps:09d}.pt"
        policy.save(str(self.out / name))
        self.members = [m for m in self.members if m not in (POOL_START, name)] + [name]
        for gone in self.members[: -self.size]:
            (self.out / gone).unlink(missing_ok=True)
        self.members = self.members[-self.size :]

    def opponent(self) -> tuple[str, Any]:
        """A member drawn from the pool: its name, and the opponent an environment takes."""
        name = self.draw.choice(self.members)
        return name, name if name == POOL_START else SnapshotPolicy(str(self.out / name))

    def record(self) -> dict[str, Any]:
        """What the progress file keeps of the pool."""
        return {"size": self.size, "pool": self.members, "games": self.games}


def self_play(pool: Pool, vec_env: Any) -> Any:
    """A stable-baselines3 callback that gives each environment an opponent drawn from `pool` at every rollout's
    start (taken at its next game), and counts the games finished against each."""
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlay(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            # The opponent of each environment's game in progress, and the one its next game takes.
            self.playing = [POOL_START] * vec_env.num_envs
            self.next = list(self.playing)

        def _on_rollout_start(self) -> None:
            for i in range(vec_env.num_envs):
                name, opponent = pool.opponent()
                vec_env.env_method("set_opponents", opponent, indices=[i])
                self.next[i] = name

        def _on_step(self) -> bool:
            for i, done in enumerate(self.locals["dones"]):
                if done:  # the environment has started its next game already, with the opponent set last
                    pool.games[self.playing[i]] = pool.games.get(self.playing[i], 0) + 1
                    self.playing[i] = self.next[i]
            return True

    return SelfPlay()


def evaluate(
    model: Any, game: str, players: int, opponent: str, games: int, options: dict[str, Any]
) -> dict[str, float]:
    """The deterministic policy's mean return over `games` games against `opponent`, seats rotating, with its 95%
    Wilson interval."""
    env = SkaldGymEnv(game, players, opponents=opponent, options=options, mask_in_observation=False)
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


def fail(message: str) -> NoReturn:
    """Stop with `message` as one `error:` line on stderr, before anything is trained or written."""
    raise SystemExit(f"error: {message}")


def write_aside(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a file beside it, renamed into place: a run stopped at any moment leaves the
    old file or the new one, never half of one."""
    part = path.with_name(path.name + ".part")
    with part.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(part, path)


def save_checkpoint(
    model: Any,
    out: Path,
    fixed: dict[str, Any],
    seconds: float,
    learned: int,
    curve: list[dict[str, Any]],
    pool: Pool | None = None,
) -> None:
    """The model and the run's progress in `out` (with the self-play pool, if any), what `--resume` goes on from; the
    model first, so that progress never claims more than the model on disk holds."""
    buffer = io.BytesIO()
    model.save(buffer)
    write_aside(out / MODEL_NAME, buffer.getvalue())
    steps = int(model.num_timesteps)
    progress = {"fixed": fixed, "steps": steps, "learned_steps": learned, "seconds": seconds, "curve": curve}
    if pool is not None:
        progress["self_play"] = pool.record()
    write_aside(out / PROGRESS_NAME, json.dumps(progress, indent=2).encode())


def load_progress(out: Path, fixed: dict[str, Any]) -> dict[str, Any]:
    """The progress of the run in `out`, refused in one line when it is missing or a fixed setting differs."""
    path = out / PROGRESS_NAME
    if not path.exists() or not (out / MODEL_NAME).exists():
        fail(f"--resume: no run to go on in {out} (it needs {PROGRESS_NAME} and {MODEL_NAME})")
    try:
        progress = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        fail(f"--resume: {path} cannot be read ({error})")
    keys = ("fixed", "steps", "learned_steps", "seconds", "curve")
    missing = [key for key in keys if key not in progress] if isinstance(progress, dict) else list(keys)
    if missing:
        fail(f"--resume: {path} is not a run's progress (no {', '.join(missing)})")
    saved = progress["fixed"]
    for name, value in fixed.items():
        had = saved.get(name, FIXED_BEFORE.get(name))
        if had != value:
            fail(f"--resume: the run in {out} has {name} {had!r}, not {value!r}; give the same {name}")
    return progress


def training_clock(spent: float, limit: float, every: float, at_mark: Callable[[float], None]) -> Any:
    """A stable-baselines3 callback that keeps learning inside `limit` seconds of training, `spent` of them already
    trained, and calls `at_mark(seconds trained)` every `every` seconds of training, its clock stopped meanwhile.

    Learning stops at the first step on or past `limit`, or at a rollout's last step when the update that follows
    would, by the longest update so far, carry the clock past it: a rollout cut short is not learned from. The marks
    fall between an update and the next rollout, so that none is cut short for them."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Clock(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.started = time.perf_counter()
            self.mark = (math.floor(spent / every) + 1) * every
            self.learned = 0  # steps in the rollouts learned from (each one that ran to its end)
            self.update = 0.0  # the longest update so far, in seconds
            self.update_started: float | None = None
            self.rollout_steps = 0

        def seconds(self) -> float:
            """Training time so far, this process's and the sessions' before."""
            return spent + time.perf_counter() - self.started

        def _on_rollout_start(self) -> None:
            if self.update_started is not None:
                self.update = max(self.update, time.perf_counter() - self.update_started)
                self.update_started = None
            self.rollout_steps = 0
            now = self.seconds()
            if self.mark <= now < limit:
                paused = time.perf_counter()
                at_mark(now)
                self.started += time.perf_counter() - paused
                while self.mark <= now:  # a slow update may have passed more than one mark
                    self.mark += every

        def _on_rollout_end(self) -> None:
            self.learned += self.model.n_steps * self.model.n_envs
            self.update_started = time.perf_counter()

        def _on_step(self) -> bool:
            self.rollout_steps += 1
            now = self.seconds()
            last = self.rollout_steps == self.model.n_steps
            return now < limit and not (last and now + self.update > limit)

    return Clock()


def main() -> None:
    """Train for `--minutes` of training time, evaluating every `--eval-every` minutes, then write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vikings")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option")
    parser.add_argument("--minutes", type=float, default=15.0, help="training time of the run (a hard limit)")
    parser.add_argument("--eval-every", type=float, default=2.5, help="minutes of training between evaluations")
    parser.add_argument("--curve-games", type=int, default=100, help="games per opponent at each curve point")
    parser.add_argument("--eval-games", type=int, default=500, help="games per opponent at the end")
    parser.add_argument("--evaluate", default="random,greedy", help="bot specs played at the end")
    parser.add_argument("--opponents", default="random,greedy", help="bot specs, one per training env in turn")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument(
        "--vec",
        default="dummy",
        choices=["dummy", "subproc"],
        help="environments in this process one after the other (dummy) or each in a worker process (subproc)",
    )
    parser.add_argument("--self-play", action="store_true", help="opponents drawn from the run's past policies")
    parser.add_argument("--pool", type=int, default=5, help="self-play: how many past policies the pool keeps")
    parser.add_argument("--reward", default="margin", choices=["win", "margin"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"))
    parser.add_argument("--resume", action="store_true", help="go on with the run in --out")
    args = parser.parse_args()

    from skald.bots import SpecError, check_spec
    from skald.engine import OptionError, get_game

    try:
        game = get_game(args.game)
        game.check_players(args.players)
    except (KeyError, ValueError) as error:
        fail(f"--game/--players: {error.args[0] if error.args else error}")
    given: dict[str, Any] = {}
    for text in args.option:
        try:
            name, value = parse_option(text)
        except typer.BadParameter as error:
            fail(f"--option: {error.message}")
        if name in given:
            fail(f"--option: {name} is given twice")
        given[name] = value
    try:
        options = game.resolve_options(given)
    except OptionError as error:
        fail(f"--option: {error}")
    opponents = args.opponents.split(",")
    evaluated = [spec for spec in args.evaluate.split(",") if spec]
    for flag, specs in (("--opponents", opponents), ("--evaluate", evaluated)):
        for spec in specs:
            try:
                check_spec(spec, game, args.players)
            except SpecError as error:
                fail(f"{flag}: {error}")
    if not args.eval_every > 0:
        fail(f"--eval-every: {args.eval_every} is not a positive number of minutes")
    if args.envs < 1 or args.curve_games < 0 or args.eval_games < 0:
        fail("--envs must be at least 1, --curve-games and --eval-games at least 0")
    if args.pool < 1:
        fail(f"--pool: {args.pool} is not a positive number of policies")
    fixed = {
        "game": game.name,
        "players": args.players,
        "options": options,
        "reward": args.reward,
        "seed": args.seed,
        "self_play": args.self_play,
    }
    if args.resume:
        progress = load_progress(args.out, fixed)
    elif (args.out / PROGRESS_NAME).exists() or (args.out / MODEL_NAME).exists():
        fail(f"--out {args.out}: a run is already there; go on with --resume, or choose another --out")

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.self_play:
        opponents = [POOL_START]
    threads = 1 if args.vec == "subproc" else args.threads  # a worker's policy opponents think on one thread
    factories = [
        factory(game.name, args.players, opponents[i % len(opponents)], args.reward, options, args.seed + i, threads)
        for i in range(args.envs)
    ]
    vec_env = SubprocVecEnv(factories) if args.vec == "subproc" else DummyVecEnv(factories)
    if args.resume:
        model = MaskablePPO.load(args.out / MODEL_NAME, env=vec_env, device="cpu")
        model.set_random_seed(args.seed + model.num_timesteps)  # new games, not the ones before
        trained: float = progress["seconds"]
        curve: list[dict[str, Any]] = progress["curve"]
    else:
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
        trained, curve = 0.0, []
    pool = None
    if args.self_play:  # its draws, like the games', go on from where the run is
        pool = Pool(args.out, args.pool, progress.get("self_play") if args.resume else None, model.num_timesteps)
    curved = ["random", "greedy"]  # the curve's opponents stay the same across sessions

    def point(minutes: float, games: int) -> None:
        if games == 0:
            return
        results = {o: evaluate(model, game.name, args.players, o, games, options) for o in curved}
        row = {"minutes": minutes, "steps": int(model.num_timesteps), "eval": results}
        shown = "  ".join(f"{o}: {r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}]" for o, r in results.items())
        print(f"{minutes:6.2f} min  {row['steps']:>9,} steps  {shown}", flush=True)
        curve.append(row)

    if not args.resume:
        point(0.0, args.curve_games)
    learned = progress["learned_steps"] if args.resume else 0

    def at_mark(seconds: float) -> None:
        point(seconds / 60, args.curve_games)
        if pool is not None:
            pool.add(model.policy, int(model.num_timesteps))
        save_checkpoint(model, args.out, fixed, seconds, learned + clock.learned, curve, pool)

    budget = args.minutes * 60
    clock = training_clock(trained, budget, args.eval_every * 60, at_mark)
    callback = clock if pool is None else CallbackList([clock, self_play(pool, vec_env)])
    if trained < budget:
        model.learn(2**62, reset_num_timesteps=False, callback=callback)  # until the clock stops it
        trained = clock.seconds()
        learned += clock.learned
        point(trained / 60, args.curve_games)
    final = {}
    if args.eval_games:
        final = {o: evaluate(model, game.name, args.players, o, args.eval_games, options) for o in evaluated}
    summary = {
        "game": game.name,
        "players": args.players,
        "options": options,
        "training_minutes": trained / 60,
        "budget_minutes": args.minutes,
        "steps": int(model.num_timesteps),
        "learned_steps": learned,
        "steps_per_second": model.num_timesteps / trained if trained else 0.0,
        "opponents": opponents,
        "self_play": pool.record() if pool else None,
        "reward": args.reward,
        "envs": args.envs,
        "vec": args.vec,
        "seed": args.seed,
        "final": final,
        "curve": curve,
    }
    save_checkpoint(model, args.out, fixed, trained, learned, curve, pool)
    vec_env.close()
    write_aside(args.out / "results.json", json.dumps(summary, indent=2).encode())
    written = [args.out / "results.json", args.out / PROGRESS_NAME, args.out / MODEL_NAME]
    if curve:
        plot(curve, args.out / "learning_curve.png", f"MaskablePPO, {game.name}, {args.players} players")
        written.insert(1, args.out / "learning_curve.png")
    print(
        f"trained {trained / 60:.2f} min of {args.minutes:g}, {model.num_timesteps:,} steps "
        f"({summary['steps_per_second']:.0f} steps/s; {learned:,} in the rollouts learned from)"
    )
    for opponent, result in final.items():
        print(
            f"against {opponent}: {result['rate']:.3f} over {result['games']} games "
            f"(95% Wilson [{result['low']:.3f}, {result['high']:.3f}])"
        )
    print("wrote " + ", ".join(str(path) for path in written))


if __name__ == "__main__":
    main()
