"""The `skald` command: each sub-command lives in its own module and registers itself on `app`; each registered
game's own commands (`Game.commands()`) are added under the game's name, as `skald <game> …`."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from skald.cli import check, play, replay, serve, simulate, tournament, verify
from skald.cli.common import print_error
from skald.engine import game_names, get_game


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
        if LOAD_ERROR is not None:
            _exit_with(LOAD_ERROR, 2)
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
        except Exception as error:  # a bug: still one line, unless asked for the traceback
            if os.environ.get("SKALD_TRACEBACK"):
                raise
            _exit_with(
                f"internal error: {type(error).__name__}: {error} (a bug in skald; please report it with the "
                "command you ran, and SKALD_TRACEBACK=1 set to show where it happened)",
                1,
            )
        sys.exit(code if isinstance(code, int) else 0)


def _exit_with(message: str, code: int) -> NoReturn:
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


simulate.register(app)
replay.register(app)
tournament.register(app)
play.register(app)
serve.register(app)
check.register(app)
verify.register(app)


def add_game_commands(group: typer.Typer) -> str | None:
    """Add every registered game's own commands to `group` as `skald <game> …` (a game may have none); a game
    whose name is already a `skald` command is left out rather than hiding that command. Returns why the games
    could not be loaded (a module in `SKALD_GAMES` that does not import, a broken game), or None."""
    taken = {command.name or getattr(command.callback, "__name__", "") for command in group.registered_commands}
    taken |= {sub.name for sub in group.registered_groups if sub.name}
    try:
        for name in game_names():
            commands = get_game(name).commands()
            if commands is not None and name not in taken:
                group.add_typer(commands, name=name)
    except Exception as error:  # reported as one line when the command runs, never a traceback at import
        return (
            str(error) if isinstance(error, ImportError) else f"cannot load the games: {type(error).__name__}: {error}"
        )
    return None


#: Why the registered games could not be loaded, if they could not: every command then stops with this line.
LOAD_ERROR = add_game_commands(app)


if __name__ == "__main__":
    app()
