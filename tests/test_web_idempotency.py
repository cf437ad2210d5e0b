"""A game creation with an `Idempotency-Key` is made once (a client whose answer was lost
asks again and gets the same game and tokens), and the OpenAPI schema is served, as reviewed. Real HTTP against a
real `skald serve` on a real SQLite file."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_support import Server, postgres, running

BODY = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "random"}]}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file the server keeps its games (and idempotency keys) in."""
    return tmp_path_factory.mktemp("web") / "skald.db"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[Server]:
    """The real app; the loopback is a trusted proxy, so a test may speak for other clients (X-Forwarded-For)."""
    with running(f"sqlite:///{database}", "--trusted-proxies", "127.0.0.1") as live:
        yield live


def create(
    server: Server, body: Any, key: str | None = None, client: str | None = None
) -> tuple[int, dict[str, str], Any]:
    """`POST /api/games` with an optional `Idempotency-Key`, as `client` (an address) if given: the status, the
    headers (lower-case names) and the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Idempotency-Key"] = key
    if client is not None:
        headers["X-Forwarded-For"] = client
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("POST", "/api/games", body=json.dumps(body).encode(), headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, json.loads(response.read())
    finally:
        connection.close()


def tokens(reply: dict[str, Any]) -> list[tuple[int, str]]:
    """Each invite's seat and token."""
    return [(invite["seat"], invite["token"]) for invite in reply["invites"]]


def test_a_repeated_creation_with_the_same_key_gets_the_same_game_and_tokens(server: Server) -> None:
    status, headers, first = create(server, BODY, key="4f1c2a5e-0000-4000-8000-000000000001")
    assert status == 201, first
    status, headers, again = create(server, BODY, key="4f1c2a5e-0000-4000-8000-000000000001")
    assert status == 201, again
    assert headers["idempotent-replayed"] == "true" and headers["cache-control"] == "no-store"
    assert again["id"] == first["id"] and tokens(again) == tokens(first) and len(tokens(first)) == 2
    assert again["spectator_url"] == first["spectator_url"]
    for seat, token in tokens(first):  # the tokens given twice are the seats' real tokens
        status, summary = server.request("GET", f"/api/games/{first['id']}", token=token)
        assert status == 200 and summary["you"] == seat


def test_without_a_key_every_creation_makes_a_new_game(server: Server) -> None:
    made = [create(server, BODY)[2] for _ in range(2)]
    assert made[0]["id"] != made[1]["id"] and tokens(made[0]) != tokens(made[1])


def test_a_different_body_with_the_same_key_is_refused_naming_the_key(server: Server) -> None:
    status, _, first = create(server, BODY, key="order-17")
    assert status == 201
    other = {**BODY, "options": {"ship_row": "touching"}}
    status, _, refused = create(server, other, key="order-17")
    assert status == 422
    assert refused["error"]["code"] == "idempotency_key"
    assert refused["error"]["message"].startswith("Idempotency-Key: already used for a different request")
    status, _, again = create(server, BODY, key="order-17")  # the first request still gets its game
    assert status == 201 and again["id"] == first["id"]


def test_the_same_key_from_another_client_is_another_creation(server: Server) -> None:
    status, _, mine = create(server, BODY, key="shared-key", client="203.0.113.7")
    assert status == 201
    status, _, theirs = create(server, BODY, key="shared-key", client="203.0.113.8")
    assert status == 201
    assert theirs["id"] != mine["id"] and tokens(theirs) != tokens(mine)
    status, _, mine_again = create(server, BODY, key="shared-key", client="203.0.113.7")
    assert mine_again["id"] == mine["id"]


def test_a_creation_that_fails_does_not_use_up_its_key(server: Server) -> None:
    status, _, refused = create(server, {**BODY, "options": {"no_such_option": 1}}, key="retry-after-fix")
    assert status == 400 and refused["error"]["code"] == "options"
    status, _, made = create(server, BODY, key="retry-after-fix")
    assert status == 201, made


