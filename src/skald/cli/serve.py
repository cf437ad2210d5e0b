"""`skald serve`: the web table, on an SQLite file by default or PostgreSQL by URL."""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape

from skald.cli.common import console, fail


def register(app: typer.Typer) -> None:
    """Add `serve` to the `skald` command."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
        db: str = typer.Option(
            "", "--db", help="Database URL: sqlite:///path.db or postgresql://user@host/db (default: an SQLite file)."
        ),
        games_per_minute: float = typer.Option(20.0, "--games-per-minute", min=0.1, help="Game creations per address."),
        moves_per_second: float = typer.Option(10.0, "--moves-per-second", min=0.1, help="Moves per seat."),
        # Read as text, so a bad value is refused in one line naming the flag, as the environment variables are.
        table_idle_seconds: str | None = typer.Option(
            None,
            "--table-idle-seconds",
            metavar="SECONDS",
            help="Seconds an unused table stays in memory, 0 dropping it at once "
            "(default: $SKALD_TABLE_IDLE_SECONDS, else 300).",
        ),
        max_tables: str | None = typer.Option(
            None,
            "--max-tables",
            metavar="N",
            help="Tables kept in memory at most, the least recently used dropped first "
            "(default: $SKALD_MAX_TABLES, else 1000).",
        ),
    ) -> None:
        """Serve the web table: a lobby, live tables over WebSockets, bots on the server."""
        try:
            import uvicorn

            from skald.web import Settings, create_app
            from skald.web.db import default_url
            from skald.web.settings import setting_number
        except ImportError as error:
            fail(f"the web table needs the web extra: pip install 'skald[web]' ({error.msg})")
        url = db or default_url()
        if not url.startswith(("sqlite", "postgresql", "postgres")):
            fail(f"--db: {url!r} is neither sqlite:///… nor postgresql://…")
        # A flag overrides its environment variable, which is then not read at all.
        memory: dict[str, Any] = {}
        if table_idle_seconds is not None:
            memory["table_idle_seconds"] = setting_number("--table-idle-seconds", table_idle_seconds, least=0)
        if max_tables is not None:
            memory["max_tables"] = int(setting_number("--max-tables", max_tables, least=1, whole=True))
        settings = Settings(url, games_per_minute=games_per_minute, moves_per_second=moves_per_second, **memory)
        app = create_app(settings)
        shown = url.split("@")[-1] if "@" in url else url
        console.print(
            f"Skald web table on [bold]http://{host}:{port}/[/] · database {escape(shown)}", markup=True, soft_wrap=True
        )
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20, ws_ping_interval=20.0)
