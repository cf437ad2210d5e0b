"""Over real HTTP: the catalogue names every game and rule option in words (title, a label
per choice, one line, whether it is primary, the rules page's address) besides what it sent before, and each game
offered has a rules summary page at /rules/<game> — escaped text under the site's style sheet and its strict
security policy — while a game not offered gets a 404 page."""

from __future__ import annotations

import html
import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from skald.engine import get_game
from web_support import Server, running

#: The games Skald ships (a test module may register a game of its own in this process, never in the server's).
SHIPPED = ("vikings", "vikingdoms", "vikingatid")


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One live server for the module: these tests only read."""
    path: Path = tmp_path_factory.mktemp("rules") / "skald.db"
    with running(f"sqlite:///{path}") as live:
        yield live


def get(server: Server, path: str) -> tuple[int, dict[str, str], str]:
    """A GET over HTTP: status, headers (lower-case names) and the body as text."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        headers = {name.lower(): value for name, value in response.getheaders()}
        return response.status, headers, response.read().decode()
    finally:
        connection.close()


def test_the_catalogue_names_every_option_in_words_and_keeps_what_it_sent(server: Server) -> None:
    status, catalogue = server.request("GET", "/api/catalogue")
    assert status == 200
    assert [g["name"] for g in catalogue["games"]] == list(SHIPPED)
    for entry in catalogue["games"]:
        game = get_game(entry["name"])
        assert entry["title"] == game.title and entry["rules"] == f"/rules/{game.name}"
        assert [o["name"] for o in entry["options"]] == [o.name for o in game.options]
        for sent, option in zip(entry["options"], game.options, strict=True):
            assert sent["default"] == option.default and sent["choices"] == list(option.choices)
            assert sent["doc"] == option.doc
            assert sent["title"] == option.title and sent["summary"] == option.one_line()
            assert sent["labels"] == [option.choice_label(c) for c in option.choices]
            assert sent["primary"] is option.primary
    vikings = next(g for g in catalogue["games"] if g["name"] == "vikings")
    variant = next(o for o in vikings["options"] if o["name"] == "variant")
    assert variant["primary"] is True
    assert variant["labels"][variant["choices"].index("advanced")].startswith("Advanced game")


@pytest.mark.parametrize("game", SHIPPED)
def test_each_game_has_a_rules_summary_page_with_its_options_in_words(server: Server, game: str) -> None:
    status, headers, page = get(server, f"/rules/{game}")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "style-src 'self'" in headers["content-security-policy"]
    assert '<link rel="stylesheet" href="/static/style.css">' in page
    assert "<script" not in page and "style=" not in page and "<style" not in page
    title = get_game(game).title
    assert f"<h1>{title}: rules summary</h1>" in page
    for option in get_game(game).options:
        assert f'id="option-{option.name}"' in page
    assert "[b]" not in page and "[/]" not in page  # the presentation's console markup is made plain


def test_the_vikings_rules_page_describes_the_opening_and_the_advanced_game(server: Server) -> None:
    _, _, page = get(server, "/rules/vikings")
    assert "Purchasing Groups" in page  # the first decision's rule, reached through the set-up's draws
    assert "Advanced game (auction and the 25 special tiles)" in page
    assert "No rules summary" not in page  # the contract's fallback words are left out


def test_a_game_not_offered_gets_a_404_page_that_escapes_its_name(server: Server) -> None:
    status, headers, page = get(server, "/rules/%3Cb%3Echess")
    assert status == 404 and headers["content-type"].startswith("text/html")
    assert "&lt;b&gt;chess" in page and "<b>chess" not in page
    assert '<link rel="stylesheet" href="/static/style.css">' in page


def test_the_rules_pages_stay_out_of_the_api_schema(server: Server) -> None:
    status, schema = server.request("GET", "/openapi.json")
    assert status == 200 and not any(path.startswith("/rules") for path in schema["paths"])


def test_the_vikingatid_rules_page_gives_the_game_in_brief(server: Server) -> None:
    """/rules/vikingatid states the goal, the end, the eleven phases, where victory points come from and the
    glossary, and names the kingdoms by the board (Danavalde) with the rule text's English in brackets."""
    _, _, page = get(server, "/rules/vikingatid")
    text = html.unescape(page)
    for heading in (
        "The game in brief",
        "The goal",
        "How the game ends",
        "A turn: the eleven phases",
        "Victory points",
        "Glossary",
    ):
        assert f">{heading}</h" in text, heading
    for number in range(1, 12):
        assert f"<li>{number}. " in text, number
    assert "Danavalde (Denmark), Norge (Norway) or Svea Rike (Sweden)" in text
    assert "Denmark, Norway or Sweden" not in text
    assert text.index("The game in brief") < text.index("How the game begins") < text.index("Rule options")
