"""Invariants over thousands of random games of 2, 3 and 4 players (hypothesis chooses players and seeds)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vikings_kit import snapshot

from skald.engine import CHANCE, IllegalAction, Record, sample_chance
from skald.games.vikings.actions import NUM_ACTIONS
from skald.games.vikings.game import GAME
from skald.games.vikings.position import state_to_dict
from skald.games.vikings.steps import GAME_OVER

players = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
option_sets = st.fixed_dictionaries(
    {
        "ship_row": st.sampled_from(["zman", "touching"]),
        "viking_placement": st.sampled_from(["bought_tile", "any_tile_in_row"]),
        "ferry": st.sampled_from(["as_many_as_fit", "any_number"]),
        "variant": st.sampled_from(["base", "advanced"]),
        "auction": st.sampled_from(["on", "off"]),
    }
)
FAST = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
THOROUGH = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _step(state, rng):
    action = sample_chance(state, rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
    state.apply(action)


@FAST
@given(players, seeds, option_sets)
def test_tiles_and_vikings_are_conserved_and_gold_and_fame_stay_non_negative(n, seed, options):
    """rules/000: 72 tiles + start tiles and 78 Vikings are neither made nor lost; no debt of Gold or Fame during
    play (p.2); only end-game penalties may take Fame below 0 (rule option fame_floor)."""
    state = GAME.new_initial_state(n, options)
    rng = random.Random(seed)
    while not state.is_terminal():
        _step(state, rng)
        assert state.tile_census() == 72 + n
        assert state.viking_census() == 78
        assert state.special_census() == (25 if state.advanced else 0)
        assert all(m.gold >= 0 for m in state.lands)
        if state.step != GAME_OVER:
            assert all(m.fame >= 0 for m in state.lands)
    assert sum(state.bag) == (0 if state.auction else 78 - 72)  # the auction draws 13 a round: all 78
    assert len(state.winners()) >= 1 and abs(sum(state.returns()) - 1.0) < 1e-9


@THOROUGH
@given(players, seeds, option_sets)
def test_legal_actions_and_illegal_reasons_agree_and_illegal_actions_change_nothing(n, seed, options):
    """Every legal action applies; every other id raises IllegalAction naming a rule and leaves the state as it was."""
    state = GAME.new_initial_state(n, options)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() != CHANCE and rng.random() < 0.1:
            legal = set(state.legal_actions())
            assert legal and sorted(legal) == state.legal_actions()
            before = snapshot(state)
            for action in range(NUM_ACTIONS):
                reason = state.illegal_reason(action)
                assert (reason is None) == (action in legal), (action, reason)
            for action in rng.sample(sorted(set(range(NUM_ACTIONS)) - legal), 5):
                try:
                    state.apply(action)
                except IllegalAction as error:
                    assert error.rule and error.reason
                else:
                    raise AssertionError(f"illegal action {action} was applied")
            assert snapshot(state) == before
            for action in legal:
                trial = state.clone()
                trial.apply(action)
            assert snapshot(state) == before
        _step(state, rng)


@THOROUGH
@given(players, seeds, option_sets)
def test_a_record_replays_to_the_identical_final_state(n, seed, options):
    """A game record (JSON, every action including chance outcomes) replays to the identical state."""
    state = GAME.new_initial_state(n, options)
    rng = random.Random(seed)
    while not state.is_terminal():
        _step(state, rng)
    record = Record.of(state)
    text = json.dumps(record.to_dict())
    replayed = Record.from_dict(json.loads(text)).replay()
    assert snapshot(replayed) == snapshot(state)


@THOROUGH
@given(players, seeds, st.integers(min_value=0, max_value=400), option_sets)
def test_position_json_round_trips_and_play_continues_identically(n, seed, cut, options):
    """A saved position reads back to the same position, which plays on exactly as the original."""
    state = GAME.new_initial_state(n, options)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < cut:
        _step(state, rng)
    data = state_to_dict(state)
    loaded = GAME.state_from_dict(json.loads(json.dumps(data)))
    assert state_to_dict(loaded) == data
    assert loaded.legal_actions() == state.legal_actions()
    a, b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(60):
        if state.is_terminal():
            break
        _step(state, a)
        _step(loaded, b)
    assert state_to_dict(loaded) == state_to_dict(state)


@THOROUGH
@given(players, seeds)
def test_observation_is_json_and_never_holds_an_order_of_stacks_or_bag(n, seed):
    """observation(seat): the table as anyone sees it; the stacks and the bag only as counts (no order exists)."""
    state = GAME.new_initial_state(n)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 200)):
        if state.is_terminal():
            break
        _step(state, rng)
    view = state.observation(0)
    json.dumps(view)
    codes = {"L", "M1", "M2", "M3", "M4", "R"} | {
        f"{sail}{i}" for sail in ("red", "green", "yellow", "blue") for i in range(1, 5)
    }
    assert view["seat"] == 0 and set(view["stacks"]) <= codes
    assert all(isinstance(n, int) for n in view["stacks"].values())
    assert all(isinstance(n, int) for n in view["bag"].values())
    others = state.observation(1)
    others["seat"] = 0
    assert others == view  # nothing is private in Vikings: every seat sees the same table


def test_clone_is_independent():
    """clone(): changing the copy leaves the original untouched."""
    state = GAME.new_initial_state(3)
    rng = random.Random(2)
    for _ in range(40):
        _step(state, rng)
    before = snapshot(state)
    copy = state.clone()
    for _ in range(100):
        _step(copy, rng)
    assert snapshot(state) == before


def test_record_save_and_load_round_trip(tmp_path):
    """Record.save / Record.load: the file holds game, options, seats and every action; it loads back equal."""
    state = GAME.new_initial_state(4, {"ship_row": "touching"})
    rng = random.Random(11)
    while not state.is_terminal():
        _step(state, rng)
    record = Record.of(state)
    path = tmp_path / "game.json"
    record.save(path)
    loaded = Record.load(path)
    assert loaded == record
    assert loaded.options["ship_row"] == "touching"
    assert snapshot(loaded.replay()) == snapshot(state)
