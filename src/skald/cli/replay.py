"""`skald replay RECORD.json`: step through a game record, the table shown after each move."""

from __future__ import annotations

from pathlib import Path

import typer

from skald.cli.common import console, fail
from skald.engine import CHANCE, Record, RecordError


def register(app: typer.Typer) -> None:
    """Add `replay` to the `skald` command."""

    @app.command()
    def replay(
        record: Path = typer.Argument(..., help="A game record (JSON)."),
        step: bool = typer.Option(False, "--step", help="Wait for Enter after each move."),
        every: int = typer.Option(0, "--every", help="Show the table every N actions (0: only at the end)."),
    ) -> None:
        """Replay a record, printing each action in notation and the table."""
        try:
            loaded = Record.load(record)
        except RecordError as error:
            fail(str(error))
        names = [seat.name for seat in loaded.seats]
        state = loaded.initial_state()
        for index, action in enumerate(loaded.actions):
            player = state.current_player()
            who = "chance" if player == CHANCE else names[player]
            console.print(f"{index + 1:>4}. {who}: {state.action_to_notation(action)}")
            state.apply(action)
            if step or (every and (index + 1) % every == 0):
                console.print(state.render_text(color=True), markup=True)
                if step:
                    input("Enter for the next move… ")
        console.print(state.render_text(color=True), markup=True)
        if state.is_terminal():
            winners = ", ".join(names[s] for s in state.winners())
            console.print(f"Final scores: {dict(zip(names, state.scores(), strict=True))} · winner: {winners}")
