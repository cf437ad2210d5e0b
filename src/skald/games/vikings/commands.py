"""`skald vikings …`: the game's own commands, such as scoring a saved or hand-written position.

`VikingsGame.commands()` hands these to the `skald` command, which adds them under the game's name; a mistake ends
in one `error:` line, as every `skald` error does (the `skald` command prints it; run alone, Typer does).
"""

from __future__ import annotations

import json
import reprlib
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from skald.engine import Game, Record, RecordError
from skald.engine.record import read_json_file

console = Console(highlight=False, emoji=False)


class CommandError(typer.TyperException):
    """A mistake in what the person gave a Vikings command (a file, a field): one line naming it, exit status 2."""

    exit_code = 2


def fail(message: str) -> NoReturn:
    """Stop the command with `message` as its one error line."""
    raise CommandError(message)


class When(str, Enum):
    """Which scoring to show."""

    small = "small"
    large = "large"
    end = "end"


def load_position(game: Game, path: Path) -> Any:
    """A Vikings state from a position file or a game record; exits with a clear error naming the field."""
    from skald.engine import PositionError
    from skald.games.vikings.position import state_from_dict
    from skald.games.vikings.state import VikingsState

    try:
        data = read_json_file(path)
        if isinstance(data, dict) and data.get("format") == "skald-record":
            if data.get("game") != game.name:
                raise RecordError(f"game: {reprlib.repr(data.get('game'))} is not Vikings, the game this scores")
            return Record.from_dict(data).replay()
        return state_from_dict(data, VikingsState, game)
    except (PositionError, RecordError) as error:
        message = str(error)
        fail(message if message.startswith(f"{path}:") else f"{path}: {message}")


def breakdown(state: Any, when: str) -> list[Any]:
    """The itemised lines of a scoring of `state`'s Mainlands, computed on a copy: the position is unchanged.

    A finished game has had its end-game scoring already: that one is shown as it happened, not scored again.
    """
    from skald.games.vikings.scoring import end_scoring, large_scoring, small_scoring

    if when == "end" and state.is_terminal() and state.reports and state.reports[-1].when == "end":
        return list(state.reports[-1].lines)
    copy = state.clone()
    order = copy.turn_order()
    if when == "small":
        return [line for seat in order for line in small_scoring(seat, copy.lands[seat])]
    if when == "large":
        return [line for seat in order for line in large_scoring(seat, copy.lands[seat])]
    options = copy.options
    return end_scoring(copy.lands, order, options["zero_majority"] == "all_tied", options["fame_floor"] == "zero")


def commands(game: Game) -> typer.Typer:
    """The `vikings` command group of `game`: `score`."""
    group = typer.Typer(help="Vikings tools: score a position.", no_args_is_help=True)

    @group.command()
    def score(
        position: Path = typer.Argument(..., help="A position (docs/vikings-positions.md) or a game record."),
        when: When | None = typer.Option(
            None, "--when", help="small, large or end (default: the scoring due after the position's round)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the breakdown as JSON."),
    ) -> None:
        """Print the itemised breakdown of a scoring for a saved position, without changing it."""
        state = load_position(game, position)
        chosen = when.value if when else _due(state)
        lines = breakdown(state, chosen)
        totals = {
            seat: {
                "fame": sum(line.fame for line in lines if line.seat == seat),
                "gold": sum(line.gold for line in lines if line.seat == seat),
            }
            for seat in range(state.num_players)
        }
        if as_json:
            print(json.dumps({"when": chosen, "lines": [line.to_json() for line in lines], "totals": totals}, indent=1))
            return
        console.print(state.render_text(color=True), markup=True)
        table = Table(title=f"{chosen.title()} scoring", title_justify="left")
        for column, justify in (("Player", "left"), ("Item", "left"), ("Fame", "right"), ("Gold", "right")):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        for line in lines:
            table.add_row(
                f"Player {line.seat + 1}",
                line.text,
                f"{line.fame:+d}" if line.fame else "",
                f"{line.gold:+d}" if line.gold else "",
            )
        table.add_section()
        for seat, total in totals.items():
            table.add_row(f"Player {seat + 1}", "total", f"{total['fame']:+d}", f"{total['gold']:+d}")
        console.print(table)

    return group


def _due(state: Any) -> str:
    if state.is_terminal():
        return "end"
    return "large" if state.round % 2 == 0 else "small"
