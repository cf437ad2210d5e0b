"""MCTS speed: iterations per second and the median, mean and worst move time of each level (Vikings by default).

Run: .venv/bin/python benchmarks/bench_mcts.py [--game vikingatid] [--positions 30] [--players 2 3 4]
[--levels easy normal hard]

Positions come from seeded greedy self-play (every few decisions, so early, middle and late game all appear);
each level searches every position once on this one core. Times are the CPU time of this process, so other jobs on
the machine do not inflate them. `iters` is the mean a move ran: a search stops once more iterations could not
change its choice, so it is often below the level's budget.
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
    print(
        f"{'level':8} {'players':>7} {'budget':>6} {'iters':>6} {'iters/s':>9} {'median s':>9} {'mean s':>7} "
        f"{'worst s':>8}"
    )
    for level in args.levels:
        for players in args.players:
            bot = make_bot(f"mcts:{level}", seed=1)
            assert isinstance(bot, MCTSBot)
            times: list[float] = []
            iterations = 0
            for state in positions(args.game, players, args.positions, seed=players):
                started = time.process_time()
                bot.step(state)
                times.append(time.process_time() - started)
                iterations += bot.last_iterations
            rate = iterations / sum(times)
            print(
                f"{level:8} {players:>7} {bot.config.iterations or 0:>6} {iterations / len(times):>6.0f} "
                f"{rate:>9.0f} {statistics.median(times):>9.3f} {statistics.fmean(times):>7.3f} {max(times):>8.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
