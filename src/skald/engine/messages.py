"""Quoting what a person or a file gave in an error message, cut short: input may hold anything, of any length."""

from __future__ import annotations

import reprlib
from typing import Any

#: The most characters a quoted value takes in a message.
LIMIT = 60


def shown(value: Any) -> str:
    """`value` as a message quotes it: its repr, at most `LIMIT` characters."""
    return _cut(reprlib.repr(value))


def shown_key(key: Any) -> str:
    """A key someone wrote, as a field path shows it (`stacks.<key>`): as written if printable (its repr if not,
    so a message stays one line), at most `LIMIT` characters."""
    text = str(key)
    return _cut(text if text.isprintable() else repr(text))


def _cut(text: str) -> str:
    return text if len(text) <= LIMIT else text[: LIMIT - 3] + "..."
