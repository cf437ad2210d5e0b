"""Durability soak: no acknowledged move is lost when `skald serve` is killed with SIGKILL again and again.

Run: .venv/bin/python benchmarks/soak_kill.py --db sqlite|postgresql [--processes 1|2] [--kills 100] [--games 20]
[--interval 0.3-1.0] [--seed S]

`--games` two-player Vikings games of two people are played at once, each seat by a client in this process (asyncio,
one WebSocket each) that sends a random legal action whenever it is offered one. Meanwhile a killer sends SIGKILL to
a server process picked at random, restarts it at once on the same port and database, waits until it answers
`/api/health` again, then lets it serve for a random interval before the next kill. Clients whose connection drops
reconnect (to their own process, else to any live one) and play on; finished games are replaced by new ones.

A move counts as acknowledged when the client that sent it receives an update past the version it moved at whose
log carries that move at that ply (the server commits before it broadcasts). After `--kills` kills the clients stop,
every server process is killed once more, and a fresh process checks each game: every acknowledged action must be
in the game's record at its ply, and the game's version must be at least the highest version any client was shown.

`--db sqlite` serves a fresh temporary file from one process; `--db postgresql` starts a throwaway PostgreSQL server
(Debian's `postgresql`), and with `--processes 2` two processes share it, seat i of game g connecting to process
(g + i) mod 2, so moves also cross processes. Prints the acknowledged and lost moves, the moves per second while
being killed, and the restart time from SIGKILL until `/api/health` answers again (p50 and max, to about 0.1 s,
as `start_server` polls); exits 1 if any acknowledged move was lost or a game is behind a version a client was
shown. `--seed` fixes the random choices (which process, when, which moves), not the timing, so runs still differ.

SIGKILL tests a crash of the server process, not of the machine: data the operating system has accepted survives it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import itertools
import json
import random
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

# Run as `python benchmarks/soak_kill.py`, so the benchmarks folder is on the path.
from bench_web import create, start_server, throwaway_postgres

#: The settings `start_server` does not pass: no client here plays bots, but the limits must never refuse a game.
ENV = {"SKALD_MAX_BOT_GAMES": "100000", "SKALD_MAX_BOT_GAMES_PER_CLIENT": "100000"}
#: First and longest wait between reconnection attempts: short, so that clients are back soon after a restart and the
#: next kill finds moves in flight.
BACKOFF = (0.05, 0.25)
#: The longest wait for moves in flight to be answered once the kills are done.
DRAIN_SECONDS = 15.0
#: Seconds without a message after which a client takes its connection for stuck and reconnects (counted: in a game
#: of two busy clients every few moments bring an update, so silence means an update was never sent).
STALL_SECONDS = 20.0
#: Errors that make a client reconnect or retry a creation: the server went away mid-way.
GONE = (OSError, TimeoutError, WebSocketException, http.client.HTTPException, ValueError)


def canonical(action: Any) -> str:
    """An action's JSON form as one comparable text."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def free_port() -> int:
    """A TCP port free on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get(port: int, path: str) -> Any:
    """A JSON answer from a server's HTTP API."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as response:
        return json.loads(response.read())


@dataclass
class Acked:
    """An acknowledged move: the seat that made it, its action (canonical JSON) and its notation."""

    seat: int
    action: str
    notation: str


@dataclass
class Pending:
    """A move sent and not yet answered: the version it was made at, its `ref`, action and notation."""

    version: int
    ref: int
    action: str
    notation: str


@dataclass
class Game:
    """A game of the soak: its id, each seat's token, the acknowledged moves by version, and the highest version any
    client was shown."""

    id: str
    tokens: list[str]
    acked: dict[int, list[Acked]] = field(default_factory=dict)
    seen: int = 0
    over: bool = False


@dataclass
class Tally:
    """What the clients did."""

    sent: int = 0
    #: Moves an update showed at their ply. A move sent again after a kill that is the very one committed before it
    #: (the same random choice) counts too, though a `stale` error follows: it is in the game and the client was told.
    acknowledged: int = 0
    #: Sent on a connection that dropped (or was closed at the end) before an answer came: maybe committed, maybe not.
    unanswered: int = 0
    #: Answered by an update in which another action took the move's ply (a move this seat sent before a kill and
    #: never saw acknowledged): not acknowledged.
    superseded: int = 0
    #: Errors by code, and by what became of the move they answer ("stale after superseded": the update came first).
    errors: Counter[str] = field(default_factory=Counter)
    #: Connections that dropped (or were found stuck) with the game still going: each followed by a reconnection.
    reconnections: int = 0
    #: Connections on which nothing came for `STALL_SECONDS`.
    stalls: int = 0
    finished: int = 0


