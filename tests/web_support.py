"""Running the real web table for tests: `skald serve` in a subprocess on a free loopback port, and PostgreSQL."""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from skald.engine import Game, State


def free_port() -> int:
    """A TCP port free on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: The servers' logs (stderr), read by tests after a server stops; removed when the test process ends.
_LOGS = tempfile.TemporaryDirectory(prefix="skald-serve-logs-")


class Server:
    """`skald serve` in a subprocess; `kill()` sends SIGKILL, `start()` brings it back on the same database.

    `env` adds environment variables (the settings `skald serve` reads from the environment, say).
    """

    def __init__(self, db_url: str, *extra: str, env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.extra = extra
        # The bot-game limits are lifted unless a test sets them: many tests make more bot games from one address
        # than a person would (tests/test_web_bot_workers.py checks the limits).
        # So are the replays drawn per second (tests/test_web_replay_load.py checks that limit). The pace of card
        # windows is short: whole games are played, and tests/test_web_card_windows.py checks the pace itself.
        lifted = {
            "SKALD_MAX_BOT_GAMES": "100000",
            "SKALD_MAX_BOT_GAMES_PER_CLIENT": "100000",
            "SKALD_REPLAYS_PER_SECOND": "100000",
            "SKALD_HIDDEN_PACE": "0.02",
        }
        self.env = {**lifted, **os.environ, **(env or {})}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base HTTP URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """The base WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it answers."""
        args = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(self.port), "--db", self.db_url]
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115
            prefix="skald-serve-", suffix=".log", dir=_LOGS.name, delete=False
        )
        self.process = subprocess.Popen([*args, *self.extra], stdout=subprocess.DEVNULL, stderr=self.log, env=self.env)
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"skald serve exited: {Path(self.log.name).read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("skald serve did not start within 60 s") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flushing."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Stop the server politely."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, raw: bytes | None = None
    ) -> tuple[int, Any]:
        """An HTTP request; returns (status, parsed JSON)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def create(self, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        """Create a game; asserts it was created."""
        status, data = self.request("POST", "/api/games", {"seats": seats, **extra})
        assert status == 201, data
        return dict(data)


@contextmanager
def running(db_url: str, *extra: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    """A started server, stopped afterwards."""
    server = Server(db_url, "--games-per-minute", "10000", "--moves-per-second", "10000", *extra, env=env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server on loopback (Debian's `postgresql`), yielding its URL."""
    bindir = _postgres_bin()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed; .ci/run installs Debian's postgresql")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql); the SQLite runs still cover the API")
    root = Path(tempfile.mkdtemp(prefix="skald-pg-"))
    data = root / "data"
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: use the postgres account Debian's package creates
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "skald", "--no-sync"],
        check=True,
        capture_output=True,
    )
    log = root / "log"
    subprocess.run(
        [
            *as_user,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-w",
            "-o",
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://skald@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(name="database", scope="module")
def postgres_fixture() -> Iterator[str]:
    """A throwaway PostgreSQL server shared by a module's tests (import it as `postgres_fixture`; tests ask for
    `database`)."""
    with postgres() as url:
        yield url


@contextmanager
def two_servers(url: str, *extra: str) -> Iterator[tuple[Server, Server]]:
    """Two started server processes on the database at `url`, stopped afterwards."""
    with running(url, *extra) as first, running(url, *extra) as second:
        yield first, second


def store_played(
    url: str, game: Game, seed: int, worlds: list[State], names: list[str], options: dict[str, Any] | None = None
) -> list[tuple[str, list[str]]]:
    """Write games already played (`worlds`, each of `game` with `options`, all seats people called `names`) into
    the database at `url` as a server that played them with chance `seed` would: rows, seats with tokens, moves.
    Returns each game's id and its seats' tokens."""
    import secrets

    from skald.web.live_table import token_hash
    from skald.web.store.engine import make_engine, migrate
    from skald.web.store.schema import GameRow, SeatRow, now
    from skald.web.store.stores import Stores

    engine = make_engine(url)
    migrate(engine)
    store = Stores(engine).games
    made = []
    for world in worlds:
        stamp = now()
        game_id = secrets.token_urlsafe(12)
        tokens = [secrets.token_urlsafe(24) for _ in names]
        row = GameRow(
            id=game_id,
            game=game.name,
            players=len(names),
            options=game.resolve_options(options),
            seed=seed,
            secret_seed=False,
            version=0,
            status="playing",
            rematch_id=None,
            created_at=stamp,
            updated_at=stamp,
        )
        seats = [
            SeatRow(game_id=game_id, seat=i, name=name, kind="human", token_hash=token_hash(token))
            for i, (name, token) in enumerate(zip(names, tokens, strict=True))
        ]
        store.create(row, seats)
        replay = game.new_initial_state(len(names), options)
        moves = []
        for action in world.history:
            moves.append((replay.current_player(), action))
            replay.apply(action)
        store.append(game_id, 0, moves, "playing")
        made.append((game_id, tokens))
    engine.dispose()
    return made


@contextmanager
def hello(server: Server, game_id: str, token: str | None) -> Iterator[ClientConnection]:
    """A WebSocket at the table, greeted with `token` (None: a spectator)."""
    with connect(f"{server.ws}/ws/{game_id}", open_timeout=30) as conn:
        conn.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
        yield conn


def until(conn: ClientConnection, check: Callable[[dict[str, Any]], bool], timeout: float = 30) -> dict[str, Any]:
    """The first message on `conn` that passes `check`."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(conn.recv(timeout=max(0.1, deadline - time.monotonic())))
        if check(message):
            return dict(message)
