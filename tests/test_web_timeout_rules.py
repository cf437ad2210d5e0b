"""The table's rule for a seat whose clock runs out, over real HTTP and WebSockets against a real server on a real
SQLite file, with 1-second banks: `bot` gives the seat to the chosen bot until its player presses "I'm back" (kept
across a SIGKILL), and he has it again at his next turn with time on his clock; `pass` passes the seat's turns
wherever the rules allow a pass and lets the bot play the others; `expel` (the default) ranks him last."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skald.engine import Record, get_game
from test_web_ratings import account, rated_games
from web_support import Server, hello, running, until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on a real SQLite file, shared by the module's tests (each makes its own games)."""
    with running(f"sqlite:///{tmp_path_factory.mktemp('timeouts') / 'skald.db'}") as live:
        yield live


def away(message: dict[str, Any]) -> list[int]:
    """The seats a bot plays for their absent persons, as an update says."""
    return [entry["seat"] for entry in message.get("away", [])] if message["type"] == "update" else []


def test_under_the_bot_rule_a_bot_plays_the_seat_until_its_player_is_back_at_his_next_turn(server: Server) -> None:
    clock = {"kind": "live", "bank": 1, "increment": 0, "timeout": "bot", "stand_in": "random"}
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}], clock=clock)
    assert game["clock"]["timeout"] == "bot" and game["clock"]["stand_in"] == "random"
    token = game["invites"][0]["token"]
    with hello(server, game["id"], token) as conn:
        gone = until(conn, lambda m: away(m) == [0])
        assert gone["away"][0]["bot"] == "random" and gone["away"][0]["returning"] is False
        assert gone["status"] == "playing" and gone["resigned"] == []  # not expelled
        played = until(conn, lambda m: m["type"] == "update" and any(e["seat"] == 0 for e in m["log"]))
        conn.send(json.dumps({"type": "move", "version": played["version"], "action": {"type": "pass"}}))
        refusal = until(conn, lambda m: m["type"] == "error")
        assert refusal["code"] == "away" and "I'm back" in refusal["message"]
    server.kill()
    server.start()  # the absence was stored: the bot carries on after a restart
    status, summary = server.request("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["seats"][0]["away"] is True
    with hello(server, game["id"], token) as conn:
        status, answer = server.request("POST", f"/api/games/{game['id']}/back", {}, token=token)
        assert status == 200 and answer["away"][0]["returning"] is True
        mine = until(conn, lambda m: m["type"] == "update" and m["to_move"] == 0 and bool(m["legal"]))
        assert away(mine) == [] and mine["clocks"]["running"] == 0
        assert 5 < mine["clocks"]["left"][0] <= 10  # given back the reserve: the warning time, 10 s
        conn.send(json.dumps({"type": "move", "version": mine["version"], "action": mine["legal"][0]["action"]}))
        until(conn, lambda m: m["type"] == "update" and m["version"] > mine["version"])
    status, refusal = server.request("POST", f"/api/games/{game['id']}/back", {}, token=token)
    assert status == 409 and refusal["error"]["code"] == "not_away"


PASSING = {"kind": "live", "bank": 1, "increment": 0, "timeout": "pass", "stand_in": "random"}
AGAINST_A_BOT = [{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}]


def test_under_the_pass_rule_the_seat_whose_clock_ran_out_passes_its_turns(server: Server) -> None:
    game = server.create(AGAINST_A_BOT, game="vikingatid", clock=PASSING)
    with hello(server, game["id"], game["invites"][0]["token"]) as conn:
        since = until(conn, lambda m: away(m) == [0])["away"][0]["ply"]
        until(
            conn,
            lambda m: (
                m["type"] == "update"
                and any(e["seat"] == 0 and e["ply"] >= since and e["notation"] == "pass" for e in m["log"])
            ),
        )


@pytest.mark.slow
def test_under_the_pass_rule_the_seat_passes_wherever_a_pass_is_legal_and_the_bot_plays_the_rest(
    tmp_path: Path,
) -> None:
    clock, seats = PASSING, AGAINST_A_BOT
    with running(f"sqlite:///{tmp_path / 'skald.db'}", env={"SKALD_HIDDEN_PACE": "0.01"}) as server:
        game = server.create(seats, game="vikingatid", clock=clock)
        with hello(server, game["id"], None) as conn:
            ended = until(conn, lambda m: m["type"] == "update" and m["status"] == "over", timeout=120)
        assert away(ended) == [0] and ended["resigned"] == []  # rated as played: never expelled
        since = ended["away"][0]["ply"]
        status, data = server.request("GET", f"/api/games/{game['id']}/record")
        assert status == 200
        record = Record.from_dict(data)
        state = record.initial_state()
        presentation = get_game("vikingatid").presentation
        passed = bot = 0
        for ply, action in enumerate(record.actions):
            if ply >= since and state.current_player() == 0:
                found = presentation.pass_action(state)
                if found is None:
                    bot += 1
                else:
                    assert action == found, f"ply {ply}: a pass was legal, but {state.action_to_notation(action)}"
                    passed += 1
            state.apply(action)
        assert passed > 0 and bot > 0


def test_under_the_expel_rule_the_default_the_seat_whose_clock_runs_out_is_ranked_last(server: Server) -> None:
    two = [{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bjorn"}]
    plain = server.create(two, clock={"kind": "live", "bank": 60})
    assert plain["clock"]["timeout"] == "expel"
    game = server.create(two, clock={"kind": "live", "bank": 1, "timeout": "expel", "stand_in": "mcts:hard"})
    with hello(server, game["id"], None) as conn:
        mover = until(conn, lambda m: m["type"] == "update" and m["to_move"] is not None)["to_move"]
        ended = until(conn, lambda m: m["type"] == "update" and m["status"] == "over")
    assert ended["result"]["resigned"] == [mover] and ended["result"]["winners"] == [1 - mover]
    assert away(ended) == []
    status, refusal = server.request(
        "POST", "/api/games", {"seats": two, "clock": {"kind": "live", "timeout": "leave"}}
    )
    assert status == 400 and "clock.timeout" in refusal["error"]["message"]


def test_under_the_bot_rule_a_rated_game_played_out_by_the_bots_is_rated_as_played(server: Server) -> None:
    clock = {"kind": "live", "bank": 1, "increment": 0, "timeout": "bot", "stand_in": "random"}
    browsers = [account(server, name) for name in ("Gudrun", "Halvard")]
    seats = [{"kind": "human", "name": "Gudrun"}, {"kind": "human", "name": "Halvard"}]
    game = server.create(seats, clock=clock)
    for browser, invite in zip(browsers, game["invites"], strict=True):
        assert browser.request("POST", f"/api/games/{game['id']}/claim", {}, token=invite["token"])[0] == 200
    with hello(server, game["id"], None) as conn:  # both clocks run out in turn: the bots play the game out
        ended = until(conn, lambda m: m["type"] == "update" and m["status"] == "over", timeout=120)
    assert sorted(away(ended)) == [0, 1] and ended["resigned"] == []
    standings = ended["result"]["standings"]
    assert not any(row.get("resigned") for row in standings)  # nobody expelled: the board's own result
    for row in standings:
        (played,) = rated_games(server, ("Gudrun", "Halvard")[row["seat"]], 1)
        assert played["id"] == game["id"] and played["place"] == row["place"]  # rated at the place the board gave
