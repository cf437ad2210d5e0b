"""One client cannot pin the server's connections, trickle bytes for ever, or make
it work without limit — tried as the review tried it, over real sockets against a real `skald serve`.

A second client address is real too: the loopback network is a whole /8, so a socket bound to 127.0.0.2 reaches
the server from another address than the tests' 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from test_web_api import Socket
from web_support import Server, running

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
#: How long a test waits for something the server must do by itself (never a measured time: a generous bound).
PATIENCE = 90.0


def raw(server: Server, source: str = "127.0.0.1") -> socket.socket:
    """A plain TCP connection to the server from `source`."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(PATIENCE)
    sock.connect(("127.0.0.1", server.port))
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (fails the test if it never does)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def health(server: Server, source: str) -> bytes:
    """A health request from `source`; the answer's bytes."""
    with raw(server, source) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return read_all(sock)


@pytest.fixture()
def capped(tmp_path: Path) -> Iterator[Server]:
    """A server allowing 5 connections per address and 60 s of idleness (so held sockets stay held)."""
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    with running(url, "--max-connections-per-address", "5", "--idle-timeout", "60") as server:
        yield server


def test_one_address_holds_at_most_its_cap_of_connections_and_other_addresses_are_served(capped: Server) -> None:
    held = [raw(capped) for _ in range(5)]
    try:
        extra = raw(capped)
        refused = read_all(extra)
        extra.close()
        assert refused.startswith(b"HTTP/1.1 503") and b"too_many_connections" in refused
        assert b" 200 OK" in health(capped, "127.0.0.2")  # another address is not affected
        held.pop().close()
        deadline = time.monotonic() + PATIENCE
        while b" 200 OK" not in health(capped, "127.0.0.1"):  # the server sees the close, then a place is free
            assert time.monotonic() < deadline, "a closed connection never freed its place"
            time.sleep(0.2)
    finally:
        for sock in held:
            sock.close()


def test_websockets_count_against_the_cap_too(capped: Server) -> None:
    game = capped.create(TWO_PEOPLE)
    watchers = [Socket(capped, game["id"]) for _ in range(5)]
    try:
        with pytest.raises(Exception):  # noqa: B017 - refused at the door: the handshake gets a 503, not an upgrade
            Socket(capped, game["id"])
    finally:
        for watcher in watchers:
            watcher.close()


def test_by_default_idle_and_trickling_connections_are_closed_and_one_address_holds_at_most_50(
    tmp_path: Path,
) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        held = [raw(server) for _ in range(50)]
        try:
            refused = read_all(raw(server))
            assert refused.startswith(b"HTTP/1.1 503")
            held[0].sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            for sock in held:  # the silent ones and the one stuck in its headers: every one is closed
                assert read_all(sock) == b""
        finally:
            for sock in held:
                sock.close()


def test_headers_sent_a_byte_at_a_time_do_not_hold_the_connection(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--idle-timeout", "1") as server, raw(server) as sock:
        request = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100_000
        deadline = time.monotonic() + PATIENCE
        with pytest.raises(OSError):  # the server closes the connection: the next byte finds it reset
            for byte in request:
                assert time.monotonic() < deadline, "the server kept a trickling connection open"
                sock.sendall(bytes([byte]))
                time.sleep(0.05)
                sock.setblocking(False)
                try:
                    if sock.recv(1) == b"":
                        raise ConnectionResetError("closed by the server")
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)


def test_a_body_that_never_arrives_is_answered_408_and_the_connection_freed(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--idle-timeout", "1") as server, raw(server) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 500\r\n\r\n{"seats": ['
        )
        answer = read_all(sock)
        assert answer.startswith(b"HTTP/1.1 408") and b'"timeout"' in answer


def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--idle-timeout", "1") as server:
        game = server.create(TWO_PEOPLE)
        with connect(f"{server.ws}/ws/{game['id']}", open_timeout=PATIENCE) as silent:
            with pytest.raises(ConnectionClosed) as closed:
                silent.recv(timeout=PATIENCE)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408


