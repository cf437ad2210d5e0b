"""The seats' clocks in Chromium (Debian's `chromium`, driven by Playwright): every seat panel shows its clock, the
running one counts down, and under its warning it turns red and tells its player that it is nearly out; the lobby
offers the time controls."""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")


def test_every_seat_panel_shows_its_clock_and_the_running_one_warns_near_zero(browser: Any, server: Server) -> None:
    game = server.create(
        [{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bjorn"}],
        clock={"kind": "live", "bank": 13, "increment": 2},
    )
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(game["invites"][0]["url"])
    page.wait_for_function("window.skaldState !== undefined && skald.store.view.to_move !== null")
    mover = page.evaluate("skald.store.view.to_move")
    clocks = page.locator("#seat-panels .clock")
    assert clocks.count() == 2
    page.wait_for_function(f"document.querySelector('.clock[data-clock=\"{1 - mover}\"]').textContent === '0:13'")
    page.wait_for_selector(f".clock.low[data-clock='{mover}']")  # under 10 s: red
    assert page.locator(f".clock[data-clock='{1 - mover}']").get_attribute("class") == "clock"
    if mover == 0:
        page.wait_for_function("document.getElementById('announcer').textContent.includes('nearly out')")
    page.goto(server.url + "/")
    page.wait_for_selector("#clock option", state="attached")
    labels = page.locator("#clock option").all_inner_texts()
    assert labels[0] == "None" and any(label.startswith("Live") for label in labels)
    assert any(label.startswith("Turn-based") for label in labels)
