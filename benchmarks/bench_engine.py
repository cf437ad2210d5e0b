"""Engine speed on one core: random games/s, actions/s, clone() µs and MCTS iterations/s, against an anchor.

Run: .venv/bin/python benchmarks/bench_engine.py [--quick] [--vikingatid-only] [--seconds 2] [--slice 0.25] [--json]

Every figure is measured in short slices taken in turn (round robin), so that whatever else the machine is doing
hits all figures alike. The anchor is OpenSpiel's C++ backgammon played at random from Python in the same process
(`pyspiel.load_game("backgammon")`); each figure is also given relative to it, so that runs on different or busy
machines compare: a rate divided by the anchor's games/s, and for clone() the share of one backgammon game's time
that one clone takes. The range beside each figure is the lowest and highest of its slices.

A second table puts Vikingatid beside Vikings 4p measured in the same run, each figure as a ratio to Vikings 4p's
matching one: clone() mid-game at 2, 4 and 6 players and `resample_from_infostate` at 2, 4 and 6 (the median over the
positions of each one's mean time) against Vikings 4p's clone() (a perfect-information game's resample is a clone),
random play's actions/s with cards on (4 players) and MCTS iterations/s (4 players, the same budget a move).
`--quick` (0.5 s a figure in 0.1 s slices, 3 positions a player count) and `--vikingatid-only` (that table's figures
alone) keep a run to a few seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from skald.engine import CHANCE, State, get_game, play_random_game, sample_chance

#: A slice runs a workload until this many seconds have passed and says how many units it did.
Workload = Callable[[float], tuple[int, int]]


@dataclass
class Figure:
    """One measured figure: its name and unit, and what each slice did (units, extra count, seconds)."""

    name: str
    unit: str
    run: Workload
    #: "rate": units per second; "micros": µs per unit; "median micros": µs per unit, the median over the
    #: positions (`by_position`) of each one's mean.
    kind: str = "rate"
    extra_unit: str = ""
    slices: list[tuple[int, int, float]] = field(default_factory=list)
    #: For "median micros": the seconds of every call, by position (the workload appends to them).
    by_position: list[list[float]] = field(default_factory=list)

    def total(self) -> tuple[int, int, float]:
        """Units, extra units and seconds over all slices."""
        units = sum(s[0] for s in self.slices)
        extra = sum(s[1] for s in self.slices)
        return units, extra, sum(s[2] for s in self.slices)

    def value(self) -> float:
        """Units per second (or µs per unit) over all slices."""
        units, _, seconds = self.total()
        if self.kind == "median micros":
            means = [sum(times) / len(times) for times in self.by_position if times]
            return statistics.median(means) * 1e6 if means else float("nan")
        if self.kind == "micros":
            return seconds / units * 1e6 if units else float("nan")
        return units / seconds if seconds else float("nan")

    def extra_rate(self) -> float:
        """Extra units (actions) per second over all slices."""
        _, extra, seconds = self.total()
        return extra / seconds if seconds else float("nan")

    def slice_values(self) -> list[float]:
        """The figure as each slice measured it."""
        found = []
        for units, _, seconds in self.slices:
            if units and seconds:
                found.append(seconds / units * 1e6 if self.kind != "rate" else units / seconds)
        return found


def random_games(game_name: str, players: int, options: dict[str, Any] | None = None) -> Workload:
    """Whole random games (skald.engine.play_random_game) from the initial state; extra: actions, chance included."""
    game = get_game(game_name)
    seeds = iter(range(10**9))

    def run(seconds: float) -> tuple[int, int]:
        played = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = play_random_game(game.new_initial_state(players, options), random.Random(next(seeds)))
            played += 1
            actions += len(state.history)
        return played, actions

    return run


def mid_game_positions(game_name: str, players: int, count: int, options: dict[str, Any] | None = None) -> list[State]:
    """Positions 40%–70% of the way through seeded random games, each a seat's choice among two or more actions."""
    game = get_game(game_name)
    found = []
    for seed in range(count):
        length = len(play_random_game(game.new_initial_state(players, options), random.Random(seed)).history)
        rng = random.Random(seed)
        state = game.new_initial_state(players, options)
        stop = int(length * (0.4 + 0.3 * seed / max(count - 1, 1)))
        while len(state.history) < stop or state.current_player() == CHANCE or len(state.legal_actions()) < 2:
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return found


