"""Engine speed: random full games of Vikings per second (one core) and the cost of clone().

Run: python benchmarks/bench_engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from skald.engine import get_game, play_random_game


def games_per_second(players: int, seconds: float) -> tuple[float, float]:
    """Random full games per second, and actions (chance included) per second."""
    game = get_game("vikings")
    played = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = play_random_game(game.new_initial_state(players), random.Random(played))
        actions += len(state.history)
        played += 1
    elapsed = time.perf_counter() - start
    return played / elapsed, actions / elapsed


def clone_microseconds(players: int, repeats: int = 20000) -> float:
    """Median time of one clone() of a mid-game position, in µs."""
    game = get_game("vikings")
    state = game.new_initial_state(players)
    rng = random.Random(1)
    from skald.engine import CHANCE, sample_chance

    while len(state.history) < 180:
        state.apply(
            sample_chance(state, rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
        )
    samples = []
    for _ in range(20):
        start = time.perf_counter()
        for _ in range(repeats // 20):
            state.clone()
        samples.append((time.perf_counter() - start) / (repeats // 20) * 1e6)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of play per player count")
    args = parser.parse_args()
    for players in (2, 3, 4):
        games, actions = games_per_second(players, args.seconds)
        print(f"vikings {players} players: {games:7.0f} random games/s  ({actions:,.0f} actions/s, one core)")
    for players in (2, 4):
        print(f"vikings {players} players: clone() {clone_microseconds(players):.1f} µs (mid-game position)")


if __name__ == "__main__":
    main()
