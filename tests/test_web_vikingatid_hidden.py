"""Vikingatid's hidden hands at the web table, checked on the bytes a real server sends.

Two 3-player Vikingatid games (default options, cards on) whose histories differ only in one card seat 1 draws in
the deal are served by a real `skald serve` subprocess; seat 0 and a spectator must receive byte-identical HTTP
bodies and WebSocket messages over a stretch of play taking in the rest of the deal, every seat's draws and the
first turn's card windows. Seat 0's observations show its own hand and no other; the whole record is refused.

The server draws chance itself, each outcome from the game's seed and its ply (`skald.engine.fair.chance_rng`): two
seeds agree at a roll or a draw only by luck, so none are to be found whose dozens of rolls and draws agree everywhere
but at one. The two games are therefore stored as a server that played them and was
restarted would hold them — the same seed, the same moves, seat 1's first card drawn of another kind — and the server
loads them from its database and goes on drawing from that seed. The seed is one under which every later draw comes
out the same in both games (a draw depends on the deck, which the swap changed by a card), found by playing both on
a mirror of the engine, as the server will.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from skald.engine import CHANCE, IllegalAction, get_game
from skald.engine.fair import chance_rng
from skald.engine.presentation import only_answer
from skald.games.vikingatid import VikingatidGame, VikingatidState
from skald.games.vikingatid.actions import CARD_KINDS, DRAW
from test_web_hidden_information import GAME_ID, Viewer, World
from web_support import Server, running, store_played

PLAYERS = 3
#: Player actions played at the server after it loads the games: through the deal, every seat's draws and the
#: first turn's card windows.
STRETCH = 400


def vikingatid() -> VikingatidGame:
    """The registered game, typed as the game it is."""
    game = get_game("vikingatid")
    assert isinstance(game, VikingatidGame)
    return game


GAME = vikingatid()


def choose(state: VikingatidState, allowed: list[int]) -> int:
    """The test's players: a fixed pick among `allowed` by ply, so both games and the mirror choose alike."""
    return allowed[(len(state.history) * 7) % len(allowed)]


def seat_1_draws(state: VikingatidState, action: int) -> bool:
    """Whether `action` (due at `state`) is a card seat 1 draws, which seat 0 and spectators may not see."""
    return (
        DRAW <= action < DRAW + CARD_KINDS
        and state.action_hidden_from(action, 0)
        and state.action_hidden_from(action, None)
        and not state.action_hidden_from(action, 1)
    )


def drawn_prefix(seed: int) -> tuple[VikingatidState, int]:
    """A game as the server plays it with `seed`, up to seat 1's first draw (in the deal), and that draw."""
    state = GAME.new_initial_state(PLAYERS)
    while True:
        if state.current_player() == CHANCE:
            action = state.sample_chance_outcome(chance_rng(seed, len(state.history)))
            if seat_1_draws(state, action):
                return state, action
        else:
            action = choose(state, state.legal_actions())
        state.apply(action)


def advance(worlds: list[VikingatidState], seed: int) -> None:
    """Draw the chance outcomes due in both games, from the server's generator, and give every answer the server
    gives for a seat (a decision with one legal answer); the two games must agree."""
    while not worlds[0].is_terminal():
        ply = len(worlds[0].history)
        if worlds[0].current_player() == CHANCE:
            moves = [world.sample_chance_outcome(chance_rng(seed, ply)) for world in worlds]
        else:
            moves = [only_answer(world) for world in worlds]
            if moves == [None, None]:
                return
        if moves[0] != moves[1]:
            raise ValueError(f"the games part at ply {ply}")
        for world in worlds:
            world.apply(moves[0])


def next_move(worlds: list[VikingatidState]) -> int:
    """The next player action, the same in both games: seat 1 picks among the actions legal with both its hands."""
    legal = [world.legal_actions() for world in worlds]
    if worlds[0].current_player() != 1:
        assert legal[0] == legal[1], "a seat that saw no difference has different choices: they tell"
    common = [action for action in legal[0] if action in legal[1]]
    if not common:
        raise ValueError("seat 1 has no choice legal in both games")
    return choose(worlds[0], common)


