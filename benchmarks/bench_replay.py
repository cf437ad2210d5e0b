"""How long a deep replay takes over HTTP, and how long `/api/health` waits while one client asks for deep replays.

    python benchmarks/bench_replay.py [--players 6] [--seed 1] [--seconds 10] [--threads 3]

Plays one long Vikingatid game between random bots (6 players: several thousand plies), writes it into a fresh
SQLite file as a finished game, and starts `skald serve` on it with its default limits. Then measures, in this run:

- the anchor: `/api/health` answered on an idle server (p50 of 200 requests), and the in-process cost of the old
  way of replaying (every action from the start, then the board drawn) of the last ply;
- the first replay of the last ply over HTTP (the table then in memory) and of 10 distinct deep plies after it;
- `/api/health` latency (p50, p99, longest) while `threads` threads ask for distinct deep plies as fast as the server
  allows (its refusals, 429, counted), for `seconds` seconds.

Every figure is also given as a ratio to the anchor measured in the same run, so runs on different or busy
machines compare.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from skald.bots import make_bot
from skald.engine import CHANCE, Record, get_game
from skald.web.live_table import token_hash
from skald.web.store.engine import make_engine, migrate
from skald.web.store.schema import GameRow, SeatRow, now
from skald.web.store.stores import Stores


def played(players: int, seed: int) -> list[int]:
    """The actions of one Vikingatid game between random bots."""
    state = get_game("vikingatid").new_initial_state(players, {})
    bots = [make_bot("random", seed=seed * 10 + seat) for seat in range(players)]
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(state.sample_chance_outcome(rng) if player == CHANCE else bots[player].step(state))
    return list(state.history)


def store(url: str, players: int, actions: list[int]) -> str:
    """Write the game into the database at `url` as the server would have stored it; its id."""
    engine = make_engine(url)
    migrate(engine)
    game = get_game("vikingatid")
    game_id = secrets.token_urlsafe(12)
    stamp = now()
    row = GameRow(
        id=game_id,
        game="vikingatid",
        players=players,
        options=game.resolve_options({}),
        seed=0,
        secret_seed=False,
        version=0,
        status="playing",
        rematch_id=None,
        created_at=stamp,
        updated_at=stamp,
    )
    seats = [
        SeatRow(game_id=game_id, seat=i, name=f"P{i + 1}", kind="human", token_hash=token_hash(secrets.token_hex(8)))
        for i in range(players)
    ]
    stores = Stores(engine).games
    stores.create(row, seats)
    state = game.new_initial_state(players, {})
    moves = []
    for action in actions:
        moves.append((state.current_player(), action))
        state.apply(action)
    stores.append(game_id, 0, moves, "over")
    engine.dispose()
    return game_id


def start(url: str, port: int) -> subprocess.Popen[bytes]:
    """`skald serve` on the database at `url`, with its default limits, answering on `port`."""
    args = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(port), "--db", url]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit("skald serve did not start") from None
            time.sleep(0.1)


def get(base: str, path: str) -> tuple[int, float]:
    """GET `path`: its status and the seconds it took."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(base + path, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, time.perf_counter() - started


def percentiles(seconds: list[float]) -> tuple[float, float, float]:
    """p50, p99 and the longest, in milliseconds."""
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered) * 1000, p99 * 1000, ordered[-1] * 1000


def old_replay(players: int, actions: list[int]) -> float:
    """Seconds to replay every action from the start and draw the last position (the old way of a replay)."""
    started = time.perf_counter()
    state = Record("vikingatid", players, {}, [], actions).replay()
    get_game("vikingatid").render_svg(state, None, names=[f"P{i + 1}" for i in range(players)])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=3)
    args = parser.parse_args()
    actions = played(args.players, args.seed)
    last = len(actions)
    folder = Path(tempfile.mkdtemp(prefix="skald-bench-replay-"))
    url = f"sqlite:///{folder / 'skald.db'}"
    game_id = store(url, args.players, actions)
    port = free_port()
    server = start(url, port)
    base = f"http://127.0.0.1:{port}"
    try:
        idle = [get(base, "/api/health")[1] for _ in range(200)]
        anchor_health = statistics.median(idle)
        anchor_replay = statistics.median(old_replay(args.players, actions) for _ in range(3))
        print(
            f"vikingatid {args.players}p, {last} plies; anchor: /api/health idle p50 {anchor_health * 1000:.1f} ms, "
            f"old in-process replay of the last ply {anchor_replay * 1000:.0f} ms"
        )
        get(base, f"/api/games/{game_id}")  # the table is loaded into memory
        status, first = get(base, f"/api/games/{game_id}/replay/{last}")
        deep = []
        for ply in range(last - 1, last - 11, -1):
            status, seconds = get(base, f"/api/games/{game_id}/replay/{ply}")
            if status == 200:
                deep.append(seconds)
        print(
            f"first replay of ply {last} over HTTP: {first * 1000:.0f} ms "
            f"({first / anchor_replay:.2f} x the old in-process replay, {first / anchor_health:.0f} x idle health); "
            f"10 distinct deep plies: median {statistics.median(deep) * 1000 if deep else float('nan'):.0f} ms "
            f"({len(deep)} answered 200)"
        )
        load(base, game_id, last, args.threads, args.seconds, anchor_health)
    finally:
        server.terminate()
        server.wait(20)


def load(base: str, game_id: str, last: int, threads: int, seconds: float, anchor: float) -> None:
    """`/api/health` latency while `threads` threads ask for distinct deep plies as fast as allowed."""
    stop = threading.Event()
    counts = {"200": 0, "429": 0, "other": 0}
    lock = threading.Lock()

    def asker(number: int) -> None:
        ply = last - 20 - number
        while not stop.is_set():
            status, _ = get(base, f"/api/games/{game_id}/replay/{ply}")
            with lock:
                counts["200" if status == 200 else "429" if status == 429 else "other"] += 1
            ply = ply - threads if ply > last // 2 else last - 20 - number

    workers = [threading.Thread(target=asker, args=(n,), daemon=True) for n in range(threads)]
    for worker in workers:
        worker.start()
    health = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        health.append(get(base, "/api/health")[1])
        time.sleep(0.01)
    stop.set()
    for worker in workers:
        worker.join(60)
    p50, p99, longest = percentiles(health)
    print(json.dumps(counts))
    print(
        f"/api/health under {threads} threads of deep replays: p50 {p50:.1f} ms, p99 {p99:.1f} ms, longest "
        f"{longest:.0f} ms ({len(health)} requests; p99 = {p99 / (anchor * 1000):.1f} x idle p50)"
    )


def free_port() -> int:
    """A TCP port free on loopback."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


if __name__ == "__main__":
    main()
