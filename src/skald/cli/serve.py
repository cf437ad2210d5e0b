"""`skald serve`: the web table, on an SQLite file by default or PostgreSQL by URL."""

from __future__ import annotations

import ipaddress
from dataclasses import replace
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
            "",
            "--db",
            envvar="SKALD_DATABASE_URL",
            show_envvar=True,
            help="Database URL: sqlite:///path.db or postgresql://user@host/db (default: an SQLite file).",
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
        bot_workers: str | None = typer.Option(
            None,
            "--bot-workers",
            metavar="N",
            help="Processes bots think in, 0 thinking in the server's threads "
            "(default: $SKALD_BOT_WORKERS, else 2, 1 on a one-core machine).",
        ),
        max_bot_games: str | None = typer.Option(
            None,
            "--max-bot-games",
            metavar="N",
            help="Unfinished games with a bot seat at most (default: $SKALD_MAX_BOT_GAMES, else 50).",
        ),
        max_bot_games_per_client: str | None = typer.Option(
            None,
            "--max-bot-games-per-client",
            metavar="N",
            help="Unfinished games with a bot seat one client address may have made "
            "(default: $SKALD_MAX_BOT_GAMES_PER_CLIENT, else 4).",
        ),
        replays_per_second: str | None = typer.Option(
            None,
            "--replays-per-second",
            metavar="N",
            help="Past positions one client address may have drawn per second, a burst of five times as many "
            "(default: $SKALD_REPLAYS_PER_SECOND, else 4).",
        ),
        max_connections_per_address: str | None = typer.Option(
            None,
            "--max-connections-per-address",
            metavar="N",
            help="Connections one client address may hold open (default: $SKALD_MAX_CONNECTIONS_PER_ADDRESS, else 50).",
        ),
        idle_timeout: str | None = typer.Option(
            None,
            "--idle-timeout",
            metavar="SECONDS",
            help="Seconds for a request's headers or body or a WebSocket's hello, and the longest idle time "
            "(default: $SKALD_IDLE_TIMEOUT, else 10).",
        ),
        trusted_proxies: str | None = typer.Option(
            None,
            "--trusted-proxies",
            metavar="ADDRESSES",
            help="Comma-separated addresses or networks of reverse proxies whose X-Forwarded-For is believed "
            "(default: $SKALD_TRUSTED_PROXIES, else none).",
        ),
        allowed_hosts: str | None = typer.Option(
            None,
            "--allowed-hosts",
            metavar="NAMES",
            help="Comma-separated host names the server answers to, * for any "
            "(default: $SKALD_ALLOWED_HOSTS, else localhost, 127.0.0.1, ::1; the public URL's is always allowed).",
        ),
        public_url: str | None = typer.Option(
            None,
            "--public-url",
            metavar="URL",
            help="Base URL people reach the server by, for invite links; https turns on HSTS "
            "(default: $SKALD_PUBLIC_URL).",
        ),
        game_expiry_days: str | None = typer.Option(
            None,
            "--game-expiry-days",
            metavar="DAYS",
            help="Days an unfinished game may go without a move before it is deleted, 0 for never "
            "(default: $SKALD_GAME_EXPIRY_DAYS, else 30).",
        ),
        remind_after: str | None = typer.Option(
            None,
            "--remind-after",
            metavar="MINUTES",
            help="Minutes a turn waits before its player, if he asked, is sent one e-mail reminder "
            "(default: $SKALD_REMIND_AFTER, else 60).",
        ),
        smtp_host: str | None = typer.Option(
            None,
            "--smtp-host",
            metavar="HOST",
            help="Mail relay that reminders are sent through; none: no reminders (default: $SKALD_SMTP_HOST).",
        ),
        smtp_port: str | None = typer.Option(
            None, "--smtp-port", metavar="PORT", help="The relay's port (default: $SKALD_SMTP_PORT, else 25)."
        ),
        smtp_starttls: bool = typer.Option(
            False, "--smtp-starttls", help="Ask the relay for STARTTLS (default: $SKALD_SMTP_STARTTLS)."
        ),
        smtp_user: str | None = typer.Option(
            None,
            "--smtp-user",
            metavar="NAME",
            help="Log in to the relay as NAME, the password from $SKALD_SMTP_PASSWORD (default: $SKALD_SMTP_USER).",
        ),
        mail_from: str | None = typer.Option(
            None,
            "--mail-from",
            metavar="ADDRESS",
            help="The reminders' sender address (default: $SKALD_MAIL_FROM).",
        ),
        allow_client_seeds: bool = typer.Option(
            False,
            "--allow-client-seeds",
            help="Let a request choose its game's seed (tests only: whoever chooses it knows every draw; "
            "default: $SKALD_ALLOW_CLIENT_SEEDS).",
        ),
    ) -> None:
        """Serve the web table: a lobby, live tables over WebSockets, bots on the server."""
        try:
            from skald.web import Settings
            from skald.web.server import listen, run
            from skald.web.settings import setting_list, setting_number, setting_url
            from skald.web.store.engine import default_url
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
        if bot_workers is not None:
            memory["bot_workers"] = int(setting_number("--bot-workers", bot_workers, least=0, whole=True))
        if max_bot_games is not None:
            memory["max_bot_games"] = int(setting_number("--max-bot-games", max_bot_games, least=1, whole=True))
        if max_bot_games_per_client is not None:
            memory["max_bot_games_per_client"] = int(
                setting_number("--max-bot-games-per-client", max_bot_games_per_client, least=1, whole=True)
            )
        if replays_per_second is not None:
            memory["replays_per_second"] = setting_number("--replays-per-second", replays_per_second, least=0.01)
        if max_connections_per_address is not None:
            memory["max_connections_per_address"] = int(
                setting_number("--max-connections-per-address", max_connections_per_address, least=1, whole=True)
            )
        if idle_timeout is not None:
            memory["idle_timeout"] = setting_number("--idle-timeout", idle_timeout, least=0.5)
        if trusted_proxies is not None:
            memory["trusted_proxies"] = setting_list(trusted_proxies)
        if allowed_hosts is not None:
            memory["allowed_hosts"] = setting_list(allowed_hosts)
        if public_url is not None:
            memory["public_url"] = setting_url("--public-url", public_url)
        if game_expiry_days is not None:
            memory["game_expiry_days"] = setting_number("--game-expiry-days", game_expiry_days, least=0)
        if allow_client_seeds:
            memory["allow_client_seeds"] = True
        memory.update(mail_settings(remind_after, smtp_host, smtp_port, smtp_starttls, smtp_user, mail_from))
        settings = Settings(url, games_per_minute=games_per_minute, moves_per_second=moves_per_second, **memory)
        check_proxies(settings.trusted_proxies)
        if host not in ("0.0.0.0", "::", "") and "*" not in settings.allowed_hosts:
            # The address it listens on is one it is reached by.
            settings = replace(settings, allowed_hosts=(*settings.allowed_hosts, host))
        sock = listen(host, port)  # before saying where: a port in use stops here, in one line
        shown = url.split("@")[-1] if "@" in url else url
        where = settings.public_url or f"http://{host}:{port}"
        settings = replace(settings, served_url=f"http://{host}:{port}")
        if settings.smtp_host and not settings.public_url and host in ("0.0.0.0", "::", ""):
            console.print("[yellow]Reminders link to the address served, which names no host: set --public-url.[/]")
        console.print(f"Skald web table on [bold]{where}/[/] · database {escape(shown)}", markup=True, soft_wrap=True)
        run(settings, host, port, sock)


