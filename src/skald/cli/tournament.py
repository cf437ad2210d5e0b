"""`skald tournament`: seat bots against each other over many seeded games and report who is stronger."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from skald.cli.common import parse_option
from skald.sim import BACKENDS, TournamentConfig, TournamentResult, default_workers, run_tournament, write_all
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
        games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")] = 100,
        seed: Annotated[int, typer.Option(help="Master seed; game g is seeded from (seed, g).")] = 0,
        workers: Annotated[int, typer.Option("--workers", "-w", help="Parallel workers (0: one per CPU).")] = 0,
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
    ) -> None:
        """Play bots against each other with seats rotating fairly, and report win rates and ratings."""
        console = Console()
        if backend not in BACKENDS:
            raise typer.BadParameter(f"{backend!r} is not one of {', '.join(BACKENDS)}", param_hint="--backend")
        config = TournamentConfig(
            game=game,
            bots=tuple(spec.strip() for spec in bots.split(",") if spec.strip()),
            num_players=players,
            games=games,
            seed=seed,
            options=tuple(sorted(parse_option(text) for text in option or [])),
            imports=tuple(imports or []),
        )
        try:
            config.check()
        except (ValueError, KeyError, ImportError) as error:
            console.print(f"[red]error:[/red] {error.args[0] if error.args else error}")
            raise typer.Exit(2) from None
        worker_count = workers or (default_workers() if backend == "local" else 0)
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        ) as progress:
            bar = progress.add_task(f"{game} {players}p on {backend}", total=games)

            def advance(_result: GameResult) -> None:
                progress.advance(bar)

            result = run_tournament(config, backend, worker_count or None, address, advance)
        console.print(bots_table(result))
        console.print(seats_table(result))
        paths = write_all(result, out)
        for kind, path in paths.items():
            console.print(f"{kind}: {path}")
