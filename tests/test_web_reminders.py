"""E-mail reminders for turn-based players away from the table, against a real local SMTP server (aiosmtpd).

A seat kept in an account with an address, in a game with a turn-based clock, whose turn waits `--remind-after`
minutes, gets one message: the game, the opponents, the table's link (no seat token in it) and a signed unsubscribe
link that turns the reminders off over plain HTTP, with no sign-in. One message a wait, also across a SIGKILL and a
restart; none for a seat without an address; an address that is not one is refused naming the field; a relay that
refuses is tried again later.

Without a relay the lobby's account panel says that no reminders are sent (tests/test_web_accounts_browser.py).

Tests wait for events — a message in the mailbox, a sweep of the reminders counted by `/api/health` — never for
time: a wait that sends nothing is shown by a later wait's message, the sweeps taking the longest waits first.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from skald.web.reminders import ATTEMPTS, Reminders
from skald.web.settings import Settings
from skald.web.store.engine import make_engine
from skald.web.store.stores import Stores
from test_web_accounts import Browser
from web_support import Server, free_port, running

TWO = [{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bjorn"}]
TURN = {"kind": "turn", "days": 3}
ADDRESSES = itertools.count(1)


class Mailbox:
    """An aiosmtpd handler keeping every message it accepts; it may refuse the first few deliveries."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = 0
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.changed:
            if self.refuse:
                self.refuse -= 1
                return "451 4.3.0 try again later"
            mail = message_from_bytes(envelope.content, policy=policy.default)
            assert isinstance(mail, EmailMessage)
            mail["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
            self.messages.append(mail)
            self.changed.notify_all()
        return "250 OK"

    def wait_for(self, address: str, count: int = 1, timeout: float = 30) -> list[EmailMessage]:
        """The messages to `address`, once there are `count` of them."""
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.to(address)) >= count, timeout), self.messages
            return self.to(address)

    def to(self, address: str) -> list[EmailMessage]:
        """The messages to `address` so far."""
        return [mail for mail in self.messages if mail["X-Envelope-To"] == address]


@pytest.fixture(scope="module")
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    """A real SMTP server on loopback, and its port, shared by the module's tests (each its own recipients)."""
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: tuple[Mailbox, int]) -> Iterator[Server]:
    """A server on a real SQLite file that sends reminders through the mailbox after 0.3 s."""
    db = f"sqlite:///{tmp_path_factory.mktemp('reminders') / 'skald.db'}"
    with running(db, "--trusted-proxies", "127.0.0.1", env=relay(mailbox[1])) as live:
        yield live


def relay(port: int, minutes: str = "0.005") -> dict[str, str]:
    """The environment of a server sending reminders through the relay at `port` after `minutes`."""
    return {
        "SKALD_SMTP_HOST": "127.0.0.1",
        "SKALD_SMTP_PORT": str(port),
        "SKALD_MAIL_FROM": "skald@example.org",
        "SKALD_REMIND_AFTER": minutes,
    }


def until(check: Callable[[], Any], timeout: float = 30) -> Any:
    """Poll `check` until it gives something true (an event on the server: a sweep counted, a move shown)."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.02)
    return found


def sweeps(server: Server) -> int:
    """The reminders' sweeps since the server started."""
    return int(server.request("GET", "/api/health")[1]["reminders"]["sweeps"])


def sweeps_pass(server: Server) -> None:
    """Return once a whole sweep of the reminders has run after this call (the one under way may have begun
    before it)."""
    start = sweeps(server)
    until(lambda: sweeps(server) >= start + 2)


def member(server: Server, name: str, address: str | None) -> Browser:
    """A browser signed in to a new account `name`, with `address` for reminders (or none); each from an address
    of its own (the test is the server's trusted proxy), as the accounts made per address are limited."""
    browser = Browser(server)
    browser.opener.addheaders.append(("X-Forwarded-For", f"192.0.2.{next(ADDRESSES)}"))
    assert browser.request("POST", "/api/accounts", {"name": name, "password": f"{name} rows the longship"})[0] == 201
    if address is not None:
        status, mail = browser.request("POST", "/api/account/mail", {"address": address})
        assert status == 200 and mail["address"].lower() == address.lower() and mail["reminders"], mail
    return browser


