"""What an operator may tune when starting the web table: each setting a `skald serve` flag and an environment
variable, with a default safe for the quick start on one's own machine."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

#: The largest WebSocket message or HTTP request body the table accepts, in bytes.
MAX_MESSAGE = 4096
MAX_BODY = 16384
#: The largest WebSocket frame the server reads at all; a bigger one closes the connection (1009) unread.
MAX_FRAME = 2 * MAX_MESSAGE

#: How long a table nobody is connected to stays in memory after its last move or request, unless set otherwise.
TABLE_IDLE_SECONDS = 300.0
#: How many tables stay in memory at most (tables with clients or a move in progress are never dropped).
MAX_TABLES = 1000
#: Connections (HTTP and WebSocket) one client address may hold open at once.
MAX_CONNECTIONS_PER_ADDRESS = 50
#: Seconds a connection may take to send a request's headers or body, or a WebSocket its hello, or sit idle
#: between requests, before it is closed.
IDLE_TIMEOUT = 10.0
#: Days an unfinished game may go without a move before it is deleted (0: never).
GAME_EXPIRY_DAYS = 30.0
#: Unfinished games with a bot seat that one client address, and the whole server, may have in memory at once.
MAX_BOT_GAMES_PER_CLIENT = 4
MAX_BOT_GAMES = 50
#: Seconds the answers at a decision of hidden forcedness (a card window) wait before they reach the table, and
#: wait more per bot decision among them (`skald.web.driving`).
HIDDEN_PACE = 0.15
#: Past positions one client address may have drawn for the replay per second (a burst of five times as many).
REPLAYS_PER_SECOND = 4.0
#: Minutes a seat waits for its person before his account is sent one e-mail reminder (`skald.web.reminders`).
REMIND_AFTER = 60.0
#: The mail relay's port unless set otherwise: SMTP, as a relay on the machine itself (Postfix, say) takes it.
SMTP_PORT = 25


def default_bot_workers() -> int:
    """Bot worker processes by default: two, or one on a one-core machine (the server's event loop needs a core)."""
    return min(2, os.cpu_count() or 1)


def environment_bot_workers() -> int:
    """`SKALD_BOT_WORKERS`, else the default (0 runs the bots in the server's threads: for comparison only)."""
    return int(environment_number("SKALD_BOT_WORKERS", default_bot_workers(), least=0, whole=True))


def environment_max_bot_games() -> int:
    """`SKALD_MAX_BOT_GAMES`, else `MAX_BOT_GAMES`."""
    return int(environment_number("SKALD_MAX_BOT_GAMES", MAX_BOT_GAMES, least=1, whole=True))


def environment_max_bot_games_per_client() -> int:
    """`SKALD_MAX_BOT_GAMES_PER_CLIENT`, else `MAX_BOT_GAMES_PER_CLIENT`."""
    return int(environment_number("SKALD_MAX_BOT_GAMES_PER_CLIENT", MAX_BOT_GAMES_PER_CLIENT, least=1, whole=True))


#: The host names a quick start on one's own machine is reached by.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def setting_number(source: str, text: str, least: float, whole: bool = False) -> float:
    """`text`, given by the flag or environment variable `source`, as a number of at least `least`; a bad value
    stops start-up with one line naming `source`."""
    kind = "a whole number" if whole else "a number"
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = math.nan
    if not value >= least or math.isinf(value):
        # An operator's typo, found before the server starts: one line, no traceback.
        raise SystemExit(f"skald serve: {source}={text!r}: expected {kind} of at least {least:g}")
    return value


def environment_number(name: str, default: float, least: float, whole: bool = False) -> float:
    """The number in the environment variable `name` (`default` if unset); a bad value stops start-up plainly."""
    text = os.environ.get(name, "").strip()
    return setting_number(name, text, least, whole) if text else default


def setting_list(text: str) -> tuple[str, ...]:
    """A comma-separated list (a flag's or an environment variable's value) as its trimmed, non-empty items."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def setting_url(source: str, text: str) -> str:
    """The public base URL given by `source`, without its trailing slash; anything but an http(s) URL with a host
    and no path stops start-up with one line."""
    url = text.strip().rstrip("/")
    scheme, _, rest = url.partition("://")
    if scheme not in ("http", "https") or not rest or "/" in rest or "?" in rest or "#" in rest:
        raise SystemExit(f"skald serve: {source}={text!r}: expected a base URL such as https://skald.example.org")
    return url


def environment_flag(name: str) -> bool:
    """Whether the environment variable `name` is set to a yes (1, true, yes, on)."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Settings:
    """Database URL, limits, the addresses and names the server trusts, and how long it keeps what."""

    db_url: str
    #: Games one client address may create per minute (a burst of as many is allowed); rematches count too.
    games_per_minute: float = 20.0
    #: Moves one connection or seat token may submit per second (a burst of twice as many is allowed).
    moves_per_second: float = 10.0
    #: Seconds a table nobody is connected to stays in memory after its last move or request (`skald serve
    #: --table-idle-seconds`, else `SKALD_TABLE_IDLE_SECONDS`; 0 drops it as soon as nobody uses it). A finished
    #: one goes at once.
    table_idle_seconds: float = field(
        default_factory=lambda: environment_number("SKALD_TABLE_IDLE_SECONDS", TABLE_IDLE_SECONDS, least=0)
    )
    #: Past positions drawn for the replay per client address and second (`--replays-per-second`, else
    #: `SKALD_REPLAYS_PER_SECOND`); positions already kept are not counted.
    replays_per_second: float = field(
        default_factory=lambda: environment_number("SKALD_REPLAYS_PER_SECOND", REPLAYS_PER_SECOND, least=0.01)
    )
    #: Tables kept in memory at most, the least recently used dropped first (`--max-tables`, else
    #: `SKALD_MAX_TABLES`).
    max_tables: int = field(
        default_factory=lambda: int(environment_number("SKALD_MAX_TABLES", MAX_TABLES, least=1, whole=True))
    )
    #: Connections one client address may hold open at once (`--max-connections-per-address`, else
    #: `SKALD_MAX_CONNECTIONS_PER_ADDRESS`).
    max_connections_per_address: int = field(
        default_factory=lambda: int(
            environment_number("SKALD_MAX_CONNECTIONS_PER_ADDRESS", MAX_CONNECTIONS_PER_ADDRESS, least=1, whole=True)
        )
    )
    #: Seconds for headers, a body or a hello, and the longest idle time between requests (`--idle-timeout`, else
    #: `SKALD_IDLE_TIMEOUT`).
    idle_timeout: float = field(
        default_factory=lambda: environment_number("SKALD_IDLE_TIMEOUT", IDLE_TIMEOUT, least=0.5)
    )
    #: Addresses or networks (CIDR) of reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed
    #: (`--trusted-proxies`, else `SKALD_TRUSTED_PROXIES`; none by default).
    trusted_proxies: tuple[str, ...] = field(
        default_factory=lambda: setting_list(os.environ.get("SKALD_TRUSTED_PROXIES", ""))
    )
    #: Host names the server answers to (`--allowed-hosts`, else `SKALD_ALLOWED_HOSTS`; `*` for any). The public
    #: URL's host is always allowed.
    allowed_hosts: tuple[str, ...] = field(
        default_factory=lambda: setting_list(os.environ.get("SKALD_ALLOWED_HOSTS", "")) or LOCAL_HOSTS
    )
    #: The base URL people reach the server by, for invite links (`--public-url`, else `SKALD_PUBLIC_URL`); empty:
    #: built from the request.
    public_url: str = field(
        default_factory=lambda: (
            setting_url("SKALD_PUBLIC_URL", os.environ["SKALD_PUBLIC_URL"])
            if os.environ.get("SKALD_PUBLIC_URL", "").strip()
            else ""
        )
    )
    #: Days an unfinished game may go without a move before it is deleted (`--game-expiry-days`, else
    #: `SKALD_GAME_EXPIRY_DAYS`; 0 keeps every game).
    game_expiry_days: float = field(
        default_factory=lambda: environment_number("SKALD_GAME_EXPIRY_DAYS", GAME_EXPIRY_DAYS, least=0)
    )
    #: Whether a request may choose its game's seed (`--allow-client-seeds`, else `SKALD_ALLOW_CLIENT_SEEDS`): for
    #: tests and reproducible demonstrations only, since whoever chooses the seed knows every draw.
    allow_client_seeds: bool = field(default_factory=lambda: environment_flag("SKALD_ALLOW_CLIENT_SEEDS"))
    #: Worker processes the bots think in (`--bot-workers`, else `SKALD_BOT_WORKERS`; default two, one on a
    #: one-core machine; 0 runs them in the server's threads, which slows every table: for comparison only).
    bot_workers: int = field(default_factory=environment_bot_workers)
    #: Seconds the table's own answers in a card window wait, together, and wait more per bot decision among them,
    #: so that no answer's timing tells what its seat holds (`SKALD_HIDDEN_PACE`; `skald.web.driving`).
    hidden_pace: float = field(default_factory=lambda: environment_number("SKALD_HIDDEN_PACE", HIDDEN_PACE, least=0.01))
    #: Unfinished games with a bot seat the server keeps at once (`--max-bot-games`, else `SKALD_MAX_BOT_GAMES`).
    max_bot_games: int = field(default_factory=environment_max_bot_games)
    #: Of those, how many one client address may have created (`--max-bot-games-per-client`, else
    #: `SKALD_MAX_BOT_GAMES_PER_CLIENT`).
    max_bot_games_per_client: int = field(default_factory=environment_max_bot_games_per_client)
    #: Minutes a seat waits for its person before his account is sent one reminder (`--remind-after`, else
    #: `SKALD_REMIND_AFTER`).
    remind_after: float = field(
        default_factory=lambda: environment_number("SKALD_REMIND_AFTER", REMIND_AFTER, least=0.001)
    )
    #: The mail relay reminders are sent through (`--smtp-host`, else `SKALD_SMTP_HOST`; none: no reminders), its
    #: port, whether to ask it for STARTTLS, and the login (the password only from `SKALD_SMTP_PASSWORD`, kept out
    #: of the command line); `mail_from` is the sender's address (`--mail-from`, else `SKALD_MAIL_FROM`).
    smtp_host: str = field(default_factory=lambda: os.environ.get("SKALD_SMTP_HOST", "").strip())
    smtp_port: int = field(
        default_factory=lambda: int(environment_number("SKALD_SMTP_PORT", SMTP_PORT, least=1, whole=True))
    )
    smtp_starttls: bool = field(default_factory=lambda: environment_flag("SKALD_SMTP_STARTTLS"))
    smtp_user: str = field(default_factory=lambda: os.environ.get("SKALD_SMTP_USER", "").strip())
    smtp_password: str = field(default_factory=lambda: os.environ.get("SKALD_SMTP_PASSWORD", ""), repr=False)
    mail_from: str = field(default_factory=lambda: os.environ.get("SKALD_MAIL_FROM", "").strip())
    #: The address the server listens at (`http://HOST:PORT`, set by `skald serve`): what links in mail are built
    #: on when there is no public URL.
    served_url: str = ""
