"""`skald check GAME`: the conformance check (`skald.sim.check`) with a progress bar and one line per property."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from skald.cli.common import (
    FROM_HELP,
    check_options,
    check_players,
    console,
    fail,
    find_game,
    load_position,
    parse_options,
    stopped_by_ctrl_c,
)
from skald.engine import Game
from skald.sim import default_workers
from skald.sim.check import PROPERTIES, PropertyResult, run_check


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
        start: Path | None = typer.Option(None, "--from", help=FROM_HELP),
        each_hidden_option: bool = typer.Option(
            False,
            "--each-hidden-option",
            help="Check again under every other value of each rule option that changes what is hidden, or who is "
            "asked and when.",
        ),
    ) -> None:
        """Check a game against the contract: random games, illegal actions, clones, records, forms and leaks."""
        chosen = find_game(game)
        if players is not None:
            check_players(chosen, players)
        counts = [players] if players is not None else list(range(chosen.min_players, chosen.max_players + 1))
        options = parse_options(option)
        check_options(chosen, options)
        position = None
        if start is not None:
            # Every game starts from the position, with its seats; --option is laid over its rule options.
            position, state = load_position(chosen, start, options)
            if players is not None and players != state.num_players:
                fail(f"--players: {players}, but the position in {start} has {state.num_players} seats")
            counts = [state.num_players]
        worker_count = min(workers or default_workers(), games * len(counts))
        variants = [list(option or [])]
        if each_hidden_option:
            variants += _hidden_variants(chosen, options, counts[0])
        failed: list[tuple[PropertyResult, list[str]]] = []
        for variant in variants:
            if len(variants) > 1:
                console.rule(", ".join(variant) or "the options as given")
            results = _check_variant(chosen, counts, games, seed, parse_options(variant), worker_count, position)
            failed += [(result, variant) for result in results if not result.passed]
        if failed:
            first, variant = failed[0][0].first, failed[0][1]
            assert first is not None
            fail(
                f"{len(failed)} of {len(PROPERTIES) * len(variants)} properties failed; the first failure is in seed "
                f"{first.seed} with {first.players} "
                f"players: {_reproduce(game, first.players, first.seed, variant, start)}",
                1,
            )
        console.print(
            f"[green]all {len(PROPERTIES)} properties hold[/]"
            + (f" under each of {len(variants)} sets of options" if len(variants) > 1 else "")
        )


def _hidden_variants(game: Game, options: dict[str, Any], players: int) -> list[list[str]]:
    """The `--option` lists that set, one at a time, every other value of each of the game's `hidden_options` not
    already given; a value the game refuses to play is told and left out."""
    given = [f"{name}={value}" for name, value in options.items()]
    variants = []
    for rule in game.options:
        if rule.name not in game.hidden_options or rule.name in options:
            continue
        for value in rule.choices:
            if value == rule.default:
                continue
            try:
                game.new_initial_state(players, {**options, rule.name: value})
            except ValueError as error:
                refused = f"{escape(rule.name)}={escape(str(value))} is not checked: {escape(str(error))}"
                console.print(f"[dim]– {refused}[/]")
                continue
            variants.append([*given, f"{rule.name}={value}"])
    return variants


def _check_variant(
    game: Game,
    counts: list[int],
    games: int,
    seed: int,
    options: dict[str, Any],
    workers: int,
    position: dict[str, Any] | None = None,
) -> list[PropertyResult]:
    """Check `games` random games at each count under `options`, with a progress bar; print and return the results."""
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with (
            stopped_by_ctrl_c(),
            Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress,
        ):
            task = progress.add_task(f"checking {game.title}", total=games * len(counts))
            advance = lambda: progress.advance(task)  # noqa: E731
            results = list(
                run_check(game, counts, games, seed, options, on_game=advance, workers=workers, position=position)
            )
    except KeyboardInterrupt:
        fail("interrupted (Ctrl-C); nothing checked to the end", 130)
    elapsed = time.perf_counter() - started
    who = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    console.print(
        f"{game.title}: {games * len(counts)} random games ({who} players, seeds {seed}–{seed + games - 1}) "
        f"in {elapsed:.1f} s on {workers} worker{'s' if workers > 1 else ''}",
        soft_wrap=True,
    )
    for result in results:
        console.print(_line(result), markup=True, soft_wrap=True)
    return results


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


def _reproduce(game: str, players: int, seed: int, options: list[str] | None, start: Path | None = None) -> str:
    """The command that checks the failing game alone."""
    extra = "".join(f" --option {o}" for o in options or []) + (f" --from {start}" if start is not None else "")
    return f"skald check {game} --players {players} --seed {seed} --games 1{extra}"
