"""The rate limiters' memory is bounded without ever giving a limited key its allowance back.

A limiter that forgot every key at once when it held too many would let anyone with enough addresses (or enough
names to try) reset everyone's limits, the per-name sign-in limit included. A limiter forgets only the key idle
longest, one at a time, so a key someone keeps trying stays limited however many other keys come.
"""

from __future__ import annotations

from skald.web.ratelimit import RateLimiter

#: The keys a limiter remembers by default.
CAPACITY = 100_000


def test_filling_a_limiter_with_many_keys_never_gives_back_a_limited_keys_allowance() -> None:
    limiter = RateLimiter(1 / 3600, 3)  # three tries, then one an hour
    assert [limiter.allow("name:Sigrid") for _ in range(4)] == [True, True, True, False]
    for index in range(CAPACITY + CAPACITY // 2):  # past the capacity, as a botnet's addresses would go
        assert limiter.allow(f"address:{index}")
        if index % 1000 == 0:  # the guesser keeps trying the name between them
            assert not limiter.allow("name:Sigrid"), f"the limited key was let through after {index} other keys"
    assert not limiter.allow("name:Sigrid")
    assert len(limiter) == CAPACITY


def test_a_full_limiter_forgets_the_key_idle_longest_first() -> None:
    limiter = RateLimiter(1 / 3600, 1, capacity=3)
    for key in ("a", "b", "c"):
        assert limiter.allow(key)
    assert not limiter.allow("a")  # "a" used again: "b" is now the idle one
    assert limiter.allow("d")  # a fourth key: "b" is forgotten
    assert len(limiter) == 3
    assert not limiter.allow("a") and not limiter.allow("c") and not limiter.allow("d")
    assert limiter.allow("b")  # forgotten, so it starts afresh (its bucket would have refilled the most)
