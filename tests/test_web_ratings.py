"""Ratings, over real HTTP against a real server on a real SQLite file.

Two people with accounts play 20 rated Vikings games through the HTTP API, one choosing her moves as the greedy bot
would and the other at random: the ratings page then ranks the stronger first, and each one's history holds every
rated game. A game with a person's seat not kept in an account is not rated; bots take part with fixed ratings.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skald.bots import make_bot
from skald.engine import State, get_game
from skald.web.ratings import BOTS, FRESH, ordinal, ranks
from test_web_accounts import Browser
from web_support import Server, running

#: How long a test waits for the server's chance draws or bots (never a measure of speed).
PATIENCE = 60.0


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a real SQLite file."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


def account(server: Server, name: str) -> Browser:
    """A browser signed in to a new account `name`."""
    browser = Browser(server)
    status, _ = browser.request("POST", "/api/accounts", {"name": name, "password": f"{name} plays well"})
    assert status == 201
    return browser


class Player:
    """A seat played through the HTTP API by a bot policy, from a copy of the game kept up to date from the
    record."""

    def __init__(self, server: Server, game_id: str, token: str, spec: str, seed: int) -> None:
        self.server, self.game_id, self.token = server, game_id, token
        self.bot = make_bot(spec, seed=seed)

    def move(self, state: State) -> None:
        """Choose at `state` and submit the move."""
        action = state.action_to_json(self.bot.step(state))
        status, answer = self.server.request(
            "POST",
            f"/api/games/{self.game_id}/moves",
            {"version": len(state.history), "action": action},
            token=self.token,
        )
        assert status == 200, answer


def play(server: Server, game_id: str, players: dict[int, Player]) -> dict[str, Any]:
    """Play a 2-player Vikings game to its end through the API; its final summary."""
    state = get_game("vikings").new_initial_state(2, {})
    deadline = time.monotonic() + PATIENCE
    while True:
        status, record = server.request("GET", f"/api/games/{game_id}/record")
        assert status == 200
        for entry in record["actions"][len(state.history) :]:
            state.apply(state.action_from_json(entry["action"]))
        mover = state.current_player()
        if state.is_terminal():
            status, summary = server.request("GET", f"/api/games/{game_id}")
            return dict(summary)
        if mover in players:
            players[mover].move(state)
            deadline = time.monotonic() + PATIENCE
        else:
            assert time.monotonic() < deadline, "the server's draws or bots did not come"
            time.sleep(0.01)


def rated_game(server: Server, people: list[tuple[Browser, str]], seed: int, fixed: bool = True) -> dict[str, Any]:
    """A 2-player Vikings game between two account holders who keep their seats (bot policies `spec`); with
    `fixed`, its draws come from `seed` (on a server that allows it), else from the server's secret."""
    names = [browser.request("GET", "/api/session")[1]["account"]["name"] for browser, _spec in people]
    game = server.create([{"kind": "human", "name": name} for name in names], **({"seed": seed} if fixed else {}))
    players = {}
    for seat, ((browser, spec), invite) in enumerate(zip(people, game["invites"], strict=True)):
        assert browser.request("POST", f"/api/games/{game['id']}/claim", {}, token=invite["token"])[0] == 200
        players[seat] = Player(server, game["id"], invite["token"], spec, seed * 10 + seat)
    return play(server, game["id"], players)


