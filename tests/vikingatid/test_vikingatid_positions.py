"""Vikingatid's positions: a state written as JSON and read back plays on as the original, a record may start from
one and replays exactly, a malformed one names the field at fault, and the CLI starts games from one (`--from`)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from skald.engine import PositionError, Record, State, get_game


def _pick(state: State, rng: random.Random) -> int:
    return state.sample_chance_outcome(rng) if state.is_chance_node() else rng.choice(state.legal_actions())


def _mid_game(players: int, actions: int, seed: int) -> State:
    state = get_game("vikingatid").new_initial_state(players)
    rng = random.Random(seed)
    for _ in range(actions):
        state.apply(_pick(state, rng))
    return state


@pytest.mark.parametrize(("players", "actions"), [(2, 150), (4, 600), (6, 900)])
def test_a_position_read_back_writes_itself_again_and_asks_the_same_decision(players: int, actions: int) -> None:
    state = _mid_game(players, actions, seed=players)
    written = state.to_position()
    read = get_game("vikingatid").state_from_position(json.loads(json.dumps(written)))
    assert read.to_position() == written
    assert read.current_player() == state.current_player()
    assert read.legal_actions() == state.legal_actions()
    for seat in range(players):
        assert read.observation(seat) == state.observation(seat)


def test_a_state_read_from_its_position_plays_to_the_same_end_under_the_same_actions() -> None:
    state = _mid_game(4, 600, seed=11)
    read = get_game("vikingatid").state_from_position(state.to_position())
    rng = random.Random(5)
    while not state.is_terminal():
        action = _pick(state, rng)
        state.apply(action)
        read.apply(action)
    assert read.is_terminal()
    assert read.scores() == state.scores()
    assert read.to_position() == state.to_position()


def test_a_record_that_starts_from_a_position_replays_to_the_same_end() -> None:
    start = _mid_game(4, 500, seed=3).to_position()
    state = get_game("vikingatid").state_from_position(start)
    rng = random.Random(9)
    while not state.is_terminal():
        state.apply(_pick(state, rng))
    data = json.loads(json.dumps(Record.of(state).to_dict()))
    assert data["position"] == start
    replayed = Record.from_dict(data).replay()
    assert replayed.is_terminal()
    assert replayed.scores() == state.scores()


def test_a_record_of_a_game_from_its_setup_carries_no_position() -> None:
    state = _mid_game(3, 50, seed=1)
    assert "position" not in Record.of(state).to_dict() or Record.of(state).to_dict()["position"] is None
    assert Record.from_dict(Record.of(state).to_dict()).replay().to_position() == state.to_position()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda p: p.update(seats="x"), "seats"),
        (lambda p: p.update(players=9), "players"),
        (lambda p: p.update(turn="soon"), "turn"),
    ],
)
def test_a_malformed_position_is_refused_naming_the_field_at_fault(change: Any, field: str) -> None:
    position = _mid_game(4, 300, seed=2).to_position()
    change(position)
    with pytest.raises(PositionError) as refused:
        get_game("vikingatid").state_from_position(position)
    assert str(refused.value).startswith(field), str(refused.value)


def test_a_position_that_is_not_an_object_is_refused_by_a_clear_error() -> None:
    with pytest.raises(PositionError):
        get_game("vikingatid").state_from_position(["not", "a", "position"])


def _skald(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_simulate_from_a_position_plays_every_game_from_it(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(_mid_game(4, 2500, seed=4).to_position()))
    done = _skald("simulate", "vikingatid", "--from", str(path), "--games", "3", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "Traceback" not in done.stderr
    assert json.dumps(report).count("4") > 0


def test_from_a_malformed_file_names_the_file_and_the_field_without_a_traceback(tmp_path: Path) -> None:
    position = _mid_game(4, 300, seed=2).to_position()
    position["seats"] = "x"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    done = _skald("simulate", "vikingatid", "--from", str(path), "--games", "1", "--workers", "1")
    assert done.returncode != 0
    assert "seats" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_from_is_refused_by_name_for_a_game_without_a_position_format(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text("{}")
    done = _skald("simulate", "vikingdoms", "--from", str(path), "--games", "1", "--workers", "1")
    assert done.returncode != 0
    assert "no position format" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_year_that_disagrees_with_the_turn_is_refused_naming_the_year() -> None:
    position = _mid_game(4, 300, seed=2).to_position()
    position["year"] = position["year"] + 25
    with pytest.raises(PositionError) as refused:
        get_game("vikingatid").state_from_position(position)
    assert str(refused.value).startswith("year"), str(refused.value)
