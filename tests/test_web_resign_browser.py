"""Resigning and the draw at the web table in headless Chromium (Debian's `chromium`, driven by Playwright): a draw
offered by one person reaches the other, who declines it; "Resign…" asks to be confirmed, can be called off, and
once confirmed ends a game of two, the resigner listed last in the standings, the log and his seat's panel."""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")


def seated(browser: Any, url: str) -> Any:
    """A page at the table through an invite link, once it has drawn its first view."""
    page = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()
    page.goto(url)
    page.wait_for_function("window.skaldState !== undefined && window.skaldState.you !== null")
    return page


def test_a_person_declines_a_draw_then_the_other_resigns_after_confirming(browser: Any, server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bjorn"}])
    astrid, bjorn = (seated(browser, invite["url"]) for invite in game["invites"])
    astrid.click("#draw-offer-button")
    bjorn.wait_for_selector("#draw-offer:has-text('Astrid offers a draw')")
    astrid.wait_for_selector("#draw-offered")
    bjorn.click("#draw-decline")
    astrid.wait_for_selector("#draw-offer-button")
    bjorn.wait_for_selector("#draw-offer-button")

    astrid.click("#resign-button")
    assert "ranked last" in astrid.locator("#resign-question").inner_text()
    assert astrid.evaluate("document.activeElement.id") == "resign-confirm"
    astrid.click("#resign-cancel")  # called off: nothing was sent
    astrid.wait_for_selector("#resign-button")
    assert astrid.evaluate("skald.store.view.status") == "playing"
    astrid.click("#resign-button")
    astrid.click("#resign-confirm")
    for page in (astrid, bjorn):
        page.wait_for_selector("#end:not([hidden])")
        rows = page.locator("#standings tbody tr")
        assert rows.nth(0).locator("td").nth(1).inner_text() == "Bjorn"
        assert rows.nth(1).locator("td").nth(1).inner_text() == "Astrid (resigned)"
        assert page.locator("#tie-break").inner_text().startswith("Winner: Bjorn")
        assert "Astrid resigns" in page.locator("#log li.departure").inner_text()
        assert "resigned" in page.locator("#seat-panels [data-seat='0']").inner_text()
        assert page.locator("#departing").is_hidden()
    SHOTS.mkdir(parents=True, exist_ok=True)
    bjorn.screenshot(path=str(SHOTS / "table-resigned.png"), full_page=True)
