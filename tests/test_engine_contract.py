"""The game contract (skald.engine): registry, rule options, action forms, records and their errors."""

from __future__ import annotations

import json
import random

import pytest

from skald.engine import CHANCE, Record, RecordError, game_names, get_game, play_random_game, sample_chance
from skald.games.vikings import actions as A


def test_registry_finds_vikings_by_name_and_names_the_known_games_when_asked_for_another():
    assert "vikings" in game_names()
    assert get_game("vikings").title == "Vikings"
    with pytest.raises(KeyError, match="known games"):
        get_game("hnefatafl")


def test_player_count_outside_2_to_4_is_refused():
    with pytest.raises(ValueError, match="2–4 players"):
        get_game("vikings").new_initial_state(5)


def test_unknown_rule_option_or_value_names_the_option():
    game = get_game("vikings")
    with pytest.raises(ValueError, match=r"options\.ships"):
        game.new_initial_state(2, {"ships": "zman"})
    with pytest.raises(ValueError, match=r"options\.ship_row"):
        game.new_initial_state(2, {"ship_row": "anywhere"})


def test_every_action_id_has_json_and_notation_that_parse_back():
    """Each action: a stable id in the fixed space, a JSON form and a notation that round-trip."""
    for action in range(A.NUM_ACTIONS):
        assert A.from_json(json.loads(json.dumps(A.to_json(action)))) == action
        assert A.from_notation(A.to_notation(action)) == action


def test_notation_in_context_accepts_a_bare_price_or_square():
    game = get_game("vikings")
    state = game.new_initial_state(2)
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply(rng.choice(state.legal_actions()))
    legal_buy = state.legal_actions()[-1]
    assert state.action_from_notation(str(legal_buy - A.BUY)) == legal_buy
    assert state.action_from_notation("Buy  " + str(legal_buy - A.BUY)) == legal_buy


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "buy", "price": 12}, "price"),
        ({"type": "buy", "price": "7"}, "price"),
        ({"type": "island", "square": "X3"}, "square"),
        ({"type": "ferry", "colour": "B"}, "colour"),
        ({"type": "draw_tile", "tile": "purple9"}, "tile"),
        ({"type": "teleport"}, "type"),
    ],
)
def test_malformed_action_json_names_the_field(data, field):
    with pytest.raises(ValueError, match=rf"^{field}"):
        A.from_json(data)


def test_bad_notation_says_what_is_understood():
    with pytest.raises(ValueError, match="not Vikings notation"):
        A.from_notation("sail away")


def _record_dict(seed: int = 3) -> dict:
    state = play_random_game(get_game("vikings").new_initial_state(2), random.Random(seed))
    return Record.of(state).to_dict()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="chess-pgn"), "format"),
        (lambda d: d.update(version=9), "version"),
        (lambda d: d.update(game="hnefatafl"), "game"),
        (lambda d: d.update(players="two"), "players"),
        (lambda d: d.update(players=7), "players"),
        (lambda d: d.update(options={"ship_row": "sideways"}), r"options\.ship_row"),
        (lambda d: d.update(seats=[{"name": 3}, {"name": "b"}]), r"seats\[0\]\.name"),
        (lambda d: d["actions"].__setitem__(5, {"action": {"type": "buy", "price": -1}}), r"actions\[5\]\.action"),
        (lambda d: d["actions"].__setitem__(30, {"seat": 0}), r"actions\[30\]"),
        (lambda d: d["actions"].insert(0, {"action": {"type": "buy", "price": 3}}), r"actions\[0\]\.action: illegal"),
    ],
)
def test_malformed_record_names_the_field_at_fault(change, field):
    data = _record_dict()
    change(data)
    with pytest.raises(RecordError, match=rf"^{field}"):
        Record.from_dict(data)


def test_record_file_that_is_not_json_says_so(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{ not json")
    with pytest.raises(RecordError, match="not JSON"):
        Record.load(path)


def test_record_lists_chance_outcomes_with_their_seat_as_chance():
    data = _record_dict()
    assert data["actions"][0]["seat"] == "chance" and data["actions"][0]["action"]["type"] == "draw_tile"
    assert any(entry["seat"] == 0 and entry["notation"].startswith("buy") for entry in data["actions"])


@pytest.mark.parametrize("name", ["vikings", "vikingdoms"])
def test_apply_legal_reaches_the_same_state_as_apply_for_legal_actions(name):
    # The unchecked path the adapters and the search use must change the state exactly as the checked one does.
    game = get_game(name)
    rng = random.Random(11)
    checked = game.new_initial_state(2)
    trusted = game.new_initial_state(2)
    while not checked.is_terminal():
        if checked.current_player() == CHANCE:
            action = sample_chance(checked, rng)
        else:
            action = rng.choice(checked.legal_actions())
        checked.apply(action)
        trusted.apply_legal(action)
        assert trusted.history == checked.history
        assert trusted.observation(0) == checked.observation(0)
    assert trusted.returns() == checked.returns()


@pytest.mark.parametrize("name", ["vikings", "vikingdoms", "vikingatid"])
def test_a_state_holds_every_rule_option_resolved_and_its_clone_the_same(name):
    game = get_game(name)
    first = game.options[0]
    chosen = {first.name: next(c for c in first.choices if c != first.default)}
    state = game.new_initial_state(game.min_players, chosen)
    assert state.options == game.resolve_options(chosen)
    assert state.clone().options == state.options
    assert Record.of(state).options == state.options
