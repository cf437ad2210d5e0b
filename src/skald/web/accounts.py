"""Accounts, optional: a name and a password, so a person finds his games again wherever he signs in.

Anyone still plays through an invite link without one. A signed-in person may claim a seat he holds (by its token):
from then on that seat is his wherever he signs in, with or without the link, and "Your games" lists it.

- Passwords are hashed with Argon2id (`argon2-cffi`, its default parameters; a hash made with older parameters is
  replaced at the next sign-in) in a worker thread, never on the event loop.
- Signing in sets one cookie, `skald_session`: a random token (only its SHA-256 is stored), `HttpOnly`,
  `SameSite=Lax`, `Secure` when the page was asked for over HTTPS, ending after `SESSION_DAYS`. Signing out deletes
  the session (the cookie stops working wherever it is), and "everywhere" deletes every session of the account.
- A request that changes something on the strength of the cookie must also carry the session's CSRF token in the
  `X-CSRF-Token` header (the page has it from `GET /api/session`), besides the same-site and JSON checks every
  write gets (`skald.web.guard`). A WebSocket is taken only from a same-site page, so a cookie alone never lets
  another site act.
- Sign-ins are rate-limited per client address, per account name from each address, and, more slowly, per account
  name from every address but those the account signed in from: others cannot lock an owner out, and guessing from
  many addresses is slow. A wrong name or password gets one answer, whichever was wrong.
- A password is at least 8 characters, not the account's name, and not one of the common passwords
  (`skald.web.passwords`). Changing it or deleting the account takes the current password, besides the cookie and
  the CSRF token; deleting keeps the games, the seats the account kept belonging to no account from then on.
- An account acts only in the seats it claimed: a seat token still acts for its seat, as before accounts.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skald.web.errors import TableError
from skald.web.guard import bearer
from skald.web.names import clean_name, likeness
from skald.web.passwords import LENGTH as PASSWORD_LENGTH
from skald.web.passwords import check_password, common_passwords
from skald.web.ratelimit import CAPACITY, RateLimiter
from skald.web.store.accounts import AccountStore
from skald.web.store.schema import AccountRow, SessionRow, now
from skald.web.store.seats import SeatStore

SESSION_COOKIE = "skald_session"
SESSION_DAYS = 30
CSRF_HEADER = "x-csrf-token"
NAME_LENGTH = (3, 32)
#: The most characters of a name's folded form (the column that keeps names apart).
KEY_LENGTH = 64
#: Games listed under "Your games" for an account, the most recently moved first.
LISTED = 50


class AccountIn(BaseModel):
    """A name and a password, to create an account or sign in."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    password: str = Field(max_length=PASSWORD_LENGTH[1])


class PasswordIn(BaseModel):
    """The account's current password, to delete the account."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=PASSWORD_LENGTH[1])


class NewPasswordIn(BaseModel):
    """The current password and the one to replace it."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=PASSWORD_LENGTH[1])
    new_password: str = Field(max_length=PASSWORD_LENGTH[1])


class SignOutIn(BaseModel):
    """Signing out: this browser, or every browser signed in to the account."""

    model_config = ConfigDict(extra="forbid")
    everywhere: bool = Field(False, strict=True)


@dataclass(frozen=True)
class Signed:
    """A signed-in browser: its account and the token its writes must carry."""

    account_id: str
    name: str
    csrf: str
    token_hash: str


def cookie_hash(token: str) -> str:
    """What is stored of a session cookie."""
    return hashlib.sha256(f"skald-session:{token}".encode()).hexdigest()


def account_name(text: str) -> tuple[str, str]:
    """An account name as shown and as compared (`likeness`: case, spaces and look-alike forms folded); refused
    with the reason when it is too short, too long (also once folded) or holds characters no name may."""
    name = clean_name(text, "name")
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        raise TableError("name", f"name: {NAME_LENGTH[0]}–{NAME_LENGTH[1]} characters")
    key = likeness(name)
    if len(key) > KEY_LENGTH:
        raise TableError("name", "name: its characters spell out too long a name; use plainer letters")
    return name, key


def name_key(text: str) -> str | None:
    """The folded form an account named `text` would have, or None when no account can have that name (a
    character no name may hold, or too long): it is then looked up nowhere."""
    try:
        return account_name(text)[1]
    except TableError:
        return None


