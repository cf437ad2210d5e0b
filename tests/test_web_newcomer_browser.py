"""A newcomer's whole game of Vikingatid in Chromium, on a desktop screen and on a phone: made in the lobby (three
players, the default options, two bots), then played to its end by clicks (taps on the phone) alone — on a choice
button or a target on the map, picked at random as someone who does not know the game yet would — and learned from
the table page alone: the rules one click from the prompt (the goal, the end, the eleven phases, the glossary), every
card in the hand with its whole text (never cut with "…"), the others' moves shown one at a time at the default pace
with each die saying what it decided, and at the end why the game ended, every scoring and the standings whole."""

from __future__ import annotations

import random
import re
from itertools import pairwise
from typing import Any

import pytest

from browser_support import PHONE, SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from skald.engine import get_game
from web_support import Server

pytest.importorskip("playwright.sync_api")

#: A laptop's screen, and the names at the table.
DESKTOP = {"width": 1366, "height": 768}
PERSON, BOTS = "Astrid", ["Bjorn", "Sigrid"]
#: The bots the lobby offers that answer at once (the table is the subject here, not the bots' play).
BOT = "random"
#: At the default pace, how many updates bringing the others' moves are watched before the newcomer picks "fast".
WATCHED = 3
CARDS = {(kind.title, kind.name): kind for kind in get_game("vikingatid").cards.kinds}  # type: ignore[attr-defined]

#: The choice buttons and an amount's Confirm (a draft's Send is pressed after the choice that made it).
CHOICES = "#actions button.act, #actions .amount .confirm"
#: What a newcomer can press now (the map's legal targets and the choices), the version shown and how many of his
#: moves the log holds.
OFFERED = """(choices) => {
  const buttons = [...document.querySelectorAll(choices)];
  const shown = !document.getElementById('hand-card').hidden;
  return { board: document.querySelectorAll('#board .legal').length, buttons: buttons.length,
    texts: buttons.map((b) => b.innerText), version: window.skaldState.version,
    mine: document.querySelectorAll('#log li.seat-0').length,
    hand: shown ? [...document.querySelectorAll('#hand li.card-face')].map((card) => ({
      title: card.querySelector('.card-title').innerText,
      name: (card.querySelector('.card-name') || { innerText: '' }).innerText,
      text: card.querySelector('.card-text').innerText,
      when: card.querySelector('.card-when').innerText,
      needs: card.querySelector('.card-needs').innerText,
    })) : [],
    handText: shown ? document.getElementById('hand').innerText : '' };
}"""

#: The middle of the shape a board target draws (its first rectangle, circle or path), brought to the middle of the
#: screen: where a person clicks or taps it.
AIM = """(node) => {
  node.scrollIntoView({ block: 'center', inline: 'center' });
  const shape = node.matches('rect, circle, path, polygon') ? node
    : node.querySelector('rect, circle, path, polygon') || node;
  const box = shape.getBoundingClientRect();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}"""

#: Each column heading of the standings, scrolled into view: whether it is then wholly inside its scrolling box and
#: the screen (not clipped).
STANDINGS = """() => {
  const scroller = document.querySelector('#end .table-scroll');
  const box = () => scroller.getBoundingClientRect();
  return [...document.querySelectorAll('#standings th')].map((th) => {
    th.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const cell = th.getBoundingClientRect();
    const frame = box();
    const inside = cell.left >= frame.left - 0.5 && cell.right <= frame.right + 0.5
      && cell.left >= -0.5 && cell.right <= document.documentElement.clientWidth + 0.5;
    return [th.innerText, inside];
  });
}"""


def newcomer(browser: Any, touch: bool) -> Any:
    """A page at the default pace (one that never chose one), on a desktop screen or a phone's touch screen; it
    records script errors (`page.errors`). bypass_csp lets Playwright evaluate its waits."""
    if touch:
        context = browser.chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    else:
        context = browser.chromium.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.touch = touch
    return page


def press(page: Any, target: Any) -> None:
    """Click `target` (a tap on a touch screen)."""
    if page.touch:
        target.tap()
    else:
        target.click()


def press_on_board(page: Any, target: Any) -> None:
    """Click or tap a board target where a person would: on the shape it draws."""
    at = target.evaluate(AIM)
    if page.touch:
        page.touchscreen.tap(at["x"], at["y"])
    else:
        page.mouse.click(at["x"], at["y"])


