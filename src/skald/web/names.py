"""Seat names as everyone at the table will read them: visible, plainly written, and told apart from each other.

A name shows in every log line, on the board and on the end screen, so a name that hides characters (zero-width
spaces, bidirectional overrides that turn the text around), carries control characters (a NUL that a database
refuses), piles up combining marks, or looks like another seat's name would let one player pass for another.
"""

from __future__ import annotations

import unicodedata

from skald.web.errors import TableError

#: Unicode categories that hide text or turn it around: controls, format characters (zero-width spaces and joiners,
#: direction marks, bidirectional overrides and isolates, the byte-order mark), surrogates, and line or paragraph
#: separators. No name and no chat message may hold one (a chat message may hold line breaks).
HIDING = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: Unicode categories no name may contain: those that hide text, and private-use and unassigned code points.
FORBIDDEN = HIDING | {"Co", "Cn"}
#: Combining marks allowed on one letter (enough for any written language's accents; not a tower of them).
MAX_MARKS = 3
MAX_LENGTH = 40


def clean_name(text: str, where: str) -> str:
    """`text` as a seat name (NFC, spaces collapsed), or a `TableError` naming `where` and the first bad character."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if category in FORBIDDEN:
            raise TableError("name", f"{where}: U+{ord(char):04X} is an invisible or control character; use letters")
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MAX_MARKS:
            raise TableError("name", f"{where}: more than {MAX_MARKS} combining marks on one letter")
    if len(name) > MAX_LENGTH:
        raise TableError("name", f"{where}: at most {MAX_LENGTH} characters")
    return name


def hidden(text: str, allowed: str = "") -> str | None:
    """The first character of `text` that hides text or turns it around (a `HIDING` category, except the characters
    in `allowed`), or None."""
    return next((char for char in text if unicodedata.category(char) in HIDING and char not in allowed), None)


def likeness(name: str) -> str:
    """What a name looks like, for telling names apart: compatibility forms folded (ﬁ → fi, full-width → plain),
    case and spaces ignored."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def distinct_names(names: list[str]) -> None:
    """Refuse a seat whose name looks like an earlier seat's, naming both."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        earlier = seen.setdefault(likeness(name), seat)
        if earlier != seat:
            raise TableError(
                "name", f"seats.{seat}.name: {name!r} looks like seat {earlier + 1}'s name; give each seat its own"
            )
