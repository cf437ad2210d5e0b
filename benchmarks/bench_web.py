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

With `--anchor` the run measures Skald against the anchor (benchmarks/anchor_server.py: the same stack, uvicorn,
Starlette WebSockets, SQLite through Skald's group commit, with no game), started as a subprocess beside
`skald serve`, in alternate rounds (`--pairs` of `--seconds` each, the order switched every pair): Skald's server
CPU a move and the anchor's (user + system time from /proc/PID/stat), and their ratio, in saturated rounds; with
`--open-loop F` also the move → broadcast p50/p99 of each when every game's moves come an exponential thinking
time apart, offering F × the anchor's saturated moves a second (1 / its CPU a move; `--saturation loop`: the
moves/s of its saturated rounds). The anchor's moves and updates are padded to the sizes of Skald's, measured in
the same run. `--py-spy FILE` samples both servers in the saturated rounds and splits each one's CPU a move by what
it was doing. Run: .venv/bin/python benchmarks/bench_web.py --anchor --open-loop 0.5
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
from collections.abc import Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from anchor_server import padded


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


# -- Skald against its anchor ---------------------------------------------------------------------------------------

ANCHOR_SERVER = Path(__file__).with_name("anchor_server.py")


def start_anchor(db: str, port: int) -> subprocess.Popen[bytes]:
    """The anchor server (benchmarks/anchor_server.py) in a subprocess, started as `skald serve` is."""
    args = [sys.executable, str(ANCHOR_SERVER), "--port", str(port), "--db", db]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit("the anchor server did not start") from None
            time.sleep(0.1)


class Traffic:
    """The sizes of the moves Skald's clients sent and of the updates those moves brought them, in bytes."""

    def __init__(self) -> None:
        self.moves = 0
        self.move_bytes = 0
        self.updates = 0
        self.update_bytes = 0

    def sizes(self) -> tuple[int, int]:
        """The mean size of a move and of an update (guesses until Skald has played)."""
        if not self.moves or not self.updates:
            return 80, 400
        return round(self.move_bytes / self.moves), round(self.update_bytes / self.updates)

    def updates_a_move(self) -> float:
        """Updates received for each move sent (one a seat when every move is told to every seat)."""
        return self.updates / max(1, self.moves)


class Clock:
    """One server's rounds, shared by all its seats: whether a round is on (seats move only then), the moves sent
    and still in flight, and the round's move → broadcast delays."""

    def __init__(self, thinking: float = 0.0) -> None:
        self.go = asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()
        self.started = 0.0
        #: Mean seconds between a game's moves (0: each seat moves as soon as it may).
        self.thinking = thinking
        self.in_flight = 0
        self.moves = 0
        self.late = 0
        self.latencies: list[float] = []

    def start(self) -> None:
        """Begin a round."""
        self.moves = self.late = 0
        self.latencies = []
        self.started = time.perf_counter()
        self.go.set()

    async def stop(self) -> None:
        """End the round once every move sent in it has come back."""
        self.go.clear()
        await self.idle.wait()

    async def turn(self, pace: Pace, rng: random.Random) -> None:
        """Wait until a round is on and the game's thinking time since its last move has passed."""
        await self.go.wait()
        if self.thinking > 0:
            due = max(pace.last, self.started) + rng.expovariate(1 / self.thinking)
            if due > time.perf_counter():
                await asyncio.sleep(due - time.perf_counter())
            else:
                self.late += 1  # the update came after the player had finished thinking
            await self.go.wait()

    def sent(self, pace: Pace) -> float:
        """A move goes now; returns the time."""
        self.in_flight += 1
        self.moves += 1
        self.idle.clear()
        pace.last = time.perf_counter()
        return pace.last

    def arrived(self, since: float | None) -> None:
        """A move sent at `since` has been broadcast back (None: it was refused)."""
        if since is not None:
            self.latencies.append(time.perf_counter() - since)
        self.in_flight -= 1
        if not self.in_flight:
            self.idle.set()


