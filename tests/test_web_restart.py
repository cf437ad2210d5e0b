"""Nothing acknowledged is ever lost: a server killed with SIGKILL mid-game resumes every game exactly.

Chance is drawn on the server from the game's seed and the ply, and bots are seeded by the game, so a game
interrupted by a crash and finished after a restart has the same record as one played straight through.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from test_web_api import Socket, play_out
from web_support import Server, running

#: These tests fix their games' seeds, to know the draws (a server allows it only when told to).
SEEDS = "--allow-client-seeds"

SEED = 20240611


def finished(server: Server, game_id: str) -> dict[str, Any]:
    """Wait (no client attached) until the game is over; returns its record."""
    while True:
        status, summary = server.request("GET", f"/api/games/{game_id}")
        assert status == 200
        if summary["status"] == "over":
            status, record = server.request("GET", f"/api/games/{game_id}/record")
            return dict(record)
        time.sleep(0.2)


def version(server: Server, game_id: str) -> int:
    _status, summary = server.request("GET", f"/api/games/{game_id}")
    return int(summary["version"])


def play(server: Server, stop_at: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create (or continue) the person-vs-bot game and a bot-vs-bot game with fixed seeds."""
    person = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "mcts:easy"}], seed=SEED)
    bots = server.create(
        [{"kind": "bot", "bot": "mcts:normal"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
        seed=SEED + 1,
    )
    sock = Socket(server, person["id"], person["invites"][0]["token"])
    play_out(sock, stop_at)
    sock.close()
    return person, bots


def test_a_server_killed_mid_game_resumes_every_game_exactly(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'straight.db'}", SEEDS) as server:
        person, bots = play(server)
        expected_person = finished(server, person["id"])
        expected_bots = finished(server, bots["id"])

    url = f"sqlite:///{tmp_path / 'crash.db'}"
    server = Server(url, "--games-per-minute", "1000", "--moves-per-second", "1000", SEEDS)
    server.start()
    try:
        person, bots = play(server, stop_at=150)
        acknowledged = version(server, person["id"])
        bots_before = version(server, bots["id"])
        server.kill()
        assert bots_before < len(expected_bots["actions"])  # killed while the bots were still playing
        server.start()
        assert version(server, person["id"]) >= acknowledged  # every acknowledged move survived
        assert version(server, bots["id"]) >= bots_before
        sock = Socket(server, person["id"], person["invites"][0]["token"])
        final = play_out(sock)
        sock.close()
        assert final["status"] == "over"
        # The bot-vs-bot game was never watched: its bots carried on by themselves after the restart.
        assert finished(server, bots["id"])["actions"] == expected_bots["actions"]
        assert finished(server, person["id"])["actions"] == expected_person["actions"]
    finally:
        server.stop()
