"""Every Vikingdoms game ends (rule option `termination`; docs/vikingdoms.md, "Every game ends"): a repeated
recruitment position or a recruitment of 100 turns ends the recruitment as both passing would, or the game, or a
cap on all actions ends it; a ranking function bounds every game by `MAX_GAME_LENGTH`, which the learning adapters
read. Also the `opponent_on_top` reading and the ally check for a count that jumps from one to three."""

from __future__ import annotations

import random
from typing import Any

import pytest
from vikingdoms_kit import GAME, B, R, at_raid, board, play, tile

from skald.engine import CHANCE, sample_chance
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.options import MOVE_CAP, RECRUITMENT_CAP
from skald.games.vikingdoms.state import VikingdomsState
from skald.rl.common import max_game_length

TERMINATIONS = ("recruitment_ends", "game_ends", "move_cap")
#: The cycle of the issue: two players moving one Viking back and forth between a1 and b1.
CYCLE = ("1a1-b1", "1b1-a1")


def cycling(**options: Any) -> VikingdomsState:
    """Red to move, a1 = two Red Vikings (a rook), b1 = one Blue: 1a1-b1 and 1b1-a1 repeat the position."""
    return board({"a1": "RR", "b1": "B"}, **options)


def test_a_position_repeated_three_times_ends_the_recruitment_as_both_passing_would() -> None:
    state = cycling()
    play(state, *CYCLE, CYCLE[0])
    assert state.phase == S.RECRUITMENT and state.recruit_turns == 3
    play(state, CYCLE[1])  # the starting position for the third time
    # both_pass=tallest_troop: the tallest stack (a1, two Red Vikings) becomes the troop; Red leads.
    assert state.phase == S.TAKING and state.troop == (R, R) and state.leader == R
    assert state.completer == B and state.board[0] == ()


def test_a_repeated_position_with_both_pass_void_sets_the_island_aside() -> None:
    state = cycling(both_pass="void")
    island = state.island_tiles(state.marker)
    play(state, *CYCLE, *CYCLE)
    assert state.phase == S.RECRUITMENT and state.marker == 1 and state.recruit_turns == 0
    assert set(state.set_aside) == set(island)


def test_a_placement_starts_the_count_of_repetitions_afresh() -> None:
    state = cycling()
    play(state, *CYCLE, CYCLE[0], "d4", "c4")  # placements: no earlier position can come back
    play(state, CYCLE[1], CYCLE[0])
    assert state.phase == S.RECRUITMENT


def test_termination_game_ends_a_repeated_position_ends_the_game_scored_as_when_the_islands_run_out() -> None:
    state = cycling(termination="game_ends")
    play(state, *CYCLE, *CYCLE)
    assert state.is_terminal() and "3 times" in state.ending
    # Red drew V1 (1 coin), Blue P2 (2 coins): the wealthier player wins, as when the islands are exhausted.
    assert state.winners() == [B] and "wealthier" in state.ending


def test_termination_move_cap_the_leader_in_coins_wins_after_the_cap() -> None:
    state = cycling(termination="move_cap")
    turn = 0
    while not state.is_terminal():
        play(state, CYCLE[turn % 2])
        turn += 1
    assert len(state.history) == MOVE_CAP and state.winners() == [B]
    assert f"{MOVE_CAP} actions" in state.ending


def test_a_recruitment_ends_after_the_cap_of_turns() -> None:
    state = cycling()
    state.recruit_turns = RECRUITMENT_CAP - 1
    play(state, "c3")
    assert state.phase == S.TAKING and state.troop == (R, R)


def forms_troop(state: VikingdomsState, action: int) -> bool:
    """Whether `action` (legal here) makes a raiding troop."""
    if A.kind(action) != "move":
        return False
    _, target, count = A.move_parts(action)
    return len(state.board[target]) + count >= 6


def stubborn(state: VikingdomsState, rng: random.Random, repeat: bool = False) -> int:
    """A player who never forms a troop when he can help it, nor leaves the opponent a troop to form, and prefers
    moves to placements and new positions to seen ones (with `repeat`, seen ones: he cycles)."""
    legal = state.legal_actions()
    if state.phase != S.RECRUITMENT:
        return rng.choice(legal)
    ranked = []
    for action in legal:
        if forms_troop(state, action):
            ranked.append((True, True, 9, True, rng.random(), action))
            continue
        child = state.clone()
        child.apply(action)
        still = child.phase == S.RECRUITMENT
        gives = still and any(forms_troop(child, a) for a in child.legal_actions())
        seen = child.positions.count(child.positions[-1]) if still else 9
        seen = -seen if repeat and still else seen
        ranked.append((not still, gives, seen, A.kind(action) == "place", rng.random(), action))
    return min(ranked)[-1]


def cycler(state: VikingdomsState, rng: random.Random) -> int:
    """The stubborn player who seeks the positions already seen (the back-and-forth of the issue)."""
    return stubborn(state, rng, repeat=True)


