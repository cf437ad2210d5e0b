"""Running the web table under uvicorn with the front door's guards (see `skald.web.guard`)."""

from __future__ import annotations

import errno
import logging
import socket
import sys

import uvicorn

from skald.web.app import create_app
from skald.web.deflate import WebSocketProtocol
from skald.web.guard import SECURITY, ConnectionGuard, guarded_protocol
from skald.web.settings import MAX_FRAME, Settings
from skald.web.store.engine import DatabaseInUse, hold_sqlite


def security_logging() -> None:
    """Send the security log (`skald.web.security`) to standard error, one timestamped line per event."""
    if SECURITY.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s skald security: %(message)s"))
    SECURITY.addHandler(handler)
    SECURITY.setLevel(logging.WARNING)
    SECURITY.propagate = False


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` for the server to listen on; a port in use or an address this machine does not
    have stops the start in one line (`SystemExit`) naming it and what to do."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise SystemExit(f"skald serve: --host {host!r}: not an address of this machine ({error.strerror})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart may bind while old connections linger
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise SystemExit(
                f"skald serve: port {port} on {host} is already in use (another skald serve?): stop that one, "
                "or choose another with --port"
            ) from None
        raise SystemExit(f"skald serve: cannot listen on {host}:{port}: {error.strerror}") from None
    return sock


def run(settings: Settings, host: str, port: int, sock: socket.socket | None = None) -> None:
    """Serve `settings`' web table on `host`:`port` (on `sock` if given, bound there by `listen`) until stopped.

    uvicorn's own handling of `X-Forwarded-For` is off (it believes any loopback peer): `Gate` believes only the
    trusted proxies. No `Server` header; frames over `MAX_FRAME` close the WebSocket (1009) unread; only messages of
    1 KB or more are compressed (`skald.web.deflate`).

    On an SQLite file the process first takes the file's server lock (see `hold_sqlite`): a second process on the
    same file stops here with one line, before touching the database."""
    try:
        lock = hold_sqlite(settings.db_url)
    except DatabaseInUse as error:
        raise SystemExit(f"skald serve: {error}") from None
    if sock is None:
        sock = listen(host, port)
    security_logging()
    app = create_app(settings)
    guard = ConnectionGuard(
        settings.max_connections_per_address, settings.idle_timeout, app.state.addresses, app.state.security_log
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(guard),
        ws=WebSocketProtocol,
        log_level="warning",
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=min(5, max(1, int(settings.idle_timeout))),
        h11_max_incomplete_event_size=16384,
        ws_max_size=MAX_FRAME,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        if lock is not None:
            lock.close()
