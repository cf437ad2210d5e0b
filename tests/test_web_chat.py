"""The table chat, over real HTTP and WebSockets, on a real SQLite file and a real
PostgreSQL server, and across two server processes on one PostgreSQL database.

Seats always talk; spectators read and write only where the game's creator allowed it. Messages are stored with the
game, survive a restart, are length- and rate-limited, kept out of the record and downloadable beside it. Every bad
message is refused with the field at fault and changes nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from skald.web.store.schema import CHAT_LENGTH
from test_web_api import Socket
from web_support import Server, postgres, postgres_fixture, running, two_servers  # noqa: F401 (fixture: database)

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
#: How long a client waits for what it expects before the test fails (never a measure of speed).
PATIENCE = 30.0


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real app on a real SQLite file, then on a real PostgreSQL server."""
    if request.param == "sqlite":
        with running(f"sqlite:///{tmp_path_factory.mktemp('chat') / 'skald.db'}") as live:
            yield live
    else:
        with postgres() as url, running(url) as live:
            yield live


def heard(sock: Socket, count: int) -> list[dict[str, Any]]:
    """The socket's chat once it holds at least `count` messages (failing on an error or after `PATIENCE`)."""
    deadline = time.monotonic() + PATIENCE
    while len(sock.chat) < count:
        message = json.loads(sock.conn.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert message["type"] != "error", message
        if message["type"] == "chat":
            sock.chat.extend(message["messages"])
    return sock.chat


def said(messages: list[dict[str, Any]]) -> list[tuple[int, int | None, str, str]]:
    """Each message as (number, seat, name, text)."""
    return [(m["seq"], m["seat"], m["name"], m["text"]) for m in messages]


def download(server: Server, game_id: str, token: str | None = None) -> tuple[int, Any]:
    """The chat download (`GET /api/games/{id}/chat`) for a seat's token, or a spectator without one."""
    return server.request("GET", f"/api/games/{game_id}/chat" + ("" if token else "?seat=spectator"), token=token)


def test_each_seat_sees_every_message_in_order_with_its_author_and_a_newcomer_gets_the_history(
    server: Server,
) -> None:
    game = server.create(TWO_PEOPLE)
    ann_token, bo_token = (invite["token"] for invite in game["invites"])
    ann, bo = Socket(server, game["id"], ann_token), Socket(server, game["id"], bo_token)
    assert ann.chat == [] and bo.chat == []  # a new table's chat is empty
    ann.send({"type": "chat", "text": "  Good luck!  "})
    heard(bo, 1)
    bo.send({"type": "chat", "text": "You too.\nMay the sea be calm."})
    expected = [(1, 0, "Ann", "Good luck!"), (2, 1, "Bo", "You too.\nMay the sea be calm.")]
    assert said(heard(ann, 2)) == expected  # trimmed, line breaks kept, numbered in the order written
    assert said(heard(bo, 2)) == expected
    later = Socket(server, game["id"], bo_token)  # Bo again, in another tab: the history comes with the hello
    assert said(later.chat) == expected
    for sock in (ann, bo, later):
        sock.close()


def test_spectators_take_no_part_unless_the_creator_opened_the_chat_to_them(server: Server) -> None:
    closed = server.create(TWO_PEOPLE)
    ann = Socket(server, closed["id"], closed["invites"][0]["token"])
    ann.send({"type": "chat", "text": "between us"})
    heard(ann, 1)
    watcher = Socket(server, closed["id"])
    watcher.send({"type": "chat", "text": "hello from the rail"})
    refusal = watcher.error()
    assert refusal["code"] == "chat_closed" and "spectators" in refusal["message"]
    assert watcher.chat == []  # not even the history: the seats talk among themselves
    status, body = download(server, closed["id"])
    assert status == 403 and body["error"]["code"] == "chat_closed"
    # Naming a seat's view (which a finished or open game grants) is no right to that seat's chat.
    status, body = server.request("GET", f"/api/games/{closed['id']}/chat?seat=0")
    assert status == 403 and body["error"]["code"] == "chat_closed"

    opened = server.create(TWO_PEOPLE, chat_spectators=True)
    assert opened["chat_spectators"] is True
    ann_open = Socket(server, opened["id"], opened["invites"][0]["token"])
    fan = Socket(server, opened["id"])
    fan.send({"type": "chat", "text": "Go Ann!"})
    assert said(heard(ann_open, 1)) == [(1, None, "Spectator", "Go Ann!")]
    status, body = download(server, opened["id"])
    assert status == 200 and said(body["messages"]) == [(1, None, "Spectator", "Go Ann!")]
    for sock in (ann, watcher, ann_open, fan):
        sock.close()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (42, "expected the message as a string"),
        (None, "expected the message as a string"),
        ("", "the message is empty"),
        ("   \n ", "the message is empty"),
        ("x" * (CHAT_LENGTH + 1), f"at most {CHAT_LENGTH} characters"),
        ("bell\x07", "control characters"),
    ],
)
def test_a_malformed_chat_message_is_refused_naming_the_text_and_stores_nothing(
    server: Server, text: Any, why: str
) -> None:
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    ann = Socket(server, game["id"], token)
    ann.send({"type": "chat", "text": text, "ref": 7})
    refusal = ann.error()
    assert refusal["code"] == "text" and refusal["ref"] == 7 and why in refusal["message"]
    ann.send({"type": "chat", "text": "x" * CHAT_LENGTH})  # the longest allowed, after the refusal
    assert [m["text"] for m in heard(ann, 1)] == ["x" * CHAT_LENGTH]
    status, body = download(server, game["id"], token)
    assert status == 200 and [m["seq"] for m in body["messages"]] == [1]
    ann.close()


