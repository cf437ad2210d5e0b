"""One client of a live table: a WebSocket connection, what it asked to be sent, and its outbox."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

#: Messages a client may leave unsent (it does not read) before it is dropped.
OUTBOX_LIMIT = 256


def _ignore() -> None:
    """Nothing to do."""


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (None: a spectator), whether it wants the SVG and full view, its outbox,
    and what to do when it stops reading (its session drops it)."""

    seat: int | None
    svg: bool
    full: bool = True
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    on_overflow: Callable[[], None] = _ignore
    #: What to do when its seat's token is replaced (its session closes it: the token it showed is no longer good).
    on_revoke: Callable[[], None] = _ignore
    #: The board's pieces last sent (`Game.render_svg_parts`): the next update sends only those that changed.
    board: tuple[str, ...] | None = None

    def push(self, text: str) -> None:
        """Queue `text`, unless the client has left `OUTBOX_LIMIT` messages unsent: then it is dropped."""
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.on_overflow()
            return
        self.outbox.put_nowait(text)
