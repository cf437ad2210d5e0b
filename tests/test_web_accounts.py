"""Accounts, over real HTTP and WebSockets against a real SQLite file.

A person makes an account, signs in, claims a seat he holds by its token and finds it again with the account alone:
in "Your games" and at the table, from a browser that never held the link. Every bad request — a wrong password, a
signed-out or ended session, a write without the CSRF token, a seat not one's own — gets a clear error and changes
nothing; no account acts in a seat it has not claimed.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from web_support import Server, running

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a real SQLite file (read directly by the test that ends a session)."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


class Browser:
    """An HTTP client that keeps cookies, as a browser would, and sends the session's CSRF token when it has one."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, csrf: bool = True
    ) -> tuple[int, Any]:
        """A request with this browser's cookies (and CSRF token); returns (status, parsed JSON)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if csrf and self.csrf:
            request.add_header("X-CSRF-Token", self.csrf)
        try:
            with self.opener.open(request, timeout=30) as response:
                status, answer = response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            status, answer = error.code, json.loads(error.read() or b"null")
        if isinstance(answer, dict) and "csrf" in answer:
            self.csrf = answer["csrf"]
        return status, answer

    def cookie(self) -> str | None:
        """The session cookie's value."""
        return next((c.value for c in self.jar if c.name == "skald_session"), None)

    def hello(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        """The welcome a WebSocket with this browser's cookie gets at a table."""
        headers = {"Cookie": f"skald_session={self.cookie()}"} if self.cookie() else {}
        with connect(f"{self.server.ws}/ws/{game_id}", additional_headers=headers, open_timeout=30) as conn:
            conn.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
            while True:
                message = json.loads(conn.recv(timeout=30))
                if message["type"] in ("welcome", "error"):
                    return dict(message)


def test_a_person_claims_a_seat_and_finds_it_again_from_another_browser_with_his_account_alone(
    server: Server,
) -> None:
    home = Browser(server)
    status, made = home.request("POST", "/api/accounts", {"name": "Astrid", "password": "long enough"})
    assert status == 201 and made["account"] == {"name": "Astrid"} and made["csrf"]
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    status, claimed = home.request("POST", f"/api/games/{game['id']}/claim", {}, token=token)
    assert status == 200 and claimed["seat"] == 0

    away = Browser(server)  # another browser: no link, no cookie
    assert away.hello(game["id"])["you"] is None
    status, session = away.request("GET", "/api/session")
    assert status == 200 and session["account"] is None
    status, _ = away.request("POST", "/api/session", {"name": "astrid", "password": "long enough"})
    assert status == 200  # names are compared folded
    status, listed = away.request("GET", "/api/account/games")
    assert status == 200 and listed["games"] == [{"id": game["id"], "seat": 0}]
    status, summary = away.request("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["you"] == 0
    assert away.hello(game["id"])["you"] == 0  # the table takes him in his seat, with no link
    status, replayed = away.request("GET", f"/api/games/{game['id']}/replay/0")
    assert status == 200 and replayed["viewer"] == 0  # and the replay shows the game as his seat saw it


def test_an_account_acts_only_in_the_seats_it_claimed(server: Server) -> None:
    ann, bo = Browser(server), Browser(server)
    assert ann.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's secret"})[0] == 201
    assert bo.request("POST", "/api/accounts", {"name": "Bjorn", "password": "bo's secret!"})[0] == 201
    game = server.create(TWO_PEOPLE)
    ann_token, bo_token = (invite["token"] for invite in game["invites"])
    assert ann.request("POST", f"/api/games/{game['id']}/claim", {}, token=ann_token)[0] == 200
    # One seat a game for an account: Ann cannot keep Bo's seat too, though she holds his link.
    status, refusal = ann.request("POST", f"/api/games/{game['id']}/claim", {}, token=bo_token)
    assert status == 409 and "already keeps seat 1" in refusal["error"]["message"]
    # Bo cannot claim Ann's seat, even holding her link; nor claim without a seat token.
    status, refusal = bo.request("POST", f"/api/games/{game['id']}/claim", {}, token=ann_token)
    assert status == 409 and refusal["error"]["code"] == "claimed"
    status, refusal = bo.request("POST", f"/api/games/{game['id']}/claim", {})
    assert status == 403 and "token" in refusal["error"]["message"]
    assert bo.hello(game["id"])["you"] is None  # signed in, but he has claimed no seat here
    assert bo.request("POST", f"/api/games/{game['id']}/claim", {}, token=bo_token)[0] == 200
    assert bo.hello(game["id"])["you"] == 1
    assert ann.hello(game["id"])["you"] == 0
    assert ann.hello(game["id"], token=bo_token)["you"] == 1  # a seat token still acts for its seat


def test_a_wrong_password_an_unknown_name_and_a_taken_name_are_refused_alike_and_sign_in_is_rate_limited(
    server: Server,
) -> None:
    first = Browser(server)
    assert first.request("POST", "/api/accounts", {"name": "Sigrid", "password": "correct horse"})[0] == 201
    other = Browser(server)
    status, refusal = other.request("POST", "/api/accounts", {"name": "SIGRID", "password": "another one"})
    assert status == 409 and refusal["error"]["code"] == "name_taken"
    wrong_password = other.request("POST", "/api/session", {"name": "Sigrid", "password": "wrong horse"})
    unknown_name = other.request("POST", "/api/session", {"name": "Nobody", "password": "correct horse"})
    assert (
        wrong_password
        == unknown_name
        == (401, {"error": {"code": "sign_in", "message": "name or password: not right"}})
    )
    assert other.cookie() is None
    for case, field in [
        ({"name": "Al", "password": "long enough"}, "name: 3–32 characters"),
        ({"name": "Alf", "password": "short"}, "password: at least 8 characters"),
        ({"name": "Al\u200bf", "password": "long enough"}, "name: U+200B"),
        ({"name": "Alf"}, "password"),
    ]:
        status, refusal = other.request("POST", "/api/accounts", case)
        assert status == 400 and field in refusal["error"]["message"], refusal
    codes = [other.request("POST", "/api/session", {"name": "Sigrid", "password": "guess"})[0] for _ in range(8)]
    assert 429 in codes  # five tries per name, then one every twelve seconds
    status, refusal = other.request("POST", "/api/session", {"name": "Sigrid", "password": "correct horse"})
    assert status == 429 and "wait a minute" in refusal["error"]["message"]  # even the right one must wait


def test_a_write_by_cookie_without_the_csrf_token_is_refused_and_changes_nothing(server: Server) -> None:
    ann = Browser(server)
    ann.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's secret"})
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    status, refusal = ann.request("POST", f"/api/games/{game['id']}/claim", {}, token=token, csrf=False)
    assert status == 403 and refusal["error"]["code"] == "csrf"
    status, refusal = ann.request("DELETE", "/api/session", {}, csrf=False)
    assert status == 403 and refusal["error"]["code"] == "csrf"
    assert ann.request("GET", "/api/session")[1]["account"] == {"name": "Ann"}  # still signed in
    assert ann.hello(game["id"])["you"] is None  # and the seat was not claimed


def test_a_signed_out_or_ended_session_is_refused_with_a_clear_message(server: Server, tmp_path: Path) -> None:
    ann = Browser(server)
    ann.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's secret"})
    stolen, stolen_csrf = ann.cookie(), ann.csrf  # copied before she signs out
    assert ann.request("DELETE", "/api/session", {})[0] == 200
    game = server.create(TWO_PEOPLE)
    request = urllib.request.Request(server.url + f"/api/games/{game['id']}/claim", data=b"{}", method="POST")
    for name, value in [
        ("Content-Type", "application/json"),
        ("Cookie", f"skald_session={stolen}"),
        ("X-CSRF-Token", str(stolen_csrf)),
        ("Authorization", f"Bearer {game['invites'][0]['token']}"),
    ]:
        request.add_header(name, value)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 401
    assert "ended or was signed out" in json.loads(refused.value.read())["error"]["message"]
    asked = urllib.request.Request(server.url + "/api/session", headers={"Cookie": f"skald_session={stolen}"})
    with urllib.request.urlopen(asked, timeout=30) as response:
        assert json.loads(response.read())["account"] is None
        assert "skald_session=" in response.headers["set-cookie"]  # the browser is told to forget it
    status, refusal = Browser(server).request("POST", f"/api/games/{game['id']}/claim", {})
    assert status == 401 and "not signed in" in refusal["error"]["message"]

    bo = Browser(server)
    assert bo.request("POST", "/api/accounts", {"name": "Bjorn", "password": "bo's secret!"})[0] == 201
    with sqlite3.connect(tmp_path / "skald.db") as db:  # the session ended a day ago
        db.execute("UPDATE account_sessions SET expires_at = '2000-01-01 00:00:00.000000'")
    status, refusal = bo.request("POST", f"/api/games/{game['id']}/claim", {}, token=game["invites"][1]["token"])
    assert status == 401 and "ended or was signed out" in refusal["error"]["message"]
    assert bo.hello(game["id"])["you"] is None


def test_signing_out_everywhere_ends_every_session_of_the_account(server: Server) -> None:
    phone, laptop = Browser(server), Browser(server)
    phone.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's secret"})
    laptop.request("POST", "/api/session", {"name": "Ann", "password": "ann's secret"})
    assert laptop.request("GET", "/api/session")[1]["account"] == {"name": "Ann"}
    assert phone.request("DELETE", "/api/session", {"everywhere": True})[0] == 200
    assert laptop.request("GET", "/api/session")[1]["account"] is None


def test_a_new_link_for_a_claimed_seat_leaves_the_seat_in_its_account(server: Server) -> None:
    """A claimed seat keeps its account whatever token reaches it: else a new link would drop the claim and let a
    losing player finish unrated."""
    ann = Browser(server)
    assert ann.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's own seat"})[0] == 201
    game = server.create(TWO_PEOPLE)
    old = game["invites"][0]["token"]
    assert ann.request("POST", f"/api/games/{game['id']}/claim", {}, token=old)[0] == 200
    status, fresh = server.request("POST", f"/api/games/{game['id']}/token", {}, token=old)
    assert status == 200
    assert ann.hello(game["id"])["you"] == 0  # the account still keeps the seat
    other = Browser(server)
    assert other.request("POST", "/api/accounts", {"name": "Other", "password": "found the new link"})[0] == 201
    status, refusal = other.request("POST", f"/api/games/{game['id']}/claim", {}, token=fresh["token"])
    assert status == 409 and refusal["error"]["code"] == "claimed"


def test_signing_out_closes_the_table_sockets_the_session_seated(server: Server) -> None:
    ann = Browser(server)
    ann.request("POST", "/api/accounts", {"name": "Ann", "password": "ann's secret"})
    game = server.create(TWO_PEOPLE)
    assert ann.request("POST", f"/api/games/{game['id']}/claim", {}, token=game["invites"][0]["token"])[0] == 200
    headers = {"Cookie": f"skald_session={ann.cookie()}"}
    with connect(f"{server.ws}/ws/{game['id']}", additional_headers=headers, open_timeout=30) as conn:
        conn.send(json.dumps({"type": "hello", "token": None, "svg": False, "full": False}))
        welcome = next(m for m in (json.loads(conn.recv(timeout=30)) for _ in range(5)) if m["type"] == "welcome")
        assert welcome["you"] == 0
        assert ann.request("DELETE", "/api/session", {})[0] == 200
        while True:
            message = json.loads(conn.recv(timeout=30))
            if message["type"] == "error":
                break
        assert message["code"] == "revoked" and "signed out" in message["message"]
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                conn.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_names_no_account_can_have_are_refused_or_simply_not_found(server: Server) -> None:
    other = Browser(server)
    status, refusal = other.request("POST", "/api/accounts", {"name": "\ufdfa" * 5, "password": "long enough"})
    assert status == 400 and "too long a name" in refusal["error"]["message"]  # each folds to 15 letters
    assert other.request("POST", "/api/session", {"name": "Ann\x00", "password": "long enough"})[0] == 401
    assert server.request("GET", "/api/ratings/vikings/Ann%00")[0] == 404
