"""Reminders for people away from the table: when a seat's turn has waited `--remind-after` minutes, its account
is sent one e-mail (`skald.web.mail`) through the configured relay.

Which waits: a seat kept in an account that has an address and wants reminders, in an unfinished game with a
turn-based clock, or with no clock at all if the account asked for those too; never a live clock (its player is
expected at the table, and its bank runs out within hours). A wait is counted from the game's last change in the
database (its last commit, or a resignation), so a restart changes nothing; whose turn it is comes from the table.

One message a wait: the store records each wait's reminder before it is sent (`sending`, then `sent`), so neither
a restart nor a second server process sends it twice; a process killed between the two leaves it `sending` and
it is not sent again (at most once, rather than at least once). A failed delivery is logged and tried again, later
each time, at most `ATTEMPTS` times; a move starts a new wait. Everything runs in a task of its own, the database
and SMTP calls in threads: nothing here holds up a table, and no error stops the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from skald.web.errors import TableError
from skald.web.mail import Relay, Reminder, message, unsubscribe_token
from skald.web.registry import Tables
from skald.web.settings import Settings
from skald.web.store.reminders import Wait
from skald.web.store.schema import now
from skald.web.store.stores import Stores

LOG = logging.getLogger("skald.web.reminders")
#: Deliveries tried for one wait at most; the n-th retry waits `retry_after` × 2ⁿ⁻¹.
ATTEMPTS = 4
#: The longest first wait before a retry, in seconds (shorter when reminders come sooner).
RETRY_AFTER = 300.0
#: The longest time between two sweeps, in seconds (shorter when reminders come sooner).
SWEEP_EVERY = 60.0


def utc(stamp: datetime) -> datetime:
    """A stored time with its zone (SQLite gives it back without, and it is UTC)."""
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def wanted(wait: Wait) -> bool:
    """Whether the game's clock asks for reminders: turn-based always, none if the account asked, live never."""
    kind = (wait.clock or {}).get("kind", "none")
    return kind == "turn" or (kind == "none" and wait.untimed)


@dataclass
class Counts:
    """What the reminders did since the start (for `GET /api/health`)."""

    sweeps: int = 0
    sent: int = 0
    retried: int = 0
    failed: int = 0


class Reminders:
    """The sweep that finds the waits due and sends their reminders."""

    def __init__(self, settings: Settings, stores: Stores, tables: Tables) -> None:
        self.relay = Relay.of(settings)
        self.after = settings.remind_after * 60
        self.every = min(SWEEP_EVERY, max(0.05, self.after / 4))
        self.retry_after = min(RETRY_AFTER, self.after)
        self.base = settings.public_url or settings.served_url
        self.stores = stores
        self.tables = tables
        self.counts = Counts()
        self._secret: bytes | None = None
        self._task: asyncio.Task[None] | None = None

    def stats(self) -> dict[str, Any]:
        """Whether mail is sent, after how long, and what was done."""
        return {"relay": self.relay is not None, "after_minutes": self.after / 60, **vars(self.counts)}

    async def secret(self) -> bytes:
        """The server's secret, which signs the unsubscribe links."""
        if self._secret is None:
            self._secret = await asyncio.to_thread(self.stores.secret.get)
        return self._secret

    def start(self) -> None:
        """Sweep in the background, if there is a relay to send through."""
        if self.relay is not None and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        """Stop sweeping (a delivery under way in its thread ends by itself)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # a database that is down, say: try again at the next sweep
                LOG.exception("reminders: a sweep failed; trying again in %.0f s", self.every)
            self.counts.sweeps += 1
            await asyncio.sleep(self.every)

    async def sweep(self) -> None:
        """Look at every wait due now, the longest first, and send its reminder."""
        stamp = now()
        due = await asyncio.to_thread(self.stores.reminders.due, stamp - timedelta(seconds=self.after), stamp)
        for wait in due:
            await self.remind(wait, stamp)

    async def remind(self, wait: Wait, stamp: datetime) -> None:
        """Send a wait's reminder if its seat is the one to move and its clock asks for it; else pass it over until
        the game moves."""
        reminder = await self._reminder(wait, stamp) if wanted(wait) else None
        if reminder is None:
            await asyncio.to_thread(self.stores.reminders.take, wait, "skipped")
            return
        if not await asyncio.to_thread(self.stores.reminders.take, wait, "sending", self._failures(wait)):
            return  # another process took it, or the game moved meanwhile
        assert self.relay is not None
        try:
            await asyncio.to_thread(self.relay.deliver, message(reminder, self.relay.sender, stamp))
        except Exception as error:  # smtplib's errors, a refused or dropped connection, a TLS failure
            await self._failed(wait, stamp, error)
            return
        await asyncio.to_thread(self.stores.reminders.settle, wait, "sent", self._failures(wait))
        self.counts.sent += 1

    @staticmethod
    def _failures(wait: Wait) -> int:
        return wait.seen[2] if wait.seen is not None and wait.seen[0] == wait.version else 0

    def retry_at(self, stamp: datetime, failures: int) -> datetime | None:
        """When to try again after `failures` failed deliveries (the first `retry_after`, each next twice as long),
        or None once `ATTEMPTS` were made."""
        if failures >= ATTEMPTS:
            return None
        return stamp + timedelta(seconds=self.retry_after * 2 ** (failures - 1))

    async def _failed(self, wait: Wait, stamp: datetime, error: Exception) -> None:
        failures = self._failures(wait) + 1
        later = self.retry_at(stamp, failures)
        if later is None:
            LOG.warning(
                "reminders: giving up on game %s seat %d after %d tries: %s", wait.game_id, wait.seat, failures, error
            )
            await asyncio.to_thread(self.stores.reminders.settle, wait, "failed", failures)
            self.counts.failed += 1
            return
        LOG.warning(
            "reminders: game %s seat %d not sent (%s); trying again at %s",
            wait.game_id,
            wait.seat,
            error,
            later.isoformat(timespec="seconds"),
        )
        await asyncio.to_thread(self.stores.reminders.settle, wait, "retry", failures, later)
        self.counts.retried += 1

    async def _reminder(self, wait: Wait, stamp: datetime) -> Reminder | None:
        """What the reminder says, or None if the seat is not to move in the game as it stands."""
        try:
            async with self.tables.use(wait.game_id) as table:
                if table.over or table.version != wait.version or table.state.current_player() != wait.seat:
                    return None
                opponents = [info.name for seat, info in enumerate(table.seats) if seat != wait.seat]
                title = table.game.title
        except TableError:
            return None  # deleted meanwhile, or unreadable here
        waited = (stamp - utc(wait.since)).total_seconds()
        per_move = (wait.clock or {}).get("per_move")
        token = unsubscribe_token(await self.secret(), wait.account_id)
        return Reminder(
            name=wait.name,
            address=wait.address,
            title=title,
            opponents=opponents,
            waited=waited,
            left=None if per_move is None else max(0.0, float(per_move) - waited),
            table=f"{self.base}/table/{wait.game_id}",
            unsubscribe=f"{self.base}/unsubscribe?t={token}",
            lobby=f"{self.base}/",
        )