class Pace:
    """When a game's last move was sent: thinking for the next one counts from then, so the moves a second offered
    are the games over the mean thinking time whatever the server's delay (up to the thinking time)."""

    def __init__(self) -> None:
        self.last = 0.0


async def skald_seat_open(port: int, game_id: str, token: str) -> tuple[ClientConnection, dict[str, Any]]:
    """A seat's connection to Skald, greeted, with the full update the hello brings."""
    ws = await connect(f"ws://127.0.0.1:{port}/ws/{game_id}", max_size=None)
    await ws.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "update":
            return ws, message


async def skald_seat_play(
    ws: ClientConnection, message: dict[str, Any], rng: random.Random, clock: Clock, pace: Pace, traffic: Traffic
) -> int:
    """Play a greeted seat to the end of its game, in rounds: a random legal action when offered, each move timed
    until its broadcast. Returns the moves made."""
    sent: tuple[int, float] | None = None
    moves = 0
    while True:
        if message["type"] == "update":
            if sent is not None and message["version"] > sent[0]:
                clock.arrived(sent[1])
                sent = None
            if message["status"] == "over":
                return moves
            if message["legal"] and sent is None:
                await clock.turn(pace, rng)
                choice = rng.choice(message["legal"])
                text = json.dumps({"type": "move", "version": message["version"], "action": choice["action"]})
                traffic.moves += 1
                traffic.move_bytes += len(text.encode())
                sent = (message["version"], clock.sent(pace))
                await ws.send(text)
                moves += 1
        elif message["type"] == "error" and sent is not None:
            clock.arrived(None)
            sent = None
        raw = await ws.recv()
        message = json.loads(raw)
        if message["type"] == "update":
            traffic.updates += 1
            traffic.update_bytes += len(raw.encode() if isinstance(raw, str) else raw)


class SkaldGames:
    """Skald's side: `games` games always in play, each followed by a game made and greeted beforehand as soon as it
    ends, so that a round never waits for a game's start."""

    def __init__(self, port: int, players: int, games: int, traffic: Traffic) -> None:
        self.port, self.players, self.games, self.traffic = port, players, games, traffic
        self.clock = Clock()
        self.spare: asyncio.Queue[list[tuple[ClientConnection, dict[str, Any]]]] = asyncio.Queue()
        self.seeds = itertools.count(1)
        self.lengths: list[int] = []
        self.starved = 0
        self.tasks: list[asyncio.Task[None]] = []

    async def make(self, count: int) -> None:
        """Make `count` more games and greet every seat of each, ready to play."""
        seeds = [next(self.seeds) for _ in range(count)]
        made = await asyncio.gather(*(asyncio.to_thread(create, self.port, self.players, seed) for seed in seeds))
        for game in made:
            opened = await asyncio.gather(
                *(skald_seat_open(self.port, game["id"], invite["token"]) for invite in game["invites"])
            )
            self.spare.put_nowait(list(opened))

    async def slot(self, number: int) -> None:
        """One game after another, for ever."""
        rng = random.Random(number)
        while True:
            if self.spare.empty() and self.clock.go.is_set():
                self.starved += 1
            seats = await self.spare.get()
            pace = Pace()
            counts = await asyncio.gather(
                *(skald_seat_play(ws, first, rng, self.clock, pace, self.traffic) for ws, first in seats)
            )
            self.lengths.append(sum(counts))
            await asyncio.gather(*(ws.close() for ws, _first in seats))

    async def ready(self, seconds: float, rate: float) -> None:
        """Enough games made for a round of `seconds` at about `rate` moves a second; the slots started."""
        length = statistics.mean(self.lengths) if self.lengths else 150
        wanted = self.games - len(self.tasks) + int(seconds * rate * 1.5 / length) + 5
        if wanted > self.spare.qsize():
            await self.make(wanted - self.spare.qsize())
        while len(self.tasks) < self.games:
            self.tasks.append(asyncio.create_task(self.slot(len(self.tasks))))


