"""The anchor server of `benchmarks/bench_web.py --anchor` does the work it stands for: a move sent by one seat is
stored in its SQLite file and broadcast to every seat, padded to the size the benchmark asks for."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect

from web_support import free_port

ANCHOR = Path(__file__).resolve().parents[1] / "benchmarks" / "anchor_server.py"


@pytest.fixture
def anchor(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """The anchor server on a free port and a fresh SQLite file, until the test ends."""
    port, db = free_port(), tmp_path / "anchor.db"
    process = subprocess.Popen([sys.executable, str(ANCHOR), "--port", str(port), "--db", str(db)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the anchor server did not start") from None
                time.sleep(0.05)
        yield port, db
    finally:
        process.terminate()
        process.wait(timeout=30)


async def next_message(ws: ClientConnection) -> tuple[str, dict[str, object]]:
    """The next text message, raw and parsed."""
    raw = await asyncio.wait_for(ws.recv(), 30)
    assert isinstance(raw, str)
    return raw, json.loads(raw)


def test_anchor_stores_a_move_and_broadcasts_an_update_of_the_requested_size(anchor: tuple[int, Path]) -> None:
    port, db = anchor

    async def play() -> None:
        url = f"ws://127.0.0.1:{port}/ws/g1?players=3&seat="
        async with connect(url + "0") as s0, connect(url + "1") as s1, connect(url + "2") as s2:
            seats = [s0, s1, s2]
            for number, ws in enumerate(seats):
                _raw, welcome = await next_message(ws)
                assert welcome == {"type": "welcome", "seat": number, "version": 0, "to_move": 0}
            for version, (mover, size) in enumerate([(0, 300), (1, 777)]):
                move = {"type": "move", "version": version, "action": 40 + version, "update": size, "pad": "y" * 50}
                await seats[mover].send(json.dumps(move))
                for ws in seats:
                    raw, update = await next_message(ws)
                    assert len(raw) == size
                    assert update["type"] == "update"
                    assert update["version"] == version + 1
                    assert update["seat"] == mover
                    assert update["to_move"] == mover + 1
                    # Committed before it was broadcast: the file holds it once any seat has heard of it.
                    with sqlite3.connect(db) as check:
                        stored = check.execute("SELECT seat, action FROM moves WHERE ply = ?", (version,)).fetchall()
                        assert stored == [(mover, 40 + version)]
            with sqlite3.connect(db) as check:
                assert check.execute("SELECT id, version FROM games").fetchall() == [("g1", 2)]
            await s0.send(json.dumps({"type": "move", "version": 0, "action": 1, "update": 100}))
            _raw, refused = await next_message(s0)
            assert refused == {"type": "error", "code": "stale", "version": 2}

    asyncio.run(play())
