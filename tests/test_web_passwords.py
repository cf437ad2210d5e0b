"""Passwords worth keeping, and changing one or deleting the account, over real HTTP against a real SQLite file.

A password is at least 8 characters, not the account's name (nor the name with digits added), and not one of the
common passwords (Django's list of 20,000). Changing it or deleting the account takes the current password, besides
the session cookie, its CSRF token and the same-site checks every write gets. A change ends every other session;
a deletion keeps the games, and the seats the account kept belong to no account again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_web_accounts import TWO_PEOPLE, Browser
from web_support import Server, running


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a real SQLite file (read directly to see what a deletion left), behind a "proxy" (the test
    itself) that may say which address a client comes from."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--trusted-proxies", "127.0.0.1") as live:
        yield live


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password1", "most common passwords"),
        ("IloveYou", "most common passwords"),  # compared lowercased
        ("qwertyuiop", "most common passwords"),
        ("Sigrid", "at least 8 characters"),
        ("sigrid2024!", "your account's name"),
        ("S I G R I D 99", "your account's name"),
    ],
)
def test_a_common_password_or_the_accounts_name_is_refused_and_no_account_is_made(
    server: Server, password: str, why: str
) -> None:
    browser = Browser(server)
    status, refusal = browser.request("POST", "/api/accounts", {"name": "Sigrid", "password": password})
    assert status == 400 and refusal["error"]["code"] == "password" and why in refusal["error"]["message"], refusal
    assert browser.cookie() is None
    assert browser.request("POST", "/api/accounts", {"name": "Sigrid", "password": "Sigrid of the fjords"})[0] == 201


def test_changing_the_password_takes_the_current_one_and_ends_every_other_session(server: Server) -> None:
    laptop, phone = Browser(server), Browser(server)
    assert laptop.request("POST", "/api/accounts", {"name": "Astrid", "password": "old oars creak"})[0] == 201
    assert phone.request("POST", "/api/session", {"name": "Astrid", "password": "old oars creak"})[0] == 200
    change = {"password": "old oars creak", "new_password": "new sails billow"}
    status, refusal = laptop.request("POST", "/api/account/password", {**change, "password": "not my password"})
    assert status == 403 and "current password" in refusal["error"]["message"]
    status, refusal = laptop.request("POST", "/api/account/password", change, csrf=False)
    assert status == 403 and refusal["error"]["code"] == "csrf"
    laptop.opener.addheaders.append(("Origin", "https://evil.example"))
    status, refusal = laptop.request("POST", "/api/account/password", change)
    assert status == 403 and refusal["error"]["code"] == "cross_site"
    laptop.opener.addheaders.pop()
    status, refusal = laptop.request("POST", "/api/account/password", {**change, "new_password": "password1"})
    assert status == 400 and "most common" in refusal["error"]["message"]
    assert phone.request("GET", "/api/session")[1]["account"] == {"name": "Astrid"}  # nothing changed so far

    status, session = laptop.request("POST", "/api/account/password", change)
    assert status == 200 and session["account"] == {"name": "Astrid"} and session["csrf"]
    assert laptop.request("GET", "/api/session")[1]["account"] == {"name": "Astrid"}  # this browser stays signed in
    assert phone.request("GET", "/api/session")[1]["account"] is None  # every other session ended
    stranger = Browser(server)  # elsewhere: the tries at the password above count against this address
    stranger.opener.addheaders.append(("X-Forwarded-For", "192.0.2.10"))
    assert stranger.request("POST", "/api/session", {"name": "Astrid", "password": "old oars creak"})[0] == 401
    assert stranger.request("POST", "/api/session", {"name": "Astrid", "password": "new sails billow"})[0] == 200


def test_deleting_an_account_takes_the_current_password_keeps_its_games_and_frees_its_seats(
    server: Server, tmp_path: Path
) -> None:
    ann = Browser(server)
    assert ann.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's secret"})[0] == 201
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    assert ann.request("POST", f"/api/games/{game['id']}/claim", {}, token=token)[0] == 200
    assert ann.hello(game["id"])["you"] == 0
    status, refusal = ann.request("DELETE", "/api/account", {"password": "not my secret"})
    assert status == 403 and "current password" in refusal["error"]["message"]
    status, refusal = ann.request("DELETE", "/api/account", {"password": "ann's secret"}, csrf=False)
    assert status == 403 and refusal["error"]["code"] == "csrf"
    assert ann.request("GET", "/api/session")[1]["account"] == {"name": "Ann"}  # still there

    status, answer = ann.request("DELETE", "/api/account", {"password": "ann's secret"})
    assert status == 200 and answer["account"] is None
    assert ann.request("GET", "/api/session")[1]["account"] is None
    assert Browser(server).request("POST", "/api/session", {"name": "Ann", "password": "ann's secret"})[0] == 401
    with sqlite3.connect(tmp_path / "skald.db") as db:
        assert db.execute("SELECT count(*) FROM accounts").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM account_sessions").fetchone() == (0,)
        assert db.execute("SELECT account_id FROM seats WHERE game_id = ?", (game["id"],)).fetchall() == [
            (None,),
            (None,),
        ]
    status, summary = server.request("GET", f"/api/games/{game['id']}", token=token)
    assert status == 200 and summary["you"] == 0  # the game stays, and the seat's link still plays it
    again = Browser(server)  # the seat may be kept again, and the name taken again
    assert again.request("POST", "/api/accounts", {"name": "Ann", "password": "a new beginning"})[0] == 201
    assert again.request("POST", f"/api/games/{game['id']}/claim", {}, token=token)[0] == 200
