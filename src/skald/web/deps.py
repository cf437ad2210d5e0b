"""What a route reaches through `Depends`: the services `create_app` puts on the application's state, and who asks.

Each dependency reads `app.state` from the connection (an HTTP request or a WebSocket alike) and is a coroutine,
so FastAPI calls it on the event loop rather than in a thread.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from skald.web.accounts import Accounts
from skald.web.finished import FinishedCache
from skald.web.guard import ClientAddresses, SecurityLog
from skald.web.limits import Limits
from skald.web.ratings import Ratings
from skald.web.registry import Tables
from skald.web.reminders import Reminders
from skald.web.replays import Replays
from skald.web.reviews import Reviews
from skald.web.settings import Settings
from skald.web.store.stores import Stores


def address(connection: HTTPConnection) -> str:
    """The client's address as `Gate` resolved it (through trusted proxies)."""
    return connection.client.host if connection.client else "?"


def client_key_of(connection: HTTPConnection) -> str:
    """The bucket the client's address counts in for the rate limits (see `ClientAddresses.key`)."""
    addresses: ClientAddresses = connection.app.state.addresses
    return addresses.key(address(connection))


async def client_key(connection: HTTPConnection) -> str:
    """The asking client's rate-limit bucket."""
    return client_key_of(connection)


async def settings(connection: HTTPConnection) -> Settings:
    """The settings the server was started with."""
    found: Settings = connection.app.state.settings
    return found


async def store(connection: HTTPConnection) -> Stores:
    """The database."""
    found: Stores = connection.app.state.store
    return found


async def tables(connection: HTTPConnection) -> Tables:
    """The live tables."""
    found: Tables = connection.app.state.tables
    return found


async def finished(connection: HTTPConnection) -> FinishedCache:
    """The answers about finished games, kept."""
    found: FinishedCache = connection.app.state.finished
    return found


async def accounts(connection: HTTPConnection) -> Accounts:
    """The accounts and their sign-in sessions."""
    found: Accounts = connection.app.state.accounts
    return found


async def ratings(connection: HTTPConnection) -> Ratings:
    """The ratings of accounts and bots."""
    found: Ratings = connection.app.state.ratings
    return found


async def reviews(connection: HTTPConnection) -> Reviews:
    """The bot's reviews of finished games."""
    found: Reviews = connection.app.state.reviews
    return found


async def reminders(connection: HTTPConnection) -> Reminders:
    """The e-mail reminders of turns that wait."""
    found: Reminders = connection.app.state.reminders
    return found


async def replays(connection: HTTPConnection) -> Replays:
    """The replay thread and what it keeps."""
    found: Replays = connection.app.state.replays
    return found


async def limits(connection: HTTPConnection) -> Limits:
    """The rate limits."""
    found: Limits = connection.app.state.limits
    return found


async def security_log(connection: HTTPConnection) -> SecurityLog:
    """The security log."""
    found: SecurityLog = connection.app.state.security_log
    return found


async def rules_pages(connection: HTTPConnection) -> dict[str, str]:
    """Each offered game's rules summary page, made on first request."""
    found: dict[str, str] = connection.app.state.rules_pages
    return found


ClientKey = Annotated[str, Depends(client_key)]
SettingsDep = Annotated[Settings, Depends(settings)]
StoresDep = Annotated[Stores, Depends(store)]
TablesDep = Annotated[Tables, Depends(tables)]
FinishedDep = Annotated[FinishedCache, Depends(finished)]
AccountsDep = Annotated[Accounts, Depends(accounts)]
RatingsDep = Annotated[Ratings, Depends(ratings)]
ReviewsDep = Annotated[Reviews, Depends(reviews)]
ReplaysDep = Annotated[Replays, Depends(replays)]
RemindersDep = Annotated[Reminders, Depends(reminders)]
LimitsDep = Annotated[Limits, Depends(limits)]
SecurityLogDep = Annotated[SecurityLog, Depends(security_log)]
RulesPagesDep = Annotated[dict[str, str], Depends(rules_pages)]
