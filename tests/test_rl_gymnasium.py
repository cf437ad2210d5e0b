"""Gymnasium: one learner against Skald bots passes Gymnasium's own environment checker."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

import proof_game  # registers "proof", the test suite's hidden-information card game
from skald.engine import IllegalAction
from skald.rl.gymnasium_env import SkaldGymEnv, register_envs


@pytest.mark.parametrize(
    ("game", "num_players", "opponents"),
    [
        ("vikings", 2, "random"),
        ("vikings", 3, "greedy"),
        ("vikings", 4, "random"),
        ("vikingdoms", 2, "random"),
        ("vikingdoms", 2, "greedy"),
        ("proof", 2, "random"),
        ("proof", 3, "greedy"),
        ("proof", 4, "mcts:iters=10"),
    ],
)
def test_check_env(game: str, num_players: int, opponents: str) -> None:
    check_env(SkaldGymEnv(game, num_players, opponents=opponents, seat=None), skip_render_check=True)


def test_a_whole_game_against_random_ends_with_the_learners_return() -> None:
    env = SkaldGymEnv("vikings", 2, opponents="random", seat=1)
    _observation, info = env.reset(seed=4)
    terminated = False
    reward = 0.0
    while not terminated:
        assert env.game_state.current_player() == 1
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
    assert reward == env.game_state.returns()[1]


def test_an_illegal_action_is_penalised_and_changes_nothing() -> None:
    env = SkaldGymEnv("vikings", 2, illegal_reward=-0.5, max_illegal=2)
    observation, info = env.reset(seed=1)
    before = list(env.game_state.history)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-0.5, False, False)
    assert "illegal" in info and env.game_state.history == before
    assert np.array_equal(again["observation"], observation["observation"])
    assert env.step(illegal)[3] is True


def test_an_illegal_action_can_raise_instead() -> None:
    env = SkaldGymEnv("vikings", 2, illegal="raise")
    _, info = env.reset(seed=1)
    with pytest.raises(IllegalAction):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))


def test_opponents_are_skald_bot_specs() -> None:
    with pytest.raises(ValueError):
        SkaldGymEnv("vikings", 3, opponents=["random"])
    env = SkaldGymEnv("vikings", 3, opponents=["greedy", "mcts:iters=5"], seat=0)
    env.reset(seed=0)
    assert [bot.spec for _, bot in sorted(env.bots.items())] == ["greedy", "mcts:iters=5"]


def test_writing_to_the_handed_out_mask_cannot_make_an_illegal_action_legal() -> None:
    env = SkaldGymEnv("vikings", 2, illegal="raise")
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation["action_mask"][:] = 1
    before = list(env.game_state.history)
    with pytest.raises(IllegalAction):
        env.step(illegal)
    assert env.game_state.history == before


@pytest.mark.parametrize(
    ("env_id", "game", "num_players"), [("skald/Vikings-v0", "vikings", 3), ("skald/Vikingdoms-v0", "vikingdoms", 2)]
)
def test_gymnasium_make_builds_the_registered_environment_by_module_and_id(
    env_id: str, game: str, num_players: int
) -> None:
    import gymnasium

    env = gymnasium.make(f"skald.rl.gymnasium_env:{env_id}", num_players=num_players, opponents="greedy")
    observation, _ = env.reset(seed=7)
    assert env.unwrapped.game_state.game.name == game
    assert observation["observation"].shape == env.observation_space["observation"].shape
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, _ = env.step(int(legal[0]))
    assert terminated and not truncated
    assert reward == env.unwrapped.game_state.returns()[env.unwrapped.seat]


# -- hidden information: the learner sees its own view only -------------------------------------------------------


@pytest.mark.parametrize("opponents", ["random", "mcts:iters=10"])
def test_the_learner_sees_only_its_own_seat_in_a_hidden_hand_game(opponents: str) -> None:
    env = SkaldGymEnv("proof", 3, opponents=opponents, seat=None, render_mode="ansi")
    for seed in range(4):
        observation, info = env.reset(seed=seed)
        state, seat = env.game_state, env.seat
        terminated = False
        while not terminated:
            assert np.array_equal(observation["observation"], state.observation_array(seat))
            assert set(info) == {"action_mask", "seat"}
            # The table as the learner's seat sees it: its own hand, the others' card counts.
            assert env.render() == state.render_text(seat=seat) != state.render_text(seat=(seat + 1) % 3)
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, _, info = env.step(int(legal[-1]))


def test_gymnasium_make_finds_a_game_registered_after_import() -> None:
    import gymnasium

    assert "skald/Proof-v0" in register_envs()
    env = gymnasium.make("skald/Proof-v0", num_players=2, opponents="mcts:iters=10")
    observation, _ = env.reset(seed=3)
    assert env.unwrapped.game_state.game is proof_game.game.GAME
    assert observation["observation"].shape == env.observation_space["observation"].shape
