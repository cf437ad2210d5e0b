"""`skald check GAME`: the conformance check (`skald.sim.check`) with a progress bar and one line per property."""

from __future__ import annotations

import time

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from skald.cli.common import (
    check_options,
    check_players,
    console,
    fail,
    find_game,
    parse_options,
    stopped_by_ctrl_c,
)
from skald.sim import default_workers
from skald.sim.check import PropertyResult, run_check


def register(app: typer.Typer) -> None:
    """Add `check` to the `skald` command."""

    @app.command()
    def check(
        game: str = typer.Argument(..., help="Which registered game to check."),
        games: int = typer.Option(100, "--games", "-n", min=1, help="Random games per player count."),
        seed: int = typer.Option(0, "--seed", "-s", help="Seed of the first game; game i uses seed + i."),
        players: int | None = typer.Option(
            None, "--players", "-p", help="Check this player count only \\[default: every count the game allows]."
        ),
        option: list[str] | None = typer.Option(None, "--option", "-o", help="A rule option NAME=VALUE (repeatable)."),
        workers: int = typer.Option(0, "--workers", "-w", min=0, help="Parallel workers (0: one per CPU)."),
    ) -> None:
        """Check a game against the contract: random games, illegal actions, clones, records, forms and leaks."""
        chosen = find_game(game)
        if players is not None:
            check_players(chosen, players)
        counts = [players] if players is not None else list(range(chosen.min_players, chosen.max_players + 1))
        options = parse_options(option)
        check_options(chosen, options)
        started = time.perf_counter()
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        worker_count = min(workers or default_workers(), games * len(counts))
        try:
            with (
                stopped_by_ctrl_c(),
                Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress,
            ):
                task = progress.add_task(f"checking {chosen.title}", total=games * len(counts))
                advance = lambda: progress.advance(task)  # noqa: E731
                results = list(run_check(chosen, counts, games, seed, options, on_game=advance, workers=worker_count))
        except KeyboardInterrupt:
            fail("interrupted (Ctrl-C); nothing checked to the end", 130)
        elapsed = time.perf_counter() - started
        who = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        console.print(
            f"{chosen.title}: {games * len(counts)} random games ({who} players, seeds {seed}–{seed + games - 1}) "
            f"in {elapsed:.1f} s on {worker_count} worker{'s' if worker_count > 1 else ''}",
            soft_wrap=True,
        )
        for result in results:
            console.print(_line(result), markup=True, soft_wrap=True)
        failed = [r for r in results if not r.passed]
        if failed:
            first = failed[0].first
            assert first is not None
            fail(
                f"{len(failed)} of {len(results)} properties failed; the first failure is in seed {first.seed} "
                f"with {first.players} players: {_reproduce(game, first.players, first.seed, option)}",
                1,
            )
        console.print(f"[green]all {len(results)} properties hold[/]")


def _line(result: PropertyResult) -> str:
    """One property's line: a mark, its title, how many checks, and the first failure with its seed."""
    if result.skipped:
        return f"[dim]–[/] {escape(result.title)} [dim](not checked: {escape(result.skipped)})[/]"
    if result.passed:
        return f"[green]✓[/] {escape(result.title)} [dim]({result.checks} checks)[/]"
    first = result.first
    assert first is not None
    where = f", ply {first.ply}" if first.ply is not None else ""
    return (
        f"[red]✗[/] {escape(result.title)} [red]({result.failures} of {result.checks} checks failed)[/]\n"
        f"    first: {escape(first.message)}\n"
        f"    in seed {first.seed} with {first.players} players{where}"
    )


def _reproduce(game: str, players: int, seed: int, options: list[str] | None) -> str:
    """The command that checks the failing game alone."""
    extra = "".join(f" --option {o}" for o in options or [])
    return f"skald check {game} --players {players} --seed {seed} --games 1{extra}"
