"""Open tables over real HTTP and WebSockets against a real server on a real SQLite file: a game made with seats open
to anyone is listed in the lobby (`GET /api/open-tables`), a second client takes a seat with one request (as a guest
or as a signed-in account) and the table starts when the last seat is taken; its creator may start it sooner with
bots in the seats still open; until it starts nobody moves; a full table, a taken seat and a look-alike name are
refused naming why; a SIGKILL and a restart keep a waiting table waiting."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from test_web_ratings import account
from web_support import Server, hello, running, until

OPEN_PAIR = [{"kind": "human", "name": "Astrid"}, {"kind": "open"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on a real SQLite file, shared by the module's tests (each makes its own tables)."""
    with running(f"sqlite:///{tmp_path_factory.mktemp('open') / 'skald.db'}") as live:
        yield live


def listed(server: Server) -> dict[str, dict[str, Any]]:
    """The open tables the lobby lists, by id."""
    status, found = server.request("GET", "/api/open-tables")
    assert status == 200
    return {table["id"]: table for table in found["tables"]}


def test_an_open_table_is_listed_joined_by_a_second_client_and_starts_when_its_last_seat_is_taken(
    server: Server,
) -> None:
    game = server.create(OPEN_PAIR, clock={"kind": "live", "bank": 60, "increment": 2})
    assert [invite["seat"] for invite in game["invites"]] == [0]  # no token for the open seat
    assert game["waiting"] == 1 and game["host"] == 0 and game["seats"][1]["open"] is True
    entry = listed(server)[game["id"]]
    assert entry["free"] == 1 and entry["waiting"] == ["Astrid"] and entry["title"] == "Vikings"
    assert entry["clock"]["bank"] == 60 and entry["created_at"] == game["created_at"]
    astrid = game["invites"][0]["token"]
    with hello(server, game["id"], astrid) as conn:
        first = until(conn, lambda m: m["type"] == "update")
        assert first["waiting"] == 1 and first["to_move"] is None and first["legal"] == [] and first["version"] == 0
        assert first["clocks"] is None  # no clock runs before the start
        status, refusal = server.request("POST", f"/api/games/{game['id']}/resign", {}, token=astrid)
        assert status == 409 and refusal["error"]["code"] == "waiting"
        status, joined = server.request("POST", f"/api/games/{game['id']}/join", {"name": "Bjorn"})
        assert status == 200, joined
        assert joined["seat"] == 1 and joined["url"].endswith(f"/table/{game['id']}#t={joined['token']}")
        assert joined["game"]["waiting"] == 0 and joined["game"]["seats"][1]["name"] == "Bjorn"
        seats = until(conn, lambda m: m["type"] == "seats")
        assert seats["game"]["seats"][1] == {"seat": 1, "name": "Bjorn", "kind": "human", "open": False, "away": False}
        started = until(conn, lambda m: m["type"] == "update" and m["to_move"] is not None)
        assert started["waiting"] == 0 and started["clocks"]["running"] == started["to_move"]
    assert game["id"] not in listed(server)
    status, refusal = server.request("POST", f"/api/games/{game['id']}/join", {"name": "Cnut"})
    assert (
        status == 409 and refusal["error"]["code"] == "started" and "every seat is taken" in refusal["error"]["message"]
    )
    with hello(server, game["id"], joined["token"]) as conn:
        assert until(conn, lambda m: m["type"] == "welcome")["you"] == 1


def test_the_creator_starts_his_table_with_bots_of_a_chosen_level_in_the_seats_still_open(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "open"}, {"kind": "open"}])
    status, joined = server.request("POST", f"/api/games/{game['id']}/join", {"name": "Bjorn"})
    assert status == 200 and joined["seat"] == 1 and joined["game"]["waiting"] == 1
    status, refusal = server.request("POST", f"/api/games/{game['id']}/start", {"bot": "random"}, token=joined["token"])
    assert status == 403 and refusal["error"]["code"] == "host" and "seat 1" in refusal["error"]["message"]
    status, started = server.request(
        "POST", f"/api/games/{game['id']}/start", {"bot": "random"}, token=game["invites"][0]["token"]
    )
    assert status == 200, started
    assert started["waiting"] == 0 and started["seats"][2]["kind"] == "random"
    assert started["seats"][2]["name"] == "Bot (random)" and not started["seats"][2]["open"]
    status, refusal = server.request(
        "POST", f"/api/games/{game['id']}/start", {"bot": "random"}, token=game["invites"][0]["token"]
    )
    assert status == 409 and refusal["error"]["code"] == "started"
    with hello(server, game["id"], None) as conn:
        until(conn, lambda m: m["type"] == "update" and m["version"] > 0)


