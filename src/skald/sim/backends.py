"""Where the games of a tournament are played: in this process, a local process pool, or a Ray cluster."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from skald.sim.match import GameResult, GameTask, play_game

#: The backends `run_tasks` knows.
BACKENDS = ("local", "ray")

Progress = Callable[[GameResult], None]


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_local(tasks: list[GameTask], workers: int, on_result: Progress) -> list[GameResult]:
    """Play `tasks` in this process (one worker) or a process pool; results in task order."""
    results: list[GameResult] = []
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            result = play_game(task)
            on_result(result)
            results.append(result)
        return results
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        futures = [pool.submit(play_game, task) for task in tasks]
        for future in as_completed(futures):
            result = future.result()
            on_result(result)
            results.append(result)
    return sorted(results, key=lambda r: r.index)


def run_ray(tasks: list[GameTask], workers: int | None, address: str | None, on_result: Progress) -> list[GameResult]:
    """Play `tasks` as Ray tasks on the cluster at `address`, or on a local Ray instance started here."""
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
        remote = ray.remote(num_cpus=1, max_retries=0)(play_game)
        pending = [remote.remote(task) for task in tasks]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result = ray.get(ref)
                on_result(result)
                results.append(result)
    finally:
        if started_here:
            ray.shutdown()
    return sorted(results, key=lambda r: r.index)


def run_tasks(
    tasks: Iterable[GameTask],
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_result: Progress | None = None,
) -> list[GameResult]:
    """Play every task on `backend`; the results do not depend on the backend or the number of workers."""
    task_list = list(tasks)
    callback: Progress = on_result or (lambda _result: None)
    if backend == "local":
        return run_local(task_list, workers or default_workers(), callback)
    if backend == "ray":
        return run_ray(task_list, workers, address, callback)
    raise ValueError(f"backend: {backend!r} is not one of {', '.join(BACKENDS)}")
