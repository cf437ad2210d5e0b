"""The proof game's rules (examples/proof_game): the deal, the secret bid, the tricks, scoring, and what each viewer
may see of it. It exists to prove the hidden-information contract, so its views are tested as hard as its rules."""

from __future__ import annotations

import json
import random

import pytest

from proof_game import actions as A
from proof_game import subprocess_env
from proof_game.game import GAME
from proof_game.state import ProofState
from skald.engine import CHANCE, TERMINAL, IllegalAction, Record, get_game, play_random_game


def dealt(players: int, hands: list[list[int]]) -> ProofState:
    """A game whose deal gave each seat the cards listed, in that order."""
    state = GAME.new_initial_state(players)
    for k in range(A.HAND_SIZE * players):
        state.apply(A.deal(hands[k % players][k // players]))
    return state


def bid_all(state: ProofState, bids: list[int]) -> ProofState:
    """Every seat bids, in seat order."""
    for tricks in bids:
        state.apply(A.bid(tricks))
    return state


def snapshot(state: ProofState) -> str:
    """Everything the state holds, as text."""
    return json.dumps({k: v for k, v in vars(state).items() if k != "game"}, sort_keys=True)


def test_the_game_is_registered_as_proof_with_imperfect_information():
    assert get_game("proof") is GAME
    assert GAME.information == "imperfect"
    assert (GAME.min_players, GAME.max_players) == (2, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deck_holds_four_cards_per_player_each_dealt_with_equal_odds(players):
    outcomes = GAME.new_initial_state(players).chance_outcomes()
    assert [A.value_of(a) for a, _ in outcomes] == list(range(1, 4 * players + 1))
    assert {p for _, p in outcomes} == {1 / (4 * players)}


def test_chance_deals_three_cards_to_each_seat_one_at_a_time_in_seat_order():
    state = GAME.new_initial_state(3)
    receivers = []
    while state.current_player() == CHANCE:
        receivers.append(state.receiver())
        state.apply(state.legal_actions()[0])
    assert receivers == [0, 1, 2] * 3
    assert state.hands == [[1, 4, 7], [2, 5, 8], [3, 6, 9]]
    assert state.current_player() == 0


def test_a_dealt_card_is_seen_by_its_receiver_alone():
    state = GAME.new_initial_state(3)
    state.apply(A.deal(7))  # to seat 0
    assert state.observation(0)["hand"] == [7]
    assert state.observation(1)["hand"] == []
    assert "hand" not in state.observation(None)
    assert "7" not in state.render_text(seat=1) and "7" not in state.render_text(seat=None)
    assert "7" in state.render_text(seat=0)


def test_a_deal_is_notated_for_the_receiver_and_hidden_from_everyone_else():
    state = GAME.new_initial_state(3)
    state.apply(A.deal(3))
    action = A.deal(7)  # to seat 1
    assert state.notation_for(action, 1) == "you are dealt 7"
    assert state.notation_for(action, 0) == "seat 2 is dealt a card"
    assert state.notation_for(action, None) == "seat 2 is dealt a card"
    assert [state.action_hidden_from(action, v) for v in (0, 1, 2, None)] == [True, False, True, True]


def test_a_bid_is_hidden_from_the_others_until_every_seat_has_bid_then_all_bids_are_public():
    state = dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    state.apply(A.bid(2))
    assert state.observation(0)["bids"] == [2, None, None]
    assert state.observation(1)["bids"] == [None, None, None]
    assert state.observation(None)["bids"] == [None, None, None]
    assert state.observation(1)["bid_made"] == [True, False, False]
    assert "bid 2" not in state.render_text(seat=1)
    assert state.notation_for(A.bid(1), 1) == "you bid 1"
    assert state.notation_for(A.bid(1), 0) == "seat 2 bids"
    assert state.action_hidden_from(A.bid(1), 0)
    state.apply(A.bid(1))
    # The last bid reveals every bid, itself included: it is hidden from nobody.
    assert not state.action_hidden_from(A.bid(0), 0)
    assert state.notation_for(A.bid(0), 0) == "bid 0"
    state.apply(A.bid(0))
    for viewer in (0, 1, 2, None):
        assert state.observation(viewer)["bids"] == [2, 1, 0]


def test_seats_bid_zero_to_three_tricks_in_seat_order():
    state = dealt(2, [[1, 2, 3], [4, 5, 6]])
    assert state.legal_actions() == [A.bid(b) for b in range(4)]
    state.apply(A.bid(3))
    assert state.current_player() == 1


def test_the_highest_card_wins_the_trick_and_its_player_leads_the_next():
    state = bid_all(dealt(3, [[1, 8, 3], [9, 2, 4], [5, 6, 7]]), [1, 1, 1])
    assert state.current_player() == 0  # seat 0 leads the first trick
    for card in (1, 9, 5):
        state.apply(A.play(card))
    assert state.tricks_won == [0, 1, 0]
    assert state.current_player() == 1  # seat 1 took it and leads
    for card in (2, 6, 8):  # seat 1, seat 2, seat 0
        state.apply(A.play(card))
    assert state.tricks_won == [1, 1, 0]
    assert state.current_player() == 0


def test_score_is_tricks_won_plus_five_for_an_exact_bid_and_the_highest_score_wins():
    # Seat 0 holds the three highest cards: it takes every trick.
    state = bid_all(dealt(2, [[8, 7, 6], [1, 2, 3]]), [3, 0])
    for card in (8, 1, 7, 2, 6, 3):
        state.apply(A.play(card))
    assert state.current_player() == TERMINAL
    assert state.scores() == [3 + 5, 0 + 5]
    assert state.winners() == [0]
    assert state.returns() == [1.0, 0.0]


def test_equal_scores_share_the_victory():
    hands = [[16, 1, 2], [15, 3, 4], [14, 5, 9], [13, 7, 8]]
    # Seat 0 takes the first trick with 16, seat 3 the second with 7, seat 2 the third with 9.
    plays = (16, 15, 14, 13, 1, 3, 5, 7, 8, 2, 4, 9)
    state = bid_all(dealt(4, hands), [1, 0, 0, 0])
    for card in plays:
        state.apply(A.play(card))
    assert state.tricks_won == [1, 0, 1, 1]
    assert state.scores() == [6, 5, 1, 1]
    assert state.winners() == [0]
    state = bid_all(dealt(4, hands), [1, 0, 1, 1])
    for card in plays:
        state.apply(A.play(card))
    assert state.scores() == [6, 5, 6, 6]
    assert state.winners() == [0, 2, 3]
    assert state.returns() == [1 / 3, 0.0, 1 / 3, 1 / 3]


@pytest.mark.parametrize(
    ("setup", "action", "rule"),
    [
        ("deal", A.play(1), "turn.step"),
        ("deal", A.bid(1), "turn.step"),
        ("deal_twice", A.deal(1), "deal.in_deck"),
        ("deal", A.deal(9), "deal.in_deck"),  # a 2-player deck holds cards 1–8
        ("bid", A.play(1), "turn.step"),
        ("bid", A.deal(5), "turn.step"),
        ("play", A.play(4), "play.in_hand"),  # seat 1's card, not seat 0's
        ("play", A.bid(0), "turn.step"),
        ("play", -1, "action.range"),
        ("play", A.NUM_ACTIONS, "action.range"),
        ("end", A.play(1), "game.over"),
    ],
)
def test_an_illegal_action_names_the_rule_and_leaves_the_state_untouched(setup, action, rule):
    state = GAME.new_initial_state(2)
    if setup == "deal_twice":
        state.apply(A.deal(1))
    if setup in ("bid", "play", "end"):
        state = dealt(2, [[1, 2, 3], [4, 5, 6]])
    if setup in ("play", "end"):
        bid_all(state, [0, 3])
    if setup == "end":
        for card in (1, 4, 5, 2, 6, 3):
            state.apply(A.play(card))
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert caught.value.rule == rule
    assert caught.value.reason
    assert snapshot(state) == before


def test_legal_actions_are_ascending_and_each_passes_the_rules():
    rng = random.Random(5)
    for players in (2, 3, 4):
        state = GAME.new_initial_state(players)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal == state.legal_actions()
            assert all(state.illegal_reason(a) is None for a in legal)
            state.apply(rng.choice(legal))


def test_every_action_has_json_and_notation_that_round_trip():
    state = GAME.new_initial_state(4)
    for action in range(A.NUM_ACTIONS):
        assert state.action_from_json(json.loads(json.dumps(state.action_to_json(action)))) == action
        assert state.action_from_notation(state.action_to_notation(action)) == action


def test_a_bare_number_is_this_steps_kind_of_action():
    state = dealt(2, [[1, 2, 3], [4, 5, 6]])
    assert state.action_from_notation("2") == A.bid(2)
    bid_all(state, [0, 0])
    assert state.action_from_notation(" 3 ") == A.play(3)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"bid": 4}, "bid"),
        ({"bid": "2"}, "bid"),
        ({"play": 9}, "play"),
        ({"play": True}, "play"),
        ({"deal": 0}, "deal"),
        ({"pass": 1}, "action"),
        ({"play": 1, "bid": 1}, "action"),
        ([1], "action"),
    ],
)
def test_bad_action_json_names_the_field(data, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        GAME.new_initial_state(2).action_from_json(data)


@pytest.mark.parametrize(
    ("text", "field"), [("bid 7", "bid"), ("play 12", "play"), ("draw 1", "notation"), ("", "notation")]
)
def test_bad_notation_names_what_was_not_understood(text, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        GAME.new_initial_state(2).action_from_notation(text)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_after_the_deal_the_bids_and_three_tricks(players):
    for seed in range(30):
        state = play_random_game(GAME.new_initial_state(players), random.Random(seed))
        assert state.is_terminal()
        assert len(state.history) == 3 * players + players + 3 * players
        assert sum(state.tricks_won) == 3
        assert state.winners()


def test_a_record_replays_and_the_seat_sees_only_its_own_deal_during_play():
    state = bid_all(dealt(2, [[1, 2, 3], [4, 5, 6]]), [1])
    record = Record.of(state)
    assert Record.from_dict(json.loads(json.dumps(record.to_dict()))).replay().information_state_string(0) == (
        state.information_state_string(0)
    )
    seen = json.dumps(record.seen_by(1))
    assert "you are dealt 4" in seen and "seat 1 is dealt a card" in seen and "seat 1 bids" in seen
    assert '"deal": 1' not in seen and '"bid": 1' not in seen


def random_position(players: int, rng: random.Random) -> ProofState:
    """A position part-way through a random game."""
    state = GAME.new_initial_state(players)
    for _ in range(rng.randrange(8 * players)):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_resampling_keeps_the_seats_information_state_and_varies_the_hidden_deal():
    rng = random.Random(3)
    varied = 0
    for _ in range(200):
        state = random_position(rng.choice([2, 3, 4]), rng)
        for seat in range(state.num_players):
            sample = state.resample_from_infostate(seat, rng)
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.observation(seat) == state.observation(seat)
            varied += sample.history != state.history
    assert varied > 100


def test_resampling_depends_only_on_the_seats_information_state_and_the_generator():
    # Seat 0 cannot tell these apart (other hands and seat 1's bid differ): same seed, same resample.
    one = bid_all(dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]), [1, 0])
    two = bid_all(dealt(3, [[1, 2, 3], [12, 5, 6], [7, 8, 4]]), [1, 3])
    assert one.information_state_string(0) == two.information_state_string(0)
    assert (
        one.resample_from_infostate(0, random.Random(9)).history
        == two.resample_from_infostate(0, random.Random(9)).history
    )


