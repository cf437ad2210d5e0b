"""Taking steps back at the web table over real WebSockets against a real server on a real SQLite file, under Board
Game Arena's policy (`skald.engine.undo`): a person takes back his own steps until another seat acts or chance draws;
a refusal names the rule; the others' views go back with the whole log; the step back is stored (a restart shows
the position reached) and counted in the log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_web_api import Socket
from web_support import Server, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on a real SQLite file, shared by the module's tests (each plays its own game)."""
    with running(f"sqlite:///{tmp_path_factory.mktemp('undo') / 'skald.db'}") as live:
        yield live


def two_people(server: Server) -> tuple[dict[str, Any], list[Socket], Socket]:
    """A Vikings game of Ann and Bo, a socket at each seat and one watching."""
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    tokens = [invite["token"] for invite in game["invites"]]
    seats = [Socket(server, game["id"], token) for token in tokens]
    return game, seats, Socket(server, game["id"])


def move(sock: Socket) -> dict[str, Any]:
    """Play this seat's first legal choice; its next update."""
    view = sock.my_turn()
    version = view["version"]
    sock.send({"type": "move", "version": version, "action": view["legal"][0]["action"]})
    return sock.update_after(version)


def undo(sock: Socket) -> dict[str, Any]:
    """Ask to take back this seat's last step; the answer (a rewound update or an error)."""
    sock.send({"type": "undo", "version": sock.view["version"]})
    return sock.until(lambda m: m["type"] == "error" or (m["type"] == "update" and m.get("rewound")))


def test_a_person_takes_back_his_own_steps_and_the_others_see_the_position_go_back(server: Server) -> None:
    game, (ann, bo), watcher = two_people(server)
    mover, other = (ann, bo) if ann.my_turn()["to_move"] == 0 else (bo, ann)
    first = mover.view["version"]
    assert mover.view["undo"] is None  # the offer was just drawn: nothing of his to take back
    refusal = undo(mover)
    assert refusal["code"] == "undo" and "chance has drawn since (draw viking" in refusal["message"]
    assert "undo stops at a draw or a roll" in refusal["message"]

    bought = move(mover)  # buy a Group: still his turn
    assert bought["to_move"] == mover.welcome["you"] and bought["undo"] == {"steps": 1}
    placed = move(mover)
    assert placed["version"] > bought["version"]
    back = undo(mover)
    assert back["type"] == "update" and back["version"] == bought["version"] and back["legal"]
    assert [entry["ply"] for entry in back["log"]] == list(range(bought["version"]))
    assert back["undos"] == [
        {
            "seat": mover.welcome["you"],
            "name": ["Ann", "Bo"][mover.welcome["you"]],
            "ply": bought["version"],
            "steps": placed["version"] - bought["version"],
        }
    ]
    # The others are sent the position reached with the whole log, which replaces theirs.
    for sock in (other, watcher):
        seen = sock.until(lambda m: m["type"] == "update" and m.get("rewound"))
        assert seen["version"] == bought["version"] and len(seen["log"]) == bought["version"]
        assert seen["undo"] is None and seen["undos"] == back["undos"]
    again = undo(mover)  # the purchase too
    assert again["type"] == "update" and again["version"] == first and len(again["undos"]) == 2

    # The step back is stored: a restarted server shows the position reached and the steps taken back.
    for sock in (ann, bo, watcher):
        sock.close()
    server.stop()
    server.start()
    status, summary = server.request("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["version"] == first and len(summary["undos"]) == 2
    status, record = server.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200 and len(record["actions"]) == first and record["undos"] == summary["undos"]


def test_no_step_is_taken_back_past_another_seats_move_and_a_stale_undo_is_refused(server: Server) -> None:
    _game, (ann, bo), watcher = two_people(server)
    seats = {0: ann, 1: bo}
    mover = seats[ann.my_turn()["to_move"]]
    you = mover.welcome["you"]
    while mover.view["to_move"] == you:
        move(mover)
    other = seats[1 - you]
    other.my_turn()
    made = move(other)
    mover.update_after(made["version"] - 1)
    refusal = undo(mover)
    assert refusal["code"] == "undo"
    assert refusal["message"].startswith(f"undo: {['Ann', 'Bo'][1 - you]} has moved since (")
    assert "undo stops at another seat's move" in refusal["message"]
    # A step back asked for a version gone by is refused as stale, and changes nothing.
    other.send({"type": "undo", "version": made["version"] - 1})
    stale = other.error()
    assert stale["code"] == "stale"
    watcher.update_after(made["version"] - 1)
    assert watcher.view["version"] == made["version"] and not watcher.view["undos"]
