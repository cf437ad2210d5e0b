"""A finished game reviewed by the MCTS bot, move by move.

At every decision where the mover had a choice, the bot searches the position as it would to move there (seeing, in
a game with hidden information, only what the mover knew) and reports each seat's estimated chances and the move it
would have chosen; it then estimates the mover's chances right after the move played, from the mover's point of
view again. The move's *drop* is the mover's estimate before it less the estimate after it; the moves with the
largest drops, by at least `MARK_DROP`, are marked, at most `MARKS_PER_SEAT` for each seat. The estimate after the
move is taken before any chance draw that follows it, so the luck of a draw is not counted against the move.

A review has a budget: `TOTAL_ITERATIONS` iterations shared out among its searches, and at most `MOST_DECISIONS`
decisions looked at — in a longer game every n-th decision with a choice, evenly through the game, so that each
seat's moves from start to end are looked at. Within it, a review is a pure function of the game: the bot's seed and
its generator are fixed by the position, so the same game always gets the same review. Past `SECONDS` of CPU time
(of the thread that makes it), or `WALL_SECONDS` on the clock, a review stops where it is and says so (`complete`
false): on a 4-player Vikingatid
game, the longest of the games, a review then still ends within three minutes of one core.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from skald.bots.mcts import LEVELS, MCTSBot, MCTSConfig
from skald.engine import PERFECT, get_game

#: The mover's estimated chances must fall by at least this much across a move for it to be marked.
MARK_DROP = 0.1
#: The most moves marked for each seat.
MARKS_PER_SEAT = 3
#: Iterations in all, shared out among the searches of a long game (two a decision: before and after the move; each
#: has the normal level's at most, and never fewer than `FEWEST`), so that a review of thousands of decisions ends.
TOTAL_ITERATIONS = 60_000
FEWEST = 50
#: The most decisions a review looks at: as many as get `FEWEST` iterations a search within the total.
MOST_DECISIONS = TOTAL_ITERATIONS // (2 * FEWEST)
#: CPU seconds, and seconds on the clock (a busy machine shares its cores), after which a review stops where it is
#: (it then says how far it got).
SECONDS = 150.0
WALL_SECONDS = 170.0
#: The review's format, in what it returns.
FORMAT = "skald-review/1"


def decisions(game_name: str, players: int, options: dict[str, Any], actions: list[int]) -> int:
    """How many of a game's actions were chosen by a seat among two or more."""
    state = get_game(game_name).new_initial_state(players, options)
    count = 0
    for action in actions:
        if state.current_player() >= 0 and len(state.legal_actions()) > 1:
            count += 1
        state.apply(action)
    return count


#: What `progress` is told after each decision: decisions looked at so far, how many will be, the moves so far.
Progress = Callable[[int, int, list[dict[str, Any]]], None]


def review(
    game_name: str,
    players: int,
    options: dict[str, Any],
    actions: list[int],
    iterations: int | None = None,
    progress: Progress | None = None,
    seconds: float = SECONDS,
) -> dict[str, Any]:
    """The review of the game played by `actions` (see the module's text): `{"format", "iterations", "decisions",
    "every", "reviewed", "complete", "moves": [{"ply", "seat", "played", "best", "chances", "after", "drop",
    "marked"}]}`, one entry per decision looked at, in order (every `every`-th of the `decisions` with a choice).
    `chances` are every seat's estimates before the move, `after` the mover's after it (its share of the result when
    the move ended the game). `progress(done, planned, moves)` is told after each decision looked at; past `seconds`
    of CPU time the review stops (`complete` false)."""
    game = get_game(game_name)
    total = decisions(game_name, players, options, actions)
    every = max(1, -(-total // MOST_DECISIONS))
    planned = -(-total // every)
    if iterations is None:
        iterations = max(FEWEST, min(_normal_iterations(), TOTAL_ITERATIONS // max(2 * planned, 1)))
    bot = MCTSBot("mcts:review", seed=0, config=MCTSConfig(iterations=iterations))
    perfect = game.information == PERFECT
    state = game.new_initial_state(players, options)
    # The search from the position after a move, kept for the next decision when it is the same search (in a game
    # without hidden information, where the point of view does not change what is searched).
    kept: tuple[int, list[float], int] | None = None
    moves: list[dict[str, Any]] = []
    seen = 0
    complete = True
    started, clock = time.thread_time(), time.monotonic()
    for ply, action in enumerate(actions):
        mover = state.current_player()
        if mover < 0 or len(state.legal_actions()) < 2:
            state.apply(action)
            continue
        seen += 1
        if (seen - 1) % every:
            state.apply(action)
            continue
        if time.thread_time() - started > seconds or time.monotonic() - clock > seconds * WALL_SECONDS / SECONDS:
            complete = False
            break
        if perfect and kept is not None and kept[0] == ply:
            before_values, best = kept[1], kept[2]
        else:
            found = bot.analyse(state)
            before_values, best = found.values, found.action
        played = state.action_to_notation(action)
        suggested = state.action_to_notation(best) if best >= 0 else played
        state.apply(action)
        after = bot.analyse(state, perspective=mover)
        kept = (ply + 1, after.values, after.action) if state.current_player() >= 0 else None
        moves.append(
            {
                "ply": ply,
                "seat": mover,
                "played": played,
                "best": suggested,
                "chances": [round(value, 3) for value in before_values],
                "after": round(after.values[mover], 3),
                "drop": round(before_values[mover] - after.values[mover], 3),
                "marked": False,
            }
        )
        if progress is not None:
            progress(len(moves), planned, moves)
    mark(moves, players)
    return {
        "format": FORMAT,
        "iterations": iterations,
        "decisions": total,
        "every": every,
        "reviewed": len(moves),
        "complete": complete,
        "moves": moves,
    }


def mark(moves: list[dict[str, Any]], players: int) -> None:
    """Mark each seat's largest drops of at least `MARK_DROP`, `MARKS_PER_SEAT` at most (and unmark the rest)."""
    for move in moves:
        move["marked"] = False
    for seat in range(players):
        own = sorted((m for m in moves if m["seat"] == seat), key=lambda m: (-m["drop"], m["ply"]))
        for move in own[:MARKS_PER_SEAT]:
            if move["drop"] >= MARK_DROP:
                move["marked"] = True


def _normal_iterations() -> int:
    """The normal level's iterations per search: a review thinks as hard as `mcts:normal` does over a move."""
    normal = LEVELS["normal"].iterations
    assert normal is not None
    return normal
