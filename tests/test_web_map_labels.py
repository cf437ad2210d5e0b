"""The Vikingatid map's labels are legible at every zoom, in Debian's Chromium, on a 1366×768 laptop and a 390×844
phone (docs/web.md, "Map labels").

At the fitted view, after each + and at a zoom between (Ctrl + wheel), every area name shown is at least 12 CSS px
high on the screen and inside the drawing, and no two shown names overlap; the names of the areas the decision can
click are shown at the fitted view; fewer are shown there than between, and fewer there than at the largest zoom,
where every one is. An area whose name is hidden names itself when the pointer rests on it (a laptop) or when it is
tapped (a phone). Screenshots go to out/screenshots/map-labels-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import PHONE, SHOTS, launched
from test_web_phone_layout import ALONE, TEXT, at_table, phone
from web_support import Server, running

pytest.importorskip("playwright.sync_api")

LAPTOP = {"width": 1366, "height": 768}

#: The map's labels as drawn now: how many there are and are shown; the smallest shown (CSS px: its font size
#: times its scale on the screen, its own transform included); the shown ones outside the drawing; the pairs of
#: shown ones whose screen boxes overlap; and, of the areas the decision can click (an area that is a legal target
#: itself, or on which a legal chip or piece lies), those whose label is hidden.
LABELS = """() => {
  const svg = document.querySelector('#board svg');
  const frame = svg.getBoundingClientRect();
  const labels = [...svg.querySelectorAll('text[data-label]')];
  const isShown = (node) => getComputedStyle(node).visibility !== 'hidden';
  const shown = labels.filter(isShown);
  const sizes = shown.map((node) => parseFloat(getComputedStyle(node).fontSize) * node.getScreenCTM().a);
  const boxes = shown.map((node) => node.getBoundingClientRect());
  const outside = shown.filter((node, i) => boxes[i].left < frame.left - 0.5 || boxes[i].right > frame.right + 0.5
    || boxes[i].top < frame.top - 0.5 || boxes[i].bottom > frame.bottom + 0.5).map((node) => node.textContent);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
        overlaps.push([shown[i].textContent, shown[j].textContent]);
      }
    }
  }
  const areas = [...svg.querySelectorAll('[data-area]')];
  const clickable = new Set();
  for (const node of svg.querySelectorAll('.legal')) {
    const own = node.closest('[data-area]');
    const r = node.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const under = own || areas.find((area) => {
      const s = area.querySelector('.shape').getBoundingClientRect();
      return x >= s.left && x <= s.right && y >= s.top && y <= s.bottom;
    });
    if (under) clickable.add(under.getAttribute('data-area'));
  }
  const unnamed = [...clickable].filter((id) => !isShown(svg.querySelector(`text[data-names="${id}"]`)));
  return { labels: labels.length, shown: shown.length, smallest: sizes.length ? Math.min(...sizes) : null, outside,
    overlaps, clickable: clickable.size, unnamed, zoom: frame.width / svg.viewBox.baseVal.width };
}"""

#: The first choice made, by the buttons if there are any, else a target on the board, else an amount's Confirm.
CHOOSE = """() => {
  const button = document.querySelector('#actions .act:not(.standing-offer)');
  const target = document.querySelector('#board .legal');
  if (button) button.click();
  else if (target) target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  else document.querySelector('#actions .amount .confirm').click();
}"""

#: An area with no target whose label is hidden, scrolled to the middle of the screen, and the screen point of its
#: shape where the area itself is what a pointer meets (null: none such).
HIDDEN_AREA = """() => {
  const svg = document.querySelector('#board svg');
  for (const label of svg.querySelectorAll('text[data-label]')) {
    if (getComputedStyle(label).visibility !== 'hidden') continue;
    const id = label.getAttribute('data-names');
    const area = svg.querySelector(`[data-area="${id}"]`);
    if (area.hasAttribute('data-action')) continue;
    const shape = area.querySelector('.shape');
    shape.scrollIntoView({ block: 'center', inline: 'center' });
    const box = shape.getBoundingClientRect();
    for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.75], [0.75, 0.75], [0.25, 0.3], [0.75, 0.3]]) {
      const [x, y] = [box.left + box.width * fx, box.top + box.height * fy];
      const top = document.elementFromPoint(x, y);
      if (top && top.closest('[data-area]') === area) return { id, x, y };
    }
  }
  return null;
}"""


@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    """browser_support's Chromium, started once for the module (each test opens its own context)."""
    with launched() as chromium:
        yield chromium


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One live server for the module: each test makes its own game."""
    path: Path = tmp_path_factory.mktemp("map-labels") / "skald.db"
    with running(f"sqlite:///{path}") as live:
        yield live


def laptop(browser: Any) -> Any:
    """A page on a 1366×768 laptop screen, its page errors kept."""
    page = browser.new_context(viewport=LAPTOP, bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def screen(browser: Any, where: str) -> Any:
    """A page on the laptop or the phone."""
    return laptop(browser) if where == "laptop" else phone(browser)


def at_a_decision_on_the_map(page: Any, server: Server) -> None:
    """A 3-player Vikingatid table, the person's first choices made until a decision whose targets are on the map."""
    game = server.create(ALONE + [{"kind": "bot", "bot": "random"}] * 2, game="vikingatid")
    at_table(page, game["invites"][0]["url"], mine=True)
    for _ in range(60):
        page.wait_for_function("window.skaldState.mine && !window.skaldState.pending", timeout=60_000)
        if page.locator("#board .legal").count():
            return
        version = page.evaluate("window.skaldState.version")
        page.evaluate(CHOOSE)
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending")
    pytest.fail("no decision with targets on the map in 60 choices")


