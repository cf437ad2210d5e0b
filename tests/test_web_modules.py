"""The web pages' scripts are native ES modules, each one idea and small, served as JavaScript and loaded by the
pages under their own strict content security policy with no error, in Debian's Chromium."""

from __future__ import annotations

import re
import urllib.request
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

STATIC = Path(str(files("skald.web").joinpath("static")))
#: The most lines a module of the web front end may have.
MOST_LINES = 400
#: Every page and the module it starts from.
PAGES = {"index.html": "lobby.js", "table.html": "table.js", "ratings.html": "ratings.js"}
TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]


def modules() -> list[Path]:
    """Every script under the static folder."""
    return sorted(STATIC.rglob("*.js"))


def test_every_module_of_the_web_front_end_is_at_most_400_lines() -> None:
    found = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in modules()}
    assert "table.js" in found and "common.js" in found
    assert {name: lines for name, lines in found.items() if lines > MOST_LINES} == {}


def test_every_page_loads_its_scripts_as_one_module_and_every_import_is_a_module_there() -> None:
    for page, entry in PAGES.items():
        scripts = re.findall(r"<script[^>]*></script>", (STATIC / page).read_text(encoding="utf-8"))
        assert scripts == [f'<script type="module" src="/static/{entry}"></script>'], page
    names = {path.name for path in modules()}
    for path in modules():
        text = path.read_text(encoding="utf-8")
        assert '"use strict"' not in text, path.name  # a module is strict already
        for imported in re.findall(r'^import .* from "([^"]+)";$', text, re.M):
            assert imported.startswith("./") and imported[2:] in names, (path.name, imported)


def test_every_module_is_served_with_a_javascript_type(server: Server) -> None:
    # A browser refuses to run a module script served with any other type (the pages also send nosniff).
    for path in modules():
        with urllib.request.urlopen(f"{server.url}/static/{path.name}", timeout=30) as response:
            kind = response.headers["Content-Type"].split(";")[0].strip()
            assert kind in ("text/javascript", "application/javascript"), (path.name, kind)


def watched(browser: Any) -> tuple[Any, list[str]]:
    """A page under the site's own policy (no bypass_csp), and the list its console errors and page errors go to."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    problems: list[str] = []

    def console(message: Any) -> None:
        # The browser's own request for /favicon.ico, made before a page draws its icon, is not the page's doing.
        where = message.location.get("url") or ""
        if message.type == "error" and not where.endswith("/favicon.ico"):
            problems.append(f"{message.text} ({where})")

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return page, problems


def test_the_table_page_loads_its_modules_with_no_console_error_and_no_page_error(browser: Any, server: Server) -> None:
    pytest.importorskip("playwright.sync_api")
    game = server.create(TWO_PEOPLE)
    page, problems = watched(browser)
    page.goto(game["invites"][0]["url"])
    page.wait_for_selector("#who:has-text('you: Ann')")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#actions .act, #board .legal")  # drawn: the seat's choices are offered
    page.click("#replay-button")
    page.wait_for_selector("#rp-label:has-text('/')")
    page.click("#rp-close")
    spectator, watching = watched(browser)
    spectator.goto(game["spectator_url"])
    spectator.wait_for_selector("#who:has-text('spectator')")
    spectator.wait_for_selector("#board svg")
    assert problems == [] and watching == []


def test_the_lobby_and_the_ratings_page_load_their_modules_with_no_console_error_and_no_page_error(
    browser: Any, server: Server
) -> None:
    pytest.importorskip("playwright.sync_api")
    page, problems = watched(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    page.goto(server.url + "/ratings")
    page.wait_for_selector("#ratings-table tbody tr")
    assert problems == []