def test_repeats_sent_at_the_same_moment_make_one_game(server: Server) -> None:
    answers: list[tuple[int, Any]] = []

    def send() -> None:
        status, _, reply = create(server, BODY, key="at-once")
        answers.append((status, reply))

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    made = {reply["id"] for status, reply in answers if status == 201}
    assert len(made) == 1
    # A repeat that came while the first was still being made is told to retry, never given a second game.
    assert all(
        status == 201 or (status == 409 and reply["error"]["code"] == "idempotency_key") for status, reply in answers
    )
    status, _, again = create(server, BODY, key="at-once")
    assert status == 201 and again["id"] in made


@pytest.mark.parametrize("key", ["", "x" * 256, "caf\u00e9", "tab\there"])
def test_a_malformed_key_is_refused_naming_the_header(server: Server, key: str) -> None:
    headers = {"Content-Type": "application/json", "Idempotency-Key": key}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.putrequest("POST", "/api/games")
        for name, value in headers.items():
            connection.putheader(name, value.encode("utf-8"))
        body = json.dumps(BODY).encode()
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        status, answer = response.status, json.loads(response.read())
    finally:
        connection.close()
    assert status == 400
    assert answer["error"]["code"] == "idempotency_key" and answer["error"]["message"].startswith("Idempotency-Key:")


def test_a_key_is_kept_in_the_database_across_a_restart_for_24_hours(server: Server, database: Path) -> None:
    status, _, first = create(server, BODY, key="across-restart")
    assert status == 201
    server.stop()
    server.start()
    status, _, again = create(server, BODY, key="across-restart")
    assert status == 201 and again["id"] == first["id"] and tokens(again) == tokens(first)
    # A day later (the stored key made 25 hours older), the same key makes a new game.
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT key_hash, created_at FROM idempotency_keys WHERE game_id = ?", (first["id"],))
        ((key_hash, _created),) = list(rows)
        connection.execute(
            "UPDATE idempotency_keys SET created_at = datetime(created_at, '-25 hours') WHERE key_hash = ?",
            (key_hash,),
        )
    status, _, later = create(server, BODY, key="across-restart")
    assert status == 201 and later["id"] != first["id"]


def test_on_postgresql_a_repeat_through_another_server_process_gets_the_same_game() -> None:
    with postgres() as url, running(url) as first, running(url) as second:
        status, _, made = create(first, BODY, key="two-processes")
        assert status == 201
        status, headers, again = create(second, BODY, key="two-processes")
        assert status == 201 and headers["idempotent-replayed"] == "true"
        assert again["id"] == made["id"] and tokens(again) == tokens(made)
        status, _, refused = create(second, {**BODY, "game": "vikingdoms"}, key="two-processes")
        assert status == 422 and refused["error"]["code"] == "idempotency_key"


# -- the OpenAPI schema -----------------------------------------------------------------------------------------------


def test_the_openapi_schema_is_served_and_declares_the_api_as_it_behaves(server: Server) -> None:
    status, schema = server.request("GET", "/openapi.json")
    assert status == 200
    paths = schema["paths"]
    assert "/api/games" in paths and "/api/games/{game_id}/record" in paths
    assert all(path.startswith("/api/") for path in paths)  # no pages, no static files
    body = paths["/api/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/CreateIn"}
    assert "201" in paths["/api/games"]["post"]["responses"]
    assert [p["name"] for p in paths["/api/games"]["post"]["parameters"]] == ["Idempotency-Key"]
    models = schema["components"]["schemas"]
    assert {"CreateIn", "SeatIn", "MoveIn", "WhyIn", "ErrorOut"} <= set(models)
    assert "seats" in models["CreateIn"]["properties"]
    for item in paths.values():
        for operation in item.values():
            # Refusals are the server's own error body (never FastAPI's 422, which the server does not send).
            assert operation["responses"]["4XX"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorOut"
            }
            assert "422" not in operation["responses"]
    assert "HTTPValidationError" not in json.dumps(schema)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("GET", "/docs")
        assert connection.getresponse().status == 404  # the docs pages would load scripts from elsewhere
    finally:
        connection.close()
