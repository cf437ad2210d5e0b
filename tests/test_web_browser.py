"""The web table in headless Chromium (Debian's `chromium`, driven by Playwright), as a person uses it.

Create a 2-player game against a bot in the lobby, play it to the end by clicking the board, check
the standings; a second browser watching as a spectator sees the moves live. A Vikingdoms table gives the game's
prompt on your turn and heads its end screen with the game's own score. The proof game, with hidden
hands, plays to the end with no front-end edits, showing each page only its viewer's cards until the end reveals
all. Screenshots of the lobby, the tables mid-game and the end screens go to out/screenshots/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import proof_game
from browser_support import SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from proof_game import actions as A
from test_web_api import Socket, play_out
from web_support import Server, running

pytest.importorskip("playwright.sync_api")


def test_a_person_plays_a_bot_to_the_end_by_clicking_while_a_spectator_watches(browser: object, server: Server) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # bypass_csp lets Playwright evaluate its wait expressions; the page's own scripts never need eval.
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()  # type: ignore[attr-defined]
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    page.select_option("#players", "2")
    seats = page.locator("#seats .seat")
    seats.nth(0).locator(".seat-name").fill("Astrid")
    seats.nth(1).locator(".seat-kind").select_option("bot")
    seats.nth(1).locator(".seat-bot").select_option("greedy")
    seats.nth(1).locator(".seat-name").fill("Bjorn the Bot")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    page.screenshot(path=str(SHOTS / "lobby.png"), full_page=True)
    spectator_url = page.locator("#invites input").last.input_value()
    page.wait_for_function("window.skaldState !== undefined")

    watcher = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()  # type: ignore[attr-defined]
    watcher.goto(spectator_url)
    watcher.wait_for_function("window.skaldState !== undefined")
    assert watcher.locator("#who").inner_text() == "spectator"

    page.wait_for_function("window.skaldState.mine")
    # The game's words: what to do at this step, and how on the board (its click hint).
    prompt = page.locator("#prompt").inner_text()
    assert prompt.startswith("Your turn — ") and "Click a Group on the wheel to buy it." in prompt
    assert page.evaluate("skald.store.view.prompt") in prompt
    hovered = shot = False
    ringed = 0
    while True:
        page.wait_for_function(
            "window.skaldState.status === 'over' || (window.skaldState.mine && !window.skaldState.pending)"
        )
        state = page.evaluate("window.skaldState")
        if state["status"] == "over":
            break
        version = state["version"]
        if not hovered and page.locator("#board .forbidden").count():
            page.locator("#board .forbidden").first.hover()
            page.wait_for_selector("#tooltip:not([hidden])")
            assert page.locator("#tooltip").inner_text().strip()
            hovered = True
        if not shot and version >= 200:
            watcher.wait_for_function(f"window.skaldState.version >= {version}")  # the spectator is live
            page.screenshot(path=str(SHOTS / "table-mid-game.png"), full_page=True)
            shot = True
            # One line says whose move it is and, in the game's words, what that seat is doing.
            told = watcher.locator("#prompt").inner_text()
            assert told == "Chance to move…" or re.fullmatch(r"(Astrid|Bjorn the Bot) to move — [a-z].+\.", told), told
            # The last move by a seat (and the draws after it) stand out in the log.
            entries = watcher.evaluate(
                "[...document.querySelectorAll('#log li')].map(li => [li.className, li.getAttribute('aria-current')])"
            )
            marked = [i for i, (classes, _) in enumerate(entries) if "last-move" in classes]
            move = max(i for i, (classes, _) in enumerate(entries) if "chance" not in classes)
            assert marked == list(range(move, len(entries)))
            assert [i for i, (_, current) in enumerate(entries) if current] == [move]
        # The board rings what the last move changed, as the game names it (a purchase: nothing).
        marks, rings = page.evaluate(
            "[skald.store.view.last_move.length, document.querySelectorAll('#board .last-move-ring').length]"
        )
        assert marks == rings
        ringed += rings
        targets = page.locator("#board .legal")
        count = targets.count()
        if count:
            targets.nth(version % count).click()
        else:
            buttons = page.locator("#actions .act")
            buttons.nth(version % buttons.count()).click()
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending")

    assert hovered and shot and ringed > 0
    page.wait_for_selector("#end:not([hidden])")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 2
    assert page.locator("#standings th").all_inner_texts() == ["#", "Player", "Fame", "Gold"]
    names = {rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)}
    assert names == {"Astrid", "Bjorn the Bot"}
    assert page.locator("#standings tr.winner").count() >= 1
    assert page.locator("#actions").inner_text() == "The game is over."  # not "Waiting for the others…"
    # The tie-break sentence only when the best Fame was shared (it decided, or the victory is shared).
    fame = sorted((int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(2)), reverse=True)
    assert ("most Gold" in page.locator("#tie-break").inner_text()) == (fame[0] == fame[1])
    assert page.locator("#tie-break").inner_text().startswith("Winner")
    # The end screen itemises every scoring beside the standings, the last one open, each headed by the gains.
    reports = page.evaluate("skald.store.view.scorings")
    final_report = reports[-1]
    assert final_report["when"] == "end"
    assert page.locator("#final-scoring details").count() == len(reports)
    assert page.locator("#final-scoring details[open]").count() == 1
    assert page.locator("#final-scoring details[open] summary").inner_text().startswith("End-game scoring")
    assert page.locator("#final-scoring details[open] li").count() == max(1, len(final_report["lines"]))
    page.screenshot(path=str(SHOTS / "end-screen.png"), full_page=True)

    final = page.evaluate("window.skaldState.version")
    watcher.wait_for_function(f"window.skaldState.version === {final} && window.skaldState.status === 'over'")
    assert watcher.locator("#end").is_visible()
    assert watcher.locator("#log li").count() == page.locator("#log li").count() == final
    assert watcher.locator("#board .legal").count() == 0
    # A spectator has no seat: no Rematch and no New link (hidden stays hidden, whatever the buttons' own style).
    assert not watcher.locator("#rematch-button").is_visible()
    assert not watcher.locator("#new-link-button").is_visible()
    assert page.locator("#rematch-button").is_visible()


def test_a_vikingdoms_table_gives_the_games_prompt_on_your_turn_and_heads_the_end_screen_with_coins(
    browser: object, server: Server
) -> None:
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}], game="vikingdoms")
    invite = game["invites"][0]
    page = browser.new_context(viewport={"width": 1300, "height": 1000}, bypass_csp=True).new_page()  # type: ignore[attr-defined]
    page.goto(invite["url"])
    page.wait_for_function("window.skaldState !== undefined && window.skaldState.mine")
    prompt = page.evaluate("skald.store.view.prompt")
    assert prompt and page.locator("#prompt").inner_text().startswith(f"Your turn — {prompt}")

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "vikingdoms-table.png"), full_page=True)

    seat = Socket(server, game["id"], invite["token"])  # plays the seat while the open page follows the game
    final = play_out(seat)
    seat.close()
    page.wait_for_selector("#end:not([hidden])")
    page.screenshot(path=str(SHOTS / "vikingdoms-end-screen.png"), full_page=True)
    assert page.locator("#standings th").all_inner_texts() == ["#", "Player", "Coins"]
    shown = [row.locator("td").all_inner_texts() for row in page.locator("#standings tbody tr").all()]
    standings = final["result"]["standings"]
    assert shown == [[str(row["place"]), row["name"], str(row["score"])] for row in standings]
    assert ("VI. Kingdom" in page.locator("#tie-break").inner_text()) == final["result"]["tied"]
    assert page.locator("#prompt").inner_text() == "The game is over."


@pytest.fixture()
def proof_server(tmp_path: Path) -> Iterator[Server]:
    """The real app on a real SQLite file, able to serve the test suite's proof game."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}", env=proof_game.subprocess_env()) as live:
        yield live


