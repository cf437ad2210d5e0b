"""Bots think in worker processes, off the server's request path, and a client cannot fill the server with bot games.

docs/web.md, *Bot workers and limits*: "bot moves are computed in worker processes … so no bot search ever delays
another table's moves; a limit on concurrently running bot games per client and per server, with a clear message
when reached". A real `skald serve` with real HTTP and WebSocket clients; what the server
did is read from its health report (loopback only) and from /proc, never from timings.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_web_api import Socket
from web_support import Server, running

#: Seats of a game the server plays by itself.
BOTS_ONLY = [{"kind": "bot", "bot": "mcts:hard"}, {"kind": "bot", "bot": "mcts:hard"}]


def bots(server: Server) -> dict[str, Any]:
    """The bot workers' part of the health report (the server answers it to loopback clients)."""
    status, health = server.request("GET", "/api/health")
    assert status == 200, health
    return dict(health["tables"]["bots"])


def wait_for(server: Server, condition: Callable[[dict[str, Any]], bool], seconds: float = 300) -> dict[str, Any]:
    """Poll the bot report until `condition` holds (a generous deadline: the machine may be busy)."""
    deadline = time.monotonic() + seconds
    while True:
        report = bots(server)
        if condition(report):
            return report
        assert time.monotonic() < deadline, f"not reached in {seconds} s: {report}"
        time.sleep(0.05)


def ancestors(pid: int) -> list[int]:
    """The parent, grandparent, … of a process, from /proc."""
    found = []
    while pid > 1:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        pid = int(fields[1])
        found.append(pid)
    return found


def mover(sockets: list[Socket]) -> Socket:
    """The socket of the seat to move (a people-only game: after chance, always one of them)."""
    while sockets[0].view.get("to_move") is None:
        sockets[0].until(lambda m: m["type"] == "update")
    seat: int = sockets[0].view["to_move"]
    return sockets[seat]


def create_as(server: Server, client: str, seats: list[dict[str, Any]]) -> tuple[int, Any]:
    """Create a game as the client at `client`, as a trusted proxy in front of the server would say."""
    request = urllib.request.Request(
        server.url + "/api/games", data=json.dumps({"seats": seats}).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Forwarded-For", client)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def summary(server: Server, game_id: str) -> dict[str, Any]:
    status, data = server.request("GET", f"/api/games/{game_id}")
    assert status == 200, data
    return dict(data)


def test_a_bot_game_is_played_to_the_end_by_worker_processes_of_the_server(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'a.db'}", env={"SKALD_BOT_WORKERS": "2"}) as server:
        assert server.process is not None
        game = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}])
        deadline = time.monotonic() + 300
        while summary(server, game["id"])["status"] != "over":
            assert time.monotonic() < deadline, "the bot game did not end"
            time.sleep(0.1)
        report = bots(server)
        assert report["answered"] >= summary(server, game["id"])["version"] // 4  # chance draws are the server's
        assert report["answered_by"], report
        assert server.process.pid not in report["answered_by"]
        for pid in report["answered_by"]:
            # The worker that chose a move is a process the server started (through its fork server), not the server.
            assert server.process.pid in ancestors(pid), (pid, ancestors(pid))
        assert report["crashes"] == 0 and report["fallbacks"] == 0


def test_a_human_table_is_answered_while_a_bot_search_is_still_running(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'a.db'}", env={"SKALD_BOT_WORKERS": "1"}) as server:
        bot_game = server.create(BOTS_ONLY)
        human = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
        tokens = [invite["token"] for invite in human["invites"]]
        sockets = [Socket(server, human["id"], token, full=False) for token in tokens]
        overlapped = 0
        try:
            for _ in range(6):
                report = wait_for(server, lambda r: any(job["game"] == bot_game["id"] for job in r["thinking"]))
                searching = {job["job"] for job in report["thinking"]}
                view = mover(sockets).my_turn()
                mover(sockets).send({"type": "move", "version": view["version"], "action": view["legal"][0]["action"]})
                for sock in sockets:
                    sock.update_after(view["version"])  # the move is acknowledged to both seats …
                still = {job["job"] for job in bots(server)["thinking"]}
                overlapped += bool(searching & still)  # … while the same search goes on in its worker
        finally:
            for sock in sockets:
                sock.close()
        # A search of `mcts:hard` outlasts a move's round trip many times over. Had the human's move waited for the
        # search (a search on the event loop, or moves queued behind bot moves), no search would ever still be running
        # once a move was acknowledged.
        assert overlapped >= 3


def test_a_worker_killed_mid_search_is_replaced_and_the_game_and_server_go_on(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'a.db'}", env={"SKALD_BOT_WORKERS": "1"}) as server:
        assert server.process is not None
        game = server.create(BOTS_ONLY)
        report = wait_for(server, lambda r: bool(r["thinking"]) and bool(r["pids"]))
        victim = report["pids"][0]
        version = summary(server, game["id"])["version"]
        os.kill(victim, signal.SIGKILL)
        report = wait_for(server, lambda r: r["crashes"] == 1 and bool(r["pids"]) and victim not in r["pids"])
        deadline = time.monotonic() + 300
        while summary(server, game["id"])["version"] <= version + 1:
            assert time.monotonic() < deadline, "the bot game did not go on after its worker died"
            time.sleep(0.1)
        assert server.process.poll() is None
        report = bots(server)
        assert report["fallbacks"] == 0  # the move was searched again on the fresh pool, not guessed
        other = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
        assert other["status"] == "playing"


#: A game waiting for its person: unfinished, with a bot seat.
WAITING = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "mcts:hard"}]


def test_the_server_runs_only_so_many_bot_games_at_once_and_says_which_limit_was_reached(tmp_path: Path) -> None:
    env = {"SKALD_MAX_BOT_GAMES_PER_CLIENT": "10", "SKALD_MAX_BOT_GAMES": "2"}
    with running(f"sqlite:///{tmp_path / 'a.db'}", env=env) as server:
        for _ in range(2):
            assert server.request("POST", "/api/games", {"seats": WAITING})[0] == 201
        status, body = server.request("POST", "/api/games", {"seats": WAITING})
        error = body["error"]
        assert status == 429 and error["code"] == "bot_games", body
        assert "at most 2" in error["message"] and "--max-bot-games" in error["message"]
        # A game of people only asks nothing of the bot workers: it is still welcome.
        assert server.request("POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}]})[0] == 201
        assert bots(server)["games"] == 2


def test_one_client_may_run_only_so_many_bot_games_and_is_told_the_limit(tmp_path: Path) -> None:
    env = {"SKALD_MAX_BOT_GAMES_PER_CLIENT": "2", "SKALD_MAX_BOT_GAMES": "3", "SKALD_TRUSTED_PROXIES": "127.0.0.1"}
    with running(f"sqlite:///{tmp_path / 'a.db'}", env=env) as server:
        for _ in range(2):
            assert create_as(server, "198.51.100.1", WAITING)[0] == 201
        status, body = create_as(server, "198.51.100.1", WAITING)
        error = body["error"]
        assert status == 429 and error["code"] == "bot_games_per_client", body
        assert "at most 2" in error["message"] and "--max-bot-games-per-client" in error["message"]
        # People-only games are not bot games; another client still has its own allowance, up to the server's.
        assert create_as(server, "198.51.100.1", [{"kind": "human"}, {"kind": "human"}])[0] == 201
        assert create_as(server, "198.51.100.2", WAITING)[0] == 201
        status, body = create_as(server, "198.51.100.3", WAITING)
        assert status == 429 and body["error"]["code"] == "bot_games", body