def seated(
    server: Server, mover: Browser, other: Browser | None = None, clock: dict[str, Any] | None = TURN
) -> tuple[str, int]:
    """A game of two people whose seat to move is kept in `mover`'s account (the other in `other`'s, if given): its
    id and the seat to move."""
    game = server.create(TWO, **({} if clock is None else {"clock": clock}))

    def to_move() -> tuple[int] | None:
        seat = server.request("GET", f"/api/games/{game['id']}")[1]["to_move"]
        return None if seat is None else (seat,)

    (seat,) = until(to_move)
    for browser, claimed in ((mover, seat), (other, 1 - seat)):
        if browser is not None:
            token = game["invites"][claimed]["token"]
            assert browser.request("POST", f"/api/games/{game['id']}/claim", {}, token=token)[0] == 200
    return game["id"], seat


def links(mail: EmailMessage) -> list[str]:
    """The links in a message's text."""
    body = mail.get_body(("plain",))
    assert body is not None
    return re.findall(r"https?://\S+", body.get_content())


def test_a_turn_that_waited_sends_one_message_with_the_table_and_an_unsubscribe_link(
    server: Server, mailbox: tuple[Mailbox, int]
) -> None:
    box, _port = mailbox
    astrid = member(server, "Astrid", "astrid@example.org")
    bjorn = member(server, "Bjorn", "bjorn@example.org")
    game_id, mover = seated(server, astrid, bjorn)
    (mail,) = box.wait_for("astrid@example.org")
    assert mail["To"] == "astrid@example.org" and mail["From"] == "Skald <skald@example.org>"
    assert mail["Subject"] == f"Your turn in Vikings against {TWO[1 - mover]['name']}"
    table, unsubscribe, lobby = links(mail)
    assert table == f"{server.url}/table/{game_id}"  # the table page: no seat token travels by mail
    assert unsubscribe.startswith(f"{server.url}/unsubscribe?t=") and lobby == f"{server.url}/"
    assert mail["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "Hello Astrid" in text and "2 days 23 hours left on its clock" in text
    sweeps_pass(server)
    assert len(box.to("astrid@example.org")) == 1  # one message a wait, however many sweeps see it waiting
    assert box.to("bjorn@example.org") == []  # not his turn
    server.kill()
    server.start()  # a restart after a SIGKILL remembers what was sent
    sweeps_pass(server)
    assert len(box.to("astrid@example.org")) == 1


def test_the_unsubscribe_link_turns_reminders_off_over_plain_http_without_signing_in(
    server: Server, mailbox: tuple[Mailbox, int]
) -> None:
    box, _port = mailbox
    gudrun = member(server, "Gudrun", "gudrun@example.org")
    seated(server, gudrun)
    (mail,) = box.wait_for("gudrun@example.org")
    unsubscribe = links(mail)[1]
    with urllib.request.urlopen(unsubscribe, timeout=30) as page:  # opening the link alone changes nothing
        assert page.status == 200 and b"Stop e-mail reminders" in page.read()
    assert gudrun.request("GET", "/api/account/mail")[1]["reminders"] is True
    forged = unsubscribe[:-3] + ("AAA" if not unsubscribe.endswith("AAA") else "BBB")
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(one_click(forged), timeout=30)
    assert error.value.code == 400
    with urllib.request.urlopen(one_click(unsubscribe), timeout=30) as page:  # as a mail program posts it
        assert page.status == 200 and b"reminders are off" in page.read()
    assert gudrun.request("GET", "/api/account/mail")[1]["reminders"] is False
    # Her next wait sends nothing: a later wait of another account's is mailed, and hers came first.
    bodil = member(server, "Bodil", "bodil@example.org")
    seated(server, gudrun)
    seated(server, bodil)
    box.wait_for("bodil@example.org")
    sweeps_pass(server)
    assert len(box.to("gudrun@example.org")) == 1


def one_click(url: str) -> urllib.request.Request:
    """RFC 8058's one-click unsubscribe, as a mail program sends it to a message's `List-Unsubscribe` link."""
    request = urllib.request.Request(url, data=b"List-Unsubscribe=One-Click", method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    return request


BAD_ADDRESSES = [
    "sigrid",
    "sigrid@",
    "@example.org",
    "si grid@example.org",
    "sigrid@example",
    "a..b@example.org",
    "sigrid@exa_mple.org",
    "x" * 65 + "@example.org",
]


def test_a_bad_address_is_refused_naming_the_field_and_changes_nothing(server: Server) -> None:
    sigrid = member(server, "Sigrid", None)
    for bad in BAD_ADDRESSES:
        status, refusal = sigrid.request("POST", "/api/account/mail", {"address": bad})
        assert status == 400 and refusal["error"]["code"] == "address", (bad, refusal)
        assert refusal["error"]["message"].startswith("address: "), refusal
    status, refusal = sigrid.request("POST", "/api/account/mail", {"address": "sigrid@example.org"}, csrf=False)
    assert status == 403 and refusal["error"]["code"] == "csrf"
    sigrid.opener.addheaders.append(("Origin", "https://evil.example"))
    status, refusal = sigrid.request("POST", "/api/account/mail", {"address": "sigrid@example.org"})
    assert status == 403 and refusal["error"]["code"] == "cross_site"
    sigrid.opener.addheaders.pop()
    status, refusal = sigrid.request("POST", "/api/account/mail", {"address": "sigrid@example.org", "reminders": 1})
    assert status == 400 and refusal["error"]["message"].startswith("reminders: "), refusal
    assert sigrid.request("GET", "/api/account/mail")[1]["address"] is None  # nothing changed
    assert Browser(server).request("GET", "/api/account/mail")[0] == 401


def test_no_mail_without_an_address_nor_for_a_live_clock_and_untimed_games_only_if_asked(
    server: Server, mailbox: tuple[Mailbox, int]
) -> None:
    box, _port = mailbox
    seated(server, member(server, "Thyra", None))  # her wait comes first, and sends nothing
    ragnhild = member(server, "Ragnhild", "Ragnhild@Example.ORG")
    status, mail = ragnhild.request("GET", "/api/account/mail")
    assert status == 200 and mail == {
        "address": "Ragnhild@example.org",
        "reminders": True,
        "untimed": False,
        "relay": True,
        "after_minutes": 0.005,
    }
    seated(server, ragnhild, clock={"kind": "live", "bank": 3600, "increment": 0})  # live: never mailed
    untimed, _seat = seated(server, ragnhild, clock=None)  # no clock, and she did not ask for those
    turn_based, _seat = seated(server, ragnhild)
    (only,) = box.wait_for("Ragnhild@example.org")
    assert links(only)[0] == f"{server.url}/table/{turn_based}"
    assert not any("Thyra" in (mail.get_body(("plain",)).get_content()) for mail in box.messages)  # type: ignore[union-attr]
    status, mail = ragnhild.request("POST", "/api/account/mail", {"address": "Ragnhild@example.org", "untimed": True})
    assert status == 200 and mail["untimed"] is True  # now the game without a clock is mailed too
    later = box.wait_for("Ragnhild@example.org", 2)[1]
    assert links(later)[0] == f"{server.url}/table/{untimed}"
    sweeps_pass(server)
    assert len(box.to("Ragnhild@example.org")) == 2  # the live game's wait is still passed over
    status, mail = ragnhild.request("POST", "/api/account/mail", {"address": None})
    assert status == 200 and mail["address"] is None and mail["reminders"] is False


def test_a_relay_that_refuses_is_tried_again_later_and_one_message_arrives(
    server: Server, mailbox: tuple[Mailbox, int]
) -> None:
    box, _port = mailbox
    before = server.request("GET", "/api/health")[1]["reminders"]
    box.refuse = 1
    seated(server, member(server, "Ingrid", "ingrid@example.org"))
    box.wait_for("ingrid@example.org")
    sweeps_pass(server)
    assert len(box.to("ingrid@example.org")) == 1
    counts = server.request("GET", "/api/health")[1]["reminders"]
    assert counts["retried"] == before["retried"] + 1 and counts["sent"] == before["sent"] + 1
    assert counts["failed"] == before["failed"]


def test_a_failed_delivery_is_tried_again_later_each_time_and_at_most_four_times(tmp_path: Path) -> None:
    settings = Settings(f"sqlite:///{tmp_path / 'skald.db'}", remind_after=60.0)
    reminders = Reminders(settings, Stores(make_engine(settings.db_url)), None)  # type: ignore[arg-type]
    stamp = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    waits = [reminders.retry_at(stamp, failures) for failures in range(1, ATTEMPTS + 1)]
    assert [None if at is None else (at - stamp).total_seconds() for at in waits] == [300, 600, 1200, None]
    assert ATTEMPTS == 4
