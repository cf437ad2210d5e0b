"""What an operator may tune when starting the web table."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

#: The largest WebSocket message or HTTP request body the table accepts, in bytes.
MAX_MESSAGE = 4096
MAX_BODY = 16384

#: How long a table nobody is connected to stays in memory after its last move or request, unless set otherwise.
TABLE_IDLE_SECONDS = 300.0
#: How many tables stay in memory at most (tables with clients or a move in progress are never dropped).
MAX_TABLES = 1000


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


@dataclass(frozen=True)
class Settings:
    """Database URL, rate limits and how many tables one server process keeps in memory."""

    db_url: str
    #: Games one client address may create per minute (a burst of as many is allowed).
    games_per_minute: float = 20.0
    #: Moves one connection or seat token may submit per second (a burst of twice as many is allowed).
    moves_per_second: float = 10.0
    #: Seconds a table nobody is connected to stays in memory after its last move or request (`skald serve
    #: --table-idle-seconds`, else `SKALD_TABLE_IDLE_SECONDS`; 0 drops it as soon as nobody uses it). A finished
    #: one goes at once.
    table_idle_seconds: float = field(
        default_factory=lambda: environment_number("SKALD_TABLE_IDLE_SECONDS", TABLE_IDLE_SECONDS, least=0)
    )
    #: Tables kept in memory at most, the least recently used dropped first (`--max-tables`, else
    #: `SKALD_MAX_TABLES`).
    max_tables: int = field(
        default_factory=lambda: int(environment_number("SKALD_MAX_TABLES", MAX_TABLES, least=1, whole=True))
    )
