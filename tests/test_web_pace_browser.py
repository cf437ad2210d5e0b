"""The web table at a human pace, in Chromium: at the default pace each update bringing another seat's move stays
in view for at least 0.5 s before the next is drawn (timestamps the page records as it draws, never sleeps), and
the pace chosen is kept in the browser."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
SEATS = [
    {"kind": "human", "name": "Astrid"},
    {"kind": "bot", "bot": "random", "name": "Bjorn"},
    {"kind": "bot", "bot": "random", "name": "Sigrid"},
]


def test_at_the_default_pace_every_update_with_another_seats_move_stays_in_view_half_a_second(
    browser: Any, server: Server
) -> None:
    """docs/web.md, "A human pace": a page that never chose a pace holds each update bringing other seats' moves
    or draws in view for 0.8 s before drawing the next; the viewer's own moves come at once."""
    context = browser.chromium.new_context(viewport=DESKTOP, bypass_csp=True)  # the default pace: never chosen
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game = server.create(SEATS, game="vikingatid")
    page.goto(game["invites"][0]["url"])
    assert page.locator("#pace-select").input_value() == "human"
    held = "() => window.skaldPace.shown.filter((s, i, all) => s.others && i + 1 < all.length).length"
    for _ in range(60):
        page.wait_for_function(
            "window.skaldState !== undefined && "
            f"((window.skaldState.mine && !window.skaldState.pending) || ({held})() >= 3)",
            timeout=60_000,
        )
        if page.evaluate(held) >= 3:
            break
        page.locator("#actions button.act").first.click()
    shown = page.evaluate("window.skaldPace.shown")
    gaps = [after["at"] - before["at"] for before, after in pairwise(shown) if before["others"]]
    assert len(gaps) >= 3
    assert min(gaps) >= 500, gaps
    # "fast" is kept in the browser and draws what waits at once.
    page.select_option("#pace-select", "fast")
    assert page.evaluate("localStorage.getItem('skald.pace')") == "fast"
    page.wait_for_function("document.getElementById('pace-skip').hidden")
    assert errors == []
    context.close()
