"""The `skald` command: each sub-command lives in its own module, which registers it on a Typer app; each
registered game's own commands (`Game.commands()`) are added under the game's name, as `skald <game> …`.

Nothing is imported before it is needed: `skald --help` lists every command from `COMMANDS` and the games' entry
points without importing a command's module or a game (together they pull in every game, the bots, the simulator,
numpy and the web server), so it answers at once; `skald NAME …` imports only NAME's module.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any, Final, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

#: Every `skald` command in the order `skald --help` lists them: the module whose `register(app)` defines it, and
#: the line the help shows for it (the first line of the command's own help: tests/test_cli.py checks they agree).
COMMANDS: Final = {
    "simulate": (
        "skald.cli.simulate",
        "Play many seeded games (random, or bots) and measure them; compare rule variants with --compare.",
    ),
    "replay": ("skald.cli.replay", "Replay a record, printing each action in notation and the table."),
    "tournament": (
        "skald.cli.tournament",
        "Play bots against each other with seats rotating fairly, and report win rates and ratings.",
    ),
    "play": (
        "skald.cli.play",
        "Play at the terminal: people and bots at one table (several `you` seats make a hot-seat game).",
    ),
    "serve": ("skald.cli.serve", "Serve the web table: a lobby, live tables over WebSockets, bots on the server."),
    "check": (
        "skald.cli.check",
        "Check a game against the contract: random games, illegal actions, clones, records, forms and leaks.",
    ),
    "train": (
        "skald.cli.train",
        "Train a learned bot by self-play: the network-guided search plays itself, the network learns its moves.",
    ),
    "verify": (
        "skald.cli.verify",
        "Check a web game's record: signed by its server, and each chance draw from the committed seed.",
    ),
}
#: The entry-point group in which an installed game that has its own commands says so (pyproject.toml), so that
#: `skald --help` can list them without loading the game.
COMMAND_GAMES: Final = "skald.commands"


def game_command_names() -> list[str]:
    """The games with their own commands, sorted: the installed ones that declare them in `COMMAND_GAMES`, and
    those of the modules in `SKALD_GAMES` (games not installed, which must be loaded to be asked). A game whose name
    is already a `skald` command is left out rather than hiding that command."""
    names = {entry.name for entry in entry_points(group=COMMAND_GAMES)}
    if os.environ.get("SKALD_GAMES", "").strip():
        from skald.engine import game_names, get_game

        names |= {name for name in game_names() if get_game(name).commands() is not None}
    return sorted(names - COMMANDS.keys())


class SkaldGroup(TyperGroup):
    """The `skald` group: a mistake on the command line ends in one `error:` line, as every other error does."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; usage errors, aborts and (as a last resort) unexpected errors exit in one line."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)
        from skald.engine.registry import GameImportError

        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as error:  # Click's usage errors: a bad flag or value, a missing argument
            if type(error).__name__ == "NoArgsIsHelpError":  # the help has been shown instead
                sys.exit(error.exit_code)
            ctx = getattr(error, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            _exit_with(error.format_message() + hint, error.exit_code)
        except typer.Abort:
            _exit_with("aborted", 1)
        except GameImportError as error:  # a module named in SKALD_GAMES does not import
            _exit_with(str(error), 2)
        except Exception as error:  # a bug: still one line, unless asked for the traceback
            if os.environ.get("SKALD_TRACEBACK"):
                raise
            _exit_with(
                f"internal error: {type(error).__name__}: {error} (a bug in skald; please report it with the "
                "command you ran, and SKALD_TRACEBACK=1 set to show where it happened)",
                1,
            )
        sys.exit(code if isinstance(code, int) else 0)

    #: While the help is being written: commands are then listed from `COMMANDS`, not imported.
    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        """Every `skald` command, then every game's own group."""
        return [*COMMANDS, *game_command_names()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command called `cmd_name`, importing its module (or loading its game) on first use; while the help
        is written, a stand-in carrying only the line the help shows."""
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name in COMMANDS:
            module, line = COMMANDS[cmd_name]
            if self._listing:
                return TyperCommand(cmd_name, short_help=line, help=line)
            group = typer.Typer()
            import_module(module).register(group)
            command = typer.main.get_command(group)
        elif cmd_name in game_command_names():
            if self._listing:
                return TyperCommand(cmd_name, short_help=f"The game's own commands: skald {cmd_name} --help.")
            from skald.engine import get_game

            commands = get_game(cmd_name).commands()
            if commands is None:
                return None
            command = typer.main.get_group(commands)
        else:
            return None
        command.name = cmd_name
        self.commands[cmd_name] = command
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help, listing the commands without importing them."""
        game_command_names()  # a game that cannot be loaded stops the help before a line of it is written
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def _exit_with(message: str, code: int) -> NoReturn:
    from skald.cli.common import print_error  # here: the module imports the engine, which `--help` never needs

    print_error(message)
    sys.exit(code)


app = typer.Typer(
    name="skald",
    help="Skald: play and study Viking board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=SkaldGroup,
)


def _show_version(value: bool) -> None:
    if value:
        from skald import __version__
        from skald.build import build_name

        typer.echo(f"skald {__version__}: {build_name()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Show the version and which build runs."
    ),
) -> None:
    """Skald: play and study Viking board games."""


if __name__ == "__main__":
    app()
