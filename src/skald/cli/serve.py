"""`skald serve`: the web table, on an SQLite file by default or PostgreSQL by URL."""

from __future__ import annotations

import typer

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
    ) -> None:
        """Serve the web table: a lobby, live tables over WebSockets, bots on the server."""
        try:
            import uvicorn

            from skald.web import Settings, create_app
            from skald.web.db import default_url
        except ImportError as error:
            fail(f"the web table needs the web extra: pip install 'skald[web]' ({error.msg})")
        url = db or default_url()
        if not url.startswith(("sqlite", "postgresql", "postgres")):
            fail(f"--db: {url!r} is neither sqlite:///… nor postgresql://…")
        app = create_app(Settings(url, games_per_minute=games_per_minute, moves_per_second=moves_per_second))
        shown = url.split("@")[-1] if "@" in url else url
        console.print(f"Skald web table on [bold]http://{host}:{port}/[/] · database {shown}", markup=True)
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20, ws_ping_interval=20.0)
