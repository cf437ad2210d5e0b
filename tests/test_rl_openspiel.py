"""OpenSpiel: Skald games registered with pyspiel pass its own random simulation test; its MCTS bot plays them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from skald.engine import game_names  # noqa: E402
from skald.rl import openspiel as skald_spiel  # noqa: E402


def test_every_skald_game_is_registered() -> None:
    names = skald_spiel.register_all()
    assert "skald_vikings" in names
    assert set(names) <= set(pyspiel.registered_names())
    assert len(names) == len(game_names())


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_vikings_passes_random_sim_test_with_100_sims(num_players: int) -> None:
    # The bar OpenSpiel sets for a game: 100 random games, each state serialized and deserialized on the way.
    game = skald_spiel.load("vikings", num_players)
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def test_other_registered_games_pass_random_sim_test() -> None:
    for name in game_names():
        if name == "vikings":
            continue
        skald_game = skald_spiel.get_game(name)
        game = skald_spiel.load(name, skald_game.min_players)
        pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def test_rule_options_are_game_parameters() -> None:
    game = skald_spiel.load("vikings", 3, ferry="any_number")
    assert game.num_players() == 3
    assert game.get_parameters()["ferry"] == "any_number"
    assert game.new_initial_state().skald_state.options["ferry"] == "any_number"


@pytest.mark.parametrize(("name", "num_players"), [("vikings", 3), ("vikingdoms", 2)])
def test_observation_tensor_and_string_per_player(name: str, num_players: int) -> None:
    # At every position of a random game, each player's tensor is the Skald tensor of that seat.
    game = skald_spiel.load(name, num_players)
    assert game.get_type().provides_observation_tensor
    assert game.observation_tensor_shape() == list(game.skald_game.observation_tensor_shape(num_players))
    rng = np.random.RandomState(num_players)
    state = game.new_initial_state()
    while True:
        for seat in range(num_players):
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(tensor, np.asarray(state.skald_state.observation_tensor(seat), dtype=np.float32))
            assert f'"seat":{seat}' in state.observation_string(seat)
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_serialization_is_the_history() -> None:
    game = skald_spiel.load("vikings", 2)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(60):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == state.history()
    assert str(restored) == str(state)


def test_mcts_bot_plays_vikings_in_evaluate_bots() -> None:
    game = skald_spiel.load("vikings", 2)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng),
        skald_spiel.SkaldBot("random", seed=1),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(1.0)
    assert all(r >= 0 for r in returns)


def test_skald_bots_play_each_other_in_evaluate_bots() -> None:
    game = skald_spiel.load("vikings", 3)
    bots = [skald_spiel.SkaldBot(spec, seed) for seed, spec in enumerate(["greedy", "random", "random"])]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(1.0)
