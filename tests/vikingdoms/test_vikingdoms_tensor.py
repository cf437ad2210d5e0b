"""The Vikingdoms observation tensor (docs/rl-observation.md, "Vikingdoms"): its shape, the two seats' views of one
table, what it hides, and that it follows everything a person at the table can see."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from vikingdoms_kit import GAME, B, R, at_raid, rebalance, stack, tile

from skald.engine import CHANCE, sample_chance
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.board import NUM_SQUARES, square_from_name
from skald.games.vikingdoms.state import VikingdomsState
from skald.games.vikingdoms.tensor import LEVELS, OFFSET

SIZE = GAME.observation_tensor_shape(2)[0]


def random_positions(seed: int, options: dict[str, str] | None = None) -> list[VikingdomsState]:
    """Every position of one seeded random game, chance nodes and the end included."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(2, options)
    found = [state.clone()]
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        found.append(state.clone())
    return found


POSITIONS = [p for seed in range(12) for p in random_positions(seed)]
POSITIONS += [p for seed in range(4) for p in random_positions(seed, {"both_pass": "void", "exchange_size": "all"})]


def swap_sides(vector: list[float]) -> list[float]:
    """`vector` with every (mine, theirs) pair of the documented layout exchanged; shared slices stay."""
    out = list(vector)

    def swap(first: int, second: int, size: int = 1) -> None:
        out[first : first + size] = vector[second : second + size]
        out[second : second + size] = vector[first : first + size]

    for cell in range(NUM_SQUARES * LEVELS):
        swap(OFFSET["board"] + 2 * cell, OFFSET["board"] + 2 * cell + 1)
    for name in ("camp", "lockup", "troop", "leader", "to move", "rioter", "allies owed"):
        swap(OFFSET[name], OFFSET[name] + 1)
    for name in ("territory", "taken"):
        swap(OFFSET[name], OFFSET[name] + A.NUM_TILES, A.NUM_TILES)
    for ally in range(len(A.ALLY_NAMES)):
        swap(OFFSET["allies"] + 3 * ally, OFFSET["allies"] + 3 * ally + 1)  # the third, "by the board", stays
    return out


def test_the_tensor_has_the_declared_shape_at_every_position_of_random_games() -> None:
    for state in POSITIONS:
        for seat in (R, B):
            assert len(state.observation_tensor(seat)) == SIZE
            assert state.observation_array(seat).shape == (SIZE,)


def test_each_seats_tensor_is_the_others_with_mine_and_theirs_swapped() -> None:
    differing = 0
    for state in POSITIONS:
        red, blue = state.observation_tensor(R), state.observation_tensor(B)
        assert swap_sides(red) == blue
        differing += red != blue
    assert differing > len(POSITIONS) // 2  # the swap is doing real work, not comparing equal vectors


def test_every_value_is_between_0_and_1_but_the_direction() -> None:
    for state in POSITIONS:
        for seat in (R, B):
            values = state.observation_tensor(seat)
            assert values[OFFSET["direction"]] in (-1.0, 0.0, 1.0)
            del values[OFFSET["direction"]]
            assert all(0.0 <= value <= 1.0 for value in values)


def _deal(order: list[int]) -> VikingdomsState:
    """A new game with the tiles of `order` drawn in turn."""
    state = GAME.new_initial_state(2)
    for drawn in order:
        state.apply(A.DEAL + drawn)
    return state


@pytest.mark.parametrize("drawn", range(A.NUM_TILES))
def test_deals_that_differ_only_where_the_undrawn_tiles_will_lie_give_the_same_tensor(drawn: int) -> None:
    # Set-up (3): the tiles are drawn one at a time, and Skald decides where a tile lies only when chance draws it.
    # Two deals that share the first `drawn` tiles and then go apart are one table until the next draw, and of the
    # undrawn tiles the tensor may show only how many there are: no feature naming one of them may be set.
    rng = random.Random(drawn)
    so_far = rng.sample(range(A.NUM_TILES), drawn)
    rest = [t for t in range(A.NUM_TILES) if t not in so_far]
    then = rng.sample(rest, len(rest))
    one_way, other_way = so_far + then, so_far + then[::-1]
    first, second = _deal(one_way[:drawn]), _deal(other_way[:drawn])
    for seat in (R, B):
        seen = first.observation_tensor(seat)
        assert seen == second.observation_tensor(seat)
        assert seen[OFFSET["undrawn"]] == len(rest) / A.NUM_TILES
        for undrawn in rest:
            naming = [OFFSET["territory"] + side * A.NUM_TILES + undrawn for side in (0, 1)]
            naming += [OFFSET["islands"] + island * A.NUM_TILES + undrawn for island in range(A.NUM_ISLANDS)]
            assert [seen[index] for index in naming] == [0.0] * len(naming)
    # The next draw shows itself.
    if len(rest) > 1:
        first.apply(A.DEAL + one_way[drawn])
        second.apply(A.DEAL + other_way[drawn])
        assert first.observation_tensor(R) != second.observation_tensor(R)