def make_the_game_in_the_lobby(page: Any, server: Server) -> None:
    """In the lobby: Vikingatid, three players, the newcomer and two bots, the default options; then at the table."""
    page.goto(server.url + "/")
    page.wait_for_selector("#game option[value=vikingatid]", state="attached")
    page.select_option("#game", "vikingatid")
    page.select_option("#players", "3")
    seats = page.locator("#seats .seat")
    seats.nth(0).locator(".seat-name").fill(PERSON)
    for i, name in enumerate(BOTS, start=1):
        seats.nth(i).locator(".seat-kind").select_option("bot")
        seats.nth(i).locator(".seat-bot").select_option(BOT)
        seats.nth(i).locator(".seat-name").fill(name)
    press(page, page.locator("#create-button"))
    page.wait_for_selector("#created:not([hidden])", timeout=60_000)
    press(page, page.locator("#invites-done"))
    page.wait_for_selector("#created", state="hidden")


def at_my_decision(page: Any) -> bool:
    """Wait until the newcomer is asked (True) or the game is over (False)."""
    page.wait_for_function(
        "window.skaldState !== undefined && (window.skaldState.status === 'over'"
        " || (window.skaldState.mine && !window.skaldState.pending))",
        timeout=120_000,
    )
    return bool(page.evaluate("window.skaldState.status") != "over")


def decide(page: Any, rng: random.Random, offered: dict[str, Any] | None = None) -> None:
    """Make one of the newcomer's decisions: the map or the choice buttons, as likely as each other, and there a
    target or a button at random; then Send if the choice is held as a draft. Asserts it was made (his move is in
    the log) and that no choice is cut with "…". `offered`: what the page offers, if read already."""
    offered = offered or page.evaluate(OFFERED, CHOICES)
    assert not any("…" in text for text in offered["texts"]), offered["texts"]
    assert offered["board"] or offered["buttons"], page.locator("#prompt").inner_text()
    version, mine = offered["version"], offered["mine"]
    if offered["board"] and (not offered["buttons"] or rng.random() < 0.5):
        press_on_board(page, page.locator("#board .legal").nth(rng.randrange(offered["board"])))
    else:
        press(page, page.locator(CHOICES).nth(rng.randrange(offered["buttons"])))
    made = f"window.skaldState.version > {version} && document.querySelectorAll('#log li.seat-0').length > {mine}"
    page.wait_for_function(f"({made}) || !window.skaldState.pending || document.getElementById('draft-send')")
    if page.locator("#draft-send").count():
        assert "cannot be taken back" in page.locator("#draft").inner_text()
        press(page, page.locator("#draft-send"))
    page.wait_for_function(f"({made}) || !window.skaldState.pending")
    assert page.evaluate(made), page.evaluate("skald.store.view.prompt")


def read_the_rules(page: Any) -> None:
    """The Rules button beside the prompt opens the game in brief and this step's rule; it closes again."""
    press(page, page.locator("#rules-button"))
    page.wait_for_selector("#game-rules h3")
    panel = page.locator("#rules-panel").inner_text()
    for heading in ("The goal", "How the game ends", "A turn: the eleven phases", "Victory points", "Glossary"):
        assert heading in panel, heading
    phases = page.locator("#game-rules").inner_text()
    assert all(f"{number}. " in phases for number in range(1, 12))
    assert "the most VP at the end wins" in panel
    assert "This step" in page.locator("#step-rules").inner_text()
    press(page, page.locator("#rules-close"))
    page.wait_for_selector("#rules-panel", state="hidden")


def read_the_hand(page: Any, offered: dict[str, Any], read: set[tuple[str, str]]) -> None:
    """Every card in the hand (as `offered` read it) shows its whole text as printed, when it may be played and
    what it needs; the first time, the whole deck's list is opened from the hand too. `read`: the cards read so
    far."""
    hand = offered["hand"]
    for card in hand:
        kind = CARDS[(card["title"], card["name"])]
        assert card["text"] == " ".join(kind.text.split()), card
        assert card["when"].startswith("When: ") and card["needs"].startswith("Needs: ")
    assert "…" not in offered["handText"]
    if hand and not read:
        press(page, page.locator("#deck-button"))
        page.wait_for_selector("#deck-list li.card-face")
        assert page.locator("#deck-list li.card-face").count() == len(CARDS)
        press(page, page.locator("#rules-close"))
        page.wait_for_selector("#rules-panel", state="hidden")
    read.update((card["title"], card["name"]) for card in hand)


