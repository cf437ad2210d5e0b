"""Every word drawn on a game's board is legible: WCAG 2.1 contrast (1.4.3) of SVG text, in Chromium.

axe-core leaves SVG text out of its contrast rule, so this test measures it itself, for every game the lobby offers,
on boards drawn for a seat at several moments of a random game. Each `<text>` is drawn by Chromium at the board's
own size; its colour is the computed fill, and what lies beneath it is found by hit-testing the centre of its box
(`elementsFromPoint`): the first painted shape under it with an opaque solid fill (a pattern's wash over a fill is
looked through to the fill), or its own halo where a stroke is painted beneath the letters. Text of 24 px and more,
or bold from 18.66 px, needs 3:1; the rest 4.5:1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from browser_support import browser_fixture  # noqa: F401 (fixture: browser)
from skald.engine import CHANCE, sample_chance
from skald.engine.registry import get_game, listed_games

pytest.importorskip("playwright.sync_api")

#: Plies of random play after which a board is drawn (and the end).
MOMENTS = (0, 60, 400)

#: Each text's contrast with what lies beneath it, as the page draws it.
MEASURE = """() => {
  const rgb = (colour) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(colour || "");
    return m ? m[1].split(",").map(Number) : null;
  };
  const luminance = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const out = [];
  for (const text of document.querySelectorAll("svg text")) {
    const words = text.textContent.trim();
    const style = getComputedStyle(text);
    const ink = rgb(style.fill);
    const box = text.getBoundingClientRect();
    if (!words || !ink || (ink.length === 4 && ink[3] === 0) || style.visibility === "hidden" || !box.width) continue;
    let ground = [255, 255, 255];
    const halo = rgb(style.stroke);
    if (halo && parseFloat(style.strokeWidth) >= 1 && style.paintOrder.startsWith("stroke")) {
      ground = halo;
    } else {
      for (const under of document.elementsFromPoint(box.left + box.width / 2, box.top + box.height / 2)) {
        if (under.closest("text")) continue;
        if (!(under instanceof SVGGeometryElement)) continue;
        const look = getComputedStyle(under);
        const fill = rgb(look.fill);
        const faint = Number(look.fillOpacity) < 0.5 || Number(look.opacity) < 0.5;
        if (!fill || (fill.length === 4 && fill[3] < 0.5) || faint) continue;
        ground = fill;
        break;
      }
    }
    const [a, b] = [luminance(ink), luminance(ground)];
    const size = parseFloat(style.fontSize) * (text.getScreenCTM() ? text.getScreenCTM().a : 1);
    const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
    out.push({ words: words.slice(0, 40), ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), large,
      ink: style.fill, ground: `rgb(${ground.slice(0, 3).join(", ")})`, size: Math.round(size * 10) / 10 });
  }
  return out;
}"""


def boards(name: str) -> list[str]:
    """The game's board drawn for seat 0 at each of MOMENTS in one random game of its fewest players, and at its
    end."""
    game = get_game(name)
    rng = random.Random(7)
    state = game.new_initial_state(game.min_players)
    drawn: list[str] = []
    plies = 0
    while not state.is_terminal():
        if plies in MOMENTS:
            drawn.append(game.render_svg(state, seat=0))
        player = state.current_player()
        state.apply(sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions()))
        plies += 1
    drawn.append(game.render_svg(state, seat=0))
    return drawn


def skald_games() -> list[str]:
    """The games Skald ships that the lobby offers (other tests register games of their own in the same process)."""
    return [name for name in listed_games() if type(get_game(name)).__module__.startswith("skald.games.")]


@pytest.mark.parametrize("name", skald_games())
def test_every_word_on_the_board_has_enough_contrast_with_what_lies_beneath(browser: Any, name: str) -> None:
    page = browser.new_page(viewport={"width": 1600, "height": 1200})
    weak: set[str] = set()
    measured = 0
    for svg in boards(name):
        # Shapes that ignore the pointer (labels' backings, say) still count as what lies beneath.
        page.set_content(
            "<!doctype html><html><head><style>body{margin:0;background:#fff} svg *{pointer-events:visiblePainted"
            f" !important}}</style></head><body>{svg}</body></html>"
        )
        # The whole board in view: hit-testing sees only what the viewport shows.
        width, height = page.evaluate(
            "(() => { const box = document.querySelector('svg').getBoundingClientRect();"
            " return [Math.ceil(box.right), Math.ceil(box.bottom)]; })()"
        )
        page.set_viewport_size({"width": max(width, 400), "height": max(height, 300)})
        for text in page.evaluate(MEASURE):
            measured += 1
            needed = 3.0 if text["large"] else 4.5
            if text["ratio"] < needed:
                weak.add(
                    f"{text['words']!r} {text['ink']} on {text['ground']} at {text['size']} px: "
                    f"{text['ratio']:.2f}:1 < {needed}:1"
                )
    page.close()
    assert measured > 20
    assert not weak, "\n".join(sorted(weak))