class Soak:
    """The server processes, the games and their clients, and the killer."""

    def __init__(self, db: str, processes: int, games: int, seed: int) -> None:
        self.db = db
        self.ports = [free_port() for _ in range(processes)]
        self.servers: list[subprocess.Popen[bytes] | None] = [None] * processes
        self.slots = games
        # One generator per thread: the killer's and the clients'.
        self.kill_rng = random.Random(seed)
        self.rng = random.Random(seed + 1)
        self.games: list[Game] = []
        self.tally = Tally()
        self.refs = itertools.count(1)
        self.in_flight = 0
        #: Seconds from each SIGKILL until the restarted process answered `/api/health`.
        self.restarts: list[float] = []
        self.kills = 0
        #: Set when the clients should stop sending moves (the kills are done, or the run is interrupted).
        self.stopping = False
        #: Tells the killer thread to stop early.
        self.halt = threading.Event()

    def start(self, index: int) -> None:
        """Start server process `index` on its port and wait until it answers (in the calling thread: it is kept as
        soon as it runs, so that it is stopped at the end even if whoever waited for it was cancelled)."""
        self.servers[index] = start_server(self.db, self.ports[index], ENV)

    def start_waited(self, index: int) -> None:
        """`start` in a thread of its own, waited for: a Ctrl-C meanwhile still leaves the process registered."""
        with ThreadPoolExecutor(1) as pool:
            pool.submit(self.start, index).result()

    def kill(self, index: int) -> None:
        """SIGKILL server process `index`: no shutdown hooks, no flushing."""
        process = self.servers[index]
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
        self.servers[index] = None

    def stop_all(self) -> None:
        """Kill every server process still running (the end of the run, however it ends)."""
        for index in range(len(self.servers)):
            self.kill(index)

    def killer(self, kills: int, interval: tuple[float, float]) -> None:
        """Kill a random process `kills` times, restarting each at once; runs in a thread of its own, so that the
        restart times are not those of a busy event loop."""
        while self.kills < kills and not self.halt.is_set():
            # The interval runs from the last restart's health answer: every restarted process takes moves first.
            if self.halt.wait(self.kill_rng.uniform(*interval)):
                return
            index = self.kill_rng.randrange(len(self.ports))
            killed = time.perf_counter()
            self.kill(index)
            self.start(index)
            self.restarts.append(time.perf_counter() - killed)
            self.kills += 1
            if self.kills % 10 == 0:
                print(f"  {self.kills} kills, {self.tally.acknowledged} moves acknowledged", flush=True)

    async def new_game(self, slot: int) -> Game:
        """A new game of two people, created on the slot's process (or any live one while it restarts)."""
        for attempt in itertools.count():
            port = self.ports[(slot + attempt) % len(self.ports)]
            try:
                data = await asyncio.to_thread(create, port, 2, self.rng.randrange(2**48))
            except GONE:
                # The answer may have been lost after the game was made: that game is simply never played.
                await asyncio.sleep(BACKOFF[1])
                continue
            invites = sorted(data["invites"], key=lambda invite: int(invite["seat"]))
            game = Game(data["id"], [invite["token"] for invite in invites])
            self.games.append(game)
            return game
        raise AssertionError("unreachable")

    async def slot(self, slot: int) -> None:
        """Keep one game going at this slot: when a game finishes, start another."""
        for number in itertools.count():
            if self.stopping:
                return
            game = await self.new_game(slot)
            await asyncio.gather(
                *(
                    self.seat(
                        game, seat, token, slot + seat, random.Random(f"{slot}:{number}:{seat}:{self.rng.random()}")
                    )
                    for seat, token in enumerate(game.tokens)
                )
            )
            if game.over:
                self.tally.finished += 1

    async def seat(self, game: Game, seat: int, token: str, home: int, rng: random.Random) -> None:
        """One seat's client: plays random legal moves, reconnecting whenever its connection drops, until the game is
        over or the soak stops; records which of its moves were acknowledged."""
        attempt = 0
        delay = BACKOFF[0]
        while not game.over and not self.stopping:
            port = self.ports[(home + attempt) % len(self.ports)]
            pending: Pending | None = None
            #: The `ref` of the move last answered on this connection, and how.
            last: tuple[int, str] | None = None
            connected = False
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws/{game.id}", max_size=None, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
                    attempt, delay, connected = 0, BACKOFF[0], True
                    while True:
                        try:
                            raw = await asyncio.wait_for(ws.recv(), STALL_SECONDS)
                        except TimeoutError:
                            self.tally.stalls += 1
                            break
                        message = json.loads(raw)
                        if message.get("type") == "error":
                            code = str(message.get("code"))
                            if pending is not None and message.get("ref") == pending.ref:
                                # Refused with no update to go on: a fresh connection brings a fresh view.
                                self.tally.errors[f"{code} (refused)"] += 1
                                self.in_flight -= 1
                                pending = None
                                break
                            after = f" after {last[1]}" if last is not None and message.get("ref") == last[0] else ""
                            self.tally.errors[code + after] += 1
                            continue
                        if message.get("type") != "update":
                            continue
                        version = int(message["version"])
                        game.seen = max(game.seen, version)
                        if pending is not None and version > pending.version:
                            last = (pending.ref, self.answered(game, seat, pending, message))
                            pending = None
                        if message["status"] == "over":
                            game.over = True
                            return
                        if self.stopping:
                            if pending is None:
                                return
                            continue
                        if message["legal"] and pending is None:
                            choice = rng.choice(message["legal"])
                            pending = Pending(version, next(self.refs), canonical(choice["action"]), choice["notation"])
                            self.tally.sent += 1
                            self.in_flight += 1
                            move = {"type": "move", "version": version, "action": choice["action"], "ref": pending.ref}
                            await ws.send(json.dumps(move))
            except GONE:
                pass
            finally:
                if pending is not None:
                    # Whether the kill came before or after its commit, nobody was told: not acknowledged.
                    self.tally.unanswered += 1
                    self.in_flight -= 1
            if game.over or self.stopping:
                return
            self.tally.reconnections += connected
            attempt += 1
            if attempt % len(self.ports) == 0:
                # Every process was tried: wait for the restart.
                await asyncio.sleep(delay)
                delay = min(2 * delay, BACKOFF[1])

    def answered(self, game: Game, seat: int, pending: Pending, message: dict[str, Any]) -> str:
        """An update past `pending`'s version came: acknowledged if its log has the move at that ply. Returns which
        (`acknowledged` or `superseded`)."""
        self.in_flight -= 1
        # Only the log tells whose action took the ply: when this seat's own move from before a kill (never
        # acknowledged) was committed first, the server answers the new one with an update past its version too
        # (and then a `stale` error).
        entry = next((e for e in message.get("log", []) if e.get("ply") == pending.version), None)
        if entry is None or entry.get("seat") != seat or entry.get("notation") != pending.notation:
            self.tally.superseded += 1
            return "superseded"
        game.acked.setdefault(pending.version, []).append(Acked(seat, pending.action, pending.notation))
        self.tally.acknowledged += 1
        return "acknowledged"

    async def run(self, kills: int, interval: tuple[float, float]) -> float:
        """Play while the killer kills; returns the seconds of play."""
        started = time.perf_counter()
        slots = [asyncio.create_task(self.slot(slot)) for slot in range(self.slots)]
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(1, thread_name_prefix="killer") as pool:
            try:
                killer = loop.run_in_executor(pool, self.killer, kills, interval)
                waited: list[asyncio.Future[None]] = [killer, *slots]
                done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
                for finished in done:
                    finished.result()  # the killer's failure (a restart that did not start) or a client's
                if killer not in done:
                    raise RuntimeError("a game slot stopped before the kills were done")
                self.stopping = True
                # Let the moves in flight be answered, so the last ones count too.
                deadline = time.monotonic() + DRAIN_SECONDS
                while self.in_flight > 0 and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                elapsed = time.perf_counter() - started
            finally:
                self.stopping = True
                self.halt.set()  # before the pool waits for the killer thread
                for task in slots:
                    task.cancel()
                await asyncio.gather(*slots, return_exceptions=True)
        return elapsed

    def verify(self, port: int) -> tuple[list[str], list[str]]:
        """Check every game on a fresh process: returns a line per acknowledged move lost, and one per game at a
        version lower than one a client was shown."""
        lost: list[str] = []
        behind: list[str] = []
        for game in self.games:
            summary = get(port, f"/api/games/{game.id}")
            actions = get(port, f"/api/games/{game.id}/record")["actions"]
            if int(summary["version"]) < game.seen:
                behind.append(f"game {game.id}: version {summary['version']} < {game.seen} shown to a client")
            for version, moves in sorted(game.acked.items()):
                for move in moves:
                    found = actions[version] if version < len(actions) else None
                    if found is None or found.get("seat") != move.seat or canonical(found.get("action")) != move.action:
                        lost.append(
                            f"game {game.id} version {version}: acknowledged seat {move.seat} {move.notation} "
                            f"{move.action}; record has {json.dumps(found) if found else f'{len(actions)} actions'}"
                        )
        return lost, behind


