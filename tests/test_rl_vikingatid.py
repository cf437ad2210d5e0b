"""Vikingatid for learning: its observation tensor (what a seat may see and no more) and the three adapters, each
passing its project's own API test at 2, 4 and 6 players (docs/rl-observation.md).

Vikingatid games are long (1,000 actions at two players, 10,000 at six), so the adapters' tests play the shorter
game of the rule options: the track ends in 1100 (`last_year`), and at more than two players only a seat holding a
card playable in a window is asked (`card_prompts: playable_only`), which keeps every hidden hand and cuts a game
to a third. The full-length forms are marked slow.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import numpy as np
import pytest

from skald.engine import CHANCE, get_game, sample_chance
from skald.games.vikingatid import tensor
from skald.games.vikingatid.actions import CARD_KINDS
from skald.games.vikingatid.state import VikingatidState

GAME = get_game("vikingatid")
#: The shortest game of the rule options: the track's last box is 1100 (turn 13).
SHORT: dict[str, Any] = {"last_year": "1100"}
#: Shorter still at many players: a window asks only the seats holding a card playable there (VA-09).
SHORTER: dict[str, Any] = {"last_year": "1100", "card_prompts": "playable_only"}
PLAYER_COUNTS = (2, 4, 6)


def _step(state: VikingatidState, rng: random.Random) -> None:
    """One random action: chance by its probabilities, a seat uniformly among its legal actions."""
    if state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))
    else:
        state.apply(rng.choice(state.legal_actions()))


def _positions(num_players: int, seed: int, every: int, options: dict[str, Any] | None = None) -> list[VikingatidState]:
    """Copies of every `every`-th position of one random game, the last (terminal) one included."""
    state = GAME.new_initial_state(num_players, options if options is not None else SHORT)
    rng = random.Random(seed)
    found: list[VikingatidState] = []
    while not state.is_terminal():
        if len(state.history) % every == 0:
            found.append(state.clone())
        _step(state, rng)
    found.append(state)
    return found


def _observed_json(state: VikingatidState, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, default=str)


# -- the tensor ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_tensor_has_the_declared_shape_and_lies_within_the_declared_bounds(num_players: int) -> None:
    (size,) = GAME.observation_tensor_shape(num_players)
    low, high = GAME.observation_tensor_bounds(num_players)
    assert (low, high) == (0.0, 1.0)
    positions = _positions(num_players, seed=num_players, every=5)
    assert positions[-1].is_terminal()
    for state in positions:
        for seat in range(num_players):
            values = state.observation_tensor(seat)
            assert len(values) == size
            assert min(values) >= low and max(values) <= high


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_array_path_gives_the_same_values_as_the_list(num_players: int) -> None:
    for state in _positions(num_players, seed=10 + num_players, every=37):
        for seat in range(num_players):
            array = tensor.encode_array(state, seat)
            assert array.dtype == np.float32
            assert np.array_equal(array, np.asarray(state.observation_tensor(seat), dtype=np.float32))


def test_the_shape_depends_on_the_player_count_only() -> None:
    sizes = [GAME.observation_tensor_shape(n)[0] for n in range(2, 7)]
    assert len(set(sizes)) == 5
    per_seat = tensor.layout(GAME.board, 2).seat_size
    assert [b - a for a, b in itertools.pairwise(sizes)] == [per_seat] * 4
    with pytest.raises(ValueError):
        GAME.observation_tensor_shape(7)


def _hand_slice(state: VikingatidState, seat: int) -> list[float]:
    lay = tensor.layout(state.board, state.num_players)
    return state.observation_tensor(seat)[lay.hand : lay.hand + CARD_KINDS]


def test_the_own_hand_is_encoded_by_kind_over_each_kinds_count_in_the_deck() -> None:
    for state in _positions(4, seed=3, every=101):
        for seat in range(4):
            hand = state.deck.hands[seat]
            expected = [hand[k] / state.deck.counts[k] for k in range(CARD_KINDS)]
            assert _hand_slice(state, seat) == pytest.approx(expected)


def test_each_seats_block_comes_from_the_observer_clockwise() -> None:
    # Seat s's silver and hand size sit in block (s - viewer) mod n: block 0 is always the viewer's own.
    lay = tensor.layout(GAME.board, 4)
    for state in _positions(4, seed=8, every=211)[2:]:
        for viewer in range(4):
            values = state.observation_tensor(viewer)
            for s in range(4):
                at = ((s - viewer) % 4) * lay.seat_size
                assert values[at + tensor.SILVER] == pytest.approx(min(state.position.silver[s] / 50, 1.0))
                assert values[at + tensor.HAND_SIZE] == pytest.approx(min(state.deck.hand_size(s) / 10, 1.0))
                assert values[at + tensor.TO_ACT] == float(state.current_player() == s)


def _swap_in_hand(state: VikingatidState, seat: int) -> VikingatidState | None:
    """A copy of `state` where one card of `seat`'s hand is another kind, the deck holding the first instead: the
    hand's size and everything public stay as they were. None if no such swap exists here."""
    deck = state.deck
    held = [k for k in range(CARD_KINDS) if deck.hands[seat][k]]
    spare = [k for k in range(CARD_KINDS) if deck.deck[k] and k not in held]
    if not held or not spare:
        return None
    world = state.clone()
    out, into = held[0], spare[0]
    world.deck.hands[seat][out] -= 1
    world.deck.hands[seat][into] += 1
    world.deck.deck[into] -= 1
    world.deck.deck[out] += 1
    return world


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_two_worlds_differing_only_in_another_seats_hand_encode_identically(num_players: int) -> None:
    # The rulings' "Hidden information": a hand is its holder's. Another seat's hand (and with it the deck's make-up)
    # changed, its size kept: the viewer sees the same observation, and must get the same tensor.
    swaps = 0
    for state in _positions(num_players, seed=20 + num_players, every=31):
        for viewer in range(num_players):
            for other in range(num_players):
                if other == viewer:
                    continue
                world = _swap_in_hand(state, other)
                if world is None:
                    continue
                swaps += 1
                assert world.deck.hands[other] != state.deck.hands[other]
                assert _observed_json(world, viewer) == _observed_json(state, viewer)
                assert world.observation_tensor(viewer) == state.observation_tensor(viewer)
                assert np.array_equal(tensor.encode_array(world, viewer), tensor.encode_array(state, viewer))
    assert swaps > 10


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_tensor_changes_when_the_seats_own_hand_changes(num_players: int) -> None:
    changed = 0
    for state in _positions(num_players, seed=30 + num_players, every=71):
        for seat in range(num_players):
            world = _swap_in_hand(state, seat)
            if world is None:
                continue
            changed += 1
            assert world.observation_tensor(seat) != state.observation_tensor(seat)
            # Only the hand moved: everything outside its slice is the same.
            lay = tensor.layout(state.board, num_players)
            mine, theirs = world.observation_tensor(seat), state.observation_tensor(seat)
            outside = [
                k for k in range(len(mine)) if mine[k] != theirs[k] and not lay.hand <= k < lay.hand + CARD_KINDS
            ]
            assert outside == []
    assert changed > 5


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_worlds_resampled_from_a_seats_information_state_encode_identically_for_it(num_players: int) -> None:
    # Every world the seat cannot tell from the true one (the draws and gifts it did not see dealt again,
    # `resample_from_infostate`) gives it the same tensor, whatever the other hands hold there.
    rng = random.Random(num_players)
    differing = 0
    for state in _positions(num_players, seed=40 + num_players, every=97):
        for seat in range(num_players):
            world = state.resample_from_infostate(seat, rng)
            if world.deck.hands != state.deck.hands:
                differing += 1
            assert world.deck.hands[seat] == state.deck.hands[seat]
            assert world.observation_tensor(seat) == state.observation_tensor(seat)
    assert differing > 5