def test_resampling_deals_the_unseen_cards_to_the_other_hands_uniformly():
    state = GAME.new_initial_state(2)
    state.apply(A.deal(1))  # seat 0 holds 1; seat 1 is dealt one of 2–8
    state.apply(A.deal(5))
    rng = random.Random(1)
    counts = {card: 0 for card in range(2, 9)}
    for _ in range(7000):
        counts[state.resample_from_infostate(0, rng).hands[1][0]] += 1
    assert all(850 < count < 1150 for count in counts.values()), counts


def test_a_card_another_seat_played_stays_in_its_hand_when_resampling():
    state = bid_all(dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]), [0, 1, 2])
    state.apply(A.play(1))
    state.apply(A.play(4))
    rng = random.Random(0)
    for _ in range(50):
        sample = state.resample_from_infostate(2, rng)
        assert 4 in sample.dealt[1] and 1 in sample.dealt[0]
        assert sample.hands[2] == state.hands[2]


def views(state: ProofState, seat: int | None) -> list[object]:
    """Everything `seat` is shown of a position."""
    return [
        state.observation(seat),
        state.information_state_string(seat),
        state.render_text(seat=seat),
        state.render_text(color=True, seat=seat),
        GAME.render_svg(state, seat),
        Record.of(state).seen_by(seat),
    ]


