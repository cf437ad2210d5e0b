"""The web table's HTTP and WebSocket endpoints (FastAPI); every rule question goes to the game's state."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import hashlib
import hmac
import json
import secrets
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.resources import files
from typing import Any, ClassVar, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skald import __version__
from skald.engine import Game, Record, Seat, get_game, listed_games
from skald.web import projection, seat_tokens
from skald.web.accounts import SESSION_COOKIE, AccountIn, Accounts, Signed, SignOutIn, websocket_seat
from skald.web.accounts import router as account_router
from skald.web.chat import as_json as chat_json
from skald.web.client import OUTBOX_LIMIT, Client
from skald.web.errors import TableError
from skald.web.finished import Answer, FinishedCache, answer
from skald.web.guard import ClientAddresses, Gate, SecurityLog, bearer, parse_ip
from skald.web.live_table import HUMAN, LiveTable, token_hash
from skald.web.names import clean_name, distinct_names
from skald.web.projection import last_move_marks, scorings_beside
from skald.web.ratelimit import RateLimiter
from skald.web.ratings import Ratings
from skald.web.registry import Tables
from skald.web.reviews import Reviews
from skald.web.rules_page import missing_page, rules_page
from skald.web.settings import MAX_BODY, MAX_MESSAGE, Settings
from skald.web.store.engine import make_engine, migrate
from skald.web.store.stores import Stores

#: The bots a seat may be given at the web table (a bound on the server's thinking per move).
BOT_LEVELS = ("random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard")
STATIC = files("skald.web").joinpath("static")
#: How a finished game's record and replayed positions may be kept by the browser: they never change.
IMMUTABLE = "max-age=31536000, immutable"


class SeatIn(BaseModel):
    """A seat in a game to create: a person, or a bot at a level."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=40)
    kind: Literal["human", "bot"] = "human"
    bot: Literal["random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard"] = "mcts:normal"


#: The most rule options a request to create a game may carry.
MAX_OPTIONS = 128


class CreateIn(BaseModel):
    """A request to create a game."""

    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(None, max_length=40)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    # The lobby sends every rule option of the game (Vikingatid has 64); the bound keeps a request small.
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    seed: int | None = Field(None, ge=0, lt=2**48, strict=True)
    #: Whether spectators may read and write in the table chat (the seats always may).
    chat_spectators: bool = Field(False, strict=True)


class MoveIn(BaseModel):
    """A move submitted over HTTP."""

    model_config = ConfigDict(extra="forbid")
    version: int
    action: dict[str, Any]
    seat: int | None = None


#: How long a creation's `Idempotency-Key` is remembered, and how long a creation under one may take before its key
#: is taken for abandoned (the server stopped half-way) and may be used again.
IDEMPOTENCY_WINDOW = timedelta(hours=24)
IDEMPOTENCY_ABANDONED = timedelta(minutes=1)
#: The most characters an `Idempotency-Key` may have (a UUID has 36).
MAX_IDEMPOTENCY_KEY = 255
CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def idempotency_key(request: Request) -> str | None:
    """The creation's `Idempotency-Key` header (a string, quoted or not), or None; refused (400) unless it is 1–255
    printable ASCII characters."""
    raw = request.headers.get("idempotency-key")
    if raw is None:
        return None
    key = raw.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not key or len(key) > MAX_IDEMPOTENCY_KEY or not all(" " <= char <= "~" for char in key):
        raise TableError(
            "idempotency_key", f"Idempotency-Key: expected 1–{MAX_IDEMPOTENCY_KEY} printable ASCII characters (a UUID)"
        )
    return key


class ErrorDetail(BaseModel):
    """What a refusal says: a short code for programs and a message for people, naming the field at fault."""

    code: str
    message: str


class ErrorOut(BaseModel):
    """A refused request's body."""

    error: ErrorDetail


