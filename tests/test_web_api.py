"""The web table over real HTTP and WebSockets, against a real SQLite file and a real PostgreSQL server.

Seats act only for themselves and only on their turn, spectators watch live, every move is committed
before anyone is told and carries the game's version, and every forbidden act is refused with a clear message.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from skald.engine import Record
from skald.web.store.engine import make_engine
from skald.web.store.games import StaleVersion
from skald.web.store.stores import Stores
from web_support import Server, postgres, running

#: These tests fix their games' seeds, to know the draws (a server allows it only when told to).
SEEDS = "--allow-client-seeds"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real app on a real SQLite file, then on a real PostgreSQL server."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('web') / 'skald.db'}"
        with running(url, SEEDS) as live:
            yield live
    else:
        with postgres() as url, running(url, SEEDS) as live:
            yield live


class Socket:
    """A WebSocket client at one table."""

    def __init__(
        self, server: Server, game_id: str, token: str | None = None, svg: bool = False, full: bool = True
    ) -> None:
        self.conn: ClientConnection = connect(f"{server.ws}/ws/{game_id}", max_size=None, open_timeout=30).__enter__()
        #: The board's pieces of SVG as the updates patched them (see `projection.board_patch`).
        self.board: list[str] = []
        #: The table chat's messages as received (the history on joining, then each new one).
        self.chat: list[dict[str, Any]] = []
        self.send({"type": "hello", "token": token, "svg": svg, "full": full})
        self.welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        self.view: dict[str, Any] = {}
        self.log: list[dict[str, Any]] = []
        if self.welcome["type"] == "welcome":
            self.until(lambda m: m["type"] == "update")

    def send(self, data: Any) -> None:
        """Send JSON (or raw text)."""
        self.conn.send(data if isinstance(data, str) else json.dumps(data))

    def until(self, wanted: Any) -> dict[str, Any]:
        """Receive until a message satisfies `wanted`, tracking the latest view and the log."""
        while True:
            message: dict[str, Any] = json.loads(self.conn.recv(timeout=120))
            if message["type"] == "update":
                patch = message.get("board")
                if patch is not None:
                    if len(self.board) != patch["size"]:
                        self.board = [""] * patch["size"]
                    for i, text in patch["parts"]:
                        self.board[i] = text
                message["svg"] = "".join(self.board)
                self.view = message
                self.log.extend(message["log"])
            if message["type"] == "chat":
                self.chat.extend(message["messages"])
            if wanted(message):
                return message

    def update_after(self, version: int) -> dict[str, Any]:
        """The first update past `version`."""
        if self.view.get("version", -1) > version:
            return self.view
        return self.until(lambda m: m["type"] == "update" and m["version"] > version)

    def my_turn(self) -> dict[str, Any]:
        """Wait until this seat has legal actions or the game is over."""
        if self.view.get("legal") or self.view.get("status") == "over":
            return self.view
        return self.until(lambda m: m["type"] == "update" and (m["legal"] or m["status"] == "over"))

    def error(self) -> dict[str, Any]:
        """The next error message."""
        return self.until(lambda m: m["type"] == "error")

    def close(self) -> None:
        """Leave the table."""
        self.conn.close()


def human_vs_bot(server: Server, bot: str = "random", seed: int | None = None) -> dict[str, Any]:
    extra = {} if seed is None else {"seed": seed}
    return server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": bot}], **extra)


def play_out(sock: Socket, stop_at: int | None = None) -> dict[str, Any]:
    """Play the seat deterministically (a choice fixed by the ply) until the end or version `stop_at`."""
    while True:
        view = sock.my_turn()
        if view["status"] == "over" or (stop_at is not None and view["version"] >= stop_at):
            return view
        legal = view["legal"]
        choice = legal[(view["version"] * 7) % len(legal)]
        sock.send({"type": "move", "version": view["version"], "action": choice["action"]})
        sock.update_after(view["version"])


def test_create_gives_secret_invites_and_a_spectator_link(server: Server) -> None:
    game = server.create(
        [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}],
        options={"ship_row": "touching"},
    )
    assert [i["seat"] for i in game["invites"]] == [0, 1]
    for invite in game["invites"]:
        assert len(invite["token"]) >= 22  # ≥ 128 random bits, URL-safe base64
        assert invite["url"].endswith(f"/table/{game['id']}#t={invite['token']}")
    assert game["invites"][0]["token"] != game["invites"][1]["token"]
    assert game["spectator_url"].endswith(f"/table/{game['id']}")
    status, summary = server.request("GET", f"/api/games/{game['id']}", token=game["invites"][1]["token"])
    assert status == 200 and summary["you"] == 1 and summary["options"]["ship_row"] == "touching"
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "greedy"]
    assert "token" not in json.dumps(summary["seats"])


def test_a_game_is_created_with_every_one_of_its_rule_options_as_the_lobby_sends_them(server: Server) -> None:
    """The lobby sends a value for every rule option of the game; Vikingatid has more than 60 of them (its cards'
    included), and the server takes them all."""
    from skald.engine import get_game

    options = {option.name: option.default for option in get_game("vikingatid").options}
    assert len(options) > 60
    game = server.create([{"kind": "human"}, {"kind": "bot", "bot": "random"}], game="vikingatid", options=options)
    status, summary = server.request("GET", f"/api/games/{game['id']}")
    assert status == 200 and summary["options"]["card_windows"] == "events"


def test_an_update_sends_only_the_pieces_of_the_board_that_changed_and_they_make_the_whole_board(
    server: Server,
) -> None:
    """A board drawn in pieces (`Game.render_svg_parts`: Vikingatid's map, an area each) is sent whole once per
    connection, then only the pieces a move changed, and no piece when nothing changed (a `view` asked again); what
    the client pieces together is, at every version, the board the replay endpoint draws for the same viewer."""
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}], game="vikingatid")
    seats = [Socket(server, game["id"], invite["token"], svg=True) for invite in game["invites"]]
    watcher = Socket(server, game["id"], svg=True)
    first = watcher.view["board"]
    assert len(first["parts"]) == first["size"] > 50  # the whole board, in its pieces
    whole = patched = 0
    while watcher.view["version"] < 40:
        mover = seats[watcher.view["to_move"]]
        view = mover.update_after(watcher.view["version"] - 1)
        if not view["legal"]:  # an answer the table gives for the seat (a card window's only pass): it comes
            watcher.update_after(view["version"])
            continue
        choice = view["legal"][(view["version"] * 7) % len(view["legal"])]
        mover.send({"type": "move", "version": view["version"], "action": choice["action"]})
        for sock in seats:
            sock.update_after(view["version"])
        seen = watcher.update_after(view["version"])
        status, drawn = server.request("GET", f"/api/games/{game['id']}/replay/{seen['version']}?seat=spectator")
        assert status == 200 and seen["svg"] == drawn["svg"]
        whole += len(drawn["svg"])
        patched += sum(len(text) for _, text in seen.get("board", {"parts": []})["parts"])
    assert patched * 10 < whole, (patched, whole)
    # Once the table waits for a click (no answer it gives still to come), a view asked again sends no board.
    while True:
        view = seats[watcher.view["to_move"]].update_after(watcher.view["version"] - 1)
        if view["version"] == watcher.view["version"] and view["legal"]:
            break
        watcher.update_after(watcher.view["version"])
    seen = watcher.view
    watcher.send({"type": "view"})
    again = watcher.until(lambda m: m["type"] == "update")
    assert "board" not in again and again["svg"] == seen["svg"]
    for sock in [*seats, watcher]:
        sock.close()


def test_a_person_plays_a_whole_game_against_a_bot_and_the_record_replays(server: Server) -> None:
    game = human_vs_bot(server)
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    assert sock.welcome["you"] == 0
    final = play_out(sock)
    sock.close()
    assert final["status"] == "over"
    result = final["result"]
    assert sorted(row["seat"] for row in result["standings"]) == [0, 1]
    assert result["standings"][0]["seat"] in result["winners"]
    assert "Gold" in result["tie_break"]
    fame = sorted((row["fame"] for row in result["standings"]), reverse=True)
    assert result["tied"] == (fame[0] == fame[1])  # the tie-break decided only if the best Fame was shared
    assert result["columns"] == [{"key": "fame", "label": "Fame"}, {"key": "gold", "label": "Gold"}]
    status, record = server.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200
    replayed = Record.from_dict(record).replay()
    assert replayed.is_terminal() and len(replayed.history) == final["version"]
    assert replayed.winners() == result["winners"]
    assert [entry["notation"] for entry in sock.log] == [entry["notation"] for entry in record["actions"]]
    assert final["scorings"] and final["scorings"][-1]["when"] == "end"
    assert "scorings" not in final["observation"]  # sent once, beside the observation


def test_a_delta_client_is_told_each_move_briefly_and_gets_the_full_view_on_request(server: Server) -> None:
    """`"full": false`: the full view first, then short updates (log, version, turn, legal); `view` asks for it."""
    game = human_vs_bot(server, "greedy", seed=7)
    sock = Socket(server, game["id"], game["invites"][0]["token"], full=False)
    first = sock.view
    assert first["full"] is True and "observation" in first and "scorings" in first
    view = play_out(sock, stop_at=80)
    assert view["full"] is False and "observation" not in view and "scorings" not in view
    assert view["legal"] and view["to_move"] == 0 and view["status"] == "playing"
    sock.send({"type": "view"})
    full = sock.until(lambda m: m["type"] == "update" and m["full"])
    assert full["version"] == view["version"] and full["log"] == []
    # The same choices; the full view adds the game's words for people (a label and a group heading for each).
    brief = [{key: entry[key] for key in ("key", "action", "notation")} for entry in full["legal"]]
    assert sorted(brief, key=str) == sorted(view["legal"], key=str) and "prompt" not in view
    assert all("label" in entry and "group" in entry for entry in full["legal"]) and full["prompt"]
    assert full["observation"]["step"] and isinstance(full["scorings"], list)
    status, record = server.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200
    assert [entry["notation"] for entry in sock.log] == [entry["notation"] for entry in record["actions"]][
        : len(sock.log)
    ]
    assert [entry["ply"] for entry in sock.log] == list(range(len(sock.log)))  # no entry lost or repeated
    final = play_out(sock)
    assert final["status"] == "over" and final["result"]["winners"]
    sock.close()


def test_a_spectator_sees_every_move_live_and_nothing_hidden(server: Server) -> None:
    game = human_vs_bot(server, "greedy")
    player = Socket(server, game["id"], game["invites"][0]["token"])
    watcher = Socket(server, game["id"], svg=True)
    assert watcher.welcome["you"] is None
    view = play_out(player, stop_at=60)
    seen = watcher.update_after(view["version"] - 1)
    assert seen["version"] >= view["version"]
    assert watcher.log[: len(player.log)] == player.log[: len(watcher.log)]
    assert seen["legal"] == [] and "<svg" in seen["svg"]
    observation = seen["observation"]
    assert all(isinstance(n, int) for n in observation["stacks"].values())  # counts, never the order
    assert all(isinstance(n, int) for n in observation["bag"].values())
    player.close()
    watcher.close()


def test_a_move_is_refused_on_the_wrong_turn_for_the_wrong_seat_and_for_spectators(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    ann = Socket(server, game["id"], game["invites"][0]["token"])
    bo = Socket(server, game["id"], game["invites"][1]["token"])
    view = ann.my_turn()
    action = view["legal"][0]["action"]
    bo.send({"type": "move", "version": view["version"], "action": action})
    error = bo.error()
    assert error["code"] == "not_your_turn" and "Ann's turn" in error["message"]
    ann.send({"type": "move", "version": view["version"], "action": action, "seat": 1})
    assert ann.error()["code"] == "wrong_seat"
    watcher = Socket(server, game["id"])
    watcher.send({"type": "move", "version": view["version"], "action": action})
    assert watcher.error()["code"] == "spectator"
    status, data = server.request(
        "POST", f"/api/games/{game['id']}/moves", {"version": view["version"], "action": action}
    )
    assert status == 403 and data["error"]["code"] == "forbidden"
    status, data = server.request(
        "POST",
        f"/api/games/{game['id']}/moves",
        {"version": view["version"], "action": action},
        token=game["invites"][1]["token"],
    )
    assert status == 409 and data["error"]["code"] == "not_your_turn"
    assert ann.view["version"] == view["version"]
    for sock in (ann, bo, watcher):
        sock.close()


def test_a_forged_token_malformed_and_oversized_messages_are_refused(server: Server) -> None:
    game = human_vs_bot(server)
    forged = Socket(server, game["id"], "A" * 32)
    assert forged.welcome["type"] == "error" and forged.welcome["code"] == "forged_token"
    forged.close()
    status, data = server.request(
        "POST", f"/api/games/{game['id']}/moves", {"version": 0, "action": {}}, token=game["invites"][0]["token"] + "x"
    )
    assert status == 403
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    sock.send("{not json")
    assert sock.error()["code"] == "malformed"
    sock.send("[1, 2]")
    assert sock.error()["code"] == "malformed"
    sock.send(json.dumps({"type": "move", "version": 0, "action": {"type": "buy", "price": 1}, "pad": "x" * 5000}))
    assert sock.error()["code"] == "too_large"
    sock.send({"type": "teleport"})
    assert "unknown message type" in sock.error()["message"]
    view = sock.my_turn()
    sock.send({"type": "move", "version": "seven", "action": view["legal"][0]["action"]})
    assert sock.error()["code"] == "version"
    sock.send({"type": "move", "version": view["version"], "action": {"type": "buy", "price": "x"}})
    assert sock.error()["message"].startswith("action: price")
    status, data = server.request("POST", "/api/games", raw=b'{"seats": [' + b" " * 20000 + b"]}")
    assert status == 413 and data["error"]["code"] == "too_large"
    status, data = server.request("POST", "/api/games", raw=b"{oops")
    assert status == 400 and data["error"]["code"] == "malformed"
    status, data = server.request("POST", "/api/games", {"seats": [{"kind": "bot", "bot": "mcts:iters=99999"}]})
    assert status == 400 and data["error"]["message"].startswith("seats.0.bot")
    status, data = server.request("POST", "/api/games", {"seats": [{"kind": "human"}] * 5})
    assert status == 400 and "2–4 players" in data["error"]["message"]
    status, data = server.request("POST", "/api/games", {"seats": [{}, {}], "options": {"ship_row": "sideways"}})
    assert status == 400 and data["error"]["message"].startswith("options.ship_row")
    sock.close()


def test_an_illegal_move_is_refused_with_the_rule_and_hover_explains_it(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    view = sock.my_turn()
    legal = {entry["key"] for entry in view["legal"]}
    wrong = {"type": "island", "square": "N5"}
    assert json.dumps(wrong, sort_keys=True, separators=(",", ":")) not in legal
    sock.send({"type": "why", "action": wrong, "ref": 1})
    why = sock.until(lambda m: m["type"] == "why")
    assert why["ref"] == 1 and why["reason"] and "step" in why["reason"]
    sock.send({"type": "move", "version": view["version"], "action": wrong})
    error = sock.error()
    assert error["code"] == "illegal" and "[turn.step]" in error["message"]
    sock.close()


def test_a_stale_or_duplicate_submission_is_refused(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    view = sock.my_turn()
    move = {"type": "move", "version": view["version"], "action": view["legal"][0]["action"]}
    sock.send(move)
    sock.update_after(view["version"])
    sock.send(move)
    error = sock.error()
    assert error["code"] == "stale" and f"version {view['version']}" in error["message"]
    sock.close()


def test_two_clients_submitting_for_the_same_turn_at_once_apply_exactly_one_move(server: Server) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}])
    token = game["invites"][0]["token"]
    sock = Socket(server, game["id"], token)
    view = sock.my_turn()
    legal = view["legal"]
    barrier = threading.Barrier(8)
    results: list[tuple[int, Any]] = []

    def submit(index: int) -> None:
        body = {"version": view["version"], "action": legal[index % len(legal)]["action"]}
        barrier.wait()
        results.append(server.request("POST", f"/api/games/{game['id']}/moves", body, token=token))

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted = [data for status, data in results if status == 200]
    refused = [data for status, data in results if status != 200]
    assert len(accepted) == 1
    assert len(refused) == 7 and all(d["error"]["code"] in ("stale", "not_your_turn") for d in refused)
    _status, record = server.request("GET", f"/api/games/{game['id']}/record")
    seats = [entry["seat"] for entry in record["actions"][view["version"] :]]
    assert seats[0] == 0 and 0 not in seats[1:]
    sock.close()


def test_moves_of_several_games_commit_in_one_transaction_and_a_stale_one_alone_is_refused(server: Server) -> None:
    """Group commit on the real database: every game's ply is checked on its own, as in the one-game path."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    ids = [server.create(seats)["id"] for _ in range(3)]
    engine = make_engine(server.db_url)
    try:
        store = Stores(engine).games

        def stored(game_id: str) -> tuple[int, str, list[int]]:
            loaded = store.load(game_id)
            assert loaded is not None
            return loaded[0].version, loaded[0].status, loaded[2]

        a, b, c = (stored(game_id)[0] for game_id in ids)  # the opening chance draws are already stored
        first = store.append_many([(ids[0], a, [(-1, 5), (-1, 6)], "playing", 0), (ids[1], b, [(-1, 7)], "playing", 0)])
        assert first == [None, None]
        results = store.append_many(
            [
                (ids[0], a + 2, [(0, 8)], "over", 0),
                (ids[1], b, [(0, 9)], "playing", 0),
                (ids[2], c, [(-1, 1)], "playing", 0),
            ]
        )
        assert results[0] is None and isinstance(results[1], StaleVersion) and results[2] is None
        versions, statuses, actions = zip(*(stored(game_id) for game_id in ids), strict=True)
        assert versions == (a + 3, b + 1, c + 1) and statuses == ("over", "playing", "playing")
        assert [moves[-3:] for moves in actions[:1]] == [[5, 6, 8]] and actions[1][-1] == 7 and actions[2][-1] == 1
    finally:
        engine.dispose()


def test_rematch_keeps_the_seats_and_gives_each_person_a_fresh_token(server: Server) -> None:
    """A rematch's seats have new tokens (a leaked invite of one game is no key to the next),
    each claimed with the seat's token of the game before."""
    game = human_vs_bot(server)
    token = game["invites"][0]["token"]
    sock = Socket(server, game["id"], token)
    status, data = server.request("POST", f"/api/games/{game['id']}/rematch", {}, token=token)
    assert status == 409 and data["error"]["code"] == "not_over"
    play_out(sock)
    status, data = server.request("POST", f"/api/games/{game['id']}/rematch", {})
    assert status == 403
    status, new = server.request("POST", f"/api/games/{game['id']}/rematch", {}, token=token)
    assert status == 200 and new["id"] != game["id"]
    assert [s["kind"] for s in new["seats"]] == ["human", "random"]
    assert len(new["token"]) >= 32 and new["token"] != token
    notice = sock.until(lambda m: m["type"] == "rematch")
    assert notice["id"] == new["id"]
    status, again = server.request("POST", f"/api/games/{game['id']}/rematch", {}, token=token)
    assert again["id"] == new["id"] and again["token"] == new["token"]
    status, summary = server.request("GET", f"/api/games/{new['id']}", token=new["token"])
    assert summary["you"] == 0
    status, summary = server.request("GET", f"/api/games/{new['id']}", token=token)
    assert summary["you"] is None
    sock.close()


def test_game_creation_and_moves_are_rate_limited(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'limits.db'}"
    live = Server(url, "--games-per-minute", "2", "--moves-per-second", "0.1")
    live.start()
    try:
        seats = [{"kind": "human"}, {"kind": "human"}]
        first = live.create(seats)
        live.create(seats)
        status, data = live.request("POST", "/api/games", {"seats": seats})
        assert status == 429 and data["error"]["code"] == "rate_limited"
        token = first["invites"][0]["token"]
        sock = Socket(live, first["id"], token)
        view = sock.my_turn()
        sock.send({"type": "move", "version": view["version"], "action": view["legal"][0]["action"]})
        after = sock.update_after(view["version"])
        sock.send({"type": "move", "version": after["version"], "action": {"type": "buy", "price": 0}})
        assert sock.error()["code"] == "rate_limited"
        sock.close()
    finally:
        live.stop()


def test_every_registered_game_is_playable_at_the_web_table_through_the_contract(server: Server) -> None:
    """Every registered game is offered and played through the contract alone: its board is `Game.render_svg`
    (Vikingdoms draws its own table; a game without one gets the contract's default, its text table), its choices
    the legal actions, and its end screen's columns and tie-break are the game's (Vikingdoms' score is its coins)."""
    status, catalogue = server.request("GET", "/api/catalogue")
    assert status == 200 and {"vikings", "vikingdoms"} <= {g["name"] for g in catalogue["games"]}
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}], game="vikingdoms")
    sock = Socket(server, game["id"], game["invites"][0]["token"], svg=True)
    assert 'class="vikingdoms-board"' in sock.view["svg"]
    final = play_out(sock)
    sock.close()
    assert final["status"] == "over" and final["result"]["winners"]
    assert final["result"]["columns"] == [{"key": "score", "label": "Coins"}]
    assert "VI. Kingdom" in final["result"]["tie_break"]
    coins = final["observation"]["coins"]
    assert {row["seat"]: row["score"] for row in final["result"]["standings"]} == dict(enumerate(coins))
    status, record = server.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200 and Record.from_dict(record).replay().is_terminal()
