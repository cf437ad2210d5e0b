"""Deep replays over real HTTP against a real server: made off the event loop from checkpoints, limited per client,
kept per viewer for live games.

A replay of a late ply of a long Vikingatid game is made in the replay thread (`skald.web.replays`) from the
checkpoint at or before it, so the server answers `/api/health` while it is being made, and a replay applies fewer
than `EVERY` actions once the game's checkpoints exist. A client asking for more replays than its allowance is
refused (429) while replays already made are still served; a live game's replays are kept per viewer, and what is
kept for a seat is never what a spectator is sent.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skald.bots import make_bot
from skald.engine import CHANCE, State, get_game
from skald.engine.presentation import only_answer
from skald.web.replays import EVERY
from web_support import Server, running, store_played

#: Seats of the long game, and how the bots and chance play it.
PLAYERS = 4
SEED = 1


@pytest.fixture(scope="module")
def long_game() -> State:
    """A whole 4-player Vikingatid game between random bots (a few thousand plies)."""
    state = get_game("vikingatid").new_initial_state(PLAYERS, {})
    bots = [make_bot("random", seed=seat) for seat in range(PLAYERS)]
    rng = random.Random(SEED)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(state.sample_chance_outcome(rng) if player == CHANCE else bots[player].step(state))
    assert len(state.history) > 10 * EVERY
    return state


def stored(tmp_path: Path, world: State) -> tuple[str, str, list[str]]:
    """The database URL, id and seat tokens of `world` written as a server would have stored it."""
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    ((game_id, tokens),) = store_played(url, get_game("vikingatid"), SEED, [world], ["Ann", "Bo", "Cy", "Di"])
    return url, game_id, tokens


def health(server: Server) -> dict[str, Any]:
    """The server's replay figures from its health report."""
    status, found = server.request("GET", "/api/health")
    assert status == 200
    return dict(found["replays"])


@pytest.fixture()
def finished_long(tmp_path: Path, long_game: State) -> Iterator[tuple[Server, str, int]]:
    """A server holding the long game, finished: the server, the game's id and its last ply."""
    url, game_id, _ = stored(tmp_path, long_game)
    with running(url) as server:
        yield server, game_id, len(long_game.history)


def test_health_is_answered_while_a_deep_replay_is_being_made(finished_long: tuple[Server, str, int]) -> None:
    server, game_id, last = finished_long
    answers: list[int] = []
    stop = threading.Event()

    def ask(start: int) -> None:
        ply = start
        while not stop.is_set() and ply > last // 2:
            status, _ = server.request("GET", f"/api/games/{game_id}/replay/{ply}")
            answers.append(status)
            ply -= 2

    askers = [threading.Thread(target=ask, args=(last - n,), daemon=True) for n in range(2)]
    for asker in askers:
        asker.start()
    seen_computing = False
    try:
        while any(asker.is_alive() for asker in askers):
            if health(server)["computing"] >= 1:  # answered while a replay was being made
                seen_computing = True
                break
    finally:
        stop.set()
        for asker in askers:
            asker.join(120)
    assert seen_computing, "the health report never came while a replay was being made"
    assert answers and set(answers) == {200}


def test_once_a_games_checkpoints_exist_a_replay_applies_fewer_actions_than_between_two(
    finished_long: tuple[Server, str, int], long_game: State
) -> None:
    server, game_id, last = finished_long
    status, first = server.request("GET", f"/api/games/{game_id}/replay/{last}")
    assert status == 200 and first["ply"] == last and first["version"] == last
    before = health(server)["applied"]
    for ply in (last - 1, last - EVERY - 5, last // 2 + 3, 3 * EVERY + 1):
        status, found = server.request("GET", f"/api/games/{game_id}/replay/{ply}")
        assert status == 200 and found["ply"] == ply and len(found["log"]) == ply
        after = health(server)["applied"]
        assert after - before < EVERY
        before = after
        replayed = get_game("vikingatid").new_initial_state(PLAYERS, {})
        for action in long_game.history[:ply]:
            replayed.apply(action)
        assert found["observation"] == json.loads(json.dumps(replayed.observation(None)))


def test_replays_past_a_clients_allowance_are_refused_and_those_made_are_still_served(
    tmp_path: Path, long_game: State
) -> None:
    url, game_id, _ = stored(tmp_path, long_game)
    last = len(long_game.history)
    # One replay a second and a burst of five.
    with running(url, env={"SKALD_REPLAYS_PER_SECOND": "1"}) as server:
        statuses = [server.request("GET", f"/api/games/{game_id}/replay/{last - n}") for n in range(12)]
        refused = [found for status, found in statuses if status == 429]
        assert refused and all(found["error"]["code"] == "rate_limited" for found in refused)
        made = next(n for n, (status, _) in enumerate(statuses) if status == 200)
        status, again = server.request("GET", f"/api/games/{game_id}/replay/{last - made}")
        assert status == 200 and again == statuses[made][1]  # kept: served however fast the client asks


def test_a_live_games_replays_are_kept_per_viewer_and_carry_the_games_version(tmp_path: Path, long_game: State) -> None:
    game = get_game("vikingatid")
    live = game.new_initial_state(PLAYERS, {})
    for action in long_game.history[: 6 * EVERY]:
        live.apply(action)
    # Stop at a seat's real decision: nothing moves the game on by itself (chance, or an answer the table gives).
    # On along the whole game's own plies: always the first chance outcome can be a tied roll rolled again forever.
    while live.current_player() == CHANCE or only_answer(live) is not None:
        live.apply(long_game.history[len(live.history)])
    url, game_id, tokens = stored(tmp_path, live)
    version = len(live.history)
    ply = version - EVERY // 2
    past = game.new_initial_state(PLAYERS, {})
    for action in live.history[:ply]:
        past.apply(action)
    with running(url) as server:
        for _ in range(2):
            status, seat = server.request("GET", f"/api/games/{game_id}/replay/{ply}", token=tokens[0])
            assert status == 200 and seat["viewer"] == 0 and seat["version"] == version
            assert seat["observation"] == json.loads(json.dumps(past.observation(0)))
            status, spectator = server.request("GET", f"/api/games/{game_id}/replay/{ply}")
            assert status == 200 and spectator["viewer"] is None and spectator["version"] == version
            assert spectator["observation"] == json.loads(json.dumps(past.observation(None)))
            assert seat["observation"] != spectator["observation"]  # the seat's own hand is in its view only
        figures = health(server)
        assert figures["made"] == 2 and figures["hits"] == 2
