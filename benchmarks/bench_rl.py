"""Steps per second through each learning adapter next to the raw engine, on the same random games.

    python benchmarks/bench_rl.py [--games 30] [--players 2]

Raw engine: `legal_actions` + `apply` for every action, chance included (Skald's `play_random_game`).
OpenSpiel: the same walk through `pyspiel` states (`legal_actions`, `chance_outcomes`, `apply_action`).
PettingZoo: `last()` (observation tensor and mask) + `step` for each seat's turn; chance acts inside `step`.
Gymnasium: `step` for the learner's turns; chance and the random bot act inside `step`.
The cost ratio compares seconds per whole game, since the environments count only seats' turns as steps.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from skald.engine import get_game, play_random_game
from skald.rl.gymnasium_env import SkaldGymEnv
from skald.rl.openspiel import load
from skald.rl.pettingzoo_env import SkaldAECEnv


def raw(game: str, players: int, games: int) -> tuple[int, float]:
    """Actions and seconds for `games` random games through the engine."""
    skald_game, rng, steps = get_game(game), random.Random(0), 0
    start = time.perf_counter()
    for _ in range(games):
        steps += len(play_random_game(skald_game.new_initial_state(players), rng).history)
    return steps, time.perf_counter() - start


def openspiel(game: str, players: int, games: int) -> tuple[int, float]:
    """Actions and seconds through pyspiel states."""
    spiel_game, rng, steps = load(game, players), random.Random(0), 0
    start = time.perf_counter()
    for _ in range(games):
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - start


def pettingzoo(game: str, players: int, games: int) -> tuple[int, float]:
    """Seats' turns and seconds through the AEC environment."""
    env, rng, steps = SkaldAECEnv(game, players), random.Random(0), 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=g)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps, time.perf_counter() - start


def gymnasium(game: str, players: int, games: int) -> tuple[int, float]:
    """Learner's turns and seconds through the Gymnasium wrapper against the random bot."""
    env, rng, steps = SkaldGymEnv(game, players, opponents="random"), random.Random(0), 0
    start = time.perf_counter()
    for g in range(games):
        observation, _ = env.reset(seed=g)
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    """Print steps/s and cost per game for each adapter next to the raw engine."""
    parser = argparse.ArgumentParser(description="Learning adapters against the raw engine")
    parser.add_argument("--game", default="vikings")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    runs = {"raw engine": raw, "OpenSpiel": openspiel, "PettingZoo": pettingzoo, "Gymnasium": gymnasium}
    base = 0.0
    print(f"{args.game}, {args.players} players, {args.games} random games each")
    print(f"{'':12} {'steps/s':>10} {'ms/game':>9} {'cost vs raw':>12}")
    for name, run in runs.items():
        steps, seconds = run(args.game, args.players, args.games)
        per_game = seconds / args.games
        base = base or per_game
        print(f"{name:12} {steps / seconds:10.0f} {per_game * 1e3:9.2f} {per_game / base:11.2f}x")


if __name__ == "__main__":
    main()
