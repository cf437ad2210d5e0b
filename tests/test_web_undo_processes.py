"""A step taken back in one `skald serve` process reaches the other on the same PostgreSQL database: it hears the
announcement, reads the game afresh in place and sends its clients the position reached with the whole log; the
next move made in the first process follows there on the line kept. Real processes, a real PostgreSQL server, real
WebSockets."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from test_web_api import Socket
from web_support import Server, postgres_fixture, two_servers  # noqa: F401 (fixture: database)


@pytest.fixture()
def servers(database: str) -> Iterator[tuple[Server, Server]]:
    """Two server processes on the same PostgreSQL database."""
    with two_servers(database) as pair:
        yield pair


def test_a_step_taken_back_in_one_process_takes_the_other_processes_table_back(
    servers: tuple[Server, Server],
) -> None:
    first, second = servers
    game = first.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    tokens = [invite["token"] for invite in game["invites"]]
    here = [Socket(first, game["id"], token) for token in tokens]
    start = here[0].my_turn()["version"]
    mover = here[here[0].view["to_move"]]
    there = Socket(second, game["id"])  # a spectator served by the other process
    assert there.view["version"] == start

    view = mover.my_turn()
    mover.send({"type": "move", "version": start, "action": view["legal"][0]["action"]})
    bought = mover.update_after(start)
    assert there.update_after(start)["version"] == bought["version"]
    mover.send({"type": "undo", "version": bought["version"]})
    back = mover.until(lambda m: m["type"] == "update" and m.get("rewound"))
    assert back["version"] == start
    seen = there.until(lambda m: m["type"] == "update" and m.get("rewound"))
    assert seen["version"] == start and [entry["ply"] for entry in seen["log"]] == list(range(start))
    assert seen["undos"] == back["undos"] and len(seen["undos"]) == 1

    # Another choice on the line kept reaches the other process as any move does, at the version taken back to.
    mover.send({"type": "move", "version": start, "action": view["legal"][-1]["action"]})
    other = mover.update_after(start)
    assert there.update_after(start)["version"] == other["version"]
    status, record = second.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200 and record["actions"][start]["action"] == view["legal"][-1]["action"]
    for sock in (*here, there):
        sock.close()
