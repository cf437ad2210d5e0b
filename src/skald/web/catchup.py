"""Catching up with other server processes on one PostgreSQL database.

Each process announces its committed moves (`NOTIFY`) and hears the others' on one listening connection
(`skald.web.notify`); a table in memory that they left behind catches up with the database in place at once, under
its lock, and tells its clients. A table also catches up when its own move is refused as stale, or when a client
names a version it has not reached (a notification not yet heard): see `skald.web.commits`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from skald.engine import IllegalAction
from skald.web.commits import Commits
from skald.web.driving import Driver
from skald.web.errors import TableError
from skald.web.live_table import LiveTable
from skald.web.store.chat import ChatStore
from skald.web.store.games import GameStore

if TYPE_CHECKING:
    from skald.web.notify import Heard

LOG = logging.getLogger("skald.web")


class Resident(Protocol):
    """What catching up needs of the live registry (`skald.web.registry.Tables`)."""

    @property
    def tables(self) -> Mapping[str, LiveTable]:
        """The tables in memory, by game id."""

    @property
    def loading(self) -> Mapping[str, asyncio.Event]:
        """The games being read from the database now, each with the event set when the read is over."""

    def release(self, table: LiveTable) -> None:
        """Let go of a table held (its holders counted one more)."""

    def drop(self, table: LiveTable) -> None:
        """Forget a table nobody needs."""

    def in_background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run `work` as a task kept until it ends."""


class CatchUp:
    """The games in memory here that other processes moved on, brought up to date one task per game."""

    def __init__(self, resident: Resident, games: GameStore, chat: ChatStore, commits: Commits, driver: Driver) -> None:
        self.resident = resident
        self.games = games
        self.chat = chat
        self.commits = commits
        self.driver = driver
        #: Games catching up with moves other processes announced: the highest version heard for each, and the
        #: actions heard, by ply.
        self._behind: dict[str, int] = {}
        self._heard: dict[str, dict[int, int]] = {}

    def heard(self, games: list[Heard]) -> None:
        """Another process committed moves bringing these games to these versions: every one of them in memory (or
        being read) at a lower version catches up, one task per game however many notifications come meanwhile."""
        tables, loading = self.resident.tables, self.resident.loading
        for game_id, start, end, actions in games:
            table = tables.get(game_id)
            if end < start:
                # Taken back: whatever the table holds from `end` on may be gone; it reads the game afresh.
                if table is not None:
                    self.resident.in_background(self._taken_back(table))
                continue
            if (table is None and game_id not in loading) or (table is not None and table.version >= end):
                continue  # not here (it loads with every move when used), or already there (our own move, say)
            if actions is not None:
                self._heard.setdefault(game_id, {}).update(zip(range(start, end), actions, strict=True))
            if game_id in self._behind:
                self._behind[game_id] = max(self._behind[game_id], end)
                continue
            self._behind[game_id] = end
            self.resident.in_background(self._catch_up(game_id))

    def chat_heard(self, game_id: str, seq: int) -> None:
        """Another process stored message `seq` of a game's chat: a table here that has it in memory tells its
        clients (in the background, in order with its own messages)."""
        table = self.resident.tables.get(game_id)
        if table is not None and table.chat.messages is not None and table.chat.last < seq:
            self.resident.in_background(table.chat.catch_up(self.chat, table.clients))

    async def look_again(self) -> None:
        """After the listening connection was down: moves announced meanwhile were never heard, so every table in
        memory compares its version with the database's once, and reads the chat messages it may have missed."""
        for table in list(self.resident.tables.values()):
            if table.chat.messages is not None:
                self.resident.in_background(table.chat.catch_up(self.chat, table.clients))
        ids = [*self.resident.tables, *self.resident.loading]
        if ids:
            versions = await asyncio.to_thread(self.games.versions, ids)
            self.heard([(game_id, 0, version, None) for game_id, version in versions.items()])

    async def _catch_up(self, game_id: str) -> None:
        """Bring one game's table up to the version heard for it (see `heard`)."""
        try:
            loading = self.resident.loading.get(game_id)
            if loading is not None:  # its read may have missed the moves heard of: look once it is in memory
                await loading.wait()
            table = self.resident.tables.get(game_id)
            if table is None or table.version >= self._behind[game_id]:
                return
            if not table.busy:  # nobody is at it and nothing moves it: read afresh when it is next used
                self.resident.drop(table)
                return
            table.holders += 1  # kept in memory while it catches up
            try:
                async with table.lock:
                    while table.version < self._behind[game_id]:
                        reached = table.version
                        await self._catch_up_once(table)
                        if table.version == reached:
                            break  # the announced moves are not to be read (a game expired meanwhile, say)
            finally:
                self.resident.release(table)
        except TableError as error:
            LOG.info("game %s could not catch up with another process's moves: %s", game_id, error)
        finally:
            del self._behind[game_id]
            self._heard.pop(game_id, None)

    async def _taken_back(self, table: LiveTable) -> None:
        """Another process took steps back at this table's game: unless nobody holds it (then it is dropped and
        read afresh when next used), it reads the game again in place, under its lock."""
        if not table.busy:
            self.resident.drop(table)
            return
        table.holders += 1
        try:
            async with table.lock:
                await self.commits.refresh(table)
        except TableError as error:
            LOG.info("game %s could not follow another process's step back: %s", table.id, error)
        finally:
            self.resident.release(table)

    async def _catch_up_once(self, table: LiveTable) -> None:
        """Apply the heard actions that follow the table's version, or, where none was heard (or one does not
        apply), read what follows it from the database."""
        heard = self._heard.get(table.id, {})
        actions: list[int] = []
        while (action := heard.get(table.version + len(actions))) is not None:
            actions.append(action)
        if actions:
            try:
                self.commits.apply_committed(table, actions)
            except IllegalAction as error:
                LOG.warning("game %s: a heard action does not apply (%s); reading the database", table.id, error)
            else:
                self.driver.drive(table)
                return
        await self.commits.refresh(table)
