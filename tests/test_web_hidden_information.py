"""Hidden information at the web table, checked on the bytes a real server sends.

The proof game (tests/proof_game: private hands dealt by chance, secret bids, public plays) is served by a real
`skald serve` subprocess. Two games whose deals differ only in the other seat's cards must send seat 0 and a
spectator byte-identical HTTP bodies and WebSocket messages until the end; asking for another seat's view, the whole
record during play, or a why-answer when not on turn is refused with a 403 that carries nothing else.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

import proof_game
from proof_game import actions as A
from skald.engine import CHANCE, Record, sample_chance
from skald.engine.fair import chance_rng
from web_support import Server, running

#: These tests fix their games' seeds, to know the draws (a server allows it only when told to).
SEEDS = "--allow-client-seeds"

PLAYERS = 2
DEALS = A.HAND_SIZE * PLAYERS
#: The one field of what seat 0 and a spectator receive that legitimately differs between the two games: the game's
#: id (in the welcome's summary and in the summary a GET returns). Tokens are never sent to them, and nothing sent
#: carries a timestamp.
GAME_ID = "<game id>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real app, able to serve the proof game, on a real SQLite file."""
    url = f"sqlite:///{tmp_path_factory.mktemp('hidden') / 'skald.db'}"
    with running(url, SEEDS, env=proof_game.subprocess_env()) as live:
        yield live


def dealt_by_server(seed: int) -> list[list[int]]:
    """Each seat's cards, in the order the server deals them to a proof game created with `seed`."""
    state = proof_game.game.GAME.new_initial_state(PLAYERS)
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    while state.current_player() == CHANCE:
        action = sample_chance(state, chance_rng(seed, len(state.history)))
        hands[state.receiver()].append(action - A.DEAL + 1)
        state.apply(action)
    return hands


def two_worlds() -> tuple[int, int]:
    """Two seeds whose deals give seat 0 the same cards in the same order and seat 1 different cards (two of its
    three shared, so it can play the same cards in both games for two tricks)."""
    first_seen: dict[tuple[int, ...], tuple[int, set[int]]] = {}
    for seed in range(100_000):
        hands = dealt_by_server(seed)
        mine, theirs = tuple(hands[0]), set(hands[1])
        if mine in first_seen and len(first_seen[mine][1] & theirs) == A.HAND_SIZE - 1:
            return first_seen[mine][0], seed
        first_seen.setdefault(mine, (seed, theirs))
    raise AssertionError("no two deals differ only in seat 1's cards")


def http(server: Server, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, bytes]:
    """A request's status and its body's exact bytes."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class Viewer:
    """A WebSocket client at a table that keeps every message's exact text."""

    def __init__(self, server: Server, game_id: str, token: str | None, svg: bool = True, full: bool = True) -> None:
        self.conn: ClientConnection = connect(f"{server.ws}/ws/{game_id}", max_size=None, open_timeout=30).__enter__()
        self.texts: list[str] = []
        self.view: dict[str, Any] = {}
        self.conn.send(json.dumps({"type": "hello", "token": token, "svg": svg, "full": full}))
        self.until(lambda m: m["type"] == "update")

    def until(self, wanted: Any) -> dict[str, Any]:
        """Receive until a message satisfies `wanted`."""
        while True:
            text = str(self.conn.recv(timeout=120))
            self.texts.append(text)
            message: dict[str, Any] = json.loads(text)
            if message["type"] == "update":
                self.view = message
            if wanted(message):
                return message

    def ask(self, data: dict[str, Any], reply: str) -> dict[str, Any]:
        """Send a message and receive its answer: the `reply` expected or an error (in place of a `why`, say)."""
        self.conn.send(json.dumps(data))
        return self.until(lambda m: m["type"] in (reply, "error"))

    def reach(self, version: int) -> dict[str, Any]:
        """Receive until the update at `version` or later."""
        if self.view.get("version", -1) >= version:
            return self.view
        return self.until(lambda m: m["type"] == "update" and m["version"] >= version)

    def drain(self) -> None:
        """Receive everything the server sent so far (a ping's pong comes after it)."""
        self.ask({"type": "ping", "ref": "drain"}, "pong")

    def close(self) -> None:
        """Leave the table."""
        self.conn.close()