def test_a_full_seat_a_look_alike_name_and_a_second_seat_for_one_account_are_refused_naming_why(
    server: Server,
) -> None:
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "open"}, {"kind": "open"}])
    path = f"/api/games/{game['id']}/join"
    status, refusal = server.request("POST", path, {"name": "Bjorn", "seat": 0})
    assert status == 409 and refusal["error"]["code"] == "seat_taken" and "seat 1" in refusal["error"]["message"]
    status, refusal = server.request("POST", path, {"name": "ASTRID"})
    assert status == 400 and refusal["error"]["code"] == "name" and "seat 1's name" in refusal["error"]["message"]
    status, refusal = server.request("POST", path, {"name": "Bj\u202eorn"})
    assert status == 400 and "U+202E" in refusal["error"]["message"]
    status, refusal = server.request("POST", path, {"name": ""})
    assert status == 400 and refusal["error"]["code"] == "name"
    sigrid = account(server, "Sigrid")
    status, joined = sigrid.request("POST", path, {"account": True})
    assert status == 200 and joined["game"]["seats"][1]["name"] == "Sigrid"
    status, mine = sigrid.request("GET", "/api/account/games")
    assert status == 200 and {"id": game["id"], "seat": 1} in mine["games"]  # the seat is kept in her account
    status, refusal = sigrid.request("POST", path, {"account": True})
    assert status == 409 and refusal["error"]["code"] == "claimed"
    status, refusal = sigrid.request("POST", path, {"account": True}, csrf=False)
    assert status == 403 and refusal["error"]["code"] == "csrf"
    status, joined = server.request("POST", path, {"name": "Bjorn"})
    assert status == 200 and joined["seat"] == 2
    status, refusal = server.request("POST", path, {"name": "Cnut"})
    assert status == 409 and refusal["error"]["code"] == "started"


def test_an_open_seat_gets_no_token_from_a_creation_made_under_an_idempotency_key(server: Server) -> None:
    body = json.dumps({"seats": OPEN_PAIR}).encode()
    request = urllib.request.Request(server.url + "/api/games", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Idempotency-Key", "open-table-1")
    with urllib.request.urlopen(request, timeout=30) as response:
        game = json.loads(response.read())
    assert [invite["seat"] for invite in game["invites"]] == [0]
    status, joined = server.request("POST", f"/api/games/{game['id']}/join", {"name": "Bjorn"})
    assert status == 200 and joined["seat"] == 1


def test_nobody_moves_at_a_waiting_table_a_restart_keeps_it_waiting_and_joins_are_limited_per_address(
    server: Server,
) -> None:
    """The module's last test: it restarts the shared server with 4 creations (and joins) a minute per address."""
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}])
    astrid = game["invites"][0]["token"]
    status, refusal = server.request(
        "POST", f"/api/games/{game['id']}/moves", {"version": 0, "action": {"type": "pass"}}, token=astrid
    )
    assert status == 409 and refusal["error"]["code"] == "waiting" and "1 more player" in refusal["error"]["message"]
    server.kill()
    server.extra = (*server.extra, "--games-per-minute", "4")
    server.start()
    status, summary = server.request("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["waiting"] == 1 and summary["version"] == 0  # not even chance drew
    assert game["id"] in listed(server)
    status, joined = server.request("POST", f"/api/games/{game['id']}/join", {"name": "Bjorn", "seat": 1})
    assert status == 200 and joined["game"]["waiting"] == 0
    with hello(server, game["id"], None) as conn:
        until(conn, lambda m: m["type"] == "update" and m["version"] > 0)  # chance and the bot carry on
    # Joining counts against the address as creating does: 4 a minute here, one of them used above.
    more = server.create([{"kind": "human", "name": "Astrid"}, *[{"kind": "open"}] * 3])
    answers = [server.request("POST", f"/api/games/{more['id']}/join", {"name": f"P{n}"}) for n in range(4)]
    assert [status for status, _ in answers] == [200, 200, 200, 429]
    assert answers[3][1]["error"]["code"] == "rate_limited"