def test_a_lone_surrogate_in_a_chat_message_is_refused_and_the_session_goes_on(server: Server) -> None:
    game = server.create(TWO_PEOPLE)
    ann = Socket(server, game["id"], game["invites"][0]["token"])
    ann.send('{"type": "chat", "text": "\\ud800"}')  # valid JSON, but no UTF-8 can carry it
    refusal = ann.error()
    assert refusal["code"] == "text" and "Unicode" in refusal["message"]
    ann.send({"type": "chat", "text": "still here"})
    assert [m["text"] for m in heard(ann, 1)] == ["still here"]
    ann.close()


def test_a_flood_of_chat_messages_is_refused_past_the_allowance_and_only_the_accepted_are_stored(
    server: Server,
) -> None:
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    ann = Socket(server, game["id"], token)
    for i in range(12):
        ann.send({"type": "chat", "text": f"spam {i}", "ref": i})
    refused = []
    deadline = time.monotonic() + PATIENCE
    while len(ann.chat) + len(refused) < 12:
        message = json.loads(ann.conn.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "chat":
            ann.chat.extend(message["messages"])
        elif message["type"] == "error":
            assert message["code"] == "rate_limited" and "'chat'" in message["message"]
            refused.append(message["ref"])
    accepted = [m["text"] for m in ann.chat]
    assert 5 <= len(accepted) <= 7 and len(refused) >= 5  # a burst of five, then one every two seconds
    assert accepted == [f"spam {i}" for i in range(12) if i not in refused]
    status, body = download(server, game["id"], token)
    assert status == 200 and [m["text"] for m in body["messages"]] == accepted
    ann.close()


def test_the_chat_downloads_beside_the_record_which_never_holds_it(server: Server) -> None:
    game = server.create(TWO_PEOPLE)
    token = game["invites"][1]["token"]
    bo = Socket(server, game["id"], token)
    bo.send({"type": "chat", "text": "<script>alert('gg')</script>"})
    heard(bo, 1)
    status, body = download(server, game["id"], token)
    assert status == 200
    assert body["format"] == "skald-chat/1" and body["id"] == game["id"] and body["seats"] == ["Ann", "Bo"]
    assert said(body["messages"]) == [(1, 1, "Bo", "<script>alert('gg')</script>")]  # kept as written: it is text
    assert body["messages"][0]["at"]  # when it was written
    status, record = server.request("GET", f"/api/games/{game['id']}/record", token=token)
    assert status == 200 and "alert" not in json.dumps(record)
    status, body = server.request("GET", f"/api/games/{game['id']}/chat", token="not-a-seat-token")
    assert status == 403
    bo.close()


def test_the_chat_survives_a_server_restart(tmp_path: Any) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        game = server.create(TWO_PEOPLE)
        token = game["invites"][0]["token"]
        ann = Socket(server, game["id"], token)
        ann.send({"type": "chat", "text": "before the crash"})
        heard(ann, 1)
        ann.close()
        server.kill()  # SIGKILL: a message acknowledged to the table was committed first
        server.start()
        again = Socket(server, game["id"], token)
        assert said(again.chat) == [(1, 0, "Ann", "before the crash")]
        again.send({"type": "chat", "text": "after it"})
        assert said(heard(again, 2))[1] == (2, 0, "Ann", "after it")
        again.close()


def test_a_message_written_through_one_process_reaches_the_seats_and_spectators_at_another(database: str) -> None:
    with two_servers(database) as (first, second):
        game = first.create(TWO_PEOPLE, chat_spectators=True)
        ann = Socket(first, game["id"], game["invites"][0]["token"])
        bo = Socket(second, game["id"], game["invites"][1]["token"])
        fan = Socket(second, game["id"])
        ann.send({"type": "chat", "text": "from the first process"})
        bo.send({"type": "chat", "text": "from the second"})
        for sock in (ann, bo, fan):
            texts = sorted(m["text"] for m in heard(sock, 2))
            assert texts == ["from the first process", "from the second"]
            assert sorted(m["seq"] for m in sock.chat) == [1, 2]  # each once, numbered once across processes
        for sock in (ann, bo, fan):
            sock.close()
