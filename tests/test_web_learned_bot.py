"""The learned bot at the web table: offered where a model is shipped, refused by name where none is, and a whole
game played against it over real HTTP and WebSockets."""

from __future__ import annotations

from pathlib import Path

from skald.bots.puct import MODELS
from test_web_api import Socket, play_out
from web_support import running


def test_the_lobby_offers_the_learned_bot_only_where_a_model_is_shipped(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        status, catalogue = server.request("GET", "/api/catalogue")
        assert status == 200 and "learned" in catalogue["bots"]
        for game in catalogue["games"]:
            shipped = [
                n
                for n in range(game["min_players"], game["max_players"] + 1)
                if (MODELS / f"{game['name']}-{n}p.npz").exists()
            ]
            assert game["learned"] == shipped, game["name"]
        vikings = next(game for game in catalogue["games"] if game["name"] == "vikings")
        assert vikings["learned"] == [2]


def test_a_table_without_a_model_refuses_the_learned_bot_naming_the_seat(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "learned"}]
        status, error = server.request("POST", "/api/games", {"game": "vikings", "seats": seats})
        assert status == 400, error
        assert "seats[2].bot" in str(error) and "no model is shipped for vikings with 3 players" in str(error)
        clock = {"kind": "live", "bank": 600, "timeout": "bot", "stand_in": "learned"}
        seats[2] = {"kind": "bot", "bot": "greedy"}
        status, error = server.request("POST", "/api/games", {"game": "vikings", "seats": seats, "clock": clock})
        assert status == 400 and "clock.stand_in" in str(error)


def test_a_person_plays_a_whole_game_against_the_shipped_learned_bot(tmp_path: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'skald.db'}") as server:
        game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "learned"}], game="vikings")
        sock = Socket(server, game["id"], game["invites"][0]["token"])
        final = play_out(sock)
        sock.close()
        assert final["status"] == "over"
        assert sorted(row["seat"] for row in final["result"]["standings"]) == [0, 1]
        status, summary = server.request("GET", f"/api/games/{game['id']}")
        assert status == 200 and [s["kind"] for s in summary["seats"]] == ["human", "learned"]
