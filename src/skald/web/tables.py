"""The live tables: each game's state in memory, rebuilt from its stored actions, moved on by people and bots.

Order of events for every move: check it against the state, commit it to the database, apply it, then tell
every seat and spectator. Chance is sampled here, on the server, from a generator seeded by the game's seed
and the ply, so a game resumed after a crash draws exactly what it would have drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

from skald.bots.base import Bot
from skald.bots.spec import SpecError, make_bot
from skald.engine import CHANCE, Game, OptionError, Record, Seat, State, get_game, sample_chance
from skald.web.db import GameRow, SeatRow, StaleVersion, Store, now
from skald.web.errors import TableError

HUMAN = "human"
LOG = logging.getLogger("skald.web")


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_COMPACT = json.JSONEncoder(separators=(",", ":"))


def action_key(data: Any) -> str:
    """A canonical text of an action's JSON form, to compare the board's targets with the legal actions."""
    return _CANONICAL.encode(data)


def renderer(game: Game) -> ModuleType | None:
    """The game package's `svg` module, for optional end-screen extras (`standings`, `TIE_BREAK`), or None."""
    module_name = type(game).__module__
    for package in (module_name, module_name.rsplit(".", 1)[0]):
        try:
            module = import_module(f"{package}.svg")
        except ImportError:
            continue
        if hasattr(module, "render_svg"):
            return module
    return None