async def anchor_seat_open(port: int, game_id: str, seat: int, players: int) -> tuple[ClientConnection, dict[str, Any]]:
    """A seat's connection to the anchor, with its welcome."""
    ws = await connect(f"ws://127.0.0.1:{port}/ws/{game_id}?seat={seat}&players={players}", max_size=None)
    return ws, json.loads(await ws.recv())


async def anchor_seat_play(
    ws: ClientConnection,
    message: dict[str, Any],
    seat: int,
    traffic: Traffic,
    rng: random.Random,
    clock: Clock,
    pace: Pace,
) -> None:
    """Play a seat at the anchor for ever, in rounds: on its turn a move of the size of Skald's, asking for updates
    of the size of Skald's, each timed until its broadcast."""
    sent: float | None = None
    while True:
        if message["type"] == "error":
            if sent is not None:
                clock.arrived(None)
                sent = None
        elif sent is not None:
            clock.arrived(sent)
            sent = None
        if message.get("to_move") == seat and sent is None:
            await clock.turn(pace, rng)
            move_size, update_size = traffic.sizes()
            move = {"type": "move", "version": message["version"], "action": rng.randrange(200), "update": update_size}
            text = padded(move, move_size)
            sent = clock.sent(pace)
            await ws.send(text)
        message = json.loads(await ws.recv())


