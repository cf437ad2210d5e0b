"""`skald simulate GAME`: random legal games with a progress bar and a summary of what happened."""

from __future__ import annotations

import random
import time
from statistics import mean
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from skald.cli.common import check_options, check_players, console, fail, find_game, parse_options
from skald.cli.table import scoring_table
from skald.engine import CHANCE, Game, State, play_random_game, sample_chance


def register(app: typer.Typer) -> None:
    """Add `simulate` to the `skald` command."""

    @app.command()
    def simulate(
        game: str = typer.Argument(..., help="Which game to play (a registered game's name)."),
        players: int | None = typer.Option(
            None, "--players", "-p", help="Number of players [default: the most the game allows]."
        ),
        games: int = typer.Option(100, "--games", "-n", min=1, help="How many games."),
        seed: int = typer.Option(0, "--seed", "-s", help="Seed of the first game; game i uses seed + i."),
        show: bool = typer.Option(False, "--show", help="Show the table after every round of the first game."),
        option: list[str] | None = typer.Option(None, "--option", "-o", help="A rule option NAME=VALUE (repeatable)."),
    ) -> None:
        """Play random legal games and summarise them."""
        chosen = find_game(game)
        players = chosen.max_players if players is None else players
        check_players(chosen, players)
        options = parse_options(option)
        check_options(chosen, options)
        finals: list[State] = []
        try:
            if show:
                show_game(chosen, players, seed, options)
            started = time.perf_counter()
            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
            with Progress(*columns, console=console, transient=True) as progress:
                task = progress.add_task(f"{chosen.title}, {players} players", total=games)
                for index in range(games):
                    state = chosen.new_initial_state(players, options)
                    finals.append(play_random_game(state, random.Random(seed + index)))
                    progress.advance(task)
        except KeyboardInterrupt:
            fail(f"interrupted (Ctrl-C) after {len(finals)} of {games} games; no summary", 130)
        elapsed = time.perf_counter() - started
        summarise(chosen, players, finals, elapsed)


def show_game(game: Game, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
    """Play one random game, printing the table and each scoring as it happens."""
    state = game.new_initial_state(players, options)
    rng = random.Random(seed)
    names = [f"Player {seat + 1}" for seat in range(players)]
    reports_seen = 0
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
        state.apply(action)
        # A scoring is complete once chance deals again or the game ends (a large scoring grows seat by seat).
        reports = state.scorings() if state.current_player() < 0 else []
        if len(reports) > reports_seen:
            console.print(state.render_text(color=True), markup=True)
            for report in reports[reports_seen:]:
                console.print(scoring_table(game.presentation, report, names))
            reports_seen = len(reports)
    if reports_seen == 0:
        # A game without itemised scorings is shown once, at its end (as a spectator sees it).
        console.print(state.render_text(color=True), markup=True)
    console.print(f"Final {game.score_name}: {state.scores()} · winners: {[s + 1 for s in state.winners()]}\n")


def summarise(game: Game, players: int, finals: list[State], elapsed: float) -> None:
    """Print win shares per seat, score averages and speed."""
    table = Table(title=f"{len(finals)} random games of {game.title}, {players} players")
    table.add_column("Seat", justify="right")
    table.add_column("Wins (shared split)", justify="right")
    table.add_column("Mean score", justify="right")
    table.add_column("Min", justify="right")
    table.add_column("Max", justify="right")
    for seat in range(players):
        scores = [s.scores()[seat] for s in finals]
        wins = sum(s.returns()[seat] for s in finals)
        table.add_row(
            str(seat + 1),
            f"{wins:.1f} ({100 * wins / len(finals):.0f}%)",
            f"{mean(scores):.1f}",
            str(min(scores)),
            str(max(scores)),
        )
    console.print(table)
    actions = sum(len(s.history) for s in finals)
    console.print(
        f"{len(finals) / elapsed:.0f} games/s · {actions / len(finals):.0f} actions per game "
        f"(chance included) · {elapsed:.2f} s"
    )
