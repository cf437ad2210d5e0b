"""Tables for everyone, in Debian's Chromium: axe-core's WCAG 2.1 A and AA rules on every page a person
meets, a whole game played by keyboard alone, the board's targets as named buttons, and others' moves said in one
polite live region.

axe-core is Deque's rules engine (the npm package's `axe.min.js`, packaged for Playwright by
`axe-playwright-python`). Each page is checked as it stands: the lobby before and after a game is made; for
Vikings, Vikingdoms and Vikingatid a seat's table and a spectator's; the end screen; and the replay.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from browser_support import SHOTS, asked_plies, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from test_web_api import Socket, play_out
from web_support import Server

pytest.importorskip("playwright.sync_api")
sync_axe = pytest.importorskip("axe_playwright_python.sync_playwright")

#: WCAG 2.0 and 2.1, levels A and AA.
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
DESKTOP = {"width": 1280, "height": 800}
AGAINST_A_BOT = [{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "greedy", "name": "Bot"}]


def page_at(browser: Any, url: str | None = None) -> Any:
    """A desktop page (bypass_csp lets Playwright evaluate its waits and axe)."""
    page = browser.new_context(viewport=DESKTOP, bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    if url:
        page.goto(url)
    return page


def violations(page: Any) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the page as it stands, one line per element at fault."""
    found = sync_axe.Axe().run(page, options=WCAG).response["violations"]
    return [f"{rule['id']}: {node['target']} {node['failureSummary']}" for rule in found for node in rule["nodes"]]


def at_table(page: Any, url: str, mine: bool) -> None:
    page.goto(url)
    page.wait_for_function("window.skaldState !== undefined" + (" && window.skaldState.mine" if mine else ""))
    page.wait_for_selector("#board svg")


def test_the_lobby_has_no_wcag_violation_before_and_after_a_game_is_made(browser: Any, server: Server) -> None:
    page = page_at(browser, server.url + "/")
    page.wait_for_selector("#seats .seat")
    assert violations(page) == []
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    assert violations(page) == []
    assert page.errors == []


@pytest.mark.parametrize("game", ["vikings", "vikingdoms", "vikingatid"])
def test_a_seats_and_a_spectators_table_have_no_wcag_violation(browser: Any, server: Server, game: str) -> None:
    made = server.create(AGAINST_A_BOT, game=game)
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    assert violations(page) == []
    at_table(page, made["spectator_url"], mine=False)
    assert violations(page) == []
    assert page.errors == []


@pytest.mark.parametrize("game", ["vikings", "vikingdoms"])
def test_the_end_screen_and_the_replay_have_no_wcag_violation(browser: Any, server: Server, game: str) -> None:
    made = server.create(AGAINST_A_BOT, game=game)
    seat = Socket(server, made["id"], made["invites"][0]["token"])
    play_out(seat)
    seat.close()
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=False)
    page.wait_for_selector("#end:not([hidden])")
    assert violations(page) == []
    page.click("#replay-button")
    page.wait_for_selector("#rp-board svg")
    page.click("#rp-prev")
    page.wait_for_function("document.querySelector('#rp-label').textContent.includes('/')")
    assert violations(page) == []
    assert page.errors == []


def test_a_whole_game_is_played_by_keyboard_alone_and_the_focus_never_falls_to_the_page(
    browser: Any, server: Server
) -> None:
    """Tab reaches the choices; Enter plays the one in focus. After each move the focus is on the first new choice
    (or the choices' heading while the bot moves), so pressing Enter again plays on: the page never loses it."""
    made = server.create(AGAINST_A_BOT, game="vikings")
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    for _ in range(40):  # Tab from the top of the page to the first choice
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#actions .act')"):
            break
    else:
        raise AssertionError("Tab never reached the choices")
    moves = 0
    while True:
        page.wait_for_function(
            "window.skaldState.status === 'over' || (window.skaldState.mine && !window.skaldState.pending)"
        )
        if page.evaluate("window.skaldState.status") == "over":
            break
        focused = page.evaluate("document.activeElement.matches('#actions .act, #actions .amount *')")
        assert focused, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        version = page.evaluate("window.skaldState.version")
        page.keyboard.press("Enter")
        moves += 1
        page.wait_for_function(f"window.skaldState.version > {version}")
        assert page.evaluate("document.activeElement !== document.body"), "the focus fell to the page"
        assert moves < 400, "the game never ended"
    page.wait_for_selector("#end:not([hidden])")
    assert moves >= 20 and asked_plies(server, made["id"], 0) == moves  # each Enter one move, none missed
    assert page.errors == []


