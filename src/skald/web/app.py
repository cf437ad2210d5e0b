"""The web table's HTTP and WebSocket endpoints (FastAPI); every rule question goes to the game's state."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skald.engine import Record, Seat, get_game, listed_games
from skald.web.db import Store, make_engine, migrate
from skald.web.errors import TableError
from skald.web.ratelimit import RateLimiter
from skald.web.settings import MAX_BODY, MAX_MESSAGE, Settings
from skald.web.tables import HUMAN, Client, Table, Tables

#: The bots a seat may be given at the web table (a bound on the server's thinking per move).
BOT_LEVELS = ("random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard")
STATIC = files("skald.web").joinpath("static")
#: The game a request to create one gets when it names none (a setting, not a branch: any registered game plays).
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SeatIn(BaseModel):
    """A seat in a game to create: a person, or a bot at a level."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=40)
    kind: Literal["human", "bot"] = "human"
    bot: Literal["random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard"] = "mcts:normal"


class CreateIn(BaseModel):
    """A request to create a game."""

    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(None, max_length=40)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=32)
    seed: int | None = Field(None, ge=0, lt=2**48)


class MoveIn(BaseModel):
    """A move submitted over HTTP."""

    model_config = ConfigDict(extra="forbid")
    version: int
    action: dict[str, Any]
    seat: int | None = None


def error_response(error: TableError) -> JSONResponse:
    """A refused request as JSON."""
    return JSONResponse({"error": error.to_json()}, status_code=error.status)


def validation_message(error: ValidationError) -> str:
    """The first validation problem, as `field.path: message`."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


async def read_json(request: Request) -> Any:
    """The request body as JSON, at most MAX_BODY bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TableError("too_large", f"request body larger than {MAX_BODY} bytes", 413)
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TableError("malformed", f"body: not JSON ({error})") from None


class WhyIn(BaseModel):
    """A question over HTTP: why is this action not a choice now?"""

    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]


def viewer_of(table: Table, request: Request, asked: str | None) -> int | None:
    """Whose view a request gets: the bearer token's seat (None: a spectator), or the seat named by `?seat=` (a
    number, or `spectator`) — another seat's only when nothing is hidden from anyone (a perfect-information game,
    or one that is over); asking for it otherwise is refused (403), never answered."""
    own = table.seat_of(bearer(request))
    if asked is None:
        return own
    if asked == "spectator":
        return None
    if not asked.isdigit() or not 0 <= int(asked) < len(table.seats):
        raise TableError("seat", f"seat: expected a seat number 0–{len(table.seats) - 1} or 'spectator'")
    seat = int(asked)
    if seat != own and not table.public:
        raise TableError(
            "hidden",
            f"seat: the view of seat {seat} is hidden from {'a spectator' if own is None else f'seat {own}'} "
            "until the game is over",
            403,
        )
    return seat