def mirror(seed: int, kind: int) -> tuple[list[VikingatidState], list[int]] | None:
    """The two games as stored (the same up to seat 1's first draw, which is `kind` in the second), and the player
    actions the test will play after they are loaded; None if the games would part (a later draw or seat 1's
    choices)."""
    first, draw = drawn_prefix(seed)
    if draw == DRAW + kind:
        return None
    second = first.clone()
    first.apply(draw)
    second.apply(DRAW + kind)
    worlds = [first, second]
    played = [world.clone() for world in worlds]
    moves: list[int] = []
    try:
        for _ in range(STRETCH):
            advance(played, seed)
            if played[0].is_terminal():
                return None
            moves.append(next_move(played))
            for world in played:
                world.apply(moves[-1])
        advance(played, seed)
    except ValueError:
        return None
    return worlds, moves


def two_worlds() -> tuple[int, list[VikingatidState], list[int]]:
    """A seed, the two stored games and the moves to play: found on the mirror before the server plays them."""
    for seed in range(1000):
        for kind in range(CARD_KINDS):
            try:
                found = mirror(seed, kind)
            except IllegalAction:  # a kind the deck cannot give there: try the next
                continue
            if found is not None:
                return seed, *found
    raise AssertionError("no seed keeps every later draw the same in both games")


class Planned:
    """What the test set up before the server started: the seed, the two games' mirrors and the moves to play."""

    def __init__(
        self, seed: int, worlds: list[VikingatidState], moves: list[int], games: list[tuple[str, list[str]]]
    ) -> None:
        self.seed = seed
        self.worlds = worlds
        self.moves = moves
        self.games = games


@pytest.fixture(scope="module")
def planned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Planned]]:
    """The real app serving the two stored games from a real SQLite file."""
    seed, worlds, moves = two_worlds()
    url = f"sqlite:///{tmp_path_factory.mktemp('vikingatid-hidden') / 'skald.db'}"
    games = store_played(url, GAME, seed, worlds, ["Ann", "Bo", "Cy"], None)
    with running(url) as live:
        yield live, Planned(seed, worlds, moves, games)


class Table(World):
    """One stored Vikingatid game at the server, with seat 0 and a spectator (both kept, as in `World`) and seats 1
    and 2's drivers connected."""

    def __init__(self, server: Server, game_id: str, tokens: list[str], settled: int) -> None:
        self.server = server
        self.id = game_id
        self.tokens = tokens
        self.http: list[tuple[str, int, bytes]] = []
        # Loading the game makes the server draw the chance due: connect once it has, so both games greet their
        # viewers at the same version.
        while server.request("GET", f"/api/games/{game_id}")[1]["version"] < settled:
            time.sleep(0.02)
        self.seat = Viewer(server, game_id, tokens[0])
        self.spectator = Viewer(server, game_id, None)
        self.other = Viewer(server, game_id, tokens[1], svg=False, full=False)
        self.third = Viewer(server, game_id, tokens[2], svg=False, full=False)

    def drivers(self) -> list[Viewer]:
        """The client each seat moves through."""
        return [self.seat, self.other, self.third]

    def play(self, seat: int, action: dict[str, Any], version: int) -> None:
        """`seat` plays `action`; every client then reaches `version` (the chance drawn after it included)."""
        driver = self.drivers()[seat]
        driver.conn.send(json.dumps({"type": "move", "version": driver.view["version"], "action": action}))
        for client in (self.seat, self.spectator, self.other, self.third):
            client.reach(version)
        assert self.seat.view["version"] == version, self.seat.view.get("error")

    def close(self) -> None:
        """Leave the table."""
        super().close()
        self.third.close()


