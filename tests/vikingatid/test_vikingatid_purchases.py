"""Phase 5, "Buying Ships", and "Pulling down camps" (rule text; VA-43, VA-06)."""

from __future__ import annotations

import random

import pytest
from vikingatid_kit import SPACE, at_phase, play_phase_randomly, position_for

from skald.engine import IllegalAction
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import AMOUNT, DONE
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.state import VikingatidState


def amount(n: int) -> int:
    """The id of an amount."""
    return AMOUNT + n - 1


def buying(position: Position, **options: str) -> VikingatidState:
    """A state at the start of phase 5 on `position`."""
    return at_phase(position, S.BUYING_SHIPS, **options)


def with_silver(position: Position, *silver: int) -> Position:
    for seat, n in enumerate(silver):
        if n:
            position.gain_silver(seat, n)
    return position


def test_ships_cost_one_silver_and_go_home_without_limit() -> None:
    """'Each ship costs one silver.' 'The number of ships to be placed in the home country is not limited.'"""
    state = buying(with_silver(position_for(2, ("norway", "sweden")), 7, 0))
    assert state.step == S.BUY_SHIPS and state.current_player() == 0
    assert state.legal_actions() == [SPACE.buy("trading", "norge"), SPACE.buy("war", "norge")]
    state.apply(SPACE.buy("war", "norge"))
    assert state.legal_actions() == [amount(n) for n in range(1, 8)]
    assert state.action_to_notation(amount(7)) == "buy 7 war ships at Norge"
    assert state.action_from_notation("buy 7 war ships at Norge") == amount(7)
    state.apply(amount(7))
    assert state.position.ships_at(0, "war", "norge") == 7 and state.position.silver[0] == 0
    assert state.position.phase == S.JOURNEYS and problems(state.position) == []


def test_every_silver_must_be_spent() -> None:
    """'Each player buys ships for all of their silver' (VA-43 'all_silver'): stopping with silver and a place left
    is refused naming the item, and nothing changes; 'up_to_silver' lets him stop."""
    state = buying(with_silver(position_for(2, ("norway", "sweden")), 3, 0))
    before = state.observation(None)
    with pytest.raises(IllegalAction) as error:
        state.apply(DONE)
    assert error.value.rule == "VA-43" and state.observation(None) == before
    waiting = with_silver(position_for(2, ("norway", "sweden")), 3, 0)
    waiting.place_ships(1, "war", "svea_rike", 1)  # so phase 6 does not end at once
    free = buying(waiting, purchase="up_to_silver")
    assert free.legal_actions()[0] == DONE
    free.apply(DONE)
    assert free.position.silver == [3, 0] and free.position.phase == S.JOURNEYS


def test_two_ships_of_its_type_per_camp() -> None:
    """'At each camp, two ships of the corresponding type may be placed': two trading camps in Gotland take four
    trading ships this phase and no war ships; a homeless player's other silver stays with him (VA-43)."""
    position = with_silver(position_for(2, ("norway", "sweden")), 9, 0)
    position.emigrated[0] = True  # homeless: no home country yet
    position.build_camps(0, "trading", "gotland", 2)
    state = buying(position)
    state.apply(DONE)  # pulls down no camp
    assert state.legal_actions() == [SPACE.buy("trading", "gotland")]
    state.apply(SPACE.buy("trading", "gotland"))
    assert state.legal_actions() == [amount(n) for n in range(1, 5)]
    with pytest.raises(IllegalAction, match="at most 4 trading ships at Gutland"):
        state.apply(amount(5))
    state.apply(amount(4))
    assert state.position.silver[0] == 5 and state.position.ships_at(0, "trading", "gotland") == 4
    assert state.position.phase == S.JOURNEYS


def test_an_emigrant_places_in_his_new_home_country_not_the_old_kingdom() -> None:
    """'He may not place any new ships in that kingdom'; 'A player may built as many ships as he likes in his new
    home country'."""
    position = with_silver(position_for(2, ("norway", "sweden")), 4, 0)
    position.emigrated[0] = True
    position.home[0] = "gotland"
    state = buying(position)
    assert state.legal_actions() == [SPACE.buy("trading", "gotland"), SPACE.buy("war", "gotland")]
    with pytest.raises(IllegalAction, match="in the home country or at the player's own war camps"):
        state.apply(SPACE.buy("war", "norge"))


def test_a_camp_pulled_down_becomes_one_ship() -> None:
    """'The player removes them and places ONE ship of the appropriate type in the area. This is done in phase 5'
    (before buying, VA-43); the camp no longer takes bought ships."""
    position = with_silver(position_for(2, ("norway", "sweden")), 1, 0)
    position.build_camps(0, "war", "mercien", 1)
    state = buying(position)
    assert state.step == S.PULL_DOWN
    assert state.legal_actions() == [DONE, SPACE.pull_down("war", "mercien")]
    assert state.action_to_notation(SPACE.pull_down("war", "mercien")) == "pull down a war camp in Mercien"
    state.apply(SPACE.pull_down("war", "mercien"))
    t = state.position
    assert t.camps_at(0, "war", "mercien") == 0 and t.ships_at(0, "war", "mercien") == 1 and problems(t) == []
    assert state.step == S.BUY_SHIPS
    assert SPACE.buy("war", "mercien") not in state.legal_actions()


def test_no_one_pulls_down_a_camp_he_does_not_have() -> None:
    """Only the player's own camps can be pulled down; refused naming VA-43."""
    position = with_silver(position_for(2, ("norway", "sweden")), 1, 0)
    position.build_camps(0, "war", "mercien", 1)
    state = buying(position)
    with pytest.raises(IllegalAction) as error:
        state.apply(SPACE.pull_down("trading", "mercien"))
    assert error.value.rule == "VA-43"


def test_players_buy_one_at_a_time_from_the_turns_first_seat() -> None:
    """VA-06: the simultaneous purchase is played seat by seat from the turn's first seat."""
    state = buying(with_silver(position_for(3, ("norway", "sweden", "denmark"), first_seat=2), 1, 1, 1))
    order = []
    while state.position.phase == S.BUYING_SHIPS:
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [2, 2, 0, 0, 1, 1]


def test_random_purchases_keep_every_invariant() -> None:
    """Random pull-downs and purchases with camps and silver: ships, camps and silver conserved, nothing negative,
    after every action."""
    rng = random.Random(5)
    for mode in ("all_silver", "up_to_silver"):
        for _ in range(20):
            position = position_for(4, ("denmark", "norway", "sweden", "norway"), first_seat=rng.randrange(4))
            for seat in range(4):
                position.gain_silver(seat, rng.randrange(1, 30))
                if rng.random() < 0.3:
                    position.emigrated[seat] = True
                position.build_camps(
                    seat, rng.choice(("trading", "war")), ("gotland", "finland", "estland", "kurland")[seat], 1
                )
            state = buying(position, purchase=mode)
            play_phase_randomly(state, rng)
            if mode == "all_silver":
                assert all(state.position.silver[s] == 0 for s in range(4) if not state.position.emigrated[s])
