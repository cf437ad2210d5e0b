"""Where Vikingatid's heuristic worth drifts: greedy self-play games, and the change of the seats' summed worth
(`game.evaluate`, what greedy and MCTS's leaves read) at every step, grouped by the phases before and after it and
by what moved (chance, a seat's choice, a seat's only action).

A worth that foresaw the game well would change little on average where nothing is chosen: a forced step or a phase
change that moves it the same way every time is something the worth does not foresee, and a search that looks
further ahead finds it. Prints the groups that moved the sum most in total. With `--phase N` the steps taken in
phase N are grouped by the step they were taken at instead (its name in `steps.STEPS`): in phase 6, for example,
the launch of a fleet ("say how many ships sail") and the card windows after each move, where what the move did
comes into the table.

Run: .venv/bin/python benchmarks/vikingatid_worth_drift.py [--games 6] [--players 4] [--rows 12] [--phase N]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from skald.bots import make_bot
from skald.bots.evaluation import evaluations
from skald.engine import CHANCE, get_game, sample_chance
from skald.games.vikingatid.steps import STEPS

#: Each step's name by its id.
STEP_NAMES = {step.id: step.name for step in STEPS}


def drift(games: int, players: int, phase: int | None = None) -> dict[tuple[str, str], list[float]]:
    """The change of the summed worth at each step of `games` greedy games, by (phases before → after, kind); with
    `phase`, only the steps taken in that phase, by (the step's name, kind)."""
    changes: dict[tuple[str, str], list[float]] = defaultdict(list)
    for seed in range(games):
        rng = random.Random(seed)
        state = get_game("vikingatid").new_initial_state(players)
        bots = [make_bot("greedy", seat) for seat in range(players)]
        before = sum(evaluations(state))
        while True:
            before_phase = state.position.phase  # type: ignore[attr-defined]
            step = state.step  # type: ignore[attr-defined]
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                kind = "chance"
            else:
                kind = "choice" if len(state.legal_actions()) > 1 else "forced"
                state.apply(bots[player].step(state))
            after = sum(evaluations(state))  # at the end: the final VP (silver a tie-break)
            if phase is None:
                changes[(f"{before_phase} → {state.position.phase}", kind)].append(after - before)  # type: ignore[attr-defined]
            elif before_phase == phase:
                changes[(STEP_NAMES.get(step, str(step)), kind)].append(after - before)
            if state.is_terminal():
                break
            before = after
    return changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--rows", type=int, default=12)
    parser.add_argument("--phase", type=int, default=None, choices=range(11), help="group this phase's steps by step")
    args = parser.parse_args()
    changes = drift(args.games, args.players, args.phase)
    where = "by step" if args.phase is None else f"in phase {args.phase}, by the step taken"
    print(f"{args.games} greedy games of {args.players} players: change of the seats' summed worth, {where}")
    label = "phases" if args.phase is None else "step"
    width = max([len(label), *(len(group) for group, _ in changes)])
    print(f"{label:>{width}} {'kind':>7} {'steps':>6} {'total':>8} {'mean':>7} {'min':>7} {'max':>7}")
    for (group, kind), values in sorted(changes.items(), key=lambda item: -abs(sum(item[1])))[: args.rows]:
        mean = sum(values) / len(values)
        print(
            f"{group:>{width}} {kind:>7} {len(values):>6} {sum(values):>8.1f} {mean:>7.3f} "
            f"{min(values):>7.2f} {max(values):>7.2f}"
        )


if __name__ == "__main__":
    main()