def test_the_deck_appears_as_its_size_only() -> None:
    # The deck's make-up follows from the hidden hands: moving cards between the deck's kinds changes nothing.
    state = _positions(3, seed=5, every=400)[1]
    world = state.clone()
    kinds = [k for k in range(CARD_KINDS) if world.deck.deck[k]]
    world.deck.deck[kinds[0]] -= 1
    world.deck.deck[kinds[1]] += 1
    for seat in range(3):
        assert world.observation_tensor(seat) == state.observation_tensor(seat)


def test_an_invalid_seat_is_refused_by_name() -> None:
    state = GAME.new_initial_state(2, SHORT)
    with pytest.raises(ValueError, match="seat"):
        state.observation_tensor(2)


# -- OpenSpiel ---------------------------------------------------------------------------------------------------------


def _spiel(num_players: int, options: dict[str, Any]) -> Any:
    pytest.importorskip("pyspiel")
    from skald.rl import openspiel as skald_spiel

    return skald_spiel.load("vikingatid", num_players, **options)


def test_openspiel_registers_vikingatid_as_imperfect_information_with_observation_tensors() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = _spiel(4, SHORT)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.provides_observation_tensor and kind.provides_information_state_string
    # A fixed-size tensor cannot hold everything a seat remembers over thousands of actions (its information
    # state): only the observation tensor is offered, as for the proof game.
    assert not kind.provides_information_state_tensor
    assert game.observation_tensor_shape() == list(GAME.observation_tensor_shape(4))