def interval_range(text: str) -> tuple[float, float]:
    """`A-B` (or `A`): the range of seconds between kills."""
    low, _, high = text.partition("-")
    try:
        bounds = (float(low), float(high or low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds as A-B (such as 0.3-1.0), not {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"expected 0 <= A <= B, not {text!r}")
    return bounds


def main() -> None:
    """Parse arguments, run the soak, print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1, help="server processes (2: PostgreSQL)")
    parser.add_argument("--kills", type=int, default=100, help="SIGKILLs before the check")
    parser.add_argument("--games", type=int, default=20, help="games played at once")
    parser.add_argument("--interval", type=interval_range, default=(0.3, 1.0), help="seconds between kills: A-B")
    parser.add_argument("--seed", type=int, default=None, help="seed of the kills, games and moves")
    args = parser.parse_args()
    if args.processes > 1 and args.db == "sqlite":
        parser.error("--processes 2: SQLite is served by one process; use --db postgresql")
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    # Ctrl-C and SIGTERM (from `timeout`, say) both unwind through the cleanup below, even when the shell started
    # this in the background with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with contextlib.ExitStack() as stack:
        if args.db == "sqlite":
            db = f"sqlite:///{Path(stack.enter_context(tempfile.TemporaryDirectory())) / 'soak.db'}"
        else:
            db = stack.enter_context(throwaway_postgres())
        soak = Soak(db, args.processes, args.games, seed)
        # Registered after the database, so run before it goes: no process outlives the run.
        stack.callback(soak.stop_all)
        for index in range(args.processes):
            soak.start_waited(index)
        print(f"soak: {args.db}, {args.processes} process(es), {args.kills} kills, {args.games} games, seed {seed}")
        elapsed = asyncio.run(soak.run(args.kills, args.interval))
        # The last acknowledged moves must survive a kill too: the check runs on a process started afterwards.
        soak.stop_all()
        soak.start_waited(0)
        lost, behind = soak.verify(soak.ports[0])
    tally = soak.tally
    where = "SQLite file, 1 process" if args.db == "sqlite" else f"PostgreSQL, {args.processes} process(es)"
    print(f"{where}: {soak.kills} SIGKILLs (and a last one of every process before the check) in {elapsed:.0f} s")
    print(
        f"games: {len(soak.games)} played ({args.games} at a time), {tally.finished} finished; "
        f"reconnections: {tally.reconnections}, stalled connections: {tally.stalls}"
    )
    errors = ", ".join(f"{code} {count}" for code, count in tally.errors.most_common()) or "none"
    print(
        f"moves: {tally.sent} sent, {tally.acknowledged} acknowledged, {tally.unanswered} unanswered at a kill, "
        f"{tally.superseded} superseded; errors: {errors}"
    )
    print(f"acknowledged moves lost: {len(lost)}; games behind a version shown to a client: {len(behind)}")
    for line in [*lost, *behind][:20]:
        print(f"  {line}")
    print(f"moves/s: {tally.acknowledged / elapsed:.0f} acknowledged")
    if soak.restarts:
        print(
            f"restart (SIGKILL → /api/health answers): p50 {statistics.median(soak.restarts):.2f} s, "
            f"max {max(soak.restarts):.2f} s"
        )
    raise SystemExit(1 if lost or behind else 0)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        raise SystemExit("soak_kill: interrupted; every server process and the database were stopped") from None
