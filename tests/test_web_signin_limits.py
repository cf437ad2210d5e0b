"""Sign-in limits that nobody else can use against an account's owner, over real HTTP against a real SQLite file.

Each address has its own tries at each name, so a stranger guessing a password never locks its owner out (a 429
even for the right password, from the owner's own address); and a slower limit per name, which the addresses the
account signed in from are spared, keeps guessing from many addresses slow.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from test_web_accounts import Browser
from web_support import Server, running


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """The real app behind a "proxy" (the test itself) that says which address each client comes from."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--trusted-proxies", "127.0.0.1") as live:
        yield live


def from_address(server: Server, address: str) -> Browser:
    """A browser whose requests come from `address` (as the trusted proxy says)."""
    browser = Browser(server)
    browser.opener.addheaders.append(("X-Forwarded-For", address))
    return browser


def test_an_owner_signs_in_from_his_address_while_another_address_guesses_his_password(server: Server) -> None:
    owner = from_address(server, "198.51.100.7")
    assert owner.request("POST", "/api/accounts", {"name": "Sigrid", "password": "shieldmaiden of Birka"})[0] == 201
    guesser = from_address(server, "203.0.113.9")
    codes = [guesser.request("POST", "/api/session", {"name": "Sigrid", "password": f"guess {i}"})[0] for i in range(8)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3  # five tries at the name from that address, then wait
    right = guesser.request("POST", "/api/session", {"name": "Sigrid", "password": "shieldmaiden of Birka"})
    assert right[0] == 429  # the guesser waits even with the right password
    # The owner, from his own address, and from a new one of his (a phone), is let in meanwhile.
    status, session = owner.request("POST", "/api/session", {"name": "Sigrid", "password": "shieldmaiden of Birka"})
    assert status == 200 and session["account"] == {"name": "Sigrid"}
    phone = from_address(server, "198.51.100.200")
    assert phone.request("POST", "/api/session", {"name": "sigrid", "password": "shieldmaiden of Birka"})[0] == 200


def test_guessing_a_name_from_many_addresses_is_slowed_but_the_owners_address_is_spared(server: Server) -> None:
    owner = from_address(server, "198.51.100.7")
    assert owner.request("POST", "/api/accounts", {"name": "Ragnhild", "password": "the long ships sail"})[0] == 201
    codes = [
        from_address(server, f"203.0.113.{host}").request(
            "POST", "/api/session", {"name": "Ragnhild", "password": f"guess {host}"}
        )[0]
        for host in range(1, 36)
    ]
    assert codes[:30] == [401] * 30 and set(codes[30:]) == {429}  # 30 tries at a name from elsewhere, then slowly
    newcomer = from_address(server, "192.0.2.44")
    assert newcomer.request("POST", "/api/session", {"name": "Ragnhild", "password": "the long ships sail"})[0] == 429
    status, session = owner.request("POST", "/api/session", {"name": "Ragnhild", "password": "the long ships sail"})
    assert status == 200 and session["account"] == {"name": "Ragnhild"}  # the address it was made from
    assert owner.request("POST", "/api/session", {"name": "Ragnhild", "password": "wrong horse"})[0] == 401
