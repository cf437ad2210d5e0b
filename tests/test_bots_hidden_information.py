"""Bots see only their information state: on the proof game, a hidden-hand card game.

A bot's choice depends only on its seed and what its seat knows: two positions that seat cannot tell apart (equal
information-state strings, different hidden cards or bids of another seat) give the same choice. MCTS searches
sampled determinizations (information-set MCTS) and still plays clearly better than random.
"""

from __future__ import annotations

import random

import pytest

from proof_game import actions as A
from proof_game.game import GAME
from skald.bots import MCTSBot, MCTSConfig, make_bot
from skald.bots.mcts import _InfoNode, _Scale
from skald.engine import CHANCE, Game, State, get_game, sample_chance
from skald.sim import TournamentConfig, play_game, run_tournament

SPECS = ["random", "greedy", "mcts:easy", "mcts:iters=30:depth=none"]


def _deal(state: State, cards: list[int]) -> State:
    """Deal `cards` in order (the k-th goes to seat k mod players)."""
    for card in cards:
        state.apply(A.deal(card))
    return state


def _hidden_part(state: State) -> tuple[object, ...]:
    """Everything of a proof position the seats may hide from one another: each hand dealt, and each bid."""
    return tuple(tuple(hand) for hand in state.dealt) + tuple(state.bids)  # type: ignore[attr-defined]


def _positions_with_a_twin(players: int, count: int, seed: int) -> list[tuple[State, State]]:
    """Positions reached by random play where a seat acts, each with a twin that seat cannot tell apart but whose
    hidden part (another seat's cards or bid) differs."""
    rng = random.Random(seed)
    pairs: list[tuple[State, State]] = []
    while len(pairs) < count:
        state = GAME.new_initial_state(players)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.3 and len(pairs) < count:
                for _ in range(50):
                    twin = state.resample_from_infostate(player, rng)
                    if _hidden_part(twin) != _hidden_part(state):
                        pairs.append((state.clone(), twin))
                        break
            state.apply(rng.choice(state.legal_actions()))
    return pairs


def test_the_twin_positions_differ_only_in_what_the_acting_seat_cannot_see() -> None:
    for true, twin in _positions_with_a_twin(3, 20, seed=1):
        seat = true.current_player()
        assert twin.current_player() == seat
        assert twin.information_state_string(seat) == true.information_state_string(seat)
        assert twin.history != true.history
        assert twin.observation(seat) == true.observation(seat)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_bot_chooses_alike_in_positions_its_seat_cannot_tell_apart(spec: str, players: int) -> None:
    for index, (true, twin) in enumerate(_positions_with_a_twin(players, 12, seed=players)):
        bot = make_bot(spec, seed=index)
        choice = bot.step(true)
        assert choice in true.legal_actions()
        assert make_bot(spec, seed=index).step(twin) == choice, (spec, true.history, twin.history)


def test_a_bidder_who_cannot_see_the_other_hand_or_bid_bids_alike() -> None:
    # Two players, deck 1–8, dealt alternately from seat 0: seat 1 holds 4, 5, 6 in both worlds; seat 0 holds 7, 8, 1
    # and bid 0 in one, 2, 3, 1 and bid 3 in the other. Seat 0 bids first, so seat 1 bids with that bid hidden.
    worlds = []
    for (first, second), secret_bid in (((7, 8), 0), ((2, 3), 3)):
        state = _deal(GAME.new_initial_state(2), [first, 4, second, 5, 1, 6])
        state.apply(A.bid(secret_bid))
        worlds.append(state)
    assert worlds[0].information_state_string(1) == worlds[1].information_state_string(1)
    assert worlds[0].information_state_string(0) != worlds[1].information_state_string(0)
    for spec in SPECS:
        for seed in range(5):
            assert make_bot(spec, seed).step(worlds[0]) == make_bot(spec, seed).step(worlds[1]), (spec, seed)


def test_a_bot_leaves_the_position_it_is_asked_about_unchanged() -> None:
    for true, _twin in _positions_with_a_twin(2, 6, seed=9):
        before = (list(true.history), _hidden_part(true), true.information_state_string(None))
        for spec in SPECS:
            make_bot(spec, 4).step(true)
        assert (list(true.history), _hidden_part(true), true.information_state_string(None)) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_whole_proof_games_legally(players: int) -> None:
    # `play_game` applies each choice through `State.apply`, which raises IllegalAction for an illegal one.
    config = TournamentConfig(game="proof", bots=tuple(SPECS), num_players=players, games=8, seed=players)
    for task in config.tasks():
        result = play_game(task)
        assert result.plies == 3 * players + players + 3 * players
        assert len(result.winners) >= 1


