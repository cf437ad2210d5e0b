"""Standing answers at the web table (`Presentation.standing_answer`), over real WebSockets against `skald serve`.

A player who holds no playable card in a window is never made to click "pass" (the server gives an only answer),
and one who does may keep "pass in every card window until my next decision", which the server then gives for him,
whatever he holds, until a decision of another kind comes to him.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_web_api import Socket
from web_support import Server, running

#: Person in seat 1 against two random bots, cards dealt (every holder is asked in every window).
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
OPTIONS: dict[str, Any] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(f"sqlite:///{tmp_path_factory.mktemp('web') / 'skald.db'}", "--allow-client-seeds") as live:
        yield live


def until_offer(sock: Socket) -> dict[str, Any]:
    """Play the person's decisions (a choice fixed by the version) until the game offers a standing answer."""
    while True:
        view = sock.my_turn()
        assert view["status"] != "over", "no card window came to the person in a whole game"
        if "standing_offer" in view:
            return view
        choice = view["legal"][(view["version"] * 7) % len(view["legal"])]
        sock.send({"type": "move", "version": view["version"], "action": choice["action"]})
        sock.update_after(view["version"])


def test_a_kept_pass_answers_every_card_window_until_the_persons_next_other_decision(server: Server) -> None:
    game = server.create(SEATS, game="vikingatid", options=OPTIONS, seed=7)
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    offered = until_offer(sock)
    assert offered["standing_offer"] == {
        "name": "card_windows",
        "label": "Pass in every card window until my next decision",
    }
    assert "pass" in {legal["action"]["type"] for legal in offered["legal"]}
    start = offered["version"]
    sock.send({"type": "standing", "version": start, "name": "card_windows"})
    # The person is asked nothing until a decision of another kind, and by then he keeps no standing answer.
    sock.update_after(start)
    view = sock.my_turn()
    if view["status"] != "over":
        assert "standing" not in view and "standing_offer" not in view
        assert "card window" not in view["prompt"]
    # Meanwhile the server passed for him in each card window that came to him (the first at once), nothing else.
    given = [entry["notation"] for entry in sock.log if entry["seat"] == 0 and entry["ply"] >= start]
    assert given and set(given) == {"pass"}, given
    sock.close()


def test_a_standing_answer_is_refused_when_not_offered_and_can_be_stopped(server: Server) -> None:
    game = server.create(SEATS, game="vikingatid", options=OPTIONS, seed=11)
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    watcher = Socket(server, game["id"])
    watcher.send({"type": "standing", "version": watcher.view["version"], "name": "card_windows"})
    assert watcher.error()["code"] == "spectator"
    offered = until_offer(sock)
    version = offered["version"]
    sock.send({"type": "standing", "version": version, "name": "every_decision"})
    refused = sock.error()
    assert refused["code"] == "standing" and "'every_decision' is not an answer offered" in refused["message"]
    sock.send({"type": "standing", "version": version - 1, "name": "card_windows"})
    assert sock.error()["code"] == "stale"
    assert sock.view["version"] == version  # the table was resent (before the error), and nothing moved
    sock.send({"type": "standing", "version": version, "name": "card_windows"})
    sock.update_after(version)
    sock.send({"type": "standing", "name": None})
    # The answer to the stop is a full update that logs nothing; a bot's move broadcast before the stop was handled
    # may arrive first, still showing the standing answer then kept.
    stopped = sock.until(lambda m: m["type"] == "update" and m["full"] and m["log"] == [])
    assert "standing" not in stopped
    sock.close()
    watcher.close()