async def anchor_games(port: int, players: int, games: int, traffic: Traffic, clock: Clock) -> list[asyncio.Task[None]]:
    """`games` endless games at the anchor, every seat connected, playing whenever `clock` runs a round."""
    seats = [(f"g{g}", s) for g in range(games) for s in range(players)]
    opened = await asyncio.gather(*(anchor_seat_open(port, game_id, s, players) for game_id, s in seats))
    paces = [Pace() for _ in range(games)]
    return [
        asyncio.create_task(anchor_seat_play(ws, first, s, traffic, random.Random(i), clock, paces[i // players]))
        for i, ((ws, first), (_game_id, s)) in enumerate(zip(opened, seats, strict=True))
    ]


class Round:
    """What one round of one server measured: moves, seconds, the server's and the clients' CPU seconds, the
    move → broadcast delays, and the moves sent after their thinking time had passed."""

    def __init__(self, clock: Clock, elapsed: float, server_cpu: float, client_cpu: float) -> None:
        self.moves = clock.moves
        self.late = clock.late
        self.latencies = clock.latencies
        self.elapsed = elapsed
        self.server_cpu = server_cpu
        self.client_cpu = client_cpu

    def cpu_a_move(self) -> float:
        """Server CPU seconds a move."""
        return self.server_cpu / max(1, self.moves)

    def rate(self) -> float:
        """Moves a second."""
        return self.moves / self.elapsed


async def measure(clock: Clock, pid: int, seconds: float, profile: str | None = None) -> Round:
    """Run a round of `seconds` on `clock`'s server (process `pid`), until every move sent in it has come back; with
    `profile`, py-spy samples the server meanwhile (the thread holding the interpreter lock: its CPU), its collapsed
    stacks added to that file."""
    spy = None
    if profile is not None:
        spy_binary = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        duration = str(max(1, round(seconds)))
        options = ["--gil", "--nonblocking", "--rate", "250", "--format", "raw", "--duration", duration]
        spy = subprocess.Popen(
            [spy_binary, "record", "--pid", str(pid), *options, "--output", f"{profile}.part"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        await asyncio.sleep(0.5)  # py-spy attaches
    cpu, client, started = cpu_seconds(pid), own_cpu_seconds(), time.perf_counter()
    clock.start()
    await asyncio.sleep(seconds)
    await clock.stop()
    measured = Round(clock, time.perf_counter() - started, cpu_seconds(pid) - cpu, own_cpu_seconds() - client)
    if spy is not None and profile is not None:
        await asyncio.to_thread(spy.wait)
        part = Path(f"{profile}.part")
        if part.exists():
            with open(profile, "a", encoding="utf-8") as out:
                out.write(part.read_text(encoding="utf-8"))
            part.unlink()
    return measured


def plural(count: int, noun: str) -> str:
    """`count` and `noun`, with an s unless there is one."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as `uptime` shows them."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f}, {five:.2f}, {fifteen:.2f}"


def spread(values: list[float], scale: float, digits: int = 0) -> str:
    """The smallest and largest of `values` times `scale`, as 'a–b'."""
    return f"{min(values) * scale:,.{digits}f}–{max(values) * scale:,.{digits}f}"


def totals(rounds: list[Round]) -> tuple[int, float, float, float]:
    """Moves, seconds, server CPU seconds and client CPU seconds over `rounds`."""
    return (
        sum(r.moves for r in rounds),
        sum(r.elapsed for r in rounds),
        sum(r.server_cpu for r in rounds),
        sum(r.client_cpu for r in rounds),
    )


def cpu_line(name: str, rounds: list[Round]) -> str:
    """A server's CPU a move and moves a second over its rounds (all together, then each round's range)."""
    moves, elapsed, cpu, client = totals(rounds)
    return (
        f"  {name:<6} server CPU {cpu / moves * 1e6:,.0f} µs a move ({spread([r.cpu_a_move() for r in rounds], 1e6)} "
        f"by round), {moves / elapsed:,.0f} moves/s ({spread([r.rate() for r in rounds], 1)}); "
        f"server {cpu / elapsed:.2f} cores, clients {client / elapsed:.2f}"
    )


def delay_line(name: str, rounds: list[Round]) -> str:
    """A server's move → broadcast delays over its rounds, with the moves a second it reached."""
    moves, elapsed, cpu, client = totals(rounds)
    late = sum(r.late for r in rounds)
    return (
        f"  {name:<6} move → broadcast {percentiles([x for r in rounds for x in r.latencies])}; {moves / elapsed:,.0f} "
        f"moves/s reached, {late / max(1, moves):.1%} of the moves sent late (the update came after the thinking "
        f"time); server {cpu / elapsed:.2f} cores, clients {client / elapsed:.2f}"
    )


#: A server in the comparison: its clock, its process, what makes it ready for a round at a rate of moves/s, and
#: the file its rounds' profiles go to (None: not profiled).
Contender = tuple[Clock, int, Callable[[float], Awaitable[None]], str | None]


async def interleave(
    servers: Mapping[str, Contender], pairs: int, seconds: float, rate: float, profiled: bool = False
) -> dict[str, list[Round]]:
    """`pairs` rounds of each server, alternating which goes first so that the machine's drift hits both alike."""
    rounds: dict[str, list[Round]] = {name: [] for name in servers}
    names = list(servers)
    for pair in range(pairs):
        for name in names if pair % 2 == 0 else names[::-1]:
            clock, pid, ready, profile = servers[name]
            await ready(rate)
            rounds[name].append(await measure(clock, pid, seconds, profile if profiled else None))
    return rounds


async def compare(args: argparse.Namespace, skald_pid: int, anchor_pid: int) -> None:
    """Skald against the anchor: server CPU a move in saturated rounds and, with `--open-loop F`, the delays at F
    times the anchor's saturated moves a second; prints the figures."""
    seconds, pairs, games, players = args.seconds, args.pairs, args.games, args.players
    traffic = Traffic()
    skald = SkaldGames(args.port, players, games, traffic)
    anchor_clock = Clock()
    tasks = await anchor_games(args.port + 1, players, games, traffic, anchor_clock)

    async def skald_ready(rate: float) -> None:
        """Enough Skald games made and greeted for a round at `rate` moves a second (0: as fast as it went)."""
        await skald.ready(seconds, rate or max([5000.0, *(r.rate() for r in closed.get("Skald", []))]))

    async def anchor_ready(_rate: float) -> None:
        """The anchor's games never end: nothing to make."""
        return None

    servers = {
        "Skald": (skald.clock, skald_pid, skald_ready, args.py_spy and f"{args.py_spy}-skald.txt"),
        "anchor": (anchor_clock, anchor_pid, anchor_ready, args.py_spy and f"{args.py_spy}-anchor.txt"),
    }
    closed: dict[str, list[Round]] = {}
    await interleave(servers, 1, seconds / 2, 0.0)  # warm servers, and the sizes of Skald's messages
    closed = await interleave(servers, pairs, seconds, 0.0, profiled=True)
    anchor_cpu = totals(closed["anchor"])[2] / totals(closed["anchor"])[0]
    looped = totals(closed["anchor"])[0] / totals(closed["anchor"])[1]
    saturated = 1 / anchor_cpu if args.saturation == "cpu" else looped
    opened: dict[str, list[Round]] = {}
    if args.open_loop:
        offered = args.open_loop * saturated
        skald.clock.thinking = anchor_clock.thinking = games / offered
        opened = await interleave(servers, pairs, seconds, offered)
    for task in [*tasks, *skald.tasks]:
        task.cancel()
    move_size, update_size = traffic.sizes()
    print(
        f"sizes measured at Skald: a move {move_size} bytes, an update {update_size} bytes, "
        f"{traffic.updates_a_move():.2f} updates a move (one to each seat); the anchor's are padded to these"
    )
    print(
        f"saturated: {games} games of {players} players, each seat moving as soon as it may, "
        f"{plural(pairs, 'interleaved pair')} of {seconds:g} s rounds"
    )
    for name, rounds in closed.items():
        print(cpu_line(name, rounds))
    skald_cpu = totals(closed["Skald"])[2] / totals(closed["Skald"])[0]
    by_pair = [s.cpu_a_move() / a.cpu_a_move() for s, a in zip(closed["Skald"], closed["anchor"], strict=True)]
    print(
        f"  Skald's server CPU a move is {skald_cpu / anchor_cpu:.2f} × the anchor's ({spread(by_pair, 1, 2)} by pair; "
        "goal ≤ 1.5)"
    )
    if args.open_loop:
        how = "one core's worth: 1 / its server CPU a move" if args.saturation == "cpu" else "its moves/s above"
        print(
            f"open loop: {args.open_loop:g} × the anchor's saturated {saturated:,.0f} moves/s ({how}) = "
            f"{args.open_loop * saturated:,.0f} moves/s offered by {games} games, a move every "
            f"{skald.clock.thinking * 1000:.1f} ms a game on average (exponential), "
            f"{plural(pairs, 'interleaved pair')}"
        )
        for name, rounds in opened.items():
            print(delay_line(name, rounds))
        print("  goal: Skald's p99 < 50 ms at 0.5 × the anchor's saturated moves a second")
    if args.py_spy:
        print(f"where the server CPU a move goes (py-spy on the thread holding the GIL; {args.py_spy}-*.txt):")
        print(profile_table({"Skald": skald_cpu, "anchor": anchor_cpu}, args.py_spy))
    if skald.starved:
        print(f"({skald.starved} times a Skald game ended with no other made ready: fewer games were in play)")


#: Where a sampled frame's code lives → what it is doing, first match wins (the leaf frame: time spent in it).
PROFILE_KINDS = (
    ("skald/web/groupcommit.py", "database and group commit"),
    ("skald/web/db.py", "database and group commit"),
    ("sqlalchemy/", "database and group commit"),
    ("sqlite3/", "database and group commit"),
    ("anchor_server.py:", "the table (Skald's web code; the anchor's handler)"),
    ("skald/web/", "the table (Skald's web code; the anchor's handler)"),
    ("skald/games/", "the game's rules (skald/games, skald/engine)"),
    ("skald/engine/", "the game's rules (skald/games, skald/engine)"),
    ("random.py", "the game's rules (skald/games, skald/engine)"),
    ("json/", "JSON encoding and decoding"),
    ("uvicorn/protocols/", "WebSocket protocol (uvicorn, websockets)"),
    ("websockets/", "WebSocket protocol (uvicorn, websockets)"),
    ("starlette/", "ASGI layers (Starlette, FastAPI)"),
    ("fastapi/", "ASGI layers (Starlette, FastAPI)"),
    ("asyncio/", "event loop, queues, tasks (asyncio, uvloop)"),
)


def profile_kinds(path: str) -> dict[str, int]:
    """Samples of a collapsed-stack file (py-spy's raw format) by what their leaf frame is doing."""
    counts: dict[str, int] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack:
            continue
        leaf = stack.rsplit(";", 1)[-1]
        kind = next((kind for where, kind in PROFILE_KINDS if where in leaf), "other")
        counts[kind] = counts.get(kind, 0) + int(number)
    return counts


def profile_table(cpu: dict[str, float], prefix: str) -> str:
    """Each server's CPU a move split by what its samples were doing, in µs a move."""
    counts = {name: profile_kinds(f"{prefix}-{name.lower()}.txt") for name in cpu}
    kinds = [kind for _, kind in PROFILE_KINDS] + ["other"]
    rows = [f"  {'':<52}" + "".join(f"{name:>14}" for name in cpu)]
    for kind in dict.fromkeys(kinds):
        cells = []
        for name, per_move in cpu.items():
            total = sum(counts[name].values()) or 1
            cells.append(f"{counts[name].get(kind, 0) / total * per_move * 1e6:>9.0f} µs  ")
        rows.append(f"  {kind:<52}" + "".join(cells))
    return "\n".join(rows)


def anchored(args: argparse.Namespace) -> None:
    """Start Skald and the anchor on fresh SQLite files, compare them, stop them."""
    print(f"machine: {os.cpu_count()} cores, load average {load()} at the start (`uptime`)")
    for name in ("skald", "anchor") if args.py_spy else ():
        Path(f"{args.py_spy}-{name}.txt").write_text("", encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        env = {"SKALD_MAX_BOT_GAMES": "100000", "SKALD_MAX_BOT_GAMES_PER_CLIENT": "100000"}
        skald = start_server(f"sqlite:///{Path(folder) / 'bench.db'}", args.port, env)
        anchor = start_anchor(str(Path(folder) / "anchor.db"), args.port + 1)
        try:
            asyncio.run(compare(args, skald.pid, anchor.pid))
        finally:
            for server in (skald, anchor):
                server.terminate()
            for server in (skald, anchor):
                server.wait()
    print(f"machine: load average {load()} at the end")


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
    parser.add_argument("--anchor", action="store_true", help="measure Skald against the anchor server, interleaved")
    parser.add_argument(
        "--open-loop",
        type=float,
        default=None,
        metavar="F",
        help="also time moves at F × the anchor's saturated moves a second, seats thinking exponentially (--anchor)",
    )
    parser.add_argument("--pairs", type=int, default=3, help="interleaved rounds of each server (--anchor)")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds a round (--anchor)")
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        default=None,
        help="sample Skald's server with py-spy in its saturated rounds, collapsed stacks to FILE (--anchor)",
    )
    parser.add_argument(
        "--saturation",
        choices=("cpu", "loop"),
        default="cpu",
        help="the anchor's saturated moves/s: 1 / its CPU a move (cpu), or its moves/s in the saturated rounds (loop)",
    )
    args = parser.parse_args()
    if args.anchor or args.open_loop:
        if args.db != "sqlite" or args.processes != 1 or args.svg or args.full or args.bot_tables:
            parser.error("--anchor: one server process on SQLite, short updates, no bot tables")
        anchored(args)
        return
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
    print(f"submission → broadcast: {percentiles(latencies)}")
    if moves_sent is not None:
        print(
            f"submission → arrival at the other seats, through another process: {percentiles(moves_sent.arrivals)} "
            f"({len(moves_sent.arrivals)} arrivals)"
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
