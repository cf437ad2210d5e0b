"""The lobby after "Create game", in headless Chromium (Debian's `chromium`, driven by Playwright): the creator is
seated at once and taken to the table, where the invite links wait to be copied; "Your games" lists each game's
opponents, the day it was made and whose turn it is, and on a phone it comes before the forms."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from browser_support import PHONE, SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")


def lobby(browser: Any, server: Server, **context: Any) -> Any:
    """A page at the lobby, its form drawn."""
    page = browser.new_context(bypass_csp=True, **context).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    return page


def test_the_creator_lands_in_his_seat_at_the_table_with_the_invite_links_to_copy(browser: Any, server: Server) -> None:
    page = lobby(browser, server, permissions=["clipboard-read", "clipboard-write"])
    page.select_option("#players", "2")
    seats = page.locator("#seats .seat")
    seats.nth(0).locator(".seat-name").fill("Astrid")
    seats.nth(1).locator(".seat-kind").select_option("human")
    seats.nth(1).locator(".seat-name").fill("Bjorn")
    page.click("#create-button")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("#who:has-text('you: Astrid')")  # seated, with no further click
    game_id = page.url.split("/table/")[1].split("#")[0]
    assert "#t=" not in page.url  # the seat's secret left the address bar
    page.wait_for_selector("#created:not([hidden])")
    links = page.locator("#invites li")
    assert links.count() == 3  # Astrid's own (for another device), Bjorn's, the spectators'
    assert "your seat" in links.nth(0).inner_text()
    bjorn_link = links.nth(1).locator("input").input_value()
    assert bjorn_link.startswith(f"{server.url}/table/{game_id}#t=")
    links.nth(1).locator("button.copy").click()
    page.wait_for_selector("#invites-status:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == bjorn_link
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-created.png"), full_page=True)

    bjorn = browser.new_context(bypass_csp=True).new_page()
    bjorn.goto(bjorn_link)
    bjorn.wait_for_selector("#who:has-text('you: Bjorn')")
    assert bjorn.is_hidden("#created")  # the links are the creator's to share, in his tab alone

    page.click("#invites-done")
    assert page.is_hidden("#created")
    page.goto(server.url + "/")
    row = page.locator(f"#mine-table tbody tr:has(a[href='/table/{game_id}'])")
    page.wait_for_selector("#mine-table .turn:not(:has-text('…'))")
    assert row.locator(".opponents").inner_text() == "Bjorn"
    made = row.locator(".started time").get_attribute("datetime")
    assert made is not None and datetime.fromisoformat(made).date() == datetime.now(UTC).date()
    turn = row.locator(".turn").inner_text()
    assert turn == "your turn" or turn == "Bjorn to move"
    headings = page.locator("#mine-table thead th").all_inner_texts()
    assert headings == ["Game", "Opponents", "Started", "Turn"]


def test_a_creator_alone_against_a_bot_is_seated_and_on_a_phone_his_games_come_first(
    browser: Any, server: Server
) -> None:
    page = lobby(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    page.select_option("#players", "2")
    page.locator("#seats .seat").nth(0).locator(".seat-name").fill("Astrid")
    page.locator("#seats .seat").nth(1).locator(".seat-kind").select_option("bot")
    page.locator("#create-button").tap()
    page.wait_for_selector("#who:has-text('you: Astrid')")
    assert page.locator("#invites li").count() == 2  # her own link and the spectators'
    page.goto(server.url + "/")
    page.wait_for_selector("#mine-table .turn:not(:has-text('…'))")
    mine, create = (page.locator(selector).bounding_box() for selector in ("#mine", "#create"))
    assert mine is not None and create is not None and mine["y"] < create["y"]
    opponents = page.locator("#mine-table tbody tr").first.locator(".opponents").inner_text()
    assert "mcts:normal" in opponents or "Bot" in opponents