def test_information_set_mcts_beats_random_clearly_at_proof() -> None:
    # 120 two-player games with seats alternating and a fixed seed: ISMCTS (easy, 100 iterations) wins about 75%
    # (measured 0.67–0.78 over 60-game runs with other seeds); a search no better than chance wins about half.
    result = run_tournament(
        TournamentConfig(game="proof", bots=("mcts:easy", "random"), num_players=2, games=120, seed=0), workers=1
    )
    share = {entrant.name: entrant.win_rate for entrant in result.entrants}
    assert share["mcts:easy"] > 0.6, share
    assert share["mcts:easy"] > share["random"]


def _search_tree(state: State, player: int, iterations: int) -> _InfoNode:
    """The information-set tree `mcts` grows from `state` for `player` in `iterations` iterations."""
    bot = MCTSBot("mcts", 3, MCTSConfig(iterations=iterations))
    root, rng, scale = _InfoNode(state.num_players), random.Random(3), _Scale(1.0)
    for _ in range(iterations):
        bot._iterate_information_sets(root, state.resample_from_infostate(player, rng), player, rng, scale)
    return root


def test_information_set_search_merges_the_moves_its_seat_cannot_see_into_one_edge() -> None:
    # Three players; seat 0 bids first, then seat 1 bids secretly, then seat 2's bid reveals all (Cowling et al.
    # 2012: moves the searching seat cannot tell apart are one edge). Below each of seat 0's bids, seat 1's four
    # possible bids are one edge, "seat 2 bids", and seat 2's revealing bids are edges of their own.
    state = _deal(GAME.new_initial_state(3), [1, 2, 3, 4, 5, 6, 7, 8, 9])
    root = _search_tree(state, 0, 400)
    assert sorted(root.children) == [A.bid(tricks) for tricks in range(A.MAX_BID + 1)]
    for own_bid in root.children.values():
        assert list(own_bid.children) == ["seat 2 bids"]
        for node in own_bid.children.values():
            assert all(isinstance(edge, int) and A.kind_of(edge) == "bid" for edge in node.children)


def test_information_set_search_counts_every_sibling_available_when_it_expands() -> None:
    # SO-ISMCTS backpropagation: each child legal in an iteration's determinization gains an availability, also in
    # the iterations that expand one of its siblings. At the root every bid is legal every time, so the bid expanded
    # in iteration k has been available in iterations k..N: N - k + 1 times.
    state = _deal(GAME.new_initial_state(2), [1, 2, 3, 4, 5, 6])
    iterations = 50
    root = _search_tree(state, 0, iterations)
    assert len(root.children) == A.MAX_BID + 1
    assert sorted(child.available for child in root.children.values()) == [47, 48, 49, 50]


def test_information_set_search_passes_through_a_decision_its_seat_sees_as_forced() -> None:
    # Seat 1's secret bid is one edge for seat 0 ("seat 2 bids"): nothing is chosen there as seat 0 sees it, so no
    # iteration ends on it; each one that reaches it goes on to seat 2's bid, and its visits are its children's.
    state = _deal(GAME.new_initial_state(3), [1, 2, 3, 4, 5, 6, 7, 8, 9])
    root = _search_tree(state, 0, 400)
    merged = [node for own_bid in root.children.values() for node in own_bid.children.values()]
    assert merged and all(node.visits >= 2 for node in merged)
    assert all(node.visits == sum(child.visits for child in node.children.values()) for node in merged)
    # Seat 1 bids in every determinization that reaches it, so its one edge was available every time it was taken.
    assert all(node.available == node.visits for node in merged)


def test_the_default_rollout_move_is_the_uniform_draw_searches_always_made() -> None:
    # Games without a rollout policy of their own (Vikings, Vikingdoms, proof) roll out exactly as before the hook:
    # the same draw from the same generator as `random.Random.choice`.
    for name in ("vikings", "vikingdoms"):
        assert type(get_game(name)).rollout_action is Game.rollout_action, name
    legal = [4, 9, 13, 20, 31]
    ours, theirs = random.Random(8), random.Random(8)
    state = GAME.new_initial_state(2)
    assert [GAME.rollout_action(state, legal, ours) for _ in range(200)] == [theirs.choice(legal) for _ in range(200)]