def clones(positions: list[State]) -> Workload:
    """clone() of mid-game positions, in batches of 200."""

    def run(seconds: float) -> tuple[int, int]:
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for state in positions:
                for _ in range(200 // len(positions)):
                    state.clone()
                done += 200 // len(positions)
        return done, 0

    return run


def resamples(positions: list[State], by_position: list[list[float]]) -> Workload:
    """`resample_from_infostate` for the seat to act at each position in turn, each call timed into
    `by_position` (one list a position); a call that finds no world (`RuntimeError`) counts its time too."""
    by_position.extend([] for _ in positions)
    seeds = iter(range(10**9))

    def run(seconds: float) -> tuple[int, int]:
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for index, state in enumerate(positions):
                seat = state.current_player()
                rng = random.Random(next(seeds))
                started = time.perf_counter()
                with contextlib.suppress(RuntimeError):
                    state.resample_from_infostate(seat, rng)
                by_position[index].append(time.perf_counter() - started)
                done += 1
        return done, 0

    return run


def mcts_iterations(positions: list[State], iterations: int) -> Workload:
    """MCTS (the shipped bot, through make_bot and step) searching the positions in turn; units: iterations."""
    from skald.bots import MCTSBot, make_bot

    bot = make_bot(f"mcts:iters={iterations}", seed=1)
    assert isinstance(bot, MCTSBot)
    turn = iter(range(10**9))

    def run(seconds: float) -> tuple[int, int]:
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            bot.step(positions[next(turn) % len(positions)])
            done += bot.last_iterations
        return done, 0

    return run


def backgammon_games() -> Workload | None:
    """The anchor: OpenSpiel's C++ backgammon, random play driven from Python; None when pyspiel is missing."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(7)

    def play() -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = rng.random()
                total = 0.0
                chosen = outcomes[-1][0]
                for action, probability in outcomes:
                    total += probability
                    if pick < total:
                        chosen = action
                        break
                state.apply_action(chosen)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    def run(seconds: float) -> tuple[int, int]:
        played = actions = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            actions += play()
            played += 1
        return played, actions

    return run


def build_name() -> str:
    """Which build of skald runs: compiled (mypyc) or pure Python (`skald --version` says the same)."""
    try:
        from skald.build import build_name as name
    except ImportError:  # a skald older than the compiled build
        return "pure Python"
    return name()


#: Vikingatid's figures beside Vikings 4p's (`COMPARED`): (Vikingatid figure, Vikings 4p figure, what is compared).
VIKINGS_4P_CLONE = "vikings base 4p clone() mid-game"
VIKINGS_4P_RANDOM = "vikings base 4p random games"


def vikings_4p_mcts(mcts_iters: int) -> str:
    """The name of Vikings 4p's MCTS figure."""
    return f"vikings base 4p MCTS (iters={mcts_iters} a move)"


def compared(mcts_iters: int) -> list[tuple[str, str, str]]:
    """Each Vikingatid figure of the comparison, the Vikings 4p figure it is divided by, and how ("µs": time per
    call, "actions/s", "rate")."""
    pairs = [(f"vikingatid {n}p clone() mid-game", VIKINGS_4P_CLONE, "µs") for n in (2, 4, 6)]
    pairs += [(f"vikingatid {n}p resample_from_infostate (median)", VIKINGS_4P_CLONE, "µs") for n in (2, 4, 6)]
    pairs.append(("vikingatid 4p random games", VIKINGS_4P_RANDOM, "actions/s"))
    pairs.append((f"vikingatid 4p MCTS (iters={mcts_iters} a move)", vikings_4p_mcts(mcts_iters), "rate"))
    return pairs


def vikingatid_figures(mcts_iters: int, positions: int) -> list[Figure]:
    """The figures of the comparison with Vikings 4p: Vikings 4p's three, then Vikingatid's (positions shared by the
    clone and resample figures of one player count)."""
    found = [
        Figure(VIKINGS_4P_RANDOM, "games/s", random_games("vikings", 4, {"variant": "base"}), extra_unit="actions/s"),
        Figure(VIKINGS_4P_CLONE, "µs", clones(mid_game_positions("vikings", 4, 10)), kind="micros"),
        Figure(
            vikings_4p_mcts(mcts_iters),
            "iterations/s",
            mcts_iterations(mid_game_positions("vikings", 4, 8), mcts_iters),
        ),
    ]
    found.append(Figure("vikingatid 4p random games", "games/s", random_games("vikingatid", 4), extra_unit="actions/s"))
    for players in (2, 4, 6):
        at = mid_game_positions("vikingatid", players, positions)
        found.append(Figure(f"vikingatid {players}p clone() mid-game", "µs", clones(at), kind="micros"))
        figure = Figure(f"vikingatid {players}p resample_from_infostate (median)", "µs", clones([]))
        figure.kind = "median micros"
        figure.run = resamples(at, figure.by_position)
        found.append(figure)
        if players == 4:
            iterations = mcts_iterations(at, mcts_iters)
            found.append(Figure(f"vikingatid 4p MCTS (iters={mcts_iters} a move)", "iterations/s", iterations))
    return found


def figures(mcts_iters: int, positions: int = 10, vikingatid_only: bool = False) -> list[Figure]:
    """Every figure the benchmark measures, the anchor first, then the other games', then the comparison's
    (`vikingatid_figures`; with `vikingatid_only`, the anchor and those alone)."""
    found: list[Figure] = []
    anchor = backgammon_games()
    if anchor is not None:
        found.append(Figure("backgammon (OpenSpiel C++) random games", "games/s", anchor, extra_unit="actions/s"))
    if not vikingatid_only:
        for variant, counts in (("base", (2, 3)), ("advanced", (2, 3, 4))):
            for players in counts:
                found.append(
                    Figure(
                        f"vikings {variant} {players}p random games",
                        "games/s",
                        random_games("vikings", players, {"variant": variant}),
                        extra_unit="actions/s",
                    )
                )
        found.append(
            Figure("vikingdoms 2p random games", "games/s", random_games("vikingdoms", 2), extra_unit="actions/s")
        )
        found.append(
            Figure(
                "vikingatid 4p random games, cards off",
                "games/s",
                random_games("vikingatid", 4, {"card_windows": "off"}),
                extra_unit="actions/s",
            )
        )
        found.append(
            Figure(
                "vikings base 2p clone() mid-game",
                "µs",
                clones(mid_game_positions("vikings", 2, 10)),
                kind="micros",
            )
        )
    found.extend(vikingatid_figures(mcts_iters, positions))
    return found


def measure(found: list[Figure], seconds: float, slice_seconds: float) -> None:
    """Run every figure's slices in turn until each has had `seconds`."""
    for figure in found:  # warm-up: caches, imports, first allocations
        figure.run(min(slice_seconds, 0.05))
    rounds = max(1, round(seconds / slice_seconds))
    for _ in range(rounds):
        for figure in found:
            started = time.perf_counter()
            units, extra = figure.run(slice_seconds)
            figure.slices.append((units, extra, time.perf_counter() - started))


def comparison(found: list[Figure]) -> list[dict[str, Any]]:
    """Each Vikingatid figure of the comparison beside its Vikings 4p figure and their ratio (Vikingatid's time or
    rate over Vikings 4p's), for the pairs measured in this run."""
    by_name = {figure.name: figure for figure in found}
    rows = []
    for name, anchor_name, what in compared(_mcts_iters(found)):
        mine, theirs = by_name.get(name), by_name.get(anchor_name)
        if mine is None or theirs is None:
            continue
        if what == "actions/s":
            value, base = mine.extra_rate(), theirs.extra_rate()
        else:
            value, base = mine.value(), theirs.value()
        unit = "µs" if what == "µs" else what if what == "actions/s" else mine.unit
        rows.append(
            {
                "name": name,
                "unit": unit,
                "value": round(value, 3),
                "vikings_4p": anchor_name,
                "vikings_4p_value": round(base, 3),
                "ratio": round(value / base, 3) if base else None,
            }
        )
    return rows


def _mcts_iters(found: list[Figure]) -> int:
    """The MCTS budget a move of this run's figures (read back from Vikings 4p's MCTS figure's name)."""
    for figure in found:
        if figure.name.startswith("vikings base 4p MCTS (iters="):
            return int(figure.name.split("iters=")[1].split()[0])
    return 0


def report(found: list[Figure], seconds: float, slice_seconds: float) -> dict[str, Any]:
    """The figures as JSON-ready data, each with its range over slices and its ratio to the anchor."""
    anchor = next((f for f in found if f.name.startswith("backgammon")), None)
    anchor_rate = anchor.value() if anchor is not None else None
    rows = []
    for figure in found:
        value = figure.value()
        per_slice = figure.slice_values()
        row: dict[str, Any] = {
            "name": figure.name,
            "unit": figure.unit,
            "value": round(value, 3),
            "low": round(min(per_slice), 3) if per_slice else None,
            "high": round(max(per_slice), 3) if per_slice else None,
            "median": round(statistics.median(per_slice), 3) if per_slice else None,
        }
        if figure.extra_unit:
            row[figure.extra_unit.replace("/", "_per_")] = round(figure.extra_rate(), 1)
        if anchor_rate:
            if figure.kind != "rate":
                row["share_of_anchor_game"] = round(value * 1e-6 * anchor_rate, 5)
            else:
                row["per_anchor"] = round(value / anchor_rate, 3)
        rows.append(row)
    return {
        "vikingatid_vs_vikings_4p": comparison(found),
        "build": build_name(),
        "python": sys.version.split()[0],
        "seconds_per_figure": seconds,
        "slice_seconds": slice_seconds,
        "anchor": anchor.name if anchor is not None else None,
        "figures": rows,
    }


def print_table(data: dict[str, Any]) -> None:
    """The report as a table."""
    print(
        f"skald build: {data['build']} · Python {data['python']} · {data['seconds_per_figure']} s a figure in "
        f"{data['slice_seconds']} s slices, interleaved · one core"
    )
    print(f"{'figure':44} {'value':>10} {'unit':13} {'range (slices)':>19} {'vs anchor':>10}  {'actions/s':>10}")
    for row in data["figures"]:
        if "per_anchor" in row:
            ratio = f"×{row['per_anchor']:.2f}"
        elif "share_of_anchor_game" in row:
            ratio = f"{row['share_of_anchor_game'] * 1000:.3f}‰"
        else:
            ratio = "—"
        spread = f"{row['low']:,.1f}–{row['high']:,.1f}" if row["low"] is not None else "—"
        actions = f"{row['actions_per_s']:,.0f}" if "actions_per_s" in row else ""
        print(f"{row['name']:44} {row['value']:>10,.1f} {row['unit']:13} {spread:>19} {ratio:>10}  {actions:>10}")
    if data["anchor"] is None:
        print("(no anchor: pyspiel is not installed; pip install 'skald[rl]')")
    if data["vikingatid_vs_vikings_4p"]:
        print("\nVikingatid beside Vikings 4p, same run (ratio: Vikingatid's time a call, or rate, over Vikings 4p's)")
        print(f"{'figure':50} {'value':>10} {'unit':13} {'Vikings 4p':>11} {'ratio':>8}")
        for row in data["vikingatid_vs_vikings_4p"]:
            ratio = f"×{row['ratio']:.2f}" if row["ratio"] is not None else "—"
            print(
                f"{row['name']:50} {row['value']:>10,.1f} {row['unit']:13} {row['vikings_4p_value']:>11,.1f} {ratio:>8}"
            )


def main(argv: list[str] | None = None) -> None:
    """Measure and print (`argv`: the command line's arguments, by default `sys.argv`'s)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of measurement for each figure")
    parser.add_argument("--slice", type=float, default=0.25, help="seconds of one slice")
    parser.add_argument("--mcts-iters", type=int, default=200, help="MCTS iterations a move")
    parser.add_argument("--positions", type=int, default=8, help="mid-game Vikingatid positions a player count")
    parser.add_argument("--quick", action="store_true", help="0.5 s a figure in 0.1 s slices, 3 positions")
    parser.add_argument("--vikingatid-only", action="store_true", help="only Vikingatid beside Vikings 4p")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.slice, args.positions = 0.5, 0.1, 3
    if args.seconds <= 0 or args.slice <= 0 or args.positions <= 0:
        parser.error("--seconds, --slice and --positions must be positive")
    found = figures(args.mcts_iters, args.positions, args.vikingatid_only)
    measure(found, args.seconds, args.slice)
    data = report(found, args.seconds, args.slice)
    if args.json:
        print(json.dumps(data, indent=1))
    else:
        print_table(data)


if __name__ == "__main__":
    main()