def _raid_under_way() -> VikingdomsState:
    """Red led a troop to island 1 and took V2 (his second village), Blue got P1 (his second port): both are owed an
    ally and Red chooses first; stacks stand on the board for the next recruitment."""
    state = at_raid(red=("V1",), blue=("P2",), island=("V2", "P1"), troop="BRRBRR")
    state.board[square_from_name("a1")] = stack("RB")
    state.board[square_from_name("c3")] = stack("BBR")
    state.board[square_from_name("d4")] = stack("B")
    rebalance(state)
    state.apply(A.TAKE + tile("V2"))
    assert state.phase == S.CHOOSING_ALLY and state.pending_allies == ((R, "village"), (B, "port"))
    return state


def _set(field: str, value: object) -> Callable[[VikingdomsState], None]:
    return lambda state: setattr(state, field, value)


def _set_item(field: str, index: int, value: object) -> Callable[[VikingdomsState], None]:
    return lambda state: getattr(state, field).__setitem__(index, value)


def _swap_islands(state: VikingdomsState) -> None:
    state.islands[2:4], state.islands[6:8] = state.islands[6:8], state.islands[2:4]


def _territory_changes_hands(state: VikingdomsState) -> None:
    state.territory = [state.territory[R][1:], (*state.territory[B], state.territory[R][0])]


# Each changes one thing a person at the table can see. The positions need not be reachable: the tensor must follow
# each part of the table on its own.
VISIBLE_CHANGES: dict[str, Callable[[VikingdomsState], None]] = {
    "a Viking placed": _set_item("board", square_from_name("b2"), (R,)),
    "the top Viking of a stack changes colour": _set_item("board", square_from_name("c3"), stack("BBB")),
    "a stack grows": _set_item("board", square_from_name("d4"), stack("BR")),
    "my camp": lambda s: s.camp.__setitem__(R, s.camp[R] - 1),
    "their camp": lambda s: s.camp.__setitem__(B, s.camp[B] - 1),
    "my lockup": lambda s: s.lockup.__setitem__(R, s.lockup[R] + 1),
    "their lockup": lambda s: s.lockup.__setitem__(B, s.lockup[B] + 1),
    "a territory tile changes hands": _territory_changes_hands,
    "Gunnar swaps two islands": _swap_islands,
    "an island is set aside": lambda s: s.islands.__setitem__(slice(8, 10), [-1, -1]),
    "an island is raided": _set_item("raided", 3, True),
    "the raid marker moves": _set("marker", 1),
    "the raid marker turns": _set("direction", -1),
    "an ally is taken by Red": _set_item("allies", A.FREYA, R),
    "an ally is taken by Blue": _set_item("allies", A.FREYA, B),
    "a Viking leaves the troop": _set("troop", stack("BRBRR")),
    "a Viking in the troop changes colour": _set("troop", stack("BRRBRB")),
    "the leader": _set("leader", B),
    "the phase": _set("phase", S.EXCHANGING),
    "the seat to move": _set("to_move", B),
    "the tile Red took": _set_item("taken", R, tile("P1")),
    "the tile Blue took": _set_item("taken", B, tile("V2")),
    "a rioter": _set("rioter", B),
    "Red is owed no ally": _set("pending_allies", ((B, "port"),)),
    "Blue is owed no ally": _set("pending_allies", ((R, "village"),)),
    "Blue is owed a second ally": _set("pending_allies", ((R, "village"), (B, "port"), (B, "fortress"))),
    "the game is over": _set("phase", S.OVER),
}


@pytest.mark.parametrize("change", list(VISIBLE_CHANGES))
def test_the_tensor_changes_when_something_visible_changes(change: str) -> None:
    before = _raid_under_way()
    after = before.clone()
    VISIBLE_CHANGES[change](after)
    for seat in (R, B):
        assert after.observation(seat) != before.observation(seat), "the change must be visible at the table"
        assert after.observation_tensor(seat) != before.observation_tensor(seat)


def test_the_numpy_array_equals_the_list_at_every_position() -> None:
    np = pytest.importorskip("numpy")
    for state in POSITIONS:
        for seat in (R, B):
            array = state.observation_array(seat)
            assert array.dtype == np.float32
            assert np.array_equal(array, np.asarray(state.observation_tensor(seat), dtype=np.float32))


def test_each_array_is_fresh_and_writable() -> None:
    np = pytest.importorskip("numpy")
    state = POSITIONS[-1]
    first, second = state.observation_array(R), state.observation_array(R)
    first[:] = 7.0
    assert not (second == 7.0).any()
    assert np.array_equal(state.observation_array(R), np.asarray(state.observation_tensor(R), dtype=np.float32))
