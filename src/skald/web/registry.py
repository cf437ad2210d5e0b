"""The live tables of one server process: each game's state in memory, rebuilt from its stored actions, moved on by
people and bots.

Only the tables in use stay in memory. Whoever uses a table holds it (a request for its length, a WebSocket
for its life) and its bots and chance hold it while they move; a table nobody holds is dropped once it is
finished, idle, or the least recently used beyond the cap. Every move it made is already committed, so loading
it again gives the same table. Its moves are committed by `skald.web.commits`, its bots and chance driven by
`skald.web.driving`, and other processes' moves caught up with by `skald.web.catchup`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from skald.bots.spec import SpecError, check_spec
from skald.engine import Game, OptionError, Record, RecordError, Seat, get_game, signature
from skald.web.botpool import BotPool
from skald.web.catchup import CatchUp
from skald.web.chat import SPECTATOR
from skald.web.clock_watch import ClockWatch
from skald.web.commits import Commits
from skald.web.driving import Driver, report_failure
from skald.web.errors import TableError
from skald.web.live_table import HUMAN, LiveTable, SeatInfo, token_hash
from skald.web.settings import (
    HIDDEN_PACE,
    MAX_TABLES,
    TABLE_IDLE_SECONDS,
    environment_bot_workers,
    environment_max_bot_games,
    environment_max_bot_games_per_client,
)
from skald.web.store.schema import GameRow, SeatRow, now
from skald.web.store.stores import Stores

if TYPE_CHECKING:
    from skald.web.notify import MoveListener

LOG = logging.getLogger("skald.web")


def check_bots(seats: list[tuple[str, str]], game: Game, stand_in: str | None = None) -> None:
    """Refuse a seat whose bot is not one the server makes for `game` at this many seats (a learned bot without a
    model for the table), naming the seat, and likewise the clock's `stand_in` bot."""
    for index, (_name, kind) in enumerate(seats):
        if kind != HUMAN:
            check_level(kind, game, len(seats), f"seats[{index}].bot", "seats")
    if stand_in is not None:
        check_level(stand_in, game, len(seats), "clock.stand_in", "clock")


def check_level(level: str, game: Game, players: int, where: str, field: str) -> None:
    """`TableError` on `field` naming `where` unless `level` is a bot the server can seat at this table."""
    try:
        check_spec(level, game, players)
    except SpecError as error:
        raise TableError(field, f"{where}: {error}") from None


def new_tokens(
    kinds: list[str], claimed_later: bool, open_seats: tuple[int, ...]
) -> tuple[list[str | None], list[str | None]]:
    """A new token and its hash for each person seat of a new game (none for bots, open seats, or seats claimed later
    by the holders of the game before)."""
    tokens: list[str | None] = []
    for index, kind in enumerate(kinds):
        made = kind == HUMAN and not claimed_later and index not in open_seats
        tokens.append(secrets.token_urlsafe(24) if made else None)
    return tokens, [None if token is None else token_hash(token) for token in tokens]