def test_the_proof_game_plays_to_the_end_in_chromium_showing_each_page_only_its_own_hand(
    browser: object, proof_server: Server
) -> None:
    """A hidden-hand game plays through the browser with no front-end edits — the game's
    prompt and labels on the buttons, its cards as click targets — while the log shows each page only its own
    deals; the end reveals every deal to both pages and lists the game's score."""
    game = proof_server.create([{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}], game="proof")
    page = browser.new_context(viewport={"width": 1300, "height": 900}, bypass_csp=True).new_page()  # type: ignore[attr-defined]
    page.goto(game["invites"][0]["url"])
    watcher = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True).new_page()  # type: ignore[attr-defined]
    watcher.goto(game["spectator_url"])
    page.wait_for_function("window.skaldState !== undefined && window.skaldState.mine")
    deals = A.HAND_SIZE * 2
    watcher.wait_for_function(f"window.skaldState !== undefined && window.skaldState.version >= {deals}")

    assert page.locator("#prompt").inner_text() == "Your turn — bid secretly how many tricks you will win."
    assert "win exactly 1 trick for +5" in page.locator("#actions .act").all_inner_texts()[1]
    mine = page.locator("#log li").all_inner_texts()[:deals]
    expected = [(True, False), (False, True)] * A.HAND_SIZE  # dealt round the table from seat 1
    assert [("you are dealt" in text, "seat 2 is dealt a card" in text) for text in mine] == expected
    assert all("is dealt a card" in text for text in watcher.locator("#log li").all_inner_texts()[:deals])
    hand = page.evaluate("skald.store.view.observation.hand")
    assert len(hand) == A.HAND_SIZE and "hand" not in watcher.evaluate("skald.store.view.observation")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "proof-table.png"), full_page=True)

    clicked = False
    while True:
        page.wait_for_function(
            "window.skaldState.status === 'over' || (window.skaldState.mine && !window.skaldState.pending)"
        )
        state = page.evaluate("window.skaldState")
        if state["status"] == "over":
            break
        version = state["version"]
        targets = page.locator("#board .legal")
        if targets.count():
            assert "Click a card in your hand to play it." in page.locator("#prompt").inner_text()
            targets.nth(version % targets.count()).click()
            # A card played shows what was hidden, so it is held as a draft first (docs/web.md, "Taking steps back").
            page.click("#draft-send")
            clicked = True
        else:
            buttons = page.locator("#actions .act")
            buttons.nth(version % buttons.count()).click()
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending")

    assert clicked
    final = page.evaluate("window.skaldState.version")
    for viewer in (page, watcher):
        viewer.wait_for_function(f"window.skaldState.version === {final} && window.skaldState.status === 'over'")
        viewer.wait_for_selector("#end:not([hidden])")
        assert viewer.locator("#standings th").all_inner_texts() == ["#", "Player", "Points"]
        log = viewer.locator("#log li").all_inner_texts()
        assert len(log) == final
        assert all("deal " in text and "dealt" not in text for text in log[:deals])  # the end reveals every deal
    page.screenshot(path=str(SHOTS / "proof-end-screen.png"), full_page=True)


