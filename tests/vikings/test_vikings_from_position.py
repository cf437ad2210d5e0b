"""A Vikings game that starts from a position (docs/vikings-positions.md): records keep the position and replay
from it exactly, and `skald play`, `skald simulate` and `skald check` take it with `--from`."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from skald.cli.main import app
from skald.engine import CHANCE, TERMINAL, PositionError, Record, get_game, sample_chance

runner = CliRunner()


def _mid_game(players: int, actions: int, seed: int) -> object:
    state = get_game("vikings").new_initial_state(players, {"variant": "advanced"} if players == 3 else None)
    rng = random.Random(seed)
    for _ in range(actions):
        player = state.current_player()
        state.apply(sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions()))
    return state


def test_a_record_that_starts_from_a_vikings_position_replays_exactly() -> None:
    for players, cut in ((2, 90), (3, 200), (4, 333)):
        position = json.loads(json.dumps(_mid_game(players, cut, seed=players).to_position()))
        state = get_game("vikings").state_from_position(position)
        assert state.history == [] and state.start_position() == state.to_position()
        rng = random.Random(7)
        while (player := state.current_player()) != TERMINAL:
            state.apply(sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions()))
        record = Record.from_dict(json.loads(json.dumps(Record.of(state).to_dict())))
        assert record.position == state.start_position()
        again = record.replay()
        assert again.history == state.history and again.returns() == state.returns()
        assert again.to_position() == state.to_position()


def test_a_clone_keeps_the_position_it_started_from() -> None:
    position = _mid_game(2, 60, seed=1).to_position()
    state = get_game("vikings").state_from_position(position)
    assert state.clone().start_position() == state.start_position() is not None
    assert get_game("vikings").new_initial_state(2).start_position() is None


def test_simulate_check_and_play_start_from_a_vikings_position(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(_mid_game(3, 150, seed=3).to_position()))
    done = runner.invoke(app, ["simulate", "vikings", "--from", str(path), "--games", "5", "--workers", "1"])
    assert done.exit_code == 0, done.output
    assert "5 games" in done.output or "games/s" in done.output
    done = runner.invoke(app, ["check", "vikings", "--from", str(path), "--games", "1", "--workers", "1"])
    assert done.exit_code == 0, done.output
    assert "all 8 properties hold" in done.output
    saved = tmp_path / "game.json"
    seats = "random,random,random"
    done = runner.invoke(
        app, ["play", "vikings", "--from", str(path), "--seats", seats, "--pause", "0", "--save-file", str(saved)]
    )
    assert done.exit_code == 0, done.output
    record = Record.from_dict(json.loads(saved.read_text()))
    assert record.position == get_game("vikings").state_from_position(json.loads(path.read_text())).to_position()
    assert record.replay().is_terminal()


def test_a_malformed_vikings_position_is_refused_naming_the_field(tmp_path: Path) -> None:
    position = _mid_game(2, 60, seed=1).to_position()
    position["round"] = 9
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    done = runner.invoke(app, ["simulate", "vikings", "--from", str(path), "--games", "1", "--workers", "1"])
    assert done.exit_code != 0 and "round" in done.output
    try:
        get_game("vikings").state_from_position(position)
    except PositionError as error:
        assert "round" in str(error)
    else:
        raise AssertionError("a position in round 9 was accepted")
