"""An account's e-mail address and reminders (`skald.web.reminders`), and the unsubscribe link every reminder carries.

The unsubscribe link opens a page with one button; the button, and a mail program's own "Unsubscribe" (RFC 8058's
one-click `POST` of `List-Unsubscribe=One-Click`), post to the same address, which turns the account's reminders
off with no sign-in. Opening the link alone changes nothing, so a mail filter that fetches every link in a message
never unsubscribes anyone.
"""

from __future__ import annotations

import asyncio
from html import escape
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from skald.web.accounts import SESSION_COOKIE
from skald.web.bodies import read_body
from skald.web.deps import AccountsDep, RemindersDep, SettingsDep, StoresDep
from skald.web.errors import TableError
from skald.web.mail import MailIn, clean_address, token_account
from skald.web.reminders import Reminders
from skald.web.rules_page import page
from skald.web.store.reminders import MailRow

router = APIRouter()


def described(row: MailRow | None, reminders: Reminders) -> JSONResponse:
    """What the account panel is told: the address and wishes, and whether this server sends mail at all."""
    body: dict[str, Any] = {
        "address": None if row is None else row.address,
        "reminders": row is not None and row.reminders,
        "untimed": row is not None and row.untimed,
        "relay": reminders.relay is not None,
        "after_minutes": reminders.after / 60,
    }
    return JSONResponse(body, headers={"Cache-Control": "private, no-store"})


# The handlers of /api/ keep their names and carry no docstring: FastAPI writes both into the reviewed schema.


@router.get("/api/account/mail")
async def account_mail(request: Request, accounts: AccountsDep, store: StoresDep, reminders: RemindersDep) -> Any:
    signed, _ended = await accounts.signed_in(request.cookies.get(SESSION_COOKIE))
    if signed is None:
        raise TableError("signed_out", "session: you are not signed in", 401)
    return described(await asyncio.to_thread(store.reminders.mail_of, signed.account_id), reminders)


@router.post("/api/account/mail")
async def set_account_mail(
    request: Request, accounts: AccountsDep, store: StoresDep, reminders: RemindersDep, settings: SettingsDep
) -> Any:
    signed = await accounts.require(request)
    body = await read_body(request, MailIn, settings.idle_timeout)
    address = clean_address(body.address) if body.address and body.address.strip() else None
    account = signed.account_id
    await asyncio.to_thread(store.reminders.set_mail, account, address, body.reminders, body.untimed)
    return described(await asyncio.to_thread(store.reminders.mail_of, account), reminders)


def unsubscribe_body(token: str, message: str, button: bool) -> str:
    """The unsubscribe page: what it is about, and the button that posts to this same address."""
    form = (
        f'<form method="post" action="/unsubscribe?t={escape(token)}">'
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
        '<button type="submit" id="unsubscribe">Stop e-mail reminders</button></form>'
        if button
        else ""
    )
    return (
        f'<section class="card"><p id="unsubscribe-status">{escape(message)}</p>{form}'
        '<p><a href="/" class="back">To the lobby</a> (its account panel turns reminders on again)</p></section>'
    )


async def signed_account(reminders: Reminders, token: str) -> str | None:
    """The account an unsubscribe link was made for, or None."""
    return token_account(await reminders.secret(), token)


@router.get("/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(reminders: RemindersDep, t: str = "") -> HTMLResponse:
    """Ask, with one button, whether to stop the reminders of the account the link was made for."""
    if await signed_account(reminders, t) is None:
        body = unsubscribe_body(
            t, "This unsubscribe link is not one this server made: copy it whole from the mail.", False
        )
        return HTMLResponse(page("E-mail reminders", body), status_code=400)
    body = unsubscribe_body(t, "Stop the e-mail reminders of your turns? No sign-in is needed.", True)
    return HTMLResponse(page("E-mail reminders", body))


@router.post("/unsubscribe", response_class=HTMLResponse)
async def unsubscribe(reminders: RemindersDep, store: StoresDep, t: str = "") -> HTMLResponse:
    """Turn the reminders of the link's account off (the button above, or a mail program's one-click)."""
    account = await signed_account(reminders, t)
    if account is None:
        body = unsubscribe_body(t, "This unsubscribe link is not one this server made: nothing was changed.", False)
        return HTMLResponse(page("E-mail reminders", body), status_code=400)
    stopped = await asyncio.to_thread(store.reminders.stop, account)
    said = "E-mail reminders are off: no more will be sent." if stopped else "This account sends no reminders."
    return HTMLResponse(page("E-mail reminders", unsubscribe_body(t, said, False)))
