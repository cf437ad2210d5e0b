"""The web pages on a phone, in Debian's Chromium at 390×844 CSS px with touch.

Every page a person meets — the lobby (each game, rule options open, the game created), the table of each game as a
seat and as a spectator, the replay, the end screen and the "no such game" page — must fit the screen's width (no
horizontal scrolling: a wider page is zoomed out and its targets covered), give every visible target at least
24×24 CSS px and show no text under 12 px. The board is the exception, as long as it can be zoomed: its drawing is
fitted to the screen first, so its words and targets may be smaller there, but at the board's largest zoom every
target on it is at least 24×24 px and every word at least 12 px, and every part of it can be panned into view.

The Vikingatid map (1504 units wide) is the hard case: its legend, at the foot of the map, must lie inside the
drawing and the board's frame, and each of its words must be reachable and legible once zoomed, by the zoom
buttons and by a pinch; one finger pans. A person's first turn is made by tapping alone; a spectator is offered no
control a seat has. Screenshots go to out/screenshots/phone-*.png.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser_support import PHONE, SHOTS, asked_plies, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from test_web_api import Socket, play_out
from web_support import Server

pytest.importorskip("playwright.sync_api")

#: The smallest target and the smallest text allowed (CSS px), and the smallest main control (the zoom buttons).
TARGET = 24
TEXT = 12
MAIN = 44
ALONE = [{"kind": "human", "name": "Astrid"}]
#: The main controls, held to MAIN px each way: the game's choices and amounts, the board mode's toggle, the zoom,
#: the replay's steps and Rematch.
MAINS = "#actions button, #actions input, #mode label, .zoom-bar button, .replay-bar button, #rematch-button"

#: What a page shows that is too small or too wide, outside the board's drawing: the page's scroll width against
#: the screen's, each visible target under TARGET px (a check box or radio button is judged by its label, which
#: takes the tap too), and each visible text under TEXT px.
AUDIT = """([target, text]) => {
  const shown = (node) => {
    if (node.closest('[hidden]')) return false;
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const name = (node) => node.id ? '#' + node.id
    : node.tagName.toLowerCase() + (node.className && typeof node.className === 'string' ? '.' + node.className : '')
      + ' ' + JSON.stringify((node.textContent || node.value || '').trim().slice(0, 30));
  const small = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const node of document.querySelectorAll(controls)) {
    if (node.closest('svg') || !shown(node)) continue;
    const tick = (node.type === 'checkbox' || node.type === 'radio') && node.closest('label');
    const judged = tick ? node.closest('label') : node;
    const box = judged.getBoundingClientRect();
    if (box.width < target - 0.5 || box.height < target - 0.5) {
      small.push(`${name(node)} ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
    }
  }
  const tiny = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || parent.closest('svg, script, style') || !shown(parent)) continue;
    const size = parseFloat(getComputedStyle(parent).fontSize);
    if (size < text - 0.01) tiny.push(`${name(parent)} ${size}px`);
  }
  const root = document.documentElement;
  return { width: root.scrollWidth, screen: root.clientWidth, small, tiny };
}"""

#: The board's frame and drawing: the zoom, the frame's client and scroll boxes, the drawing's box, each target's
#: smallest side, the smallest word (px on screen), and the drawing's size in its own units.
BOARD = """(frameId) => {
  const frame = document.getElementById(frameId);
  const svg = frame.querySelector('svg');
  const f = frame.getBoundingClientRect();
  const s = svg.getBoundingClientRect();
  const scale = s.width / svg.viewBox.baseVal.width;
  const targets = [...svg.querySelectorAll('[data-action]')].map((node) => {
    const box = node.getBoundingClientRect();
    return Math.min(box.width, box.height);
  });
  const words = [...svg.querySelectorAll('text')].filter((node) => node.textContent.trim())
    .map((node) => parseFloat(getComputedStyle(node).fontSize) * scale);
  return {
    scale, frame: [f.left, f.top, f.width, f.height], client: [frame.clientWidth, frame.clientHeight],
    scroll: [frame.scrollWidth, frame.scrollHeight], svg: [s.width, s.height],
    units: [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height],
    smallestTarget: targets.length ? Math.min(...targets) : null, targets: targets.length,
    smallestWord: words.length ? Math.min(...words) : null,
  };
}"""

#: Each word of the map's legend: inside the drawing (in its own units), and, the frame scrolled to it, wholly in
#: the frame's visible box and at least TEXT px high. Returns the words that fail, and how many were checked.
LEGEND = """([frameId, text]) => {
  const frame = document.getElementById(frameId);
  const svg = frame.querySelector('svg');
  const legend = svg.querySelector('.legend');
  const view = svg.viewBox.baseVal;
  const failed = [];
  const words = [...legend.querySelectorAll('text')].filter((node) => node.textContent.trim());
  for (const word of words) {
    const own = word.getBBox();
    if (own.x < view.x || own.y < view.y || own.x + own.width > view.x + view.width
        || own.y + own.height > view.y + view.height) failed.push(`${word.textContent}: outside the drawing`);
    const f = frame.getBoundingClientRect();
    let box = word.getBoundingClientRect();
    frame.scrollLeft += box.left + box.width / 2 - (f.left + frame.clientWidth / 2);
    frame.scrollTop += box.top + box.height / 2 - (f.top + frame.clientHeight / 2);
    box = word.getBoundingClientRect();
    const inside = box.left >= f.left - 0.5 && box.top >= f.top - 0.5
      && box.right <= f.left + frame.clientWidth + 0.5 && box.bottom <= f.top + frame.clientHeight + 0.5;
    if (!inside) failed.push(`${word.textContent}: out of reach (${box.left.toFixed(0)},${box.top.toFixed(0)})`);
    const size = parseFloat(getComputedStyle(word).fontSize) * svg.getBoundingClientRect().width / view.width;
    if (size < text) failed.push(`${word.textContent}: ${size.toFixed(1)} px`);
  }
  return { failed, words: words.length };
}"""


def phone(browser: Any) -> Any:
    """A page on a phone-sized touch screen (bypass_csp lets Playwright evaluate its waits)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def audit(page: Any, what: str) -> None:
    """The page fits the screen's width, with no target under TARGET px, no main control under MAIN px and no text
    under TEXT px; a screenshot."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"phone-{what}.png"), full_page=True)
    found = page.evaluate(AUDIT, [TARGET, TEXT])
    assert found["width"] <= found["screen"] == PHONE["width"], f"{what}: the page is {found['width']} px wide"
    assert found["small"] == [], f"{what}: targets under {TARGET}×{TARGET} px"
    assert found["tiny"] == [], f"{what}: text under {TEXT} px"
    small = [
        f"{node.get_attribute('id') or node.get_attribute('class')} {box['width']:.0f}x{box['height']:.0f}"
        for node in page.locator(MAINS).all()
        if node.is_visible() and (box := node.bounding_box()) and min(box["width"], box["height"]) < MAIN - 0.5
    ]
    assert small == [], f"{what}: main controls under {MAIN}×{MAIN} px"
    assert page.errors == []


def zoom_to_the_largest(page: Any, bar: str) -> None:
    """Tap + until it is spent."""
    for _ in range(12):
        button = page.locator(f"#{bar} .zoom-in")
        if button.is_disabled():
            return
        button.tap()
    raise AssertionError("the zoom never reached its largest")


def board_zooms_to_legible(page: Any, frame: str, bar: str) -> dict[str, Any]:
    """The board, fitted to the screen, lies whole in its frame (nothing clipped, nothing to scroll); zoomed to the
    largest, every target on it is at least TARGET px and every word TEXT px, and the frame scrolls over the whole
    drawing. Back to the whole board at the end. Returns the fitted look."""
    for button in page.locator(f"#{bar} button").all():
        box = button.bounding_box()
        assert box["width"] >= MAIN and box["height"] >= MAIN
    fitted = page.evaluate(BOARD, frame)
    assert fitted["svg"][0] <= fitted["client"][0] + 0.5 and fitted["scroll"][0] <= fitted["client"][0]
    assert fitted["scroll"][1] <= fitted["client"][1] + 1  # the whole drawing, top to bottom, in the frame
    assert fitted["frame"][0] >= 0 and fitted["frame"][0] + fitted["frame"][2] <= PHONE["width"]
    zoom_to_the_largest(page, bar)
    zoomed = page.evaluate(BOARD, frame)
    assert zoomed["scale"] > fitted["scale"] * 2
    assert zoomed["smallestWord"] >= TEXT, f"words of {zoomed['smallestWord']:.1f} px at the largest zoom"
    if zoomed["targets"]:
        assert zoomed["smallestTarget"] >= TARGET
    # Every edge of the drawing within reach: the frame scrolls over exactly the drawing.
    assert abs(zoomed["scroll"][0] - zoomed["svg"][0]) <= 1 and abs(zoomed["scroll"][1] - zoomed["svg"][1]) <= 1
    assert zoomed["frame"][0] >= 0 and zoomed["frame"][0] + zoomed["frame"][2] <= PHONE["width"]
    assert page.evaluate(AUDIT, [TARGET, TEXT])["width"] <= PHONE["width"]  # the zoom grows the frame, not the page
    page.locator(f"#{bar} .zoom-fit").tap()
    assert page.evaluate(BOARD, frame)["svg"] == fitted["svg"]
    return dict(fitted)


def pinch(page: Any, frame: str, spread: float) -> None:
    """Two fingers on the frame, moved apart by `spread` px each (Chromium's touch input, as a screen sends it)."""
    box = page.locator(f"#{frame}").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"], 300) / 2
    cdp = page.context.new_cdp_session(page)

    def fingers(apart: float) -> list[dict[str, float]]:
        return [{"x": x - 20 - apart, "y": y, "id": 0}, {"x": x + 20 + apart, "y": y, "id": 1}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(0)})
    for step in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(spread * step / 8)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def drag(page: Any, frame: str, dx: float, dy: float) -> None:
    """One finger dragged over the frame by (dx, dy) px (Chromium's touch input, as a screen sends it)."""
    box = page.locator(f"#{frame}").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"], 300) / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x + dx * step / 10, "y": y + dy * step / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def at_table(page: Any, url: str, mine: bool) -> None:
    """Open a table and wait for its board (and, for a seat, its turn)."""
    page.goto(url)
    wait = "window.skaldState !== undefined" + (" && window.skaldState.mine" if mine else "")
    page.wait_for_function(wait, timeout=60_000)
    page.wait_for_selector("#board svg")


def test_the_vikingatid_maps_legend_is_whole_on_a_phone_and_legible_zoomed_by_buttons_or_a_pinch(
    browser: Any, server: Server
) -> None:
    """The map fitted to the phone holds its legend inside the drawing and the frame; zoomed, every word of the
    legend can be panned into view at 12 px or more; a pinch zooms the board (not the page), a finger pans it."""
    game = server.create(ALONE + [{"kind": "bot", "bot": "random"}] * 3, game="vikingatid")
    page = phone(browser)
    at_table(page, game["invites"][0]["url"], mine=True)
    assert page.locator("#board-zoom").is_visible()  # the map is wider than the phone: it can be zoomed
    legend = page.evaluate(
        """() => { const f = document.getElementById('board').getBoundingClientRect();
        const l = document.querySelector('#board svg .legend').getBoundingClientRect();
        return [f.left, f.top, f.right, f.bottom, l.left, l.top, l.right, l.bottom]; }"""
    )
    frame, box = legend[:4], legend[4:]
    assert frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2] and box[3] <= frame[3] + 0.5
    audit(page, "vikingatid-table")
    board_zooms_to_legible(page, "board", "board-zoom")

    zoom_to_the_largest(page, "board-zoom")
    words = page.evaluate(LEGEND, ["board", TEXT])
    assert words["words"] >= 40 and words["failed"] == []
    page.locator("#board").screenshot(path=str(SHOTS / "phone-vikingatid-legend-zoomed.png"))
    page.locator("#board-zoom .zoom-fit").tap()

    # A pinch zooms the board about the fingers; the page itself keeps its scale.
    before = page.evaluate(BOARD, "board")["scale"]
    pinch(page, "board", 90)
    page.wait_for_function(f"document.querySelector('#board svg').getBoundingClientRect().width > {PHONE['width']}")
    assert page.evaluate(BOARD, "board")["scale"] > before * 1.5
    assert page.evaluate("window.visualViewport.scale") == 1
    # One finger pans the zoomed board inside its frame.
    start = page.evaluate("[document.getElementById('board').scrollLeft, document.getElementById('board').scrollTop]")
    drag(page, "board", -150, -150)
    page.wait_for_function(
        f"document.getElementById('board').scrollLeft > {start[0]}"
        f" && document.getElementById('board').scrollTop > {start[1]}"
    )
    assert page.errors == []


def test_the_lobby_fits_a_phone_for_every_game_with_its_options_open_and_once_a_game_is_made(
    browser: Any, server: Server
) -> None:
    page = phone(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    audit(page, "lobby")
    page.locator("#create-form summary").tap()
    for game in page.eval_on_selector_all("#game option", "(nodes) => nodes.map((n) => n.value)"):
        page.select_option("#game", game)
        page.select_option("#players", page.eval_on_selector_all("#players option", "(n) => n.at(-1).value"))
        audit(page, f"lobby-{game}")
    page.locator("#seats .seat").nth(0).locator(".seat-kind").select_option("human")
    page.locator("#create-button").tap()
    page.wait_for_selector("#created:not([hidden])")
    audit(page, "lobby-created")


@pytest.mark.parametrize("game", ["vikings", "vikingdoms", "vikingatid"])
def test_each_games_table_and_replay_fit_a_phone_for_a_seat_and_a_spectator(
    browser: Any, server: Server, game: str
) -> None:
    """The table of each game at 390×844, as the seat to move and as a spectator, then its replay: no horizontal
    scroll, targets and text large enough, and the board whole when fitted and legible at its largest zoom."""
    players = 4 if game != "vikingdoms" else 2
    made = server.create(ALONE + [{"kind": "bot", "bot": "random"}] * (players - 1), game=game)
    page = phone(browser)
    at_table(page, made["invites"][0]["url"], mine=True)
    audit(page, f"{game}-table")
    board_zooms_to_legible(page, "board", "board-zoom")
    page.locator("#replay-button").tap()
    page.wait_for_selector("#rp-board svg")
    page.wait_for_function("document.getElementById('rp-label').textContent !== ''")
    audit(page, f"{game}-replay")
    board_zooms_to_legible(page, "rp-board", "rp-zoom")

    watcher = phone(browser)
    at_table(watcher, made["spectator_url"], mine=False)
    audit(watcher, f"{game}-spectator")


def test_a_spectator_on_a_phone_is_offered_no_control_a_seat_has(browser: Any, server: Server) -> None:
    """A spectator's page shows only what anyone may use: the replay, the record, the board's zoom, the fair draws'
    published commitment (a read-only field, there for anyone to check the draws against), links and, after the end,
    the bot's review (a finished game is public); no choices, no board targets, no New link, no standing answer, no
    Rematch, and no chat where the creator did not open it to spectators — during play and after the end."""
    made = server.create([*ALONE, {"kind": "bot", "bot": "random"}], game="vikingdoms")
    watcher = phone(browser)
    at_table(watcher, made["spectator_url"], mine=False)
    seated = "#actions button, #actions input, #board .legal, #new-link-button, #rematch-button, #standing-offer"
    anyone = {
        "replay-button",
        "record-link",
        "zoom-out",
        "zoom-fit",
        "zoom-in",
        "home",
        "fair-hash",
        "seat-panel",
        "rules-button",
        "pace-select",  # how fast others' moves are shown: a spectator's own choice too
    }
    after_the_end = {"fair-record", "review-button"}

    def controls() -> list[str]:
        shown = watcher.eval_on_selector_all(
            "a[href], button, input, select",
            """(nodes) => nodes.filter((n) => n.getBoundingClientRect().width > 0 && !n.closest('[hidden]'))
              .map((n) => n.id || n.className || n.tagName)""",
        )
        return [name for name in shown if name.split(" ")[0] not in anyone]

    assert watcher.locator(seated).count() == 0 or not any(n.is_visible() for n in watcher.locator(seated).all())
    assert controls() == []
    seat = Socket(server, made["id"], made["invites"][0]["token"])
    final = play_out(seat)
    seat.close()
    watcher.wait_for_function(
        f"window.skaldState.version === {final['version']} && window.skaldState.status === 'over'"
    )
    watcher.wait_for_selector("#end:not([hidden])")
    assert not any(n.is_visible() for n in watcher.locator(seated).all())
    assert [name for name in controls() if name not in after_the_end] == []
    audit(watcher, "vikingdoms-spectator-end")


def tap_shape(page: Any, target: Any) -> None:
    """Tap a board target where a person would: on the middle of the shape it draws (its first rectangle, circle or
    path), not the middle of its box, which may be a gap between a chip and its label."""
    target.scroll_into_view_if_needed()
    box = target.evaluate(
        """(node) => {
          const shape = node.matches('rect, circle, path') ? node : node.querySelector('rect, circle, path') || node;
          const box = shape.getBoundingClientRect();
          return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        }"""
    )
    page.touchscreen.tap(box["x"], box["y"])


def test_a_person_plays_a_whole_game_on_a_phone_by_tapping_with_every_seat_in_sight(
    browser: Any, server: Server
) -> None:
    """A Vikings game against a bot, played to the end by taps alone: on the board's targets, the choice buttons or
    an amount's Confirm, with the board fitted to the screen. Above the board a panel per seat says its standing in
    the game's words and marks the seat to move; a tap on the bot's panel opens its Mainland beneath, drawn across
    the screen, and a second tap closes it. The table with the panel open and the end screen fit the phone."""
    made = server.create([*ALONE, {"kind": "bot", "bot": "greedy"}], game="vikings")
    page = phone(browser)
    at_table(page, made["invites"][0]["url"], mine=True)

    panels = page.locator("#seat-panels .seat-panel")
    assert panels.count() == 2
    assert panels.nth(0).inner_text().startswith("Astrid (you, to move)")
    assert "Fame" in panels.nth(1).inner_text() and "Gold" in panels.nth(1).inner_text()
    panels.nth(1).tap()
    page.wait_for_selector("#seat-close-up:not([hidden]) svg .mainland")
    assert panels.nth(1).get_attribute("aria-expanded") == "true"
    # Drawn at its own size, wider than the screen, in a frame that pans: the page keeps the screen's width.
    close_up = page.locator("#seat-close-up").bounding_box()
    drawn = page.locator("#seat-close-up svg").bounding_box()
    assert close_up is not None and drawn is not None and close_up["width"] <= PHONE["width"] < drawn["width"]
    assert page.locator("#seat-close-up [data-action]").count() == 0  # a picture: nothing in it is clickable
    audit(page, "vikings-seat-panel-open")
    panels.nth(1).tap()
    page.wait_for_selector("#seat-close-up", state="hidden")

    taps = 0
    while True:
        page.wait_for_function(
            "window.skaldState.status === 'over' || (window.skaldState.mine && !window.skaldState.pending)",
            timeout=60_000,
        )
        if page.evaluate("window.skaldState.status") == "over":
            break
        version = page.evaluate("window.skaldState.version")
        mine_before = page.locator("#log li.seat-0").count()
        targets = page.locator("#board .legal")
        buttons = page.locator("#actions .act")
        if targets.count() and (version % 2 or not buttons.count()):
            tap_shape(page, targets.nth(version % targets.count()))
        elif buttons.count():
            buttons.nth(version % buttons.count()).tap()
        else:
            page.locator("#actions .amount .confirm").first.tap()
        taps += 1
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending")
        # Every tap made the person's move (none fell between the targets).
        assert page.locator("#log li.seat-0").count() > mine_before, page.evaluate("skald.store.view.prompt")
    assert taps >= 20
    page.wait_for_selector("#end:not([hidden])", timeout=120_000)
    assert asked_plies(server, made["id"], 0) == taps  # and he was asked exactly his real decisions
    audit(page, "vikings-end")


def test_a_table_that_does_not_exist_says_so_and_fits_a_phone(browser: Any, server: Server) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/table/no-such-game-here")
    page.wait_for_selector("#conn:has-text('no such game')")
    audit(page, "no-such-game")


def test_each_games_rules_summary_and_the_page_for_a_game_not_offered_fit_a_phone(browser: Any, server: Server) -> None:
    page = phone(browser)
    for game in ("vikings", "vikingdoms", "vikingatid", "no-such-game"):
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("h1")
        audit(page, f"rules-{game}")


def test_the_page_keeps_its_own_width_when_a_board_is_zoomed_on_a_desktop(browser: Any, server: Server) -> None:
    """The zoom is the board's: on a desktop screen the Vikingatid map zooms inside its frame and the page never
    scrolls sideways."""
    game = server.create(ALONE + [{"kind": "bot", "bot": "random"}] * 3, game="vikingatid")
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    page.goto(game["invites"][0]["url"])
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#board-zoom:not([hidden])")
    for _ in range(12):
        if page.locator("#board-zoom .zoom-in").is_disabled():
            break
        page.locator("#board-zoom .zoom-in").click()
    look = page.evaluate(BOARD, "board")
    assert look["smallestWord"] >= TEXT
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert json.loads(json.dumps(look["client"]))[0] < look["scroll"][0]  # panned inside the frame
