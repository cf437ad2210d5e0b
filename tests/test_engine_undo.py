"""Taking steps back under Board Game Arena's policy (`skald.engine.undo`): a seat takes back its own steps until
another seat acts or something hidden or random is revealed, in each game and the proof game."""

from __future__ import annotations

import random

from proof_game import actions as A
from proof_game.game import GAME as PROOF
from skald.engine import CHANCE, State, get_game, step_of, steps_of, take_back
from skald.engine.undo import DRAWN, OTHER, REVEALED, START, Step
from skald.games.vikingatid.actions import DRAW, PLAY_CARD


def first_decision(state: State, rng: random.Random) -> State:
    """Play chance (and only chance) until a seat decides."""
    while state.current_player() == CHANCE:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_vikings_seat_takes_back_its_purchase_and_placement_but_not_past_the_draws():
    state = first_decision(get_game("vikings").new_initial_state(2), random.Random(1))
    seat = state.current_player()
    assert take_back(steps_of(state), seat).stop == DRAWN  # nothing of his yet: the offer was drawn
    state.apply(state.legal_actions()[0])  # buy a Group
    state.apply(state.legal_actions()[0])  # place its tile
    assert state.current_player() == seat
    rule = take_back(steps_of(state), seat)
    assert (rule.plies, rule.most) == (1, 2)  # the placement alone, or the purchase with it
    assert rule.stop == DRAWN and rule.by is None
    assert "chance has drawn since (draw viking" in rule.refusal(["Ann", "Bo"], "draw viking G")


def test_a_vikings_seat_may_not_take_back_past_the_other_seats_move():
    state = first_decision(get_game("vikings").new_initial_state(2), random.Random(1))
    first = state.current_player()
    while state.current_player() == first:
        state.apply(state.legal_actions()[0])
    second = state.current_player()
    state.apply(state.legal_actions()[0])
    assert take_back(steps_of(state), first).plies == 0
    rule = take_back(steps_of(state), first)
    assert rule.stop == OTHER and rule.by == second and rule.at == len(state.history) - 1
    assert rule.refusal(["Ann", "Bo"], "buy 3").startswith(f"{['Ann', 'Bo'][second]} has moved since (buy 3)")
    assert take_back(steps_of(state), second).plies == 1


def test_answers_the_table_gave_go_back_with_the_decision_before_them_never_alone():
    steps = [Step(CHANCE, True), Step(0, False), Step(0, False), Step(0, False)]
    assert take_back(steps, 0, given={3}).plies == 2  # the decision at ply 2 and the answer given at ply 3
    assert take_back(steps, 0, given={1, 2, 3}).plies == 0  # only given answers: nothing to take back
    assert take_back(steps, 0, given={1, 2, 3}).stop == DRAWN
    assert take_back([Step(0, False)], 0).stop == START


def test_a_vikingdoms_seat_takes_back_only_its_own_steps():
    rng = random.Random(3)
    state = first_decision(get_game("vikingdoms").new_initial_state(2), rng)
    for _ in range(30):
        seat = state.current_player()
        steps = steps_of(state)
        rule = take_back(steps, seat)
        # Vikingdoms hides nothing: whatever stops the run is chance or the other seat, never a reveal.
        assert rule.stop in (DRAWN, OTHER, START)
        assert all(step.actor == seat for step in steps[len(steps) - rule.most :])
        state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            break


def test_vikingatid_cards_played_and_the_last_sealed_pledge_reveal_and_a_journey_does_not():
    game = get_game("vikingatid")
    rng = random.Random(4)
    seen = {"card": False, "other": False}
    for _ in range(6):
        state = game.new_initial_state(3, {"election_bids": "sealed"})
        while not state.is_terminal() and len(state.history) < 1500:
            action = rng.choice(state.legal_actions())
            step = step_of(state, action)
            if state.current_player() == CHANCE:
                assert step.reveals
            elif PLAY_CARD <= action < DRAW:
                assert step.reveals
                seen["card"] = True
            elif not step.reveals:
                seen["other"] = True
            state.apply(action)
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def test_a_proof_game_card_played_and_the_last_bid_reveal_and_an_earlier_bid_does_not():
    state = PROOF.new_initial_state(2)
    rng = random.Random(5)
    state = first_decision(state, rng)
    assert not step_of(state, A.bid(1)).reveals  # hidden from the other seat, which bids next
    state.apply(A.bid(1))
    assert step_of(state, A.bid(0)).reveals  # the last bid shows them all
    state.apply(A.bid(0))
    card = next(a for a in state.legal_actions() if A.kind_of(a) == "play")
    assert step_of(state, card).reveals
    state.apply(card)
    steps = steps_of(state)
    rule = take_back(steps, steps[-1].actor)
    assert rule.plies == 0 and rule.stop == REVEALED
    assert "revealed what was hidden" in rule.refusal(["Ann", "Bo"], "play 3")


def test_by_default_a_perfect_information_game_reveals_nothing_and_an_imperfect_one_everything():
    vikings = first_decision(get_game("vikings").new_initial_state(2), random.Random(1))
    assert not State.action_reveals(vikings, vikings.legal_actions()[0])
    proof = first_decision(PROOF.new_initial_state(2), random.Random(1))
    assert State.action_reveals(proof, proof.legal_actions()[0])
