"""The table chat against one client who would lock it, over real WebSockets against a real SQLite file.

How fast one may write is counted per writer across his connections — each seat, each spectator address — so
reconnecting buys nothing, and a seat is held only to its own allowance: no flood from anyone else ever makes a
seat's message refused. A chat keeps its latest 2,000 messages, the older ageing out, so it is never full. Characters
that hide text or turn it around (a direction override, a zero-width space, a line separator) are refused, as in
seat names.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from skald.web.store.schema import CHAT_MESSAGES
from web_support import Server, running

TWO_PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
#: How long a client waits for what it expects before the test fails (never a measure of speed).
PATIENCE = 30.0


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file the server keeps its games in."""
    return tmp_path_factory.mktemp("chat-limits") / "skald.db"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[Server]:
    """The real app behind a "proxy" (the test itself) that says which address each client comes from."""
    with running(f"sqlite:///{database}", "--trusted-proxies", "127.0.0.1") as live:
        yield live


class Client:
    """One WebSocket at a table from one address (`X-Forwarded-For`), counting what it was answered."""

    def __init__(self, server: Server, game_id: str, address: str, token: str | None = None) -> None:
        headers = {"X-Forwarded-For": address}
        self.conn: ClientConnection = connect(
            f"{server.ws}/ws/{game_id}", additional_headers=headers, max_size=None, open_timeout=30
        ).__enter__()
        self.chat: list[dict[str, Any]] = []
        self.conn.send(json.dumps({"type": "hello", "token": token, "svg": False, "full": False}))
        self.next(lambda m: m["type"] == "update")

    def next(self, wanted: Any) -> dict[str, Any]:
        """Receive until a message satisfies `wanted` (keeping the chat heard meanwhile)."""
        deadline = time.monotonic() + PATIENCE
        while True:
            message: dict[str, Any] = json.loads(self.conn.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message["type"] == "chat":
                self.chat.extend(message["messages"])
            if wanted(message):
                return message

    def say(self, text: str, ref: int = 0) -> dict[str, Any]:
        """Send a message; the answer: the message as stored (heard back), or the refusal."""
        self.conn.send(json.dumps({"type": "chat", "text": text, "ref": ref}))
        return self.next(
            lambda m: (
                (m["type"] == "error" and m.get("ref") == ref)
                or (m["type"] == "chat" and not m.get("history") and any(s["text"] == text for s in m["messages"]))
            )
        )

    def close(self) -> None:
        """Leave the table."""
        self.conn.close()


def test_a_chat_flood_from_one_address_over_many_connections_never_makes_a_seats_message_refused(
    server: Server,
) -> None:
    game = server.create(TWO_PEOPLE, chat_spectators=True)
    ann_token = game["invites"][0]["token"]
    accepted = 0
    for connection in range(10):  # each connection has a fresh allowance of its own: the address does not
        flooder = Client(server, game["id"], "203.0.113.66")
        for index in range(5):
            answer = flooder.say(f"flood {connection}.{index}", ref=index)
            if answer["type"] == "chat":
                accepted += 1
            else:
                assert answer["code"] == "rate_limited" and "address" in answer["message"], answer
        flooder.close()
    assert accepted <= 10, f"one address had {accepted} messages taken by reconnecting"
    # The seat speaks at once, from the flooder's very address too (a household shares one): never refused.
    ann = Client(server, game["id"], "203.0.113.66", token=ann_token)
    for index in range(5):
        answer = ann.say(f"Ann speaks {index}", ref=index)
        assert answer["type"] == "chat", answer
    # Another spectator, at another address, still has his own say.
    fan = Client(server, game["id"], "198.51.100.23")
    assert fan.say("Go Ann!")["type"] == "chat"
    for client in (ann, fan):
        client.close()


def test_a_seats_reconnections_share_one_allowance(server: Server) -> None:
    game = server.create(TWO_PEOPLE)
    bo_token = game["invites"][1]["token"]
    answers = []
    for connection in range(3):
        bo = Client(server, game["id"], "192.0.2.5", token=bo_token)
        answers += [bo.say(f"Bo {connection}.{index}", ref=index)["type"] for index in range(5)]
        bo.close()
    assert answers.count("chat") <= 8 and "error" in answers  # a burst of five, then one every two seconds


def test_a_chat_that_holds_its_most_messages_forgets_the_oldest_and_a_seat_still_speaks(
    server: Server, database: Path
) -> None:
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    with sqlite3.connect(database, timeout=30) as db:  # a chat already as full as a flood once made it
        db.executemany(
            "INSERT INTO chat_messages (game_id, seq, seat, name, text, created_at) VALUES (?, ?, NULL, ?, ?, ?)",
            [
                (game["id"], seq, "Spectator", f"old {seq}", "2026-01-01 00:00:00.000000")
                for seq in range(1, CHAT_MESSAGES + 1)
            ],
        )
    ann = Client(server, game["id"], "192.0.2.77", token=token)
    answer = ann.say("still here")
    assert answer["type"] == "chat", answer
    assert answer["messages"][-1]["seq"] == CHAT_MESSAGES + 1
    status, body = server.request("GET", f"/api/games/{game['id']}/chat", token=token)
    assert status == 200
    kept = body["messages"]
    assert len(kept) == CHAT_MESSAGES  # the oldest aged out as the newest came
    assert kept[0]["text"] == "old 2" and kept[-1]["text"] == "still here"
    ann.close()


@pytest.mark.parametrize(
    "hiding",
    ["\u202e", "\u202a", "\u2066", "\u2069", "\u200b", "\u200f", "\ufeff", "\u2028", "\u2029", "\u00ad", "\u061c"],
)
def test_a_chat_message_with_a_character_that_hides_or_turns_text_around_is_refused(
    server: Server, hiding: str
) -> None:
    game = server.create(TWO_PEOPLE)
    token = game["invites"][0]["token"]
    ann = Client(server, game["id"], "192.0.2.88", token=token)
    answer = ann.say(f"I resign{hiding}txt.exe")
    assert answer["type"] == "error" and answer["code"] == "text", answer
    assert f"U+{ord(hiding):04X}" in answer["message"]
    assert ann.say("plain words\non two lines")["type"] == "chat"  # line breaks are still allowed
    status, body = server.request("GET", f"/api/games/{game['id']}/chat", token=token)
    assert status == 200 and [m["text"] for m in body["messages"]] == ["plain words\non two lines"]
    ann.close()