@pytest.mark.parametrize("viewer", [1, 2, None])
def test_two_deals_that_differ_only_in_another_seats_card_look_the_same_to_whoever_cannot_see_it(viewer):
    one = dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    two = dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 10]])
    # Seat 0's 2nd deal is the 4th action; the 3rd card of seat 2 differs.
    assert one.history != two.history
    assert views(one, viewer if viewer != 2 else 1) == views(two, viewer if viewer != 2 else 1)
    assert views(one, 2) != views(two, 2)
    last = GAME.new_initial_state(3)
    for action in one.history[:-1]:
        last.apply(action)
    assert last.notation_for(one.history[-1], 0) == last.notation_for(two.history[-1], 0)
    assert last.notation_for(one.history[-1], None) == last.notation_for(two.history[-1], None)


def test_two_histories_that_differ_only_in_a_hidden_bid_look_the_same_to_the_others_until_the_bids_are_shown():
    one = bid_all(dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]), [0])
    two = bid_all(dealt(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]), [3])
    for viewer in (1, 2, None):
        assert views(one, viewer) == views(two, viewer)
    assert views(one, 0) != views(two, 0)


def test_the_observation_tensor_has_the_games_shape_and_hides_the_others_hands():
    for players in (2, 3, 4):
        state = random_position(players, random.Random(players))
        assert len(state.observation_tensor(0)) == GAME.observation_tensor_shape(players)[0]
    one = dealt(2, [[1, 2, 3], [4, 5, 6]])
    two = dealt(2, [[1, 2, 3], [8, 7, 6]])
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert one.observation_tensor(1) != two.observation_tensor(1)


def test_the_svg_offers_the_viewers_own_cards_as_targets_only_when_it_plays():
    state = bid_all(dealt(2, [[1, 2, 3], [4, 5, 6]]), [0, 0])
    svg = GAME.render_svg(state, 0)
    assert svg.count("data-action") == 3 and "{&quot;play&quot;:2}" in svg
    assert "data-action" not in GAME.render_svg(state, 1)
    assert ">4<" not in GAME.render_svg(state, 0) and ">4<" in GAME.render_svg(state, 1)


def test_the_presentation_prompts_the_step_and_says_what_a_play_does():
    state = dealt(2, [[1, 5, 3], [4, 2, 6]])
    presentation = GAME.presentation
    assert "bid" in presentation.prompt(state)
    bid_all(state, [0, 0])
    assert presentation.click_hint(state)
    state.apply(A.play(5))
    assert presentation.describe(state, A.play(6)) == "takes the lead"
    assert presentation.describe(state, A.play(4)) == "does not beat 5"


def test_subprocess_env_lets_a_skald_subprocess_find_the_proof_game():
    env = subprocess_env()
    assert env["SKALD_GAMES"].split(",")[-1] == "proof_game"
    assert any(path.endswith("examples") for path in env["PYTHONPATH"].split(":"))
