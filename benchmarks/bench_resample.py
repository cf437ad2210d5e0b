"""How often, and how fast, a game with hidden information deals a world a seat cannot tell from the true one.

    python benchmarks/bench_resample.py [--game vikingatid] [--players 4] [--games 4] [--every 250]
    python benchmarks/bench_resample.py --position tests/vikingatid/records/forward_search_stuck.json [--draws 20]

Random games (each decision uniformly among the legal ones, chance by its odds; game i from seed i); every `every`
plies each seat asks `resample_from_infostate`. Prints the positions asked, how many found no world
(`RuntimeError`), and the mean and longest time of one resample. Bots resample at every decision (MCTS at every
iteration), so this is the figure their speed rests on.

With `--position` (a kept position: a JSON file of `game`, default vikingatid, `players`, `seat` and `actions`), it
resamples that seat `--draws` times instead, from seeds 0, 1, …, and prints the mean, median and longest time: the
figure for the hardest positions known, which random games seldom reach.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from skald.engine import CHANCE, get_game


def measure(game_name: str, players: int, games: int, every: int) -> tuple[int, int, float, float]:
    """(positions, failures, mean seconds, longest seconds) over `games` random games."""
    game = get_game(game_name)
    asked = failed = 0
    total = longest = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(players)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance_outcome(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            if len(state.history) % every:
                continue
            for seat in range(players):
                asked += 1
                start = time.perf_counter()
                try:
                    state.resample_from_infostate(seat, random.Random(len(state.history) + seat))
                except RuntimeError:
                    failed += 1
                spent = time.perf_counter() - start
                total += spent
                longest = max(longest, spent)
    return asked, failed, total / max(asked, 1), longest


def measure_position(path: Path, draws: int) -> tuple[str, list[float]]:
    """(what the position is, seconds of each resample) for `draws` resamples of a kept position."""
    data = json.loads(path.read_text())
    game = get_game(data.get("game", "vikingatid"))
    state = game.new_initial_state(data["players"])
    for action in data["actions"]:
        state.apply(action)
    times = []
    for seed in range(draws):
        start = time.perf_counter()
        state.resample_from_infostate(data["seat"], random.Random(seed))
        times.append(time.perf_counter() - start)
    return f"{path.name} ({data['players']}p, seat {data['seat']}, {len(data['actions'])} actions)", times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="vikingatid")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--every", type=int, default=250, help="plies between two rounds of resampling")
    parser.add_argument("--position", type=Path, action="append", help="a kept position to resample (repeatable)")
    parser.add_argument("--draws", type=int, default=20, help="resamples of each kept position")
    args = parser.parse_args()
    if args.position:
        for path in args.position:
            name, times = measure_position(path, args.draws)
            print(
                f"{name}: {len(times)} resamples, {statistics.mean(times) * 1000:.0f} ms mean, "
                f"{statistics.median(times) * 1000:.0f} ms median, {max(times) * 1000:.0f} ms longest"
            )
        return
    asked, failed, mean, longest = measure(args.game, args.players, args.games, args.every)
    print(
        f"{args.game} {args.players}p, {args.games} random games: {asked} resamples, {failed} found no world; "
        f"{mean * 1000:.1f} ms mean, {longest * 1000:.0f} ms longest"
    )


if __name__ == "__main__":
    main()
