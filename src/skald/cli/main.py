"""The `skald` command: each sub-command lives in its own module and registers itself on `app`."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperGroup

from skald.cli import play, replay, serve, simulate, tournament, vikings
from skald.cli.common import print_error


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

simulate.register(app)
replay.register(app)
vikings.register(app)
tournament.register(app)
play.register(app)
serve.register(app)


if __name__ == "__main__":
    app()
