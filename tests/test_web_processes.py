"""Several `skald serve` processes on one database.

On PostgreSQL every process announces its committed moves (`NOTIFY`) and listens for the others', so a player or
spectator connected to one process sees at once every move made through another, and can answer it there. SQLite
serves one process: a second one on the same file is refused at start in one line. Real processes, a real
PostgreSQL server, real HTTP and WebSockets; every wait is bounded only to fail rather than hang.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from skald.web.notify import APPLICATION_NAME, parse
from skald.web.store.games import announcements
from test_web_api import Socket
from web_support import Server, free_port, postgres_fixture, two_servers  # noqa: F401 (fixture: database)

#: These tests fix their games' seeds, to know the draws (a server allows it only when told to).
SEEDS = "--allow-client-seeds"
SEED = 20240613
TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
#: How long a client waits for what it expects before the test fails (never a measure of speed).
PATIENCE = 30.0


@pytest.fixture()
def processes(database: str) -> Iterator[tuple[Server, Server]]:
    """Two server processes on the same PostgreSQL database."""
    with two_servers(database, SEEDS) as pair:
        yield pair


def receive(sock: Socket, wanted: Any) -> dict[str, Any]:
    """The next message satisfying `wanted`, failing on an error message or after `PATIENCE` seconds of silence
    (`Socket.until` tracks the view and the log meanwhile)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        raw = sock.conn.recv(timeout=max(0.1, deadline - time.monotonic()))
        message: dict[str, Any] = json.loads(raw)
        if message["type"] == "update":
            sock.log.extend(message["log"])
            sock.view = message
        assert message["type"] != "error", message
        if wanted(message):
            return message


def reach(sock: Socket, version: int) -> dict[str, Any]:
    """The socket's view once it has been told of every action up to `version`."""
    if sock.view.get("version", -1) >= version:
        return sock.view
    return receive(sock, lambda m: m["type"] == "update" and m["version"] >= version)


def seat_to_move(seats: list[Socket], version: int) -> int:
    """The index of the one socket whose seat is to move once every socket has been told of `version` or later:
    while chance is to move (the first draws, made just after the game was created, on a busy machine not yet when
    the sockets connect) the next version is waited for."""
    while True:
        views = [reach(sock, version) for sock in seats]
        movers = [index for index, view in enumerate(views) if view["legal"]]
        if movers:
            (mover,) = movers
            return mover
        version = max(view["version"] for view in views) + 1


def move(sock: Socket) -> int:
    """Play the socket's seat's first legal action and wait for its broadcast; the version it reached."""
    view = sock.view
    assert view["legal"], "not this seat's turn"
    sock.send({"type": "move", "version": view["version"], "action": view["legal"][0]["action"]})
    return int(receive(sock, lambda m: m["type"] == "update" and m["version"] > view["version"])["version"])


def record_notation(server: Server, game_id: str) -> list[str]:
    """The notation of every action of a game, as its record says."""
    status, record = server.request("GET", f"/api/games/{game_id}/record")
    assert status == 200, record
    return [entry["notation"] for entry in record["actions"]]


def test_a_player_at_one_process_sees_the_other_seats_move_made_through_another_and_answers_it_there(
    processes: tuple[Server, Server],
) -> None:
    first, second = processes
    game = first.create(TWO_PEOPLE, seed=SEED)
    ann, bo = (invite["token"] for invite in game["invites"])
    seats = [Socket(first, game["id"], ann), Socket(second, game["id"], bo)]  # Ann at one process, Bo at the other
    version = max(sock.view["version"] for sock in seats)
    movers: list[int] = []
    for _ in range(16):
        # Each is told of every action so far, whichever process it came through.
        mover = seat_to_move(seats, version)
        movers.append(mover)
        # Accepted where the mover is connected: had his process not heard the other's move, it would answer
        # `not_your_turn` or `stale` (an error message fails `receive`).
        version = move(seats[mover])
    for sock in seats:
        reach(sock, version)
    assert {0, 1} <= set(movers)  # both processes took moves, each answering one made through the other
    notation = record_notation(second, game["id"])
    assert len(notation) == version
    assert [entry["notation"] for entry in seats[0].log] == notation
    assert [entry["notation"] for entry in seats[1].log] == notation
    for sock in seats:
        sock.close()


