"""The bot's review in Debian's Chromium: on a finished game's end screen "Review with the
bot" asks for it, the page shows its progress while a bot worker makes it, then lists the moves that cost their
mover most; one click opens the replay at that decision, where the bot's estimates and its choice stand beside the
board."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from test_web_review import finished_game
from web_support import Server

pytest.importorskip("playwright.sync_api")


def test_a_spectator_asks_for_the_review_and_replays_the_move_that_lost_most(browser: Any, server: Server) -> None:
    game_id = finished_game(server)
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/table/{game_id}")
    page.wait_for_selector("#end:not([hidden])")
    page.click("#review-button")
    page.wait_for_selector("#review-status:has-text('reviewing')")
    page.wait_for_selector("#review-progress:not([hidden])")  # a progress bar while the bot reviews
    assert "It ends within 3 minutes." in page.inner_text("#review-status")
    page.wait_for_selector("#review-status:has-text('The bot reviewed')", timeout=180_000)
    assert page.is_hidden("#review-progress")
    first = page.wait_for_selector("#review-marks li button")
    words = first.inner_text()
    found = re.match(r"Move (\d+) · (.+?): (.+) — the bot preferred (.+); .+'s chances (\d+)% → (\d+)%", words)
    assert found, words
    assert int(found.group(5)) > int(found.group(6))  # the mover's chances fell across the move
    first.click()
    page.wait_for_selector("#replay:not([hidden])")
    line = page.wait_for_selector("#rp-review:not([hidden])")
    assert line.inner_text().startswith("The bot's estimate here:")
    assert f"played {found.group(3)}" in line.inner_text() and line.get_attribute("class") == "review-line marked"
    assert page.input_value("#rp-slider") == str(int(found.group(1)) - 1)  # the position the move was chosen in
    page.reload()  # the review is kept: the end screen shows it without asking again
    page.wait_for_selector("#review-marks li button")
    assert page.is_hidden("#review-button")
