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


def first_seat_page(browser: Any, server: Server) -> tuple[Any, Any, list[str]]:
    """A new Vikingatid table's first seat, opened in a browser that never chose a pace, and its page errors."""
    context = browser.chromium.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game = server.create(SEATS, game="vikingatid")
    page.goto(game["invites"][0]["url"])
    return context, page, errors


def test_at_the_default_pace_every_update_with_another_seats_move_stays_in_view_half_a_second(
    browser: Any, server: Server
) -> None:
    """docs/web.md, "A human pace": a page that never chose a pace holds each update bringing other seats' moves
    or draws in view for 0.8 s before drawing the next; the viewer's own moves come at once."""
    context, page, errors = first_seat_page(browser, server)
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


def test_an_update_of_several_moves_is_shown_move_by_move_each_held_and_fast_shows_it_at_once(
    browser: Any, server: Server
) -> None:
    """docs/web.md, "A human pace": an update that brings several seats' moves at once (a Vikingatid card window's
    answers, a move and the answers given after it) is drawn frame by frame at the default pace: each frame adds its
    move's log entries alone, rings on the board what the game names for that move, and stays in view for at least
    0.5 s before the next; at the fast pace the same kind of update is drawn whole, at once."""
    context, page, errors = first_seat_page(browser, server)

    def play_until(condition: str) -> None:
        for _ in range(80):
            page.wait_for_function(
                "window.skaldState !== undefined && "
                f"((window.skaldState.mine && !window.skaldState.pending) || ({condition})())",
                timeout=60_000,
            )
            if page.evaluate(condition):
                return
            # The person's choice as a click would send it (a pass where offered): some steps offer a stepper or
            # the board's targets rather than buttons.
            page.evaluate(
                """() => { const view = skald.store.view;
                  const pick = view.legal.find((l) => l.action.type === "pass") || view.legal[0];
                  skald.store.pending = true; window.skaldState.pending = true;
                  skald.send({ type: "move", version: view.version, action: pick.action, ref: ++skald.store.refs });
                }"""
            )
        raise AssertionError(f"never came: {condition}")

    # Two updates drawn frame by frame and then whole (several frames may belong to one update).
    play_until(
        """() => { const shown = window.skaldPace.shown;
          const whole = new Set(shown.filter((s) => s.frame == null).map((s) => s.version));
          return new Set(shown.filter((s) => s.frame != null && whole.has(s.version)).map((s) => s.version)).size >= 2;
        }"""
    )
    shown = page.evaluate("window.skaldPace.shown")
    whole = {s["version"] for s in shown if s.get("frame") is None}  # updates whose own view was drawn too
    framed = sorted({s["version"] for s in shown if s.get("frame") is not None} & whole)
    assert len(framed) >= 2
    for version in framed:
        drawings = [s for s in shown if s["version"] == version and (s.get("frame") is not None or s["plies"])]
        # Frame 0, 1, … and then the update's own view: each adds its own entries, in order, one move at a time.
        assert [s.get("frame") for s in drawings] == [*range(len(drawings) - 1), None]
        plies = [ply for s in drawings for ply in s["plies"]]
        assert plies == sorted(plies) and len(set(plies)) == len(plies)
        assert all(sum(seat is not None for seat in s["seats"]) == 1 for s in drawings[:-1])
        before = shown[shown.index(drawings[0]) - 1]["logged"]
        for drawing in drawings:
            assert drawing["logged"] == before + len(drawing["plies"])
            before = drawing["logged"]
    for drawing in shown:
        assert drawing["rings"] == drawing["marks"]  # each drawing rings what its own move changed, and only that
    gaps = [after["at"] - before["at"] for before, after in pairwise(shown) if before["others"] and before["plies"]]
    assert min(gaps) >= 500, gaps
    # At the fast pace an update of several seats' moves is drawn whole: no frame of it is drawn.
    page.select_option("#pace-select", "fast")
    count = len(page.evaluate("window.skaldPace.shown"))
    several = (
        f"() => window.skaldPace.shown.slice({count})"
        ".some((s) => s.seats.filter((seat) => seat !== null && seat !== window.skaldState.you).length >= 2)"
    )
    play_until(several)
    later = page.evaluate(f"window.skaldPace.shown.slice({count})")
    assert all(s.get("frame") is None for s in later)
    assert errors == []
    context.close()
