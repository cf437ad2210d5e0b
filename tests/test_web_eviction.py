"""A long-running web table keeps in memory only the tables it needs, and a dropped table comes back exactly.

A table nobody holds (no WebSocket, no request, no bot thinking, no commit pending) is dropped once its game is
over, once it has been idle for `SKALD_TABLE_IDLE_SECONDS`, or when it is the least recently used beyond
`SKALD_MAX_TABLES`. Every move is committed before anyone is told, so the next request loads it again with the
same version, state and seats, and its bots carry on. Real `skald serve`, real SQLite file and PostgreSQL,
real HTTP and WebSockets; tiny idle times set through the environment instead of long sleeps.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from skald.engine import Record
from test_web_api import Socket, human_vs_bot, play_out
from web_support import Server, free_port, postgres, running

#: These tests fix their games' seeds, to know the draws (a server allows it only when told to).
SEEDS = "--allow-client-seeds"

SEED = 20240612
TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[str]:
    """One throwaway PostgreSQL server for the module; each test gets a database of its own on it."""
    with postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'skald.db'}"
    server: str = request.getfixturevalue("postgres_server")
    name = f"eviction_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return f"{server.rsplit('/', 1)[0]}/{name}"


def tables(server: Server) -> dict[str, Any]:
    """The health endpoint's account of the tables in memory."""
    status, health = server.request("GET", "/api/health")
    assert status == 200
    assert health["games"] == health["tables"]["resident"]
    return dict(health["tables"])


