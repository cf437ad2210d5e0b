"""What a researcher meets first: vector environments with default arguments, seats that rotate, opponents
that are policies (self-play), forced moves played for the learner, the margin-shaped reward, the observation without
the mask, bounded spaces, the final result in the last step's info, and clear errors out of order."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import proof_game  # noqa: F401  (registers "proof", the test suite's hidden-information card game)
from proof_game.game import ProofGame
from skald.bots import make_bot
from skald.engine import get_game
from skald.rl.common import final_info, margin
from skald.rl.gymnasium_env import SkaldGymEnv
from skald.rl.pettingzoo_env import SkaldAECEnv, env

ROOT = Path(__file__).resolve().parents[1]
FINAL_KEYS = {"scores", "winners", "returns", "game_length", "decisions", "forced"}


def first_legal(_observation: Any, mask: np.ndarray) -> int:
    """A policy: the lowest legal action id."""
    return int(np.flatnonzero(mask)[0])


def play_out(env: SkaldGymEnv, seed: int, choose: Any = first_legal) -> tuple[list[float], dict[str, Any]]:
    """One game through the Gymnasium env; the rewards of every step and the last info."""
    observation, info = env.reset(seed=seed)
    rewards: list[float] = []
    terminated = truncated = False
    while not (terminated or truncated):
        observation, reward, terminated, truncated, info = env.step(choose(observation, info["action_mask"]))
        rewards.append(float(reward))
    return rewards, info


# -- 1. vector environments with default arguments -----------------------------------------------------------------


def test_an_unsupported_render_mode_is_ignored_with_a_warning_not_an_error() -> None:
    # make_vec_env asks every env for render_mode="rgb_array"; the env must still build (and render nothing).
    with pytest.warns(UserWarning, match="rgb_array"):
        env = gymnasium.make("skald/Vikings-v0", render_mode="rgb_array")
    assert env.unwrapped.render_mode is None
    observation, _ = env.reset(seed=0)
    assert observation["observation"].shape == (1947,)


def test_gymnasium_make_vec_works_with_default_arguments() -> None:
    vec = gymnasium.make_vec("skald/Vikings-v0", num_envs=2)
    observations, _ = vec.reset(seed=0)
    assert observations["observation"].shape == (2, 1947)
    masks = observations["action_mask"]
    actions = np.array([int(np.flatnonzero(row)[0]) for row in masks])
    _, rewards, _, truncated, _ = vec.step(actions)
    assert rewards.shape == (2,) and not truncated.any()
    vec.close()


def test_stable_baselines_make_vec_env_works_with_default_arguments() -> None:
    env_util = pytest.importorskip(
        "stable_baselines3.common.env_util", reason="stable-baselines3 comes with the train extra only"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        vec = env_util.make_vec_env("skald/Vikings-v0", n_envs=4)
    observations = vec.reset()
    assert observations["observation"].shape == (4, 1947)
    actions = np.array([int(np.flatnonzero(row)[0]) for row in observations["action_mask"]])
    vec.step(actions)
    vec.close()


# -- 2. every seat, in turn ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "num_players"), [("vikings", 3), ("vikingdoms", 2), ("proof", 4)])
def test_by_default_the_learner_rotates_through_every_seat(game: str, num_players: int) -> None:
    env = SkaldGymEnv(game, num_players)
    env.reset(seed=5)
    seats = [env.seat]
    for _ in range(2 * num_players - 1):
        env.reset()
        seats.append(env.seat)
    assert seats == [(seats[0] + k) % num_players for k in range(2 * num_players)]


def test_the_rotation_restarts_from_the_same_seat_for_the_same_seed() -> None:
    env = SkaldGymEnv("vikings", 4)
    first = [env.reset(seed=11)[1]["seat"], env.reset()[1]["seat"]]
    again = [env.reset(seed=11)[1]["seat"], env.reset()[1]["seat"]]
    assert first == again
    assert {SkaldGymEnv("vikings", 4).reset(seed=seed)[1]["seat"] for seed in range(40)} == {0, 1, 2, 3}


def test_a_fixed_seat_stays_fixed() -> None:
    env = SkaldGymEnv("vikings", 3, seat=2)
    assert {env.reset(seed=seed)[1]["seat"] for seed in range(5)} == {2}


# -- 3. opponents as policies: self-play and pools -------------------------------------------------------------------


def test_a_policy_opponent_sees_its_own_seat_and_its_choice_is_played() -> None:
    seen: list[tuple[int, int]] = []

    def policy(observation: dict[str, np.ndarray], mask: np.ndarray) -> np.int64:
        # Handed what the learner would get in that seat: the tensor of the seat to act and its legal actions.
        state = env.game_state
        seat = state.current_player()
        assert np.array_equal(observation["observation"], state.observation_array(seat))
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        assert np.array_equal(observation["action_mask"], mask)
        action = np.flatnonzero(mask)[-1]
        seen.append((len(state.history), int(action)))
        return action  # a numpy scalar, as policies' predict gives

    env = SkaldGymEnv("vikings", 2, opponents=policy, seat=0)
    play_out(env, seed=3)
    assert seen
    assert all(env.game_state.history[at] == action for at, action in seen)


def test_a_policy_opponent_gets_the_tensor_alone_without_the_mask_in_the_observation() -> None:
    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        assert isinstance(observation, np.ndarray) and observation.shape == (1947,)
        return int(np.flatnonzero(mask)[0])

    env = SkaldGymEnv("vikings", 2, opponents=policy, mask_in_observation=False)
    _, info = play_out(env, seed=1, choose=lambda _o, mask: int(np.flatnonzero(mask)[0]))
    assert set(info) >= FINAL_KEYS


def test_opponents_mix_bot_specs_bots_and_policies_clockwise_from_the_learner() -> None:
    bot = make_bot("greedy", 3)
    env = SkaldGymEnv("vikings", 4, opponents=["random", bot, first_legal], seat=2)
    env.reset(seed=0)
    assert env.players[3].spec == "random"  # type: ignore[union-attr]
    assert env.players[0] is bot
    assert env.players[1] is first_legal
    assert sorted(env.bots) == [0, 3]


def test_set_opponents_takes_effect_at_the_next_reset() -> None:
    env = SkaldGymEnv("vikings", 2, opponents="random", seat=0)
    env.reset(seed=0)
    env.set_opponents(first_legal)
    assert env.players[1].spec == "random"  # type: ignore[union-attr]
    env.reset(seed=0)
    assert env.players[1] is first_legal


def test_an_opponent_that_is_nothing_playable_is_refused() -> None:
    with pytest.raises(TypeError, match="policy"):
        SkaldGymEnv("vikings", 2, opponents=[3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="one per other seat"):
        SkaldGymEnv("vikings", 3, opponents=["random"])


class FrozenLinear:
    """A tiny linear policy over the legal actions, and a frozen copy of it (what self-play plays against)."""

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = weights

    def frozen(self) -> FrozenLinear:
        return FrozenLinear(self.weights.copy())

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        logits = self.weights @ observation
        logits[mask == 0] = -np.inf
        return int(np.argmax(logits))


def test_self_play_against_a_frozen_copy_of_the_learner() -> None:
    # The learner against a snapshot of itself, the snapshot refreshed between games (no learning library needed).
    rng = np.random.default_rng(0)
    learner = FrozenLinear(rng.normal(size=(758, 1947)).astype(np.float32))
    env = SkaldGymEnv("vikings", 2, opponents=learner.frozen(), mask_in_observation=False)
    results = []
    for game in range(3):
        _, info = play_out(env, seed=game, choose=learner)
        results.append(info["returns"][info["seat"]])
        learner.weights += rng.normal(scale=0.1, size=learner.weights.shape).astype(np.float32)
        env.set_opponents(learner.frozen())
    assert len(results) == 3 and all(0.0 <= r <= 1.0 for r in results)


def test_the_documented_self_play_example_runs() -> None:
    pytest.importorskip("sb3_contrib", reason="the documented example uses sb3-contrib, in the train extra only")
    text = (ROOT / "docs" / "learning.md").read_text()
    block = re.search(r"<!-- self-play example -->\s*```python\n(.*?)```", text, re.S)
    assert block, "docs/learning.md lost its self-play example"
    code = block.group(1).replace("total_timesteps=20_000", "total_timesteps=256").replace("range(10)", "range(2)")
    scope: dict[str, Any] = {}
    exec(compile(code, "docs/learning.md", "exec"), scope)
    assert scope["env"].players and scope["model"].num_timesteps >= 256


# -- 4. the final result in the last step's info ------------------------------------------------------------------


@pytest.mark.parametrize(("game", "num_players"), [("vikings", 3), ("vikingdoms", 2), ("proof", 3)])
def test_the_last_step_info_carries_final_scores_winners_and_decisions(game: str, num_players: int) -> None:
    env = SkaldGymEnv(game, num_players, opponents="greedy")
    rewards, info = play_out(env, seed=2)
    state = env.game_state
    assert state.is_terminal()
    assert info["scores"] == state.scores() and info["winners"] == state.winners()
    assert info["returns"] == state.returns() and info["game_length"] == len(state.history)
    assert info["decisions"] == len(rewards)
    assert rewards[-1] == state.returns()[info["seat"]]


def test_no_final_result_before_the_end() -> None:
    env = SkaldGymEnv("vikings", 2)
    _, info = env.reset(seed=0)
    _, _, terminated, _, info = env.step(first_legal(None, info["action_mask"]))
    assert not terminated and set(info) == {"action_mask", "seat"}


@pytest.mark.parametrize(("game", "num_players"), [("vikings", 2), ("vikingdoms", 2), ("proof", 3)])
def test_every_agent_finds_the_final_result_in_its_infos_at_the_end(game: str, num_players: int) -> None:
    aec = env(game, num_players)
    aec.reset(seed=4)
    finals: dict[str, dict[str, Any]] = {}
    for agent in aec.agent_iter():
        observation, _, terminated, truncated, info = aec.last()
        if terminated or truncated:
            finals[agent] = info
            aec.step(None)
        else:
            assert info == {}
            aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    state = aec.unwrapped.game_state
    assert set(finals) == set(aec.possible_agents)
    for seat, agent in enumerate(aec.possible_agents):
        assert finals[agent] == final_info(state, aec.unwrapped.decisions[seat], aec.unwrapped.forced[seat])
        assert finals[agent]["winners"] == state.winners() and finals[agent]["scores"] == state.scores()
    assert sum(info["decisions"] + info["forced"] for info in finals.values()) == sum(
        1 for _ in filter(lambda p: p >= 0, seats_that_acted(state))
    )


def seats_that_acted(state: Any) -> list[int]:
    """The seat (or chance, -1) behind each action of a finished game, replayed."""
    replay = state.game.new_initial_state(state.num_players, state.options)
    actors = []
    for action in state.history:
        actors.append(replay.current_player())
        replay.apply(action)
    return actors


# -- 5. forced moves --------------------------------------------------------------------------------------------------


def masks_handed_out(env: SkaldGymEnv, seed: int) -> list[int]:
    """How many legal actions each mask handed to the learner had, over one game."""
    observation, info = env.reset(seed=seed)
    counts = []
    terminated = False
    while not terminated:
        counts.append(int(info["action_mask"].sum()))
        observation, _, terminated, _, info = env.step(first_legal(observation, info["action_mask"]))
    return counts


def test_a_decision_with_one_legal_action_is_played_for_the_learner_by_default() -> None:
    env = SkaldGymEnv("vikings", 2, seat=0)
    counts = masks_handed_out(env, seed=1)
    assert min(counts) >= 2
    assert env.forced > 0 and env.decisions == len(counts)
    # The same game asks for every forced move without skip_forced (so the check above can fail).
    plain = SkaldGymEnv("vikings", 2, seat=0, skip_forced=False)
    plain_counts = masks_handed_out(plain, seed=1)
    assert plain_counts.count(1) == env.forced and plain.forced == 0
    assert plain.game_state.history == env.game_state.history


def test_pettingzoo_plays_forced_moves_for_every_seat_by_default() -> None:
    aec = SkaldAECEnv("vikings", 3)
    aec.reset(seed=2)
    for agent in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        assert observation["action_mask"].sum() >= 2, agent
        aec.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert sum(aec.forced) > 0


# -- 6. the margin-shaped reward ----------------------------------------------------------------------------------


def test_the_margin_reward_adds_up_to_the_return_plus_the_scaled_change_in_margin() -> None:
    env = SkaldGymEnv("vikings", 2, opponents="greedy", reward="margin", margin_scale=10.0)
    env.reset(seed=7)
    start = margin(env.game_state, env.seat)
    rewards, info = play_out(env, seed=7)
    seat = info["seat"]
    final = info["scores"][seat] - max(s for i, s in enumerate(info["scores"]) if i != seat)
    assert sum(rewards) == pytest.approx(info["returns"][seat] + (final - start) / 10.0)
    assert any(r != 0.0 for r in rewards[:-1])


def test_the_win_reward_is_zero_until_the_end() -> None:
    rewards, info = play_out(SkaldGymEnv("vikings", 2, reward="win"), seed=7)
    assert set(rewards[:-1]) == {0.0} and rewards[-1] == info["returns"][info["seat"]]


def test_pettingzoo_margin_rewards_add_up_for_every_agent() -> None:
    aec = SkaldAECEnv("vikings", 2, reward="margin", margin_scale=5.0)
    aec.reset(seed=3)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        aec.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    state = aec.game_state
    for seat, agent in enumerate(aec.possible_agents):
        assert totals[agent] == pytest.approx(state.returns()[seat] + margin(state, seat) / 5.0)


def test_an_unknown_reward_is_refused() -> None:
    with pytest.raises(ValueError, match="margin"):
        SkaldGymEnv("vikings", 2, reward="fame")
    with pytest.raises(ValueError, match="margin"):
        SkaldAECEnv("vikings", 2, reward="fame")


# -- 7. the observation without the mask --------------------------------------------------------------------------


def test_without_the_mask_in_the_observation_it_is_a_box_and_the_mask_is_in_info() -> None:
    env = SkaldGymEnv("vikings", 2, mask_in_observation=False)
    assert isinstance(env.observation_space, spaces.Box) and env.observation_space.shape == (1947,)
    observation, info = env.reset(seed=0)
    assert isinstance(observation, np.ndarray) and observation in env.observation_space
    assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
    check_env(SkaldGymEnv("vikingdoms", 2, mask_in_observation=False, reward="margin"), skip_render_check=True)


def test_pettingzoo_without_the_mask_in_the_observation_puts_it_in_the_acting_agents_infos() -> None:
    aec = SkaldAECEnv("vikingdoms", 2, mask_in_observation=False)
    aec.reset(seed=1)
    observation, _, _, _, info = aec.last()
    assert isinstance(observation, np.ndarray)
    assert np.flatnonzero(info["action_mask"]).tolist() == aec.game_state.legal_actions()
    api_test(SkaldAECEnv("vikingdoms", 2, mask_in_observation=False), num_cycles=300)


# -- 8. bounded observation spaces -----------------------------------------------------------------------------------


class BoundedProof(ProofGame):
    """The proof game declaring bounds and a length, as a game of the contract does."""

    name = "proof_declared"

    def observation_tensor_bounds(self, num_players: int) -> tuple[float, float]:
        return 0.0, 16.0

    def max_game_length(self, num_players: int, options: Any = None) -> int:
        return 8 * num_players


@pytest.fixture
def declared_game() -> Any:
    from skald.engine.registry import register, unregister

    game = register(BoundedProof())
    yield game
    unregister(game.name)


def test_the_tensor_space_has_the_bounds_the_game_declares(declared_game: Any) -> None:
    env = SkaldGymEnv(declared_game.name, 3, mask_in_observation=False)
    assert isinstance(env.observation_space, spaces.Box)
    assert float(env.observation_space.low.min()) == 0.0 and float(env.observation_space.high.max()) == 16.0
    aec = SkaldAECEnv(declared_game.name, 3)
    assert float(aec.observation_space("player_0")["observation"].high.max()) == 16.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SkaldGymEnv(declared_game.name, 2), skip_render_check=True)
    assert not [w for w in caught if "infinity" in str(w.message)]


# Vikingdoms' tensor lies in [-1, 1] by construction (docs/rl-observation.md); Vikings' Fame and Gold have no bound
# proven yet, so its Box stays unbounded until one is.
@pytest.mark.parametrize("name", ["vikingdoms"])
def test_a_game_whose_tensor_bounds_are_known_declares_them_and_its_tensors_keep_them(name: str) -> None:
    game = get_game(name)
    low, high = game.observation_tensor_bounds(game.min_players)
    assert np.isfinite(low) and np.isfinite(high)
    env = SkaldGymEnv(name, game.min_players, opponents="greedy", mask_in_observation=False)
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            assert observation in env.observation_space
            observation, _, terminated, _, info = env.step(first_legal(observation, info["action_mask"]))


# -- 9. the documented action spaces ----------------------------------------------------------------------------------


def test_the_observation_doc_quotes_each_games_action_space_size() -> None:
    text = (ROOT / "docs" / "rl-observation.md").read_text()
    quoted = dict(
        (title, int(count.replace(",", "")))
        for count, title in re.findall(r"([\d,]+) (?:ids )?for (Vikings|Vikingdoms)\b", text)
    )
    assert quoted == {
        "Vikings": get_game("vikings").num_distinct_actions,
        "Vikingdoms": get_game("vikingdoms").num_distinct_actions,
    }


# -- 11. out of order, masks, player counts ---------------------------------------------------------------------------


def test_a_pettingzoo_step_before_reset_says_to_reset_first() -> None:
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        env("vikings", 2).step(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        SkaldAECEnv("vikings", 2).step(0)


def test_a_gymnasium_step_before_reset_says_to_reset_first() -> None:
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        SkaldGymEnv("vikings", 2).step(0)


def test_action_masks_reuses_the_mask_handed_out_with_the_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    env = SkaldGymEnv("vikings", 2)
    _, info = env.reset(seed=0)
    state_class = type(env.game_state)

    def no_more(_self: Any) -> list[int]:
        raise AssertionError("action_masks() asked the game for its legal actions again")

    monkeypatch.setattr(state_class, "legal_actions", no_more)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))


def test_action_masks_follows_the_game_when_it_was_moved_by_hand() -> None:
    env = SkaldGymEnv("vikings", 2)
    _, info = env.reset(seed=0)
    env.game_state.apply(int(np.flatnonzero(info["action_mask"])[0]))
    assert np.flatnonzero(env.action_masks()).tolist() == (
        env.game_state.legal_actions() if env.game_state.current_player() >= 0 else []
    )


@pytest.mark.parametrize("build", [SkaldGymEnv, SkaldAECEnv])
def test_a_wrong_player_count_names_the_one_count_a_game_allows(build: Any) -> None:
    with pytest.raises(ValueError) as raised:
        build("vikingdoms", 3)
    assert str(raised.value) == "Vikingdoms is played by 2 players, not 3"
    with pytest.raises(ValueError, match="Vikings is played by 2–4 players, not 5"):
        build("vikings", 5)
