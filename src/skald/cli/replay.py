"""`skald replay RECORD.json`: step through a game record, the table shown after each move."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from skald.cli.common import console, fail, load_record
from skald.engine import CHANCE


def register(app: typer.Typer) -> None:
    """Add `replay` to the `skald` command."""

    @app.command()
    def replay(
        record: Path = typer.Argument(..., help="A game record (JSON)."),
        step: bool = typer.Option(False, "--step", help="Wait for Enter after each move."),
        every: int = typer.Option(0, "--every", min=0, help="Show the table every N actions (0: only at the end)."),
    ) -> None:
        """Replay a record, printing each action in notation and the table."""
        loaded = load_record(record)
        names = [seat.name for seat in loaded.seats]
        state = loaded.initial_state()
        index = 0
        try:
            for index, action in enumerate(loaded.actions):
                player = state.current_player()
                who = "chance" if player == CHANCE else names[player]
                console.print(f"{index + 1:>4}. {escape(who)}: {state.action_to_notation(action)}")
                state.apply(action)
                if step or (every and (index + 1) % every == 0):
                    console.print(state.render_text(color=True), markup=True)
                    if step:
                        input("Enter for the next move… ")
        except EOFError:
            fail(f"--step: the input ended (stdin closed) at action {index + 1} of {len(loaded.actions)}", 1)
        except KeyboardInterrupt:
            fail(f"interrupted (Ctrl-C) at action {index + 1} of {len(loaded.actions)}", 130)
        console.print(state.render_text(color=True), markup=True)
        if state.is_terminal():
            winners = ", ".join(names[s] for s in state.winners())
            scores = dict(zip(names, state.scores(), strict=True))
            console.print(f"Final scores: {escape(str(scores))} · winner: {escape(winners)}")