def wait_for_tables(server: Server, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Poll the health endpoint until `condition` holds for its tables (a guard fails the test if it never does)."""
    deadline = time.monotonic() + 120
    while True:
        stats = tables(server)
        if condition(stats):
            return stats
        if time.monotonic() > deadline:
            pytest.fail(f"the tables never settled as expected: {stats}")
        time.sleep(0.02)


def summary(server: Server, game_id: str, token: str | None = None) -> dict[str, Any]:
    status, data = server.request("GET", f"/api/games/{game_id}", token=token)
    assert status == 200, data
    return dict(data)


def served(server: Server, game_id: str, token: str) -> dict[str, Any]:
    """Everything the server tells about a game: the seat's and a spectator's view, summary, record and replays."""
    seat = Socket(server, game_id, token, svg=True)
    spectator = Socket(server, game_id, svg=True)
    seen: dict[str, Any] = {
        "seat": (seat.welcome, seat.view),
        "spectator": (spectator.welcome, spectator.view),
        "summary": summary(server, game_id, token),
    }
    seat.close()
    spectator.close()
    seen["record"] = server.request("GET", f"/api/games/{game_id}/record")
    version = seen["summary"]["version"]
    seen["replays"] = [server.request("GET", f"/api/games/{game_id}/replay/{ply}") for ply in (0, 1, version // 2)]
    seen["replays"].append(server.request("GET", f"/api/games/{game_id}/replay/{version}"))
    return seen


def test_a_finished_game_is_dropped_and_served_identically_after_loading_again(database: str) -> None:
    with running(database, SEEDS, env={"SKALD_TABLE_IDLE_SECONDS": "3600"}) as server:
        game = human_vs_bot(server, "greedy", seed=SEED)
        token = game["invites"][0]["token"]
        player = Socket(server, game["id"], token)
        assert play_out(player)["status"] == "over"
        before = served(server, game["id"], token)
        assert tables(server)["resident"] == 1  # the player is still at the table
        player.close()

        dropped = wait_for_tables(server, lambda t: t["resident"] == 0)
        after = served(server, game["id"], token)

        assert tables(server)["loads"] > dropped["loads"]  # it really was read back from the database
        assert after == before
        assert after["seat"][0]["you"] == 0 and after["summary"]["you"] == 0
        assert after["summary"]["status"] == "over" and after["seat"][1]["result"]["winners"]
        status, record = after["record"]
        assert status == 200 and Record.from_dict(record).replay().is_terminal()


def asked_plies(record: dict[str, Any], seat: int) -> list[int]:
    """The plies of a record at which `seat` was asked: its decisions with more than one legal answer (the table
    gives the others)."""
    state = Record.from_dict(record).initial_state()
    asked = []
    for ply, entry in enumerate(record["actions"]):
        if state.current_player() == seat and len(state.legal_actions()) > 1:
            asked.append(ply)
        state.apply(state.action_from_json(entry["action"]))
    return asked


def test_an_idle_game_with_a_bot_is_dropped_loaded_again_by_the_next_move_and_the_bot_carries_on(
    database: str,
) -> None:
    """The same seed played straight through and with the table dropped while the person thinks: one record."""
    with running(database, SEEDS, env={"SKALD_TABLE_IDLE_SECONDS": "0.2"}) as server:
        straight = human_vs_bot(server, "greedy", seed=SEED)
        player = Socket(server, straight["id"], straight["invites"][0]["token"])
        play_out(player)
        player.close()
        _status, expected = server.request("GET", f"/api/games/{straight['id']}/record")

        game = human_vs_bot(server, "greedy", seed=SEED)
        token = game["invites"][0]["token"]
        person_plies = asked_plies(expected, 0)
        assert len(person_plies) > 40
        for turn, ply in enumerate(person_plies):
            left_alone = turn % 8 == 0
            if left_alone:  # until it is out of memory: the bot has moved, nobody is connected, it is idle
                before = wait_for_tables(server, lambda t: t["resident"] == 0)
            else:
                while summary(server, game["id"])["version"] < ply:
                    time.sleep(0.01)
            move = {"version": ply, "action": expected["actions"][ply]["action"]}
            status, data = server.request("POST", f"/api/games/{game['id']}/moves", move, token=token)
            assert status == 200, data
            if left_alone:
                assert tables(server)["loads"] > before["loads"]  # the move brought the table back

        while summary(server, game["id"])["status"] != "over":
            time.sleep(0.02)
        _status, record = server.request("GET", f"/api/games/{game['id']}/record")
        assert record["actions"] == expected["actions"]


def test_a_table_stays_in_memory_while_its_bot_thinks_so_a_player_back_mid_think_is_told_the_move(
    database: str,
) -> None:
    """The person leaves right after each move and comes back while `mcts:hard` is still thinking (each think is
    far longer than the idle time); the bot's move reaches the new connection every time."""
    with running(database, SEEDS, env={"SKALD_TABLE_IDLE_SECONDS": "0.02"}) as server:
        game = human_vs_bot(server, "mcts:hard", seed=SEED)
        token = game["invites"][0]["token"]
        sock = Socket(server, game["id"], token)
        comebacks = 0
        while comebacks < 8:
            view = sock.my_turn()
            sock.send({"type": "move", "version": view["version"], "action": view["legal"][0]["action"]})
            after = sock.update_after(view["version"])
            if after["to_move"] == 0:
                continue  # the person's turn goes on
            sock.close()
            # Not a measurement: time enough for a server that dropped tables mid-think to do so.
            time.sleep(0.1)
            sock = Socket(server, game["id"], token)
            assert sock.my_turn()["status"] == "playing"
            assert any(entry["seat"] == 1 for entry in sock.log[after["version"] :])  # the bot's move came
            comebacks += 1
        sock.close()


def test_the_cap_keeps_the_resident_tables_bounded_however_many_games_are_created(database: str) -> None:
    env = {"SKALD_MAX_TABLES": "3", "SKALD_TABLE_IDLE_SECONDS": "3600"}
    with running(database, SEEDS, env=env) as server:
        ids = []
        for created in range(1, 13):
            ids.append(server.create(TWO_PEOPLE)["id"])
            stats = wait_for_tables(server, lambda t: t["busy"] == 0)  # the opening draws are committed
            assert stats["resident"] == min(created, 3) and stats["max"] == 3
        assert stats["drops"] == 9

        # The three most recently used are in memory; an older game loads again and pushes out the least recent.
        for game_id in ids[-3:]:
            summary(server, game_id)
        assert tables(server)["loads"] == stats["loads"]
        assert summary(server, ids[0])["version"] > 0
        assert tables(server)["loads"] == stats["loads"] + 1
        summary(server, ids[-1])
        assert tables(server)["loads"] == stats["loads"] + 1  # still in memory
        summary(server, ids[-3])
        after = tables(server)
        assert after["loads"] == stats["loads"] + 2 and after["resident"] == 3  # ids[-3] was the least recent


def test_a_table_with_a_connected_player_is_never_dropped(database: str) -> None:
    """Idle far beyond the idle time and the least recently used beyond the cap, it stays while Ann is connected:
    a move made over HTTP reaches her open connection."""
    env = {"SKALD_MAX_TABLES": "2", "SKALD_TABLE_IDLE_SECONDS": "0.2"}
    with running(database, SEEDS, env=env) as server:
        game = server.create(TWO_PEOPLE)
        token = game["invites"][0]["token"]
        ann = Socket(server, game["id"], token)
        view = ann.my_turn()
        for _ in range(6):
            server.create(TWO_PEOPLE)
        # Every other table is dropped by the idle sweep, which passed over Ann's (the least recently used) first.
        stats = wait_for_tables(server, lambda t: t["resident"] == 1)
        assert stats["busy"] == 1 and stats["drops"] == 6

        move = {"version": view["version"], "action": view["legal"][0]["action"]}
        status, data = server.request("POST", f"/api/games/{game['id']}/moves", move, token=token)
        assert status == 200, data
        assert tables(server)["loads"] == stats["loads"]  # the move found Ann's table in memory
        assert ann.update_after(view["version"])["version"] > view["version"]
        ann.close()


def test_clients_reconnecting_for_every_move_lose_nothing_when_tables_are_dropped_as_soon_as_unused(
    database: str,
) -> None:
    """`SKALD_TABLE_IDLE_SECONDS=0`: a table is dropped whenever nobody holds it, while both seats reconnect for
    each move and a third client keeps reading the game; every move lands once, at its ply, and every hello sees
    the whole log so far."""
    with running(database, SEEDS, env={"SKALD_TABLE_IDLE_SECONDS": "0"}) as server:
        game = server.create(TWO_PEOPLE, seed=SEED)
        tokens = [invite["token"] for invite in game["invites"]]
        done = threading.Event()
        reads: list[int] = []

        def read_along() -> None:
            while not done.is_set():
                status, data = server.request("GET", f"/api/games/{game['id']}")
                reads.append(status)
                server.request("GET", f"/api/games/{game['id']}/replay/{data['version']}")

        reader = threading.Thread(target=read_along)
        reader.start()
        try:
            played: dict[int, Any] = {}
            log: list[dict[str, Any]] = []
            while len(played) < 60:
                mover = summary(server, game["id"])["to_move"]
                if mover is None:  # the opening draws are still being committed
                    continue
                sock = Socket(server, game["id"], tokens[mover])
                assert sock.log[: len(log)] == log  # the whole log so far, then whatever came since
                view = sock.my_turn()
                choice = view["legal"][(view["version"] * 7) % len(view["legal"])]
                sock.send({"type": "move", "version": view["version"], "action": choice["action"]})
                sock.update_after(view["version"])
                sock.close()
                played[view["version"]] = choice["action"]
                log = sock.log
        finally:
            done.set()
            reader.join()

        _status, record = server.request("GET", f"/api/games/{game['id']}/record")
        assert all(record["actions"][ply]["action"] == action for ply, action in played.items())
        assert [entry["notation"] for entry in log] == [a["notation"] for a in record["actions"]][: len(log)]
        assert set(reads) == {200}
        wait_for_tables(server, lambda t: t["resident"] == 0)


def test_a_bad_setting_stops_the_server_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(free_port())]
    command += ["--db", f"sqlite:///{tmp_path / 'skald.db'}"]
    result = subprocess.run(
        command, env={**os.environ, "SKALD_MAX_TABLES": "lots"}, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert result.stderr == "skald serve: SKALD_MAX_TABLES='lots': expected a whole number of at least 1\n"


def test_the_serve_flags_set_the_table_limits_in_place_of_the_environment(tmp_path: Path) -> None:
    """A flag wins over its environment variable, which is then not even read; the other still comes from it."""
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    env = {"SKALD_MAX_TABLES": "lots", "SKALD_TABLE_IDLE_SECONDS": "42"}
    with running(url, "--max-tables", "3", env=env) as server:
        for _ in range(5):
            server.create(TWO_PEOPLE)
        stats = wait_for_tables(server, lambda t: t["busy"] == 0)
        assert (stats["max"], stats["idle_seconds"], stats["resident"]) == (3, 42, 3)
    env = {"SKALD_MAX_TABLES": "7", "SKALD_TABLE_IDLE_SECONDS": "soon"}
    with running(url, "--table-idle-seconds", "0", env=env) as server:
        server.create(TWO_PEOPLE)
        stats = wait_for_tables(server, lambda t: t["resident"] == 0)
        assert (stats["max"], stats["idle_seconds"]) == (7, 0)


@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [
        ("--max-tables", "lots", "a whole number of at least 1"),
        ("--max-tables", "0", "a whole number of at least 1"),
        ("--max-tables", "2.5", "a whole number of at least 1"),
        ("--table-idle-seconds", "-1", "a number of at least 0"),
        ("--table-idle-seconds", "inf", "a number of at least 0"),
    ],
)
def test_a_bad_flag_stops_the_server_with_one_line_naming_the_flag_and_no_traceback(
    tmp_path: Path, flag: str, value: str, expected: str
) -> None:
    command = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(free_port())]
    command += ["--db", f"sqlite:///{tmp_path / 'skald.db'}", flag, value]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == f"skald serve: {flag}={value!r}: expected {expected}\n"
