"""Web table speed: N concurrent bot-vs-bot games over real WebSockets on loopback, on one or more server processes.

Run: .venv/bin/python benchmarks/bench_web.py [--games 100] [--players 2] [--db sqlite|postgresql|postgresql://…]
[--processes P] [--full] [--svg] [--bot-tables 4 [--bot-level mcts:hard] [--bot-workers W]]

The server is `skald serve` in its own process; every seat is a client in this process (asyncio, one WebSocket
each) that picks a random legal action as soon as the server offers it and sends it at once, so each game always
has one move in flight. By default clients take the brief updates a bot needs (new log entries, version, turn,
its legal actions); `--full` asks for the observation and scorings with every update too, and `--svg` for the
board, as the browser does. Measured at the submitting client: the time from sending a move to receiving the
broadcast that carries it (the move is committed to the database before that broadcast). Prints moves/s,
p50/p99, and the CPU time the server and the clients used (both share this machine's cores).

With `--bot-tables N` the server also plays N games of two bots (`--bot-level`, `mcts:hard` by default) by itself
all along, and the figures are those of the client games beside them: whether a bot's search delays other tables.
`--bot-workers W` starts the server with W bot worker processes (`SKALD_BOT_WORKERS`; 0 runs the bots in the
server's threads, as before there were workers). `--pause S` makes each client wait S seconds before it moves, as
a person would, so that a few games last long enough beside the bots: `--games 1 --pause 0.1 --bot-tables 4`.

With `--processes P` (PostgreSQL only) P `skald serve` processes share the database, and each game's seats connect
to different processes (seat i of game g to process (g + i) mod P), so every move reaches the other seats only
through the database's `NOTIFY`. Besides the submitter's own broadcast it then prints the time from a move's
submission to its arrival at every other seat: the move→broadcast latency across processes. `--db postgresql`
starts a throwaway PostgreSQL server (Debian's `postgresql`) for the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import itertools
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


def start_server(db: str, port: int, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`skald serve` in a subprocess with rate limits lifted for the benchmark: every client is on one address and
    seeds its games, which the server refuses by default."""
    args = [
        sys.executable,
        "-m",
        "skald.cli.main",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--games-per-minute",
        "100000",
        "--moves-per-second",
        "100000",
        "--allow-client-seeds",
        "--max-connections-per-address",
        "100000",
    ]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, env={**os.environ, **(env or {})})
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


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server of its own on loopback for the run (Debian's `postgresql`), yielding its URL."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("--db postgresql: PostgreSQL is not installed (apt-get install postgresql)")
    bindir = Path(found[-1]).parent
    root = Path(tempfile.mkdtemp(prefix="skald-bench-pg-"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "skald"],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=300"
    pg_ctl = [*as_user, str(bindir / "pg_ctl"), "-D", str(data)]
    subprocess.run([*pg_ctl, "-l", str(root / "log"), "-w", "-o", options, "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://skald@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """User + system CPU seconds of this (client) process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def create(port: int, players: int, seed: int, bot: str | None = None) -> dict[str, Any]:
    """A game whose seats are all clients of this benchmark (or, with `bot`, all bots of that level)."""
    seats = [{"kind": "bot", "bot": bot} if bot else {"kind": "human", "name": f"bot {i + 1}"} for i in range(players)]
    body = json.dumps({"seats": seats, "seed": seed})
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=body.encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def version(port: int, game_id: str) -> int:
    """How many actions a game has made so far."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game_id}", timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return int(data["version"])


class Moves:
    """The move last sent in each game, so that the other seats can time its arrival: game id → (number of the
    move, the version it was made at, when it was sent, the seat)."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[int, int, float, int]] = {}
        self.numbers = itertools.count()
        #: Seconds from a move's submission to its arrival at each other seat.
        self.arrivals: list[float] = []

    def sent(self, game_id: str, version: int, seat: int) -> None:
        """A seat of `game_id` sent its move for `version` now."""
        self.last[game_id] = (next(self.numbers), version, time.perf_counter(), seat)

    def arrived(self, game_id: str, version: int, seat: int, timed: int) -> int:
        """`seat` received an update at `version`: times the move last sent by another seat if this is its first
        arrival there; returns the number of the last move this seat has timed."""
        last = self.last.get(game_id)
        if last is not None and last[0] > timed and last[3] != seat and version > last[1]:
            self.arrivals.append(time.perf_counter() - last[2])
            return last[0]
        return timed


async def seat(
    port: int,
    game_id: str,
    token: str,
    rng: random.Random,
    view: tuple[bool, bool],
    latencies: list[float],
    max_moves: int,
    pause: float = 0.0,
    number: int = 0,
    moves_sent: Moves | None = None,
) -> int:
    """One seat's client: move whenever offered, time each move until its broadcast (and, with `moves_sent`, the
    other seats' moves until they arrive here). Returns moves made."""
    moves = 0
    timed = -1
    async with connect(f"ws://127.0.0.1:{port}/ws/{game_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "svg": view[0], "full": view[1]}))
        sent: tuple[int, float] | None = None
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "error":
                sent = None
                continue
            if message["type"] != "update":
                continue
            if moves_sent is not None:
                timed = moves_sent.arrived(game_id, message["version"], number, timed)
            if sent is not None and message["version"] > sent[0]:
                latencies.append(time.perf_counter() - sent[1])
                sent = None
            if message["status"] == "over" or moves >= max_moves:
                return moves
            if message["legal"] and sent is None:
                if pause:
                    await asyncio.sleep(pause)  # as a person takes a moment; the time measured starts after it
                choice = rng.choice(message["legal"])
                sent = (message["version"], time.perf_counter())
                if moves_sent is not None:
                    moves_sent.sent(game_id, message["version"], number)
                await ws.send(json.dumps({"type": "move", "version": message["version"], "action": choice["action"]}))
                moves += 1
    return moves


async def drive(
    ports: list[int],
    games: list[dict[str, Any]],
    view: tuple[bool, bool],
    max_moves: int,
    pause: float = 0.0,
    moves_sent: Moves | None = None,
) -> tuple[int, list[float], float]:
    """Run every seat of every game at once, seat i of game g at the server on port (g + i) mod len(ports)."""
    latencies: list[float] = []
    started = time.perf_counter()
    tasks = [
        seat(
            ports[(index + invite["seat"]) % len(ports)],
            game["id"],
            invite["token"],
            random.Random(index * 10 + invite["seat"]),
            view,
            latencies,
            max_moves,
            pause,
            invite["seat"],
            moves_sent,
        )
        for index, game in enumerate(games)
        for invite in game["invites"]
    ]
    counts = await asyncio.gather(*tasks)
    return sum(counts), latencies, time.perf_counter() - started


def percentiles(latencies: list[float]) -> str:
    """p50, p99 and the largest of `latencies`, in milliseconds."""
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"p50 {statistics.median(ordered) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"


def main() -> None:
    """Parse arguments, run the benchmark, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument(
        "--db",
        default="sqlite",
        help="'sqlite' (a fresh temporary file), 'postgresql' (a throwaway server) or a postgresql:// URL",
    )
    parser.add_argument("--processes", type=int, default=1, help="server processes on the database (PostgreSQL)")
    parser.add_argument("--svg", action="store_true", help="clients also ask for the SVG board with every update")
    parser.add_argument("--full", action="store_true", help="clients also ask for the full view with every update")
    parser.add_argument("--max-moves", type=int, default=10**9, help="stop each seat after this many moves")
    parser.add_argument("--port", type=int, default=8761, help="the first server's port (the others' follow it)")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds each client waits before it moves")
    parser.add_argument("--bot-tables", type=int, default=0, help="games of two bots the server plays meanwhile")
    parser.add_argument("--bot-level", default="mcts:hard", help="the bots of those games")
    parser.add_argument("--bot-workers", type=int, default=None, help="bot worker processes (0: the server's threads)")
    args = parser.parse_args()
    if args.processes > 1 and args.db == "sqlite":
        parser.error("--processes: several server processes need PostgreSQL (--db postgresql); SQLite serves one")
    env = {"SKALD_MAX_BOT_GAMES": "100000", "SKALD_MAX_BOT_GAMES_PER_CLIENT": "100000"}
    if args.bot_workers is not None:
        env["SKALD_BOT_WORKERS"] = str(args.bot_workers)
    ports = [args.port + i for i in range(args.processes)]
    moves_sent = Moves() if args.processes > 1 else None
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        if args.db == "sqlite":
            db = f"sqlite:///{Path(folder) / 'bench.db'}"
        elif args.db == "postgresql":
            db = stack.enter_context(throwaway_postgres())
        else:
            db = args.db
        servers: list[subprocess.Popen[bytes]] = []
        try:
            for port in ports:
                servers.append(start_server(db, port, env))
            bot_games = [create(ports[0], 2, 10**6 + seed, args.bot_level) for seed in range(args.bot_tables)]
            games = [create(ports[seed % len(ports)], args.players, seed) for seed in range(args.games)]
            server_cpu, client_cpu = sum(cpu_seconds(server.pid) for server in servers), own_cpu_seconds()
            moves, latencies, elapsed = asyncio.run(
                drive(ports, games, (args.svg, args.full), args.max_moves, args.pause, moves_sent)
            )
            server_cpu = sum(cpu_seconds(server.pid) for server in servers) - server_cpu
            client_cpu = own_cpu_seconds() - client_cpu
            bot_moves = sum(version(ports[0], game["id"]) for game in bot_games)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait()
    where = ("SQLite file" if args.db == "sqlite" else "PostgreSQL") + (", full view" if args.full else "")
    where += ", with SVG" if args.svg else ""
    where += f", {args.processes} server processes" if args.processes > 1 else ""
    print(
        f"{args.games} concurrent {args.players}-player games over WebSockets ({where}): "
        f"{moves} moves in {elapsed:.1f} s = {moves / elapsed:.0f} moves/s"
    )
    print(f"submission → broadcast: {percentiles(latencies)} (targets: p99 < 25 ms at 100 games, < 50 ms at 300)")
    if moves_sent is not None:
        print(
            f"submission → arrival at the other seats, through another process: {percentiles(moves_sent.arrivals)} "
            f"({len(moves_sent.arrivals)} arrivals; target p99 < 50 ms at 2 × 150 games)"
        )
    if args.bot_tables:
        workers = "the server's threads" if args.bot_workers == 0 else f"{args.bot_workers or 'default'} bot workers"
        print(
            f"beside {args.bot_tables} games of two {args.bot_level} bots ({workers}), which made {bot_moves} "
            "actions (bots' and chance's) meanwhile"
        )
    processes = "server process" if args.processes == 1 else f"{args.processes} server processes together"
    print(
        f"CPU while playing: {processes} {server_cpu / elapsed:.2f} cores, clients (one process) "
        f"{client_cpu / elapsed:.2f} cores, of {os.cpu_count()} on this machine"
    )


if __name__ == "__main__":
    main()