def play_checking_the_bound(seed: int, options: dict[str, Any], chooser: Any) -> VikingdomsState:
    """Play a game; at every position, every legal action must lower `most_actions_left` by at least one."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(2, options)
    assert len(state.history) + state.most_actions_left() <= GAME.max_game_length(2, options)
    while not state.is_terminal():
        bound = state.most_actions_left()
        chance = state.current_player() == CHANCE
        for action in [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions():
            child = state.clone()
            child.apply(action)
            assert 0 <= child.most_actions_left() < bound, (state.phase, state.action_to_notation(action))
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(chooser(state, rng))
        assert state.recruit_turns <= RECRUITMENT_CAP
    assert state.most_actions_left() == 0 and len(state.history) <= GAME.max_game_length(2, options)
    return state


@pytest.mark.parametrize("termination", TERMINATIONS)
def test_no_sequence_of_legal_actions_outlasts_the_documented_bound(termination: str) -> None:
    """The ranking function `most_actions_left` starts at most at `MAX_GAME_LENGTH`, is never negative and drops
    with every legal action (checked for every action at every position of random and stubborn games): so no
    sequence of legal actions is longer than `MAX_GAME_LENGTH`."""
    assert GAME.new_initial_state(2).most_actions_left() == S.MAX_GAME_LENGTH == GAME.max_game_length(2)
    lengths = []
    for seed in range(2):
        for chooser in (lambda s, r: r.choice(s.legal_actions()), stubborn, cycler):
            options = {"termination": termination, "undo_ban": seed == 1, "opponent_on_top": "forbidden"}
            lengths.append(len(play_checking_the_bound(seed, options, chooser).history))
    assert max(lengths) <= S.MAX_GAME_LENGTH


def test_players_who_avoid_every_troop_are_stopped_by_the_termination_rule_and_the_game_still_ends() -> None:
    """Cycling players who steer clear of troops (and of the third repetition) run into the cap of turns."""
    stalls = 0
    for seed in range(2):
        state = GAME.new_initial_state(2)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            before, action = state.phase, cycler(state, rng)
            ends = before == S.RECRUITMENT and (forms_troop(state, action) or action == A.PASS)
            turns = state.recruit_turns
            state.apply(action)
            # A recruitment that ended by a placement or a move forming no troop: the termination rule ended it.
            if before == S.RECRUITMENT and not ends and state.phase != S.RECRUITMENT:
                stalls += 1
                assert turns + 1 == RECRUITMENT_CAP
        assert len(state.history) <= S.MAX_GAME_LENGTH
    assert stalls >= 1


def test_the_learning_adapters_read_the_bound_from_the_game() -> None:
    assert max_game_length(GAME, 2) == S.MAX_GAME_LENGTH
    assert MOVE_CAP <= S.MAX_GAME_LENGTH


def test_the_declared_bound_is_the_move_cap_under_termination_move_cap() -> None:
    """Under `move_cap` the game declares the cap (300), the bound its ranking function starts from; under the other
    terminations the bound of the ranking function over five raids (559)."""
    assert GAME.max_game_length(2, {"termination": "move_cap"}) == MOVE_CAP == 300
    assert GAME.new_initial_state(2, {"termination": "move_cap"}).most_actions_left() == MOVE_CAP
    assert max_game_length(GAME, 2, {"termination": "move_cap"}) == MOVE_CAP
    for termination in ("recruitment_ends", "game_ends"):
        assert GAME.max_game_length(2, {"termination": termination}) == S.MAX_GAME_LENGTH == 559


# -- opponent_on_top --------------------------------------------------------------------------------------------

#: Red to move: a1 holds three Vikings topped by Blue, b3 (a knight's jump away) holds three. Moving all three
#: forms a troop of six with Blue's Viking on top; no stack is topped by Red, so he cannot form one of his own.
OPPONENT_TOP = {"a1": "RRB", "b3": "BBB"}


def test_opponent_on_top_allowed_a_troop_may_be_topped_by_the_opponents_viking() -> None:
    state = board(OPPONENT_TOP)
    play(state, "3a1-b3")
    assert state.phase == S.TAKING and state.leader == B


def test_opponent_on_top_forbidden_only_freyas_owner_may_top_a_troop_with_the_opponents_viking() -> None:
    state = board(OPPONENT_TOP, opponent_on_top="forbidden")
    move = state.action_from_notation("3a1-b3")
    assert move not in state.legal_actions()
    error = state.illegal_reason(move)
    assert error is not None and "opponent_on_top" in error.rule
    assert state.action_from_notation("2a1-b3") in state.legal_actions()  # five: no troop yet
    state.allies[A.FREYA] = R
    assert move in state.legal_actions()


# -- the ally check --------------------------------------------------------------------------------------------


def test_a_village_count_from_one_to_three_in_one_raid_brings_an_ally() -> None:
    """Blue holds V1, gets V2 from the island and V4 by the riot: he collected his second village on the way."""
    state = at_raid(("V4", "Fm"), ("V1", "F2"), ("P3", "V2"), "BBBRRR")
    play(state, "take P3", "riot V4")
    assert state.count(B, "village") == 3
    assert state.phase == S.CHOOSING_ALLY and state.current_player() == B
    assert state.pending_allies == ((B, "village"),)
    assert tile("V4") in state.territory[B]
