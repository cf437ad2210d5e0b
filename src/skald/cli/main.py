"""The `skald` command: each sub-command lives in its own module and registers itself on `app`."""

from __future__ import annotations

import typer

from skald.cli import play, replay, serve, simulate, tournament, vikings

app = typer.Typer(
    name="skald",
    help="Skald: play and study Viking board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

simulate.register(app)
replay.register(app)
vikings.register(app)
tournament.register(app)
play.register(app)
serve.register(app)


if __name__ == "__main__":
    app()
