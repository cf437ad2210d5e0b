"""Two `skald serve` processes on one PostgreSQL database: a move that races another process's is judged right.

Each process keeps its own tables in memory and hears of the other's moves through `NOTIFY` (tests/
test_web_processes.py), but a move may still reach a process before the notification of the move that beat it.
When the database refuses a move as stale because the other process committed first, the table is brought up to
date in place and everyone at it is told the move that won; a move naming a version only the other process has told
its client about makes the table catch up first, and is then judged like any other. Whichever comes first, the
notification or the move, the outcome is the same. Real processes, a real PostgreSQL server, real HTTP and
WebSockets.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from test_web_api import Socket
from web_support import Server, postgres_fixture, two_servers  # noqa: F401 (fixture: database)

#: These tests fix their games' seeds, to know the draws (a server allows it only when told to).
SEEDS = "--allow-client-seeds"

SEED = 20240613
TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture()
def servers(database: str) -> Iterator[tuple[Server, Server]]:
    """Two server processes on the same PostgreSQL database."""
    with two_servers(database, SEEDS) as pair:
        yield pair


def test_a_move_another_process_committed_first_is_refused_and_the_table_shows_the_move_that_won(
    servers: tuple[Server, Server],
) -> None:
    first, second = servers
    game = first.create(TWO_PEOPLE, seed=SEED)
    ann, bo = (invite["token"] for invite in game["invites"])
    ann_here = Socket(first, game["id"], ann)
    view = ann_here.my_turn()  # the opening draws are committed before the second process reads the game
    ann_there = Socket(second, game["id"], ann)  # Ann's other tab, served by the other process
    bo_there = Socket(second, game["id"], bo)
    watcher = Socket(second, game["id"])
    assert ann_there.my_turn()["version"] == view["version"]

    ann_here.send({"type": "move", "version": view["version"], "action": view["legal"][0]["action"]})
    won = ann_here.update_after(view["version"])
    ann_there.send({"type": "move", "version": view["version"], "action": view["legal"][-1]["action"]})
    error = ann_there.error()

    assert error["code"] == "stale" and "the table has been refreshed" in error["message"]
    assert ann_there.view["version"] == won["version"] and ann_there.view["legal"] == won["legal"]
    assert ann_there.view["observation"] == won["observation"]
    for sock in (ann_there, bo_there, watcher):  # everyone at the second process is told the move that won
        assert sock.update_after(view["version"])["version"] == won["version"]
        assert sock.log == ann_here.log
    status, summary = second.request("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["version"] == won["version"]

    # The second process carries on from there: the next move is accepted at the version it now has.
    mover = ann_there if won["to_move"] == 0 else bo_there
    turn = mover.my_turn()
    mover.send({"type": "move", "version": turn["version"], "action": turn["legal"][0]["action"]})
    assert mover.update_after(turn["version"])["version"] > turn["version"]
    status, record = second.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200
    assert record["actions"][view["version"]]["action"] == view["legal"][0]["action"]
    assert record["actions"][turn["version"]]["action"] == turn["legal"][0]["action"]
    for sock in (ann_here, ann_there, bo_there, watcher):
        sock.close()


def test_a_move_for_a_version_only_the_other_process_has_reached_is_accepted_once_the_table_catches_up(
    servers: tuple[Server, Server],
) -> None:
    first, second = servers
    game = first.create(TWO_PEOPLE, seed=SEED)
    tokens = [invite["token"] for invite in game["invites"]]
    seats_here = [Socket(first, game["id"], token) for token in tokens]
    view = seats_here[0].my_turn()
    watcher = Socket(second, game["id"])  # the second process has the table in memory, at this version
    assert watcher.view["version"] == view["version"]

    seats_here[0].send({"type": "move", "version": view["version"], "action": view["legal"][0]["action"]})
    moved = seats_here[0].update_after(view["version"])
    turn = seats_here[moved["to_move"]].my_turn()  # told by the first process
    move = {"version": turn["version"], "action": turn["legal"][0]["action"]}
    status, data = second.request("POST", f"/api/games/{game['id']}/moves", move, token=tokens[moved["to_move"]])

    assert status == 200, data
    assert data["version"] > turn["version"]
    assert watcher.update_after(turn["version"])["version"] == data["version"]
    status, record = second.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200 and len(record["actions"]) == data["version"]
    assert [entry["notation"] for entry in watcher.log] == [entry["notation"] for entry in record["actions"]]
    for sock in (*seats_here, watcher):
        sock.close()