def legible_and_apart(look: dict[str, Any], what: str) -> None:
    """Every shown label at least TEXT px, inside the drawing, and none over another."""
    assert look["shown"] > 0, what
    assert look["smallest"] >= TEXT, (what, look)
    assert look["outside"] == [], (what, look)
    assert look["overlaps"] == [], (what, look)


@pytest.mark.parametrize("where", ["laptop", "phone"])
def test_at_every_zoom_every_shown_map_label_is_12_px_or_more_and_none_overlaps(
    browser: Any, server: Server, where: str
) -> None:
    """The fitted view names the decision's targets and fewer areas than a zoom between, which names fewer than the
    largest zoom, which names every one."""
    page = screen(browser, where)
    at_a_decision_on_the_map(page, server)
    fitted = page.evaluate(LABELS)
    legible_and_apart(fitted, f"{where}, fitted")
    assert fitted["zoom"] < 0.5, fitted  # the map drawn at a third of its size or less: its labels grown
    assert fitted["clickable"] > 0 and fitted["unnamed"] == [], fitted
    assert fitted["shown"] < fitted["labels"], fitted
    page.screenshot(path=str(SHOTS / f"map-labels-{where}-fitted.png"))
    # Between the two (Ctrl + wheel, a touchpad's pinch, to under the map's own size): grown less, more of them.
    page.evaluate("window.scrollBy(0, document.getElementById('board').getBoundingClientRect().top - 250)")
    box = page.locator("#board svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + min(box["height"], 100) / 2)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -180)
    page.keyboard.up("Control")
    page.wait_for_selector("#board.zoomed")
    page.mouse.move(2, PHONE["height"] // 2)  # off the board
    between = page.evaluate(LABELS)
    legible_and_apart(between, f"{where}, Ctrl + wheel")
    assert fitted["zoom"] < between["zoom"] < 0.96 and between["shown"] > fitted["shown"], between
    page.locator("#board-zoom .zoom-fit").click()
    steps = 0
    look = fitted
    while not page.locator("#board-zoom .zoom-in").is_disabled():
        page.locator("#board-zoom .zoom-in").click()
        steps += 1
        page.wait_for_function(
            f"document.querySelector('#board svg').getBoundingClientRect().width > {look['zoom']}"
            " * document.querySelector('#board svg').viewBox.baseVal.width + 1"
        )
        look = page.evaluate(LABELS)
        legible_and_apart(look, f"{where}, + {steps}")
        assert look["unnamed"] == [], look
    assert steps >= 2
    assert look["shown"] == look["labels"] == fitted["labels"], look
    page.screenshot(path=str(SHOTS / f"map-labels-{where}-largest.png"))
    # Back to the whole map: the same labels as first.
    page.locator("#board-zoom .zoom-fit").click()
    again = page.evaluate(LABELS)
    assert again["shown"] == fitted["shown"] and again["overlaps"] == []
    assert page.errors == []


@pytest.mark.parametrize("where", ["laptop", "phone"])
def test_an_area_whose_label_is_hidden_names_itself_under_the_pointer_or_when_tapped(
    browser: Any, server: Server, where: str
) -> None:
    """At the fitted view a hidden label is shown (12 px or more, over no other) while the mouse rests on its area
    on a laptop, and once its area is tapped on a phone; the mouse gone, the labels are as they were."""
    page = screen(browser, where)
    at_a_decision_on_the_map(page, server)
    before = page.evaluate(LABELS)
    spot = page.evaluate(HIDDEN_AREA)
    assert spot is not None, "no hidden label over an area a pointer reaches"
    shown = f"getComputedStyle(document.querySelector('#board text[data-names=\"{spot['id']}\"]')).visibility"
    if where == "laptop":
        page.mouse.move(spot["x"], spot["y"])
    else:
        page.touchscreen.tap(spot["x"], spot["y"])
    page.wait_for_function(f"{shown} !== 'hidden'")
    legible_and_apart(page.evaluate(LABELS), f"{where}, {spot['id']} named")
    if where == "laptop":
        page.mouse.move(2, PHONE["height"] // 2)  # off the board, over the page's margin
        page.wait_for_function(f"{shown} === 'hidden'")
        assert page.evaluate(LABELS)["shown"] == before["shown"]
    assert page.errors == []
