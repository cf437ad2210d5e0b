"""Time controls over real HTTP and WebSockets against a real server on a real SQLite file: a live clock counts
down the seat to move and, when it reaches zero, the table's rule expels that seat (scored last, as a resignation)
within a second — also when the server was killed with SIGKILL in between, the time used being recomputed from
the stored timestamps. Turn-based clocks give each move its days; a game made without a clock has none."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from web_support import Server, running

TWO = [{"kind": "human", "name": "Astrid"}, {"kind": "human", "name": "Bjorn"}]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a real SQLite file."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


def watch_until(server: Server, game_id: str, check: Callable[[dict[str, Any]], bool], timeout: float = 60) -> Any:
    """Watch the table as a spectator until an update passes `check`; that update."""
    with connect(f"{server.ws}/ws/{game_id}", open_timeout=30) as conn:
        conn.send(json.dumps({"type": "hello", "token": None, "svg": False, "full": False}))
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(conn.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message["type"] == "update" and check(message):
                return message


def test_a_live_clock_runs_down_the_seat_to_move_and_expels_it_within_a_second_of_zero(server: Server) -> None:
    game = server.create(TWO, clock={"kind": "live", "bank": 3, "increment": 1})
    made = time.time()
    first = watch_until(server, game["id"], lambda m: True)
    clocks = first["clocks"]
    mover = first["to_move"]
    assert clocks["kind"] == "live" and clocks["running"] == mover and clocks["warning"] == 10
    assert 0 < clocks["left"][mover] <= 3 and clocks["left"][1 - mover] == 3
    ended = watch_until(server, game["id"], lambda m: m["status"] == "over")
    late = time.time() - (made + 3)
    assert late < 1.0, f"the flag fell {late:.2f} s after the clock reached zero"
    assert ended["result"]["resigned"] == [mover] and ended["result"]["winners"] == [1 - mover]
    assert [entry["seat"] for entry in ended["resigned"]] == [mover]


def move_now(server: Server, game_id: str, token: str) -> dict[str, Any]:
    """Make the seat's first legal move as soon as it is to move, over its WebSocket; the update after it."""
    with connect(f"{server.ws}/ws/{game_id}", open_timeout=30) as conn:
        conn.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
        while True:
            message = json.loads(conn.recv(timeout=30))
            if message["type"] == "update" and message["legal"]:
                break
        conn.send(json.dumps({"type": "move", "version": message["version"], "action": message["legal"][0]["action"]}))
        while True:
            moved = json.loads(conn.recv(timeout=30))
            if moved["type"] == "update" and moved["version"] > message["version"]:
                return dict(moved)


def test_a_clock_survives_a_sigkill_the_time_used_recomputed_from_stored_timestamps(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        game = server.create(TWO, clock={"kind": "live", "bank": 20, "increment": 0})
        first = watch_until(server, game["id"], lambda m: m["to_move"] is not None)["to_move"]
        moved = move_now(server, game["id"], game["invites"][first]["token"])
        moved_at = time.time()
        mover = moved["to_move"]
        assert moved["clocks"]["running"] == mover
        left = moved["clocks"]["left"][mover]
        if mover == first:  # the seat moved twice in its turn: its clock used a little of its bank, if any
            assert left <= 20
        server.kill()
        server.start()  # the clock ran on while the server was down: it counts from the move's stored time
        assert time.time() < moved_at + left - 1, "the restart took longer than the clock had left"
        status, summary = server.request("GET", f"/api/games/{game['id']}")
        assert status == 200 and summary["clock"]["bank"] == 20
        ended = watch_until(server, game["id"], lambda m: m["status"] == "over")
        late = time.time() - (moved_at + left)
        assert -1.0 < late < 1.0, f"the flag fell {late:.2f} s from the clock's zero"
        assert ended["result"]["resigned"] == [mover] and ended["result"]["winners"] == [1 - mover]


def test_a_move_stops_the_clock_adds_the_increment_and_starts_the_other_seats(server: Server) -> None:
    game = server.create(
        [{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}],
        clock={"kind": "live", "bank": 60, "increment": 5},
    )
    view = watch_until(server, game["id"], lambda m: m["to_move"] == 0)
    assert view["clocks"]["left"][1] is None  # a bot's seat has no clock
    moved = move_now(server, game["id"], game["invites"][0]["token"])
    assert 60 < moved["clocks"]["left"][0] <= 65  # a few seconds' thought at most, and the increment earned


def test_turn_based_clocks_give_each_move_its_days_and_no_clock_means_none(server: Server) -> None:
    game = server.create(TWO, clock={"kind": "turn", "days": 2})
    view = watch_until(server, game["id"], lambda m: True)
    assert view["clocks"]["kind"] == "turn"
    assert 2 * 86400 - 60 < view["clocks"]["left"][view["to_move"]] <= 2 * 86400
    assert view["clocks"]["warning"] == 3600
    plain = server.create(TWO)
    assert watch_until(server, plain["id"], lambda m: True)["clocks"] is None
    status, refusal = server.request("POST", "/api/games", {"seats": TWO, "clock": {"kind": "live", "bank": 0}})
    assert status == 400 and "clock" in refusal["error"]["message"] and "bank" in refusal["error"]["message"]
