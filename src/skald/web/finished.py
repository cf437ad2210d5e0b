"""Answers about finished games, computed once and served from memory with an ETag.

A finished game never changes (only its rematch link may appear), yet answering about it from its table means
loading and replaying the whole game. So the first answer about a finished game is kept: its summary facts, its
record, each replayed position asked for, as the exact bytes sent, up to a memory budget (least recently used
out first). A client that sends the ETag back gets a bodiless 304.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from typing import Any, NamedTuple

#: How long a finished game's summary is trusted before it is read again (its rematch may have been made by
#: another server process meanwhile).
SUMMARY_SECONDS = 30.0


class Answer(NamedTuple):
    """The bytes of a JSON answer and their ETag."""

    body: bytes
    etag: str


class Facts(NamedTuple):
    """What a finished game's summary needs: the public summary, the seats' token hashes, when it was read."""

    summary: dict[str, Any]
    token_hashes: list[str | None]
    at: float


def answer(body: bytes) -> Answer:
    """`body` with its strong ETag."""
    return Answer(body, '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"')


class FinishedCache:
    """Answers about finished games, keyed by (kind, game id, detail), within `budget` bytes."""

    def __init__(self, budget: int = 64 << 20) -> None:
        self.budget = budget
        self.size = 0
        self.hits = 0
        self._answers: OrderedDict[tuple[str, str, str], Answer] = OrderedDict()
        self._facts: dict[str, Facts] = {}

    def get(self, kind: str, game_id: str, detail: str = "") -> Answer | None:
        """The kept answer, or None."""
        found = self._answers.get((kind, game_id, detail))
        if found is not None:
            self._answers.move_to_end((kind, game_id, detail))
            self.hits += 1
        return found

    def put(self, kind: str, game_id: str, detail: str, body: bytes) -> Answer:
        """Keep an answer (dropping the least recently used beyond the budget) and return it."""
        made = answer(body)
        key = (kind, game_id, detail)
        old = self._answers.pop(key, None)
        if old is not None:
            self.size -= len(old.body)
        self._answers[key] = made
        self.size += len(body)
        while self.size > self.budget and self._answers:
            _key, dropped = self._answers.popitem(last=False)
            self.size -= len(dropped.body)
        return made

    def facts(self, game_id: str, fresh: bool = True) -> Facts | None:
        """A finished game's summary facts; if `fresh`, only if read within the last `SUMMARY_SECONDS`."""
        found = self._facts.get(game_id)
        if found is None or (fresh and time.monotonic() - found.at > SUMMARY_SECONDS):
            return None
        self.hits += 1
        return found

    def keep_facts(self, game_id: str, summary: dict[str, Any], token_hashes: list[str | None]) -> Facts:
        """Keep a finished game's summary facts (the oldest forgotten beyond 10,000 games, a few KB each)."""
        if len(self._facts) >= 10_000:
            self._facts.pop(next(iter(self._facts)))
        facts = Facts(summary, token_hashes, time.monotonic())
        self._facts[game_id] = facts
        return facts

    def forget_facts(self, game_id: str) -> None:
        """Forget a game's summary facts (its rematch was just made)."""
        self._facts.pop(game_id, None)
