"""Your turn, told to a player who is not looking, in Chromium.

The table's tab says "● Your turn" in its title and puts a red dot on its icon while the seat's move is awaited; a
seat that asked for it ("Notify me on my turn", with the browser's permission) gets one notification when the turn
comes while its tab is in the background, and none while it looks at the table or if it did not ask. The lobby's
"Your games" lists the games awaiting this browser's move first, and its tab counts them.

Headless Chromium shows every tab as visible, so the tests put a tab in the background through the page's own
`document.visibilityState` (an init script), and count the notifications the page makes (the browser's own
`Notification`, wrapped to count what it is given). The permission is the browser's, granted to the context.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")

#: Before the page's scripts: a visibility the test can set, and a record of every notification made.
INIT = """
window.__background = false;
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__background ? "hidden" : "visible"; } });
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return window.__background; } });
window.__notes = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__notes.push({ title, body: (options || {}).body }); }
  };
}
"""
TWO_PEOPLE = [{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bjorn"}]


def open_seat(browser: Any, server: Server, game_id: str, token: str) -> Any:
    """A page at the table in a fresh browser context (its own storage) that may show notifications."""
    context = browser.new_context(bypass_csp=True)
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(INIT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"{server.url}/table/{game_id}#t={token}")
    page.wait_for_function("window.skaldState !== undefined")
    return page


def mover(pages: list[Any]) -> int:
    """The index of the page whose seat is to move, once one is (chance may move first)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for index, page in enumerate(pages):
            state = page.evaluate("window.skaldState")
            if state and state["mine"] and not state["pending"]:
                return index
        time.sleep(0.05)
    raise AssertionError("no seat came to move")


def play_first(page: Any) -> None:
    """The seat plays its first legal choice, and the page hears back."""
    version = page.evaluate("window.skaldState.version")
    page.evaluate(
        "skald.send({ type: 'move', version: skald.store.view.version, action: skald.store.view.legal[0].action })"
    )
    page.wait_for_function(f"window.skaldState.version > {version}")


def play_until_turn_of(pages: list[Any], wanted: int) -> None:
    """Whoever is to move plays its first choice until the `wanted` page's seat is to move."""
    for _ in range(60):
        index = mover(pages)
        if index == wanted:
            return
        play_first(pages[index])
    raise AssertionError("the turn never came")


def set_background(page: Any, background: bool) -> None:
    page.evaluate(
        f"window.__background = {'true' if background else 'false'};"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )


def shows_your_turn(page: Any) -> tuple[bool, str]:
    """Whether the tab's title says it is this seat's turn, and its icon's state."""
    title, waiting = page.evaluate("[document.title, document.getElementById('favicon').dataset.waiting]")
    return title.startswith("● Your turn"), waiting


def test_a_background_tab_is_notified_once_when_the_turn_comes_and_only_if_its_seat_asked(
    browser: Any, server: Server
) -> None:
    game = server.create(TWO_PEOPLE, game="vikingdoms")
    astrid = open_seat(browser, server, game["id"], game["invites"][0]["token"])
    bjorn = open_seat(browser, server, game["id"], game["invites"][1]["token"])
    pages = [astrid, bjorn]
    title = astrid.evaluate("skald.store.game.title")

    # Astrid asks for notifications; Bjorn does not.
    button = astrid.get_by_role("button", name="Notify me on my turn")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert bjorn.get_by_role("button", name="Notify me on my turn").get_attribute("aria-pressed") == "false"

    # Astrid's tab goes to the background while Bjorn is to move; her turn comes: one notification, in her words.
    play_until_turn_of(pages, 1)
    assert shows_your_turn(astrid) == (False, "no")
    assert shows_your_turn(bjorn) == (True, "yes")
    set_background(astrid, True)
    play_until_turn_of(pages, 0)
    astrid.wait_for_function("window.__notes.length > 0")
    notes = astrid.evaluate("window.__notes")
    assert len(notes) == 1
    assert notes[0]["title"] == f"Your turn — {title}"
    assert notes[0]["body"] and notes[0]["body"][0].isupper()
    assert shows_your_turn(astrid) == (True, "yes")
    assert shows_your_turn(bjorn) == (False, "no")

    # Bjorn, in the background too, never asked: his turn comes and nothing is shown to him.
    set_background(bjorn, True)
    play_until_turn_of(pages, 1)
    assert shows_your_turn(bjorn) == (True, "yes")
    assert bjorn.evaluate("window.__notes.length") == 0

    # Astrid looks at the table again: her next turn comes without a notification; the title still tells her.
    set_background(astrid, False)
    play_until_turn_of(pages, 0)
    assert shows_your_turn(astrid) == (True, "yes")
    assert astrid.evaluate("window.__notes.length") == 1

    # She turns notifications off: in the background, her next turn brings none.
    astrid.get_by_role("button", name="Notify me on my turn").click()
    assert button.get_attribute("aria-pressed") == "false"
    play_first(astrid)
    set_background(astrid, True)
    play_until_turn_of(pages, 0)
    assert astrid.evaluate("window.__notes.length") == 1
    assert astrid.errors == [] and bjorn.errors == []


def to_move(server: Server, game_id: str, token: str) -> tuple[int, int]:
    """(the seat to move, the token's seat) once a seat is to move."""
    for _ in range(200):
        status, summary = server.request("GET", f"/api/games/{game_id}", token=token)
        assert status == 200, summary
        if summary["to_move"] is not None:
            return summary["to_move"], summary["you"]
        time.sleep(0.05)
    raise AssertionError("no seat came to move")


def test_your_games_lists_those_awaiting_your_move_first_and_the_tab_counts_them(browser: Any, server: Server) -> None:
    waiting, not_waiting = (server.create(TWO_PEOPLE, game="vikingdoms") for _ in range(2))
    # This browser holds the seat to move in the first game and the other seat in the second.
    tokens = {}
    for game, wanted_to_move in ((waiting, True), (not_waiting, False)):
        seat, _ = to_move(server, game["id"], game["invites"][0]["token"])
        holder = seat if wanted_to_move else 1 - seat
        tokens[game["id"]] = game["invites"][holder]["token"]
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    # The second game is joined last: newest first alone would list it first.
    for game in (waiting, not_waiting):
        page.goto(f"{server.url}/table/{game['id']}#t={tokens[game['id']]}")
        page.wait_for_function("window.skaldState !== undefined")
    page.goto(f"{server.url}/")
    page.wait_for_function("document.title.startsWith('(1) ')")
    rows = page.locator("#mine-table tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("a").get_attribute("href") == f"/table/{waiting['id']}"
    assert rows.nth(0).locator(".turn").inner_text() == "your turn"
    assert rows.nth(1).locator("a").get_attribute("href") == f"/table/{not_waiting['id']}"
    assert rows.nth(1).locator(".turn").inner_text().endswith("to move")
    assert page.evaluate("document.getElementById('favicon').dataset.waiting") == "yes"
