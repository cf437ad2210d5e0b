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


#: A mid-journey position written by hand in the short form of docs/vikingatid-positions.md ("every key has a
#: default but `seats` and `step`"): the table's keys it needs, the seats, and the fleet at sea.
HAND_WRITTEN = Path(__file__).parents[2] / "docs" / "examples" / "vikingatid-mid-journey-example.json"


def _hand_written() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(HAND_WRITTEN.read_text())
    return data


def test_the_hand_written_mid_journey_position_is_in_the_short_form() -> None:
    data = _hand_written()
    assert set(data) == {"comment", "step", "turn", "phase", "seats", "fleets"}
    assert set(data["fleets"][0]) == {"owner", "kind", "size", "area", "moves"}  # danger and entered_from left out
    assert len(data["seats"]) == 4 and "hand" not in data["seats"][3]


def test_the_hand_written_mid_journey_position_loads_at_the_fleet_owners_move() -> None:
    state = get_game("vikingatid").state_from_position(_hand_written())
    # Left out: the journeys' record takes the position's step, and the fleet at sea is the one in motion.
    assert state.to_position()["step"] == "move"
    assert state.journeys.active and state.position.fleets[0].owner == 2
    assert state.current_player() == 2
    assert state.position.year == 850 and state.position.phase == 6
    # The deck holds every card not in a hand, and Halvdan's hand, left out, is empty.
    assert state.deck.deck_size() == 112 - 4 and state.deck.hand_size(3) == 0
    assert all(action_json["type"] == "move" for action_json in map(state.action_to_json, state.legal_actions()))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_hand_written_mid_journey_position_plays_to_the_end_and_its_record_replays(seed: int) -> None:
    state = get_game("vikingatid").state_from_position(_hand_written())
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(_pick(state, rng))
    data = json.loads(json.dumps(Record.of(state).to_dict()))
    replayed = Record.from_dict(data).replay()
    assert replayed.is_terminal()
    assert replayed.scores() == state.scores()
    assert replayed.to_position() == state.to_position()


def _drop(key: str) -> Any:
    return lambda p: p.pop(key)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (_drop("step"), "step"),
        (lambda p: p.update(step="danger_roll", phase=5), "step"),
        (lambda p: p["fleets"][0].update(area="atlantis"), "fleets[0].area"),
        (lambda p: p["fleets"][0].pop("owner"), "fleets[0].owner"),
        (lambda p: p["fleets"][0].update(moves=-1), "fleets[0].moves"),
        (lambda p: p.update(fleets=[]), "fleets"),
        (lambda p: p["seats"][1].update(hand=["axe"]), "seats[1].hand[0]"),
        (lambda p: p["seats"][0].update(ships={"svea_rike": {"longships": 2}}), "seats[0].ships.svea_rike.longships"),
        (lambda p: p.update(journeys={"step": 15}), "journeys.step"),
        (lambda p: p.update(seats=p["seats"][:1]), "seats"),
    ],
    ids=[
        "no step",
        "step of another phase",
        "unknown area",
        "no owner",
        "negative moves",
        "no fleet at sea",
        "unknown card",
        "unknown ship type",
        "journeys at another step",
        "one seat",
    ],
)
def test_a_malformed_hand_written_position_names_the_field_at_fault(change: Any, field: str) -> None:
    position = _hand_written()
    change(position)
    with pytest.raises(PositionError) as refused:
        get_game("vikingatid").state_from_position(position)
    assert str(refused.value).startswith(field), str(refused.value)


def test_simulate_plays_a_hundred_games_from_the_hand_written_position() -> None:
    done = _skald("simulate", "vikingatid", "--from", str(HAND_WRITTEN), "--games", "100", "--workers", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert (report["game"], report["players"], report["games"]) == ("vikingatid", 4, 100)
    (variant,) = report["variants"]
    assert variant["games"] == 100
    assert sum(seat["wins"] for seat in variant["seats"]) == pytest.approx(100, abs=0.01)
