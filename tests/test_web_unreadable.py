"""A stored game that no longer replays (say, written under other rules) is refused on its own; the server starts."""

from __future__ import annotations

from pathlib import Path

from skald.web.store.engine import make_engine
from skald.web.store.stores import Stores
from web_support import running


def test_a_game_that_no_longer_replays_is_refused_alone_and_the_server_still_starts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    with running(url) as server:
        broken = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])["id"]
        sound = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])["id"]
    # An action no position allows (beyond the action space), committed behind the server's back after the last ply
    # the stopped server stored (its opening draws may have been committed after any answer it gave).
    store = Stores(make_engine(url)).games
    store.append(broken, store.versions([broken])[broken], [(0, 10_000)], "playing")
    with running(url) as server:
        status, health = server.request("GET", "/api/health")
        assert status == 200 and health["ok"]
        status, refused = server.request("GET", f"/api/games/{broken}")
        assert status == 500 and refused["error"]["code"] == "unreadable"
        assert "cannot be replayed" in refused["error"]["message"]
        status, _ = server.request("GET", f"/api/games/{sound}")
        assert status == 200
