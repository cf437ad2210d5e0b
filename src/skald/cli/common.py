"""Helpers shared by the sub-commands: one console, and errors shown as one clear line, never a traceback."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print `message` as an error and exit with `code`."""
    errors.print(f"[bold red]error:[/] {message}", markup=True)
    raise typer.Exit(code)


def find_game(name: str) -> object:
    """The registered game called `name`, or a clear error listing the known games."""
    from skald.engine import get_game

    try:
        return get_game(name)
    except KeyError as error:
        fail(str(error.args[0]))
