"""The live table's WebSocket protocol at `/ws/{game_id}`: a hello with an optional seat token, then moves, standing
answers, questions and chat, each answered in order with the table's updates."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, MutableMapping
from typing import Any, ClassVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from skald.web import absence, endings, projection, undos
from skald.web.accounts import Accounts, websocket_seat
from skald.web.client import OUTBOX_LIMIT, Client
from skald.web.deps import (
    AccountsDep,
    ClientKey,
    LimitsDep,
    SecurityLogDep,
    SettingsDep,
    TablesDep,
    address,
)
from skald.web.errors import TableError
from skald.web.guard import SecurityLog
from skald.web.live_table import LiveTable
from skald.web.ratelimit import RateLimiter
from skald.web.registry import Tables
from skald.web.settings import MAX_MESSAGE

SLOW_DOWN = "too many connections from this address at once; wait a moment"
SPECTATORS_CANNOT_ACT = "spectators can't act: open your seat's invite link to play"

router = APIRouter()


@router.websocket("/ws/{game_id}")
async def socket(
    websocket: WebSocket,
    game_id: str,
    client: ClientKey,
    limits: LimitsDep,
    tables: TablesDep,
    log: SecurityLogDep,
    settings: SettingsDep,
    accounts: AccountsDep,
) -> None:
    """Serve one WebSocket client at the table of `game_id` until it leaves."""
    await websocket.accept()
    if not limits.hellos.allow(client):
        log.event("rate_limited", address(websocket), "new WebSocket sessions")
        await websocket.send_text(json.dumps({"type": "error", "code": "rate_limited", "message": SLOW_DOWN}))
        await websocket.close(1008)
        return
    try:
        table = await tables.hold(game_id)
    except TableError as error:
        await websocket.send_text(json.dumps({"type": "error", **error.to_json()}))
        await websocket.close(4404 if error.code == "not_found" else 1011)
        return
    try:  # held from before the hello until the client leaves, so a table with a client is never dropped
        session = SocketSession(websocket, table, tables, limits.moves, log, settings.idle_timeout, accounts)
        session.shared = (limits.views, client)
        await session.run()
    finally:
        tables.release(table)


class SocketSession:
    """One WebSocket client at one table: a hello with an optional seat token, then moves and questions.

    What the client may ask for costs the server far more than the asking costs the client (a full view with its
    board is tens of KB), so each kind of question has its own allowance per connection; a client that keeps
    asking past it is closed (1008), and one that does not read what it is sent is dropped (4008) instead of the
    server queueing for it without end.
    """

    #: Rate (per second) and burst of each kind of question per connection.
    ALLOWANCES: ClassVar[dict[str, tuple[float, float]]] = {
        "view": (1.0, 5.0),
        "why": (5.0, 20.0),
        "ping": (1.0, 5.0),
    }
    #: Requests refused for going too fast before the connection is closed.
    STRIKES = 50

    def __init__(
        self,
        websocket: WebSocket,
        table: LiveTable,
        tables: Tables,
        moves: RateLimiter,
        log: SecurityLog,
        hello_timeout: float,
        accounts: Accounts | None = None,
    ) -> None:
        self.websocket = websocket
        self.accounts = accounts
        self.table = table
        self.tables = tables
        self.moves = moves
        self.log = log
        self.hello_timeout = hello_timeout
        self.client: Client | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.allowances = {kind: RateLimiter(rate, burst) for kind, (rate, burst) in self.ALLOWANCES.items()}
        self.strikes = 0
        #: How the connection is closed when the session ends (unless it is being dropped).
        self.close_code = 1000
        self.writer: asyncio.Task[None] | None = None
        self.dropping: asyncio.Task[None] | None = None
        #: The full views one client address may ask for across all its connections, and its key there.
        self.shared: tuple[RateLimiter | None, str] = (None, "")

    @property
    def address(self) -> str:
        """The client's address."""
        return address(self.websocket)

    # -- what the client is sent -------------------------------------------------------------------------------

    def send(self, data: dict[str, Any]) -> None:
        """Queue a message for this client, in order with the table's updates."""
        self.push(json.dumps(data))

    def push(self, text: str) -> None:
        """Queue a text for this client, or drop the client if it has left too much unread."""
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.overflow()
            return
        self.outbox.put_nowait(text)

    def full_update(self, client: Client) -> None:
        """Queue the whole table as `client` sees it now."""
        self.push(projection.message(self.table, client, "update", [], full=True))

    def error(self, error: TableError, ref: Any = None) -> None:
        """Queue an error."""
        self.send({"type": "error", **error.to_json(), "ref": ref})

    async def _writer(self, outbox: asyncio.Queue[str | None]) -> None:
        while True:
            text = await outbox.get()
            if text is None:
                return
            await self.websocket.send_text(text)

    # -- dropping the client -----------------------------------------------------------------------------------

    def overflow(self) -> None:
        """The client does not read: stop writing to it and close the connection (4008)."""
        if self.dropping is not None:
            return
        self.log.event("slow_reader", self.address, f"{OUTBOX_LIMIT} messages unread")
        if self.client is not None:
            self.table.clients.discard(self.client)
        if self.writer is not None:
            self.writer.cancel()

        async def close() -> None:
            with contextlib.suppress(Exception):
                await self.websocket.close(4008, "too many messages unread")

        self.dropping = asyncio.get_running_loop().create_task(close())

    def revoke(self, message: str = "this seat's token was replaced; use the new link") -> None:
        """The token (or the session) that seated this client no longer works: tell it why, then close the
        connection (4401)."""
        if self.dropping is not None:
            return
        if self.client is not None:
            self.table.clients.discard(self.client)
        self.send({"type": "error", "code": "revoked", "message": message})
        self.outbox.put_nowait(None)
        writer = self.writer

        async def close() -> None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                if writer is not None:
                    await asyncio.wait_for(writer, 10)
            with contextlib.suppress(Exception):
                await self.websocket.close(4401, "token replaced")

        self.dropping = asyncio.get_running_loop().create_task(close())

    def signed_out(self) -> None:
        """The session that seated this client by its account was signed out: close the connection (4401)."""
        self.revoke("your session was signed out; sign in again, or use your seat's invite link")

    # -- the session's life ------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the client until it leaves."""
        self.writer = writer = asyncio.create_task(self._writer(self.outbox))
        try:
            await self.serve()
        except WebSocketDisconnect:
            return
        finally:
            await self.leave(writer)

    async def serve(self) -> None:
        """Read and answer the client's messages until it leaves or the connection is to close."""
        while self.dropping is None:
            message = await self.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message["type"] == "websocket.timeout":
                self.close_code = 4408
                return
            data = self.parse(message)
            if data is not None and await self.answer(data, reference(data)):
                return
            # Messages a client sent at once reach the server at once; between two of them the other sessions have
            # their turn, so a flood on one connection never delays another's welcome or moves.
            await asyncio.sleep(0)

    async def leave(self, writer: asyncio.Task[None]) -> None:
        """The client is gone or going: leave the table, let the writer finish, then close the connection."""
        if self.client is not None:
            self.table.clients.discard(self.client)
        if self.accounts is not None:
            self.accounts.forget(self.signed_out)
        self.outbox.put_nowait(None)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(writer, 10)
        if self.dropping is not None:
            with contextlib.suppress(Exception):
                await self.dropping
        else:
            with contextlib.suppress(Exception):
                await self.websocket.close(self.close_code)

    async def receive(self) -> MutableMapping[str, Any]:
        """The next message; before the hello, within the hello timeout (a silent socket is closed, 4408)."""
        if self.client is not None:
            return await self.websocket.receive()
        try:
            return await asyncio.wait_for(self.websocket.receive(), self.hello_timeout)
        except TimeoutError:
            self.log.event("hello_timeout", self.address, "no hello in time")
            return {"type": "websocket.timeout"}

    def parse(self, message: MutableMapping[str, Any]) -> dict[str, Any] | None:
        """A message's JSON object with its `type`, or None once the client is told what is wrong with it."""
        raw = message.get("text")
        if raw is None:
            raw_bytes = message.get("bytes") or b""
            raw = raw_bytes.decode("utf-8", "replace")
        if len(raw.encode()) > MAX_MESSAGE:
            self.error(TableError("too_large", f"message larger than {MAX_MESSAGE} bytes"))
            return None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as error:
            self.error(TableError("malformed", f"message: not JSON ({error.msg} at column {error.colno})"))
            return None
        except (ValueError, RecursionError):
            self.error(TableError("malformed", "message: numbers too long or nesting too deep"))
            return None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            self.error(TableError("malformed", "message: expected an object with a 'type'"))
            return None
        return data

    async def answer(self, data: dict[str, Any], ref: Any) -> bool:
        """Act on one message, telling the client if it is refused; True when the connection is to close."""
        try:
            await self.handle(data, ref)
        except TableError as error:
            self.error(error, ref)
            if error.code == "forged_token":
                await self.forged()
                return True
            if error.code == "rate_limited":
                return self.strike()
        return False

    async def forged(self) -> None:
        """The hello showed a forged token: say bye, then close the connection (4403)."""
        self.close_code = 4403
        self.log.event("forged_token", self.address, f"WebSocket hello at game {self.table.id}")
        self.send({"type": "bye"})
        await asyncio.sleep(0)

    def strike(self) -> bool:
        """Count one request refused for going too fast; True once there were too many (closed, 1008)."""
        self.strikes += 1
        if self.strikes < self.STRIKES:
            return False
        self.log.event("rate_limited", self.address, "kept asking too fast: closed")
        self.close_code = 1008
        return True

    # -- the messages ------------------------------------------------------------------------------------------

    def allow(self, kind: str) -> None:
        """Refuse a `kind` of question asked faster than its allowance."""
        if not self.allowances[kind].allow(""):
            raise TableError("rate_limited", f"too many '{kind}' requests; slow down", 429)

    async def handle(self, data: dict[str, Any], ref: Any) -> None:
        """Act on one message."""
        kind = data["type"]
        if kind == "hello":
            await self.hello(data)
            return
        client = self.client
        if client is None:
            raise TableError("hello", "hello: say hello first (with your seat token, or none to watch)")
        if kind == "ping":
            self.allow("ping")
            self.send({"type": "pong", "ref": ref})
        elif kind == "view":
            self.allow("view")
            views, key = self.shared
            if views is not None and not views.allow(key):  # one address's views across its connections
                raise TableError("rate_limited", "too many 'view' requests from your address; slow down", 429)
            self.full_update(client)
        elif kind == "why":
            self.allow("why")
            reason = projection.why(self.table, client.seat, data.get("action"))
            self.send({"type": "why", "ref": ref, "action": data.get("action"), "reason": reason})
        elif kind == "move":
            await self.move(client, data)
        elif kind == "standing":
            await self.standing(client, data)
        elif kind in ("resign", "draw"):
            await self.end(client, kind, data)
        elif kind == "back":
            self.allow_move(self.acting_seat(client))
            await absence.back(self.tables, self.table, self.acting_seat(client))
        elif kind == "undo":
            seat = self.acting_seat(client)
            self.allow_move(seat)
            await self.acted(client, undos.undo(self.tables, self.table, seat, data.get("version")))
        elif kind == "chat":
            # The chat's own limits count each writer across all his connections (skald.web.chat's LIMITS).
            await self.tables.say(self.table, client.seat, data.get("text"))
        else:
            raise TableError(
                "type",
                f"type: unknown message type {kind!r} "
                "(hello, move, undo, standing, resign, draw, back, view, why, ping, chat)",
            )

    async def hello(self, data: dict[str, Any]) -> None:
        """Seat the client (by its token, else by its signed-in account, else as a spectator) and send it the table."""
        if self.client is not None:
            raise TableError("hello", "hello: already greeted")
        table = self.table
        seat = await self.hello_seat(data.get("token"))
        client = Client(
            seat=seat,
            svg=data.get("svg", True) is not False,
            full=data.get("full", True) is not False,
            outbox=self.outbox,
            on_overflow=self.overflow,
            on_revoke=self.revoke,
        )
        self.client = client
        self.send({"type": "welcome", "you": seat, "game": projection.summary(table)})
        if table.chat.may_read(seat):
            history = await table.chat.history(self.tables.stores.chat)
            self.send({"type": "chat", "messages": history, "history": True})
        # From here to joining the table nothing waits: every later move and message reaches this client, and
        # none of those it already has comes again.
        self.push(projection.message(table, client, "update", table.log, full=True))
        table.clients.add(client)

    async def hello_seat(self, token: Any) -> int | None:
        """The seat a hello's token holds, else the one the signed-in account claimed, else None (a spectator); a
        token of no seat of this game is refused as forged."""
        if token is not None and (not isinstance(token, str) or len(token) > 128 or not token.isascii()):
            raise TableError("forged_token", "token: not a seat token")
        seat = self.table.seat_of(token)
        if token and seat is None:
            raise TableError("forged_token", "token: not a seat of this game; watch through the spectator link")
        if seat is None and self.accounts is not None:  # no token: the seat the signed-in account claimed
            seat = await websocket_seat(self.accounts, self.websocket, self.table.id, self.signed_out)
        return seat

    def acting_seat(self, client: Client) -> int:
        """The seat `client` acts for; a spectator is refused."""
        seat = client.seat
        if seat is None:
            raise TableError("spectator", SPECTATORS_CANNOT_ACT, 403)
        return seat

    def allow_move(self, seat: int) -> None:
        """Refuse a move or standing answer of `seat` sent faster than the moves allowed a seat."""
        if not self.moves.allow(f"{self.table.id}:{seat}"):
            raise TableError("rate_limited", "too many moves; slow down", 429)

    async def move(self, client: Client, data: dict[str, Any]) -> None:
        """Submit the client's move for its seat."""
        seat = self.acting_seat(client)
        named = data.get("seat")
        if named is not None and named != seat:
            raise TableError("wrong_seat", f"seat: your token acts only for seat {seat}", 403)
        self.allow_move(seat)
        await self.acted(client, self.tables.commits.submit(self.table, seat, data.get("version"), data.get("action")))

    async def standing(self, client: Client, data: dict[str, Any]) -> None:
        """Keep (or, with no name, forget) the standing answer the client's seat chose."""
        seat = self.acting_seat(client)
        self.allow_move(seat)
        name = data.get("name")
        await self.acted(client, self.tables.commits.keep_standing(self.table, seat, data.get("version"), name))
        if name is None:  # nothing moved: only this seat's view changed
            self.full_update(client)

    async def end(self, client: Client, kind: str, data: dict[str, Any]) -> None:
        """Resign the client's seat, or offer, accept or decline a draw (`act`) for it (`skald.web.endings`)."""
        seat = self.acting_seat(client)
        self.allow_move(seat)
        if kind == "resign":
            await endings.resign(self.tables, self.table, seat)
        else:
            await endings.draw(self.tables, self.table, seat, data.get("act"))

    async def acted(self, client: Client, acting: Awaitable[None]) -> None:
        """Wait for a move or standing answer to be taken; one for a version gone by is refused, and the client is
        sent the table as it is now."""
        try:
            await acting
        except TableError as error:
            if error.code == "stale":
                self.full_update(client)
            raise


def reference(data: dict[str, Any]) -> Any:
    """The `ref` a message carries for its answer to name (a number or a short string), else None."""
    ref = data.get("ref")
    if ref is not None and (not isinstance(ref, int | str) or len(str(ref)) > 64):
        return None
    return ref
