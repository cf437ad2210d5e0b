"""Helpers shared by the sub-commands: one console, and errors shown as one clear line, never a traceback."""

from __future__ import annotations

import json
from typing import Any, NoReturn

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


def parse_option(text: str) -> tuple[str, Any]:
    """`name=value`, the value read as JSON when it parses (numbers, true/false) and as a string otherwise."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise typer.BadParameter(f"expected NAME=VALUE, got {text!r}", param_hint="--option")
    try:
        return name, json.loads(raw)
    except json.JSONDecodeError:
        return name, raw


def parse_options(texts: list[str] | None) -> dict[str, Any]:
    """Every `--option NAME=VALUE` as a dict of rule options."""
    return dict(parse_option(text) for text in texts or [])
