"""What a Vikingatid map area holds is said in legible words at the fitted view, in Debian's Chromium, on a 1366×768
laptop and a 390×844 phone (docs/web.md, "What an area holds").

At a decision while pieces are on the map, the map drawn whole (a third of its size or less, its piece counts 3–7 px),
the mouse resting on an area with pieces (a laptop) or a tap on one (a phone) shows a panel that names the area and
each seat's pieces there with the counts the drawing's pieces show, every word of it 12 px or more, inside the
screen, over neither the prompt nor the choices; moving off the map (a laptop) and Escape hide it. A spectator's
panel for the area says the same as the seat's. A focused target is described by the panel; a tap on a target
still plays it. Screenshots go to out/screenshots/area-info-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import PHONE, SHOTS
from test_web_map_labels import CHOOSE, at_a_decision_on_the_map, browser_fixture, screen, server_fixture
from test_web_phone_layout import ALONE, TEXT, at_table
from web_support import Server

pytest.importorskip("playwright.sync_api")

__all__ = ["browser_fixture", "server_fixture"]  # the module's browser and server, as test_web_map_labels has them

#: An area holding pieces, scrolled to the middle of the screen, with a screen point where the area (not a target,
#: which a tap would play) is what a pointer meets; its name (the first words of its `<title>`) and, for each piece
#: drawn in it or apart from it for it, whose it is (its seat row's words before " in ") and what it is ("2 trading
#: ships", from its `<title>`) with the count its drawn text shows (T2). Null: no such area.
AREA_WITH_PIECES = """(skip) => {
  const svg = document.querySelector('#board svg');
  for (const area of svg.querySelectorAll('[data-area]')) {
    const id = area.getAttribute('data-area');
    if (skip.includes(id) || !area.querySelector('[data-holder]') || area.hasAttribute('data-action')) continue;
    const name = area.querySelector(':scope > title').textContent.split('; ')[0];
    const pieces = [...area.querySelectorAll('g'), ...svg.querySelectorAll(`.pieces [data-in="${id}"]`)]
      .map((node) => {
        const title = node.querySelector(':scope > title');
        const found = title && /^(.*): (\\d+) (trading|war) (ship|camp)s? in /.exec(title.textContent);
        const drawn = node.querySelector(':scope > text');
        if (!(found && drawn)) return null;
        return { who: found[1], count: Number(found[2]), what: found[0].split(': ')[1].replace(/ in $/, ''),
          drawn: drawn.textContent, letter: found[3] === 'war' ? 'W' : 'T' };
      }).filter(Boolean);
    if (!pieces.length) continue;
    const shape = area.querySelector('.shape');
    shape.scrollIntoView({ block: 'center', inline: 'center' });
    const box = shape.getBoundingClientRect();
    for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.75], [0.75, 0.75], [0.25, 0.3], [0.75, 0.3], [0.1, 0.5], [0.9, 0.5]]) {
      const [x, y] = [box.left + box.width * fx, box.top + box.height * fy];
      const top = document.elementFromPoint(x, y);
      const own = top && top.closest('[data-area], [data-in]');
      if (own && (own === area || own.getAttribute('data-in') === id) && !top.closest('[data-action]')) {
        return { id, name, pieces, x, y };
      }
    }
  }
  return null;
}"""

#: The panel as shown: whether it is, its text, its box, the smallest font of a word in it, its rows of pieces,
#: the boxes of the prompt and the choices it may not cover, and what it describes.
PANEL = """() => {
  const panel = document.getElementById('board-area-info');
  const shown = panel && !panel.hidden && panel.getClientRects().length > 0;
  if (!shown) return { shown: false };
  const r = panel.getBoundingClientRect();
  const sizes = [];
  const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.textContent.trim()) sizes.push(parseFloat(getComputedStyle(node.parentElement).fontSize));
  }
  const box = (node) => {
    if (!node || node.getClientRects().length === 0) return null;
    const b = node.getBoundingClientRect();
    return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
  };
  const rows = [...panel.querySelectorAll('.area-info-pieces li')].map((li) => li.textContent);
  return { shown: true, text: panel.innerText, rows,
    box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom }, smallest: Math.min(...sizes),
    live: panel.getAttribute('aria-live'), prompt: box(document.getElementById('prompt')),
    choices: box(document.getElementById('actions-card')), width: innerWidth, height: innerHeight };
}"""

HIDDEN = "document.getElementById('board-area-info').hidden"


def at_a_decision_with_pieces_on_the_map(page: Any, server: Server) -> None:
    """A 3-player Vikingatid table (as tests/test_web_map_labels.py makes it), the person's first choices made until
    a decision at which some area that is no target holds pieces."""
    game = server.create(ALONE + [{"kind": "bot", "bot": "random"}] * 2, game="vikingatid")
    at_table(page, game["invites"][0]["url"], mine=True)
    for _ in range(60):
        page.wait_for_function("window.skaldState.mine && !window.skaldState.pending", timeout=60_000)
        if page.evaluate(AREA_WITH_PIECES, []) is not None:
            page.evaluate("window.scrollTo(0, 0)")
            return
        version = page.evaluate("window.skaldState.version")
        page.evaluate(CHOOSE)
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending")
    pytest.fail("no decision with pieces on the map in 60 choices")


def overlap(a: dict[str, float] | None, b: dict[str, float]) -> bool:
    """Whether two screen boxes overlap (a hair of rounding allowed)."""
    return (
        a is not None
        and a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and (a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)
    )


def name_area(page: Any, where: str, spot: dict[str, Any]) -> dict[str, Any]:
    """Rest the mouse on the area (a laptop) or tap it (a phone); the panel once it is shown."""
    if where == "laptop":
        page.mouse.move(spot["x"], spot["y"])
    else:
        page.touchscreen.tap(spot["x"], spot["y"])
    page.wait_for_function(f"!{HIDDEN}")
    return dict(page.evaluate(PANEL))


def legible_beside_the_choices(panel: dict[str, Any], spot: dict[str, Any], what: str) -> None:
    """The panel names the area and each of its pieces with the drawn count, in words of 12 px or more, inside the
    screen, over neither the prompt nor the choices."""
    assert panel["shown"], what
    assert spot["name"] in panel["text"], (what, panel["text"])
    for piece in spot["pieces"]:
        assert piece["drawn"] == f"{piece['letter']}{piece['count']}", (what, piece)  # the count as drawn
        assert any(row.startswith(piece["who"]) and piece["what"] in row for row in panel["rows"]), (what, piece, panel)
    assert panel["smallest"] >= TEXT, (what, panel)
    box = panel["box"]
    assert box["left"] >= 0 and box["top"] >= 0 and box["right"] <= panel["width"], (what, box)
    assert box["bottom"] <= panel["height"], (what, box)
    assert not overlap(panel["prompt"], box) and not overlap(panel["choices"], box), (what, panel)
    assert panel["live"] == "polite"


@pytest.mark.parametrize("where", ["laptop", "phone"])
def test_an_areas_pieces_are_told_in_legible_words_at_the_fitted_view(browser: Any, server: Server, where: str) -> None:
    """At the fitted view the area under the mouse or tapped is described, 12 px words, pieces' counts as drawn,
    inside the screen and off the prompt and the choices; off the map and Escape hide it; a spectator is told the
    same."""
    page = screen(browser, where)
    at_a_decision_with_pieces_on_the_map(page, server)
    zoom = page.evaluate(
        "(() => { const s = document.querySelector('#board svg');"
        " return s.getBoundingClientRect().width / s.viewBox.baseVal.width; })()"
    )
    assert zoom < 0.5, zoom  # the map whole: its own piece counts 3–7 px
    spot = page.evaluate(AREA_WITH_PIECES, [])
    assert spot is not None, "no area with pieces a pointer reaches"
    panel = name_area(page, where, spot)
    legible_beside_the_choices(panel, spot, f"{where}, {spot['id']}")
    page.screenshot(path=str(SHOTS / f"area-info-{where}.png"))
    page.keyboard.press("Escape")
    page.wait_for_function(HIDDEN)
    if where == "laptop":
        page.mouse.move(2, PHONE["height"] // 2)  # off the board, over the page's margin
        name_area(page, where, spot)  # named again after Escape, once the mouse comes back onto it
        page.mouse.move(2, PHONE["height"] // 2)
        page.wait_for_function(HIDDEN)
    # A spectator at the same table, at the same step, is told the same of the same area.
    version = page.evaluate("window.skaldState.version")
    watcher = screen(browser, where)
    at_table(watcher, page.url.split("#")[0], mine=False)  # the seat's invitation less its token: the table's
    watcher.wait_for_function(f"window.skaldState.version === {version}")
    seen = watcher.evaluate(AREA_WITH_PIECES, [])
    assert seen is not None
    if seen["id"] != spot["id"]:  # the seat's area: the spectator's first may differ only by being reached first
        seen = watcher.evaluate(
            AREA_WITH_PIECES,
            [
                a
                for a in watcher.evaluate(
                    "[...document.querySelectorAll('#board svg [data-area]')].map((a) => a.getAttribute('data-area'))"
                )
                if a != spot["id"]
            ],
        )
        assert seen is not None and seen["id"] == spot["id"], seen
    told = name_area(watcher, where, seen)
    legible_beside_the_choices(told, seen, f"{where}, spectator, {spot['id']}")
    assert told["text"] == panel["text"], (told["text"], panel["text"])
    assert page.errors == [] and watcher.errors == []


def test_a_focused_target_is_described_by_its_areas_panel(browser: Any, server: Server) -> None:
    """A board target focused by keyboard shows its area's panel and is tied to it by aria-describedby; Escape
    hides it."""
    page = screen(browser, "laptop")
    at_a_decision_on_the_map(page, server)
    target = "document.querySelector('#board [data-area].legal, #board [data-in].legal')"
    assert page.evaluate(f"{target} !== null")
    page.evaluate(f"{target}.focus()")
    page.wait_for_function(f"!{HIDDEN}")
    tied = page.evaluate("(document.activeElement.getAttribute('aria-describedby') || '').split(' ')")
    assert "board-area-info" in tied
    panel = page.evaluate(PANEL)
    assert panel["smallest"] >= TEXT and panel["text"].strip(), panel
    page.keyboard.press("Escape")
    page.wait_for_function(HIDDEN)
    assert page.errors == []


def test_a_tap_on_a_target_area_still_plays_it(browser: Any, server: Server) -> None:
    """On a phone a tap on a legal target plays it at once (no step to confirm): the table moves on."""
    page = screen(browser, "phone")
    at_a_decision_on_the_map(page, server)
    spot = page.evaluate("""() => {
      for (const node of document.querySelectorAll('#board .legal')) {
        node.scrollIntoView({ block: 'center', inline: 'center' });
        const r = node.getBoundingClientRect();
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
        const top = document.elementFromPoint(x, y);
        if (top && top.closest('[data-action]') === node) return { x, y };
      }
      return null;
    }""")
    assert spot is not None, "no legal target a finger reaches"
    version = page.evaluate("window.skaldState.version")
    page.touchscreen.tap(spot["x"], spot["y"])
    page.wait_for_function(f"window.skaldState.version > {version}", timeout=60_000)
    assert page.errors == []
