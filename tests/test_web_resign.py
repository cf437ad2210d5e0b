"""Resigning and agreed draws at the web table, over real HTTP and WebSockets against a real server on a real SQLite
file: the resigner is ranked last and rated as having lost ("the first player to quit loses as if last", BGA); a
game goes on for two or more seats left, the resigned seat played by the greedy bot; a game abandoned by every
person at it is not rated; two people may agree a draw; a SIGKILL and a restart keep all of it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from skald.engine import State, get_game
from test_web_accounts import Browser
from test_web_ratings import PATIENCE, Player, account, rated_games
from web_support import Server, running


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a real SQLite file."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


def people(
    server: Server, names: list[str], bots: int = 0, browsers: list[Browser] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """A Vikings game of `names`, each keeping his seat in his account (new ones unless `browsers` are given), and
    `bots` greedy bots after them."""
    browsers = browsers or [account(server, name) for name in names]
    seats = [{"kind": "human", "name": name} for name in names] + [{"kind": "bot", "bot": "greedy"}] * bots
    game = server.create(seats)
    tokens = [invite["token"] for invite in game["invites"]]
    for browser, token in zip(browsers, tokens, strict=True):
        assert browser.request("POST", f"/api/games/{game['id']}/claim", {}, token=token)[0] == 200
    return game, tokens


def caught_up(server: Server, game_id: str, state: State) -> State:
    """`state` brought up to the server's record of the game."""
    status, record = server.request("GET", f"/api/games/{game_id}/record")
    assert status == 200
    for entry in record["actions"][len(state.history) :]:
        state.apply(state.action_from_json(entry["action"]))
    return state


def play_until(
    server: Server, game: dict[str, Any], players: dict[int, Player], done: Callable[[State], bool]
) -> State:
    """Play the seats of `players` through the API until `done` holds (or the server says the game is over)."""
    state = get_game("vikings").new_initial_state(game["players"], {})
    deadline = time.monotonic() + PATIENCE
    while True:
        caught_up(server, game["id"], state)
        if done(state) or server.request("GET", f"/api/games/{game['id']}")[1]["status"] == "over":
            return state
        mover = state.current_player()
        if mover in players:
            players[mover].move(state)
            deadline = time.monotonic() + PATIENCE
        else:
            assert time.monotonic() < deadline, "the server's draws or bots did not come"
            time.sleep(0.01)


def summary(server: Server, game_id: str) -> dict[str, Any]:
    """The game's public summary."""
    status, found = server.request("GET", f"/api/games/{game_id}")
    assert status == 200
    return dict(found)


def test_a_resign_in_a_game_of_two_ends_it_ranks_the_resigner_last_and_is_rated_as_his_loss(server: Server) -> None:
    game, tokens = people(server, ["Astrid", "Bjorn"])
    players = {seat: Player(server, game["id"], token, "greedy", seat) for seat, token in enumerate(tokens)}
    state = play_until(server, game, players, lambda s: len(s.history) >= 12 and s.current_player() == 1)
    status, answer = server.request("POST", f"/api/games/{game['id']}/resign", {}, token=tokens[1])
    assert status == 200 and answer["status"] == "over"
    result = answer["result"]
    assert result["winners"] == [0] and result["resigned"] == [1]
    assert [(row["seat"], row.get("resigned", False)) for row in result["standings"]] == [(0, False), (1, True)]
    found = summary(server, game["id"])
    assert found["resigned"] == [{"seat": 1, "name": "Bjorn", "ply": len(state.history)}]
    assert found["to_move"] is None
    status, refusal = server.request(
        "POST", f"/api/games/{game['id']}/moves", {"version": len(state.history), "action": {}}, token=tokens[0]
    )
    assert status == 409 and refusal["error"]["code"] == "game_over"
    (lost,) = rated_games(server, "Bjorn", 1)
    (won,) = rated_games(server, "Astrid", 1)
    assert (lost["place"], won["place"]) == (2, 1) and lost["after"] < lost["before"]


def test_a_seat_that_resigns_among_three_is_played_by_the_greedy_bot_and_finishes_last(server: Server) -> None:
    game, tokens = people(server, ["Astrid", "Bjorn", "Cnut"])
    players = {seat: Player(server, game["id"], token, "random", seat) for seat, token in enumerate(tokens)}
    state = play_until(server, game, players, lambda s: len(s.history) >= 8 and s.current_player() == 0)
    assert server.request("POST", f"/api/games/{game['id']}/resign", {}, token=tokens[0])[0] == 200
    status, refusal = server.request("POST", f"/api/games/{game['id']}/resign", {}, token=tokens[0])
    assert status == 409 and refusal["error"]["code"] == "resigned"
    assert summary(server, game["id"])["status"] == "playing"  # two seats are left: the game goes on
    # It was the resigner's turn: the stand-in bot takes it, and his own moves are refused from now on.
    deadline = time.monotonic() + PATIENCE
    while caught_up(server, game["id"], state).current_player() == 0:
        assert time.monotonic() < deadline, "the stand-in bot did not move"
        time.sleep(0.02)
    assert 0 in {entry["seat"] for entry in server.request("GET", f"/api/games/{game['id']}/record")[1]["actions"][8:]}
    del players[0]
    state = play_until(server, game, players, lambda s: s.is_terminal())
    result = summary(server, game["id"])["result"]
    assert state.is_terminal() and result["standings"][-1]["seat"] == 0 and result["standings"][-1]["resigned"]
    assert 0 not in result["winners"]
    assert [row["place"] for row in rated_games(server, "Astrid", 1)] == [3]


