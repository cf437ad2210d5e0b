"""Token buckets: a burst, then a steady rate, per key (a client address or a seat)."""

from __future__ import annotations

import time


class RateLimiter:
    """Allow `burst` events at once and `rate` per second after that, separately for each key."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        """Take one token for `key`; False when its bucket is empty."""
        now = time.monotonic()
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 100_000:
            self._buckets.clear()
        return True
