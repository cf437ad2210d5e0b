"""The end of a Vikingatid game explained, in Chromium: the finished table says why the game ended, lists every
year's scoring and every standings column (scrolling sideways rather than clipped), groups its log by turn and
phase with each die saying what it decided, and its replay jumps to the previous and next phase and turn."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from browser_support import browser_fixture  # noqa: F401 (fixture: browser)
from skald.engine import CHANCE, get_game
from skald.engine.fair import draw
from web_support import running, store_played

pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1366, "height": 900}
GAME = get_game("vikingatid")
SEED = 11


def finished_world() -> Any:
    """A 2-player Vikingatid game played to its end at random, its draws those a server with SEED would make."""
    rng = random.Random(SEED)
    state = GAME.new_initial_state(2)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(draw(state, SEED))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_finished_game_says_why_it_ended_every_scoring_and_a_log_by_turn_and_phase_the_replay_jumps(
    browser: Any, tmp_path: Path
) -> None:
    """docs/web.md, "The end explained"; docs/vikingatid.md, "What each die decided"."""
    world = finished_world()
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    ((game_id, tokens),) = store_played(url, GAME, SEED, [world], ["Astrid", "Bjorn"])
    reports = world.scorings()
    with running(url) as server:
        page = browser.new_page(viewport=DESKTOP, bypass_csp=True)  # lets the test evaluate its waits
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/table/{game_id}#t={tokens[0]}")
        page.wait_for_selector("#end:not([hidden])")
        ending = page.locator("#ending").inner_text()
        assert ending.startswith("The game ended: ")
        assert "Christian" in ending or "year track reached" in ending
        assert page.locator("#final-scoring details").count() == len(reports) >= 2
        assert "victory points" in page.locator("#final-scoring details summary").first.inner_text()
        headings = page.locator("#standings th").all_inner_texts()
        assert "Conquered areas" in " ".join(headings) or len(headings) >= 5
        assert page.locator("#end .table-scroll #standings").count() == 1
        # The log under the game's headings, every die in words.
        turn_names = page.eval_on_selector_all("#log li.turn-start", "all => all.map(i => i.dataset.turn)")
        assert turn_names[:2] == ["Setup", "Turn 1 · 800"] and len(set(turn_names)) == len(turn_names)
        phase_names = page.eval_on_selector_all("#log li.phase-start", "all => all.map(i => i.dataset.phase)")
        assert "6. Initiative and journeys" in phase_names
        # A heading is drawn above its entry (what a reader sees), and the log's items stay one per action.
        heading = page.eval_on_selector("#log li.turn-start", "li => getComputedStyle(li, '::before').content")
        assert heading == '"Setup"'
        assert page.locator("#log li").count() == page.locator("#log li[value]").count() == len(world.history)
        chance = page.locator("#log li.chance").all_inner_texts()
        assert any("danger roll" in text and "against a count of" in text for text in chance)
        assert any("initiative roll" in text for text in chance)
        assert not any(text.endswith(("roll 1", "roll 5", "roll 10")) for text in chance)
        # The replay jumps to the start of the phase before and of the turn before.
        phases = [
            int(p) for p in page.eval_on_selector_all("#log li.phase-start", "all => all.map(i => i.dataset.ply)")
        ]
        turns = [int(p) for p in page.eval_on_selector_all("#log li.turn-start", "all => all.map(i => i.dataset.ply)")]
        page.click("#replay-button")
        end = len(world.history)
        page.wait_for_function(f"document.getElementById('rp-slider').value == '{end}'")
        page.click("#rp-prev-phase")
        before = max(p for p in phases if p < end)
        page.wait_for_function(f"document.getElementById('rp-slider').value == '{before}'")
        assert page.locator("#rp-label").inner_text().startswith(f"{before} / {end} · Turn ")
        page.click("#rp-prev-turn")
        turn = max(p for p in turns if p < before)
        page.wait_for_function(f"document.getElementById('rp-slider').value == '{turn}'")
        page.click("#rp-next-phase")
        following = min(p for p in phases if p > turn)
        page.wait_for_function(f"document.getElementById('rp-slider').value == '{following}'")
        assert errors == []
        page.context.close()