def watch_at_the_default_pace(page: Any, rng: random.Random) -> None:
    """At the pace a browser starts with, each update bringing another seat's move stays in view at least 0.5 s
    before the next is drawn, and what happened since the newcomer's last move is summed up at his prompt with the
    bots' names; then he picks the fast pace."""
    assert page.locator("#pace-select").input_value() == "human"
    held = "window.skaldPace.shown.filter((s, i, all) => s.others && i + 1 < all.length).length"
    summed: set[str] = set()
    while page.evaluate(held) < WATCHED:
        assert at_my_decision(page), "the game ended before the others moved"
        if page.locator("#since").is_visible():
            summary = page.locator("#since summary").inner_text()
            assert summary.startswith("Since your last move: ")
            summed.update(name for name in BOTS if name in summary)
        if page.evaluate(held) >= WATCHED:
            break
        decide(page, rng)
    shown = page.evaluate("window.skaldPace.shown")
    gaps = [after["at"] - before["at"] for before, after in pairwise(shown) if before["others"]]
    assert len(gaps) >= WATCHED and min(gaps) >= 500, gaps
    # Each bot's moves were drawn in an update of their own and are in the log under its name.
    for seat, name in enumerate(BOTS, start=1):
        if any(seat in update["seats"] for update in shown):
            assert page.locator(f"#log li.seat-{seat} .who").first.inner_text() == name
    assert summed, "no summary of what happened since the newcomer's last move"
    page.select_option("#pace-select", "fast")
    page.wait_for_function("document.getElementById('pace-skip').hidden")


def the_end_explained(page: Any) -> None:
    """The end says why the game ended, lists every scoring of every year, ranks the three players with every
    column of the standings in view (scrolled to, not clipped), and the log gives every die's verdict."""
    page.wait_for_selector("#end:not([hidden])")
    ending = page.locator("#ending").inner_text()
    assert re.fullmatch(r"The game ended: .+\.", ending), ending
    assert "Christian" in ending or "year track reached" in ending, ending
    reports = page.evaluate("skald.store.view.scorings")
    assert page.locator("#final-scoring details").count() == len(reports) >= 2
    assert any("victory points" in text for text in page.locator("#final-scoring summary").all_inner_texts())
    names = page.locator("#standings tbody tr td:nth-child(2)").all_inner_texts()
    assert sorted(names) == sorted([PERSON, *BOTS])
    headings = page.evaluate(STANDINGS)
    assert len(headings) >= 4 and all(inside for _, inside in headings), headings
    assert page.locator("#tie-break").inner_text().startswith("Winner")
    # Every die says what it decided: none is a bare "roll 5".
    chance = page.locator("#log li.chance").all_inner_texts()
    rolls = [text for text in chance if "roll" in text]
    assert any("danger roll" in text and "against a count of" in text and ": " in text for text in rolls)
    assert any("initiative roll" in text for text in rolls)
    assert not [text for text in rolls if re.search(r"(^|chance )roll \d+$", text)]


def play_a_whole_game_as_a_newcomer(browser: Any, server: Server, touch: bool, seed: int) -> None:
    page = newcomer(browser, touch)
    make_the_game_in_the_lobby(page, server)
    rng = random.Random(seed)
    assert at_my_decision(page)
    read_the_rules(page)
    watch_at_the_default_pace(page, rng)
    read: set[tuple[str, str]] = set()
    decisions = 0
    while at_my_decision(page):
        offered = page.evaluate(OFFERED, CHOICES)
        if offered["hand"]:
            read_the_hand(page, offered, read)
        decide(page, rng, offered)
        decisions += 1
    the_end_explained(page)
    assert read, "the newcomer never held a card"
    assert decisions >= 20
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"newcomer-{'phone' if touch else 'desktop'}-end.png"), full_page=True)
    assert page.errors == []
    page.context.close()


@pytest.mark.slow  # about 400 decisions by clicks: five minutes on two loaded cores
def test_a_newcomer_learns_and_finishes_vikingatid_from_the_table_on_a_desktop(browser: Any, server: Server) -> None:
    play_a_whole_game_as_a_newcomer(browser, server, touch=False, seed=1)


@pytest.mark.slow
def test_a_newcomer_learns_and_finishes_vikingatid_from_the_table_on_a_phone(browser: Any, server: Server) -> None:
    play_a_whole_game_as_a_newcomer(browser, server, touch=True, seed=2)
