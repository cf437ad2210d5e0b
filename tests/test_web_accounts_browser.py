"""Accounts in Debian's Chromium: a person signs up in the lobby, creates a game,
takes his seat and keeps it in his account, closes the browser, signs in in another one and finds the game under
"Your games", and opens it in his seat, without the invite link. In the lobby he also changes his password and
deletes his account, each with his current password."""

from __future__ import annotations

from typing import Any

import pytest

from browser_support import browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")


def sign(page: Any, server: Server, button: str, name: str, password: str) -> None:
    """Sign up or in from the lobby."""
    page.goto(server.url)
    page.wait_for_selector("#account-form:not([hidden])")
    page.fill("#account-user", name)
    page.fill("#account-password", password)
    page.click(button)
    page.wait_for_selector(f"#account-name:has-text('{name}')")


def test_a_seat_kept_in_an_account_is_found_from_another_browser(browser: Any, server: Server) -> None:
    home = browser.new_context()
    page = home.new_page()
    sign(page, server, "#sign-up", "Astrid", "a long passphrase")
    page.wait_for_selector("#game option", state="attached")
    page.fill(".seat-name >> nth=0", "Astrid")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    page.wait_for_selector("#who:has-text('you: Astrid')")
    page.click("#keep-seat-button")
    page.wait_for_selector('#keep-seat-button:has-text("Seat kept in Astrid\'s account")')
    game_id = page.url.split("/table/")[1].split("#")[0]
    home.close()  # the browser is closed: its stored links are gone with it

    away = browser.new_context()
    page = away.new_page()
    page.goto(server.url)
    page.wait_for_selector("#mine-empty:not([hidden])")  # a new browser holds no game
    sign(page, server, "#sign-in", "Astrid", "a long passphrase")
    link = page.wait_for_selector(f"#mine-table a[href='/table/{game_id}']")
    page.wait_for_selector("#mine-table .turn:not(:has-text('…'))")
    link.click()
    page.wait_for_selector("#who:has-text('you: Astrid')")  # her seat, by her account alone
    assert page.is_hidden("#new-link-button")  # no link in this browser to replace


def test_a_wrong_password_is_refused_in_the_lobby_and_nothing_is_signed_in(browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    sign(page, server, "#sign-up", "Sigrid", "correct horse battery")
    page.click("#sign-out")
    page.wait_for_selector("#account-form:not([hidden])")
    page.fill("#account-user", "Sigrid")
    page.fill("#account-password", "wrong horse battery")
    page.click("#sign-in")
    page.wait_for_selector("#account-error:has-text('name or password: not right')")
    assert page.is_hidden("#account-in")
    assert page.evaluate("document.cookie") == ""  # the session cookie is HttpOnly in any case


def test_the_ratings_page_lists_rated_players_and_bots_and_opens_a_players_history(
    browser: Any, server: Server
) -> None:
    from test_web_ratings import account, rated_game

    hilda, ulf = account(server, "Hilda"), account(server, "Ulfhild")
    rated_game(server, [(hilda, "greedy"), (ulf, "random")], seed=1, fixed=False)
    page = browser.new_context().new_page()
    page.goto(server.url)
    page.click("#ratings-link")
    page.wait_for_selector("#ratings-table tbody tr")
    page.wait_for_function("document.querySelectorAll('#ratings-table button.link').length === 2", timeout=60_000)
    rows = page.eval_on_selector_all("#ratings-table tbody tr", "rows => rows.map((r) => r.innerText)")
    assert any("mcts:hard (bot)" in row for row in rows) and len(rows) == 7  # two people and the five bots
    page.click("#ratings-table button.link >> nth=0")
    page.wait_for_selector("#history-card:not([hidden]) #history-table tbody tr")
    assert "rated games" in page.inner_text("#history-heading")
    assert "of 2" in page.inner_text("#history-table tbody tr")


def test_a_person_changes_his_password_then_deletes_his_account_from_the_lobby(browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    sign(page, server, "#sign-up", "Thyra", "first of my words")
    page.click("#account-manage summary")
    page.fill("#account-current", "not my words")
    page.fill("#account-new", "second of my words")
    page.click("#change-password")
    page.wait_for_selector("#account-error:has-text('current password is not right')")
    page.fill("#account-current", "first of my words")
    page.fill("#account-new", "second of my words")
    page.click("#change-password")
    page.wait_for_selector("#account-done:has-text('Password changed')")
    assert page.is_visible("#account-in")  # still signed in here
    page.on("dialog", lambda dialog: dialog.accept())
    page.fill("#account-current", "second of my words")
    page.click("#delete-account")
    page.wait_for_selector("#account-done:has-text('Account deleted')")
    page.wait_for_selector("#account-form:not([hidden])")
    assert page.is_hidden("#account-manage")
    page.fill("#account-user", "Thyra")
    page.fill("#account-password", "second of my words")
    page.click("#sign-in")
    page.wait_for_selector("#account-error:has-text('name or password: not right')")


def test_a_person_sets_changes_and_removes_his_e_mail_address_in_the_lobby(browser: Any, server: Server) -> None:
    page = browser.new_context().new_page()
    sign(page, server, "#sign-up", "Gunnhild", "reminders by the fjord")
    page.click("#account-mail summary")
    # This server has no mail relay, and says so before anything is typed.
    page.wait_for_selector("#mail-relay:has-text('This server sends no e-mail')")
    page.fill("#mail-address", "gunnhild at example.org")
    page.click("#mail-save")
    page.wait_for_selector("#account-error:has-text('address: expected name@example.org')")
    page.fill("#mail-address", "gunnhild@Example.org")
    page.check("#mail-reminders")
    page.click("#mail-save")
    page.wait_for_selector("#account-done:has-text('Reminders will be sent to gunnhild@example.org')")
    assert page.text_content("#account-error") == ""
    page.reload()  # kept by the server, not the page
    page.click("#account-mail summary")
    page.wait_for_function("document.getElementById('mail-address').value === 'gunnhild@example.org'")
    assert page.is_checked("#mail-reminders") and not page.is_checked("#mail-untimed")
    page.click("#mail-remove")
    page.wait_for_selector("#account-done:has-text('E-mail address removed')")
    assert page.input_value("#mail-address") == "" and page.is_hidden("#mail-remove")