def reviewed_openapi(app: FastAPI) -> dict[str, Any]:
    """The API's OpenAPI schema, as reviewed rather than as FastAPI infers it: the pages and the WebSocket are left
    out, the request bodies the endpoints read themselves are declared, and every refusal is the server's own
    `{"error": {"code", "message"}}` (FastAPI's 422 validation answer is never sent: the server answers 400)."""
    schema = get_openapi(
        title="Skald",
        version=__version__,
        description=(
            "The web table's HTTP API (the live table speaks over the WebSocket /ws/{game_id}; see docs/web.md). "
            "A seat acts with its token as `Authorization: Bearer TOKEN`. A refusal names the field and the reason."
        ),
        routes=app.routes,
    )
    paths = {path: item for path, item in schema.get("paths", {}).items() if path.startswith("/api/")}
    components = schema.setdefault("components", {})
    models = components.setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        models.pop(name, None)
    bodies: list[type[BaseModel]] = [ErrorOut, *BODIES.values()]
    for model in bodies:
        found = model.model_json_schema(ref_template="#/components/schemas/{model}")
        models.update(found.pop("$defs", {}))
        models[model.__name__] = found
    error = {
        "description": "Refused: the body names the field at fault and why",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    }
    for path, item in paths.items():
        for method, operation in item.items():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            responses["4XX"] = error
            body = BODIES.get((method, path))
            if body is not None:
                operation["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body.__name__}"}}},
                }
    creation = paths["/api/games"]["post"]
    creation["responses"]["201"] = creation["responses"].pop("200")  # a creation answers 201 Created
    creation["parameters"] = [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
            "description": "A repeat with the same key and body within 24 hours gets the same game and tokens; "
            "with another body, 422.",
        }
    ]
    schema["paths"] = paths
    components["securitySchemes"] = {"seatToken": {"type": "http", "scheme": "bearer"}}
    return schema


def error_response(error: TableError) -> JSONResponse:
    """A refused request as JSON."""
    return JSONResponse({"error": error.to_json()}, status_code=error.status)


