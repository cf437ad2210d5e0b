"""What an account's password must be: long enough, not the account's name, and not a password people choose often.

The common passwords are Django's list (`common-passwords.txt.gz` beside this file, copied unchanged from Django
5.2.17's `django/contrib/auth/`, BSD licence in `common-passwords.LICENSE`): the 20,000 most common passwords of
Royce Williams's list, lowercased and deduplicated (19,640 lines), which Django's `CommonPasswordValidator` checks.
A maintained list that a large project keeps and reviews, rather than a handful typed here; lowercased, so a password
is compared lowercased too.
"""

from __future__ import annotations

import functools
import gzip
import unicodedata
from pathlib import Path

from skald.web.errors import TableError
from skald.web.names import likeness

LENGTH = (8, 256)
COMMON_FILE = Path(__file__).with_name("common-passwords.txt.gz")


@functools.cache
def common_passwords() -> frozenset[str]:
    """The common passwords, lowercased (read once)."""
    with gzip.open(COMMON_FILE, "rt", encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines if line.strip())


def letters(text: str) -> str:
    """The letters of `text`, folded as names are compared (`likeness`)."""
    return "".join(char for char in likeness(text) if char.isalpha())


def check_password(password: str, name_key: str | None = None) -> None:
    """Refuse a password too short or too long, one of the common passwords, or the account's name (folded as
    `name_key`) with nothing but digits or signs added."""
    if len(password) < LENGTH[0]:
        raise TableError("password", f"password: at least {LENGTH[0]} characters")
    if len(password) > LENGTH[1]:
        raise TableError("password", f"password: at most {LENGTH[1]} characters")
    if any(unicodedata.category(char) == "Cs" for char in password):
        raise TableError("password", "password: not valid Unicode (a lone surrogate)")
    if password.strip().lower() in common_passwords():
        raise TableError("password", "password: one of the most common passwords, the first any guesser tries")
    if name_key is not None and (name := letters(name_key)) and letters(password) == name:
        raise TableError("password", "password: it spells your account's name; choose one nobody could guess")
