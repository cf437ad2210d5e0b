"""Undo and Cancel at the web table in headless Chromium (Debian's `chromium`, driven by Playwright): a person takes
back a step of his Vikings turn against a bot and cannot take one back past a draw or the bot's move; a card he
chooses in the proof game (which shows it to all once sent) is held as a draft that he cancels before sending."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import proof_game
from browser_support import SHOTS, browser_fixture  # noqa: F401 (fixture: browser)
from web_support import Server, running

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real app, able to serve the proof game too, on a real SQLite file."""
    url = f"sqlite:///{tmp_path_factory.mktemp('undo-browser') / 'skald.db'}"
    with running(url, env=proof_game.subprocess_env()) as live:
        yield live


def seated(browser: Any, url: str) -> Any:
    """A page at the table through an invite link, once it is this seat's turn."""
    page = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()
    page.goto(url)
    page.wait_for_function("window.skaldState !== undefined && window.skaldState.mine && !window.skaldState.pending")
    return page


def version(page: Any) -> int:
    """The version the page shows."""
    return int(page.evaluate("window.skaldState.version"))


def test_a_person_takes_back_a_step_of_his_vikings_turn_but_not_past_a_draw_or_the_bots_move(
    browser: Any, server: Server
) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    page = seated(browser, game["invites"][0]["url"])
    start = version(page)
    # The offer was just drawn: no Undo, and an undo asked for all the same is refused, naming the draw.
    assert page.locator("#undo-button").count() == 0
    page.evaluate("skald.store.socket.send(JSON.stringify({type: 'undo', version: skald.store.view.version}))")
    page.wait_for_selector("#error:has-text('chance has drawn since')")
    assert "undo stops at a draw or a roll" in page.locator("#error").inner_text()

    bought = page.locator("#actions button.act").first.inner_text()
    page.locator("#actions button.act").first.click()
    page.wait_for_function(f"window.skaldState.version > {start} && window.skaldState.mine")
    page.click("#undo-button")
    page.wait_for_function(f"window.skaldState.version === {start} && window.skaldState.mine")
    assert page.locator("#log li.undo").inner_text() == "Ann took back 1 step"
    assert page.locator("#actions button.act").first.inner_text() == bought  # the same choices again
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-undone.png"), full_page=True)

    # His turn played out, the bot moves: no step of his is to be taken back past its move.
    while page.evaluate("window.skaldState.mine"):
        at = version(page)
        page.locator("#actions button.act").first.click()
        page.wait_for_function(f"window.skaldState.version > {at} && !window.skaldState.pending")
    page.wait_for_function("window.skaldState.mine")
    assert page.locator("#undo-button").count() == 0
    bot_moves = page.locator("#log li.seat-1").count()
    assert bot_moves > 0


def test_a_card_that_shows_what_was_hidden_is_held_as_a_draft_and_cancelled_before_it_is_sent(
    browser: Any, server: Server
) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}], game="proof")
    page = seated(browser, game["invites"][0]["url"])
    # Ann bids first: a bid before the last tells nobody anything, so it is sent at once.
    at = version(page)
    page.locator("#actions button.act").first.click()
    page.wait_for_function(f"window.skaldState.version > {at}")
    page.wait_for_function("window.skaldState.mine && !window.skaldState.pending")
    cards = page.locator("#actions button.act")
    assert cards.count() > 1
    at = version(page)
    first, second = (cards.nth(i).locator("b").inner_text() for i in (0, 1))
    cards.first.click()
    page.wait_for_selector("#draft")
    assert (
        "cannot be taken back" in page.locator("#draft").inner_text() and first in page.locator("#draft").inner_text()
    )
    page.click("#draft-cancel")  # nothing was sent: the draft is gone and the choice is open again
    page.wait_for_selector("#draft", state="detached")
    assert version(page) == at and page.evaluate("window.skaldState.mine")
    cards.nth(1).click()
    assert second in page.locator("#draft").inner_text()
    page.click("#draft-send")
    page.wait_for_function(f"window.skaldState.version > {at}")
    played = page.locator(f"#log li[value='{at + 1}']").inner_text()
    assert played == f"Ann {second}"