def chance_rng(seed: int, ply: int) -> random.Random:
    """The generator for the chance outcome at `ply` of a game seeded with `seed`."""
    digest = hashlib.blake2b(f"skald-chance:{seed}:{ply}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _report_failure(task: asyncio.Task[None]) -> None:
    """Log why a table's driver stopped, if it failed (the game waits until the table is loaded again)."""
    if not task.cancelled() and task.exception() is not None:
        LOG.error("a table's bots and chance stopped", exc_info=task.exception())


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (None: a spectator), whether it wants the SVG and full view, its outbox."""

    seat: int | None
    svg: bool
    full: bool = True
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


@dataclass
class SeatInfo:
    """A seat at a live table."""

    name: str
    kind: str
    token_hash: str | None


class Table:
    """One live game: the state, its version (actions so far), seats, log, watchers and bots."""

    def __init__(self, row: GameRow, seats: list[SeatInfo], state: State) -> None:
        self.id = row.id
        self.game = get_game(row.game)
        self.seed = row.seed
        self.options = dict(row.options)
        self.seats = seats
        self.state = state
        self.rematch_id = row.rematch_id
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bots: dict[int, Bot] = {
            seat: make_bot(info.kind, seed=row.seed + seat) for seat, info in enumerate(seats) if info.kind != HUMAN
        }
        self.log: list[dict[str, Any]] = []
        self._svg_cache: dict[int | None, tuple[int, str]] = {}
        self._legal_cache: tuple[int, list[dict[str, Any]], str] | None = None
        self.driver: asyncio.Task[None] | None = None
        replay = self.game.new_initial_state(state.num_players, self.options)
        for action in state.history:
            self.log.append(self._entry(replay, action))
            replay.apply(action)

    @property
    def version(self) -> int:
        """How many actions the game has: a move must name this version to be accepted."""
        return len(self.state.history)

    @property
    def status(self) -> str:
        """`playing` or `over`."""
        return "over" if self.state.is_terminal() else "playing"

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for, or None."""
        if not token:
            return None
        digest = token_hash(token)
        for seat, info in enumerate(self.seats):
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                return seat
        return None

    def _entry(self, state: State, action: int) -> dict[str, Any]:
        player = state.current_player()
        return {
            "ply": len(state.history),
            "seat": None if player == CHANCE else player,
            "name": "chance" if player == CHANCE else self.seats[player].name,
            "notation": state.action_to_notation(action),
        }

    # -- what a client sees -------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Public facts: seats, whose turn, status, result."""
        player = self.state.current_player()
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.state.num_players,
            "options": self.options,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind} for i, s in enumerate(self.seats)],
            "version": self.version,
            "status": self.status,
            "to_move": player if player >= 0 else None,
            "to_move_name": self.seats[player].name if player >= 0 else None,
            "result": self.result(),
            "rematch": self.rematch_id,
        }

    def result(self) -> dict[str, Any] | None:
        """At the end: standings with the tie-break, best first."""
        if not self.state.is_terminal():
            return None
        winners = self.state.winners()
        scores = self.state.scores()
        module = renderer(self.game)
        extra: list[dict[str, Any]] = []
        tie_break = ""
        if module is not None and hasattr(module, "standings"):
            extra = module.standings(self.state.observation(0))
            tie_break = getattr(module, "TIE_BREAK", "")

        def rank(seat: int) -> tuple[Any, ...]:
            keys = extra[seat].get("order", [scores[seat]]) if extra else [scores[seat]]
            return (seat not in winners, *(-value for value in keys))

        rows = []
        for place, seat in enumerate(sorted(range(len(scores)), key=rank), start=1):
            row = {"place": place, "seat": seat, "name": self.seats[seat].name, "score": scores[seat]}
            row.update({k: v for k, v in (extra[seat] if extra else {}).items() if k != "order"})
            rows.append(row)
        return {"winners": winners, "standings": rows, "tie_break": tie_break}

    def legal(self) -> tuple[list[dict[str, Any]], str]:
        """The mover's legal actions (JSON form, canonical key, notation) and their JSON text, built once a version."""
        cached = self._legal_cache
        if cached is not None and cached[0] == self.version:
            return cached[1], cached[2]
        state = self.state
        legal = []
        texts = []
        quote = json.encoder.encode_basestring_ascii
        for action in state.legal_actions():
            data = state.action_to_json(action)
            key = action_key(data)
            notation = state.action_to_notation(action)
            legal.append({"key": key, "action": data, "notation": notation})
            texts.append(f'{{"key":{quote(key)},"action":{key},"notation":{quote(notation)}}}')
        text = "[" + ",".join(texts) + "]"
        self._legal_cache = (self.version, legal, text)
        return legal, text

    def view(self, seat: int | None, full: bool = True) -> dict[str, Any]:
        """What `seat` (None: a spectator) is told; with `full` also the observation and, once, the scorings."""
        state = self.state
        player = state.current_player()
        body: dict[str, Any] = {
            "full": full,
            "version": self.version,
            "status": self.status,
            "to_move": player if player >= 0 else None,
            "legal": self.legal()[0] if seat is not None and seat == player else [],
            "result": self.result(),
            "rematch": self.rematch_id,
        }
        if full:
            observation = dict(state.observation(seat if seat is not None else -1))
            scorings = observation.pop("scorings") if "scorings" in observation else state.scorings()
            body["observation"] = observation
            body["scorings"] = scorings
        return body

    def svg(self, seat: int | None) -> str | None:
        """The board as SVG for `seat`, from the game's `render_svg` (cached per version)."""
        cached = self._svg_cache.get(seat)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        names = [s.name for s in self.seats]
        text = self.game.render_svg(self.state, seat, names)
        self._svg_cache[seat] = (self.version, text)
        return text

    def message(self, client: Client, kind: str, log: list[dict[str, Any]], full: bool | None = None) -> str:
        """An update for one client: new log entries, its view (full if it wants it or `full`) and maybe the SVG."""
        body = {"type": kind, "log": log, **self.view(client.seat, client.full if full is None else full)}
        if client.svg:
            body["svg"] = self.svg(client.seat)
        if not body["legal"]:
            return _COMPACT.encode(body)
        del body["legal"]  # spliced in as the text cached with it, the same JSON
        return f'{_COMPACT.encode(body)[:-1]},"legal":{self.legal()[1]}}}'

    def broadcast(self, log: list[dict[str, Any]]) -> None:
        """Queue an update for every client, sharing the text between clients that are told the same."""
        cache: dict[tuple[int | None, bool, bool], str] = {}
        player = self.state.current_player()
        for client in list(self.clients):
            # Seats not on turn are told the same as a spectator unless they see the full (seat-specific) view.
            seat = client.seat if client.full or client.svg or client.seat == player else None
            key = (seat, client.svg, client.full)
            if key not in cache:
                cache[key] = self.message(client, "update", log)
            client.outbox.put_nowait(cache[key])

    def notify(self, data: dict[str, Any]) -> None:
        """Queue a small notice for every client."""
        text = json.dumps(data)
        for client in list(self.clients):
            client.outbox.put_nowait(text)