def bearer(request: Request) -> str | None:
    """The seat token from `Authorization: Bearer …`."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def create_app(settings: Settings) -> FastAPI:
    """The web table application for one database."""
    engine = make_engine(settings.db_url)
    store = Store(engine)
    tables = Tables(store, idle_seconds=settings.table_idle_seconds, max_tables=settings.max_tables)
    creations = RateLimiter(settings.games_per_minute / 60.0, max(1.0, settings.games_per_minute))
    moves = RateLimiter(settings.moves_per_second, max(1.0, 2 * settings.moves_per_second))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, engine)
        await tables.resume_all()
        tables.start_sweeping()
        # Everything loaded so far (modules, the app) lives as long as the process: keep it out of the cyclic
        # garbage collector's full passes, which otherwise paused every table for ~100 ms each second under load,
        # and collect less often (each move allocates a few hundred short-lived objects, nearly all freed at once).
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        yield
        await tables.close()
        engine.dispose()

    app = FastAPI(title="Skald", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.tables = tables
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.middleware("http")
    async def limits(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return error_response(TableError("too_large", f"request body larger than {MAX_BODY} bytes", 413))
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: TableError) -> JSONResponse:
        return error_response(error)

    @app.get("/")
    async def lobby() -> FileResponse:
        return FileResponse(str(STATIC.joinpath("index.html")))

    @app.get("/table/{game_id}")
    async def table_page(game_id: str) -> FileResponse:
        return FileResponse(str(STATIC.joinpath("table.html")))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "games": len(tables.tables), "tables": tables.stats()}

    @app.get("/api/catalogue")
    async def catalogue() -> dict[str, Any]:
        games = []
        for name in listed_games():
            game = get_game(name)
            games.append(
                {
                    "name": game.name,
                    "title": game.title,
                    "min_players": game.min_players,
                    "max_players": game.max_players,
                    "options": [
                        {"name": o.name, "default": o.default, "choices": list(o.choices), "doc": o.doc}
                        for o in game.options
                    ],
                }
            )
        return {"games": games, "bots": list(BOT_LEVELS), "default": listed_games()[0]}

    @app.post("/api/games")
    async def create(request: Request) -> JSONResponse:
        host = request.client.host if request.client else "?"
        if not creations.allow(host):
            raise TableError("rate_limited", "too many games created from this address; wait a minute", 429)
        try:
            body = CreateIn.model_validate(await read_json(request))
        except ValidationError as error:
            raise TableError("invalid", validation_message(error)) from None
        seats = [
            (
                seat.name.strip() or (f"Player {i + 1}" if seat.kind == "human" else f"Bot ({seat.bot})"),
                HUMAN if seat.kind == "human" else seat.bot,
            )
            for i, seat in enumerate(body.seats)
        ]
        table, tokens = await tables.create(body.game or listed_games()[0], seats, dict(body.options), body.seed)
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                **table.summary(),
                "spectator_url": f"{base}/table/{table.id}",
                "invites": [
                    {"seat": i, "name": seats[i][0], "token": token, "url": f"{base}/table/{table.id}#t={token}"}
                    for i, token in enumerate(tokens)
                    if token is not None
                ],
            },
            status_code=201,
        )

    @app.get("/api/games/{game_id}")
    async def game_summary(game_id: str, request: Request) -> dict[str, Any]:
        async with tables.use(game_id) as table:
            summary = table.summary()
            summary["you"] = table.seat_of(bearer(request))
            return summary

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request, seat: str | None = None, whole: bool = False) -> JSONResponse:
        async with tables.use(game_id) as table:
            viewer = viewer_of(table, request, seat)
            if whole and not table.public:
                raise TableError(
                    "hidden",
                    "whole: the whole record of a game with hidden information is revealed when the game is over; "
                    "until then each seat downloads the game as it saw it (leave out 'whole')",
                    403,
                )
            game_record = Record(
                table.game.name,
                table.state.num_players,
                table.options,
                [Seat(s.name, s.kind) for s in table.seats],
                list(table.state.history),
            )
            data = game_record.to_dict() if table.public else game_record.seen_by(viewer)
        whose = "" if table.public else ("-spectator" if viewer is None else f"-seat{viewer + 1}")
        return JSONResponse(
            data,
            headers={"Content-Disposition": f'attachment; filename="skald-{table.game.name}-{table.id}{whose}.json"'},
        )

    @app.get("/api/games/{game_id}/replay/{ply}")
    async def replay(game_id: str, ply: int, request: Request, seat: str | None = None) -> dict[str, Any]:
        async with tables.use(game_id) as table:
            viewer = viewer_of(table, request, seat)
            if not 0 <= ply <= table.version:
                raise TableError("ply", f"ply: must be 0–{table.version}", 404)
            history = table.state.history[:ply]
            state = Record(table.game.name, table.state.num_players, table.options, [], history).replay()
            # The position as the viewer saw it then (a past hand of another seat stays hidden even after the end);
            # the log is the viewer's during play and the whole one once the game is over.
            observation = dict(state.observation(viewer))
            scorings = observation.pop("scorings") if "scorings" in observation else state.scorings()
            return {
                "ply": ply,
                "version": table.version,
                "viewer": viewer,
                "svg": table.game.render_svg(state, viewer, names=[s.name for s in table.seats]),
                "log": table.log_for(viewer)[:ply],
                "observation": observation,
                "scorings": scorings,
            }

    @app.post("/api/games/{game_id}/why")
    async def why(game_id: str, request: Request) -> dict[str, Any]:
        async with tables.use(game_id) as table:
            seat = table.seat_of(bearer(request))
            try:
                body = WhyIn.model_validate(await read_json(request))
            except ValidationError as error:
                raise TableError("invalid", validation_message(error)) from None
            return {"action": body.action, "reason": tables.why(table, seat, body.action)}

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request) -> dict[str, Any]:
        async with tables.use(game_id) as table:
            seat = table.seat_of(bearer(request))
            if seat is None:
                raise TableError("forbidden", "token: not a seat of this game (a spectator cannot act)", 403)
            if not moves.allow(f"{table.id}:{seat}"):
                raise TableError("rate_limited", "too many moves; slow down", 429)
            try:
                body = MoveIn.model_validate(await read_json(request))
            except ValidationError as error:
                raise TableError("invalid", validation_message(error)) from None
            if body.seat is not None and body.seat != seat:
                raise TableError("wrong_seat", f"seat: your token acts only for seat {seat}", 403)
            await tables.submit(table, seat, body.version, body.action)
            return {"ok": True, "version": table.version}

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request) -> dict[str, Any]:
        async with tables.use(game_id) as table:
            seat = table.seat_of(bearer(request))
            if seat is None:
                raise TableError("forbidden", "token: only a seat of this game can ask for a rematch", 403)
            return await tables.rematch(table, seat)

    @app.websocket("/ws/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            table = await tables.hold(game_id)
        except TableError as error:
            await websocket.send_text(json.dumps({"type": "error", **error.to_json()}))
            await websocket.close(4404)
            return
        try:  # held from before the hello until the client leaves, so a table with a client is never dropped
            await Session(websocket, table, tables, moves).run()
        finally:
            tables.release(table)

    return app


class Session:
    """One WebSocket client at one table: a hello with an optional seat token, then moves and questions."""

    def __init__(self, websocket: WebSocket, table: Table, tables: Tables, moves: RateLimiter) -> None:
        self.websocket = websocket
        self.table = table
        self.tables = tables
        self.moves = moves
        self.client: Client | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, data: dict[str, Any]) -> None:
        """Queue a message for this client, in order with the table's updates."""
        self.outbox.put_nowait(json.dumps(data))

    def error(self, error: TableError, ref: Any = None) -> None:
        """Queue an error."""
        self.send({"type": "error", **error.to_json(), "ref": ref})

    async def _writer(self, outbox: asyncio.Queue[str | None]) -> None:
        while True:
            text = await outbox.get()
            if text is None:
                return
            await self.websocket.send_text(text)

    async def run(self) -> None:
        """Serve the client until it leaves."""
        writer = asyncio.create_task(self._writer(self.outbox))
        try:
            while True:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                raw = message.get("text")
                if raw is None:
                    raw_bytes = message.get("bytes") or b""
                    raw = raw_bytes.decode("utf-8", "replace")
                if len(raw.encode()) > MAX_MESSAGE:
                    self.error(TableError("too_large", f"message larger than {MAX_MESSAGE} bytes"))
                    continue
                try:
                    data = json.loads(raw)
                except json.JSONDecodeError as error:
                    self.error(TableError("malformed", f"message: not JSON ({error.msg} at column {error.colno})"))
                    continue
                if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                    self.error(TableError("malformed", "message: expected an object with a 'type'"))
                    continue
                ref = data.get("ref")
                if ref is not None and (not isinstance(ref, int | str) or len(str(ref)) > 64):
                    ref = None
                try:
                    closing = await self.handle(data, ref)
                except TableError as error:
                    self.error(error, ref)
                    closing = error.code == "forged_token"
                if closing:
                    self.send({"type": "bye"})
                    await asyncio.sleep(0)
                    return
        except WebSocketDisconnect:
            return
        finally:
            if self.client is not None:
                self.table.clients.discard(self.client)
            self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            with contextlib.suppress(Exception):
                await self.websocket.close()

    async def handle(self, data: dict[str, Any], ref: Any) -> bool:
        """Act on one message; True when the connection should close."""
        kind = data["type"]
        table = self.table
        if kind == "hello":
            if self.client is not None:
                raise TableError("hello", "hello: already greeted")
            token = data.get("token")
            if token is not None and (not isinstance(token, str) or len(token) > 128):
                raise TableError("forged_token", "token: not a seat token")
            seat = table.seat_of(token)
            if token and seat is None:
                raise TableError("forged_token", "token: not a seat of this game; watch through the spectator link")
            client = Client(
                seat=seat,
                svg=data.get("svg", True) is not False,
                full=data.get("full", True) is not False,
                outbox=self.outbox,
            )
            self.client = client
            self.send({"type": "welcome", "you": seat, "game": table.summary()})
            self.outbox.put_nowait(table.message(client, "update", table.log, full=True))
            table.clients.add(client)
            return False
        if self.client is None:
            raise TableError("hello", "hello: say hello first (with your seat token, or none to watch)")
        if kind == "ping":
            self.send({"type": "pong", "ref": ref})
            return False
        if kind == "view":
            self.outbox.put_nowait(table.message(self.client, "update", [], full=True))
            return False
        if kind == "why":
            reason = self.tables.why(table, self.client.seat, data.get("action"))
            self.send({"type": "why", "ref": ref, "action": data.get("action"), "reason": reason})
            return False
        if kind == "move":
            seat = self.client.seat
            if seat is None:
                raise TableError("spectator", "spectators can't act: open your seat's invite link to play", 403)
            named = data.get("seat")
            if named is not None and named != seat:
                raise TableError("wrong_seat", f"seat: your token acts only for seat {seat}", 403)
            if not self.moves.allow(f"{table.id}:{seat}"):
                raise TableError("rate_limited", "too many moves; slow down", 429)
            try:
                await self.tables.submit(table, seat, data.get("version"), data.get("action"))
            except TableError as error:
                if error.code == "stale":
                    self.outbox.put_nowait(table.message(self.client, "update", [], full=True))
                raise
            return False
        raise TableError("type", f"type: unknown message type {kind!r} (hello, move, view, why, ping)")
