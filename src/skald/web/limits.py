"""How fast one client may ask the server for what costs it most: the rate limits shared by the routes."""

from __future__ import annotations

from dataclasses import dataclass

from skald.web.ratelimit import RateLimiter
from skald.web.settings import Settings


@dataclass(frozen=True)
class Limits:
    """The buckets of one server: creations, moves, new WebSocket sessions and questions over HTTP."""

    #: Games created (and rematches, and new seat tokens) per client address.
    creations: RateLimiter
    #: Open seats taken per client address, at the rate of creations.
    joins: RateLimiter
    #: Moves per seat of a game, over HTTP and the WebSocket alike.
    moves: RateLimiter
    #: New WebSocket sessions per client address (each costs a welcome and a full view).
    hellos: RateLimiter
    #: `why`, the chat download and reviews over HTTP per client address (over a WebSocket each connection has
    #: its own bucket).
    questions: RateLimiter
    #: Full views asked for over the WebSocket per client address, across its connections (each connection also has
    #: its own allowance, `SocketSession.ALLOWANCES`).
    views: RateLimiter
    #: Past positions drawn for the replay per client address (those already kept are not counted).
    replays: RateLimiter

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        """The limits `settings` asks for."""
        cap = settings.max_connections_per_address
        return cls(
            creations=RateLimiter(settings.games_per_minute / 60.0, max(1.0, settings.games_per_minute)),
            joins=RateLimiter(settings.games_per_minute / 60.0, max(1.0, settings.games_per_minute)),
            moves=RateLimiter(settings.moves_per_second, max(1.0, 2 * settings.moves_per_second)),
            # A burst of twice the connection cap, then a fifth of it per second.
            hellos=RateLimiter(cap / 5.0, 2.0 * cap),
            questions=RateLimiter(5.0, 20.0),
            views=RateLimiter(4.0, 20.0),
            replays=RateLimiter(settings.replays_per_second, 5.0 * settings.replays_per_second),
        )
