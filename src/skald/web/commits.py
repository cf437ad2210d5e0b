"""A live table's moves committed: checked against the state, written through the group commit, then adopted and
told to every seat and spectator.

Order of events for every move: check it against the state, commit it to the database, apply it, then tell
everyone. A commit refused as stale (another server process on the database took that ply first) brings the table
up to date with the database instead, in place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from skald.engine import CHANCE, State
from skald.engine.messages import shown
from skald.web import projection, takeback
from skald.web.driving import follow
from skald.web.errors import TableError
from skald.web.groupcommit import GroupCommit
from skald.web.live_table import LiveTable, LogEntry
from skald.web.store.games import GameStore, StaleVersion, Write


def checked_version(version: Any, what: str) -> int:
    """`version` if it is an integer (a bool is not), else the `TableError` naming what it was for."""
    if not isinstance(version, int) or isinstance(version, bool):
        raise TableError("version", f"version: expected the game's version (an integer) your {what} is for")
    return version


def refuse_absent(table: LiveTable, seat: int) -> None:
    """Refuse a move of `seat` while nobody may move (the table waits for players) or a bot plays it."""
    info = table.seats[seat]
    if table.waiting:
        raise TableError("waiting", f"waiting: the table waits for {table.waiting} more player(s) to join", 409)
    if info.resigned is not None:
        raise TableError("resigned", "resigned: you resigned this game; a bot plays your seat", 409)
    if info.away:
        raise TableError(
            "away",
            f"away: your clock ran out and the table's bot ({table.bot_spec(seat)}) plays your seat; press "
            '"I\'m back" and it is yours again at your next turn',
            409,
        )


class Commits:
    """Commits every table's moves, grouped with whatever other games commit at the same moment.

    `adopted` is told of each table whose state moved on, and whether its game just ended; `moved` of each table
    whose moves were committed or read, so that its bots and chance carry on.
    """

    def __init__(
        self,
        games: GameStore,
        adopted: Callable[[LiveTable, bool], None],
        moved: Callable[[LiveTable], None],
    ) -> None:
        self.games = games
        self.adopted = adopted
        self.moved = moved
        self._commits: GroupCommit[Write] = GroupCommit(games.append_many)

    async def write(self, game_id: str, version: int, moves: list[tuple[int, int]], status: str, undos: int) -> None:
        """Commit one game's moves, grouped with whatever other games commit at the same moment."""
        await self._commits.submit((game_id, version, moves, status, undos))

    async def commit(
        self,
        table: LiveTable,
        version: int,
        moves: list[tuple[int, int]],
        after: State,
        entries: list[LogEntry],
    ) -> bool:
        """Commit `moves` (reaching `after`, logged as `entries`), then adopt the new state and tell everyone.

        False if the database refused them as stale: another server process on the same database committed a
        move first. The table has then been brought up to date with the database instead (see `refresh`).
        """
        if table.over:
            return False  # ended off the board (a resignation) while the move was made: nothing more is played
        status = "over" if after.is_terminal() else "playing"
        try:
            await self.write(table.id, version, moves, status, table.undos)
        except StaleVersion:
            await self.refresh(table)
            return False
        self.adopt(table, after, entries)
        return True

    def adopt(self, table: LiveTable, after: State, entries: list[LogEntry]) -> None:
        """Make the committed `after` (reached by the moves logged as `entries`) the table's state; tell everyone."""
        before = table.state
        ends = after.is_terminal() and not before.is_terminal()
        table.state = after
        table.log.extend(entries)
        self.adopted(table, ends)  # first: the clocks count the moves before anyone is told of them
        projection.broadcast(table, entries, before)

    async def refresh(self, table: LiveTable) -> None:
        """Bring a table that fell behind the database up to date in place, and tell its clients what happened.

        Called under the table's lock by whoever holds the table or by its moving bots, so it is busy and never
        dropped meanwhile; updating the same table (not loading a new one) keeps every holder and client with it.
        """
        # A committed ply changes only when a seat takes steps back, which the count of them says: else only new
        # plies are read.
        loaded = await asyncio.to_thread(self.games.since, table.id, table.version)
        if loaded is None:
            raise TableError("not_found", f"no game {table.id!r} here", 404)
        table.rematch_id, undos, actions = loaded
        if undos != table.undos:
            await takeback.follow(self.games, table)
        else:
            self.apply_committed(table, actions)
        self.moved(table)

    def apply_committed(self, table: LiveTable, actions: list[int]) -> None:
        """Apply `actions`, already committed by another process right after the table's version, and tell
        everyone; raises `IllegalAction` (the table unchanged) if one does not apply."""
        if not actions:
            return
        after = table.state.clone()
        entries: list[LogEntry] = []
        for action in actions:
            entries.append(table.entry(after, action))
            after.apply(action)
        self.adopt(table, after, entries)

    async def submit(self, table: LiveTable, seat: int, version: Any, data: Any) -> None:
        """A person's move: refused unless it is `seat`'s turn, at the current version, and legal."""
        version = checked_version(version, "move")
        async with table.lock:
            if version > table.version:
                # The client has seen a move this process has not: another process on the database made it.
                await self.refresh(table)
            state = table.state
            if table.over:
                raise TableError("game_over", "the game is over", 409)
            refuse_absent(table, seat)
            if version != table.version:
                raise TableError(
                    "stale",
                    f"stale: your move was for version {version} but the game is at version {table.version} "
                    "(it was already played, or another move came first); the table has been refreshed",
                    409,
                )
            player = state.current_player()
            if player != seat:
                whose = "chance is drawing" if player == CHANCE else f"it is {table.seats[player].name}'s turn"
                raise TableError("not_your_turn", f"not your turn: {whose}", 409)
            try:
                action = state.action_from_json(data)
            except ValueError as error:
                raise TableError("action", f"action: {error}") from None
            reason = state.illegal_reason(action)
            if reason is not None:
                raise TableError("illegal", f"illegal: {reason.reason} [{reason.rule}]", 422)
            moves, entries = [(seat, action)], [table.entry(state, action)]
            after = state.clone()
            after.apply_legal(action)  # `illegal_reason` has just passed it
            follow(table, after, moves, entries)
            if not await self.commit(table, version, moves, after, entries):
                raise TableError("stale", "stale: another move was recorded first; the table has been refreshed", 409)
        self.moved(table)

    async def keep_standing(self, table: LiveTable, seat: int, version: Any, name: Any) -> None:
        """A person keeps the standing answer `name` the game offers at his decision now, which answers it at once
        and every decision like it until his next other one; `name` None forgets the one he keeps (at any time)."""
        if name is None:
            async with table.lock:
                table.standing.pop(seat, None)
            return
        version = checked_version(version, "answer")
        async with table.lock:
            state = table.state
            refuse_absent(table, seat)
            if version != table.version or state.current_player() != seat:
                raise TableError("stale", "stale: that offer was for another decision; the table has moved on", 409)
            offer = table.game.presentation.standing_answer(state)
            if offer is None or offer.name != name:
                raise TableError("standing", f"standing: {shown(name)} is not an answer offered at this decision")
            table.standing[seat] = offer
            after = state.clone()
            moves: list[tuple[int, int]] = []
            entries: list[LogEntry] = []
            follow(table, after, moves, entries)
            if not await self.commit(table, version, moves, after, entries):
                raise TableError("stale", "stale: another move was recorded first; the table has been refreshed", 409)
        self.moved(table)

    async def close(self) -> None:
        """Write the moves still queued, then stop the commit thread."""
        await self._commits.close()
