"""`skald train`: self-play training of a learned bot, in rounds, resumable, within a time budget."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from skald.bots.spec import SpecError, check_spec
from skald.cli.common import (
    check_backend,
    check_imports,
    check_options,
    check_players,
    console,
    fail,
    find_game,
    parse_options,
    stopped_by_ctrl_c,
)


def _hidden(text: str) -> tuple[int, ...]:
    """`--hidden 128,128` as widths, or a clear error."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is not comma-separated widths such as 128,128", param_hint="--hidden"
        ) from None
    if not widths or any(width < 1 for width in widths):
        raise typer.BadParameter(f"{text!r}: every width must be a positive integer", param_hint="--hidden")
    return widths


def register(app: typer.Typer) -> None:
    """Add the `train` command to `app`."""

    @app.command()
    def train(
        game: Annotated[str, typer.Argument(help="The registered game to train for, e.g. vikings.")],
        players: Annotated[int, typer.Option("--players", "-p", help="Seats at the table.")] = 2,
        hours: Annotated[float | None, typer.Option(min=0, help="Time budget in hours.")] = None,
        minutes: Annotated[float | None, typer.Option(min=0, help="Time budget in minutes (added to --hours).")] = None,
        out: Annotated[Path | None, typer.Option(help="The run's directory (default: runs/GAME-Np).")] = None,
        resume: Annotated[bool, typer.Option("--resume", help="Go on with the run in --out.")] = False,
        games: Annotated[int, typer.Option("--games", min=1, help="Self-play games a round.")] = 16,
        iterations: Annotated[int, typer.Option(min=1, help="Search iterations a self-play move.")] = 64,
        mix: Annotated[
            float, typer.Option(min=0, max=1, help="Share of the game's heuristic in each leaf's value.")
        ] = 0.5,
        hidden: Annotated[str, typer.Option(help="Hidden layer widths, comma-separated.")] = "128,128",
        buffer: Annotated[int, typer.Option(min=1, help="Positions kept to train on (the newest).")] = 50_000,
        batch: Annotated[int, typer.Option(min=1, help="Positions a gradient step.")] = 256,
        epochs: Annotated[float, typer.Option(min=0.01, help="Passes over each round's new positions.")] = 2.0,
        lr: Annotated[float, typer.Option(min=0, help="AdamW's learning rate.")] = 1e-3,
        seed: Annotated[int, typer.Option(help="The run's seed: the network's start and every game's.")] = 0,
        workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="Self-play workers (0: one per CPU).")] = 0,
        backend: Annotated[str, typer.Option(help="local (a process pool) or ray.")] = "local",
        address: Annotated[
            str | None, typer.Option(help="Ray cluster address; a local Ray instance when absent.")
        ] = None,
        device: Annotated[str, typer.Option(help="auto (CUDA when there is one), cpu or cuda.")] = "auto",
        curve_every: Annotated[
            float,
            typer.Option(
                min=0, help="Minutes of training between the training curve's points (0: no curve; see --curve-games)."
            ),
        ] = 0.0,
        curve_games: Annotated[int, typer.Option(min=1, help="Games a curve point plays.")] = 20,
        curve_opponent: Annotated[str, typer.Option(help="The bot a curve point plays against.")] = "mcts:normal",
        option: Annotated[list[str] | None, typer.Option(help="A rule option NAME=VALUE (repeatable).")] = None,
        imports: Annotated[
            list[str] | None,
            typer.Option("--import", help="A module to import first, e.g. one registering a game."),
        ] = None,
    ) -> None:
        """Train a learned bot by self-play: the network-guided search plays itself, the network learns its moves.

        Each round plays --games games and trains on the newest positions; OUT/model.npz is the model after the
        last round (seat it as learned:OUT/model.npz). The run stops before a round that would overrun
        --hours/--minutes. Stopped at any moment (Ctrl-C, a crash), it goes on from its last round with --resume."""
        if importlib.util.find_spec("torch") is None:
            fail("skald train needs PyTorch: pip install 'skald[train]'")
        if hours is None and minutes is None:
            fail("give a time budget: --hours H or --minutes M")
        check_backend(backend, address)
        check_imports(imports)
        chosen = find_game(game)
        check_players(chosen, players)
        rules = check_options(chosen, parse_options(option))
        if device not in ("auto", "cpu", "cuda"):
            fail(f"--device: {device!r} is not one of auto, cpu, cuda")
        if curve_every:
            try:
                check_spec(curve_opponent, chosen, players)
            except SpecError as error:
                fail(f"--curve-opponent: {error}")
        seconds = 3600 * (hours or 0.0) + 60 * (minutes or 0.0)
        directory = out or Path("runs") / f"{chosen.name}-{players}p"

        from skald.train.buffer import BufferError
        from skald.train.curve import CURVE_NAME, PLOT_NAME, CurvePoint, CurveSettings
        from skald.train.run import MODEL_NAME, PROGRESS_NAME, RoundReport, Run, TrainError, TrainSettings
        from skald.train.selfplay import SelfPlayGame

        settings = TrainSettings(
            game=chosen.name,
            players=players,
            out=directory,
            seconds=seconds,
            options=rules,
            hidden=_hidden(hidden),
            seed=seed,
            games_per_round=games,
            iterations=iterations,
            value_mix=mix,
            buffer=buffer,
            batch=batch,
            epochs=epochs,
            learning_rate=lr,
            workers=workers,
            backend=backend,
            address=address,
            device=device,
            curve=CurveSettings(every=60 * curve_every, games=curve_games, opponent=curve_opponent),
        )
        try:
            run = Run(settings, resume)
        except (TrainError, BufferError) as error:
            fail(str(error))
        except OSError as error:
            fail(f"--out {directory}: {error.strerror or error}", 1)
        with stopped_by_ctrl_c():
            try:
                with Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    TextColumn("{task.fields[status]}"),
                    TimeElapsedColumn(),
                    console=console,
                    transient=False,
                ) as progress:
                    bar = progress.add_task(
                        escape(f"{chosen.name} {players}p, round 1"), total=games, status="self-play"
                    )

                    def on_game(_played: SelfPlayGame) -> None:
                        progress.advance(bar)

                    def on_round(report: RoundReport) -> None:
                        progress.console.print(
                            f"round {report.round}: {report.games} games, {report.positions:,} positions "
                            f"(kept {report.buffer:,}), loss policy {report.policy_loss:.3f} value "
                            f"{report.value_loss:.3f}, {report.seconds:.0f} s"
                        )
                        progress.reset(
                            bar,
                            total=games,
                            description=f"{chosen.name} {players}p, round {report.round + 1}",
                            status="self-play",
                        )

                    def on_point(point: CurvePoint) -> None:
                        progress.console.print(
                            f"curve: after {point.seconds / 60:.1f} min, {point.share:.1%} of {point.games} games "
                            f"won against {escape(point.opponent)} ({point.low:.1%}–{point.high:.1%})"
                        )

                    run.train(on_game, on_round, on_point)
                    progress.update(bar, visible=False)
            except KeyboardInterrupt:
                fail(
                    f"interrupted (Ctrl-C); the run in {directory} keeps every finished round: add --resume to "
                    "the same command to go on",
                    130,
                )
            except OSError as error:
                fail(f"--out {directory}: {error.strerror or error}", 1)
        counts = run.counts
        console.print(
            f"{counts.rounds} rounds, {counts.games:,} games, {counts.positions:,} positions, "
            f"{counts.seconds / 60:.1f} min in all"
        )
        console.print(
            f"model: {escape(str(directory / MODEL_NAME))} (play it as learned:{escape(str(directory / MODEL_NAME))})"
        )
        console.print(f"progress: {escape(str(directory / PROGRESS_NAME))}")
        if run.points:
            console.print(
                f"curve: {escape(str(directory / CURVE_NAME))}, drawn in {escape(str(directory / PLOT_NAME))}"
            )