class Accounts:
    """Accounts and sessions, over their stores; every check of a password runs in a worker thread."""

    def __init__(self, accounts: AccountStore, seats: SeatStore) -> None:
        self.accounts = accounts
        self.seats = seats
        self.hasher = PasswordHasher()
        #: Sign-in attempts per client address; per account name from one address (an owner's tries never share a
        #: bucket with a stranger's); and per account name from every address it has not signed in from, slower,
        #: against guessing from many addresses. Accounts made per address.
        self.by_address = RateLimiter(10 / 60, 10)
        self.by_name_address = RateLimiter(5 / 60, 5)
        self.by_name = RateLimiter(1 / 120, 30)
        self.made = RateLimiter(5 / 60, 5)
        #: (account name, address) pairs that signed in (or made the account), the most recent `CAPACITY` kept:
        #: those are held to their own limits only, so guessing from elsewhere never locks the owner out.
        self.known: OrderedDict[str, None] = OrderedDict()
        common_passwords()  # read the list once, now, rather than at the first account made
        #: Hashing takes tens of MB and milliseconds: two at a time, in threads of their own, so that a burst of
        #: sign-ins never holds up the database calls that share the default executor.
        self.hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="skald-argon2")
        #: WebSockets seated by a session here: how to close each, with its account and session (cookie hash).
        self.seated: dict[Callable[[], None], tuple[str, str]] = {}

    async def _hash(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run an Argon2 call in the hashing threads."""
        return await asyncio.get_running_loop().run_in_executor(self.hashing, function, *args)

    async def create(self, client: str, body: AccountIn) -> tuple[Signed, str]:
        """A new account, signed in: its session and the cookie's token."""
        if not self.made.allow(client):
            raise TableError("rate_limited", "too many accounts made from this address; wait a few minutes", 429)
        name, key = account_name(body.name)
        check_password(body.password, key)
        password_hash = await self._hash(self.hasher.hash, body.password)
        row = AccountRow(
            id=secrets.token_urlsafe(12), name=name, name_key=key, password_hash=password_hash, created_at=now()
        )
        if not await asyncio.to_thread(self.accounts.create, row):
            raise TableError("name_taken", f"name: {name!r} (or one that looks like it) is taken; choose another", 409)
        self._remember(key, client)
        return await self._open(row)

    def _remember(self, key: str, client: str) -> None:
        """The account named `key` was signed in to from `client`."""
        pair = f"{key}\0{client}"
        self.known[pair] = None
        self.known.move_to_end(pair)
        if len(self.known) > CAPACITY:
            self.known.popitem(last=False)

    def _limit(self, key: str | None, client: str) -> None:
        """Refuse a sign-in attempt (or a check of the current password) past its limits."""
        pair = f"{key or '?'}\0{client}"
        if (
            not self.by_address.allow(client)
            or not self.by_name_address.allow(pair)
            or (pair not in self.known and not self.by_name.allow(key or "?"))
        ):
            raise TableError("rate_limited", "too many sign-in attempts; wait a minute and try again", 429)

    async def sign_in(self, client: str, body: AccountIn) -> tuple[Signed, str]:
        """The account's new session and the cookie's token, if the name and password are right."""
        key = name_key(body.name)
        self._limit(key, client)
        wrong = TableError("sign_in", "name or password: not right", 401)
        row = None if key is None else await asyncio.to_thread(self.accounts.named, key)
        if row is None:
            # Hash anyway, so that a name that does not exist takes as long to refuse as a wrong password.
            await self._hash(self.hasher.hash, body.password)
            raise wrong
        await self._verify(row, body.password, wrong)
        self._remember(row.name_key, client)
        return await self._open(row)

    async def _verify(self, row: AccountRow, password: str, wrong: TableError) -> None:
        """Raise `wrong` unless `password` is the account's (rehashing it with today's parameters if need be)."""
        try:
            await self._hash(self.hasher.verify, row.password_hash, password)
        except (VerificationError, InvalidHashError):
            raise wrong from None
        if self.hasher.check_needs_rehash(row.password_hash):
            fresh = await self._hash(self.hasher.hash, password)
            await asyncio.to_thread(self.accounts.set_password_hash, row.id, fresh)

    async def _current(self, signed: Signed, client: str, password: str) -> AccountRow:
        """The signed-in account, once its current password was given (limited as sign-ins are: a copied cookie is
        no licence to guess it)."""
        found = await asyncio.to_thread(self.accounts.session_of, signed.token_hash)
        if found is None:
            raise TableError("signed_out", "session: your session has ended or was signed out; sign in first", 401)
        row = found[1]
        self._limit(row.name_key, client)
        await self._verify(row, password, TableError("password", "password: your current password is not right", 403))
        return row

    async def change_password(self, signed: Signed, client: str, body: NewPasswordIn) -> tuple[Signed, str]:
        """Replace the account's password (the current one given), end its every session, and open a new one for
        this browser: a cookie copied before the change stops working."""
        row = await self._current(signed, client, body.password)
        check_password(body.new_password, row.name_key)
        fresh = await self._hash(self.hasher.hash, body.new_password)
        await asyncio.to_thread(self.accounts.set_password_hash, row.id, fresh)
        await asyncio.to_thread(self.accounts.close_sessions, row.id)
        self._close_seated(row.id, keep=signed.token_hash)
        return await self._open(row)

    async def delete(self, signed: Signed, client: str, body: PasswordIn) -> None:
        """Delete the account (the current password given): its sessions and ratings go, its games stay, and the
        seats it kept belong to no account from then on."""
        row = await self._current(signed, client, body.password)
        await asyncio.to_thread(self.accounts.delete, row.id)
        self._close_seated(row.id)

    async def _open(self, row: AccountRow) -> tuple[Signed, str]:
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        stamp = now()
        session = SessionRow(
            token_hash=cookie_hash(token),
            account_id=row.id,
            csrf=csrf,
            created_at=stamp,
            expires_at=stamp + timedelta(days=SESSION_DAYS),
        )
        await asyncio.to_thread(self.accounts.open_session, session)
        return Signed(row.id, row.name, csrf, session.token_hash), token

    async def signed_in(self, cookie: str | None) -> tuple[Signed | None, bool]:
        """The browser's session from its cookie, and whether a cookie was shown that no longer works (signed out,
        ended, or never ours)."""
        if not cookie or not cookie.isascii() or len(cookie) > 128:
            return None, bool(cookie)
        found = await asyncio.to_thread(self.accounts.session_of, cookie_hash(cookie))
        if found is None:
            return None, True
        session, account = found
        if session.expires_at.replace(tzinfo=session.expires_at.tzinfo or now().tzinfo) <= now():
            return None, True
        return Signed(account.id, account.name, session.csrf, session.token_hash), False

    async def require(self, request: Request) -> Signed:
        """The signed-in browser behind a request that changes something: its cookie and its CSRF token."""
        signed, ended = await self.signed_in(request.cookies.get(SESSION_COOKIE))
        if signed is None:
            why = "your session has ended or was signed out" if ended else "you are not signed in"
            raise TableError("signed_out", f"session: {why}; sign in first", 401)
        shown = request.headers.get(CSRF_HEADER, "")
        if not shown.isascii() or not secrets.compare_digest(shown, signed.csrf):
            raise TableError(
                "csrf", "csrf: a request signed in by cookie must carry the page's X-CSRF-Token; reload the page", 403
            )
        return signed

    async def seat_in(self, game_id: str, cookie: str | None) -> int | None:
        """The seat the signed-in browser's account claimed in a game, or None."""
        signed, _ended = await self.signed_in(cookie)
        if signed is None:
            return None
        return await asyncio.to_thread(self.seats.account_seat, game_id, signed.account_id)

    def forget(self, close: Callable[[], None]) -> None:
        """A WebSocket seated by a session has ended: nothing is to be closed for it any more."""
        self.seated.pop(close, None)

    async def sign_out(self, signed: Signed, everywhere: bool) -> None:
        """End the session (or every session of its account), and close the WebSockets seated by it here."""
        if everywhere:
            await asyncio.to_thread(self.accounts.close_sessions, signed.account_id)
            self._close_seated(signed.account_id)
        else:
            await asyncio.to_thread(self.accounts.close_session, signed.token_hash)
            self._close_seated(signed.account_id, only=signed.token_hash)

    def _close_seated(self, account_id: str, only: str | None = None, keep: str | None = None) -> None:
        """Close the WebSockets here seated by the account's sessions (`only` the one with that cookie hash, or all
        but the one to `keep`)."""
        for close, (account, token_hash) in list(self.seated.items()):
            if account == account_id and only in (None, token_hash) and token_hash != keep:
                del self.seated[close]
                close()


def session_reply(request: Request, signed: Signed | None, token: str | None, status: int = 200) -> JSONResponse:
    """The answer about a session: the account's name and CSRF token (or none), setting or clearing the cookie."""
    body: dict[str, Any] = {"account": None if signed is None else {"name": signed.name}}
    body["csrf"] = None if signed is None else signed.csrf
    response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
    if token is not None:
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
    elif signed is None:
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


def router(
    accounts: Accounts,
    client_key: Callable[[Request], str],
    read_json: Callable[[Request], Awaitable[Any]],
    validation_message: Callable[[ValidationError], str],
    claim: Callable[[str, str | None, Signed], Awaitable[int]],
) -> APIRouter:
    """The account endpoints (the app supplies how to read a body, name a client and claim a seat)."""
    routes = APIRouter()

    async def body_of(request: Request, model: type[BaseModel]) -> Any:
        try:
            return model.model_validate(await read_json(request))
        except ValidationError as error:
            raise TableError("invalid", validation_message(error)) from None

    @routes.post("/api/accounts")
    async def create_account(request: Request) -> JSONResponse:
        signed, token = await accounts.create(client_key(request), await body_of(request, AccountIn))
        return session_reply(request, signed, token, 201)

    @routes.post("/api/session")
    async def sign_in(request: Request) -> JSONResponse:
        signed, token = await accounts.sign_in(client_key(request), await body_of(request, AccountIn))
        return session_reply(request, signed, token)

    @routes.get("/api/session")
    async def session(request: Request) -> JSONResponse:
        # A cookie that no longer works is cleared with the answer (`signed` is None then).
        signed, _ended = await accounts.signed_in(request.cookies.get(SESSION_COOKIE))
        return session_reply(request, signed, None)

    @routes.delete("/api/session")
    async def sign_out(request: Request) -> JSONResponse:
        signed = await accounts.require(request)
        body: SignOutIn = await body_of(request, SignOutIn)
        await accounts.sign_out(signed, body.everywhere)
        return session_reply(request, None, None)

    @routes.post("/api/account/password")
    async def change_password(request: Request) -> JSONResponse:
        signed = await accounts.require(request)
        body: NewPasswordIn = await body_of(request, NewPasswordIn)
        fresh, token = await accounts.change_password(signed, client_key(request), body)
        return session_reply(request, fresh, token)

    @routes.delete("/api/account")
    async def delete_account(request: Request) -> JSONResponse:
        signed = await accounts.require(request)
        body: PasswordIn = await body_of(request, PasswordIn)
        await accounts.delete(signed, client_key(request), body)
        return session_reply(request, None, None)

    @routes.get("/api/account/games")
    async def account_games(request: Request) -> JSONResponse:
        signed, _ended = await accounts.signed_in(request.cookies.get(SESSION_COOKIE))
        if signed is None:
            raise TableError("signed_out", "session: you are not signed in", 401)
        seats = await asyncio.to_thread(accounts.seats.account_seats, signed.account_id, LISTED)
        games = [{"id": game_id, "seat": seat} for game_id, seat in seats]
        return JSONResponse({"games": games}, headers={"Cache-Control": "private, no-store"})

    @routes.post("/api/games/{game_id}/claim")
    async def claim_seat(game_id: str, request: Request) -> JSONResponse:
        signed = await accounts.require(request)
        seat = await claim(game_id, bearer(request), signed)
        return JSONResponse({"seat": seat, "account": {"name": signed.name}})

    return routes


async def websocket_seat(
    accounts: Accounts, websocket: WebSocket, game_id: str, on_sign_out: Callable[[], None]
) -> int | None:
    """The seat a WebSocket's signed-in account claimed in the game (read at its hello), or None; a socket seated
    so is closed by `on_sign_out` when its session is signed out in this process."""
    signed, _ended = await accounts.signed_in(websocket.cookies.get(SESSION_COOKIE))
    if signed is None:
        return None
    seat = await asyncio.to_thread(accounts.seats.account_seat, game_id, signed.account_id)
    if seat is not None:
        accounts.seated[on_sign_out] = (signed.account_id, signed.token_hash)
    return seat
