"""The bot's review of a finished game (`skald.bots.review`).

At each decision with a choice: every seat's estimated chances, the move the bot would have chosen, the mover's
chances after the move played; the moves after which the mover's chances fell most are marked. A review is the same
every time, and in a game with hidden information it searches from what the mover knew, never the hidden cards.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from skald.bots import MCTSBot, MCTSConfig, make_bot
from skald.bots.review import MARK_DROP, MARKS_PER_SEAT, MOST_DECISIONS, decisions, review
from skald.engine import CHANCE, State, get_game, sample_chance
from test_bots_hidden_information import _positions_with_a_twin

#: Few iterations keep these tests quick; what they check does not depend on the budget.
ITERATIONS = 60


def played_game(game_name: str, specs: list[str], seed: int) -> list[int]:
    """The actions of a whole game played by bots of `specs`, chance drawn from `seed`."""
    state: State = get_game(game_name).new_initial_state(len(specs), {})
    bots = [make_bot(spec, seed=seed + seat) for seat, spec in enumerate(specs)]
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(sample_chance(state, rng) if player == CHANCE else bots[player].step(state))
    return list(state.history)


@pytest.fixture(scope="module")
def vikings_game() -> list[int]:
    """A 2-player Vikings game between a greedy and a random bot."""
    return played_game("vikings", ["greedy", "random"], seed=3)


@pytest.fixture(scope="module")
def vikings_review(vikings_game: list[int]) -> dict[str, Any]:
    """Its review."""
    return review("vikings", 2, {}, vikings_game, iterations=ITERATIONS)


def test_a_review_has_every_decision_with_a_choice_in_order_with_each_seats_chances(
    vikings_game: list[int], vikings_review: dict[str, Any]
) -> None:
    moves = vikings_review["moves"]
    assert vikings_review["format"] == "skald-review/1" and vikings_review["iterations"] == ITERATIONS
    assert len(moves) == decisions("vikings", 2, {}, vikings_game) > 50
    assert [m["ply"] for m in moves] == sorted(m["ply"] for m in moves)
    state = get_game("vikings").new_initial_state(2, {})
    reviewed = {m["ply"]: m for m in moves}
    for ply, action in enumerate(vikings_game):
        chosen = state.current_player() >= 0 and len(state.legal_actions()) > 1
        assert (ply in reviewed) == chosen
        if chosen:
            move = reviewed[ply]
            assert move["seat"] == state.current_player()
            assert move["played"] == state.action_to_notation(action)
            assert move["best"] in {state.action_to_notation(a) for a in state.legal_actions()}
            # Chances share the win between the seats (each a reward in [0, 1]; rounded to 3 places).
            assert all(0 <= c <= 1 for c in move["chances"]) and sum(move["chances"]) == pytest.approx(1, abs=0.01)
            assert move["drop"] == pytest.approx(move["chances"][move["seat"]] - move["after"], abs=0.002)
        state.apply(action)


def test_the_marked_moves_are_each_seats_largest_drops_of_at_least_a_tenth(vikings_review: dict[str, Any]) -> None:
    moves = vikings_review["moves"]
    assert any(m["marked"] for m in moves)  # a random player blunders somewhere
    for seat in range(2):
        own = [m for m in moves if m["seat"] == seat]
        marked = [m for m in own if m["marked"]]
        assert len(marked) <= MARKS_PER_SEAT
        assert all(m["drop"] >= MARK_DROP for m in marked)
        if marked:
            # No unmarked move of the seat lost more than a marked one, unless the seat already has its three.
            worst_marked = min(m["drop"] for m in marked)
            unmarked = [m["drop"] for m in own if not m["marked"]]
            assert all(drop <= worst_marked for drop in unmarked)
        if len(marked) < MARKS_PER_SEAT:
            assert all(m["drop"] < MARK_DROP for m in own if not m["marked"])


def test_a_review_is_the_same_every_time(vikings_game: list[int], vikings_review: dict[str, Any]) -> None:
    assert review("vikings", 2, {}, vikings_game, iterations=ITERATIONS) == vikings_review


def test_a_move_that_threw_the_game_away_is_marked() -> None:
    """Haul (tests/bots_fixture_game.py): taking a -3 tile when a 5 lies beside it costs 8 points of 4 takes. The
    seat that does so on its last take, in a game it was winning, is marked there."""
    import bots_fixture_game  # noqa: F401 (registers Haul)

    rng = random.Random(11)
    for _attempt in range(200):
        state = get_game("haul-fixture").new_initial_state(2, {})
        blunder: int | None = None
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            row = list(state.row)  # type: ignore[attr-defined]
            takes = [a for a in legal if a < len(row) and row[a] is not None]
            if blunder is None and player == 0 and -3 in row and 5 in row and len(state.history) > 12:
                blunder = len(state.history)
                state.apply(row.index(-3))
                continue
            state.apply(max(takes, key=lambda a: row[a]) if takes else legal[0])
        if blunder is not None:
            break
    assert blunder is not None, "no position with a -3 beside a 5 came up"
    made = review("haul-fixture", 2, {}, list(state.history), iterations=400)
    (move,) = [m for m in made["moves"] if m["ply"] == blunder]
    assert move["best"] != move["played"] and move["drop"] >= MARK_DROP and move["marked"]


def test_the_search_of_a_review_reads_only_what_the_mover_knew() -> None:
    """Two positions of the proof game its seat cannot tell apart (other hands or bids differ) get the same
    estimates and choice, and so do the positions after the move while the seat still cannot tell them apart (a
    move that ends the bidding shows every bid): the search draws its worlds from the seat's information state
    alone, and seeds its draws from it."""
    compared_after = 0
    for index, (true, twin) in enumerate(_positions_with_a_twin(3, 12, seed=5)):
        seat = true.current_player()
        config = MCTSConfig(iterations=40)
        found = MCTSBot("mcts:review", seed=index, config=config).analyse(true)
        again = MCTSBot("mcts:review", seed=index, config=config).analyse(twin)
        assert (found.action, found.values) == (again.action, again.values)
        assert found.action in true.legal_actions() and len(found.values) == 3
        # After the move, from the same seat's point of view (a chance node, an other seat's turn or the end).
        true.apply(found.action)
        twin.apply(found.action)
        if true.is_terminal() or true.information_state_string(seat) != twin.information_state_string(seat):
            continue
        compared_after += 1
        assert MCTSBot("mcts:review", seed=index, config=config).analyse(true, perspective=seat).values == (
            MCTSBot("mcts:review", seed=index, config=config).analyse(twin, perspective=seat).values
        )
    assert compared_after >= 4


def test_a_whole_game_with_hidden_information_is_reviewed() -> None:
    actions = played_game("proof", ["mcts:easy", "random", "greedy"], seed=2)
    made = review("proof", 3, {}, actions, iterations=30)
    assert len(made["moves"]) == decisions("proof", 3, {}, actions) > 0
    assert {m["seat"] for m in made["moves"]} == {0, 1, 2}


@pytest.fixture(scope="module")
def vikingatid_game() -> list[int]:
    """A 4-player Vikingatid game between random bots: the longest kind of game there is to review."""
    return played_game("vikingatid", ["random"] * 4, seed=1)


def test_a_long_game_is_reviewed_at_every_nth_decision_evenly_through_the_game(vikingatid_game: list[int]) -> None:
    total = decisions("vikingatid", 4, {}, vikingatid_game)
    assert total > MOST_DECISIONS  # the budget, not the game, decides how many are looked at
    told: list[tuple[int, int, int]] = []
    made = review(
        "vikingatid", 4, {}, vikingatid_game, iterations=1, progress=lambda d, p, m: told.append((d, p, len(m)))
    )
    every = made["every"]
    assert every == -(-total // MOST_DECISIONS) and made["decisions"] == total and made["complete"]
    assert made["reviewed"] == len(made["moves"]) == -(-total // every) <= MOST_DECISIONS
    state = get_game("vikingatid").new_initial_state(4, {})
    chosen = []
    for ply, action in enumerate(vikingatid_game):
        if state.current_player() >= 0 and len(state.legal_actions()) > 1:
            chosen.append(ply)
        state.apply(action)
    assert [m["ply"] for m in made["moves"]] == chosen[::every]
    assert [done for done, _, _ in told] == list(range(1, made["reviewed"] + 1))
    assert all(planned == made["reviewed"] and count == done for done, planned, count in told)


def test_a_review_that_runs_out_of_time_stops_where_it_is_and_says_so(vikingatid_game: list[int]) -> None:
    made = review("vikingatid", 4, {}, vikingatid_game, iterations=20, seconds=0.5)
    assert made["complete"] is False
    assert 0 < made["reviewed"] == len(made["moves"]) < -(-made["decisions"] // made["every"])
    assert [m["ply"] for m in made["moves"]] == sorted(m["ply"] for m in made["moves"])