class World:
    """One proof game at the server, with seat 0, a spectator and seat 1's driver connected, and every byte seat 0
    and the spectator received (HTTP bodies and WebSocket messages) in order."""

    def __init__(self, server: Server, seed: int) -> None:
        self.server = server
        game = server.create(
            [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}], game="proof", seed=seed
        )
        self.id: str = game["id"]
        self.tokens = [invite["token"] for invite in game["invites"]]
        self.http: list[tuple[str, int, bytes]] = []
        # The deal is drawn by the server's chance right after creation: connect once it is all committed, so both
        # games greet their viewers at the same version.
        while server.request("GET", f"/api/games/{self.id}")[1]["version"] < DEALS:
            time.sleep(0.02)
        self.seat = Viewer(server, self.id, self.tokens[0])
        self.spectator = Viewer(server, self.id, None)
        self.other = Viewer(server, self.id, self.tokens[1], svg=False, full=False)

    def get(self, who: str, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        """A request by seat 0 (`seat`), the spectator or seat 1 (`other`), kept unless it is seat 1's."""
        token = {"seat": self.tokens[0], "spectator": None, "other": self.tokens[1]}[who]
        status, raw = http(self.server, method, path.replace(GAME_ID, self.id), body, token)
        if who != "other":
            self.http.append((f"{who} {method} {path}", status, raw))
        return status, raw

    def look(self) -> None:
        """Everything seat 0 and the spectator may fetch now: the summary, the record, and the replay of every ply."""
        version = self.seat.view["version"]
        for who in ("seat", "spectator"):
            self.get(who, "GET", f"/api/games/{GAME_ID}")
            self.get(who, "GET", f"/api/games/{GAME_ID}/record")
            for ply in range(version + 1):
                self.get(who, "GET", f"/api/games/{GAME_ID}/replay/{ply}")

    def move(self, viewer: Viewer, action: dict[str, Any]) -> None:
        """`viewer`'s seat plays `action`; every client then reaches the new version."""
        version = viewer.view["version"]
        viewer.conn.send(json.dumps({"type": "move", "version": version, "action": action}))
        for client in (self.seat, self.spectator, self.other):
            client.reach(version + 1)

    def wait_past(self, version: int) -> None:
        """Wait until every client has seen the move the server gives at `version`."""
        for client in (self.seat, self.spectator, self.other):
            client.reach(version + 1)

    def settled(self) -> bool:
        """Whether the table waits for a person: the seat to move is asked, not given its only answer (which the
        server plays by itself, at its pace)."""
        view = self.seat.view
        mover = self.seat if view["to_move"] == 0 else self.other
        mover.reach(view["version"])
        asked = mover.view.get("given") is None
        return view["status"] == "playing" and mover.view["version"] == view["version"] and asked

    def texts(self, parted: int | None = None) -> list[str]:
        """Every byte seat 0 and the spectator received (up to the update at version `parted`, if given: the games
        part after it, where the server may already have played a seat's only answer, which differs), the game id
        and the moment it was stored replaced by placeholders (the two games are stored moments apart)."""
        for client in (self.seat, self.spectator):
            client.drain()

        def before_parting(text: str) -> bool:
            return parted is None or json.loads(text).get("version", parted) <= parted

        seat, spectator = ([t for t in c.texts if before_parting(t)] for c in (self.seat, self.spectator))
        received = [f"seat ws {t}" for t in seat] + [f"spectator ws {t}" for t in spectator]
        received += [f"{what} {status} {raw.decode()}" for what, status, raw in self.http]
        return [same_game(text, self.id) for text in received]

    def close(self) -> None:
        """Leave the table."""
        for client in (self.seat, self.spectator, self.other):
            client.close()


#: When a game was stored, as its summary gives it (a table that never waited for players started then too).
CREATED = re.compile(r'"(created_at|started_at)": ?"[^"]*"')


def same_game(text: str, game_id: str) -> str:
    """`text` with the game's id and the moment it was stored as placeholders, for comparing two stored games."""
    return CREATED.sub(r'"\1": "<when>"', text.replace(game_id, GAME_ID))


def legal_keys(view: dict[str, Any]) -> list[str]:
    return [entry["key"] for entry in view["legal"]]


def test_two_games_differing_only_in_the_other_hand_send_seat_0_and_a_spectator_identical_bytes(
    server: Server,
) -> None:
    """Nothing a viewer cannot see is in a byte sent to it — the two-worlds check over the
    actual WebSocket and HTTP bytes, through the deal, the secret bids and the tricks, up to the first play that
    would tell the two hands apart."""
    seeds = two_worlds()
    worlds = [World(server, seed) for seed in seeds]
    hands = [dealt_by_server(seed) for seed in seeds]
    assert hands[0][0] == hands[1][0] and set(hands[0][1]) != set(hands[1][1])
    # A card seat 1 holds in the first game and not in the second: why seat 0 may not play it must not tell.
    telling = (set(hands[0][1]) - set(hands[1][1])).pop()
    try:
        for world in worlds:
            world.look()
        compared_plies = 0
        while True:
            views = [world.seat.view for world in worlds]
            assert views[0]["to_move"] == views[1]["to_move"] and views[0]["status"] == "playing"
            if views[0].get("given") is not None:  # seat 0's only answer, the same in both: the server gives it
                for world in worlds:
                    world.wait_past(views[0]["version"])
            elif views[0]["to_move"] == 0:
                for world in worlds:
                    why = world.seat.ask({"type": "why", "action": {"play": telling}, "ref": 1}, "why")
                    assert why["type"] == "why" and why["reason"]
                    world.get("seat", "POST", f"/api/games/{GAME_ID}/why", {"action": {"play": telling}})
                    # Neither the spectator nor seat 1 is told why about seat 0's turn.
                    assert world.spectator.ask({"type": "why", "action": {"play": telling}}, "error")["code"] == (
                        "why_forbidden"
                    )
                    status, _ = world.get("spectator", "POST", f"/api/games/{GAME_ID}/why", {"action": {"bid": 1}})
                    assert status == 403
                legal = views[0]["legal"]
                choice = legal[(views[0]["version"] * 7) % len(legal)]["action"]
                for world in worlds:
                    world.move(world.seat, choice)
            else:
                others = [world.other.view for world in worlds]
                given = next((view["given"] for view in others if view.get("given") is not None), None)
                if given is not None:
                    # Seat 1's only answer in one game (its hand decides): the server gives it there, and seat 1
                    # plays the same card where it has a choice, as a person would; else the games part here.
                    matching = [[e["action"] for e in view["legal"] if e["notation"] == given] for view in others]
                    if not all(
                        match or view.get("given") == given for match, view in zip(matching, others, strict=True)
                    ):
                        break  # seat 1's only answers differ: the server plays them, and the games part here
                    for world, match in zip(worlds, matching, strict=True):
                        if match:
                            world.move(world.other, match[0])
                        else:
                            world.wait_past(world.other.view["version"])
                else:
                    common = [key for key in legal_keys(others[0]) if key in legal_keys(others[1])]
                    if not common:
                        break  # seat 1's next play would differ: the games part here
                    for world in worlds:
                        world.move(world.other, json.loads(common[0]))
            compared_plies += 1
            if all([world.settled() for world in worlds]):  # the server plays no only answer meanwhile
                for world in worlds:
                    world.look()
        assert compared_plies >= 6  # both bids and at least two tricks' plays were compared
        parted = views[0]["version"]  # the last version both games share
        first, second = (world.texts(parted) for world in worlds)
        for index, (a, b) in enumerate(zip(first, second, strict=True)):
            assert a == b, f"byte {index} seat 0 or the spectator received differs between the two games"
        assert any("seat 2 is dealt a card" in text for text in first)  # the hidden deal was there, unnamed
    finally:
        for world in worlds:
            world.close()


def test_the_end_reveals_the_whole_log_and_record_to_everyone(server: Server) -> None:
    """The full record, and the hands, come after the end — the update ending the game replaces
    every viewer's log with the whole one, and the record downloads whole and replays."""
    world = World(server, 7)
    try:
        hidden = [entry for entry in world.spectator.view["log"] if entry["seat"] is None]
        assert hidden and all(entry["notation"].endswith("is dealt a card") for entry in hidden)
        while world.seat.view["status"] != "over":
            mover = world.seat if world.seat.view["to_move"] == 0 else world.other
            view = (
                mover.view
                if mover.view["legal"]
                else mover.until(lambda m: m["type"] == "update" and (m["legal"] or m["status"] == "over"))
            )
            if view["status"] == "over":  # the last move was one the table gave
                for client in (world.seat, world.spectator):
                    if client.view["status"] != "over":
                        client.until(lambda m: m["type"] == "update" and m["status"] == "over")
                break
            world.move(mover, view["legal"][0]["action"])
        for client in (world.seat, world.spectator):
            final = client.view
            assert final["reveal"] is True and len(final["log"]) == final["version"]
            assert [entry["notation"] for entry in final["log"][:DEALS]] == [
                f"deal {card}" for card in interleave(dealt_by_server(7))
            ]
        assert world.seat.view["result"]["columns"] == [{"key": "score", "label": "Points"}]
        status, raw = world.get("spectator", "GET", f"/api/games/{GAME_ID}/record?whole=true")
        record = json.loads(raw)
        assert status == 200 and "viewer" not in record
        assert Record.from_dict(record).replay().is_terminal()
        status, raw = world.get("seat", "GET", f"/api/games/{GAME_ID}/replay/{DEALS}?seat=1")
        assert status == 200 and json.loads(raw)["observation"]["hand"] == sorted(dealt_by_server(7)[1])
    finally:
        world.close()


def interleave(hands: list[list[int]]) -> list[int]:
    """The cards in the order they were dealt round the table."""
    return [hands[k % PLAYERS][k // PLAYERS] for k in range(DEALS)]


def test_asking_for_what_you_may_not_see_is_refused_with_nothing_else(server: Server) -> None:
    """Another seat's view, the whole record during play and a why-answer off turn each get a
    403 JSON error naming the rule — and no byte of another hand."""
    world = World(server, 11)
    hands = dealt_by_server(11)
    try:
        hostile = [
            ("spectator", "GET", f"/api/games/{GAME_ID}/record?whole=true", None, "hidden"),
            ("seat", "GET", f"/api/games/{GAME_ID}/record?whole=true", None, "hidden"),
            ("seat", "GET", f"/api/games/{GAME_ID}/record?seat=1", None, "hidden"),
            ("spectator", "GET", f"/api/games/{GAME_ID}/record?seat=0", None, "hidden"),
            ("seat", "GET", f"/api/games/{GAME_ID}/replay/{DEALS}?seat=1", None, "hidden"),
            ("spectator", "GET", f"/api/games/{GAME_ID}/replay/2?seat=1", None, "hidden"),
            ("other", "POST", f"/api/games/{GAME_ID}/why", {"action": {"bid": 9}}, "why_forbidden"),
            ("spectator", "POST", f"/api/games/{GAME_ID}/why", {"action": {"play": hands[1][0]}}, "why_forbidden"),
        ]
        for who, method, path, body, code in hostile:
            status, raw = world.get(who, method, path, body)
            data = json.loads(raw)
            assert status == 403 and set(data) == {"error"} and data["error"]["code"] == code, (path, data)
            assert data["error"]["message"].split(":")[0] in ("whole", "seat", "why"), data  # names the field
        error = world.other.ask({"type": "why", "action": {"play": hands[0][0]}, "ref": 5}, "error")
        assert error["code"] == "why_forbidden" and "Ann's turn" in error["message"]
        assert set(error) == {"type", "code", "message", "ref"}
        # What each may fetch is its own view: the spectator's record names no dealt card at all, seat 0's only its own.
        _, raw = world.get("spectator", "GET", f"/api/games/{GAME_ID}/record")
        spectator = json.loads(raw)
        assert spectator["viewer"] == "spectator"
        assert all("action" not in entry for entry in spectator["actions"][:DEALS])
        _, raw = world.get("seat", "GET", f"/api/games/{GAME_ID}/record")
        mine = json.loads(raw)
        shown = [entry["action"]["deal"] for entry in mine["actions"][:DEALS] if "action" in entry]
        assert mine["viewer"] == 0 and shown == hands[0]
        status, raw = world.get("seat", "GET", f"/api/games/{GAME_ID}/replay/{DEALS}")
        replay = json.loads(raw)
        assert status == 200 and replay["observation"]["hand"] == sorted(hands[0])
        _, raw = world.get("spectator", "GET", f"/api/games/{GAME_ID}/replay/{DEALS}")
        assert "hand" not in json.loads(raw)["observation"]
        # Only seat 0, to bid, gets the choices, the prompt and the game's labels.
        assert world.seat.view["prompt"] == "bid secretly how many tricks you will win"
        assert world.seat.view["legal"][1]["label"] == "win exactly 1 trick for +5"
        assert world.spectator.view["legal"] == [] and "prompt" not in world.spectator.view
        assert world.other.view["legal"] == [] and "prompt" not in world.other.view
    finally:
        world.close()


def test_a_record_of_a_viewer_does_not_load_back(tmp_path: Path, server: Server) -> None:
    """A viewer's record during play says whose it is and is refused as a save file with the reason."""
    world = World(server, 3)
    try:
        _, raw = world.get("seat", "GET", f"/api/games/{GAME_ID}/record")
        with pytest.raises(ValueError, match="viewer"):
            Record.from_dict(json.loads(raw))
    finally:
        world.close()