class Tables:
    """The live tables of one server process, backed by the stores: those in use, and the recently used up to a
    cap."""

    def __init__(
        self,
        stores: Stores,
        idle_seconds: float = TABLE_IDLE_SECONDS,
        max_tables: int = MAX_TABLES,
        expiry_days: float = 0.0,
        bot_workers: int | None = None,
        max_bot_games: int | None = None,
        max_bot_games_per_client: int | None = None,
        hidden_pace: float = HIDDEN_PACE,
    ) -> None:
        self.stores = stores
        #: The worker processes bots think in (started by the first bot move; by default `SKALD_BOT_WORKERS` or two).
        self.bot_pool = BotPool(environment_bot_workers() if bot_workers is None else bot_workers)
        #: Unfinished games with a bot seat allowed in memory at once, on the whole server and per creating client.
        self.max_bot_games = environment_max_bot_games() if max_bot_games is None else max_bot_games
        self.max_bot_games_per_client = (
            environment_max_bot_games_per_client() if max_bot_games_per_client is None else max_bot_games_per_client
        )
        #: The server's secret (read from the database by `open`): chance seeds and rematch tokens derive from it.
        self.secret = b""
        #: The key finished records are signed with (read from the database by `open`): `skald.engine.signature`.
        self.signing_key: Ed25519PrivateKey | None = None
        #: Days an unfinished game may go without a move before it is deleted (0: never).
        self.expiry_days = expiry_days
        #: Unfinished games still to be looked at since the start (resumed in the background, see `open`).
        self.resuming = 0
        self.expired = 0
        self._background: set[asyncio.Task[Any]] = set()
        #: The tables in memory, least recently used first.
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        #: Tables loaded from the database and dropped from memory since the start, for the health endpoint.
        self.loads = 0
        self.drops = 0
        #: Games being read from the database now; the event is set when the read is over.
        self.loading: dict[str, asyncio.Event] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.on_broadcast: Callable[[LiveTable], None] | None = None
        #: Told (in the background) of every game that ends here, and of every finished game read from the database
        #: (its end may have been committed by a process that stopped before it told anyone): the ratings.
        self.on_over: Callable[[LiveTable], Coroutine[Any, Any, None]] | None = None
        #: Every move is committed through this, grouped with whatever other games commit at the same moment.
        self.commits = Commits(stores.games, self._adopted, self._moved)
        self.driver = Driver(self.bot_pool, self.commits.commit, self._settle, hidden_pace)
        #: The clocks of the clocked tables, and the timers that make their flags fall.
        self.clocks = ClockWatch(self.release)
        self.catchup = CatchUp(self, stores.games, stores.chat, self.commits, self.driver)
        #: On PostgreSQL, the connection hearing other processes' moves (started by `open`).
        self.listener: MoveListener | None = None

    def _adopted(self, table: LiveTable, ends: bool) -> None:
        """A table's state moved on (and its game ended, if `ends`): it was just used, and its watchers are told."""
        self._touch(table)
        self.clocks.moved(table)
        if self.on_broadcast is not None:
            self.on_broadcast(table)
        if ends and self.on_over is not None:
            self.in_background(self.on_over(table))

    def _moved(self, table: LiveTable) -> None:
        """A table's moves were committed or read: its bots and chance carry on."""
        self.driver.drive(table)

    # -- creating and loading -----------------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        seats: list[tuple[str, str]],
        options: dict[str, Any],
        seed: int | None = None,
        claimed_later: bool = False,
        owner: str | None = None,
        chat_spectators: bool = False,
        clock: dict[str, Any] | None = None,
        open_seats: tuple[int, ...] = (),
    ) -> tuple[LiveTable, list[str | None]]:
        """Create a game with `seats` as (name, kind); returns the table and each person seat's new token.

        Chance draws from a seed mixed with the server's secret unless a `seed` is given (tests only: see
        `Settings.allow_client_seeds`). With `claimed_later` (a rematch) no token is made: each person seat is
        claimed later by the holder of its token in the game before (`tokens.claim`). A game with a bot seat is
        refused (429) when the server, or the creating client `owner` (its address's rate-limit key), already has as
        many unfinished bot games as allowed. With `chat_spectators` spectators may read and write in the table
        chat. `clock` is the time control (`ClockSetting.to_json`), if any. `open_seats` wait for anyone to join
        (`skald.web.open_tables`): until they are taken the table waits, its clocks stopped."""
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise TableError("game", f"game: {error.args[0]}") from None
        try:
            game.check_players(len(seats))
            resolved = game.resolve_options(options)
        except OptionError as error:
            raise TableError("options", str(error)) from None
        except ValueError as error:
            raise TableError("seats", f"seats: {error}") from None
        check_bots(seats, game, None if clock is None else str(clock.get("stand_in", "greedy")))
        if any(kind != HUMAN for _name, kind in seats):
            self.check_bot_games(owner)
        tokens, hashes = new_tokens([kind for _name, kind in seats], claimed_later, open_seats)
        stamp = now()
        row = GameRow(
            id=secrets.token_urlsafe(12),
            game=game.name,
            players=len(seats),
            options=resolved,
            seed=secrets.randbits(48) if seed is None else seed,
            secret_seed=seed is None,
            chat_spectators=chat_spectators,
            clock=clock,
            version=0,
            status="playing",
            rematch_id=None,
            created_at=stamp,
            updated_at=stamp,
            started_at=None if open_seats else stamp,
        )
        seat_rows = [
            SeatRow(game_id=row.id, seat=i, name=name, kind=kind, token_hash=hashes[i], is_open=i in open_seats or None)
            for i, (name, kind) in enumerate(seats)
        ]
        await asyncio.to_thread(self.stores.games.create, row, seat_rows)
        table = LiveTable(
            row,
            [
                SeatInfo(n, k, h, open=True if i in open_seats else None)
                for i, ((n, k), h) in enumerate(zip(seats, hashes, strict=True))
            ],
            game.new_initial_state(len(seats), resolved),
            self.secret,
        )
        table.owner = owner
        self._admit(table)
        self.clocks.start(table, clock, table.started_at, [])
        self.driver.drive(table)
        self._settle(table)
        return table, tokens

    def bot_games(self, owner: str | None = None) -> int:
        """Unfinished games with a bot seat in memory (those `owner` created, if given): what the limits count."""
        return sum(
            1
            for table in self.tables.values()
            if table.bots and not table.over and (owner is None or table.owner == owner)
        )

    def check_bot_games(self, owner: str | None) -> None:
        """Refuse one more bot game past either limit (429, naming it): bots share the server's worker processes,
        so one client's many searches would otherwise slow every other bot game."""
        if owner is not None and self.bot_games(owner) >= self.max_bot_games_per_client:
            raise TableError(
                "bot_games_per_client",
                f"too many unfinished games with bots from this address: at most {self.max_bot_games_per_client} "
                "at once (--max-bot-games-per-client); finish one first, or play without bots",
                429,
            )
        if self.bot_games() >= self.max_bot_games:
            raise TableError(
                "bot_games",
                f"the server is running as many games with bots as it allows: at most {self.max_bot_games} at once "
                "(--max-bot-games); try again later, or play without bots",
                429,
            )

    @asynccontextmanager
    async def use(self, game_id: str) -> AsyncIterator[LiveTable]:
        """Hold the live table of `game_id` for the length of a `with` block (see `hold`)."""
        table = await self.hold(game_id)
        try:
            yield table
        finally:
            self.release(table)

    async def hold(self, game_id: str) -> LiveTable:
        """The live table of `game_id`, loaded from the database if it is not in memory, kept there until `release`."""
        while True:
            table = self.tables.get(game_id)
            if table is not None:
                table.holders += 1
                self._touch(table)
                return table
            loading = self.loading.get(game_id)
            if loading is None:
                return await self._load(game_id)
            # Someone else is reading this game: take their table (or read it again if it was dropped meanwhile).
            await loading.wait()

    def release(self, table: LiveTable) -> None:
        """Let go of a table taken with `hold`; the last holder lets it be dropped."""
        table.holders -= 1
        if table.holders == 0:
            table.cache.forget_boards()
        self._touch(table)
        self._settle(table)

    async def _load(self, game_id: str) -> LiveTable:
        """Rebuild a table from the database by replaying its actions, held once for the caller."""
        self.loading[game_id] = loading = asyncio.Event()
        try:
            loaded = await asyncio.to_thread(self.stores.games.load, game_id)
            if loaded is None:
                raise TableError("not_found", f"no game {game_id!r} here", 404)
            row, seat_rows, actions = loaded
            stamps = await asyncio.to_thread(self.stores.clock_times.stamps, game_id) if row.clock else []
            undone = await asyncio.to_thread(self.stores.games.undos, game_id) if row.undos else []
            # Replaying a long game and writing its log takes a while: in a thread, so other tables go on meanwhile.
            table = await asyncio.to_thread(self._rebuilt, game_id, row, seat_rows, actions)
        finally:
            # No await from here until the table is admitted and held: nobody can see the game as neither
            # loading nor loaded, so it is never read twice at once.
            del self.loading[game_id]
            loading.set()
        table.undone = undone
        self._admit(table)
        self.loads += 1
        table.holders += 1
        self.clocks.start(table, row.clock, table.started_at, stamps)
        self.driver.drive(table)
        if table.over and self.on_over is not None:
            self.in_background(self.on_over(table))
        return table

    def _rebuilt(self, game_id: str, row: GameRow, seat_rows: list[SeatRow], actions: list[int]) -> LiveTable:
        """The table of a game read from the database, its actions replayed."""
        try:
            state = Record(
                row.game, row.players, dict(row.options), [Seat(s.name, s.kind) for s in seat_rows], actions
            ).replay()
        except RecordError as error:
            # Stored by another version of a game's rules, say: refuse this game, never the whole server.
            LOG.error("game %s cannot be replayed: %s", game_id, error)
            raise TableError("unreadable", f"game {game_id!r} cannot be replayed here: {error}", 500) from None
        seats = [
            SeatInfo(s.name, s.kind, s.token_hash, s.resigned, s.resigned_ply, s.is_open, s.away_ply) for s in seat_rows
        ]
        for info, found in zip(seats, seat_rows, strict=True):
            info.returning, info.credit = bool(found.coming_back), found.credit or 0.0
        return LiveTable(row, seats, state, self.secret)

    async def open(self) -> None:
        """Read the server's secret, then expire abandoned games and resume the others in the background: the server
        answers at once, and a request for a game not yet resumed simply loads it first."""
        self.secret = await asyncio.to_thread(self.stores.secret.get)
        self.signing_key = signature.private_key(await asyncio.to_thread(self.stores.secret.get, "signing"))
        database = self.stores.database
        if database.notifies:
            from skald.web.notify import MoveListener  # here: psycopg is needed only on PostgreSQL

            catchup = self.catchup
            self.listener = MoveListener(
                database.listen_url(), database.origin, catchup.heard, catchup.look_again, catchup.chat_heard
            )
            await self.listener.start()
        self.in_background(self._expire_and_resume())

    def in_background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run `work` as a task kept until it ends (its failure is logged)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(report_failure)

    async def _expire_and_resume(self) -> None:
        await self.expire()
        await self.resume_all()

    async def expire(self) -> int:
        """Delete the unfinished games nobody has moved in for the expiry time (none if it is 0), except those in use
        (someone connected, a bot thinking); how many."""
        if self.expiry_days <= 0:
            return 0
        busy = {game_id for game_id, table in self.tables.items() if table.busy}
        gone = await asyncio.to_thread(self.stores.games.expire, self.expiry_days, busy)
        for game_id in gone:  # in memory but used by nobody: gone from there too
            table = self.tables.get(game_id)
            if table is not None:
                self.drop(table)
        if gone:
            LOG.info("deleted %d games without a move for %g days", len(gone), self.expiry_days)
        self.expired += len(gone)
        return len(gone)

    async def resume_all(self) -> int:
        """Load every unfinished game so its bots and chance carry on; returns how many (a game that no longer
        replays is logged and skipped). One game at a time, letting every request through in between."""
        ids = await asyncio.to_thread(self.stores.games.unfinished)
        self.resuming = len(ids)
        resumed = 0
        for game_id in ids:
            await asyncio.sleep(0)
            self.resuming -= 1
            try:
                table = await self.hold(game_id)
            except TableError:  # logged by `_load` (or expired meanwhile); the other games carry on
                continue
            self.release(table)
            if not table.busy:  # waiting for a person: it loads again when someone comes back to it
                self.drop(table)
            resumed += 1
        return resumed

    # -- keeping only what is needed ------------------------------------------------------------------------

    def _admit(self, table: LiveTable) -> None:
        """Put a new or loaded table in memory, first dropping the least recently used beyond the cap."""
        self._shrink(self.max_tables - 1)
        self.tables[table.id] = table

    def _touch(self, table: LiveTable) -> None:
        """Mark a table as just used: it goes to the recent end of the list."""
        table.last_used = time.monotonic()
        if self.tables.get(table.id) is table:
            self.tables.move_to_end(table.id)

    def _settle(self, table: LiveTable) -> None:
        """Now that nobody may need `table`: drop it if it is finished (or tables never idle), and keep to the cap."""
        if table.busy or self.tables.get(table.id) is not table:
            return
        if table.over or self.idle_seconds <= 0:
            self.drop(table)
        else:
            self._shrink(self.max_tables)

    def _shrink(self, size: int) -> None:
        """Drop the least recently used tables nobody needs until at most `size` remain (busy ones always stay)."""
        if len(self.tables) <= size:
            return
        for table in [table for table in self.tables.values() if not table.busy]:
            if len(self.tables) <= size:
                return
            self.drop(table)

    def drop(self, table: LiveTable) -> None:
        """Forget a table nobody needs: its every move is in the database, so it loads again as it was."""
        if table.busy or self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self.drops += 1

    def sweep(self) -> None:
        """Drop every table nobody has held and nothing has moved for the idle time."""
        cutoff = time.monotonic() - self.idle_seconds
        # Least recently used first: the idle tables are a prefix of the list.
        for table in list(itertools.takewhile(lambda table: table.last_used <= cutoff, self.tables.values())):
            self.drop(table)

    def start_sweeping(self) -> None:
        """Sweep idle tables away every so often (a fraction of the idle time, between 50 ms and a minute)."""
        every = min(60.0, max(0.05, self.idle_seconds / 4))

        async def sweep_forever() -> None:
            expired_at = time.monotonic()
            while True:
                await asyncio.sleep(every)
                self.sweep()
                if time.monotonic() - expired_at >= min(3600.0, self.expiry_days * 86400 / 4):
                    expired_at = time.monotonic()
                    await self.expire()

        self._sweeper = asyncio.get_running_loop().create_task(sweep_forever())

    def stats(self) -> dict[str, Any]:
        """How many tables are in memory and in use, the limits, and the loads and drops since the start."""
        return {
            "resident": len(self.tables),
            "busy": sum(1 for table in self.tables.values() if table.busy),
            "max": self.max_tables,
            "idle_seconds": self.idle_seconds,
            "loads": self.loads,
            "drops": self.drops,
            "resuming": self.resuming,
            "expired": self.expired,
            "bots": {
                **self.bot_pool.stats(),
                "games": self.bot_games(),
                "max_games": self.max_bot_games,
                "max_games_per_client": self.max_bot_games_per_client,
            },
            "listen": None if self.listener is None else self.listener.stats(),
        }

    # -- the table chat ------------------------------------------------------------------------------------------

    async def say(self, table: LiveTable, seat: int | None, text: Any) -> None:
        """A chat message from `seat` (None: a spectator), stored, then told to everyone at the table who takes part
        (refused with the reason if the viewer may not write or the text is not a message)."""
        name = SPECTATOR if seat is None else table.seats[seat].name
        await table.chat.say(self.stores.chat, seat, name, text, table.clients)

    async def close(self) -> None:
        """Stop listening, sweeping, resuming and every driver task; then write the moves still queued."""
        try:
            if self.listener is not None:
                await self.listener.close()
            if self._sweeper is not None:
                self._sweeper.cancel()
            await self.clocks.close()
            for task in list(self._background):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            for table in list(self.tables.values()):  # a driver that stops lets its table be dropped
                if table.driver is not None:
                    table.driver.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await table.driver
            await self.bot_pool.close()
        finally:
            await self.commits.close()
