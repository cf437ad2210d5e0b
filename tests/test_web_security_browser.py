"""Seat links and refusals in Debian's Chromium: an invite link never takes away the seat this browser holds
unless the server accepts it, a refused token or an unknown game does not make the page reconnect for ever, and
the table draws its board under the strict content security policy (no inline styles), which these pages keep
(no `bypass_csp`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
#: Long enough for a page that reconnects about twice a second to try several times (a wait, not a measurement).
WATCH_MS = 4000


def stored_token(page: Any, game_id: str) -> str | None:
    """The seat token this browser keeps for `game_id`."""
    joined = json.loads(page.evaluate("localStorage.getItem('skald.games') || '{}'"))
    token: str | None = joined.get(game_id, {}).get("token")
    return token


def test_a_bogus_invite_link_does_not_take_away_the_seat_this_browser_holds(browser: Any, server: Server) -> None:
    game = server.create(TWO_PEOPLE)
    ann, bo = (invite["url"] for invite in game["invites"])
    page = browser.new_context().new_page()
    page.goto(ann)
    page.wait_for_selector("#who:has-text('you: Ann')")
    assert stored_token(page, game["id"]) == game["invites"][0]["token"]
    page.goto("about:blank")  # a fresh load of the table (a new tab), not a jump within the page
    page.goto(f"{server.url}/table/{game['id']}#t=" + "B" * 32)
    page.wait_for_selector("#error:has-text('that invite link is not valid')")
    page.wait_for_selector("#who:has-text('you: Ann')")  # back in the seat it held
    assert stored_token(page, game["id"]) == game["invites"][0]["token"]
    page.goto("about:blank")
    page.goto(f"{server.url}/table/{game['id']}")
    page.wait_for_selector("#who:has-text('you: Ann')")
    page.goto("about:blank")
    page.goto(bo)  # a link the server accepts is this browser's new seat
    page.wait_for_selector("#who:has-text('you: Bo')")
    assert stored_token(page, game["id"]) == game["invites"][1]["token"]


def test_a_refused_token_or_an_unknown_game_does_not_make_the_page_reconnect_for_ever(
    browser: Any, server: Server
) -> None:
    page = browser.new_context().new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server.url}/table/no-such-game")
    page.wait_for_selector("#conn:has-text('no such game')")
    page.wait_for_timeout(WATCH_MS)
    assert len(sockets) == 1

    game = server.create(TWO_PEOPLE)
    page = browser.new_context().new_page()
    sockets.clear()
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(f"{server.url}/table/{game['id']}#t=" + "B" * 32)
    page.wait_for_selector("#who:has-text('spectator (that invite link is not valid)')")
    page.wait_for_selector("#conn:has-text('live')")
    page.wait_for_timeout(WATCH_MS)
    assert len(sockets) == 2  # the refused token once, then watching without it
    assert stored_token(page, game["id"]) is None


def test_the_board_is_drawn_under_the_strict_style_policy_without_a_violation(browser: Any, server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    page = browser.new_context().new_page()
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security" in message.text else None)
    page.goto(game["invites"][0]["url"])
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#who:has-text('you: Ann')")
    assert page.evaluate("document.adoptedStyleSheets.length") >= 1  # the SVG's own style sheet, adopted
    assert page.evaluate("document.querySelectorAll('#board style').length") == 0
    assert page.evaluate("document.querySelectorAll('#board [style]').length") >= 1  # set through the CSSOM
    page.click("#replay-button")
    page.wait_for_selector("#rp-board svg")
    assert violations == []


def test_a_seat_replaces_its_invite_link_and_a_page_with_the_old_one_is_shut_out(browser: Any, server: Server) -> None:
    game = server.create(TWO_PEOPLE)
    mine = browser.new_context().new_page()
    mine.goto(game["invites"][0]["url"])
    mine.wait_for_selector("#who:has-text('you: Ann')")
    leaked = browser.new_context().new_page()
    leaked.goto(game["invites"][0]["url"])
    leaked.wait_for_selector("#who:has-text('you: Ann')")
    mine.click("#new-link-button")
    mine.wait_for_selector("#new-link:not([hidden])")
    fresh = mine.locator("#new-link-url").input_value()
    assert fresh.startswith(f"{server.url}/table/{game['id']}#t=") and game["invites"][0]["token"] not in fresh
    leaked.wait_for_selector("#who:has-text('spectator')")
    assert stored_token(leaked, game["id"]) is None
    mine.goto("about:blank")
    mine.goto(f"{server.url}/table/{game['id']}")
    mine.wait_for_selector("#who:has-text('you: Ann')")
    assert stored_token(mine, game["id"]) == fresh.split("#t=")[1]
