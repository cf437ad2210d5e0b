"""What stays in view at the table, in Debian's Chromium: on a 390×844 phone and on a 1366×768 laptop, for each game.

On a phone the prompt is kept at the top of the screen and the choices at its foot while the board is scrolled,
zoomed or panned between them — and never over a board target for good: each can be scrolled to where a tap reaches
it. The first + centres the board on what the decision is about (its legal targets, else the seat's own part of the
board) and makes the board's common words legible. On a laptop the whole table is one screen: the prompt, the seats,
the board (Vikingatid's map with its year track under it), the choices and the hand, without scrolling the page.
Screenshots go to out/screenshots/in-view-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import PHONE, SHOTS, launched
from test_web_phone_layout import ALONE, TARGET, TEXT, at_table, drag, phone
from web_support import Server, running

pytest.importorskip("playwright.sync_api")

GAMES = ["vikings", "vikingdoms", "vikingatid"]
#: The kept bars are the same page for every game: the quick run checks them over Vikingdoms (its first decision has
#: board targets) and the Vikingatid map (the hard case to zoom); Vikings in the slow run.
KEPT = [pytest.param("vikings", marks=pytest.mark.slow), "vikingdoms", "vikingatid"]
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    """browser_support's Chromium, started once for the module (each test opens its own context)."""
    with launched() as chromium:
        yield chromium


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One live server for the module: each test makes its own game."""
    path: Path = tmp_path_factory.mktemp("in-view") / "skald.db"
    with running(f"sqlite:///{path}") as live:
        yield live


def new_game(server: Server, game: str) -> dict[str, Any]:
    """A game of the fewest seats the test needs: the person first, bots after."""
    players = 2 if game == "vikingdoms" else 3
    return server.create(ALONE + [{"kind": "bot", "bot": "random"}] * (players - 1), game=game)


#: The screen boxes of the parts named (an id, or a selector), null where a part is not shown.
BOXES = """(parts) => Object.fromEntries(parts.map((part) => {
  const node = document.getElementById(part) || document.querySelector(part);
  if (!node || node.closest('[hidden]')) return [part, null];
  const box = node.getBoundingClientRect();
  return [part, box.width > 0 ? [box.left, box.top, box.right, box.bottom] : null];
}))"""

#: Whether the first choice and the prompt can be seen and tapped where they are: the topmost element at each
#: one's middle is itself (or inside it).
REACHABLE = """() => ['#prompt', '#actions button'].map((selector) => {
  const node = document.querySelector(selector);
  const box = node.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + Math.min(box.width / 2, 30), box.top + box.height / 2);
  return box.top >= 0 && box.bottom <= innerHeight && top !== null && node.contains(top);
})"""

#: The board frame's part in view, in units of the drawing (0–1 each way), below the kept prompt and zoom bar and
#: above the kept choices; and the same for the box of the nodes matched by `selector`.
SEEN = """(selector) => {
  const frame = document.getElementById('board');
  const svg = frame.querySelector('svg').getBoundingClientRect();
  const f = frame.getBoundingClientRect();
  let [top, bottom] = [f.top + frame.clientTop, Math.min(f.top + frame.clientTop + frame.clientHeight, innerHeight)];
  for (const bar of document.querySelectorAll('.prompt-row, #board-zoom, #actions-card')) {
    const r = bar.getBoundingClientRect();
    if (r.top + r.bottom < innerHeight) top = Math.max(top, r.bottom); else bottom = Math.min(bottom, r.top);
  }
  const left = f.left + frame.clientLeft;
  const unit = (x, y) => [(x - svg.left) / svg.width, (y - svg.top) / svg.height];
  const boxes = [...frame.querySelectorAll(selector)].map((n) => n.getBoundingClientRect()).filter((r) => r.width > 0);
  const join = boxes.length ? [Math.min(...boxes.map((r) => r.left)), Math.min(...boxes.map((r) => r.top)),
    Math.max(...boxes.map((r) => r.right)), Math.max(...boxes.map((r) => r.bottom))] : null;
  return {
    view: [...unit(left, top), ...unit(left + frame.clientWidth, bottom)],
    focus: join && [...unit(join[0], join[1]), ...unit(join[2], join[3])],
  };
}"""

#: The median size (CSS px on screen) of the words drawn on the board.
MEDIAN_WORD = """() => {
  const svg = document.querySelector('#board svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')].filter((n) => n.textContent.trim())
    .map((n) => parseFloat(getComputedStyle(n).fontSize) * scale).sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)];
}"""


def focus_of(page: Any) -> str:
    """What the decision is about on the board: its legal targets, else this seat's own part."""
    return "svg .legal" if page.locator("#board svg .legal").count() else 'svg [data-seat="0"]'


