"""Helpers shared by the sub-commands: one console, and errors shown as one clear line, never a traceback."""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from skald.bots import SpecError, check_spec
from skald.engine import Game, OptionError, PositionError, Record, RecordError, Seat, State, get_game
from skald.engine.record import read_json_file
from skald.sim import BACKENDS

console = Console(highlight=False, emoji=False)
errors = Console(stderr=True, highlight=False, emoji=False)


def print_error(message: str) -> None:
    """Print `message` on stderr as one `error:` line: never wrapped, never read as Rich markup."""
    one_line = " ".join(message.split())  # an exception's own message may hold line breaks
    errors.print(f"[bold red]error:[/] {escape(one_line)}", markup=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print `message` as one `error:` line and exit with `code`."""
    print_error(message)
    raise typer.Exit(code)


def display_names(seats: list[Seat]) -> list[str]:
    """Each seat's name, with its seat number added where two seats share a name."""
    names = [seat.name for seat in seats]
    return [f"{name} (seat {i + 1})" if names.count(name) > 1 else name for i, name in enumerate(names)]


def find_game(name: str) -> Game:
    """The registered game called `name`, or a clear error listing the known games."""
    try:
        return get_game(name)
    except KeyError as error:
        fail(str(error.args[0]))


def check_players(game: Game, players: int) -> None:
    """Exit with a clear error naming `--players` unless `game` is played by `players`."""
    try:
        game.check_players(players)
    except ValueError as error:
        fail(f"--players: {error}")


def check_imports(modules: list[str] | None) -> None:
    """Import each `--import` module in order (one registering a game, say), or exit naming the one that cannot be
    imported."""
    for module in modules or []:
        try:
            import_module(module)
        except Exception as error:  # whatever importing raises, it is the --import that failed
            fail(f"--import {module}: cannot import it: {error}")


def check_bots(text: str) -> tuple[str, ...]:
    """The bot specs of `--bots` (comma-separated, by seat), each checked, or a clear error naming `--bots`."""
    specs = tuple(spec.strip() for spec in text.split(",") if spec.strip())
    if not specs:
        fail(f"--bots: no bot spec in {text!r}; e.g. --bots greedy or --bots mcts:easy,greedy")
    for spec in specs:
        try:
            check_spec(spec)
        except SpecError as error:
            fail(f"--bots: {error}")
    return specs


def parse_option(text: str) -> tuple[str, Any]:
    """`name=value`, the value read as JSON when it parses (numbers, true/false) and as a string otherwise."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise typer.BadParameter(f"expected NAME=VALUE, got {text!r}", param_hint="--option")
    try:
        return name, json.loads(raw)
    except (ValueError, RecursionError):
        return name, raw


def parse_options(texts: list[str] | None) -> dict[str, Any]:
    """Every `--option NAME=VALUE` as a dict of rule options; naming one option twice is an error."""
    options: dict[str, Any] = {}
    for text in texts or []:
        name, value = parse_option(text)
        if name in options:
            raise typer.BadParameter(f"{name} is given twice", param_hint="--option")
        options[name] = value
    return options


def check_options(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """`options` resolved against `game`'s rule options, or a clear error naming the `--option` at fault."""
    try:
        return game.resolve_options(options)
    except OptionError as error:  # the engine names the field as a record does: "options.ferry: ..."
        fail(f"--option: {error}")


def load_record(path: Path) -> Record:
    """The game record in the file at `path`, or a clear error naming the file and the field at fault."""
    try:
        return Record.load(path)
    except RecordError as error:
        message = str(error)
        fail(message if message.startswith(f"{path}: ") else f"{path}: {message}")


#: The help of `--from`, which `skald play`, `skald simulate` and `skald check` share.
FROM_HELP = "Start from the position in this JSON file (a game with a position format: docs/vikingatid-positions.md)."


def load_position(game: Game, path: Path, options: dict[str, Any] | None = None) -> tuple[Any, State]:
    """The position in the file at `path` (`--from`) as `game` reads it, with `options` laid over its rule options:
    its JSON and the state it describes, or a clear error naming the file and the field at fault; a game without a
    position format is refused by name."""
    if not game.position_format:
        fail(f"--from: {game.title} has no position format; only a game that has one starts from a position")
    try:
        data = read_json_file(path, PositionError)
    except PositionError as error:
        fail(f"--from {error}")
    if options and isinstance(data, dict):
        data = {**data, "options": {**(data.get("options") or {}), **options}}
    try:
        state = game.state_from_position(data)
    except (PositionError, OptionError) as error:
        fail(f"--from {path}: {error}")
    return data, state


def check_backend(backend: str, address: str | None) -> None:
    """Refuse, in one line, a backend that is unknown or not installed, or an --address without Ray."""
    if backend not in BACKENDS:
        fail(f"--backend: {backend!r} is not one of {', '.join(BACKENDS)}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        fail("--backend ray: Ray is not installed (pip install 'skald[ray]')")
    if address is not None and backend != "ray":
        fail("--address: a Ray cluster's address goes with --backend ray")


@contextmanager
def stopped_by_ctrl_c() -> Iterator[None]:
    """Ctrl-C stops a run over worker processes at once: this process raises KeyboardInterrupt and ends its workers.

    The terminal sends Ctrl-C to the workers too. Left alone, each would abandon its game, pick up the next, and
    the pool would wait for every queued game before the command could stop. Forked with this handler, a worker
    ignores the signal instead, and this process terminates it.
    """
    parent = os.getpid()

    def interrupted(_signum: int, _frame: FrameType | None) -> None:
        if os.getpid() != parent:
            return
        for child in multiprocessing.active_children():
            child.terminate()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
