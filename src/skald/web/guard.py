"""The server's front door: who a client is (behind trusted proxies), how many connections it may hold and for how
long, which host names and origins are answered, and a log of what was refused.

Two layers. `ConnectionGuard` works on raw connections, before any HTTP is read: a cap per client address and a
deadline for headers and idle time, so a client that trickles bytes or just sits cannot pin a file descriptor.
`Gate` works on each request (ASGI): it resolves the client's address through trusted proxies, refuses unknown
`Host` names, cross-site writes and foreign WebSocket origins, caps WebSockets per client (also behind a proxy,
where every connection comes from the proxy's address), and puts the security headers on every answer.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

from starlette.requests import HTTPConnection
from uvicorn.protocols.http.auto import AutoHTTPProtocol

SECURITY = logging.getLogger("skald.web.security")
#: The one write that may come as a form rather than JSON: the unsubscribe link of a reminder, posted by its page's
#: button or by a mail program's one-click unsubscribe (RFC 8058), which posts `List-Unsubscribe=One-Click`.
FORM = "application/x-www-form-urlencoded"
FORM_PATHS = frozenset({"/unsubscribe"})
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: The client's address (as `Gate` resolved it) while its request or WebSocket is served: for limits kept by code
#: that is handed no request, such as the table chat's per-address limit.
CLIENT_ADDRESS: ContextVar[str | None] = ContextVar("skald_client_address", default=None)


class SecurityLog:
    """One line per refused or suspicious request (forged tokens, limits hit, foreign hosts and origins), with the
    client's address; at most `per_second` lines a second, the rest counted and reported with the next line, so an
    attack cannot flood the log."""

    def __init__(self, per_second: float = 20.0) -> None:
        self.per_second = per_second
        self._allowance = per_second
        self._last = time.monotonic()
        self._suppressed = 0

    def event(self, kind: str, address: str, detail: str = "") -> None:
        """Log `kind` (a short code) from `address`, unless the log is being flooded."""
        now = time.monotonic()
        self._allowance = min(self.per_second, self._allowance + (now - self._last) * self.per_second)
        self._last = now
        if self._allowance < 1.0:
            self._suppressed += 1
            return
        self._allowance -= 1.0
        extra = f" ({self._suppressed} more events not logged)" if self._suppressed else ""
        self._suppressed = 0
        SECURITY.warning("%s from %s%s%s", kind, address, f": {detail}" if detail else "", extra)


class ClientAddresses:
    """The client's address as the server should believe it: the peer's, or, when the peer is a trusted proxy, the
    nearest untrusted address in its `X-Forwarded-For`. Limits key on the address, an IPv6 one by its /64 (one
    household's or one server's whole block)."""

    def __init__(self, trusted: tuple[str, ...]) -> None:
        self.trusted: list[Network] = [ipaddress.ip_network(item, strict=False) for item in trusted]

    def is_trusted(self, address: str) -> bool:
        """Whether `address` is one of the trusted proxies."""
        ip = parse_ip(address)
        return ip is not None and any(ip in network for network in self.trusted)

    def resolve(self, peer: str, forwarded_for: str | None) -> str:
        """The client's address behind `peer`, walking `X-Forwarded-For` from the nearest hop while it is trusted."""
        if not forwarded_for or not self.is_trusted(peer):
            return peer
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        for hop in reversed(hops):
            if parse_ip(hop) is None:
                return peer  # a garbled header: believe only the proxy itself
            if not self.is_trusted(hop):
                return hop
        return hops[0] if hops else peer

    @staticmethod
    def key(address: str) -> str:
        """The bucket an address counts in: an IPv4 address itself, an IPv6 one its /64."""
        ip = parse_ip(address)
        if ip is None:
            return address
        if isinstance(ip, ipaddress.IPv6Address):
            if ip.ipv4_mapped is not None:
                return str(ip.ipv4_mapped)
            return str(ipaddress.IPv6Network((ip, 64), strict=False))
        return str(ip)


def parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """`text` as an IP address, or None."""
    try:
        return ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None


