"""Type-ahead at the terminal: what a person typed before a prompt appeared is set aside, never taken as its answer.

While bots move (and `--pause` waits) a person may type ahead; a line typed then would otherwise answer the next
prompt unseen (a `p` meant for a question that has passed would pass a fleet). Only a terminal is flushed: input
piped from a file or a script is the answers in order, and is left alone.
"""

from __future__ import annotations

import os
import select
import sys
from typing import IO

try:
    import termios
except ImportError:  # Windows: the console's own key buffer is drained instead (msvcrt)
    termios = None  # type: ignore[assignment]


def set_aside(stream: IO[str] | None = None) -> bool:
    """Discard whatever is waiting to be read on `stream` (stdin by default) if it is a terminal; True if a typed
    line was among it."""
    stream = sys.stdin if stream is None else stream
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # closed, or not a file (a test's StringIO)
        return False
    if not os.isatty(fd):
        return False
    if termios is None:
        return _drain_console()
    pending = _waiting(fd)
    termios.tcflush(fd, termios.TCIFLUSH)
    return pending


def _waiting(fd: int) -> bool:
    """Whether a finished line waits on the terminal `fd` (keys typed without Enter are flushed unannounced: a
    terminal reading lines does not report them)."""
    return bool(select.select([fd], [], [], 0)[0])


def _drain_console() -> bool:
    """Windows' console: read and drop the keys waiting in its buffer; True if there were any."""
    try:
        import msvcrt
    except ImportError:
        return False
    pending = False
    while msvcrt.kbhit():  # type: ignore[attr-defined]
        msvcrt.getwch()  # type: ignore[attr-defined]
        pending = True
    return pending
