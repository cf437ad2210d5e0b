"""What runs inside a bot worker process (see `skald.web.botpool`): rebuild the position a job describes and ask
its bot for a move, or review a finished game.

The module imports every registered game when it is imported, so that the fork server that starts the workers
(which preloads this module) has them all in memory and each worker starts ready.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import threading
import time
from collections import OrderedDict
from typing import Any, NamedTuple

from skald.bots.base import Bot
from skald.bots.review import mark, review
from skald.bots.spec import make_bot
from skald.engine import State, game_names, get_game

#: Positions a worker keeps, one per game, so that the next bot move in a game replays only the new actions.
STATE_CACHE = 64


class BotJob(NamedTuple):
    """One bot move to compute: the game as the server stores it (name, seats, options, actions so far) and the bot
    to move (its seat, spec and seed) — what the server itself replays when it loads the game."""

    game_id: str
    game: str
    players: int
    options: dict[str, Any]
    actions: list[int]
    seat: int
    spec: str
    seed: int
    #: The most seconds the bot's search may take (`Bot.within`), or None: its own budget.
    within: float | None = None


class BotAnswer(NamedTuple):
    """The bot's action, and the worker process that chose it (its pid) and how long it thought (seconds)."""

    action: int
    pid: int
    seconds: float


class ReviewJob(NamedTuple):
    """A finished game to review (`skald.bots.review`): the game as the server stores it, and the file the worker
    writes its progress to (none: no progress is written)."""

    game_id: str
    game: str
    players: int
    options: dict[str, Any]
    actions: list[int]
    progress_path: str = ""


#: Seconds between two writes of a review's progress.
PROGRESS_EVERY = 1.0


def review_game(job: ReviewJob) -> tuple[dict[str, Any], float]:
    """The review of `job`'s game, and the seconds it took; its progress is written to `job.progress_path` as it
    goes (`{"done", "planned", "moves"}`: the decisions looked at, how many will be, the moves so far, marked as
    they would be if the review ended there), at most once every `PROGRESS_EVERY` seconds."""
    started = time.perf_counter()
    last = [started - PROGRESS_EVERY]

    def progress(done: int, planned: int, moves: list[dict[str, Any]]) -> None:
        now = time.perf_counter()
        if not job.progress_path or (now - last[0] < PROGRESS_EVERY and done < planned):
            return
        last[0] = now
        so_far = [dict(move) for move in moves]
        mark(so_far, job.players)
        write_progress(job.progress_path, {"done": done, "planned": planned, "moves": so_far})

    made = review(job.game, job.players, job.options, job.actions, progress=progress)
    return made, time.perf_counter() - started


def write_progress(path: str, data: dict[str, Any]) -> None:
    """Write a review's progress whole (a reader never sees half of it)."""
    partial = f"{path}.{os.getpid()}.part"
    with open(partial, "w", encoding="utf-8") as file:
        json.dump(data, file, separators=(",", ":"))
    os.replace(partial, path)


_states: OrderedDict[str, State] = OrderedDict()
_bots: OrderedDict[tuple[str, int], Bot] = OrderedDict()


def start_worker(nice: int, server: int) -> None:
    """Lower the worker's priority, so a search never takes a core the server's event loop is waiting for, and end
    the worker when the server process `server` ends, however it ends."""
    if nice > 0 and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(nice)
    threading.Thread(target=_end_with, args=(server,), name="skald-bot-worker-watch", daemon=True).start()


def _end_with(server: int) -> None:
    """Wait for the server process to end, then end this worker.

    A server stopped in order shuts its workers down, but one killed outright (SIGKILL, out of memory) cannot: its
    workers, children of the fork server rather than of the server, would wait for jobs for ever."""
    try:
        handle = os.pidfd_open(server)
    except (AttributeError, OSError):
        handle = -1
    if handle >= 0:
        select.select([handle], [], [])  # readable once the process has ended
    else:
        while _alive(server):
            time.sleep(1.0)
    os._exit(0)


def _alive(pid: int) -> bool:
    """Whether the process `pid` still exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def position(job: BotJob) -> State:
    """The position after `job.actions`, continued from the one this worker last rebuilt for the game when the
    actions extend it (a game moves forward), else replayed from the start."""
    state = _states.pop(job.game_id, None)
    if state is None or len(state.history) > len(job.actions) or job.actions[: len(state.history)] != state.history:
        state = get_game(job.game).new_initial_state(job.players, job.options)
    for action in job.actions[len(state.history) :]:
        state.apply(action)
    _states[job.game_id] = state
    while len(_states) > STATE_CACHE:
        _states.popitem(last=False)
    return state


def bot_for(spec: str, seed: int) -> Bot:
    """The bot for (spec, seed), kept for the next move (its seeding cache then continues where it was)."""
    key = (spec, seed)
    bot = _bots.pop(key, None) or make_bot(spec, seed=seed)
    _bots[key] = bot
    while len(_bots) > STATE_CACHE:
        _bots.popitem(last=False)
    return bot


def think(job: BotJob) -> BotAnswer:
    """The action the bot of `job` chooses. `Bot.step` leaves the position unchanged and reads from it only what the
    bot contract allows (in a game with hidden information, its seat's information state)."""
    started = time.perf_counter()
    state = position(job)
    if state.current_player() != job.seat:
        raise ValueError(f"game {job.game_id}: seat {job.seat} is not to move after {len(job.actions)} actions")
    bot = bot_for(job.spec, job.seed)
    action = (bot if job.within is None else bot.within(job.within)).step(state)
    return BotAnswer(action, os.getpid(), time.perf_counter() - started)


def ready() -> int:
    """The worker's pid: submitted once per worker at the pool's start, so every worker is started at once."""
    return os.getpid()


game_names()  # import every registered game now (in the fork server: once for every worker)
