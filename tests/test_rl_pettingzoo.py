"""PettingZoo: the AEC environment passes PettingZoo's own API, seed and performance tests."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, performance_benchmark, seed_test

from skald.engine import IllegalAction
from skald.rl.pettingzoo_env import SkaldAECEnv, env

#: Every game that encodes a tensor, at each player count it allows.
GAMES_AND_PLAYERS = [("vikings", 2), ("vikings", 3), ("vikings", 4), ("vikingdoms", 2)]


@pytest.mark.parametrize(("game", "num_players"), GAMES_AND_PLAYERS)
def test_api_test(game: str, num_players: int) -> None:
    api_test(SkaldAECEnv(game, num_players), num_cycles=1000)


@pytest.mark.parametrize(("game", "num_players"), GAMES_AND_PLAYERS)
def test_seed_test(game: str, num_players: int) -> None:
    seed_test(lambda: SkaldAECEnv(game, num_players), num_cycles=500)


def test_performance_benchmark() -> None:
    # Runs for PettingZoo's fixed 5 seconds; it checks that whole games run and reset, it asserts no speed.
    performance_benchmark(env("vikings", 2))


def test_spaces_are_built_once_and_identical_across_seats() -> None:
    aec = SkaldAECEnv("vikings", 4)
    spaces = {id(aec.observation_space(a)) for a in aec.possible_agents}
    assert len(spaces) == 1
    assert len({id(aec.action_space(a)) for a in aec.possible_agents}) == 1
    aec.reset(seed=1)
    observation = aec.observe(aec.agent_selection)
    assert aec.observation_space(aec.agent_selection).contains(observation)


def test_a_whole_game_ends_with_skald_returns() -> None:
    aec = SkaldAECEnv("vikings", 3)
    aec.reset(seed=5)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
        else:
            aec.step(int(observation["action_mask"].nonzero()[0][0]))
    assert sum(totals.values()) == pytest.approx(1.0)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    aec = SkaldAECEnv("vikings", 2)
    aec.reset(seed=2)
    before = list(aec.game_state.history)
    illegal = int((aec.observe(aec.agent_selection)["action_mask"] == 0).nonzero()[0][0])
    with pytest.raises(IllegalAction):
        aec.step(illegal)
    assert aec.game_state.history == before


def test_writing_to_the_handed_out_mask_cannot_make_an_illegal_action_legal() -> None:
    # `step` checks against the env's own copy of the mask, so a caller's edits to theirs change nothing.
    aec = SkaldAECEnv("vikings", 2)
    aec.reset(seed=3)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int((mask == 0).nonzero()[0][0])
    mask[:] = 1
    before = list(aec.game_state.history)
    with pytest.raises(IllegalAction) as raised:
        aec.step(illegal)
    assert raised.value.rule and aec.game_state.history == before


@pytest.mark.parametrize("action", [-1, 10_000])
def test_an_action_outside_the_action_space_names_its_rule(action: int) -> None:
    aec = SkaldAECEnv("vikings", 2)
    aec.reset(seed=3)
    aec.last()
    before = list(aec.game_state.history)
    with pytest.raises(IllegalAction) as raised:
        aec.step(action)
    assert raised.value.rule == "action.space" and aec.game_state.history == before


def test_a_step_taken_without_observing_is_still_checked() -> None:
    aec = SkaldAECEnv("vikings", 2)
    aec.reset(seed=4)
    legal = aec.game_state.legal_actions()
    illegal = next(a for a in range(aec.num_actions) if a not in legal)
    before = list(aec.game_state.history)
    with pytest.raises(IllegalAction):
        aec.step(illegal)
    assert aec.game_state.history == before
    aec.step(legal[0])
    assert aec.game_state.history[len(before)] == legal[0]


def test_a_mask_from_an_earlier_position_lets_nothing_through_unchecked() -> None:
    # The env's copy of the mask belongs to the position it was built for: once the game has moved on (here
    # directly, through the public game_state), an action from the old mask is checked by the game again.
    aec = SkaldAECEnv("vikings", 2)
    aec.reset(seed=6)
    legal = aec.observe(aec.agent_selection)["action_mask"].nonzero()[0].tolist()
    aec.game_state.apply(legal[0])
    stale = next(a for a in legal[1:] if aec.game_state.illegal_reason(a) is not None)
    before = list(aec.game_state.history)
    with pytest.raises(IllegalAction):
        aec.step(stale)
    assert aec.game_state.history == before