def test_a_spectator_at_one_process_watches_every_move_made_through_another(
    processes: tuple[Server, Server],
) -> None:
    first, second = processes
    game = first.create(TWO_PEOPLE, seed=SEED)
    seats = [Socket(first, game["id"], invite["token"]) for invite in game["invites"]]
    watcher = Socket(second, game["id"])  # its process has the table in memory from now on
    version = max(sock.view["version"] for sock in seats)
    for _ in range(10):
        version = move(seats[seat_to_move(seats, version)])
        assert reach(watcher, version)["version"] == version
    assert [entry["notation"] for entry in watcher.log] == record_notation(first, game["id"])
    for sock in (*seats, watcher):
        sock.close()


def health(server: Server) -> dict[str, Any]:
    """The server's health report."""
    status, data = server.request("GET", "/api/health")
    assert status == 200
    return dict(data)


def test_a_process_whose_listening_connection_was_cut_listens_again_and_misses_no_move(
    database: str, processes: tuple[Server, Server]
) -> None:
    first, second = processes
    game = second.create(TWO_PEOPLE, seed=SEED)
    tokens = [invite["token"] for invite in game["invites"]]
    here = [Socket(first, game["id"], token) for token in tokens]  # both seats watch through the first process
    there = [Socket(second, game["id"], token) for token in tokens]
    version = max(sock.view["version"] for sock in there)
    assert health(first)["tables"]["listen"]["listening"] is True
    with psycopg.connect(database, autocommit=True) as admin:  # the database drops every listening connection
        cut = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", (APPLICATION_NAME,)
        ).fetchall()
    assert len(cut) == 2
    for _ in range(6):  # moves made through the second process while the first may not be listening
        version = move(there[seat_to_move(there, version)])
    for sock in here:  # heard, or looked up after listening again: either way told
        assert reach(sock, version)["version"] == version
    deadline = time.monotonic() + PATIENCE
    while health(first)["tables"]["listen"]["reconnects"] < 1:
        assert time.monotonic() < deadline, "the first process did not listen again"
        time.sleep(0.1)
    version = move(here[seat_to_move(here, version)])  # and the next move is accepted through the first
    for sock in there:
        assert reach(sock, version)["version"] == version
    for sock in (*here, *there):
        sock.close()


def serve(url: str) -> subprocess.CompletedProcess[str]:
    """`skald serve` on `url`, expected to stop by itself."""
    command = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(free_port()), "--db", url]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_second_server_process_on_one_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    database = tmp_path / "skald.db"
    url = f"sqlite:///{database}"
    server = Server(url)
    server.start()
    try:
        assert server.process is not None
        refused = serve(url)
        assert refused.returncode != 0
        assert "Traceback" not in refused.stderr
        (line,) = refused.stderr.splitlines()
        assert line.startswith(f"skald serve: the SQLite file {database} is already served by process ")
        assert str(server.process.pid) in line and "PostgreSQL" in line
        assert health(server)["ok"] is True  # the first carries on
        server.kill()  # however the first ends, its file is free again
        server.start()
        assert health(server)["ok"] is True
    finally:
        server.stop()


def test_an_announcement_carries_each_games_actions_and_leaves_out_only_those_too_long_to_fit() -> None:
    """What a process hears is what the committing one said: each game, the versions it moved from and to, and the
    actions, so the hearer applies them without reading the database; a game whose actions would not fit in one
    notification is told without them (its hearers read the database); a process ignores its own announcements."""
    games = [("aB-3_x", 7, [12, 0, 345]), ("long", 100, list(range(3000))), ("next", 0, [5])]
    payloads = announcements("p1", games)
    assert all(len(payload) < 8000 for payload in payloads)  # PostgreSQL refuses a payload of 8,000 bytes or more
    heard = [game for payload in payloads for game in parse(payload, "p2")]
    assert heard == [("aB-3_x", 7, 10, [12, 0, 345]), ("long", 100, 3100, None), ("next", 0, 1, [5])]
    assert [game for payload in payloads for game in parse(payload, "p1")] == []


def test_a_malformed_announcement_item_is_skipped_and_actions_that_do_not_add_up_are_left_to_the_database() -> None:
    payload = "p1 ok:1:3:4.5 bad no:x:2 short:1:3:4 empty:2:2: neg:1:2:-4"
    assert parse(payload, "p2") == [("ok", 1, 3, [4, 5]), ("short", 1, 3, None), ("neg", 1, 2, None)]
