"""How long the bot takes to review a finished game (`skald.bots.review`), on one core, as a web table's bot worker
makes it.

    python benchmarks/bench_review.py [--game vikings] [--players 2] [--games 3] [--bots mcts:easy,greedy]

Plays `games` games between the `bots` (seat i the i-th, cycling; game i from seed i, chance by its odds), then times
the review of each. Prints the decisions reviewed, the iterations each search had, the seconds, and how many moves
were marked. The target: any game reviewed within 3 minutes on one core (`--game vikingatid --players 4 --bots
random` is the longest).
"""

from __future__ import annotations

import argparse
import random
import time

from skald.bots import make_bot
from skald.bots.review import review
from skald.build import build_name
from skald.engine import CHANCE, get_game


def played(game_name: str, players: int, specs: list[str], seed: int) -> list[int]:
    """The actions of one game between the bots `specs`."""
    state = get_game(game_name).new_initial_state(players, {})
    bots = [make_bot(specs[seat % len(specs)], seed=seed * 10 + seat) for seat in range(players)]
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(state.sample_chance_outcome(rng) if player == CHANCE else bots[player].step(state))
    return list(state.history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="vikings")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--bots", default="mcts:easy,greedy", help="comma-separated bot specs, one per seat, cycled")
    args = parser.parse_args()
    specs = args.bots.split(",")
    print(f"{args.game}, {args.players} players, bots {', '.join(specs)}; {build_name()}")
    times = []
    for seed in range(args.games):
        actions = played(args.game, args.players, specs, seed)
        started, cpu = time.perf_counter(), time.process_time()
        made = review(args.game, args.players, {}, actions)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        times.append(seconds)
        marked = sum(move["marked"] for move in made["moves"])
        print(
            f"game {seed}: {len(actions)} actions, {made['reviewed']} of {made['decisions']} decisions reviewed "
            f"(every {made['every']}, complete: {made['complete']}) at {made['iterations']} iterations each, "
            f"{marked} marked: {seconds:.1f} s wall, {cpu:.1f} s CPU"
        )
    print(f"review of one game: mean {sum(times) / len(times):.1f} s, longest {max(times):.1f} s (target: < 180 s)")


if __name__ == "__main__":
    main()
