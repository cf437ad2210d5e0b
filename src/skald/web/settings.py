"""What an operator may tune when starting the web table."""

from __future__ import annotations

from dataclasses import dataclass

#: The largest WebSocket message or HTTP request body the table accepts, in bytes.
MAX_MESSAGE = 4096
MAX_BODY = 16384


@dataclass(frozen=True)
class Settings:
    """Database URL and rate limits of one server process."""

    db_url: str
    #: Games one client address may create per minute (a burst of as many is allowed).
    games_per_minute: float = 20.0
    #: Moves one connection or seat token may submit per second (a burst of twice as many is allowed).
    moves_per_second: float = 10.0