def validation_message(error: ValidationError) -> str:
    """The first validation problem, as `field.path: message`."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


async def read_json(request: Request, timeout: float) -> Any:
    """The request body as JSON, at most MAX_BODY bytes, read within `timeout` seconds (a body trickled in a byte
    at a time would otherwise hold the connection for ever)."""
    body = b""
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise TableError("too_large", f"request body larger than {MAX_BODY} bytes", 413)
    except TimeoutError:
        raise TableError("timeout", f"body: not received within {timeout:g} s", 408) from None
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TableError("malformed", f"body: not JSON ({error})") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, or arrays nested thousands deep
        raise TableError("malformed", "body: numbers too long or nesting too deep") from None


class WhyIn(BaseModel):
    """A question over HTTP: why is this action not a choice now?"""

    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]


#: The JSON body each endpoint reads itself (bounded in size, time and depth before it is parsed, so FastAPI never
#: sees it): declared in the schema by hand.
BODIES: dict[tuple[str, str], type[BaseModel]] = {
    ("post", "/api/games"): CreateIn,
    ("post", "/api/games/{game_id}/moves"): MoveIn,
    ("post", "/api/games/{game_id}/why"): WhyIn,
    ("post", "/api/accounts"): AccountIn,
    ("post", "/api/session"): AccountIn,
    ("delete", "/api/session"): SignOutIn,
}


def own_seat(token_hashes: list[str | None], token: str | None) -> int | None:
    """The seat whose token hash is that of `token`, or None (as `LiveTable.seat_of`, from a finished game's facts)."""
    if not token:
        return None
    digest = token_hash(token)
    for seat, stored in enumerate(token_hashes):
        if stored is not None and secrets.compare_digest(stored, digest):
            return seat
    return None


def viewer_for(seats: int, public: bool, own: int | None, asked: str | None) -> int | None:
    """Whose view a request gets: the bearer token's seat `own` (None: a spectator), or the seat named by `?seat=`
    (a number, or `spectator`) — another seat's only when nothing is hidden from anyone (a perfect-information
    game, or one that is over); asking for it otherwise is refused (403), never answered."""
    if asked is None:
        return own
    if asked == "spectator":
        return None
    if not asked.isdigit() or not 0 <= int(asked) < seats:
        raise TableError("seat", f"seat: expected a seat number 0–{seats - 1} or 'spectator'")
    seat = int(asked)
    if seat != own and not public:
        raise TableError(
            "hidden",
            f"seat: the view of seat {seat} is hidden from {'a spectator' if own is None else f'seat {own}'} "
            "until the game is over",
            403,
        )
    return seat


def address(request: Request | WebSocket) -> str:
    """The client's address as `Gate` resolved it (through trusted proxies)."""
    return request.client.host if request.client else "?"


def compact(data: Any) -> bytes:
    """JSON as the API sends it."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def kept(request: Request, found: Answer, cache_control: str, headers: dict[str, str] | None = None) -> Response:
    """A kept answer, or a bodiless 304 when the client already has it (its `If-None-Match` names the ETag)."""
    # The seat an answer is for comes from the bearer token or from the session cookie.
    fixed = {"ETag": found.etag, "Cache-Control": cache_control, "Vary": "Authorization, Cookie"}
    wanted = request.headers.get("if-none-match", "")
    if found.etag in [tag.strip() for tag in wanted.split(",")] or wanted.strip() == "*":
        return Response(status_code=304, headers=fixed)
    return Response(found.body, media_type="application/json", headers={**(headers or {}), **fixed})


def seat_names(seats: list[SeatIn]) -> list[str]:
    """Each seat's name: as given (checked and tidied), else `Player N` for a person and `Bot (level)` for a bot,
    numbered by seat when two bots share a level; refused if two seats would look alike."""
    levels = [seat.bot for seat in seats if seat.kind == "bot"]
    names = []
    for index, seat in enumerate(seats):
        name = clean_name(seat.name, f"seats.{index}.name")
        if not name and seat.kind == "human":
            name = f"Player {index + 1}"
        elif not name:
            name = f"Bot ({seat.bot})" if levels.count(seat.bot) == 1 else f"Bot {index + 1} ({seat.bot})"
        names.append(name)
    distinct_names(names)
    return names


def create_app(settings: Settings) -> FastAPI:
    """The web table application for one database."""
    engine = make_engine(settings.db_url)
    stores = Stores(engine)
    tables = Tables(
        stores,
        idle_seconds=settings.table_idle_seconds,
        max_tables=settings.max_tables,
        expiry_days=settings.game_expiry_days,
        bot_workers=settings.bot_workers,
        max_bot_games=settings.max_bot_games,
        max_bot_games_per_client=settings.max_bot_games_per_client,
    )
    creations = RateLimiter(settings.games_per_minute / 60.0, max(1.0, settings.games_per_minute))
    moves = RateLimiter(settings.moves_per_second, max(1.0, 2 * settings.moves_per_second))
    #: New WebSocket sessions per client address (each costs a welcome and a full view): a burst of twice the
    #: connection cap, then a fifth of it per second.
    cap = settings.max_connections_per_address
    hellos = RateLimiter(cap / 5.0, 2.0 * cap)
    #: `why` over HTTP per client address (over a WebSocket each connection has its own bucket).
    questions = RateLimiter(5.0, 20.0)
    finished = FinishedCache()
    reviews = Reviews(stores.reviews, tables.bot_pool)
    accounts = Accounts(stores.accounts, stores.seats)
    ratings = Ratings(stores.ratings, stores.seats)
    tables.on_over = ratings.game_over
    #: Each offered game's rules summary page, made on first request (`rules_page`).
    rules_pages: dict[str, str] = {}
    log = SecurityLog()
    addresses = ClientAddresses(settings.trusted_proxies)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, engine)
        await tables.open()
        tables.start_sweeping()
        # Everything loaded so far (modules, the app) lives as long as the process: keep it out of the cyclic
        # garbage collector's full passes, which otherwise paused every table for ~100 ms each second under load,
        # and collect less often (each move allocates a few hundred short-lived objects, nearly all freed at once).
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        yield
        await reviews.close()
        await tables.close()
        engine.dispose()

    # The schema is served (reviewed: see `reviewed_openapi`); the interactive docs pages are not, as they load their
    # scripts from elsewhere, which the pages' security policy forbids.
    app = FastAPI(title="Skald", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/openapi.json")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = reviewed_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.state.tables = tables
    app.state.security_log = log
    app.state.addresses = addresses
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.add_middleware(
        Gate,
        addresses=addresses,
        allowed_hosts=settings.allowed_hosts,
        public_url=settings.public_url,
        max_body=MAX_BODY,
        max_sockets=settings.max_connections_per_address,
        log=log,
    )

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> JSONResponse:
        if error.status in (403, 429) or error.code in ("forged_token", "timeout"):
            log.event(error.code, address(request), f"{request.method} {request.url.path}")
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        # Say which field and why, never echo what was sent (FastAPI's own answer repeats the input).
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(part) for part in first["loc"] if part not in ("path", "query", "body")) or "request"
        return error_response(TableError("invalid", f"{where}: {first['msg']}"))

    @app.get("/")
    async def lobby() -> FileResponse:
        return FileResponse(str(STATIC.joinpath("index.html")))

    @app.get("/table/{game_id}")
    async def table_page(game_id: str) -> FileResponse:
        return FileResponse(str(STATIC.joinpath("table.html")))

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules(game: str) -> HTMLResponse:
        # Only a game the lobby offers; the page is the same for everyone, so it is made once.
        if game not in listed_games():
            return HTMLResponse(missing_page(game), status_code=404)
        if game not in rules_pages:
            rules_pages[game] = await asyncio.to_thread(rules_page, get_game(game))
        return HTMLResponse(rules_pages[game])

    @app.get("/api/health")
    async def health(request: Request) -> dict[str, Any]:
        # The counts are for the operator on the machine itself; anyone else learns only that the server is up.
        ip = parse_ip(address(request))
        if ip is None or not ip.is_loopback:
            return {"ok": True}
        return {
            "ok": True,
            "games": len(tables.tables),
            "tables": tables.stats(),
            "finished_cache": {"bytes": finished.size, "hits": finished.hits},
        }

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
                    "rules": f"/rules/{game.name}",
                    "options": [
                        {
                            "name": o.name,
                            "default": o.default,
                            "choices": list(o.choices),
                            "doc": o.doc,
                            "title": o.heading(),
                            "labels": [o.choice_label(choice) for choice in o.choices],
                            "summary": o.one_line(),
                            "primary": o.primary,
                        }
                        for o in game.options
                    ],
                }
            )
        return {"games": games, "bots": list(BOT_LEVELS), "default": listed_games()[0]}

    def base_url(request: Request) -> str:
        """The base of invite links: the public URL when the operator set one, else the address asked for."""
        return settings.public_url or str(request.base_url).rstrip("/")

    @app.post("/api/games")
    async def create(request: Request) -> JSONResponse:
        client = addresses.key(address(request))
        if not creations.allow(client):
            raise TableError("rate_limited", "too many games created from this address; wait a minute", 429)
        key = idempotency_key(request)
        raw = await read_json(request, settings.idle_timeout)
        try:
            body = CreateIn.model_validate(raw)
        except ValidationError as error:
            raise TableError("invalid", validation_message(error)) from None
        if body.seed is not None and not settings.allow_client_seeds:
            raise TableError("seed", "seed: chosen by the server (from its secret), so nobody can foresee the draws")
        names = seat_names(body.seats)
        seats = [
            (name, HUMAN if seat.kind == "human" else seat.bot) for name, seat in zip(names, body.seats, strict=True)
        ]
        game = body.game or listed_games()[0]
        if key is None:
            table, tokens = await tables.create(
                game, seats, dict(body.options), body.seed, owner=client, chat_spectators=body.chat_spectators
            )
            return creation_reply(request, table, tokens)
        # A creation whose answer may be lost: a repeat with the same key gets the same game and tokens.
        key_hash = hashlib.sha256(f"skald-idempotency:{client}:{key}".encode()).hexdigest()
        fingerprint = hashlib.sha256(CANONICAL.encode(raw).encode()).hexdigest()
        found = await asyncio.to_thread(
            stores.idempotency.reserve, key_hash, fingerprint, IDEMPOTENCY_WINDOW, IDEMPOTENCY_ABANDONED
        )
        if found is not None:
            return await repeated_creation(request, key_hash, fingerprint, *found)
        try:
            made, _ = await tables.create(
                game,
                seats,
                dict(body.options),
                body.seed,
                claimed_later=True,
                owner=client,
                chat_spectators=body.chat_spectators,
            )
        except BaseException:  # no game was made: the key may be used again
            await asyncio.to_thread(stores.idempotency.release, key_hash)
            raise
        await asyncio.to_thread(stores.idempotency.settle, key_hash, made.id)
        async with tables.use(made.id) as table:
            tokens = [await claim_idempotent(table, key_hash, seat) for seat in range(len(seats))]
            return creation_reply(request, table, tokens)

    async def repeated_creation(
        request: Request, key_hash: str, fingerprint: str, first_fingerprint: str, game_id: str | None
    ) -> JSONResponse:
        """The answer to a creation repeated with an `Idempotency-Key` already used: the same game, with the same
        tokens; refused if the request differs from the first (422) or the first is still being made (409)."""
        if first_fingerprint != fingerprint:
            raise TableError(
                "idempotency_key",
                "Idempotency-Key: already used for a different request (within 24 hours); send the same body to get "
                "its game again, or use a new key for a new game",
                422,
            )
        if game_id is None:
            raise TableError(
                "idempotency_key", "Idempotency-Key: a creation with this key is still being made; retry shortly", 409
            )
        async with tables.use(game_id) as table:
            # Claimed again (a no-op once claimed): the first request may have stopped between the game and its tokens.
            tokens = [await claim_idempotent(table, key_hash, seat) for seat in range(len(table.seats))]
            return creation_reply(request, table, tokens, {"Idempotent-Replayed": "true"})

    async def claim_idempotent(table: LiveTable, key_hash: str, seat: int) -> str | None:
        """Give a person seat of a game made under an idempotency key its token, derived from the key (so a repeat
        can give it again without the token being stored), unless it has one; None for a bot seat."""
        token = idempotent_token(table, key_hash, seat)
        if token is None:
            return None
        stored = await asyncio.to_thread(stores.seats.claim_token, table.id, seat, token_hash(token))
        table.seats[seat].token_hash = stored
        return token

    def idempotent_token(table: LiveTable, key_hash: str, seat: int) -> str | None:
        """The token of person `seat` at `table`, made under the idempotency key `key_hash` (None for a bot)."""
        if table.seats[seat].kind != HUMAN:
            return None
        mac = hmac.new(tables.secret, f"skald-idempotent:{key_hash}:{table.id}:{seat}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:24]).decode()

    def creation_reply(
        request: Request, table: LiveTable, tokens: list[str | None], headers: dict[str, str] | None = None
    ) -> JSONResponse:
        """The answer to a creation: the summary, the spectator link and each person seat's invite with its token."""
        base = base_url(request)
        return JSONResponse(
            {
                **projection.summary(table),
                "spectator_url": f"{base}/table/{table.id}",
                "invites": [
                    {
                        "seat": i,
                        "name": table.seats[i].name,
                        "token": token,
                        "url": f"{base}/table/{table.id}#t={token}",
                    }
                    for i, token in enumerate(tokens)
                    if token is not None
                ],
            },
            status_code=201,
            # The reply carries every seat's secret: no cache may keep it.
            headers={**(headers or {}), "Cache-Control": "no-store"},
        )

    def remember(table: LiveTable) -> None:
        """Keep a finished table's summary facts, so later answers about it need no table."""
        summary = projection.summary(table)
        summary.pop("you", None)
        finished.keep_facts(table.id, summary, [seat.token_hash for seat in table.seats])

    async def claim(game_id: str, token: str | None, signed: Signed) -> int:
        """Give the seat of `token` in a game to a signed-in account (refused if another account has it)."""
        async with tables.use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None:
                raise TableError("forbidden", "token: claim a seat with its own invite link (its token)", 403)
            if table.state.is_terminal():
                # Claimed after the end, a won game could be taken into a rating and a lost one left out.
                raise TableError("over", "claim: the game is over; keep a seat in your account while it is played", 409)
            owner, other = await asyncio.to_thread(stores.seats.claim_seat, game_id, seat, signed.account_id)
            if other is not None:
                raise TableError("claimed", f"claim: your account already keeps seat {other + 1} of this game", 409)
            if owner != signed.account_id:
                raise TableError("claimed", "claim: this seat belongs to another account", 409)
            return seat

    app.include_router(
        account_router(
            accounts,
            lambda request: addresses.key(address(request)),
            lambda request: read_json(request, settings.idle_timeout),
            validation_message,
            claim,
        )
    )

    def rated_game(game: str) -> Game:
        """The game a ratings request names (404 if there is none of that name)."""
        try:
            return get_game(game)
        except KeyError:
            raise TableError("game", f"game: no game called {game!r}", 404) from None

    @app.get("/api/ratings/{game}")
    async def rating_table(game: str) -> dict[str, Any]:
        """Every account's and bot's rating at a game, best first."""
        known = rated_game(game)
        return {"game": known.name, "title": known.title, "players": await ratings.table(known.name)}

    @app.get("/api/ratings/{game}/{name}")
    async def rating_history(game: str, name: str) -> dict[str, Any]:
        """An account's rated games at a game, oldest first."""
        known = rated_game(game)
        found = await ratings.history(known.name, name)
        if found is None:
            raise TableError("name", f"name: no account called {name!r}", 404)
        return {"game": known.name, "name": name, "games": found}

    @app.get("/ratings")
    async def ratings_page() -> FileResponse:
        return FileResponse(str(STATIC.joinpath("ratings.html")))

    async def viewer_of(table: LiveTable, request: Request, asked: str | None) -> int | None:
        """Whose view a request gets at a live table (see `viewer_for`): its token's seat, or its account's."""
        own = await you(table.id, request, table.seat_of(bearer(request)))
        return viewer_for(len(table.seats), table.public, own, asked)

    async def you(game_id: str, request: Request, by_token: int | None) -> int | None:
        """The seat the asker holds: by its bearer token, else the seat its signed-in account claimed."""
        if by_token is not None:
            return by_token
        return await accounts.seat_in(game_id, request.cookies.get(SESSION_COOKIE))

    @app.get("/api/games/{game_id}")
    async def game_summary(game_id: str, request: Request) -> Response:
        facts = finished.facts(game_id)
        if facts is None:
            async with tables.use(game_id) as table:
                if table.status != "over":
                    summary = projection.summary(table)
                    summary["you"] = await you(game_id, request, table.seat_of(bearer(request)))
                    return JSONResponse(summary, headers={"Cache-Control": "private, no-store"})
                remember(table)
                facts = finished.facts(game_id)
                assert facts is not None
        seat = await you(game_id, request, own_seat(facts.token_hashes, bearer(request)))
        body = compact({**facts.summary, "you": seat})
        return kept(request, answer(body), "private, no-cache")

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request, seat: str | None = None, whole: bool = False) -> Response:
        hit = finished.get("record", game_id)
        facts = finished.facts(game_id, fresh=False)
        if hit is not None and facts is not None:
            viewer_for(len(facts.token_hashes), True, None, seat)  # the same refusals as at a live table
            return kept(request, hit, f"public, {IMMUTABLE}", {"Content-Disposition": disposition(facts.summary)})
        async with tables.use(game_id) as table:
            viewer = await viewer_of(table, request, seat)
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
            fair = projection.fair(table)
            if fair is not None:  # the commitment, and at the end the seed: `skald verify` checks the file alone
                data["fair"] = fair
            over = table.status == "over"
            if over:
                remember(table)
        whose = "" if table.public else ("-spectator" if viewer is None else f"-seat{viewer + 1}")
        named = {"Content-Disposition": f'attachment; filename="skald-{table.game.name}-{table.id}{whose}.json"'}
        if over:
            return kept(request, finished.put("record", game_id, "", compact(data)), f"public, {IMMUTABLE}", named)
        return JSONResponse(data, headers=named)

    @app.get("/api/games/{game_id}/replay/{ply}")
    async def replay(game_id: str, ply: int, request: Request, seat: str | None = None) -> Response:
        facts = finished.facts(game_id, fresh=False)
        if facts is not None:
            own = await you(game_id, request, own_seat(facts.token_hashes, bearer(request)))
            viewer = viewer_for(len(facts.token_hashes), True, own, seat)
            hit = finished.get("replay", game_id, f"{ply}:{viewer}")
            if hit is not None:
                return kept(request, hit, f"private, {IMMUTABLE}")
        async with tables.use(game_id) as table:
            viewer = await viewer_of(table, request, seat)
            if not 0 <= ply <= table.version:
                raise TableError("ply", f"ply: must be 0–{table.version}", 404)
            history = table.state.history[:ply]
            state = Record(table.game.name, table.state.num_players, table.options, [], history).replay()
            # The position as the viewer saw it then (a past hand of another seat stays hidden even after the end);
            # the log is the viewer's during play and the whole one once the game is over.
            observation = dict(state.observation(viewer))
            scorings = scorings_beside(state, observation)
            data = {
                "ply": ply,
                "version": table.version,
                "viewer": viewer,
                "svg": table.game.render_svg(state, viewer, names=[s.name for s in table.seats]),
                "log": projection.log_for(table, viewer)[:ply],
                "last_move": last_move_marks(state, table.log[:ply], viewer),
                "observation": observation,
                "scorings": scorings,
            }
            if table.status != "over":
                return JSONResponse(data)
            remember(table)
        return kept(request, finished.put("replay", game_id, f"{ply}:{viewer}", compact(data)), f"private, {IMMUTABLE}")

    @app.get("/api/games/{game_id}/chat")
    async def chat(game_id: str, request: Request) -> JSONResponse:
        """The table chat, whole, to download beside the record (the record never holds it)."""
        if not questions.allow(addresses.key(address(request))):
            raise TableError("rate_limited", "too many requests; slow down", 429)
        async with tables.use(game_id) as table:
            # The asker's own seat only (its token's, or its account's): `?seat=` names another's view of the game,
            # never a right to the seats' chat.
            viewer = await you(game_id, request, table.seat_of(bearer(request)))
            table.chat.check_writer(viewer)
            rows = await asyncio.to_thread(stores.chat.after, game_id)
            data = {
                "format": "skald-chat/1",
                "game": table.game.name,
                "id": table.id,
                "seats": [s.name for s in table.seats],
                "messages": [chat_json(row) for row in rows],
            }
        named = f'attachment; filename="skald-{data["game"]}-{game_id}-chat.json"'
        # What the seats said to each other is theirs: no shared cache may keep it.
        return JSONResponse(data, headers={"Content-Disposition": named, "Cache-Control": "private, no-store"})

    @app.post("/api/games/{game_id}/review")
    async def ask_review(game_id: str, request: Request) -> JSONResponse:
        """Ask the bot to review a finished game: the review if made, else 202 while a bot worker makes it."""
        if not questions.allow(addresses.key(address(request))):
            raise TableError("rate_limited", "too many requests; slow down", 429)
        async with tables.use(game_id) as table:
            found = await reviews.request(table)
        return JSONResponse(found, status_code=200 if found["status"] == "ready" else 202)

    @app.get("/api/games/{game_id}/review")
    async def review(game_id: str, request: Request) -> JSONResponse:
        """Where a game's review stands (`ready` with it, `computing`, `failed` or `none`)."""
        if not questions.allow(addresses.key(address(request))):
            raise TableError("rate_limited", "too many requests; slow down", 429)
        async with tables.use(game_id) as table:
            return JSONResponse(await reviews.status(table))

    @app.post("/api/games/{game_id}/why")
    async def why(game_id: str, request: Request) -> dict[str, Any]:
        if not questions.allow(addresses.key(address(request))):
            raise TableError("rate_limited", "too many questions; slow down", 429)
        async with tables.use(game_id) as table:
            seat = table.seat_of(bearer(request))
            try:
                body = WhyIn.model_validate(await read_json(request, settings.idle_timeout))
            except ValidationError as error:
                raise TableError("invalid", validation_message(error)) from None
            return {"action": body.action, "reason": projection.why(table, seat, body.action)}

    @app.post("/api/games/{game_id}/moves")
    async def move(game_id: str, request: Request) -> dict[str, Any]:
        async with tables.use(game_id) as table:
            seat = table.seat_of(bearer(request))
            if seat is None:
                raise TableError("forbidden", "token: not a seat of this game (a spectator cannot act)", 403)
            if not moves.allow(f"{table.id}:{seat}"):
                raise TableError("rate_limited", "too many moves; slow down", 429)
            try:
                body = MoveIn.model_validate(await read_json(request, settings.idle_timeout))
            except ValidationError as error:
                raise TableError("invalid", validation_message(error)) from None
            if body.seat is not None and body.seat != seat:
                raise TableError("wrong_seat", f"seat: your token acts only for seat {seat}", 403)
            await tables.commits.submit(table, seat, body.version, body.action)
            return {"ok": True, "version": table.version}

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, request: Request) -> JSONResponse:
        token = bearer(request)
        async with tables.use(game_id) as table:
            seat = table.seat_of(token)
            if seat is None or token is None:
                raise TableError("forbidden", "token: only a seat of this game can ask for a rematch", 403)
            key = addresses.key(address(request))
            made = await seat_tokens.rematch(tables, table, seat, token, lambda: creations.allow(key), owner=key)
            finished.forget_facts(game_id)
        # The reply carries the asking seat's new token: no cache may keep it.
        return JSONResponse(made, headers={"Cache-Control": "no-store"})

    @app.post("/api/games/{game_id}/token")
    async def replace_token(game_id: str, request: Request) -> JSONResponse:
        async with tables.use(game_id) as table:
            seat = table.seat_of(bearer(request))
            if seat is None:
                raise TableError("forbidden", "token: only a seat's own token can replace it", 403)
            if not creations.allow(addresses.key(address(request))):
                raise TableError("rate_limited", "too many new tokens from this address; wait a minute", 429)
            token = await seat_tokens.replace_token(tables, table, seat)
            finished.forget_facts(game_id)
            base = base_url(request)
        # The reply carries the new secret: no cache may keep it.
        return JSONResponse(
            {"seat": seat, "token": token, "url": f"{base}/table/{game_id}#t={token}"},
            headers={"Cache-Control": "no-store"},
        )

    @app.websocket("/ws/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        if not hellos.allow(addresses.key(address(websocket))):
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
            await Session(websocket, table, tables, moves, log, settings.idle_timeout, accounts).run()
        finally:
            tables.release(table)

    return app


SLOW_DOWN = "too many connections from this address at once; wait a moment"


def disposition(summary: dict[str, Any]) -> str:
    """The download name of a finished game's record."""
    return f'attachment; filename="skald-{summary["game"]}-{summary["id"]}.json"'


class Session:
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
        # A chat message every two seconds, after a burst of five: a conversation, not a flood.
        "chat": (0.5, 5.0),
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
        self.writer: asyncio.Task[None] | None = None
        self.dropping: asyncio.Task[None] | None = None

    @property
    def address(self) -> str:
        """The client's address."""
        return address(self.websocket)

    def send(self, data: dict[str, Any]) -> None:
        """Queue a message for this client, in order with the table's updates."""
        self.push(json.dumps(data))

    def push(self, text: str) -> None:
        """Queue a text for this client, or drop the client if it has left too much unread."""
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.overflow()
            return
        self.outbox.put_nowait(text)

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

    def error(self, error: TableError, ref: Any = None) -> None:
        """Queue an error."""
        self.send({"type": "error", **error.to_json(), "ref": ref})

    async def _writer(self, outbox: asyncio.Queue[str | None]) -> None:
        while True:
            text = await outbox.get()
            if text is None:
                return
            await self.websocket.send_text(text)

    async def receive(self) -> MutableMapping[str, Any]:
        """The next message; before the hello, within the hello timeout (a silent socket is closed, 4408)."""
        if self.client is not None:
            return await self.websocket.receive()
        try:
            return await asyncio.wait_for(self.websocket.receive(), self.hello_timeout)
        except TimeoutError:
            self.log.event("hello_timeout", self.address, "no hello in time")
            return {"type": "websocket.timeout"}

    async def run(self) -> None:
        """Serve the client until it leaves."""
        self.writer = writer = asyncio.create_task(self._writer(self.outbox))
        close_code = 1000
        try:
            while self.dropping is None:
                message = await self.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message["type"] == "websocket.timeout":
                    close_code = 4408
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
                except (ValueError, RecursionError):
                    self.error(TableError("malformed", "message: numbers too long or nesting too deep"))
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
                        close_code = 4403
                        self.log.event("forged_token", self.address, f"WebSocket hello at game {self.table.id}")
                    elif error.code == "rate_limited":
                        self.strikes += 1
                        if self.strikes >= self.STRIKES:
                            self.log.event("rate_limited", self.address, "kept asking too fast: closed")
                            close_code = 1008
                            return
                if closing:
                    self.send({"type": "bye"})
                    await asyncio.sleep(0)
                    return
        except WebSocketDisconnect:
            return
        finally:
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
                    await self.websocket.close(close_code)

    def allow(self, kind: str) -> None:
        """Refuse a `kind` of question asked faster than its allowance."""
        if not self.allowances[kind].allow(""):
            raise TableError("rate_limited", f"too many '{kind}' requests; slow down", 429)

    async def handle(self, data: dict[str, Any], ref: Any) -> bool:
        """Act on one message; True when the connection should close."""
        kind = data["type"]
        table = self.table
        if kind == "hello":
            if self.client is not None:
                raise TableError("hello", "hello: already greeted")
            token = data.get("token")
            if token is not None and (not isinstance(token, str) or len(token) > 128 or not token.isascii()):
                raise TableError("forged_token", "token: not a seat token")
            seat = table.seat_of(token)
            if token and seat is None:
                raise TableError("forged_token", "token: not a seat of this game; watch through the spectator link")
            if seat is None and self.accounts is not None:  # no token: the seat the signed-in account claimed
                seat = await websocket_seat(self.accounts, self.websocket, table.id, self.signed_out)
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
            return False
        if self.client is None:
            raise TableError("hello", "hello: say hello first (with your seat token, or none to watch)")
        if kind == "ping":
            self.allow("ping")
            self.send({"type": "pong", "ref": ref})
            return False
        if kind == "view":
            self.allow("view")
            self.push(projection.message(table, self.client, "update", [], full=True))
            return False
        if kind == "why":
            self.allow("why")
            reason = projection.why(table, self.client.seat, data.get("action"))
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
                await self.tables.commits.submit(table, seat, data.get("version"), data.get("action"))
            except TableError as error:
                if error.code == "stale":
                    self.push(projection.message(table, self.client, "update", [], full=True))
                raise
            return False
        if kind == "standing":
            seat = self.client.seat
            if seat is None:
                raise TableError("spectator", "spectators can't act: open your seat's invite link to play", 403)
            if not self.moves.allow(f"{table.id}:{seat}"):
                raise TableError("rate_limited", "too many moves; slow down", 429)
            name = data.get("name")
            try:
                await self.tables.commits.keep_standing(table, seat, data.get("version"), name)
            except TableError as error:
                if error.code == "stale":
                    self.push(projection.message(table, self.client, "update", [], full=True))
                raise
            if name is None:  # nothing moved: only this seat's view changed
                self.push(projection.message(table, self.client, "update", [], full=True))
            return False
        if kind == "chat":
            self.allow("chat")
            await self.tables.say(table, self.client.seat, data.get("text"))
            return False
        raise TableError("type", f"type: unknown message type {kind!r} (hello, move, standing, view, why, ping, chat)")
