"""Token buckets: a burst, then a steady rate, per key (a client address, a seat, an account name)."""

from __future__ import annotations

import time
from collections import OrderedDict

#: The most keys one limiter remembers.
CAPACITY = 100_000


class RateLimiter:
    """Allow `burst` events at once and `rate` per second after that, separately for each key.

    At most `capacity` keys are remembered: past that, the least recently used key is forgotten (its bucket starts
    full again if it comes back). Keys in use stay, so many new keys — many addresses, many names — never give back
    the allowance of a key someone keeps trying; and the key forgotten is the one idle longest, whose bucket has
    refilled the most.
    """

    def __init__(self, rate: float, burst: float, capacity: int = CAPACITY) -> None:
        self.rate = rate
        self.burst = burst
        self.capacity = capacity
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        """Take one token for `key`; False when its bucket is empty."""
        now = time.monotonic()
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        self._buckets.move_to_end(key)
        if len(self._buckets) > self.capacity:
            self._buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        """How many keys are remembered."""
        return len(self._buckets)
