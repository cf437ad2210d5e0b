"""Where the games of a run are played: in this process, a local process pool, or a Ray cluster."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from skald.sim.match import GameResult, GameTask, play_game

#: The backends `run_tasks` knows.
BACKENDS = ("local", "ray")

Progress = Callable[[GameResult], None]

Task = TypeVar("Task")
Result = TypeVar("Result")


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_local(
    play: Callable[[Task], Result], tasks: list[Task], workers: int, on_result: Callable[[Result], None]
) -> list[Result]:
    """Run `play` on each task in this process (one worker) or a process pool; results in task order."""
    if workers <= 1 or len(tasks) <= 1:
        results = []
        for task in tasks:
            result = play(task)
            on_result(result)
            results.append(result)
        return results
    pool = ProcessPoolExecutor(max_workers=min(workers, len(tasks)))
    try:
        futures: dict[Future[Result], int] = {pool.submit(play, task): position for position, task in enumerate(tasks)}
        ordered: list[Any] = [None] * len(tasks)
        for future in as_completed(futures):
            result = future.result()
            on_result(result)
            ordered[futures[future]] = result
    finally:
        # After a failure (a game's, or `on_result`'s), the games not yet started are not played.
        pool.shutdown(wait=True, cancel_futures=True)
    return ordered


def run_ray(
    play: Callable[[Task], Result],
    tasks: list[Task],
    workers: int | None,
    address: str | None,
    on_result: Callable[[Result], None],
) -> list[Result]:
    """Run `play` on each task as a Ray task on the cluster at `address`, or on a local Ray instance started here."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray backend needs Ray: pip install 'skald[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "error",
        }
        if address:
            options["address"] = address
        else:
            if workers:
                options["num_cpus"] = workers
            # A local instance's workers see the same modules as this process (games registered from a path).
            path = os.pathsep.join(p for p in sys.path if p)
            options["runtime_env"] = {"env_vars": {"PYTHONPATH": path}}
        ray.init(**options)
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play)
        pending = [remote.remote(task) for task in tasks]
        positions = {ref: position for position, ref in enumerate(pending)}
        ordered: list[Any] = [None] * len(tasks)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result = ray.get(ref)
                on_result(result)
                ordered[positions[ref]] = result
    finally:
        if started_here:
            ray.shutdown()
    return ordered


def run_each(
    play: Callable[[Task], Result],
    tasks: Iterable[Task],
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_result: Callable[[Result], None] | None = None,
) -> list[Result]:
    """Run `play` (a module-level function, so workers can import it) on every task on `backend`, results in task
    order; `on_result` sees each result as it arrives."""
    task_list = list(tasks)
    callback: Callable[[Result], None] = on_result or (lambda _result: None)
    if backend == "local":
        return run_local(play, task_list, workers or default_workers(), callback)
    if backend == "ray":
        return run_ray(play, task_list, workers, address, callback)
    raise ValueError(f"backend: {backend!r} is not one of {', '.join(BACKENDS)}")


def run_tasks(
    tasks: Iterable[GameTask],
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_result: Progress | None = None,
) -> list[GameResult]:
    """Play every tournament game on `backend`; the results do not depend on the backend or the number of workers."""
    return run_each(play_game, tasks, backend, workers, address, on_result)