def test_a_websocket_frame_over_8_kib_closes_the_connection_unread(tmp_path: Path) -> None:
    """Messages are at most 4 KB; the server reads no frame over twice that (it used to accept 1 MiB)."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        game = server.create(TWO_PEOPLE)
        sock = Socket(server, game["id"])
        sock.send(json.dumps({"type": "ping", "pad": "x" * 65536}))
        with pytest.raises(ConnectionClosed) as closed:
            sock.until(lambda m: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_views_and_questions_past_their_allowance_are_refused_and_a_client_that_keeps_asking_is_closed(
    tmp_path: Path,
) -> None:
    """A `view` costs the server tens of KB (the full view and board) and the client 15 bytes: each connection has
    an allowance; a spectator asking 200 times at once gets a few, then refusals, then is closed (1008), while a
    player at the same table is answered as usual."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        game = server.create(TWO_PEOPLE)
        player = Socket(server, game["id"], game["invites"][0]["token"])
        greedy = Socket(server, game["id"], svg=True)

        def ask() -> None:  # from a thread: the server may close before all 200 are sent, and never reads them all
            with contextlib.suppress(ConnectionClosed):
                for _ in range(200):
                    greedy.send({"type": "view"})

        asking = threading.Thread(target=ask)
        asking.start()
        views = refusals = 0
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                message = json.loads(greedy.conn.recv(timeout=PATIENCE))
                views += message["type"] == "update"
                refusals += message["type"] == "error" and message["code"] == "rate_limited"
        asking.join(PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert refusals == 50 and views < 100
        for kind in ("ping", "why"):
            asker = Socket(server, game["id"], game["invites"][1]["token"])
            for _ in range(60):
                asker.send({"type": kind, "action": {}})
            assert asker.until(lambda m: m["type"] == "error" and m["code"] == "rate_limited")
            asker.close()
        player.send({"type": "ping", "ref": 1})
        assert player.until(lambda m: m["type"] == "pong")["ref"] == 1
        player.close()


def test_new_websocket_sessions_from_one_address_are_limited(tmp_path: Path) -> None:
    """Opening sessions as fast as possible (each a welcome and a full view) is refused past the allowance, which
    grows with the connection cap (here 2: a burst of 4, then 2 a second)."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--max-connections-per-address", "2") as server:
        game = server.create(TWO_PEOPLE)
        codes = []
        for _ in range(20):
            with connect(f"{server.ws}/ws/{game['id']}", open_timeout=PATIENCE) as sock:
                with contextlib.suppress(ConnectionClosed):  # a refused session may be closed before the hello
                    sock.send(json.dumps({"type": "hello", "token": None}))
                first = json.loads(sock.recv(timeout=PATIENCE))
                codes.append(first["code"] if first["type"] == "error" else first["type"])
        assert codes[:4] == ["welcome"] * 4 and "rate_limited" in codes


def test_headers_over_32_kib_are_refused_at_once(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server, raw(server) as sock:
        with contextlib.suppress(OSError):  # the server may close while the rest is still being sent
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
        with contextlib.suppress(ConnectionResetError):
            answer = read_all(sock)
            assert answer.startswith(b"HTTP/1.1 431")
        assert b" 200 OK" in health(server, "127.0.0.1")  # and the server goes on


def test_a_client_that_never_reads_is_dropped_with_4008_and_the_server_goes_on(tmp_path: Path) -> None:
    """A spectator that asks for the full view and the board with every update of a fast all-bot game,
    then reads nothing, must not make the server queue for it without end: once it has left 256 messages unread
    (after the kernel's buffers, kept small here, are full) it is dropped with close code 4008, which it reads when
    it reads again; a person at another table is answered all along.

    The bots think in the server's threads (`--bot-workers 0`), the fastest they play, so that the spectator is
    dropped well before the server's own keepalive would close it (1011, after a ping unanswered for 40 s)."""
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--bot-workers", "0") as server:
        other = server.create(TWO_PEOPLE)
        player = Socket(server, other["id"], other["invites"][0]["token"])
        # No cards: a card window's answers reach the table at a fixed pace, and this game must run flat out.
        bots = server.create(
            [{"kind": "bot", "bot": "random"} for _ in range(4)], game="vikingatid", options={"card_windows": "off"}
        )
        small = socket.socket()
        small.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting, so the window stays small
        small.settimeout(PATIENCE)
        small.connect(("127.0.0.1", server.port))
        # max_queue=1: the client's reading thread stops reading the socket as soon as one message waits unread; no
        # keepalive pings of its own, whose pongs it would not read either (it would give up first, with 1011). No
        # compression: compressed, a whole game's updates fit in the socket buffers, and the outbox never fills.
        uri = f"{server.ws}/ws/{bots['id']}"
        with connect(uri, sock=small, max_queue=1, max_size=None, ping_interval=None, compression=None) as idle:
            idle.send(json.dumps({"type": "hello", "token": None, "svg": True, "full": True}))
            deadline = time.monotonic() + PATIENCE
            while b"slow_reader" not in Path(server.log.name).read_bytes():
                assert time.monotonic() < deadline, "a client that never reads was never dropped"
                player.send({"type": "ping", "ref": 1})  # the server answers everyone else meanwhile
                assert player.until(lambda m: m["type"] == "pong")["ref"] == 1
                time.sleep(1.1)  # within the allowance of a ping a second
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    idle.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008
        assert closed.value.rcvd.reason == "too many messages unread"
        status, summary = server.request("GET", f"/api/games/{bots['id']}")
        assert status == 200 and summary["version"] > 256  # the bots played on without it
        player.send({"type": "ping", "ref": 2})
        assert player.until(lambda m: m["type"] == "pong")["ref"] == 2
        player.close()