class ConnectionGuard:
    """Raw connections per client address, and the deadline for a connection that is not in a request."""

    def __init__(self, cap: int, timeout: float, addresses: ClientAddresses, log: SecurityLog) -> None:
        self.cap = cap
        self.timeout = timeout
        self.addresses = addresses
        self.log = log
        self._open: dict[str, set[asyncio.BaseTransport]] = {}

    def admit(self, peer: str, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection from `peer`; False when that address already holds `cap` open ones (a trusted
        proxy is never capped here: `Gate` caps its clients one by one)."""
        if self.addresses.is_trusted(peer):
            return True
        key = self.addresses.key(peer)
        held = {t for t in self._open.get(key, ()) if not t.is_closing()}
        if len(held) >= self.cap:
            self._open[key] = held
            self.log.event("connection_cap", peer, f"already {len(held)} connections open")
            return False
        held.add(transport)
        self._open[key] = held
        if len(self._open) > 10_000:  # forget addresses whose connections have all closed
            self._open = {k: v for k, v in self._open.items() if any(not t.is_closing() for t in v)}
        return True


_REFUSED_BODY = b'{"error":{"code":"too_many_connections","message":"too many connections from this address"}}'
REFUSED_CONNECTION = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
    + f"Content-Length: {len(_REFUSED_BODY)}\r\n\r\n".encode()
    + _REFUSED_BODY
)


#: The most a request's line and headers may take, in bytes (with room for a long cookie a proxy might add).
MAX_HEADERS = 32768
_HEADERS_BODY = (
    b'{"error":{"code":"headers_too_large","message":"request line and headers larger than %d bytes"}}' % MAX_HEADERS
)
HEADERS_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\nConnection: close\r\n"
    + f"Content-Length: {len(_HEADERS_BODY)}\r\n\r\n".encode()
    + _HEADERS_BODY
)


def guarded_protocol(guard: ConnectionGuard) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, with `guard` checking each new connection and closing idle or slow ones."""
    base: Any = AutoHTTPProtocol

    class Guarded(base):  # type: ignore[misc]
        """An HTTP connection that counts against its address and must keep making progress."""

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            peer = self.client[0] if self.client else "?"
            if not guard.admit(peer, transport):
                transport.write(REFUSED_CONNECTION)
                transport.close()
                return
            self._skald_seen: object = None
            self._skald_header_bytes = 0
            self._skald_header_cycle: object = None
            self.loop.call_later(guard.timeout, self._skald_check)

        def data_received(self, data: bytes) -> None:
            """Count the bytes of a request's line and headers, up to the blank line that ends them; too many close
            the connection, since no header this server reads is long. A body that comes in the same packet is
            not counted: its size is the body limit's to judge (413, naming it)."""
            cycle = self.cycle
            if cycle is None or cycle.response_complete:
                if cycle is not self._skald_header_cycle:
                    self._skald_header_cycle, self._skald_header_bytes = cycle, 0
                end = data.find(b"\r\n\r\n")
                self._skald_header_bytes += len(data) if end < 0 else end + 4
                if self._skald_header_bytes > MAX_HEADERS:
                    guard.log.event("headers_too_large", self.client[0] if self.client else "?")
                    self.transport.write(HEADERS_TOO_LARGE)
                    self.transport.close()
                    return
            super().data_received(data)

        def _skald_check(self) -> None:
            """Close the connection if no request has started since the last look and none is being answered:
            it is idle, or trickling its headers. A WebSocket (no longer this protocol) keeps its own watch."""
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return
            cycle = self.cycle
            answering = cycle is not None and not cycle.response_complete
            if not answering and cycle is self._skald_seen:
                guard.log.event("idle_timeout", self.client[0] if self.client else "?", "no request in time")
                transport.close()
                return
            self._skald_seen = cycle
            self.loop.call_later(guard.timeout, self._skald_check)

    return Guarded


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


class Gate:
    """Per request: the client's real address, an allowed `Host`, same-site writes and WebSocket origins, a cap on
    WebSockets per client, a body-size check, and the security headers on every answer (errors included)."""

    def __init__(
        self,
        app: ASGIApp,
        addresses: ClientAddresses,
        allowed_hosts: tuple[str, ...],
        public_url: str,
        max_body: int,
        max_sockets: int,
        log: SecurityLog,
    ) -> None:
        self.app = app
        self.addresses = addresses
        self.any_host = "*" in allowed_hosts
        self.public = public_url.partition("://")[2].lower()
        self.hosts = {h.lower().strip("[]") for h in allowed_hosts} | {hostname(self.public)}
        self.max_body = max_body
        self.max_sockets = max_sockets
        self.log = log
        self.headers = [*SECURITY_HEADERS, *([HSTS] if public_url.startswith("https://") else [])]
        self._sockets: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        peer = scope["client"][0] if scope.get("client") else "?"
        address = self.addresses.resolve(peer, headers.get("x-forwarded-for"))
        scope["client"] = (address, scope["client"][1] if scope.get("client") else 0)
        CLIENT_ADDRESS.set(address)
        if self.addresses.is_trusted(peer) and headers.get("x-forwarded-proto") in ("http", "https"):
            secure = headers["x-forwarded-proto"] == "https"
            scope["scheme"] = (
                ("https" if secure else "http") if scope["type"] == "http" else ("wss" if secure else "ws")
            )
        host = headers.get("host", "")
        if not self.any_host and hostname(host) not in self.hosts:
            self.log.event("foreign_host", address, repr(host[:100]))
            await self.refuse(
                scope,
                send,
                400,
                "host",
                f"host: this server does not answer to {host[:100]!r} (see skald serve --allowed-hosts)",
            )
            return
        origin = headers.get("origin")
        if scope["type"] == "websocket":
            await self.websocket(scope, receive, send, address, host, origin)
            return
        problem = self.unsafe_write(scope, headers, host, origin)
        if problem is not None:
            status, code, message = problem
            self.log.event(code, address, message)
            await self.refuse(scope, send, status, code, message)
            return
        await self.app(scope, receive, self.stamped(send, scope["path"].startswith("/api/")))

    def same_site(self, host: str, origin: str) -> bool:
        """Whether a browser's `Origin` is this server: the host it asked for, or the public URL."""
        netloc = origin.partition("://")[2].lower()
        return netloc in (host.lower(), self.public) and origin.partition("://")[0] in ("http", "https")

    def unsafe_write(
        self, scope: Scope, headers: dict[str, str], host: str, origin: str | None
    ) -> tuple[int, str, str] | None:
        """Why a request that changes something must be refused (status, code, message), or None.

        Another site's page can make its visitors' browsers send a POST with a simple content type and no preflight;
        asking for JSON and for a same-site origin closes that door."""
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return None
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, "too_large", f"request body larger than {self.max_body} bytes"
        if headers.get("sec-fetch-site") == "cross-site" or (origin is not None and not self.same_site(host, origin)):
            return 403, "cross_site", "origin: requests that change a game must come from this server's own pages"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json" and not (kind == FORM and scope["path"] in FORM_PATHS):
            return 415, "content_type", "content-type: send the body as application/json"
        return None

    async def websocket(
        self, scope: Scope, receive: Receive, send: Send, address: str, host: str, origin: str | None
    ) -> None:
        """A WebSocket from a same-site page (or a program, which sends no origin), within the client's cap."""
        if origin is not None and not self.same_site(host, origin):
            self.log.event("foreign_origin", address, repr(origin[:100]))
            await send({"type": "websocket.close", "code": 1008})
            return
        key = self.addresses.key(address)
        if self._sockets.get(key, 0) >= self.max_sockets:
            self.log.event("socket_cap", address, f"already {self.max_sockets} WebSockets open")
            await send({"type": "websocket.close", "code": 1008})
            return
        self._sockets[key] = self._sockets.get(key, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self._sockets[key] -= 1
            if not self._sockets[key]:
                del self._sockets[key]

    def stamped(self, send: Send, api: bool = True) -> Send:
        """`send` with the security headers added to the start of every answer, and for the API (`api`) no storing
        in any cache unless the answer says how it may be kept."""

        async def send_stamped(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in self.headers if name not in names]
                if api and b"cache-control" not in names:
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        return send_stamped

    async def refuse(self, scope: Scope, send: Send, status: int, code: str, message: str) -> None:
        """Answer with a JSON error (HTTP) or refuse the WebSocket handshake."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await self.stamped(send)({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def bearer(request: HTTPConnection) -> str | None:
    """The seat token from `Authorization: Bearer …`, or None."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def hostname(host: str) -> str:
    """The name in a `Host` header or URL authority, without its port or IPv6 brackets, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host