@pytest.mark.parametrize(("num_players", "options"), [(2, SHORT), (4, SHORTER), (6, SHORTER)])
def test_openspiel_random_sim_test(num_players: int, options: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pyspiel.random_sim_test(_spiel(num_players, options), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 4])
def test_openspiel_random_sim_test_full_windows(num_players: int) -> None:
    # Every holder asked in every window. Not at six players: OpenSpiel's test keeps a copy of every state of the
    # game, and a six-player game of 10,000 actions needs several gigabytes for them.
    pyspiel = pytest.importorskip("pyspiel")
    pyspiel.random_sim_test(_spiel(num_players, SHORT), num_sims=2, serialize=True, verbose=False)


def test_openspiel_observation_tensors_are_each_players_own_view() -> None:
    pytest.importorskip("pyspiel")
    game = _spiel(3, SHORT)
    state = game.new_initial_state()
    rng = random.Random(2)
    while len(state.history()) < 400:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    skald_state = state.skald_state
    for seat in range(3):
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat), np.float32), tensor.encode_array(skald_state, seat)
        )
        world = _swap_in_hand(skald_state, (seat + 1) % 3)
        if world is not None:
            assert world.observation_tensor(seat) == skald_state.observation_tensor(seat)


# -- PettingZoo and Gymnasium ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "options"), [(2, SHORT), (4, SHORTER), (6, SHORTER)])
def test_pettingzoo_api_test(num_players: int, options: dict[str, Any]) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from skald.rl.pettingzoo_env import SkaldAECEnv

    api_test(SkaldAECEnv("vikingatid", num_players, options=options), num_cycles=300)


@pytest.mark.parametrize(("num_players", "options"), [(2, SHORT), (4, SHORTER), (6, SHORTER)])
def test_gymnasium_check_env(num_players: int, options: dict[str, Any]) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from skald.rl.gymnasium_env import SkaldGymEnv

    check_env(SkaldGymEnv("vikingatid", num_players, options=options, seat=None), skip_render_check=True)


def test_pettingzoo_agents_see_only_their_own_hands() -> None:
    pytest.importorskip("pettingzoo")
    from skald.rl.pettingzoo_env import SkaldAECEnv

    aec = SkaldAECEnv("vikingatid", 3, options=SHORT)
    aec.reset(seed=4)
    rng = random.Random(4)
    for _ in range(300):
        agent = aec.agent_selection
        observation = aec.observe(agent)
        seat = aec.possible_agents.index(agent)
        state = aec.game_state
        assert np.array_equal(observation["observation"], tensor.encode_array(state, seat))
        for other in aec.possible_agents:
            if other != agent:
                world = _swap_in_hand(state, aec.possible_agents.index(other))
                if world is not None:
                    assert np.array_equal(tensor.encode_array(world, seat), observation["observation"])
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(int(rng.choice(list(legal))))
        if aec.game_state.is_terminal():
            break


def test_a_whole_gymnasium_game_against_random_ends_with_the_learners_return() -> None:
    pytest.importorskip("gymnasium")
    from skald.rl.gymnasium_env import SkaldGymEnv

    env = SkaldGymEnv("vikingatid", 2, opponents="random", seat=1, options=SHORT)
    observation, info = env.reset(seed=6)
    rng = random.Random(6)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        assert env.observation_space.contains(observation)
        assert np.array_equal(observation["observation"], tensor.encode_array(env.game_state, 1))
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(list(legal))))
    assert terminated and not truncated
    assert reward == env.game_state.returns()[1] == info["returns"][1]


def test_vikingatid_is_learnable_and_registered_with_gymnasium() -> None:
    pytest.importorskip("gymnasium")
    import gymnasium

    from skald.rl import learnable_games
    from skald.rl.gymnasium_env import register_envs

    assert "vikingatid" in learnable_games()
    assert "skald/Vikingatid-v0" in register_envs()
    env = gymnasium.make("skald/Vikingatid-v0", num_players=6, opponents="random", options=SHORTER)
    observation, _ = env.reset(seed=1)
    assert observation["observation"].shape == GAME.observation_tensor_shape(6)
    assert env.observation_space["observation"].high.max() == 1.0