def hands_in(data: Any) -> Iterator[Any]:
    """Every value under a key `hand`, anywhere in a JSON document."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "hand":
                yield value
            yield from hands_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from hands_in(item)


def test_two_games_differing_only_in_seat_1s_draw_send_seat_0_and_a_spectator_identical_bytes(
    planned: tuple[Server, Planned],
) -> None:
    """A card seat 1 draws is in no byte sent to seat 0 or a spectator — the two-worlds check over
    the actual WebSocket and HTTP bytes, through the deal and the first turn's card windows; seat 0 is shown its
    own hand, and only it, and nobody gets the whole record during play."""
    server, plan = planned
    mirrors = [world.clone() for world in plan.worlds]
    advance(mirrors, plan.seed)
    tables = [Table(server, game_id, tokens, len(mirrors[0].history)) for game_id, tokens in plan.games]
    try:
        # The two games do differ, in seat 1's own view: its record shows the card it drew last before they were stored.
        swapped = len(plan.worlds[0].history) - 1
        drawn = []
        for table in tables:
            status, raw = table.get("other", "GET", f"/api/games/{GAME_ID}/record")
            assert status == 200
            drawn.append(json.loads(raw)["actions"][swapped]["action"])
        assert drawn[0] != drawn[1]
        hands: list[dict[int, Any]] = [{}, {}]  # seat 0's hand and seat 1's hand by version, per the mirror
        for table in tables:
            table.look()
        for index, action in enumerate(plan.moves):
            for seat, kept in ((0, hands[0]), (1, hands[1])):
                kept[len(mirrors[0].history)] = mirrors[0].observation(seat)["cards"]["hand"]
            mover = mirrors[0].current_player()
            data = mirrors[0].action_to_json(action)
            for mirrored in mirrors:
                mirrored.apply(action)
            advance(mirrors, plan.seed)
            for table in tables:
                table.play(mover, data, len(mirrors[0].history))
            if index % 40 == 39:
                for table in tables:
                    for who in ("seat", "spectator"):
                        table.get(who, "GET", f"/api/games/{GAME_ID}")
                        table.get(who, "GET", f"/api/games/{GAME_ID}/record")
        for seat, kept in ((0, hands[0]), (1, hands[1])):
            kept[len(mirrors[0].history)] = mirrors[0].observation(seat)["cards"]["hand"]
        # And at the versions between (after answers the server gave for a seat), from the mirror's history.
        replayed = get_game("vikingatid").new_initial_state(mirrors[0].num_players, mirrors[0].options)
        for action in mirrors[0].history:
            for seat, kept in ((0, hands[0]), (1, hands[1])):
                kept.setdefault(len(replayed.history), replayed.observation(seat)["cards"]["hand"])
            replayed.apply(action)
        for table in tables:
            table.look()
            for who in ("seat", "spectator"):
                status, raw = table.get(who, "GET", f"/api/games/{GAME_ID}/record?whole=true")
                assert status == 403 and json.loads(raw)["error"]["code"] == "hidden"
        first, second = (table.texts() for table in tables)
        assert len(first) == len(second)
        for index, (a, b) in enumerate(zip(first, second, strict=True)):
            assert a == b, f"text {index} seat 0 or the spectator received differs between the two games"
        # The stretch took in every seat's draws, card windows and cards played.
        log = [entry["notation"] for text in tables[0].spectator.texts for entry in json.loads(text).get("log", [])]
        assert {f"seat {seat} draws a card" for seat in (1, 2, 3)} <= set(log)
        assert any(notation.startswith("play ") for notation in log)
        assert any('"window":{"kind"' in text for text in first)
        # Seat 0 sees its own hand in every observation, and never seat 1's; the spectator sees no hand.
        seen = 0
        for text in tables[0].seat.texts:
            message = json.loads(text)
            if message["type"] != "update" or "observation" not in message:
                continue
            version = message["version"]
            assert list(hands_in(message)) == [hands[0][version]], version
            if hands[0][version] and hands[1][version] and hands[0][version] != hands[1][version]:
                seen += 1
        assert seen > 0  # seat 0 held cards while seat 1 held other ones
        for text in tables[0].spectator.texts:
            message = json.loads(text)
            if message["type"] == "update" and "observation" in message:
                assert list(hands_in(message)) == [None]
    finally:
        for table in tables:
            table.close()
