"""Self-play games and the buffer of their positions: what training learns from (numpy only, no PyTorch)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skald.bots.model import ModelCard, model_file_bytes, random_network
from skald.engine import TERMINAL, get_game
from skald.train.buffer import Buffer, BufferError
from skald.train.selfplay import SelfPlayGame, SelfPlayTask, play_selfplay


def _task(game: str, players: int = 2, seed: int = 0, iterations: int = 8) -> SelfPlayTask:
    rules = get_game(game)
    card = ModelCard(game, players, rules.num_distinct_actions, rules.observation_tensor_shape(players), hidden=(8,))
    model = model_file_bytes(random_network(card, 3))
    return SelfPlayTask(game, players, {}, model, seed, iterations, value_mix=0.5)


@pytest.mark.parametrize(("game", "players"), [("vikingdoms", 2), ("vikings", 3)])
def test_every_position_holds_its_movers_observation_and_a_policy_over_its_legal_actions(
    game: str, players: int
) -> None:
    played = play_selfplay(_task(game, players))
    assert played.decisions == len(played.observations) > 0
    # Replay the game's decisions: each recorded observation is the mover's own at that decision.
    shape = get_game(game).observation_tensor_shape(players)
    for observation, legal, policy, mover in zip(
        played.observations, played.legal, played.policies, played.movers, strict=True
    ):
        assert observation.shape == (int(np.prod(shape)),)
        assert len(legal) == len(policy) > 1
        assert sum(policy) == pytest.approx(1.0)
        assert 0 <= mover < players


@pytest.mark.parametrize("game", ["vikingdoms", "vikingatid"])
def test_each_position_is_what_the_seat_to_act_observed_there_and_nothing_more(game: str) -> None:
    played = play_selfplay(_task(game, seed=5, iterations=4))
    state = get_game(game).new_initial_state(2)
    decisions = dict(zip(played.plies, range(len(played.plies)), strict=True))
    assert len(decisions) == played.decisions > 0
    for ply, action in enumerate(played.history):
        if ply in decisions:
            at = decisions[ply]
            assert state.current_player() == played.movers[at]
            assert state.legal_actions() == played.legal[at]
            observed = state.observation_array(played.movers[at]).reshape(-1)
            assert np.array_equal(played.observations[at], observed), f"position {at} (ply {ply})"
        state.apply(action)
    assert state.current_player() == TERMINAL


def test_value_targets_are_the_final_win_shares_seen_from_the_mover() -> None:
    played = play_selfplay(_task("vikings", players=3, seed=2))
    assert sum(played.shares) == pytest.approx(1.0)
    for mover, value in zip(played.movers, played.values, strict=True):
        assert value == [played.shares[(mover + i) % 3] for i in range(3)]


def _game(rows: int, inputs: int, start: float) -> SelfPlayGame:
    return SelfPlayGame(
        observations=[np.full(inputs, start + row, dtype=np.float32) for row in range(rows)],
        legal=[[row, row + 1] for row in range(rows)],
        policies=[[0.25, 0.75] for _ in range(rows)],
        values=[[1.0, 0.0] for _ in range(rows)],
        movers=[0] * rows,
    )


def test_the_buffer_keeps_the_newest_positions_within_its_capacity() -> None:
    buffer = Buffer(inputs=3, players=2, capacity=5)
    assert buffer.add([_game(4, 3, 0.0)]) == 4
    assert buffer.add([_game(3, 3, 10.0)]) == 3
    assert len(buffer) == 5
    assert buffer.observations[:, 0].tolist() == [2.0, 3.0, 10.0, 11.0, 12.0]
    observations, mask, policy, values = buffer.batch(np.array([0, 4]), num_actions=6)
    assert observations[:, 0].tolist() == [2.0, 12.0]
    assert mask[0].nonzero()[0].tolist() == [2, 3] and mask[1].nonzero()[0].tolist() == [2, 3]
    assert policy[0, 2] == 0.25 and policy[0, 3] == 0.75 and policy[0].sum() == 1.0
    assert values.tolist() == [[1.0, 0.0], [1.0, 0.0]]


def test_a_saved_buffer_reads_back_whole_and_a_foreign_one_names_the_array(tmp_path: Path) -> None:
    buffer = Buffer(inputs=3, players=2, capacity=10)
    buffer.add([_game(4, 3, 0.0)])
    buffer.save(tmp_path / "buffer.npz")
    again = Buffer.load(tmp_path / "buffer.npz", inputs=3, players=2, capacity=10)
    for name in ("observations", "offsets", "ids", "shares", "values"):
        assert np.array_equal(getattr(again, name), getattr(buffer, name)), name
    with pytest.raises(BufferError, match="'observations'"):
        Buffer.load(tmp_path / "buffer.npz", inputs=4, players=2, capacity=10)
    (tmp_path / "torn.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(BufferError, match="not a buffer file"):
        Buffer.load(tmp_path / "torn.npz", inputs=3, players=2, capacity=10)
