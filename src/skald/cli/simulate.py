"""`skald simulate GAME`: many seeded games on every core or a Ray cluster, measured, and rule variants compared."""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from skald.cli.common import (
    FROM_HELP,
    check_backend,
    check_bots,
    check_imports,
    check_players,
    console,
    errors,
    fail,
    find_game,
    load_position,
    parse_options,
    stopped_by_ctrl_c,
)
from skald.cli.table import scoring_table
from skald.engine import CHANCE, Game, OptionError, sample_chance
from skald.engine.record import write_file_atomically
from skald.sim import default_workers
from skald.sim.metrics import LEVEL
from skald.sim.simulation import Simulation, simulate, start_state, variants
from skald.sim.simulation_report import csv_text, json_text, plot_png, to_dict

#: Eight heights of a block, for a histogram drawn in one line of text.
BLOCKS = "▁▂▃▄▅▆▇█"


def register(app: typer.Typer) -> None:
    """Add `simulate` to the `skald` command."""

    @app.command("simulate")
    def simulate_command(
        game: Annotated[str, typer.Argument(help="Which game to play (a registered game's name).")],
        players: Annotated[
            int | None,
            typer.Option("--players", "-p", help="Seats at the table (the most the game allows if not given)."),
        ] = None,
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games (per variant).")] = 100,
        seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game; game i uses seed + i.")] = 0,
        bots: Annotated[
            str | None,
            typer.Option(help="Bots instead of random play: one spec for every seat, or a comma line-up by seat."),
        ] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-o", help="A rule option NAME=VALUE (repeatable).")
        ] = None,
        compare: Annotated[
            list[str] | None,
            typer.Option(help="Compare rule variants on the same seeds: OPTION=V1,V2[,…] (repeatable)."),
        ] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="Parallel workers (0: one per CPU).")] = 0,
        backend: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
        address: Annotated[
            str | None, typer.Option(help="Ray cluster address; a local Ray instance when absent.")
        ] = None,
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the results as JSON on stdout (the tables go to stderr).")
        ] = False,
        as_csv: Annotated[
            bool, typer.Option("--csv", help="Print one CSV row per game on stdout (the tables go to stderr).")
        ] = False,
        plot: Annotated[
            Path | None, typer.Option(help="Write a PNG chart here: one panel per metric when comparing.")
        ] = None,
        imports: Annotated[
            list[str] | None, typer.Option("--import", help="A module to import first, e.g. one registering a game.")
        ] = None,
        start: Annotated[Path | None, typer.Option("--from", help=FROM_HELP)] = None,
        show: Annotated[
            bool, typer.Option("--show", help="Show the table after every scoring of the first game.")
        ] = False,
    ) -> None:
        """Play many seeded games (random, or bots) and measure them; compare rule variants with --compare."""
        check_backend(backend, address)
        if as_json and as_csv:
            fail("--csv: --json and --csv both print on stdout; give one of them")
        check_imports(imports)
        chosen = find_game(game)
        position = ""
        if start is not None:
            # The position holds the seats and its rule options; --option and --compare are laid over them.
            data, state = load_position(chosen, start)
            if players is not None and players != state.num_players:
                fail(f"--players: {players}, but the position in {start} has {state.num_players} seats")
            players = state.num_players
            position = json.dumps(data)
        players = chosen.max_players if players is None else players
        check_players(chosen, players)
        lineup = () if bots is None else check_bots(bots)
        runs = variants(parse_options(option), _checked_compare(compare or [], parse_options(option)))
        for variant in runs:
            _check_variant(chosen, dict(variant.options), bool(compare))
            if start is not None and variant.options:
                load_position(chosen, start, dict(variant.options))
        if plot is not None:
            _check_writable(plot)
        simulation = Simulation(
            game=game,
            num_players=players,
            games=games,
            seed=seed,
            variants=tuple(runs),
            bots=lineup,
            imports=tuple(imports or []),
            position=position,
        )
        tables = errors if as_json or as_csv else console
        if show:
            show_game(chosen, players, seed, dict(runs[0].options), tables, position)
        worker_count = workers or (default_workers() if backend == "local" else 0)
        total = games * len(runs)
        played = 0
        started = time.perf_counter()
        with stopped_by_ctrl_c():
            try:
                columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
                with Progress(*columns, console=tables, transient=True) as progress:
                    bar = progress.add_task(escape(f"{chosen.title}, {players} players, on {backend}"), total=total)

                    def advance(count: int) -> None:
                        nonlocal played
                        played += count
                        progress.advance(bar, count)

                    results = simulate(simulation, backend, worker_count or None, address, advance)
            except KeyboardInterrupt:
                fail(f"interrupted (Ctrl-C) after {played} of {total} games; no summary", 130)
        elapsed = time.perf_counter() - started
        data = to_dict(simulation, results)
        print_summary(tables, chosen, data)
        tables.print(
            f"{total / elapsed:.0f} games/s · {elapsed:.2f} s · {backend}"
            + (f", {worker_count} worker{'s' if worker_count > 1 else ''}" if worker_count else "")
        )
        if plot is not None:
            try:
                write_file_atomically(plot, plot_png(data))
            except OSError as error:
                fail(f"--plot {plot}: cannot write the chart: {error.strerror or error}", 1)
            tables.print(f"chart: {escape(str(plot))}")
        if as_json:
            typer.echo(json_text(data), nl=False)
        elif as_csv:
            typer.echo(csv_text(simulation, results), nl=False)


