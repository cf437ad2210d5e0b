"""An open table filled by two browsers, in headless Chromium (Debian's `chromium`, driven by Playwright): one makes a
game with an open seat in the lobby and lands at its table, which waits for a player with its link to share; another
finds the table in its lobby's "Open tables", joins it as a guest with one click, and the two play moves of it. And a
player whose clock ran out under the `bot` rule takes his seat back with "I'm back"."""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")

#: Moves each browser makes before the test ends (the rest of the game is other tests' business).
MOVES = 3


def play(page: Any) -> None:
    """Make one move at this page's turn: a legal board target, else the first choice listed."""
    page.wait_for_function("window.skaldState.mine && !window.skaldState.pending")
    version = page.evaluate("window.skaldState.version")
    targets = page.locator("#board .legal")
    if targets.count():
        targets.first.click()
    else:
        page.locator("#actions .act").first.click()
    page.wait_for_function(f"window.skaldState.version > {version}")


def test_two_browsers_find_an_open_table_in_the_lobby_and_play_it(browser: Any, server: Server) -> None:
    astrid = browser.new_context(bypass_csp=True).new_page()
    astrid.goto(server.url + "/")
    astrid.wait_for_selector("#seats .seat")
    astrid.select_option("#players", "2")
    seats = astrid.locator("#seats .seat")
    seats.nth(0).locator(".seat-name").fill("Astrid")
    seats.nth(1).locator(".seat-kind").select_option("open")
    assert seats.nth(1).locator(".seat-name").is_hidden()
    astrid.select_option("#clock", index=1)  # live: the rule for a clock that runs out is asked
    astrid.select_option("#timeout", "bot")
    astrid.click("#create-button")
    astrid.wait_for_url("**/table/*")
    astrid.wait_for_selector("#who:has-text('you: Astrid')")
    astrid.wait_for_selector("#waiting-heading:has-text('Waiting for 1 player')")
    game_id = astrid.url.split("/table/")[1].split("#")[0]
    assert astrid.locator("#share-link").input_value() == f"{server.url}/table/{game_id}"
    assert astrid.locator("#start-button").is_visible()  # the creator may start with bots instead
    assert "a bot (greedy) plays the seat until its player is back" in astrid.locator("#clock-rule").inner_text()
    assert not astrid.evaluate("window.skaldState.mine")

    bjorn = browser.new_context(bypass_csp=True).new_page()
    bjorn.goto(server.url + "/")
    row = bjorn.locator(f"#open-list tr[data-game='{game_id}']")
    row.wait_for()
    assert row.locator(".waiting").inner_text() == "Astrid" and row.locator(".free").inner_text() == "1"
    bjorn.fill("#guest-name", "Bjorn")
    row.locator("button.join").click()
    bjorn.wait_for_url(f"**/table/{game_id}")
    bjorn.wait_for_selector("#who:has-text('you: Bjorn')")
    astrid.wait_for_selector("#waiting", state="hidden")  # every seat is taken: the game has started
    astrid.wait_for_selector("#seat-panels [data-seat='1']:has-text('Bjorn')")

    moved = [0, 0]
    while min(moved) < MOVES:
        astrid.wait_for_function("skald.store.view.to_move !== null && !window.skaldState.pending")
        mover = astrid.evaluate("skald.store.view.to_move")
        page = (astrid, bjorn)[mover]
        play(page)
        moved[mover] += 1
        reached = page.evaluate("window.skaldState.version")
        for other in (astrid, bjorn):  # both tables show the move before the next is chosen
            other.wait_for_function(f"window.skaldState.version >= {reached}")
    assert astrid.evaluate("window.skaldState.version") == bjorn.evaluate("window.skaldState.version")
    bjorn.goto(server.url + "/")
    bjorn.wait_for_selector("#open-empty:not([hidden])")  # a full table is no longer offered


def test_a_player_whose_clock_ran_out_takes_his_seat_back_from_the_bot_with_im_back(
    browser: Any, server: Server
) -> None:
    clock = {"kind": "live", "bank": 1, "increment": 0, "timeout": "bot", "stand_in": "random"}
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}], clock=clock)
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(game["invites"][0]["url"])
    page.wait_for_selector("#back-button")  # her clock ran out: the bot plays her seat
    assert "a bot (random) plays your seat" in page.locator("#away-note").inner_text()
    assert "away: a bot (random) plays" in page.locator("#seat-panels [data-seat='0']").inner_text()
    page.click("#back-button")
    page.wait_for_selector("#back-button", state="detached")  # asked for ("Welcome back"), or given back already
    play(page)  # at her next turn the seat is hers again
    assert page.locator("#away-note").count() == 0 and page.evaluate("skald.store.view.away") == []
