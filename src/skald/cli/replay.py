"""`skald replay RECORD.json`: step through a game record, the table shown after each move and every scoring
itemised as it happens.

A finished game is shown whole. A game still in progress with hidden information (a saved hot-seat game) is shown
as a spectator sees it, so replaying a save reveals no hand.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from skald.cli.common import console, display_names, fail, load_record
from skald.cli.table import View, scoring_table, with_outcome
from skald.engine import CHANCE, PERFECT, State


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
        names = display_names(loaded.seats)  # two seats of one name are told apart by number
        state = loaded.initial_state()
        hidden = state.game.information != PERFECT
        whole = not hidden or loaded.replay().is_terminal()
        if not whole:
            console.print("The game is not over: shown as a spectator sees it (hidden moves stay hidden).")
        view = View()
        index = 0
        scored = 0
        try:
            for index, action in enumerate(loaded.actions):
                player = state.current_player()
                who = "chance" if player == CHANCE else names[player]
                notation = state.action_to_notation(action) if whole else state.notation_for(action, None)
                words = _outcome(view, state, action, whole) if player == CHANCE else ""
                console.print(f"{index + 1:>4}. {escape(who)}: {escape(with_outcome(notation, words))}")
                state.apply(action)
                scorings = state.scorings()
                for report in scorings[scored:]:  # a scoring (and each of its lines) as soon as it is made
                    console.print(scoring_table(state.game.presentation, report, names))
                scored = len(scorings)
                if step or (every and (index + 1) % every == 0):
                    show(state, names, every_hand=hidden and whole)
                    if step:
                        input("Enter for the next move… ")
        except EOFError:
            fail(f"--step: the input ended (stdin closed) at action {index + 1} of {len(loaded.actions)}", 1)
        except KeyboardInterrupt:
            fail(f"interrupted (Ctrl-C) at action {index + 1} of {len(loaded.actions)}", 130)
        show(state, names, every_hand=hidden and whole)
        if state.is_terminal():
            console.print(final_scores(state, names))


def _outcome(view: View, state: State, action: int, whole: bool) -> str:
    """What the chance outcome `action` at `state` (not applied yet) decides: in a game shown whole, for everyone;
    else as a spectator may read it (nothing for an outcome hidden from him)."""
    return state.game.presentation.outcome(state, action) if whole else view.outcome(state, action, None)


def show(state: State, names: list[str], every_hand: bool) -> None:
    """The table as a spectator sees it or, with `every_hand` (a finished game's hidden hands), as each seat does."""
    view = View()
    if not every_hand:
        console.print(view.board(state, names, None))
        return
    for seat, name in enumerate(names):
        console.print(Rule(Text(f"as {name} sees it")))
        console.print(view.board(state, names, seat))


def final_scores(state: State, names: list[str]) -> Table:
    """The final scores, best first, each winner marked."""
    table = Table(title="Final scores", title_justify="left")
    table.add_column("Player")
    table.add_column("Score", justify="right")
    table.add_column("")
    winners = set(state.winners())
    for seat in sorted(range(state.num_players), key=lambda seat: -state.scores()[seat]):
        table.add_row(Text(names[seat]), str(state.scores()[seat]), "winner" if seat in winners else "")
    return table