def test_a_board_square_with_two_choices_offers_a_toggle_headed_by_the_games_groups(
    browser: object, server: Server
) -> None:
    """The place-tile radio buttons were bare and misleading: a square that takes the bought tile or the start tile
    (`data-action` and `data-alt`, both legal) gets a toggle whose two choices are headed by the game's own groups
    ("the L left end" / "your start tile"), and a click on the square sends the action the toggle names."""
    made = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bo"}], game="vikings")
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()  # type: ignore[attr-defined]
    page.goto(made["invites"][0]["url"])
    page.wait_for_function("window.skaldState !== undefined && window.skaldState.mine")
    tile = {"type": "island", "square": "N1"}
    start = {"type": "start", "square": "N1"}

    def key(action: dict[str, str]) -> str:
        return json.dumps(action, sort_keys=True, separators=(",", ":"))

    legal = [
        {"key": key(tile), "action": tile, "notation": "tile N1", "label": "", "group": "the L left end"},
        {"key": key(start), "action": start, "notation": "start N1", "label": "", "group": "your start tile"},
    ]
    svg = (
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>"
        f"<rect id='n1' x='10' y='10' width='60' height='60' data-action='{key(tile)}' data-alt='{key(start)}'/></svg>"
    )
    # The page's own drawing of a view with that square; what it would send is kept instead of sent.
    page.evaluate(
        """([legal, svg]) => {
          const store = skald.store;
          window.sent = [];
          store.socket = { readyState: WebSocket.OPEN, send: (text) => window.sent.push(JSON.parse(text)) };
          store.view = { ...store.view, legal, svg, to_move: store.you, last_move: [] };
          skald.draw();
        }""",
        [legal, svg],
    )
    assert page.locator("#mode").is_visible()
    assert page.locator("#mode-primary").inner_text() == "the L left end"
    assert page.locator("#mode-alt").inner_text() == "your start tile"
    page.click("#board #n1")
    page.wait_for_function("window.sent.length === 1")
    assert page.evaluate("window.sent[0].action") == tile
    page.evaluate("window.skaldState.pending = false; skald.store.pending = false;")
    page.check("#mode input[value=alt]")
    page.evaluate("skald.draw()")
    page.click("#board #n1")
    page.wait_for_function("window.sent.length === 2")
    assert page.evaluate("window.sent[1].action") == start
