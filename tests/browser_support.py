"""Shared by the browser tests: Debian's Chromium driven by Playwright, and the real web table on a live server.

A test module takes the fixtures by importing them (`from browser_support import browser_fixture, server_fixture`):
pytest finds them in the module under the names `browser` and `server`, and a test's parameter of that name never
redefines an imported name (ruff's F811). They are not in conftest.py: a compiled CI run loads conftest.py in a
venv without Playwright, so Playwright is imported here only inside the `browser` fixture, when a test asks for it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from skald.engine import Record
from web_support import Server, running

#: Debian's chromium (never a browser build downloaded by Playwright).
CHROMIUM = "/usr/bin/chromium"
#: No sandbox (tests run as root in containers), no GPU, and none of the browser's own traffic.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Screenshots kept as test artefacts.
SHOTS = Path(__file__).resolve().parent.parent / "out" / "screenshots"
#: A phone's screen in CSS pixels (every page must work there).
PHONE = {"width": 390, "height": 844}


@contextmanager
def launched() -> Iterator[Any]:
    """Headless Debian Chromium, closed after. Without it a CI run fails (`.ci/run` installs it) and a local run
    skips."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is not installed; .ci/run installs it")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(name="browser")
def browser_fixture() -> Iterator[Any]:
    """Headless Debian Chromium (`launched`), its table pages at the fast pace."""
    with launched() as chromium:
        yield FastTable(chromium)


#: A table page that was never told a pace shows others' moves at once (tests of other things need no pause).
FAST_PACE = "try { if (!localStorage.getItem('skald.pace')) localStorage.setItem('skald.pace', 'fast'); } catch (e) {}"


class FastTable:
    """The browser, whose pages show other seats' moves without the human pace's pause unless a test chose a pace
    (docs/web.md, "A human pace"); `chromium` is the browser itself, whose pages keep the default pace."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium

    def new_context(self, **kwargs: Any) -> Any:
        """A context whose pages start at the fast pace."""
        context = self.chromium.new_context(**kwargs)
        context.add_init_script(FAST_PACE)
        return context

    def new_page(self, **kwargs: Any) -> Any:
        """A page in a context of its own, at the fast pace."""
        context = self.new_context(**kwargs)
        page = context.new_page()
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.chromium, name)


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[Server]:
    """The real app (`skald serve` in a subprocess) on a real SQLite file, for one test."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


def asked_plies(server: Server, game_id: str, seat: int) -> int:
    """How many decisions `seat` was asked in a finished game: those with more than one legal answer (the table
    gives the others, and they are in the log as the seat's too)."""
    status, data = server.request("GET", f"/api/games/{game_id}/record")
    assert status == 200, data
    record = Record.from_dict(data)
    state = record.initial_state()
    asked = 0
    for action in record.actions:
        asked += state.current_player() == seat and len(state.legal_actions()) > 1
        state.apply(action)
    return asked
