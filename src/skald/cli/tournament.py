"""`skald tournament`: seat bots against each other over many seeded games and report who is stronger."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from skald.bots import SpecError, check_spec
from skald.cli.common import (
    check_backend,
    check_bots,
    check_imports,
    check_options,
    check_players,
    console,
    fail,
    find_game,
    parse_options,
    stopped_by_ctrl_c,
)
from skald.sim import TournamentConfig, TournamentResult, default_workers, run_tournament, write_all
from skald.sim.journal import JOURNAL_NAME, Journal, JournalError
from skald.sim.match import GameResult


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def bots_table(result: TournamentResult) -> Table:
    """A Rich table of the entrants, strongest rating first."""
    table = Table(title=f"Bots — {result.config.game}, {result.config.num_players} players")
    for column in ("bot", "games", "win rate", "95% interval", "mean score", "mean rank", "rating μ ± σ"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    table.add_column("s/move", justify="right")
    for entry in sorted(result.entrants, key=lambda e: -e.rating_ordinal):
        table.add_row(
            entry.name,
            str(entry.games),
            _percent(entry.win_rate),
            f"{_percent(entry.win_low)} – {_percent(entry.win_high)}",
            f"{entry.mean_score:.1f} ± {entry.score_stdev:.1f}",
            f"{entry.mean_rank:.2f}",
            f"{entry.rating_mu:.1f} ± {entry.rating_sigma:.1f}",
            f"{entry.mean_move_seconds:.3f}",
        )
    return table


def seats_table(result: TournamentResult) -> Table:
    """A Rich table of how each seat did, whoever sat there."""
    table = Table(title="Seats")
    for column in ("seat", "win rate", "95% interval", "advantage", "mean score"):
        table.add_column(column, justify="right")
    for seat in result.seats:
        table.add_row(
            str(seat.seat + 1),
            _percent(seat.win_rate),
            f"{_percent(seat.win_low)} – {_percent(seat.win_high)}",
            f"{100 * seat.advantage:+.1f} pts",
            f"{seat.mean_score:.1f}",
        )
    return table


def register(app: typer.Typer) -> None:
    """Add the `tournament` command to `app`."""

    @app.command()
    def tournament(
        game: Annotated[str, typer.Argument(help="The registered game to play, e.g. vikings.")],
        bots: Annotated[
            str, typer.Option(help="Comma-separated bot specs; the last fills any remaining seats.")
        ] = "mcts:normal,greedy,random",
        players: Annotated[int, typer.Option("--players", "-p", help="Seats at the table.")] = 2,
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 100,
        seed: Annotated[int, typer.Option(help="Master seed; game g is seeded from (seed, g).")] = 0,
        workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="Parallel workers (0: one per CPU).")] = 0,
        backend: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
        address: Annotated[
            str | None, typer.Option(help="Ray cluster address; a local Ray instance when absent.")
        ] = None,
        out: Annotated[Path, typer.Option(help="Directory for the JSON, CSV and PNG results.")] = Path(
            "out/tournament"
        ),
        option: Annotated[list[str] | None, typer.Option(help="A rule option NAME=VALUE (repeatable).")] = None,
        imports: Annotated[
            list[str] | None,
            typer.Option("--import", help="A module to import first, e.g. one registering a game."),
        ] = None,
        resume: Annotated[
            bool,
            typer.Option(
                "--resume",
                help=f"Go on with the games that a stopped run with the same settings finished (OUT/{JOURNAL_NAME}).",
            ),
        ] = False,
    ) -> None:
        """Play bots against each other with seats rotating fairly, and report win rates and ratings.

        Each finished game is kept in OUT/games.jsonl as it ends: a run stopped by Ctrl-C or a crash goes on with
        --resume, and ends with the results an unbroken run would have had. --resume with more --games extends a
        finished tournament."""
        check_backend(backend, address)
        config = _checked_config(game, bots, players, games, seed, option or [], imports or [])
        worker_count = workers or (default_workers() if backend == "local" else 0)
        _check_writable(out)
        try:
            journal = Journal(out / JOURNAL_NAME, config, resume)
        except JournalError as error:
            fail(f"--resume: {error}" if resume else str(error))
        except OSError as error:
            fail(f"--out {out}: cannot write the journal: {error.strerror or error}", 1)
        earlier = sum(index < games for index in journal.finished)
        if resume:
            console.print(f"Resuming: {earlier} of {games} games were finished earlier.")
        with journal, stopped_by_ctrl_c():
            try:
                with Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    console=console,
                    transient=False,
                ) as progress:
                    bar = progress.add_task(escape(f"{game} {players}p on {backend}"), total=games, completed=earlier)

                    def advance(finished: GameResult) -> None:
                        try:
                            journal.record(finished)
                        except OSError as error:
                            fail(f"--out {out}: cannot write the journal: {error.strerror or error}", 1)
                        progress.advance(bar)

                    result = run_tournament(config, backend, worker_count or None, address, advance, journal.finished)
            except KeyboardInterrupt:
                kept = sum(index < games for index in journal.on_disk())
                fail(
                    f"interrupted (Ctrl-C) after {kept} of {games} games; they are kept in "
                    f"{out / JOURNAL_NAME}: add --resume to the same command to go on",
                    130,
                )
        console.print(bots_table(result))
        console.print(seats_table(result))
        try:
            paths = write_all(result, out)
        except OSError as error:
            fail(f"--out {out}: cannot write the results: {error.strerror or error}", 1)
        for kind, path in paths.items():
            console.print(f"{kind}: {escape(str(path))}")


def _checked_config(
    game: str, bots: str, players: int, games: int, seed: int, options: list[str], imports: list[str]
) -> TournamentConfig:
    """The tournament the flags describe, each flag checked before any game is played."""
    check_imports(imports)
    chosen = find_game(game)
    check_players(chosen, players)
    rules = parse_options(options)
    check_options(chosen, rules)
    specs = check_bots(bots)
    for spec in specs:
        try:
            check_spec(spec, chosen, players)
        except SpecError as error:
            fail(f"--bots: {error}")
    return TournamentConfig(
        game=game,
        bots=specs,
        num_players=players,
        games=games,
        seed=seed,
        options=tuple(sorted(rules.items())),
        imports=tuple(imports),
    )


def _check_writable(out: Path) -> None:
    """Make the results directory now, so that a bad --out is found before the games rather than after them."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        fail(f"--out {out}: cannot write there: {error.strerror or error}")