def test_the_boards_targets_are_named_buttons_that_arrows_move_between_and_enter_plays(
    browser: Any, server: Server
) -> None:
    made = server.create(AGAINST_A_BOT, game="vikings")
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    targets = page.locator("#board .legal")
    count = targets.count()
    assert count >= 2
    # A forbidden target (the 0-Group, while others are affordable) is reached by the arrows too, and says why.
    forbidden = page.locator("#board .forbidden")
    zero_allowed = any(entry["notation"] == "buy 0" for entry in page.evaluate("skald.store.view.legal"))
    assert forbidden.count() >= 1 or zero_allowed
    if forbidden.count():
        targets.first.focus()
        page.keyboard.press("ArrowLeft")  # from the first target round to the last: a forbidden one
        assert page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "true"
        page.wait_for_selector("#tooltip:not([hidden])")
        reason = page.locator("#tooltip").inner_text()
        assert reason and reason != "allowed"
        page.keyboard.press("Escape")
        page.wait_for_selector("#tooltip", state="hidden")
        page.keyboard.press("ArrowRight")
    described = targets.evaluate_all(
        "(nodes) => nodes.map((n) => ['role', 'tabindex', 'aria-label'].map((name) => n.getAttribute(name)))"
    )
    assert all(role == "button" and label for role, _, label in described[:count]), described
    # One Tab stop for the whole board; the words are the game's: its notation, its label and the drawn thing.
    assert [tabindex for _, tabindex, _ in described].count("0") == 1
    legal = {entry["notation"]: entry for entry in page.evaluate("skald.store.view.legal")}
    first = described[0][2]
    notation = first.split(" — ")[0]
    assert notation in legal and legal[notation]["label"] in first
    assert page.locator("#board svg").get_attribute("role") == "group"
    targets.first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == described[1][2]
    page.keyboard.press("ArrowLeft")
    version = page.evaluate("window.skaldState.version")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.skaldState.version > {version}")
    assert page.locator("#log li.seat-0").last.inner_text().endswith(notation)


def test_others_moves_and_the_prompt_are_said_once_in_one_polite_live_region(browser: Any, server: Server) -> None:
    """The announcer (role status, polite) says each move by the bot under its name, then the prompt when it
    changes; the board and the prompt are not live regions themselves."""
    made = server.create(AGAINST_A_BOT, game="vikings")
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    assert page.locator("#board").get_attribute("aria-live") is None
    assert page.locator("#prompt").get_attribute("aria-live") is None and page.locator("#prompt").get_attribute(
        "role"
    ) not in ("status", "alert", "log")
    for _ in range(6):  # the person's moves, until the bot has moved
        version = page.evaluate("window.skaldState.version")
        page.locator("#actions .act").first.click()
        page.wait_for_function(f"window.skaldState.version > {version}")
        page.wait_for_function("window.skaldState.mine && !window.skaldState.pending")
        if page.locator("#log li.seat-1").count():
            break
    said = page.get_by_role("status").filter(has_text="Bot:").aria_snapshot()
    bot_moves = page.locator("#log li.seat-1").all_inner_texts()
    told = [f"Bot: {move.removeprefix('Bot ').strip()}" for move in bot_moves]
    assert bot_moves and all(line in said for line in told), (said, bot_moves)
    assert "Your turn" in said
    prompts = [line for line in said.splitlines() if "Your turn" in line or " to move" in line]
    assert all(one != other for one, other in pairwise(prompts)), "a prompt is said again unchanged"


@pytest.mark.parametrize("zoom", ["320px", "200%"])
def test_the_pages_reflow_at_320_css_px_and_at_200_percent_zoom_without_scrolling_sideways(
    browser: Any, server: Server, zoom: str
) -> None:
    """WCAG 1.4.10 Reflow: at 320 CSS px wide (a 1280 px window at 400% zoom) nothing but the board's own frame
    scrolls sideways; at 200% zoom (a 640 px wide window) likewise."""
    width = 320 if zoom == "320px" else DESKTOP["width"] // 2
    page = browser.new_context(viewport={"width": width, "height": 700}, bypass_csp=True).new_page()
    made = server.create(AGAINST_A_BOT, game="vikings")
    for url, ready in (
        (server.url + "/", "#seats .seat"),
        (made["invites"][0]["url"], "#board svg"),
        (made["spectator_url"], "#board svg"),
    ):
        page.goto(url)
        page.wait_for_selector(ready)
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, (url, wide)


@pytest.mark.parametrize("game", ["vikings", "vikingdoms", "vikingatid"])
def test_the_table_in_words_is_the_games_own_text_for_the_viewer(browser: Any, server: Server, game: str) -> None:
    """Beneath the board, a disclosure holds the table as the terminal shows it to this viewer
    (`State.render_text`, compared in two worlds by `skald check`): every seat's name is in it."""
    made = server.create(AGAINST_A_BOT, game=game)
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    page.click("#text-table summary")
    text = page.locator("#text-board").inner_text()
    assert "Astrid" in text and "Bot" in text
    assert page.locator("#text-board").is_visible()


def test_a_vikingdoms_stack_is_moved_by_keyboard_through_its_pick(browser: Any, server: Server) -> None:
    """A Vikingdoms stack whose Vikings may move is a focusable pick holding its choices: Enter opens them (the
    focus goes to the first, shown with a focus ring), arrows move between them, Esc comes back to the pick, and
    Enter on a choice moves the stack."""
    made = server.create(AGAINST_A_BOT, game="vikingdoms")
    page = page_at(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    for _ in range(12):
        page.wait_for_function("window.skaldState.mine && !window.skaldState.pending")
        picks = page.locator("#board .pick[role=button]:has(.option.legal)")
        if picks.count():
            break
        version = page.evaluate("window.skaldState.version")
        page.locator("#actions .act").first.click()  # place a Viking, until a stack stands to be moved
        page.wait_for_function(f"window.skaldState.version > {version}")
    else:
        raise AssertionError("no stack could move in the first turns")
    pick = picks.first
    assert pick.get_attribute("aria-label")
    pick.focus()
    page.keyboard.press("Enter")
    shown = "document.activeElement.getClientRects().length > 0"
    assert page.evaluate(f"document.activeElement.matches('.option.legal[role=button]') && {shown}")
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.classList.contains('pick')")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == first
    version = page.evaluate("window.skaldState.version")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.skaldState.version > {version}")
    assert page.locator("#log li.seat-0").last.inner_text().split(" ", 1)[1] == first.split(" — ")[0]
