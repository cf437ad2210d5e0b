"""The replay in Debian's Chromium: controls that render everywhere and answer the keyboard,
and the log following the replayed move.

The step buttons draw their icons (no font glyph a phone may lack) and are named for screen readers; ← and → step a
move, Home and End go to either end, Escape goes back to the table; the log marks the entry of the move just
replayed and keeps it in view.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from test_web_api import Socket, play_out
from web_support import Server

pytest.importorskip("playwright.sync_api")

#: The step buttons and the names they carry.
STEPS = {"rp-first": "First position", "rp-prev": "Previous move", "rp-next": "Next move", "rp-last": "Last position"}


def replayed(page: Any) -> list[int]:
    """The plies of the log entries marked as the replayed move."""
    marked: list[int] = page.evaluate("[...document.querySelectorAll('#log li.replayed')].map((li) => li.value)")
    return marked


def at(page: Any, ply: int) -> None:
    """Wait until the replay shows position `ply`."""
    page.wait_for_selector(f"#rp-label:text-matches('^{ply} / ')")


def test_the_replay_steps_by_drawn_buttons_and_by_keys_and_the_log_follows_the_replayed_move(
    browser: Any, server: Server
) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    ann = Socket(server, game["id"], game["invites"][0]["token"])
    version = play_out(ann, stop_at=12)["version"]  # a few moves each, so that the log has entries to follow
    ann.close()
    page = browser.new_context().new_page()
    page.goto(game["invites"][0]["url"])
    page.wait_for_selector("#who:has-text('you: Ann')")
    page.wait_for_selector(f"#log li[value='{version}']", state="attached")
    page.click("#replay-button")
    at(page, version)

    for button, name in STEPS.items():
        control = page.locator(f"#{button}")
        assert control.get_attribute("aria-label") == name
        assert control.locator("svg path").count() >= 1 and control.inner_text().strip() == ""
    assert page.locator("#rp-slider").get_attribute("aria-label") == "Position in the game"
    assert replayed(page) == [version]

    page.keyboard.press("ArrowLeft")
    at(page, version - 1)
    assert replayed(page) == [version - 1]
    page.click("#rp-prev")
    at(page, version - 2)
    assert replayed(page) == [version - 2]
    page.keyboard.press("Home")
    at(page, 0)
    assert replayed(page) == []  # the start: no move replayed yet
    page.keyboard.press("ArrowRight")
    at(page, 1)
    assert replayed(page) == [1]
    assert page.evaluate(
        """(() => { const log = document.getElementById('log').getBoundingClientRect();
                    const item = document.querySelector('#log li.replayed').getBoundingClientRect();
                    return item.top >= log.top - 1 && item.bottom <= log.bottom + 1; })()"""
    ), "the replayed move's entry is scrolled into view"
    page.keyboard.press("End")
    at(page, version)

    page.keyboard.press("Escape")
    page.wait_for_selector("#replay", state="hidden")
    assert replayed(page) == []
    assert page.evaluate("document.activeElement.id") == "replay-button"
