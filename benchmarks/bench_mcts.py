"""MCTS speed on Vikings: iterations per second and the median and worst move time of each level.

Run: .venv/bin/python benchmarks/bench_mcts.py [--positions 30] [--players 2 3 4] [--levels easy normal hard]

Positions come from seeded greedy self-play (every few decisions, so early, middle and late game all appear);
each level searches every position once on this one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from skald.bots import LEVELS, MCTSBot, make_bot
from skald.build import build_name
from skald.engine import CHANCE, State, get_game, sample_chance


def positions(game: str, players: int, count: int, seed: int) -> list[State]:
    """Positions with a real choice (two or more legal actions) spread over greedy self-play games."""
    rng = random.Random(seed)
    found: list[State] = []
    game_index = 0
    while len(found) < count:
        state = get_game(game).new_initial_state(players)
        bots = [make_bot("greedy", seed * 100 + game_index * 10 + seat) for seat in range(players)]
        game_index += 1
        while not state.is_terminal() and len(found) < count:
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.12:
                found.append(state.clone())
            state.apply(bots[player].step(state))
    return found


def main() -> None:
    """Print one line per level and player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vikings")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS))
    args = parser.parse_args()
    print(
        f"{args.game}, {len(args.levels) * len(args.players)} runs of {args.positions} positions; build: {build_name()}"
    )
    print(f"{'level':8} {'players':>7} {'iters':>6} {'iters/s':>9} {'median s':>9} {'worst s':>8}")
    for level in args.levels:
        for players in args.players:
            bot = make_bot(f"mcts:{level}", seed=1)
            assert isinstance(bot, MCTSBot)
            times: list[float] = []
            iterations = 0
            for state in positions(args.game, players, args.positions, seed=players):
                started = time.perf_counter()
                bot.step(state)
                times.append(time.perf_counter() - started)
                iterations += bot.last_iterations
            rate = iterations / sum(times)
            print(
                f"{level:8} {players:>7} {bot.config.iterations or 0:>6} {rate:>9.0f} "
                f"{statistics.median(times):>9.3f} {max(times):>8.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