def prompt_and_choices_reachable(page: Any, what: str) -> None:
    assert page.evaluate(REACHABLE) == [True, True], f"{what}: the prompt or the first choice is out of reach"


@pytest.mark.parametrize("game", KEPT)
def test_on_a_phone_the_prompt_and_the_choices_stay_in_view_while_the_board_is_scrolled_zoomed_and_panned(
    browser: Any, server: Server, game: str
) -> None:
    page = phone(browser)
    at_table(page, new_game(server, game)["invites"][0]["url"], mine=True)
    # The page scrolled down to the board: the prompt above it and the choices beneath it are still on the screen.
    page.evaluate("window.scrollTo(0, document.getElementById('board').getBoundingClientRect().top + scrollY - 200)")
    page.wait_for_function("scrollY > 100")
    prompt_and_choices_reachable(page, "scrolled")
    boxes = page.evaluate(BOXES, ["prompt", "board-zoom", "board", "actions-card"])
    assert boxes["prompt"][3] <= boxes["board-zoom"][1] + 0.5  # the zoom's bar under the prompt, not beneath it
    assert boxes["actions-card"][3] - boxes["actions-card"][1] <= 0.4 * PHONE["height"]  # a compact bar
    page.screenshot(path=str(SHOTS / f"in-view-{game}-phone-scrolled.png"))
    # Zoomed by +, then panned by a finger: still in view, and the zoom's bar with them.
    page.locator("#board-zoom .zoom-in").tap()
    page.wait_for_selector("#board.zoomed")
    prompt_and_choices_reachable(page, "zoomed")
    start = page.evaluate("[document.getElementById('board').scrollLeft, document.getElementById('board').scrollTop]")
    drag(page, "board", 80 if start[0] > 100 else -80, 0)
    page.wait_for_function(f"document.getElementById('board').scrollLeft !== {start[0]}")
    prompt_and_choices_reachable(page, "panned")
    assert page.locator("#board-zoom .zoom-fit").is_visible()
    page.screenshot(path=str(SHOTS / f"in-view-{game}-phone-zoomed.png"))
    # Whole again: every target can be scrolled to where the kept bars leave it uncovered and a tap reaches it.
    page.locator("#board-zoom .zoom-fit").tap()
    covered = page.evaluate(
        """() => [...document.querySelectorAll('#board svg .legal')].filter((node) => {
          node.scrollIntoView({ block: 'center' });
          const shape = node.matches('rect, circle, path') ? node : node.querySelector('rect, circle, path') || node;
          const box = shape.getBoundingClientRect();
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return !(top && node.contains(top));
        }).length"""
    )
    assert covered == 0
    assert page.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_the_first_zoom_centres_on_what_the_decision_is_about_and_makes_the_boards_words_legible(
    browser: Any, server: Server, game: str
) -> None:
    """On a phone: the first + shows the box of the decision's legal targets (else the seat's own part of the
    board) in the frame's part in view, its middle within the middle half of the view, and the board's common
    words (the median size) at TEXT px or more; a pinch still zooms about the fingers."""
    page = phone(browser)
    at_table(page, new_game(server, game)["invites"][0]["url"], mine=True)
    selector = focus_of(page)
    page.locator("#board-zoom .zoom-in").tap()
    page.wait_for_selector("#board.zoomed")
    seen = page.evaluate(SEEN, selector)
    (left, top, right, bottom), box = seen["view"], seen["focus"]
    middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    quarter = ((right - left) / 4, (bottom - top) / 4)
    # Where the drawing's edge stops the scroll, the focus lies between the edge and the middle of the view.
    at_edge_x = left <= 0.001 or right >= 0.999
    at_edge_y = top <= 0.001 or bottom >= 0.999
    assert left <= middle[0] <= right and top <= middle[1] <= bottom, (seen, selector)
    assert at_edge_x or abs(middle[0] - (left + right) / 2) <= quarter[0], seen
    assert at_edge_y or abs(middle[1] - (top + bottom) / 2) <= quarter[1], seen
    assert page.evaluate(MEDIAN_WORD) >= TEXT
    page.screenshot(path=str(SHOTS / f"in-view-{game}-first-zoom.png"))
    assert page.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_on_a_laptop_the_prompt_seats_board_choices_and_hand_are_in_view_without_scrolling(
    browser: Any, server: Server, game: str
) -> None:
    """At 1366×768 the page does not scroll; the prompt, the seats' panels, the board's frame and the choices lie
    within the screen, and so does the hand (its card, else the seat's own part of the board, which lists it);
    Vikingatid's map is drawn whole in its frame, the year track under it included. One + makes the board's common
    words legible."""
    page = browser.new_context(viewport=LAPTOP, bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    at_table(page, new_game(server, game)["invites"][0]["url"], mine=True)
    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [LAPTOP["width"], LAPTOP["height"]], "the page scrolls"
    hand = "hand-card" if page.locator("#hand-card").is_visible() else '#board svg [data-seat="0"]'
    parts = ["prompt", "seat-panels", "board", "actions-card", hand]
    if game == "vikingatid":
        parts.append("#board svg")
    boxes = page.evaluate(BOXES, parts)
    outside = [
        part
        for part in parts
        if boxes[part] is None
        or not (boxes[part][0] >= 0 and boxes[part][1] >= 0)
        or boxes[part][2] > LAPTOP["width"] + 0.5
        or boxes[part][3] > LAPTOP["height"] + 0.5
    ]
    if game == "vikings":
        # The tall board fills its frame's width and pans in it: its seat's part starts in view.
        outside = [part for part in outside if part != hand or boxes[hand][1] >= boxes["board"][3]]
    assert outside == [], boxes
    if game == "vikingatid":
        track = page.evaluate(
            """() => { const t = [...document.querySelectorAll('#board svg text')]
              .find((n) => /^Year \\d+/.test(n.textContent)); const b = t.getBoundingClientRect();
              return [b.top, b.bottom]; }"""
        )
        assert track[0] >= 0 and track[1] <= boxes["board"][3]
    page.screenshot(path=str(SHOTS / f"in-view-{game}-laptop.png"))
    page.locator("#board-zoom .zoom-in").click()
    assert page.evaluate(MEDIAN_WORD) >= TEXT
    assert errors == []


#: On the board at its largest zoom: how many targets (`data-action`, legal or not) and words it has, and how many
#: of them are under TARGET px each way and under TEXT px high.
LARGEST = """([target, text]) => {
  const svg = document.querySelector('#board svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sides = [...svg.querySelectorAll('[data-action]')].map((node) => {
    const box = node.getBoundingClientRect();
    return Math.min(box.width, box.height);
  });
  const words = [...svg.querySelectorAll('text')].filter((node) => node.textContent.trim())
    .map((node) => parseFloat(getComputedStyle(node).fontSize) * scale);
  return { targets: sides.length, small: sides.filter((side) => side < target - 0.01).length,
    words: words.length, tiny: words.filter((size) => size < text - 0.01).length };
}"""

#: The first choice made, by the buttons if there are any, else a target on the board, else an amount's Confirm.
CHOOSE = """() => {
  const button = document.querySelector('#actions .act:not(.standing-offer)');
  const target = document.querySelector('#board .legal');
  if (button) button.click();
  else if (target) target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  else document.querySelector('#actions .amount .confirm').click();
}"""


@pytest.mark.parametrize(
    ("game", "steps"),
    [
        ("vikings", ["place the tile"]),
        pytest.param("vikingatid", ["buy ships", "start a fleet"], marks=pytest.mark.slow),
    ],
)
def test_at_the_largest_zoom_on_a_phone_no_board_target_is_under_24_px_and_no_word_under_12_px(
    browser: Any, server: Server, game: str, steps: list[str]
) -> None:
    """The done-when audit at the decisions whose targets are the board's smallest: Vikings' Mainland squares (placing
    a tile) and Vikingatid's ship chips (buying ships, starting a fleet). The person plays the first choice until each
    step's prompt comes; there, zoomed by + to the largest, every board target is at least 24×24 px and every word
    12 px."""
    page = phone(browser)
    at_table(page, new_game(server, game)["invites"][0]["url"], mine=True)
    found: dict[str, dict[str, int]] = {}
    for _ in range(60):
        page.wait_for_function("window.skaldState.mine && !window.skaldState.pending", timeout=60_000)
        prompt = page.evaluate("skald.store.view.prompt")
        step = next((step for step in steps if prompt.startswith(step) and step not in found), None)
        if step and page.locator("#board .legal").count():
            for _ in range(12):
                if page.locator("#board-zoom .zoom-in").is_disabled():
                    break
                page.locator("#board-zoom .zoom-in").tap()
            found[step] = page.evaluate(LARGEST, [TARGET, TEXT])
            page.locator("#board-zoom .zoom-fit").tap()
            if len(found) == len(steps):
                break
        version = page.evaluate("window.skaldState.version")
        page.evaluate(CHOOSE)
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending")
    assert sorted(found) == sorted(steps)
    for step, look in found.items():
        assert look["targets"] > 0 and look["small"] == 0 and look["tiny"] == 0, (step, look)
    assert page.errors == []
