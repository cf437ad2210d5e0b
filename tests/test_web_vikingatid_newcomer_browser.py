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


def move_until(page: Any, condition: str, limit: int = 80) -> None:
    """Make the person's moves (a pass where offered, else the first choice) until `condition` (JavaScript) holds
    at one of his decisions."""
    for _ in range(limit):
        if page.evaluate(condition):
            return
        assert page.evaluate("window.skaldState.status") != "over", "the game ended first"
        version = page.evaluate(
            """() => { const view = skald.store.view;
              const pick = view.legal.find((l) => l.action.type === "pass") || view.legal[0];
              skald.store.pending = true;
              skald.send({ type: "move", version: view.version, action: pick.action, ref: ++skald.store.refs });
              return view.version; }"""
        )
        page.wait_for_function(
            f"window.skaldState.version > {version} && window.skaldState.mine && !window.skaldState.pending",
            timeout=60_000,
        )
    raise AssertionError(f"not reached in {limit} decisions: {condition}")


def test_the_hand_is_shown_as_whole_cards_with_when_and_what_they_need(page: Any, server: Server) -> None:
    """The hand as cards: each with its Swedish title and English name, its whole text as printed, when it may be
    played and what it needs; the whole deck's list one click away; and every choice that names a card gives its
    whole text, never cut with "…"."""
    at_my_decision(page, server)
    move_until(page, "(skald.store.view.hand_cards || []).length > 0")
    page.wait_for_selector("#hand-card:not([hidden]) li.card-face")
    # Keyed by title and name: PEST!'s three cards share their title.
    kinds = {(kind.title, kind.name): kind for kind in get_game("vikingatid").cards.kinds}  # type: ignore[attr-defined]
    faces = page.locator("#hand li.card-face")
    assert faces.count() >= 1
    for i in range(faces.count()):
        card = faces.nth(i)
        kind = kinds[(card.locator(".card-title").inner_text(), card.locator(".card-name").inner_text())]
        assert card.locator(".card-text").inner_text() == " ".join(kind.text.split())
        assert card.locator(".card-when").inner_text().startswith("When: ")
        assert card.locator(".card-needs").inner_text().startswith("Needs: ")
    # The whole deck, from the table.
    page.click("#deck-button")
    page.wait_for_selector("#deck-list li.card-face")
    listed = page.locator("#deck-list li.card-face")
    assert listed.count() == len(kinds) == 42
    deck_text = page.locator("#deck-list").inner_text()
    for kind in kinds.values():
        assert " ".join(kind.text.split()) in deck_text, kind.title
    page.click("#rules-close")
    # A choice naming a card says its whole text; nothing on the table is cut with "…".
    move_until(page, "skald.store.view.legal.some((l) => l.action.type === 'play')")
    labels = page.evaluate("skald.store.view.legal.filter((l) => l.action.type === 'play').map((l) => l.label)")
    for label in labels:
        kind = next(kind for kind in kinds.values() if label.startswith(kind.name + ": "))
        assert label == f"{kind.name}: {' '.join(kind.text.split())}"
        button = page.locator(f"#actions button.act[title='{label}']") if "'" not in label else None
        if button is not None:
            assert button.count() == 1 and label in button.inner_text()
    assert "…" not in page.locator("#actions").inner_text() and "…" not in page.locator("#hand").inner_text()
    assert page.locator("#hand li.card-face.playable .card-now").count() >= 1  # "You may play it now."
    assert page.errors == []