def test_after_20_rated_games_the_stronger_player_is_rated_above_the_weaker(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--allow-client-seeds") as server:
        hilda, ulf = account(server, "Hilda"), account(server, "Ulf")
        wins = 0
        for game in range(20):
            people = [(hilda, "greedy"), (ulf, "random")] if game % 2 == 0 else [(ulf, "random"), (hilda, "greedy")]
            summary = rated_game(server, people, seed=game)
            wins += summary["result"]["winners"] == [game % 2]
        deadline = time.monotonic() + PATIENCE
        while True:  # the last game is rated in the background, just after its end
            status, table = server.request("GET", "/api/ratings/vikings")
            assert status == 200
            people = {row["name"]: row for row in table["players"] if not row["bot"]}
            if people.get("Hilda", {}).get("games") == 20 and people.get("Ulf", {}).get("games") == 20:
                break
            assert time.monotonic() < deadline, people
            time.sleep(0.1)
        order = [row["name"] for row in table["players"] if not row["bot"]]
        assert wins >= 15  # greedy play beats random play at Vikings
        assert order == ["Hilda", "Ulf"]
        assert people["Hilda"]["rating"] > ordinal(*FRESH) > people["Ulf"]["rating"]
        bots = {row["name"]: row["rating"] for row in table["players"] if row["bot"]}
        assert bots == {spec: round(ordinal(mu, sigma), 2) for spec, (mu, sigma) in BOTS.items()}
        status, history = server.request("GET", "/api/ratings/vikings/hilda")
        assert status == 200 and len(history["games"]) == 20
        assert all(entry["players"] == 2 and entry["place"] in (1, 2) for entry in history["games"])
        assert history["games"][-1]["after"] == people["Hilda"]["rating"]
        assert server.request("GET", "/api/ratings/vikings/nobody")[0] == 404
        assert server.request("GET", "/api/ratings/no-such-game")[0] == 404


def test_a_game_with_a_seat_not_kept_in_an_account_is_not_rated_and_bots_keep_their_ratings(
    server: Server,
) -> None:
    ann = account(server, "Ann")
    loose = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Guest"}])
    assert ann.request("POST", f"/api/games/{loose['id']}/claim", {}, token=loose["invites"][0]["token"])[0] == 200
    players = {
        seat: Player(server, loose["id"], invite["token"], "random", seat)
        for seat, invite in enumerate(loose["invites"])
    }
    play(server, loose["id"], players)
    # Kept after the end, the guest's seat would let its holder choose which results count.
    status, refusal = ann.request("POST", f"/api/games/{loose['id']}/claim", {}, token=loose["invites"][1]["token"])
    assert status == 409 and refusal["error"]["code"] == "over"
    against_bot = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    token = against_bot["invites"][0]["token"]
    assert ann.request("POST", f"/api/games/{against_bot['id']}/claim", {}, token=token)[0] == 200
    play(server, against_bot["id"], {0: Player(server, against_bot["id"], token, "greedy", 1)})
    deadline = time.monotonic() + PATIENCE
    while True:
        _, history = server.request("GET", "/api/ratings/vikings/Ann")
        if history["games"]:
            break
        assert time.monotonic() < deadline
        time.sleep(0.1)
    time.sleep(1)  # room for a wrong second rating to appear
    _, history = server.request("GET", "/api/ratings/vikings/Ann")
    assert [entry["id"] for entry in history["games"]] == [against_bot["id"]]  # only the game with no guest
    _, table = server.request("GET", "/api/ratings/vikings")
    assert {row["name"]: row["rating"] for row in table["players"] if row["bot"]}["random"] == round(
        ordinal(*BOTS["random"]), 2
    )


def test_seats_that_share_the_win_share_the_first_rank() -> None:
    result = {
        "winners": [1, 2],
        "columns": [{"key": "score", "label": "Points"}],
        "standings": [
            {"place": 1, "seat": 1, "score": 9},
            {"place": 2, "seat": 2, "score": 9},
            {"place": 3, "seat": 0, "score": 4},
            {"place": 4, "seat": 3, "score": 4},
        ],
    }
    assert ranks(result) == [3, 1, 1, 3]


def rated_games(server: Server, name: str, count: int) -> list[dict[str, Any]]:
    """`name`'s rated Vikings games once there are `count` (they are rated in the background, just after the end)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        _, history = server.request("GET", f"/api/ratings/vikings/{name}")
        if len(history["games"]) >= count:
            return list(history["games"])
        assert time.monotonic() < deadline, history
        time.sleep(0.05)


def test_a_new_token_for_a_claimed_seat_does_not_make_the_game_unrated(server: Server) -> None:
    """A claimed seat keeps its account whatever token reaches it: replacing the token before losing does not drop
    the claim, so the loss still counts."""
    ann, bo = account(server, "Ann"), account(server, "Bodil")
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bodil"}])
    tokens = [invite["token"] for invite in game["invites"]]
    for browser, token in zip((ann, bo), tokens, strict=True):
        assert browser.request("POST", f"/api/games/{game['id']}/claim", {}, token=token)[0] == 200
    status, fresh = server.request("POST", f"/api/games/{game['id']}/token", {}, token=tokens[1])
    assert status == 200
    players = {
        0: Player(server, game["id"], tokens[0], "greedy", 1),
        1: Player(server, game["id"], fresh["token"], "random", 2),
    }
    summary = play(server, game["id"], players)
    places = {row["seat"]: row["place"] for row in summary["result"]["standings"]}
    (entry,) = rated_games(server, "Bodil", 1)
    assert entry["id"] == game["id"] and entry["place"] == places[1]
    assert [row["id"] for row in rated_games(server, "Ann", 1)] == [game["id"]]
