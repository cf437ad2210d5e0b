"""The table chat in Debian's Chromium: a message is typed and sent at one seat, and shows,
as text and never as markup, at every seat and at a spectator of a table whose creator opened the chat to them; a
refused message is explained beside the chat; the lobby offers the choice, and the chat downloads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
SCRIPTED = '<script>window.chatScriptRan = true</script><img src=x onerror="window.chatScriptRan = true"> gg'


def test_a_scripted_chat_message_shows_as_text_at_every_seat_and_spectator(browser: Any, server: Server) -> None:
    game = server.create(TWO_PEOPLE, chat_spectators=True)
    pages = []
    for url in [invite["url"] for invite in game["invites"]] + [game["spectator_url"]]:
        page = browser.new_context().new_page()
        page.goto(url)
        page.wait_for_selector("#conn:has-text('live')")
        pages.append(page)
    ann, bo, spectator = pages
    for page in pages:  # shown once the welcome has said who the viewer is (the socket opens a moment before)
        page.wait_for_selector("#chat:not([hidden])")
    ann.fill("#chat-text", SCRIPTED)
    ann.press("#chat-text", "Enter")
    for page in pages:
        item = page.wait_for_selector("#chat-log li")
        assert item.inner_text() == f"Ann: {SCRIPTED}"  # the very characters typed
        assert page.eval_on_selector("#chat-log", "log => log.querySelectorAll('script, img').length") == 0
        assert page.evaluate("window.chatScriptRan === undefined")
    assert ann.input_value("#chat-text") == ""  # sent: the box is cleared once the table has it
    spectator.fill("#chat-text", "Well played, both")
    spectator.click("#chat-send")
    for page in pages:
        page.wait_for_selector("#chat-log li:has-text('Spectator: Well played, both')")
    bo.fill("#chat-text", "x" * 300)
    bo.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")
    bo.fill("#chat-text", "x" * 301)  # past the box's own limit, as a script could send it
    bo.press("#chat-text", "Enter")
    bo.wait_for_selector("#chat-error:has-text('at most 300 characters')")
    assert bo.input_value("#chat-text") == "x" * 301  # refused: kept for the writer to shorten
    with bo.expect_download() as download:
        bo.click("#chat-link")
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert [m["text"] for m in saved["messages"]] == [SCRIPTED, "Well played, both"]
    assert download.value.suggested_filename.endswith("-chat.json")


def test_a_spectator_of_a_closed_chat_sees_no_chat_and_the_lobby_opens_it_on_request(
    browser: Any, server: Server
) -> None:
    game = server.create(TWO_PEOPLE)
    page = browser.new_context().new_page()
    page.goto(game["spectator_url"])
    page.wait_for_selector("#who:has-text('spectator')")  # the welcome has come: the chat's fate is decided
    assert not page.is_visible("#chat")

    page.goto(server.url)
    page.wait_for_selector("#game option", state="attached")
    page.check("#chat-spectators")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    made = json.loads(page.evaluate("localStorage.getItem('skald.games') || '{}'"))
    (game_id,) = [key for key in made if key != game["id"]]
    status, summary = server.request("GET", f"/api/games/{game_id}")
    assert status == 200 and summary["chat_spectators"] is True
