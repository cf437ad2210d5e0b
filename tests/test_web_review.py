"""The bot's review of a finished web game, over real HTTP against a real server: asked for
once the game is over, made by a bot worker process (never on the request path), kept in the database with the
game, and the same for every later asker, after a restart too."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_support import Server, running

#: How long a test waits for a game or a review before it fails (never a measure of speed).
PATIENCE = 180.0
TWO_BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    """A server with one bot worker, on a real SQLite file."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}", env={"SKALD_BOT_WORKERS": "1"}) as live:
        yield live


def finished_game(server: Server) -> str:
    """The id of a 2-player Vikings game the server's bots have played to the end."""
    game = server.create(TWO_BOTS)
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        status, summary = server.request("GET", f"/api/games/{game['id']}")
        assert status == 200
        if summary["status"] == "over":
            return str(game["id"])
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their game")


def wait_for_review(server: Server, game_id: str) -> dict[str, Any]:
    """The review once it is ready (failing if it failed or took past `PATIENCE`)."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        status, found = server.request("GET", f"/api/games/{game_id}/review")
        assert status == 200 and found["status"] in ("computing", "ready"), found
        if found["status"] == "ready":
            return dict(found)
        time.sleep(0.5)
    raise AssertionError("the review was not made in time")


def test_a_finished_game_is_reviewed_by_a_bot_worker_once_and_kept(server: Server) -> None:
    game_id = finished_game(server)
    status, found = server.request("GET", f"/api/games/{game_id}/review")
    assert status == 200 and found["status"] == "none"  # nothing is made before someone asks
    status, asked = server.request("POST", f"/api/games/{game_id}/review")
    assert status == 202 and asked["status"] == "computing" and asked["seats"] == ["Bot 1 (random)", "Bot 2 (random)"]
    status, again = server.request("POST", f"/api/games/{game_id}/review")
    assert status in (200, 202) and again["status"] in ("computing", "ready")  # the same review, not a second one
    ready = wait_for_review(server, game_id)
    moves = ready["review"]["moves"]
    assert ready["review"]["format"] == "skald-review/1" and len(moves) > 50
    assert any(move["marked"] for move in moves)  # random players blunder
    _, health = server.request("GET", "/api/health")
    bots = health["tables"]["bots"]
    assert bots["reviews"] == 1 and bots["reviewing"] == 0  # made once, by a worker process
    status, asked = server.request("POST", f"/api/games/{game_id}/review")
    assert status == 200 and asked["review"] == ready["review"]
    server.kill()
    server.start()
    status, kept = server.request("GET", f"/api/games/{game_id}/review")
    assert status == 200 and kept["status"] == "ready" and kept["review"] == ready["review"]


def test_a_game_still_being_played_is_not_reviewed(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    status, refusal = server.request("POST", f"/api/games/{game['id']}/review")
    assert status == 409 and refusal["error"]["code"] == "not_over"
    status, found = server.request("GET", f"/api/games/{game['id']}/review")
    assert status == 200 and found["status"] == "none"
    status, refusal = server.request("POST", "/api/games/no-such-game/review")
    assert status == 404