def check_proxies(proxies: tuple[str, ...]) -> None:
    """Stop start-up with one line if a trusted proxy is neither an address nor a network."""
    for item in proxies:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise SystemExit(
                f"skald serve: trusted proxy {item!r}: expected an address or network such as 10.0.0.0/8"
            ) from None


def mail_settings(
    remind_after: str | None,
    smtp_host: str | None,
    smtp_port: str | None,
    smtp_starttls: bool,
    smtp_user: str | None,
    mail_from: str | None,
) -> dict[str, Any]:
    """The reminders' settings given as flags (each overriding its environment variable); a relay without a sender,
    or a sender that is no address, stops start-up with one line."""
    import os

    from skald.web.errors import TableError
    from skald.web.mail import clean_address
    from skald.web.settings import setting_number

    given: dict[str, Any] = {}
    if remind_after is not None:
        given["remind_after"] = setting_number("--remind-after", remind_after, least=0.001)
    if smtp_host is not None:
        given["smtp_host"] = smtp_host.strip()
    if smtp_port is not None:
        given["smtp_port"] = int(setting_number("--smtp-port", smtp_port, least=1, whole=True))
    if smtp_starttls:
        given["smtp_starttls"] = True
    if smtp_user is not None:
        given["smtp_user"] = smtp_user.strip()
    if mail_from is not None:
        given["mail_from"] = mail_from.strip()
    host = given.get("smtp_host", os.environ.get("SKALD_SMTP_HOST", "").strip())
    sender = given.get("mail_from", os.environ.get("SKALD_MAIL_FROM", "").strip())
    if host and not sender:
        raise SystemExit("skald serve: --smtp-host needs --mail-from (or SKALD_MAIL_FROM), the reminders' sender")
    if sender:
        try:
            clean_address(sender)
        except TableError as error:
            raise SystemExit(f"skald serve: --mail-from={sender!r}: {error.message}") from None
    return given
