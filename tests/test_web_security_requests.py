"""What a request may claim and what the server answers, tried
over real HTTP and WebSockets against a real `skald serve` (headers set by hand, as an attacker's would be)."""

from __future__ import annotations

import hashlib
import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from skald.engine import CHANCE, Record, sample_chance
from skald.engine.fair import chance_rng
from test_web_api import Socket, human_vs_bot, play_out
from web_support import Server, free_port, running

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
JSON = {"Content-Type": "application/json"}


def call(
    server: Server, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request with exactly these headers (and the Host http.client adds unless given); the status, the
    headers (lower-case names) and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    try:
        connection.request(method, path, body=data, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def error_code(body: bytes) -> str:
    """The `error.code` of a JSON error."""
    return str(json.loads(body)["error"]["code"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real app on a real SQLite file, with its default settings but for the creation limit."""
    with running(f"sqlite:///{tmp_path_factory.mktemp('web') / 'skald.db'}") as live:
        yield live


# -- finding 6: cross-site request forgery --------------------------------------------------------------------------


def test_a_game_is_created_only_from_a_json_request_of_this_servers_own_pages(server: Server) -> None:
    seats = {"seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}
    status, _, body = call(server, "POST", "/api/games", seats, {"Content-Type": "text/plain"})
    assert status == 415 and error_code(body) == "content_type"
    status, _, body = call(server, "POST", "/api/games", seats, {**JSON, "Origin": "https://evil.example"})
    assert status == 403 and error_code(body) == "cross_site"
    status, _, body = call(server, "POST", "/api/games", seats, {**JSON, "Sec-Fetch-Site": "cross-site"})
    assert status == 403 and error_code(body) == "cross_site"
    status, _, body = call(server, "POST", "/api/games", seats, {**JSON, "Origin": server.url})
    assert status == 201
    game = json.loads(body)
    status, _, body = call(
        server, "POST", f"/api/games/{game['id']}/why", {"action": {}}, {"Content-Type": "text/plain"}
    )
    assert status == 415


# -- finding 10: Host and Origin ----------------------------------------------------------------------------------


def test_an_unknown_host_name_is_refused_and_a_websocket_from_another_site_is_not_upgraded(server: Server) -> None:
    status, headers, body = call(server, "GET", "/", headers={"Host": "rebound.evil.example"})
    assert status == 400 and error_code(body) == "host"
    assert "content-security-policy" in headers  # refusals carry the security headers too
    status, _, _ = call(server, "GET", "/api/catalogue", headers={"Host": f"localhost:{server.port}"})
    assert status == 200
    game = server.create(TWO_PEOPLE)
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws}/ws/{game['id']}", origin=Origin("https://evil.example"), open_timeout=60)
    assert refused.value.response.status_code == 403
    with connect(f"{server.ws}/ws/{game['id']}", origin=Origin(server.url), open_timeout=60) as same_site:
        same_site.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(same_site.recv(timeout=60))["type"] == "welcome"


def test_invite_links_use_the_public_url_and_https_turns_on_hsts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    with running(url, "--public-url", "https://skald.example.org/") as server:
        status, headers, body = call(
            server, "POST", "/api/games", {"seats": TWO_PEOPLE}, {**JSON, "Host": "skald.example.org"}
        )
        assert status == 201
        game = json.loads(body)
        assert game["invites"][0]["url"].startswith(f"https://skald.example.org/table/{game['id']}#t=")
        assert game["spectator_url"] == f"https://skald.example.org/table/{game['id']}"
        assert headers["strict-transport-security"].startswith("max-age=")
        # Asked for by the loopback address (as a local reverse proxy would): still the public URL in the links.
        game = server.create(TWO_PEOPLE)
        assert game["spectator_url"].startswith("https://skald.example.org/")


# -- findings 13 and 14: headers, health, errors, the security log ---------------------------------------------------


def test_every_answer_has_a_strict_content_security_policy_and_no_server_header(server: Server) -> None:
    for path in ("/", "/table/abc", "/static/table.js", "/api/catalogue", "/api/games/nope"):
        _, headers, _ = call(server, "GET", path)
        policy = headers["content-security-policy"]
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        for directive in ("base-uri 'none'", "form-action 'self'", "object-src 'none'", "frame-ancestors 'none'"):
            assert directive in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert "server" not in headers
    status, headers, _ = call(server, "POST", "/api/games", b'{"seats": [' + b" " * 20000 + b"]}", JSON)
    assert status == 413 and "content-security-policy" in headers  # the early refusal too


def test_the_creation_reply_which_carries_every_seats_token_may_not_be_stored(server: Server) -> None:
    status, headers, body = call(server, "POST", "/api/games", {"seats": TWO_PEOPLE}, JSON)
    assert status == 201 and json.loads(body)["invites"][0]["token"]
    assert headers["cache-control"] == "no-store"


def test_health_tells_only_the_machines_own_operator_the_counts(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}", "--trusted-proxies", "127.0.0.1") as server:
        _, _, body = call(server, "GET", "/api/health")
        assert "tables" in json.loads(body)
        _, _, body = call(server, "GET", "/api/health", headers={"X-Forwarded-For": "203.0.113.9"})
        assert json.loads(body) == {"ok": True}
        # Behind that proxy, which terminates TLS, links are https even without a public URL.
        headers = {**JSON, "X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https", "Host": "localhost"}
        status, _, body = call(server, "POST", "/api/games", {"seats": TWO_PEOPLE}, headers)
        assert status == 201 and json.loads(body)["spectator_url"].startswith("https://localhost/table/")


def test_forwarded_headers_from_a_client_that_is_no_trusted_proxy_are_ignored(server: Server) -> None:
    headers = {**JSON, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    status, _, body = call(server, "POST", "/api/games", {"seats": TWO_PEOPLE}, headers)
    assert status == 201 and json.loads(body)["spectator_url"].startswith(f"{server.url}/table/")
    _, _, body = call(server, "GET", "/api/health", headers={"X-Forwarded-For": "203.0.113.9"})
    assert "tables" in json.loads(body)  # still the loopback client it really is


def test_a_refused_request_names_the_field_without_echoing_what_was_sent(server: Server) -> None:
    status, _, body = call(server, "GET", "/api/games/abc/replay/SECRET-LOOKING-INPUT")
    assert status == 400 and error_code(body) == "invalid"
    assert b"SECRET-LOOKING-INPUT" not in body and json.loads(body)["error"]["message"].startswith("ply:")


def test_forged_tokens_and_limits_hit_are_written_to_the_security_log(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    server = Server(url, "--games-per-minute", "1")
    server.start()
    try:
        game = server.create(TWO_PEOPLE)
        assert server.request("POST", "/api/games", {"seats": TWO_PEOPLE})[0] == 429
        forged = Socket(server, game["id"], "A" * 32)
        assert forged.welcome["code"] == "forged_token"
        forged.close()
        call(server, "GET", "/", headers={"Host": "rebound.evil.example"})
    finally:
        server.stop()
    log = Path(server.log.name).read_text()
    assert "rate_limited from 127.0.0.1" in log
    assert "forged_token from 127.0.0.1" in log
    assert "foreign_host from 127.0.0.1" in log


# -- finding 12: names ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "why"),
    [
        (["Ann\x00", "Bo"], "U+0000"),
        (["Ann\u202e", "Bo"], "U+202E"),  # right-to-left override
        (["An\u200bn", "Bo"], "U+200B"),  # zero-width space
        (["Ann\u0007", "Bo"], "U+0007"),
        (["A" + "\u0301" * 8, "Bo"], "combining marks"),
        (["Ann", " ann "], "looks like seat 1's name"),
        (["Ann", "\uff21\uff4e\uff4e"], "looks like seat 1's name"),  # full-width letters
        (["Player 2", ""], "looks like seat 1's name"),  # the second seat's default name
    ],
)
def test_a_name_that_hides_characters_or_passes_for_another_seat_is_refused(
    server: Server, names: list[str], why: str
) -> None:
    status, data = server.request("POST", "/api/games", {"seats": [{"kind": "human", "name": n} for n in names]})
    assert status == 400 and data["error"]["code"] == "name" and why in data["error"]["message"]


def test_names_are_tidied_and_two_bots_of_a_level_are_told_apart(server: Server) -> None:
    game = server.create(
        [
            {"kind": "human", "name": "  A\u030asa   Lind "},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ]
    )
    assert [s["name"] for s in game["seats"]] == ["\u00c5sa Lind", "Bot 2 (random)", "Bot 3 (random)"]


# -- finding 4: the client's address ----------------------------------------------------------------------------------


def test_a_forged_forwarded_for_header_does_not_escape_the_creation_limit(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'skald.db'}", "--games-per-minute", "2")
    server.start()
    try:
        codes = [
            call(server, "POST", "/api/games", {"seats": TWO_PEOPLE}, {**JSON, "X-Forwarded-For": f"198.51.100.{i}"})[0]
            for i in range(4)
        ]
        assert codes[:2] == [201, 201] and codes[2:] == [429, 429]
    finally:
        server.stop()


def test_behind_a_trusted_proxy_each_client_has_its_own_limit_and_ipv6_counts_by_its_64(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'skald.db'}", "--games-per-minute", "2", "--trusted-proxies", "127.0.0.1")
    server.start()

    def create(forwarded_for: str) -> int:
        headers = {**JSON, "X-Forwarded-For": forwarded_for}
        return call(server, "POST", "/api/games", {"seats": TWO_PEOPLE}, headers)[0]

    try:
        assert [create("198.51.100.1") for _ in range(3)] == [201, 201, 429]
        assert create("198.51.100.2") == 201  # another person behind the same proxy
        # A client cannot pass for another by prepending to the header: the proxy appends the real address last.
        assert create("198.51.100.2, 198.51.100.1") == 429
        assert [create(f"2001:db8:1:1::{i}") for i in range(1, 4)] == [201, 201, 429]  # one /64
        assert create("2001:db8:1:2::1") == 201
    finally:
        server.stop()


# -- finding 9: rematches count as creations ---------------------------------------------------------------------------


def test_a_rematch_counts_against_the_creation_limit(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'skald.db'}", "--games-per-minute", "2", "--moves-per-second", "1000")
    server.start()
    try:
        game = human_vs_bot(server)
        token = game["invites"][0]["token"]
        sock = Socket(server, game["id"], token)
        play_out(sock)
        sock.close()
        server.create(TWO_PEOPLE)
        status, data = server.request("POST", f"/api/games/{game['id']}/rematch", {}, token=token)
        assert status == 429 and data["error"]["code"] == "rate_limited"
    finally:
        server.stop()


# -- finding 15: the chance seed ---------------------------------------------------------------------------------------


def test_draws_come_from_a_256_bit_seed_committed_to_at_creation_and_revealed_at_the_end(server: Server) -> None:
    status, data = server.request("POST", "/api/games", {"seats": TWO_PEOPLE, "seed": 7})
    assert status == 400 and data["error"]["code"] == "seed"  # a client cannot choose it
    game = human_vs_bot(server)
    commitment = game["fair"]["commitment"]
    assert len(commitment) == 64 and game["fair"]["seed"] is None
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    play_out(sock)
    sock.close()
    status, summary = server.request("GET", f"/api/games/{game['id']}")
    seed = bytes.fromhex(summary["fair"]["seed"])
    assert len(seed) == 32 and hashlib.sha256(seed).hexdigest() == commitment
    _, data = server.request("GET", f"/api/games/{game['id']}/record")
    record = Record.from_dict(data)
    state = record.initial_state()
    draws = 0
    for entry in record.actions:
        if state.current_player() == CHANCE:
            assert entry == sample_chance(state, chance_rng(int.from_bytes(seed, "big"), len(state.history)))
            draws += 1
        state.apply(entry)
    assert draws > 10


# -- hostile inputs: a clear refusal, and the session goes on ---------------------------------------


def test_deep_nesting_huge_numbers_and_lone_surrogates_are_refused_and_the_session_goes_on(server: Server) -> None:
    for body in (b"[" * 5000 + b"]" * 5000, b'{"seats": [], "seed": ' + b"9" * 5000 + b"}"):
        status, _, answer = call(server, "POST", "/api/games", body, JSON)
        assert status in (400, 413) and error_code(answer) in ("malformed", "too_large")
    game = server.create(TWO_PEOPLE)
    forged = Socket(server, game["id"], "\ud800")
    assert forged.welcome["code"] == "forged_token"
    forged.close()
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    sock.send("[" * 1500 + "]" * 1500)
    assert sock.error()["code"] == "malformed"
    sock.send({"type": "ping", "ref": 1})
    assert sock.until(lambda m: m["type"] == "pong")["ref"] == 1
    sock.close()


@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [
        ("--trusted-proxies", "my-proxy", "trusted proxy 'my-proxy': expected an address or network"),
        ("--public-url", "skald.example.org", "--public-url='skald.example.org': expected a base URL"),
        ("--max-connections-per-address", "0", "expected a whole number of at least 1"),
        ("--idle-timeout", "never", "expected a number of at least 0.5"),
        ("--game-expiry-days", "-1", "expected a number of at least 0"),
    ],
)
def test_a_bad_deployer_setting_stops_the_server_with_one_line(
    tmp_path: Path, flag: str, value: str, expected: str
) -> None:
    command = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(free_port())]
    command += ["--db", f"sqlite:///{tmp_path / 'skald.db'}", flag, value]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("skald serve: ") and expected in result.stderr


def test_a_port_in_use_stops_the_server_in_one_line_that_suggests_another(server: Server, tmp_path: Path) -> None:
    """`skald serve` on a busy port says so in one line, before it says where it serves, and the server
    already there carries on."""
    command = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(server.port)]
    command += ["--db", f"sqlite:///{tmp_path / 'other.db'}"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        f"skald serve: port {server.port} on 127.0.0.1 is already in use (another skald serve?): stop that one, "
        "or choose another with --port\n"
    )
    status, health = server.request("GET", "/api/health")
    assert status == 200 and health["ok"] is True


def test_a_seat_replaces_its_token_and_the_leaked_one_stops_working_everywhere(server: Server) -> None:
    """A leaked invite link can be revoked by the seat's holder."""
    game = server.create(TWO_PEOPLE)
    old = game["invites"][0]["token"]
    leaked = Socket(server, game["id"], old)
    status, data = server.request("POST", f"/api/games/{game['id']}/token", {}, token="B" * 32)
    assert status == 403
    status, data = server.request("POST", f"/api/games/{game['id']}/token", {}, token=old)
    assert status == 200 and data["seat"] == 0 and data["token"] != old
    assert data["url"].endswith(f"/table/{game['id']}#t={data['token']}")
    assert leaked.error()["code"] == "revoked"
    with pytest.raises(ConnectionClosed) as closed:
        leaked.until(lambda m: False)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert server.request("GET", f"/api/games/{game['id']}", token=old)[1]["you"] is None
    assert Socket(server, game["id"], old).welcome["code"] == "forged_token"
    fresh = Socket(server, game["id"], data["token"])
    assert fresh.welcome["you"] == 0
    fresh.close()
