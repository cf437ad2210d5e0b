"""The observation tensor (docs/rl-observation.md): one shape per player count, the same layout for every seat."""

from __future__ import annotations

import random

import pytest

from skald.engine import CHANCE, get_game, sample_chance
from skald.games.vikings import tensor
from skald.games.vikings.state import VikingsState
from skald.rl import learnable_games

GAME = get_game("vikings")


def _positions(num_players: int, seed: int, every: int = 7) -> list[VikingsState]:
    """Positions along one random game, every `every` actions, the end included."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(num_players)
    assert isinstance(state, VikingsState)
    found = []
    while not state.is_terminal():
        if len(state.history) % every == 0:
            found.append(state.clone())
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return [*found, state]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_tensor_has_the_declared_shape_for_every_seat(num_players: int) -> None:
    size = GAME.observation_tensor_shape(num_players)[0]
    for state in _positions(num_players, seed=num_players):
        for seat in range(num_players):
            assert len(state.observation_tensor(seat)) == size


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_each_seat_sees_its_own_mainland_first_then_the_others_clockwise(num_players: int) -> None:
    block = tensor.mainland_size(num_players)
    for state in _positions(num_players, seed=10 + num_players, every=23):
        seen_by_0 = state.observation_tensor(0)
        blocks = [seen_by_0[k * block : (k + 1) * block] for k in range(num_players)]
        for seat in range(1, num_players):
            seen = state.observation_tensor(seat)
            rotated = blocks[seat:] + blocks[:seat]
            assert [seen[k * block : (k + 1) * block] for k in range(num_players)] == rotated
            assert seen[num_players * block :] == seen_by_0[num_players * block :]


def test_the_stacks_and_bag_appear_only_as_counts() -> None:
    # Two games that drew different tiles in a different order but left the same counts look the same.
    first, second = GAME.new_initial_state(2), GAME.new_initial_state(2)
    first.apply(first.legal_actions()[0])
    first.apply(first.legal_actions()[-1])
    second.apply(second.legal_actions()[-1])
    second.apply(second.legal_actions()[0])
    assert first.history != second.history
    assert first.observation_tensor(0)[-len(first.pool) - 7 :] == second.observation_tensor(0)[-len(second.pool) - 7 :]


def test_mainland_width_bound_holds_in_random_games() -> None:
    for num_players in (2, 3, 4):
        for state in _positions(num_players, seed=99, every=1000):
            assert all(land.width <= tensor.columns(num_players) for land in state.lands)


def test_a_game_without_tensors_says_so_by_name() -> None:
    class Plain(type(GAME)):  # type: ignore[misc]
        name = "plain"
        provides_observation_tensor = False

        def observation_tensor_shape(self, num_players: int) -> tuple[int, ...]:
            return super(type(GAME), self).observation_tensor_shape(num_players)

    with pytest.raises(NotImplementedError, match="plain"):
        Plain().observation_tensor_shape(2)
    assert not Plain().provides_observation_tensor
    assert "vikings" in learnable_games()


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("options", [None, {"variant": "advanced"}], ids=["base", "advanced"])
def test_the_numpy_fast_path_equals_the_list_everywhere(num_players: int, options: dict[str, str] | None) -> None:
    # Walked in place (the fast path's caches hit and miss) and on clones (fresh Mainlands), from every seat.
    np = pytest.importorskip("numpy")
    for seed in range(3):
        rng = random.Random(100 * num_players + seed)
        state = GAME.new_initial_state(num_players, options)
        while True:
            for position in (state, state.clone()):
                for seat in range(num_players):
                    fast = position.observation_array(seat)
                    assert fast.dtype == np.float32
                    assert fast.shape == GAME.observation_tensor_shape(num_players)
                    assert np.array_equal(fast, np.asarray(position.observation_tensor(seat), dtype=np.float32))
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))


def test_the_fast_path_arrays_are_fresh_and_writable() -> None:
    state = _positions(2, seed=5)[-1]
    first, second = state.observation_array(0), state.observation_array(0)
    first[:] = 7.0
    assert first.flags.writeable
    assert not (second == 7.0).all()


def test_the_fast_path_follows_every_change_made_through_the_mainland() -> None:
    # The cache catches up from the Mainland's change log and compares its scalars: each must show, for every seat.
    np = pytest.importorskip("numpy")
    state = _positions(2, seed=8)[-1]
    land = state.lands[0]
    row, col = next((r, c) for r in (1, 2, 3, 4, 5) for c in range(1, 30) if land.tile(r, c) == tensor.EMPTY)
    ship_col = next(c for c in range(1, tensor.NUM_SHIPS + 1) if land.tile(0, c) == tensor.EMPTY)
    changes = [
        lambda: land.place_island(0, row, col),
        lambda: land.put_viking(0, row, col),
        lambda: land.place_ship(tensor.NUM_TILE_TYPES - 1, ship_col),
        lambda: setattr(land, "gold", land.gold + 3),
        lambda: setattr(land, "fame", land.fame - 2),
        lambda: land.head.__setitem__(2, land.head[2] + 1),
        lambda: setattr(land, "start_placed", not land.start_placed),
    ]
    for change in changes:
        state.observation_array(0)
        change()
        for seat in (0, 1):
            expected = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(state.observation_array(seat), expected)


def test_the_fast_path_catches_up_after_many_unobserved_actions() -> None:
    # Observed only now and then, a Mainland's log holds several changes to replay at once.
    np = pytest.importorskip("numpy")
    rng = random.Random(31)
    state = GAME.new_initial_state(3)
    while not state.is_terminal():
        if rng.random() < 0.1:
            for seat in range(3):
                expected = np.asarray(state.observation_tensor(seat), dtype=np.float32)
                assert np.array_equal(state.observation_array(seat), expected)
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("options", [None, {"variant": "advanced"}], ids=["base", "advanced"])
def test_every_entry_lies_within_the_bounds_the_game_declares(num_players: int, options: dict[str, str] | None) -> None:
    low, high = GAME.observation_tensor_bounds(num_players)
    assert (low, high) == (-1.0, 1.0)
    for seed in range(4):
        rng = random.Random(7 * num_players + seed)
        state = GAME.new_initial_state(num_players, options)
        while not state.is_terminal():
            for seat in range(num_players):
                tensor = state.observation_tensor(seat)
                assert low <= min(tensor) and max(tensor) <= high, (seat, min(tensor), max(tensor))
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(rng.choice(state.legal_actions()))


def test_fame_and_gold_keep_their_order_inside_the_bounds_however_large() -> None:
    state = GAME.new_initial_state(2)
    land = state.lands[0]
    seen = []
    for fame in (-200, -3, 0, 7, 50, 400, 10_000):
        land.fame = fame
        seen.append(state.observation_tensor(0)[0])
    assert seen == sorted(seen) and len(set(seen)) == len(seen)
    assert seen[0] > -1.0 and seen[-1] < 1.0 and seen[4] == 0.5
