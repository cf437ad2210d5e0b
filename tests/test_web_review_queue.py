"""The review's budget, fair queue and progress over real HTTP against a real server.

One client (address) has at most one review made or waiting: a second, for another game, is refused while the first
is made, and another client's review is taken into the queue. While a review is made its progress (the decisions
looked at, of how many, in percent, and the moves so far with the costliest marked) is told by `GET`, as the worker
writes it.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from skald.bots import make_bot
from skald.engine import CHANCE, State, get_game
from test_web_review import PATIENCE, finished_game
from web_support import Server, running, store_played


def long_game() -> State:
    """A whole 4-player Vikingatid game between random bots, whose review runs up to its time budget."""
    state = get_game("vikingatid").new_initial_state(4, {})
    bots = [make_bot("random", seed=seat) for seat in range(4)]
    rng = random.Random(1)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(state.sample_chance_outcome(rng) if player == CHANCE else bots[player].step(state))
    return state


def ask(server: Server, method: str, game_id: str, client: str) -> tuple[int, Any]:
    """Ask about a game's review as the client at `client`, as a trusted proxy in front of the server would say."""
    request = urllib.request.Request(f"{server.url}/api/games/{game_id}/review", data=b"{}", method=method)
    if method == "GET":
        request = urllib.request.Request(f"{server.url}/api/games/{game_id}/review", method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Forwarded-For", client)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_one_client_holds_one_review_at_a_time_others_are_queued_and_progress_is_told(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    ((long_id, _),) = store_played(url, get_game("vikingatid"), 1, [long_game()], ["Ann", "Bo", "Cy", "Di"])
    env = {"SKALD_BOT_WORKERS": "1", "SKALD_TRUSTED_PROXIES": "127.0.0.1"}
    with running(url, env=env) as server:
        short_id = finished_game(server)
        status, asked = ask(server, "POST", long_id, "198.51.100.1")
        assert status == 202 and asked["status"] == "computing" and asked["budget_minutes"] == 3
        # The same client asking for another game's review meanwhile is refused; another client is queued.
        status, refused = ask(server, "POST", short_id, "198.51.100.1")
        assert status == 429 and refused["error"]["code"] == "review_pending"
        status, queued = ask(server, "POST", short_id, "198.51.100.2")
        assert status == 202 and queued["status"] == "computing" and queued["ahead"] == 1
        # Asking again for the review one has asked for is no second review.
        assert ask(server, "POST", long_id, "198.51.100.1")[0] == 202
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            status, found = ask(server, "GET", long_id, "198.51.100.3")
            assert status == 200 and found["status"] == "computing", found
            progress = found["progress"]
            seen.append(progress)
            if progress["done"] >= 3 and found["partial"]:
                break
            time.sleep(0.5)
        assert seen[-1]["done"] >= 3, "no progress was told"
        planned = seen[-1]["planned"]
        assert 0 < planned <= 600 and seen[-1]["percent"] == 100 * seen[-1]["done"] // planned
        assert [p["done"] for p in seen] == sorted(p["done"] for p in seen)
        moves = found["partial"]
        assert len(moves) == seen[-1]["done"] and [m["ply"] for m in moves] == sorted(m["ply"] for m in moves)
        assert {"ply", "seat", "played", "best", "chances", "after", "drop", "marked"} <= set(moves[0])
        status, waiting = ask(server, "GET", short_id, "198.51.100.2")
        assert status == 200 and waiting["status"] == "computing" and waiting["ahead"] == 1
