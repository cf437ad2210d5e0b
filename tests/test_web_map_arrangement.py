"""The Vikingatid map's panels (the turn track, the players, the legend) stand beside the map on a wide screen and
under it on a tall one, whichever draws the board larger whole (docs/web.md, "The map's two arrangements"), in
Debian's Chromium.

On a 1366×768 laptop the panels are one above the other to the map's right, the whole drawing fits its frame with
nothing to scroll, and the map is drawn at least a third wider than it would be with the panels under it. The
window made taller than wide, the same drawing goes back to the panels under the map, side by side; made wide
again, beside it. Each new drawing (after every move) is arranged as the frame asks. Screenshots go to
out/screenshots/map-arrangement-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures)
from test_web_map_labels import CHOOSE
from test_web_phone_layout import ALONE, at_table
from web_support import Server

pytest.importorskip("playwright.sync_api")

LAPTOP = {"width": 1366, "height": 768}
TALL = {"width": 1280, "height": 1400}

#: The drawing as it stands: its arrangement, the map's and each panel's screen box, the frame's box and whether it
#: scrolls, and the map's width whole in the other arrangement (the frame's box fitted to the size that arrangement
#: gives, `data-narrow` or `data-wide`).
ARRANGED = """() => {
  const frame = document.getElementById('board');
  const svg = frame.querySelector('svg');
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const sea = svg.querySelector('rect[fill="#dcebf4"]');
  const size = (text) => text.split(' ').map(Number);
  const other = svg.dataset.arranged === 'wide' ? size(svg.dataset.narrow) : size(svg.dataset.wide);
  const scale = Math.min(frame.clientWidth / other[0], frame.clientHeight / other[1]);
  return { arranged: svg.dataset.arranged, map: box(sea), panels: [...svg.querySelectorAll('.dock')].map(box),
    frame: box(frame),
    scrolls: frame.scrollWidth > frame.clientWidth + 1 || frame.scrollHeight > frame.clientHeight + 1,
    otherMapWidth: scale * sea.width.baseVal.value, version: window.skaldState.version };
}"""


def inside(inner: list[float], outer: list[float]) -> bool:
    """Whether the screen box `inner` lies within `outer` (half a pixel of rounding allowed)."""
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def moved(page: Any) -> None:
    """The game moved on and the board drawn again: the person's choices made (a choice may take more than one
    step, an amount say) until the version passes the one shown now."""
    start = page.evaluate("window.skaldState.version")
    for _ in range(20):
        page.wait_for_function(
            f"window.skaldState.version > {start} || (window.skaldState.mine && !window.skaldState.pending)",
            timeout=120_000,
        )
        if page.evaluate("window.skaldState.version") > start:
            return
        page.evaluate(CHOOSE)
        page.wait_for_function(f"window.skaldState.version > {start} || !window.skaldState.pending", timeout=120_000)
    pytest.fail("the game did not move on in 20 choices")


def test_the_vikingatid_panels_stand_beside_the_map_on_a_wide_screen_and_under_it_on_a_tall_one(
    browser: Any, server: Server
) -> None:
    game = server.create(ALONE + [{"kind": "bot", "bot": "random"}] * 3, game="vikingatid")
    page = browser.new_context(viewport=LAPTOP, bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    at_table(page, game["invites"][0]["url"], mine=True)

    # The page's layout may give the frame its height after the first drawing: its resize arranges it again.
    page.wait_for_function("document.querySelector('#board svg').dataset.arranged === 'wide'", timeout=60_000)
    wide = page.evaluate(ARRANGED)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "map-arrangement-laptop.png"))
    assert wide["arranged"] == "wide"
    assert len(wide["panels"]) == 3 and not wide["scrolls"]
    for panel in [wide["map"], *wide["panels"]]:
        assert inside(panel, wide["frame"]), wide
    # One above the other, each to the right of the map.
    assert all(panel[0] >= wide["map"][2] - 0.5 for panel in wide["panels"])
    assert [panel[1] for panel in wide["panels"]] == sorted(panel[1] for panel in wide["panels"])
    map_width = wide["map"][2] - wide["map"][0]
    assert map_width >= 1.33 * wide["otherMapWidth"], wide

    # A move redraws the board: the new drawing is arranged as the last.
    moved(page)
    assert page.evaluate(ARRANGED)["arranged"] == "wide"

    page.set_viewport_size(TALL)
    page.wait_for_function("document.querySelector('#board svg').dataset.arranged === 'narrow'", timeout=60_000)
    moved(page)
    tall = page.evaluate(ARRANGED)
    assert tall["arranged"] == "narrow"
    page.screenshot(path=str(SHOTS / "map-arrangement-tall.png"))
    # Side by side under the map, left to right; the map drawn larger than the other arrangement would.
    assert all(panel[1] >= tall["map"][3] - 0.5 for panel in tall["panels"])
    assert [panel[0] for panel in tall["panels"]] == sorted(panel[0] for panel in tall["panels"])
    assert tall["map"][2] - tall["map"][0] > tall["otherMapWidth"]

    page.set_viewport_size(LAPTOP)
    page.wait_for_function("document.querySelector('#board svg').dataset.arranged === 'wide'", timeout=60_000)
    assert errors == []
