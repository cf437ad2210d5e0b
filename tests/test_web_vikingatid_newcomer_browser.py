"""What a newcomer to Vikingatid finds from the web table alone, in Chromium: the rules one click from the prompt
(the game in brief: goal, end, the eleven phases, victory points, the glossary; and this step's own rule), the
lobby's way to the same rules page, and the cards readable in full — the hand as cards (Swedish title, English
name, whole text, when each may be played and what it needs), the whole deck's list, and a card's full text in
every choice that names it, never cut."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from skald.engine import get_game
from web_support import Server

pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
SEATS = [
    {"kind": "human", "name": "Astrid"},
    {"kind": "bot", "bot": "random", "name": "Bjorn"},
    {"kind": "bot", "bot": "random", "name": "Sigrid"},
]


@pytest.fixture(name="page")
def page_fixture(browser: Any) -> Iterator[Any]:
    """A desktop page that records script errors (`page.errors`)."""
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)  # lets the test evaluate its waits
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def at_my_decision(page: Any, server: Server) -> dict[str, Any]:
    """A 3-player default Vikingatid game against two bots, opened at the person's seat at a decision."""
    game = server.create(SEATS, game="vikingatid")
    page.goto(game["invites"][0]["url"])
    page.wait_for_function("window.skaldState !== undefined && window.skaldState.mine", timeout=60_000)
    return game


def test_the_rules_button_beside_the_prompt_opens_the_game_in_brief_and_this_steps_rule(
    page: Any, server: Server
) -> None:
    at_my_decision(page, server)
    button = page.locator("#rules-button")
    assert button.is_visible()
    # Beside the prompt: on the same row, to its right.
    prompt_box, button_box = page.locator("#prompt").bounding_box(), button.bounding_box()
    assert abs(prompt_box["y"] - button_box["y"]) < 20 and button_box["x"] > prompt_box["x"]
    assert page.locator("#rules-panel").is_hidden()
    button.click()
    page.wait_for_selector("#game-rules h3")
    panel = page.locator("#rules-panel").inner_text()
    for heading in ("The goal", "How the game ends", "A turn: the eleven phases", "Victory points", "Glossary"):
        assert heading in panel, heading
    for number in range(1, 12):
        assert f"{number}. " in panel
    assert "the most VP at the end wins" in panel and "Danavalde (Denmark)" in panel
    assert "This step" in panel  # the step's own rule, as the game says it to the seat to act
    step_rule = page.locator("#step-rules").inner_text()
    assert "rules/004" in step_rule
    assert page.locator("#rules-page-link").get_attribute("href") == "/rules/vikingatid"
    page.click("#rules-close")
    assert page.locator("#rules-panel").is_hidden()
    assert page.errors == []


def test_the_lobby_leads_to_the_same_rules_page(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=vikingatid]", state="attached")
    page.select_option("#game", "vikingatid")
    link = page.locator("#rules-link")
    assert link.get_attribute("href") == "/rules/vikingatid"
    rules = page.context.new_page()
    rules.goto(server.url + "/rules/vikingatid")
    text = rules.locator("main").inner_text()
    assert "The game in brief" in text and "Glossary" in text
    assert get_game("vikingatid").title in rules.locator("h1").inner_text()
