"""The learned bot: its numpy network, its model file and card, and whole games through the contract."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from skald.bots import SpecError, check_spec, make_bot
from skald.bots.model import ModelCard, ModelError, random_network, read_model, save_model
from skald.bots.puct import MODELS
from skald.engine import CHANCE, get_game, sample_chance


def _model(tmp_path: Path, game: str, players: int = 2, seed: int = 1) -> Path:
    rules = get_game(game)
    card = ModelCard(game, players, rules.num_distinct_actions, rules.observation_tensor_shape(players), hidden=(16,))
    path = tmp_path / f"{game}.npz"
    save_model(random_network(card, seed), path)
    return path


def test_the_masked_policy_puts_no_weight_on_an_illegal_action_and_sums_to_one(tmp_path: Path) -> None:
    network = read_model(_model(tmp_path, "vikingdoms"))
    rng = np.random.default_rng(0)
    observations = rng.standard_normal((4, network.card.inputs)).astype(np.float32)
    mask = rng.random((4, network.card.num_actions)) < 0.05
    mask[:, 0] = True
    policy, values = network.policy_value(observations, mask)
    assert np.all(policy[~mask] == 0)
    assert np.allclose(policy.sum(axis=1), 1, atol=1e-5)
    assert values.shape == (4, 2) and np.allclose(values.sum(axis=1), 1, atol=1e-5)


def test_a_model_file_round_trips_with_its_card(tmp_path: Path) -> None:
    path = _model(tmp_path, "vikingdoms")
    first = read_model(path)
    save_model(first, tmp_path / "again.npz")
    second = read_model(tmp_path / "again.npz")
    assert second.card == first.card
    for name, array in first.arrays().items():
        assert np.array_equal(array, second.arrays()[name]), name


def test_a_malformed_model_file_names_the_field_at_fault(tmp_path: Path) -> None:
    network = read_model(_model(tmp_path, "vikingdoms"))
    arrays = network.arrays()
    arrays["policy.bias"] = arrays["policy.bias"][:-1]
    broken = tmp_path / "broken.npz"
    np.savez(broken, card=np.array(json.dumps(network.card.to_json())), **arrays)
    with pytest.raises(ModelError, match=r"'policy\.bias'"):
        read_model(broken)
    with pytest.raises(SpecError, match="'game'"):
        check_spec(f"learned:{_model(tmp_path, 'vikingdoms')}", get_game("vikings"), 2)


@pytest.mark.parametrize("game", ["vikingdoms", "vikings"])
def test_the_learned_bot_plays_a_whole_legal_game(tmp_path: Path, game: str) -> None:
    path = _model(tmp_path, game)
    bots = [make_bot(f"learned:{path}:iters=16", 1), make_bot("random", 2)]
    state = get_game(game).new_initial_state(2)
    rng = random.Random(0)
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(bots[player].step(state))  # `apply` raises IllegalAction for an illegal choice
    assert sum(state.returns()) == pytest.approx(1.0)


def test_a_learned_seat_without_a_model_for_the_table_is_refused_before_the_game_starts(tmp_path: Path) -> None:
    from skald.cli.play import parse_seats

    with pytest.raises(ValueError, match=r"--seats: learned: no model is shipped for vikingatid with 2 players"):
        parse_seats("learned,random", get_game("vikingatid"))
    wrong = _model(tmp_path, "vikings")
    with pytest.raises(ValueError, match=r"card field 'game' is 'vikings', but this table needs 'vikingdoms'"):
        parse_seats(f"learned:{wrong},random", get_game("vikingdoms"))
    seats = parse_seats(f"learned:{_model(tmp_path, 'vikingdoms')},random", get_game("vikingdoms"))
    assert [seat.kind.split(":")[0] for seat in seats] == ["learned", "random"]


def test_the_gymnasium_environment_refuses_a_learned_opponent_without_a_model_for_its_table() -> None:
    pytest.importorskip("gymnasium", reason="the Gymnasium adapter needs the rl extra")
    from skald.rl.gymnasium_env import SkaldGymEnv

    with pytest.raises(SpecError, match="no model is shipped for vikings with 3 players"):
        SkaldGymEnv("vikings", 3, opponents="learned")
    with pytest.raises(SpecError, match="'players'"):
        SkaldGymEnv("vikings", 3, opponents=f"learned:{MODELS / 'vikings-2p.npz'}")
    env = SkaldGymEnv("vikings", 2, opponents="learned:iters=8")
    env.reset(seed=1)
    assert env.action_masks().any()
