"""In Debian's Chromium: the lobby names every game and rule option in words, with a line
on each, and the advanced Vikings game is a choice in view — not inside the rule options' disclosure — that makes an
advanced game when chosen; each game's Rules link opens its rules summary. Under the strict security policy (no
`bypass_csp`)."""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from skald.engine import get_game
from web_support import Server

pytest.importorskip("playwright.sync_api")


def lobby(browser: Any, server: Server) -> Any:
    """The lobby, loaded, with Vikings chosen."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    page.select_option("#game", "vikings")
    return page


def test_the_advanced_vikings_game_is_a_visible_choice_without_opening_anything(browser: Any, server: Server) -> None:
    page = lobby(browser, server)
    assert not page.locator("#more-options").evaluate("(d) => d.open")  # the disclosure is left closed
    variant = page.locator('select[data-option="variant"]')
    assert variant.is_visible()
    labels = variant.locator("option").all_inner_texts()
    assert labels == ["Base game", "Advanced game (auction and the 25 special tiles)"]
    row = page.locator("#primary-options .option")
    assert row.locator("label").inner_text() == "Base or advanced game"
    assert row.locator("small").is_visible()
    assert "advanced" in (row.get_attribute("title") or "")  # the whole reasoning as the tooltip


def test_the_lobby_shows_games_and_options_by_title_not_by_id(browser: Any, server: Server) -> None:
    page = lobby(browser, server)
    assert page.locator("#game option").all_inner_texts() == ["Vikings", "Vikingdoms", "Vikingatid"]
    page.locator("#more-options summary").click()
    titles = page.locator(".option label").all_inner_texts()
    assert "Ship placement" in titles and "ship_row" not in titles
    assert not any("_" in title for title in titles)
    ship_row = page.locator('select[data-option="ship_row"] option').all_inner_texts()
    assert "Every ship touches the last" in ship_row and "touching" not in ship_row
    for name in ("vikingdoms", "vikingatid"):
        page.select_option("#game", name)
        shown = page.locator(".option label").all_inner_texts()
        assert shown == [o.heading() for o in get_game(name).options if o.primary] + [
            o.heading() for o in get_game(name).options if not o.primary
        ]


def test_choosing_the_advanced_game_in_the_lobby_creates_an_advanced_game(browser: Any, server: Server) -> None:
    page = lobby(browser, server)
    page.select_option('select[data-option="variant"]', label="Advanced game (auction and the 25 special tiles)")
    page.select_option("#players", "2")
    page.locator("#seats .seat").nth(1).locator(".seat-kind").select_option("bot")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    game_id = page.locator("#invites input").first.input_value().split("/table/")[1].split("#")[0]
    status, game = server.request("GET", f"/api/games/{game_id}")
    assert status == 200 and game["options"]["variant"] == "advanced"
    assert game["options"]["ship_row"] == "zman"  # the others keep their defaults, sent as their own values


def test_the_rules_link_opens_the_chosen_games_rules_summary(browser: Any, server: Server) -> None:
    page = lobby(browser, server)
    page.select_option("#game", "vikingdoms")
    link = page.locator("#rules-link")
    assert link.inner_text() == "Rules of Vikingdoms"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == f"{server.url}/rules/vikingdoms"
    assert rules.locator("h1").inner_text() == "Vikingdoms: rules summary"
    assert rules.locator("#option-termination h3").inner_text() == "Endless recruitment"
    assert rules.evaluate("getComputedStyle(document.body).fontFamily").startswith("Georgia")  # the site's sheet
