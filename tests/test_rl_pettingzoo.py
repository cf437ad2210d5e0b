"""PettingZoo: the AEC environment passes PettingZoo's own API, seed and performance tests."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, performance_benchmark, seed_test

import proof_game  # registers "proof", the test suite's hidden-information card game
from skald.engine import IllegalAction
from skald.rl.pettingzoo_env import SkaldAECEnv, env

#: Every game that encodes a tensor, at each player count it allows.
GAMES_AND_PLAYERS = [
    ("vikings", 2),
    ("vikings", 3),
    ("vikings", 4),
    ("vikingdoms", 2),
    (proof_game.game.GAME.name, 2),
    (proof_game.game.GAME.name, 3),
    (proof_game.game.GAME.name, 4),
]


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


# -- hidden information: each agent observes its own view only ----------------------------------------------------


def _two_worlds(num_players: int) -> tuple[SkaldAECEnv, SkaldAECEnv]:
    """Two proof games, reset with different seeds, whose deals player_0 cannot tell apart (the same cards dealt to
    it in the same order) while another seat's cards differ."""
    seen: dict[str, SkaldAECEnv] = {}
    for seed in range(2000):
        aec = SkaldAECEnv("proof", num_players)
        aec.reset(seed=seed)
        key = aec.game_state.information_state_string(0)
        if key in seen and seen[key].game_state.dealt != aec.game_state.dealt:  # type: ignore[attr-defined]
            return seen[key], aec
        seen[key] = aec
    raise AssertionError("no two deals alike for player_0 in 2000 seeds")


@pytest.mark.parametrize("num_players", [2, 3])
def test_an_agent_observes_alike_in_games_it_cannot_tell_apart(num_players: int) -> None:
    world_a, world_b = _two_worlds(num_players)
    # Seat 0 bids first, the same in both; seat 1 bids differently, in secret while seat 2 is still to bid.
    for bids in ([1, 1], [1, 2] if num_players == 2 else [1, 3]):
        for world, bid in zip((world_a, world_b), bids, strict=True):
            agent = world.agent_selection
            assert agent == f"player_{len(world.game_state.history) - 3 * num_players}"
            world.step(proof_game.actions.bid(bid))
        watched = world_a.observe("player_0"), world_b.observe("player_0")
        assert np.array_equal(watched[0]["observation"], watched[1]["observation"])
        assert np.array_equal(watched[0]["action_mask"], watched[1]["action_mask"])
        assert world_a.infos["player_0"] == world_b.infos["player_0"] == {}
        if num_players == 2:
            break
    # The seat whose cards differ sees the difference: the comparison above can fail.
    assert not np.array_equal(world_a.observe("player_1")["observation"], world_b.observe("player_1")["observation"])


def test_no_agent_is_handed_another_seats_hand() -> None:
    aec = SkaldAECEnv("proof", 3)
    aec.reset(seed=8)
    for agent in aec.agent_iter():
        observation, _reward, terminated, truncated, info = aec.last()
        seat = int(agent.split("_")[1])
        assert np.array_equal(observation["observation"], aec.game_state.observation_array(seat))
        # During play nothing at all; at the end only the public result (scores, winners, the seat's own counts).
        if terminated:
            assert set(info) == {"scores", "winners", "returns", "game_length", "decisions", "forced"}
        else:
            assert info == {}
        aec.step(None if terminated or truncated else int(observation["action_mask"].nonzero()[0][-1]))