def test_a_game_abandoned_by_every_person_at_it_is_not_rated(server: Server) -> None:
    browsers = [account(server, "Astrid"), account(server, "Bjorn")]
    game, tokens = people(server, ["Astrid", "Bjorn"], bots=1, browsers=browsers)
    assert server.request("POST", f"/api/games/{game['id']}/resign", {}, token=tokens[0])[0] == 200
    assert summary(server, game["id"])["status"] == "playing"
    status, answer = server.request("POST", f"/api/games/{game['id']}/resign", {}, token=tokens[1])
    assert status == 200 and answer["status"] == "over" and answer["result"]["winners"] == [2]
    # The same two people's next game, resigned by one of them, is rated: once it is, the abandoned one (which ended
    # first, and would have been rated first) is seen not to be.
    again, again_tokens = people(server, ["Astrid", "Bjorn"], browsers=browsers)
    assert server.request("POST", f"/api/games/{again['id']}/resign", {}, token=again_tokens[0])[0] == 200
    assert [entry["id"] for entry in rated_games(server, "Bjorn", 1)] == [again["id"]]
    assert [entry["id"] for entry in rated_games(server, "Astrid", 1)] == [again["id"]]


def test_two_people_agree_a_draw_over_the_websocket_and_share_the_result(server: Server) -> None:
    game, tokens = people(server, ["Astrid", "Bjorn"])

    def until(conn: Any, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = json.loads(conn.recv(timeout=30))
            if check(message):
                return dict(message)

    url = f"{server.ws}/ws/{game['id']}"
    with connect(url, open_timeout=30) as astrid, connect(url, open_timeout=30) as bjorn:
        for conn, token in ((astrid, tokens[0]), (bjorn, tokens[1])):
            conn.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
            until(conn, lambda m: m["type"] == "update")
        astrid.send(json.dumps({"type": "draw", "act": "maybe"}))
        refusal = until(astrid, lambda m: m["type"] == "error")
        assert refusal["code"] == "act" and "act:" in refusal["message"]
        bjorn.send(json.dumps({"type": "draw", "act": "accept"}))
        assert until(bjorn, lambda m: m["type"] == "error")["code"] == "draw"  # nothing was offered
        astrid.send(json.dumps({"type": "draw", "act": "offer"}))
        assert until(bjorn, lambda m: m["type"] == "update" and m.get("draw_offer") == 0)
        bjorn.send(json.dumps({"type": "draw", "act": "accept"}))
        ended = until(astrid, lambda m: m["type"] == "update" and m["status"] == "over")
    assert ended["result"]["winners"] == [0, 1] and ended["result"]["agreed"] is True
    assert {row["place"] for row in rated_games(server, "Astrid", 1) + rated_games(server, "Bjorn", 1)} == {1}


def test_a_draw_offer_lapses_with_the_next_move_and_a_game_with_a_bot_cannot_be_drawn(server: Server) -> None:
    game, tokens = people(server, ["Astrid", "Bjorn"])
    players = {seat: Player(server, game["id"], token, "greedy", seat) for seat, token in enumerate(tokens)}
    state = play_until(server, game, players, lambda s: s.current_player() == 0)
    assert (
        server.request("POST", f"/api/games/{game['id']}/draw", {"act": "offer"}, token=tokens[0])[1]["draw_offer"] == 0
    )
    players[0].move(state)
    status, refusal = server.request("POST", f"/api/games/{game['id']}/draw", {"act": "accept"}, token=tokens[1])
    assert status == 409 and "lapses" in refusal["error"]["message"]
    status, refusal = server.request("POST", f"/api/games/{game['id']}/draw", {"act": 1}, token=tokens[1])
    assert status == 400 and "act" in refusal["error"]["message"]
    with_bot, bot_tokens = people(server, ["Cnut"], bots=1)
    status, refusal = server.request("POST", f"/api/games/{with_bot['id']}/draw", {"act": "offer"}, token=bot_tokens[0])
    assert status == 409 and refusal["error"]["code"] == "draw"
    status, refusal = server.request("POST", f"/api/games/{with_bot['id']}/resign", {}, token="A" * 32)
    assert status == 403


def test_resignations_and_an_agreed_draw_survive_a_sigkill(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        three, tokens = people(server, ["Astrid", "Bjorn", "Cnut"])
        assert server.request("POST", f"/api/games/{three['id']}/resign", {}, token=tokens[2])[0] == 200
        drawn = server.create([{"kind": "human", "name": "Dag"}, {"kind": "human", "name": "Eir"}])
        drawn_tokens = [invite["token"] for invite in drawn["invites"]]
        server.request("POST", f"/api/games/{drawn['id']}/draw", {"act": "offer"}, token=drawn_tokens[0])
        server.request("POST", f"/api/games/{drawn['id']}/draw", {"act": "accept"}, token=drawn_tokens[1])
        server.kill()
        server.start()
        found = summary(server, three["id"])
        assert found["status"] == "playing" and [entry["seat"] for entry in found["resigned"]] == [2]
        status, refusal = server.request("POST", f"/api/games/{three['id']}/resign", {}, token=tokens[2])
        assert status == 409 and refusal["error"]["code"] == "resigned"
        players = {seat: Player(server, three["id"], tokens[seat], "random", seat) for seat in (0, 1)}
        state = play_until(server, three, players, lambda s: s.is_terminal())  # the bot still plays seat 3
        assert state.is_terminal() and summary(server, three["id"])["result"]["standings"][-1]["seat"] == 2
        again = summary(server, drawn["id"])
        assert again["status"] == "over" and again["result"]["winners"] == [0, 1] and again["result"]["agreed"]