class Tables:
    """Every live table of one server process, backed by the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.on_broadcast: Callable[[Table], None] | None = None
        self._batch: list[tuple[tuple[str, int, list[tuple[int, int]], str], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def _write(self, game_id: str, version: int, moves: list[tuple[int, int]], status: str) -> None:
        """Commit one game's moves, grouped with whatever other games commit at the same moment."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append(((game_id, version, moves, status), future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_batches())
        await future

    async def _write_batches(self) -> None:
        while self._batch:
            batch, self._batch = self._batch, []
            try:
                results = await asyncio.to_thread(self.store.append_many, [item for item, _ in batch])
            except Exception as error:  # the database failed: nobody in this batch is told their move happened
                for _, future in batch:
                    future.set_exception(error)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if result is None:
                    future.set_result(None)
                else:
                    future.set_exception(result)

    # -- creating and loading -----------------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        seats: list[tuple[str, str]],
        options: dict[str, Any],
        seed: int | None = None,
        token_hashes: list[str | None] | None = None,
    ) -> tuple[Table, list[str | None]]:
        """Create a game with `seats` as (name, kind); returns the table and each person seat's new token."""
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
        for index, (_name, kind) in enumerate(seats):
            if kind != HUMAN:
                try:
                    make_bot(kind)
                except SpecError as error:
                    raise TableError("seats", f"seats[{index}].bot: {error}") from None
        tokens: list[str | None] = []
        hashes: list[str | None] = []
        for index, (_name, kind) in enumerate(seats):
            if kind != HUMAN:
                tokens.append(None)
                hashes.append(None)
            elif token_hashes is not None and token_hashes[index] is not None:
                tokens.append(None)
                hashes.append(token_hashes[index])
            else:
                token = secrets.token_urlsafe(24)
                tokens.append(token)
                hashes.append(token_hash(token))
        stamp = now()
        row = GameRow(
            id=secrets.token_urlsafe(12),
            game=game.name,
            players=len(seats),
            options=resolved,
            seed=secrets.randbits(48) if seed is None else seed,
            version=0,
            status="playing",
            rematch_id=None,
            created_at=stamp,
            updated_at=stamp,
        )
        seat_rows = [
            SeatRow(game_id=row.id, seat=i, name=name, kind=kind, token_hash=hashes[i])
            for i, (name, kind) in enumerate(seats)
        ]
        await asyncio.to_thread(self.store.create, row, seat_rows)
        table = Table(
            row,
            [SeatInfo(n, k, h) for (n, k), h in zip(seats, hashes, strict=True)],
            game.new_initial_state(len(seats), resolved),
        )
        self.tables[row.id] = table
        self.drive(table)
        return table, tokens

    async def get(self, game_id: str) -> Table:
        """The live table of `game_id`, rebuilt from the database by replaying its actions if need be."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(game_id)
            if table is not None:
                return table
            loaded = await asyncio.to_thread(self.store.load, game_id)
            if loaded is None:
                raise TableError("not_found", f"no game {game_id!r} here", 404)
            row, seat_rows, actions = loaded
            state = Record(
                row.game, row.players, dict(row.options), [Seat(s.name, s.kind) for s in seat_rows], actions
            ).replay()
            table = Table(row, [SeatInfo(s.name, s.kind, s.token_hash) for s in seat_rows], state)
            self.tables[game_id] = table
        self.drive(table)
        return table

    async def resume_all(self) -> int:
        """Load every unfinished game so its bots and chance carry on; returns how many."""
        ids = await asyncio.to_thread(self.store.unfinished)
        for game_id in ids:
            await self.get(game_id)
        return len(ids)

    # -- moving ---------------------------------------------------------------------------------------------

    async def _commit(
        self,
        table: Table,
        version: int,
        moves: list[tuple[int, int]],
        after: State,
        entries: list[dict[str, Any]],
    ) -> None:
        """Commit `moves` (reaching `after`, logged as `entries`), then adopt the new state and tell everyone."""
        status = "over" if after.is_terminal() else "playing"
        try:
            await self._write(table.id, version, moves, status)
        except StaleVersion:
            raise TableError(
                "stale", "stale: another move was recorded first; the table has been refreshed", 409
            ) from None
        table.state = after
        table.log.extend(entries)
        table.broadcast(entries)
        if self.on_broadcast is not None:
            self.on_broadcast(table)

    async def submit(self, table: Table, seat: int, version: Any, data: Any) -> None:
        """A person's move: refused unless it is `seat`'s turn, at the current version, and legal."""
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError("version", "version: expected the game's version (an integer) your move is for")
        async with table.lock:
            state = table.state
            if state.is_terminal():
                raise TableError("game_over", "the game is over", 409)
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
            moves, entries = [(seat, action)], [table._entry(state, action)]
            after = state.clone()
            after.apply(action)
            self._draw_chance(table, after, moves, entries)
            await self._commit(table, version, moves, after, entries)
        self.drive(table)

    def why(self, table: Table, data: Any) -> str | None:
        """Why an action is not a choice now (None when it is), for the hover on a forbidden square."""
        state = table.state
        try:
            action = state.action_from_json(data)
        except ValueError as error:
            return f"not an action: {error}"
        reason = state.illegal_reason(action)
        return None if reason is None else str(reason)

    # -- chance and bots --------------------------------------------------------------------------------------

    @staticmethod
    def _draw_chance(table: Table, after: State, moves: list[tuple[int, int]], entries: list[dict[str, Any]]) -> None:
        """Draw every chance outcome due next in `after`, adding it to `moves` and `entries` (committed together)."""
        while after.current_player() == CHANCE:
            action = sample_chance(after, chance_rng(table.seed, len(after.history)))
            moves.append((CHANCE, action))
            entries.append(table._entry(after, action))
            after.apply(action)

    def drive(self, table: Table) -> None:
        """Start the task that plays chance and bot seats when one is to move, unless it is already running."""
        state = table.state
        player = state.current_player()
        if state.is_terminal() or (player >= 0 and player not in table.bots):
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))
            table.driver.add_done_callback(_report_failure)

    async def _drive(self, table: Table) -> None:
        while True:
            async with table.lock:
                state = table.state
                player = state.current_player()
                if state.is_terminal() or (player >= 0 and player not in table.bots):
                    return
                version = table.version
                if player == CHANCE:
                    after = state.clone()
                    moves: list[tuple[int, int]] = []
                    entries: list[dict[str, Any]] = []
                    self._draw_chance(table, after, moves, entries)
                    await self._commit(table, version, moves, after, entries)
                    continue
                snapshot = state.clone()
            bot = table.bots[player]
            action = await asyncio.to_thread(bot.step, snapshot)
            async with table.lock:
                if table.version != version:
                    continue
                moves, entries = [(player, action)], [table._entry(table.state, action)]
                after = table.state.clone()
                after.apply(action)
                self._draw_chance(table, after, moves, entries)
                await self._commit(table, version, moves, after, entries)

    async def rematch(self, table: Table, seat: int) -> Table:
        """The same seats and options again (person seats keep their tokens); made once per game."""
        if table.rematch_id is not None:
            return await self.get(table.rematch_id)
        if not table.state.is_terminal():
            raise TableError("not_over", "a rematch can start only when the game is over", 409)
        new, _ = await self.create(
            table.game.name,
            [(s.name, s.kind) for s in table.seats],
            table.options,
            token_hashes=[s.token_hash for s in table.seats],
        )
        chosen = await asyncio.to_thread(self.store.set_rematch, table.id, new.id)
        table.rematch_id = chosen
        table.notify({"type": "rematch", "id": chosen, "by": table.seats[seat].name})
        return await self.get(chosen)

    async def close(self) -> None:
        """Stop every driver task."""
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.driver