def _checked_compare(texts: list[str], base: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """Each `--compare OPTION=V1,V2` as the option's name and its values (read as JSON where they parse)."""
    found: list[tuple[str, list[Any]]] = []
    for text in texts:
        name, sep, raw = text.partition("=")
        name = name.strip()
        if not sep or not name:
            fail(f"--compare: expected OPTION=V1,V2 (e.g. ship_row=zman,touching), got {text!r}")
        values = [_value(part.strip()) for part in raw.split(",") if part.strip()]
        if len(values) < 2:
            fail(f"--compare {name}: give two or more values to compare, e.g. {name}=A,B")
        if len({json.dumps(value) for value in values}) < len(values):
            fail(f"--compare {name}: a value is given twice")
        if name in base:
            fail(f"--compare {name}: the option is also fixed by --option; give it in one place")
        if any(name == other for other, _ in found):
            fail(f"--compare {name}: the option is compared twice; list all its values in one --compare")
        found.append((name, values))
    return found


def _value(raw: str) -> Any:
    """An option value as `--option` reads it: JSON where it parses (numbers, true/false), else the text."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return raw


def _check_variant(game: Game, options: dict[str, Any], compared: bool) -> None:
    """Exit naming the flag at fault unless `game` accepts these rule options."""
    try:
        game.resolve_options(options)
    except OptionError as error:
        fail(f"{'--compare' if compared else '--option'}: {error}")


def _check_writable(path: Path) -> None:
    """Find a chart path that cannot be written before the games rather than after them."""
    try:
        with tempfile.TemporaryFile(dir=path.parent if str(path.parent) else "."):
            pass
    except OSError as error:
        fail(f"--plot {path}: cannot write there: {error.strerror or error}")
    if path.is_dir():
        fail(f"--plot {path}: is a directory; name a .png file")


def show_game(
    game: Game,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    out: Console = console,
    position: str = "",
) -> None:
    """Play one random game (from `position`'s JSON text, if given), printing the table and each scoring as it
    happens."""
    state = start_state(game.name, players, options or {}, position)
    rng = random.Random(seed)
    names = [f"Player {seat + 1}" for seat in range(players)]
    reports_seen = 0
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
        state.apply(action)
        # A scoring is complete once chance deals again or the game ends (a large scoring grows seat by seat).
        reports = state.scorings() if state.current_player() < 0 else []
        if len(reports) > reports_seen:
            out.print(state.render_text(color=True), markup=True)
            for report in reports[reports_seen:]:
                out.print(scoring_table(game.presentation, report, names))
            reports_seen = len(reports)
    if reports_seen == 0:
        # A game without itemised scorings is shown once, at its end (as a spectator sees it).
        out.print(state.render_text(color=True), markup=True)
    out.print(f"Final {game.score_name}: {state.scores()} · winners: {[s + 1 for s in state.winners()]}\n")


def sparkline(counts: list[int]) -> str:
    """A histogram in one line of block characters."""
    top = max(counts) or 1
    return "".join(BLOCKS[min(len(BLOCKS) - 1, count * len(BLOCKS) // (top + 1))] if count else " " for count in counts)


def print_summary(out: Console, game: Game, data: dict[str, Any]) -> None:
    """Print each variant's figures and, when variants are compared, each difference with its interval."""
    play = "random games" if data["play"] == "random" else f"games ({', '.join(data['play'])})"
    for variant in data["variants"]:
        label = "" if len(data["variants"]) == 1 else f" · {variant['label']}"
        out.print(_figures_table(variant, f"{data['games']} {play} of {game.title}, {data['players']} players{label}"))
        out.print(_seats_table(variant))
        ties = variant["ties"]
        out.print(
            f"Seeds {variant['seeds'][0]}–{variant['seeds'][1]}. Top score tied in {ties['top_score_tied']} games "
            f"({ties['decided_by_tie_break']} decided by the tie-break); {ties['shared_victories']} shared victories."
        )
        out.print(_kinds_table(variant))
    for entry in data.get("comparison", {}).get("variants", []):
        for part in _comparison_tables(entry, data["comparison"]):
            out.print(part, soft_wrap=isinstance(part, str))


def _figures_table(variant: dict[str, Any], title: str) -> Table:
    table = Table(title=escape(title))
    table.add_column("figure", justify="left")
    for column in ("mean", "min", "5%", "median", "95%", "max", "histogram"):
        table.add_column(column, justify="left" if column == "histogram" else "right")
    # The full quantiles and the stdev are in --json; the table keeps to one line a figure on 80 columns.
    for key, name in (
        ("decisions", "decisions"),
        ("actions", "actions"),
        ("scores", "score"),
        ("winning_score", "winning score"),
        ("margin", "margin"),
    ):
        figure = variant[key]
        quantiles = figure["quantiles"]
        table.add_row(
            name,
            f"{figure['mean']:.1f}",
            str(figure["min"]),
            *(f"{quantiles[q]:.0f}" for q in ("5", "50", "95")),
            str(figure["max"]),
            sparkline(figure["histogram"]["counts"]),
        )
    return table


def _seats_table(variant: dict[str, Any]) -> Table:
    table = Table(title="Seats")
    for column in ("seat", "wins", "win rate", "95% interval", "advantage", "mean score"):
        table.add_column(column, justify="right")
    for row in variant["seats"]:
        table.add_row(
            str(row["seat"]),
            f"{row['wins']:g}",
            f"{100 * row['win_rate']:.1f}%",
            f"{100 * row['win_low']:.1f}% – {100 * row['win_high']:.1f}%",
            f"{100 * row['advantage']:+.1f} pts",
            f"{row['mean_score']:.1f}",
        )
    return table


def _kinds_table(variant: dict[str, Any]) -> Table:
    table = Table(title="Actions chosen, by kind")
    for column in ("kind", "per game", "share of decisions"):
        table.add_column(column, justify="left" if column == "kind" else "right")
    for kind, row in variant["kinds"].items():
        table.add_row(escape(kind), f"{row['per_game']:.2f}", f"{100 * row['share']:.1f}%")
    return table


def _comparison_tables(entry: dict[str, Any], comparison: dict[str, Any]) -> list[Any]:
    """What a variant changed: the games it changed at all, its outcomes' differences, then the action kinds it
    changed (those no game changed are counted, not listed)."""
    changed = entry["changed"]
    games = changed["games"]
    said = (
        f"{escape(entry['label'])} against {escape(comparison['baseline'])}: of {games} games on the same seeds, "
        f"{changed['played_differently']} were played differently, {changed['results_changed']} ended with other "
        f"scores or winners, {changed['winners_changed']} with other winners."
    )
    outcomes = [row for row in entry["metrics"] if row["family"] == "outcome"]
    kinds = [row for row in entry["metrics"] if row["family"] == "kind"]
    moved = [row for row in kinds if not row["difference"] == row["low"] == row["high"] == 0]
    note = (
        f"* : significant at {LEVEL} after Holm's correction "
        "(within the outcomes, and within the action kinds); p from a paired sign-flip permutation test."
    )
    parts: list[Any] = [said, _metric_table(f"Outcomes: {entry['label']} against {comparison['baseline']}", outcomes)]
    if moved:
        title = f"Action kinds that changed ({len(kinds) - len(moved)} of {len(kinds)} did not in any game)"
        parts.append(_metric_table(title, sorted(moved, key=lambda row: row["p_adjusted"])))
    elif kinds:
        parts.append(f"No game chose any of the {len(kinds)} kinds of action more or less often.")
    parts.append(note)
    return parts


def _metric_table(title: str, rows: list[dict[str, Any]]) -> Table:
    table = Table(title=escape(title))
    for column in ("metric", "baseline", "variant", "difference (95% interval)", "p adj.", ""):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for row in rows:
        percent = row["rate"]
        interval = f"{_figure(row['low'], percent, signed=True)}…{_figure(row['high'], percent, signed=True)}"
        table.add_row(
            escape(row["metric"]),
            _figure(row["baseline"], percent),
            _figure(row["variant"], percent),
            f"{_figure(row['difference'], percent, signed=True)} ({interval})",
            f"{row['p_adjusted']:.2g}",
            "*" if row["significant"] else "",
        )
    return table


def _figure(value: float, percent: bool, signed: bool = False) -> str:
    """A comparison figure: a rate in percent (a difference in points), anything else with two decimals."""
    if percent:
        return f"{100 * value:+.1f}pt" if signed else f"{100 * value:.1f}%"
    return f"{value:+.2f}" if signed else f"{value:.2f}"
