"""A finished game is answered from memory (with an ETag) instead of being replayed for
every request, abandoned games expire, and a restarted server answers before it has resumed every game.

The proof that a finished game is not replayed again is the server's own count of tables loaded from the
database (`/api/health`): a finished table is dropped from memory at once, so any answer that needed it would load
it again. Real `skald serve`, real SQLite file, real HTTP.
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_web_api import Socket, human_vs_bot, play_out
from web_support import Server, running

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
PATIENCE = 120.0


def get(server: Server, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """A GET with these headers: status, headers (lower-case names), body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def health(server: Server) -> dict[str, Any]:
    """The operator's health figures."""
    status, data = server.request("GET", "/api/health")
    assert status == 200
    return dict(data)


def wait_until(check: Any, what: str) -> Any:
    """Poll `check` until it returns something true (fails after a generous wait, never on a measured time)."""
    deadline = time.monotonic() + PATIENCE
    while not (result := check()):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)
    return result


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a fresh SQLite file."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as live:
        yield live


def test_a_finished_games_summary_record_and_replay_are_answered_without_loading_it_again(server: Server) -> None:
    game = human_vs_bot(server)
    token = game["invites"][0]["token"]
    sock = Socket(server, game["id"], token)
    final = play_out(sock)
    sock.close()
    wait_until(lambda: health(server)["tables"]["resident"] == 0, "the finished table is dropped")
    paths = [
        f"/api/games/{game['id']}",
        f"/api/games/{game['id']}/record",
        f"/api/games/{game['id']}/replay/{final['version'] // 2}",
    ]
    first = {path: get(server, path) for path in paths}
    loads = health(server)["tables"]["loads"]
    for _ in range(10):
        for path in paths:
            status, headers, body = get(server, path)
            assert (status, body, headers["etag"]) == (200, first[path][2], first[path][1]["etag"])
            status, headers, body = get(server, path, {"If-None-Match": first[path][1]["etag"]})
            assert status == 304 and body == b""
    figures = health(server)
    assert figures["tables"]["loads"] == loads  # not one of those 60 answers loaded (and replayed) the game
    assert figures["finished_cache"]["hits"] >= 60
    assert "immutable" in first[paths[1]][1]["cache-control"] and "immutable" in first[paths[2]][1]["cache-control"]
    # The summary still says who asks, and shows a rematch as soon as it is made.
    status, summary = server.request("GET", f"/api/games/{game['id']}", token=token)
    assert summary["you"] == 0 and summary["rematch"] is None
    status, rematch = server.request("POST", f"/api/games/{game['id']}/rematch", {}, token=token)
    status, summary = server.request("GET", f"/api/games/{game['id']}", token=token)
    assert summary["rematch"] == rematch["id"]


def test_an_unfinished_game_without_a_move_for_the_expiry_time_is_deleted_and_a_finished_one_kept(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    # 0.00003 days is 2.6 s; tables leave memory after 0.2 s idle, so the sweeps (and expiry) run often.
    env = {"SKALD_TABLE_IDLE_SECONDS": "0.2"}
    with running(url, "--game-expiry-days", "0.00003", env=env) as server:
        bots = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
        abandoned = server.create(TWO_PEOPLE)
        watched = server.create(TWO_PEOPLE)
        watcher = Socket(server, watched["id"])
        wait_until(lambda: server.request("GET", f"/api/games/{abandoned['id']}")[0] == 404, "the game expires")
        # The bot game plays on in the bot workers meanwhile: it ends, and a finished game never expires.
        wait_until(lambda: server.request("GET", f"/api/games/{bots['id']}")[1]["status"] == "over", "the bots finish")
        assert server.request("GET", f"/api/games/{watched['id']}")[0] == 200  # someone is at that table
        assert health(server)["tables"]["expired"] >= 1
        watcher.close()


def test_a_restarted_server_answers_at_once_and_resumes_its_games_in_the_background(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    with running(url) as server:
        waiting = [human_vs_bot(server)["id"] for _ in range(150)]
    with running(url) as server:
        first = health(server)["tables"]
        assert first["resuming"] <= 150
        wait_until(lambda: health(server)["tables"]["resuming"] == 0, "every game is looked at")
        # Each game waits for its person: looked at, then left in the database until someone comes back.
        status, summary = server.request("GET", f"/api/games/{waiting[-1]}")
        assert status == 200 and summary["status"] == "playing"
