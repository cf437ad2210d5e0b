"""The web table application: its services on `app.state`, its routers, its guards and its reviewed schema; every
rule question goes to the game's state."""

from __future__ import annotations

import asyncio
import gc
import mimetypes
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles

from skald.web import absence, websocket
from skald.web.accounts import Accounts
from skald.web.errors import TableError
from skald.web.finished import FinishedCache
from skald.web.guard import ClientAddresses, Gate, SecurityLog
from skald.web.limits import Limits
from skald.web.openapi import reviewed_openapi
from skald.web.ratings import Ratings
from skald.web.refusals import invalid_request, table_error
from skald.web.registry import Tables
from skald.web.reminders import Reminders
from skald.web.replays import Replays
from skald.web.reviews import Reviews
from skald.web.routes import (
    accounts,
    chat,
    endings,
    games,
    mail,
    open_tables,
    pages,
    play,
    ratings,
    records,
    reviews,
)
from skald.web.settings import MAX_BODY, Settings
from skald.web.store.engine import make_engine, migrate
from skald.web.store.stores import Stores

#: Seconds a thread holding the interpreter keeps it while another waits (`sys.setswitchinterval`).
SWITCH_INTERVAL = 0.001
#: Module scripts are refused unless served as JavaScript; some systems' tables map `.js` otherwise.
mimetypes.add_type("text/javascript", ".js")


def create_app(settings: Settings) -> FastAPI:
    """The web table application for one database."""
    # The schema is served (reviewed: see `reviewed_openapi`); the interactive docs pages are not, as they load their
    # scripts from elsewhere, which the pages' security policy forbids.
    app = FastAPI(title="Skald", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url="/openapi.json")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = reviewed_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    open_services(app, settings)
    app.mount("/static", StaticFiles(directory=str(pages.STATIC)), name="static")
    app.add_middleware(
        Gate,
        addresses=app.state.addresses,
        allowed_hosts=settings.allowed_hosts,
        public_url=settings.public_url,
        max_body=MAX_BODY,
        max_sockets=settings.max_connections_per_address,
        log=app.state.security_log,
    )
    app.exception_handler(TableError)(table_error)
    app.exception_handler(RequestValidationError)(invalid_request)
    state = app.state
    # In this order, which is the order of the paths in the schema.
    app.include_router(pages.router)
    app.include_router(games.router)
    app.include_router(accounts.router(state.accounts, state.tables, state.store, settings))
    app.include_router(mail.router)
    app.include_router(ratings.router)
    app.include_router(records.router)
    app.include_router(chat.router)
    app.include_router(reviews.router)
    app.include_router(play.router)
    app.include_router(endings.router)
    app.include_router(open_tables.router)
    app.include_router(websocket.router)
    return app


def open_services(app: FastAPI, settings: Settings) -> None:
    """Make the services of one server and put them on `app.state`, where the routes' dependencies find them."""
    engine = make_engine(settings.db_url)
    store = Stores(engine)
    tables = Tables(
        store,
        idle_seconds=settings.table_idle_seconds,
        max_tables=settings.max_tables,
        expiry_days=settings.game_expiry_days,
        bot_workers=settings.bot_workers,
        max_bot_games=settings.max_bot_games,
        max_bot_games_per_client=settings.max_bot_games_per_client,
        hidden_pace=settings.hidden_pace,
    )
    ratings = Ratings(store.ratings, store.seats)
    tables.on_over = ratings.game_over
    tables.clocks.on_flag = partial(absence.timed_out, tables)
    tables.clocks.on_turn = partial(absence.turned, tables)
    state = app.state
    state.settings = settings
    state.engine = engine
    state.store = store
    state.tables = tables
    state.ratings = ratings
    state.reviews = Reviews(store.reviews, tables.bot_pool)
    state.accounts = Accounts(store.accounts, store.seats)
    state.reminders = Reminders(settings, store, tables)
    state.finished = FinishedCache()
    state.replays = Replays()
    state.limits = Limits.of(settings)
    state.rules_pages = {}
    state.security_log = SecurityLog()
    state.addresses = ClientAddresses(settings.trusted_proxies)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Migrate the database and open the tables before the first request; close them after the last."""
    state = app.state
    await asyncio.to_thread(migrate, state.engine)
    await state.tables.open()
    state.tables.start_sweeping()
    state.reminders.start()
    # Everything loaded so far (modules, the app) lives as long as the process: keep it out of the cyclic
    # garbage collector's full passes, which otherwise paused every table for ~100 ms each second under load,
    # and collect less often (each move allocates a few hundred short-lived objects, nearly all freed at once).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    # The replay thread (and any other busy thread) hands the interpreter back to the event loop after at most this
    # long, rather than the default 5 ms: a request waits for the interpreter at each of its steps.
    sys.setswitchinterval(SWITCH_INTERVAL)
    yield
    await state.reminders.close()
    await state.reviews.close()
    await state.tables.close()
    state.replays.close()
    state.engine.dispose()
