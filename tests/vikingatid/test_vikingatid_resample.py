"""The resampler's search (`skald.games.vikingatid.resample`): its look ahead may turn the search back only from
choices that lead nowhere, so it must never turn away from the true deal, which is always one that fits."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from vikingatid_kit import GAME

from skald.engine import CHANCE
from skald.games.vikingatid import resample as R
from skald.games.vikingatid.state import VikingatidState


def random_game(players: int, seed: int, plies: int) -> VikingatidState:
    state = GAME.new_initial_state(players)
    rng = random.Random(seed)
    while len(state.history) < plies and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def recorded_game(name: str) -> tuple[VikingatidState, int]:
    data = json.loads((Path(__file__).parent / "records" / name).read_text())
    state = GAME.new_initial_state(data["players"])
    for action in data["actions"]:
        state.apply(action)
    return state, data["seat"]


def true_choices_turned_away(state: VikingatidState, seat: int) -> list[str]:
    """Follows the true deal as the search would see it (the seat's gifts are its known cards; a seen use takes a
    known card of its kind if the hand holds one, as the search does; an unseen gift passes the true card, a joker
    where the giver's hand holds a drawn card of that kind) and returns every step the look ahead refuses."""
    moves = list(state.card_moves)
    seen = [m.kind if R.seen_by(m, seat) else -1 for m in moves]
    planner = R._Planner(moves, seen, R._decks(moves, seen, state.deck.counts, seat), state.num_players, seat)
    lookahead = planner.lookahead
    hands: list[list[tuple[int, bool]]] = [[] for _ in range(state.num_players)]  # (kind, known to the seat)
    used = [0] * len(planner.room)
    refused = []
    for index, move in enumerate(moves):
        if move.verb == R.DRAWN:
            if move.seat != seat:
                hands[move.seat].append((move.kind, False))
            continue
        if move.seat == seat:
            if move.verb == R.GIVEN:
                hands[move.other].append((move.kind, True))
            continue
        hand = hands[move.seat]
        hidden = seen[index] < 0
        known_first = (move.kind, not hidden) in hand
        token = (move.kind, not hidden) if known_first else (move.kind, hidden)
        giver_kinds = {kind for kind, known in hand if known}
        hand.remove(token)
        if not token[1] and not hidden:
            used[move.kind] += 1
        if move.verb == R.GIVEN and move.other != seat:
            hands[move.other].append(token)
        if not hidden:
            continue
        known = [(player, kind) for player in range(state.num_players) for kind, k in hands[player] if k]
        for player in (move.seat, move.other):
            if not lookahead.hand_ok(player, index + 1, known):
                refused.append(f"move {index}: hand of player {player}")
        for kind in giver_kinds:
            if not lookahead.kind_ok(kind, index + 1, known, used[kind], planner.room[kind]):
                refused.append(f"move {index}: kind {kind}")
    return refused


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (4, 3), (5, 3), (6, 4)])
def test_the_look_ahead_never_turns_away_from_the_true_deal_in_random_games(players: int, seed: int) -> None:
    state = random_game(players, seed, 3000)
    assert sum(1 for m in state.card_moves if m.verb == R.GIVEN) > 20
    for seat in range(players):
        assert true_choices_turned_away(state, seat) == []


def test_the_look_ahead_never_turns_away_from_the_true_deal_when_whole_hands_are_passed_on() -> None:
    for name in ("forward_search_stuck.json", "whole_hands_passed_on.json"):
        state, seat = recorded_game(name)
        for viewer in {seat, 0, 2}:
            assert true_choices_turned_away(state, viewer) == []


def planner_for_seat_zero(moves: list[R.CardMove], counts: tuple[int, ...]) -> R._Planner:
    """The plan search for seat 0 of a 3-player table, over hand-made card moves."""
    seen = [m.kind if R.seen_by(m, 0) else -1 for m in moves]
    return R._Planner(moves, seen, R._decks(moves, seen, counts, 0), 3, 0)


def test_a_gift_that_leaves_its_receiver_nothing_to_play_with_is_turned_away() -> None:
    """Seat 0 gives player 1 a card of kind 5; player 1 passes a card unseen to player 2, who then plays a 7, and
    player 1 plays a 5. Had the gift been the 5, player 2 would hold only that 5 when he plays his 7: the look ahead
    refuses it at once, and the deal's gift is the 7."""
    moves = [
        R.CardMove(0, R.DRAWN, 0, -1, 5),
        R.CardMove(1, R.DRAWN, 1, -1, 7),
        R.CardMove(2, R.GIVEN, 0, 1, 5),
        R.CardMove(3, R.GIVEN, 1, 2, 7),
        R.CardMove(4, R.PLAYED, 2, -1, 7),
        R.CardMove(5, R.PLAYED, 1, -1, 5),
    ]
    counts = tuple(2 for _ in range(10))
    lookahead = planner_for_seat_zero(moves, counts).lookahead
    assert not lookahead.hand_ok(2, 4, [(2, 5)])
    assert lookahead.hand_ok(2, 4, [(1, 5)]) and lookahead.hand_ok(1, 4, [(1, 5)])
    assert R.deal(moves, counts, 3, 0, random.Random(0))[3] == 7


def test_a_gift_that_strands_the_only_card_of_a_kind_someone_must_play_is_turned_away() -> None:
    """The deck holds one card of kind 5 and the seat drew it and gave it to player 1, who passes a card unseen to
    player 2; player 2 then plays a 5. Only the seat's card can be that 5 (no draw can have been one), so the gift
    was the 5: the look ahead refuses a joker passed instead, and the deal's gift is the 5."""
    moves = [
        R.CardMove(0, R.DRAWN, 0, -1, 5),
        R.CardMove(1, R.DRAWN, 1, -1, 7),
        R.CardMove(2, R.DRAWN, 2, -1, 8),
        R.CardMove(3, R.GIVEN, 0, 1, 5),
        R.CardMove(4, R.GIVEN, 1, 2, 5),
        R.CardMove(5, R.PLAYED, 2, -1, 5),
        R.CardMove(6, R.PLAYED, 1, -1, 7),
        R.CardMove(7, R.PLAYED, 2, -1, 8),
    ]
    counts = tuple(1 if kind == 5 else 2 for kind in range(10))
    planner = planner_for_seat_zero(moves, counts)
    assert planner.room[5] == 0
    assert not planner.lookahead.kind_ok(5, 5, [(1, 5)], 0, 0)
    assert planner.lookahead.kind_ok(5, 5, [(2, 5)], 0, 0)
    assert R.deal(moves, counts, 3, 0, random.Random(0))[4] == 5


def test_restarts_follow_the_luby_sequence() -> None:
    assert [R._luby(n) for n in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_a_largest_matching_is_found_where_the_first_choice_must_be_undone() -> None:
    # Left 0 may take right 0 or 1, left 1 only right 0: both are matched only if left 0 gives up right 0.
    assert R._matching([[0, 1], [0]], 2) == 2
    assert R._matching([[0], [0]], 2) == 1
