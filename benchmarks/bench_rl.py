"""Steps per second through each learning adapter next to the raw engine, on the same random games; then
environment steps per second against the random and the greedy bot, for Gymnasium and PettingZoo.

    python benchmarks/bench_rl.py [--game vikings] [--games 30] [--players 2] [--repeat 3]
    python benchmarks/bench_rl.py --game vikingatid --players 4 --games 3 --against random --only-against --cpu-time

Raw engine: `legal_actions` + `apply` for every action, chance included (Skald's `play_random_game`).
Raw + observations: the same walk, asking the engine for the tensor of each seat to act (`observation_array`), which
is what every adapter must hand over; it shows how much of an adapter's cost is the observation itself.
OpenSpiel: the same walk through `pyspiel` states (`legal_actions`, `chance_outcomes`, `apply_action`).
PettingZoo: `last()` (observation tensor and mask) + `step` for each seat's turn; chance acts inside `step`.
Gymnasium: `step` for the learner's turns; chance and the random bot act inside `step`.
The cost ratio compares seconds per whole game, since the environments count only seats' turns as steps.

Against bots: the environments with their training defaults (forced moves played by the environment). Gymnasium: one
learner choosing at random from the mask, the others the bot, inside `step`; a step is one learner decision.
PettingZoo: seat 0 chooses at random from the mask, every other agent asks the bot; a step is one agent's `step`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from skald.bots import make_bot
from skald.engine import CHANCE, get_game, play_random_game, sample_chance
from skald.rl.gymnasium_env import SkaldGymEnv
from skald.rl.openspiel import load
from skald.rl.pettingzoo_env import SkaldAECEnv

#: The clock every figure is timed by: wall time, or with `--cpu-time` this process's CPU time (a busy machine then
#: slows a figure less).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def raw(game: str, players: int, games: int) -> tuple[int, float]:
    """Actions and seconds for `games` random games through the engine."""
    skald_game, rng, steps = get_game(game), random.Random(0), 0
    start = CLOCK[0]()
    for _ in range(games):
        steps += len(play_random_game(skald_game.new_initial_state(players), rng).history)
    return steps, CLOCK[0]() - start


def raw_observed(game: str, players: int, games: int) -> tuple[int, float]:
    """Actions and seconds for `games` random games through the engine, with the tensor for each seat to act."""
    skald_game, rng, steps = get_game(game), random.Random(0), 0
    start = CLOCK[0]()
    for _ in range(games):
        state = skald_game.new_initial_state(players)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.observation_array(state.current_player())
                state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return steps, CLOCK[0]() - start


def openspiel(game: str, players: int, games: int) -> tuple[int, float]:
    """Actions and seconds through pyspiel states."""
    spiel_game, rng, steps = load(game, players), random.Random(0), 0
    start = CLOCK[0]()
    for _ in range(games):
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, CLOCK[0]() - start


def pettingzoo(game: str, players: int, games: int) -> tuple[int, float]:
    """Seats' turns and seconds through the AEC environment."""
    env, rng, steps = SkaldAECEnv(game, players), random.Random(0), 0
    start = CLOCK[0]()
    for g in range(games):
        env.reset(seed=g)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
            steps += 1
    return steps, CLOCK[0]() - start


def gymnasium(game: str, players: int, games: int, opponent: str = "random") -> tuple[int, float]:
    """Learner's turns and seconds through the Gymnasium wrapper against a bot (the random bot by default)."""
    env, rng, steps = SkaldGymEnv(game, players, opponents=opponent), random.Random(0), 0
    start = CLOCK[0]()
    for g in range(games):
        observation, _ = env.reset(seed=g)
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
            steps += 1
    return steps, CLOCK[0]() - start


def pettingzoo_against(game: str, players: int, games: int, opponent: str) -> tuple[int, float]:
    """Agents' steps and seconds through the AEC environment, seat 0 at random and the other seats the bot."""
    env, rng, steps = SkaldAECEnv(game, players), random.Random(0), 0
    start = CLOCK[0]()
    for g in range(games):
        env.reset(seed=g)
        bot = make_bot(opponent, g)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if agent == "player_0":
                env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
            else:
                env.step(bot.step(env.game_state))
            steps += 1
    return steps, CLOCK[0]() - start


def against_bots(game: str, players: int, games: int, repeat: int, opponents: list[str]) -> None:
    """Print environment steps/s against each of `opponents` (the random and the greedy bot by default), for
    Gymnasium and PettingZoo."""
    print(f"\nenvironment steps/s against bots (best of {repeat}, {games} games each)")
    print(f"{'':12} {'opponent':>8} {'steps/s':>10} {'steps/game':>11}")
    for name, run in (("Gymnasium", gymnasium), ("PettingZoo", pettingzoo_against)):
        for opponent in opponents:
            steps, seconds = min((run(game, players, games, opponent) for _ in range(repeat)), key=lambda r: r[1])
            print(f"{name:12} {opponent:>8} {steps / seconds:10.0f} {steps / games:11.1f}")


def main() -> None:
    """Print steps/s and cost per game for each adapter next to the raw engine (best of `--repeat` runs each)."""
    parser = argparse.ArgumentParser(description="Learning adapters against the raw engine")
    parser.add_argument("--game", default="vikings")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, interleaved; the fastest counts")
    parser.add_argument("--against", default="random,greedy", help="the bots to measure against, comma-separated")
    parser.add_argument("--only-against", action="store_true", help="only the environments against bots")
    parser.add_argument("--cpu-time", action="store_true", help="time by this process's CPU time, not wall time")
    args = parser.parse_args()
    if args.cpu_time:
        CLOCK[0] = time.process_time
    opponents = args.against.split(",")
    if args.only_against:
        against_bots(args.game, args.players, args.games, args.repeat, opponents)
        return
    runs = {
        "raw engine": raw,
        "raw + obs": raw_observed,
        "OpenSpiel": openspiel,
        "PettingZoo": pettingzoo,
        "Gymnasium": gymnasium,
    }
    best: dict[str, tuple[int, float]] = {}
    for _ in range(args.repeat):
        for name, run in runs.items():
            steps, seconds = run(args.game, args.players, args.games)
            if name not in best or seconds < best[name][1]:
                best[name] = (steps, seconds)
    print(f"{args.game}, {args.players} players, {args.games} random games each, best of {args.repeat}")
    print(f"{'':12} {'steps/s':>10} {'ms/game':>9} {'cost vs raw':>12}")
    base = best["raw engine"][1] / args.games
    for name, (steps, seconds) in best.items():
        per_game = seconds / args.games
        print(f"{name:12} {steps / seconds:10.0f} {per_game * 1e3:9.2f} {per_game / base:11.2f}x")
    against_bots(args.game, args.players, args.games, args.repeat, opponents)


if __name__ == "__main__":
    main()
