"""`skald check GAME` (docs/check.md): every registered game and the proof game pass it, and it fails, naming the
seed that reproduces the failure, on games that leak hidden information (through anything a front end shows, or
through the information-state string itself), move when refusing an illegal action, or raise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import proof_game
from faulty_proof_game import (
    AFTERMATH_LEAK,
    BOARD_LEAK,
    FOCUS_LEAK,
    GROUPS_LEAK,
    HAND_LEAK,
    INFOSTATE_LEAK,
    KEYS_LEAK,
    MUTATING_REFUSAL,
    NOTATION_LEAK,
    REASON_LEAK,
    RENDER_CRASH,
    SCORING_LEAK,
    SHIFTING_JSON,
    SHIFTING_NOTATION,
    SHORT_TENSOR,
    STEP_LEAK,
    FaultyGame,
    ShiftingNotationState,
)
from skald.engine import game_names, get_game, registry
from skald.sim.check import PROPERTIES, Checker, PropertyResult, run_check


def failed(results: list[PropertyResult]) -> dict[str, str]:
    """Each failed property with its first failure's message."""
    return {r.key: r.first.message if r.first else "" for r in results if not r.passed}


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch):
    """Register a faulty game for one test only (a record names its game, so the check looks it up by name)."""
    game_names()  # load the registry first, so that loading it later cannot bring the variant back

    def register(game: FaultyGame) -> FaultyGame:
        monkeypatch.setitem(registry._GAMES, game.name, game)
        return game

    return register


def skald(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real `skald` command line in a subprocess that finds the proof game and its faulty variants."""
    env = proof_game.subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent), env["PYTHONPATH"]])
    env["SKALD_GAMES"] += ",register_faulty_proof_game"
    env["COLUMNS"] = "200"
    command = [sys.executable, "-c", "from skald.cli.main import app; app()", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


#: Games per player count in the suite's check; a Vikingatid game with cards is thousands of actions long, so it
#: gets one per count here and the long form runs as `skald check vikingatid --games N`.
GAMES_PER_COUNT = {"vikingatid": 1}


@pytest.mark.parametrize("name", sorted({*game_names(), "proof"}))
def test_every_registered_game_and_the_proof_game_pass_the_check(name):
    game = get_game(name)
    counts = range(game.min_players, game.max_players + 1)
    results = list(run_check(game, counts, games=GAMES_PER_COUNT.get(name, 6), seed=0))
    assert [r.key for r in results] == [key for key, _ in PROPERTIES]
    assert failed(results) == {}
    assert all(r.checks > 0 for r in results if not r.skipped)


def test_the_proof_game_passes_the_two_worlds_check_over_many_games():
    results = {r.key: r for r in run_check(proof_game.game.GAME, [2, 3, 4], games=60, seed=1000)}
    assert failed(list(results.values())) == {}
    assert results["two_worlds"].checks > 1000
    assert not results["two_worlds"].skipped


def test_checking_in_worker_processes_finds_what_one_process_finds(registered):
    """`skald check --workers`: the same checks, failures and first failure (the earliest game's) as one process."""
    game = registered(HAND_LEAK)
    alone = list(run_check(game, [2, 3], games=3, seed=5))
    pooled = list(run_check(game, [2, 3], games=3, seed=5, workers=2))
    assert pooled == alone
    assert failed(pooled) and pooled[-1].first is not None


def test_the_two_worlds_check_is_skipped_for_a_perfect_information_game():
    results = {r.key: r for r in run_check(get_game("vikingdoms"), [2], games=2)}
    assert results["two_worlds"].skipped and results["two_worlds"].checks == 0


def test_an_observation_showing_another_hand_fails_the_two_worlds_check(registered):
    game = registered(HAND_LEAK)
    results = list(run_check(game, [2, 3], games=5))
    assert set(failed(results)) == {"two_worlds"}
    assert "observation" in failed(results)["two_worlds"]


def test_a_notation_naming_a_hidden_card_fails_the_two_worlds_check(registered):
    game = registered(NOTATION_LEAK)
    results = list(run_check(game, [3], games=5))
    assert set(failed(results)) == {"two_worlds"}
    assert "notation" in failed(results)["two_worlds"]


@pytest.mark.parametrize(
    ("game", "shown"),
    [
        (BOARD_LEAK, "board"),
        (FOCUS_LEAK, "close-up"),
        (GROUPS_LEAK, "choice headings"),
        (KEYS_LEAK, "keys"),
        (AFTERMATH_LEAK, "aftermath"),
        (REASON_LEAK, "reasons an action is not allowed"),
        (SCORING_LEAK, "scorings"),
        (STEP_LEAK, "step in words"),
    ],
    ids=lambda value: value.name if isinstance(value, FaultyGame) else None,
)
def test_a_leak_through_anything_the_terminal_shows_fails_the_two_worlds_check(registered, game, shown):
    results = list(run_check(registered(game), [2, 3], games=10))
    assert set(failed(results)) == {"two_worlds"}
    assert f"is shown a different {shown} (" in failed(results)["two_worlds"]


def test_a_game_whose_tensors_do_not_fill_the_shape_it_declares_fails_the_check(registered):
    # The proof game declares `provides_observation_tensor`; this variant's tensors are one entry short.
    results = list(run_check(registered(SHORT_TENSOR), [2, 3], games=3))
    assert set(failed(results)) == {"two_worlds"}
    assert "observation tensor" in failed(results)["two_worlds"]
    assert "but observation_tensor_shape holds" in failed(results)["two_worlds"]


def test_an_information_state_string_that_knows_hidden_cards_fails_though_its_resample_agrees(registered):
    # The string names every hand from trick play on and the resample keeps those hands: the resampled world is
    # alike, and so is every later action in the swapped world, yet the strings differ: it is the string that leaks.
    results = list(run_check(registered(INFOSTATE_LEAK), [2, 3], games=10))
    assert set(failed(results)) == {"two_worlds"}
    message = failed(results)["two_worlds"]
    assert "information-state string tells apart two worlds that show it the same" in message
    assert "then the same actions to ply" in message


def test_a_bid_revealed_when_all_have_bid_tells_the_worlds_apart_without_failing():
    # The last bid looks the same in both worlds, yet shows every bid: a reveal, seen in the observation and the
    # information state together, after which the worlds may differ.
    results = {r.key: r for r in run_check(proof_game.game.GAME, [2], games=40, seed=300)}
    assert results["two_worlds"].passed and results["two_worlds"].checks > 300


def test_a_game_that_raises_while_being_read_fails_a_property_naming_the_seed_instead_of_stopping_the_check(
    registered,
):
    results = {r.key: r for r in run_check(registered(RENDER_CRASH), [3], games=3, seed=20)}
    assert results["ends"].checks == 3  # every game was played, none stopped the run
    first = results["illegal"].first
    assert first is not None and first.seed == 20 and first.players == 3 and first.ply is not None
    assert first.message.startswith("reading the text table raised KeyError: 'trick'")


def test_the_command_reports_a_game_that_raises_as_a_failed_property_with_its_seed():
    run = skald("check", RENDER_CRASH.name, "--games", "2", "--players", "2")
    assert run.returncode == 1
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert "reading the text table raised KeyError: 'trick'" in run.stdout
    assert f"skald check {RENDER_CRASH.name} --players 2 --seed 0 --games 1" in run.stderr


def test_a_state_that_moves_while_refusing_an_illegal_action_fails_the_untouched_state_check(registered):
    game = registered(MUTATING_REFUSAL)
    results = list(run_check(game, [2], games=3))
    assert set(failed(results)) == {"illegal"}
    assert "changed the state" in failed(results)["illegal"]


def test_an_action_whose_json_form_changes_during_a_game_fails_the_forms_check(registered):
    """The web table builds each action's JSON form once a game (docs/engine.md), so a form that changes from one
    position to the next must fail, though it still round-trips."""
    game = registered(SHIFTING_JSON)
    results = list(run_check(game, [2], games=3))
    assert set(failed(results)) == {"forms"}
    assert "earlier in the game" in failed(results)["forms"]


def test_a_notation_that_changes_in_a_game_declaring_fixed_notation_fails_the_forms_check(registered):
    """A game of `fixed_notation` has the web build each action's notation once a game (docs/engine.md): a
    notation that changes from trick to trick must fail there, though it round-trips. Undeclared, it may change."""
    results = list(run_check(registered(SHIFTING_NOTATION), [2], games=3))
    assert set(failed(results)) == {"forms"}
    assert "fixed_notation" in failed(results)["forms"]
    undeclared = FaultyGame("proof-shifting-notation-undeclared", ShiftingNotationState)
    assert not failed(list(run_check(registered(undeclared), [2], games=3)))


def test_the_seed_of_a_failure_reproduces_it_alone(registered):
    game = registered(HAND_LEAK)
    first = {r.key: r for r in run_check(game, [2, 3, 4], games=4, seed=50)}["two_worlds"].first
    assert first is not None and 50 <= first.seed < 54
    again = {r.key: r for r in run_check(game, [first.players], games=1, seed=first.seed)}["two_worlds"].first
    assert again == first


def test_a_game_that_runs_past_the_ply_cap_fails_the_ending_check():
    checker = Checker(proof_game.game.GAME, max_plies=10)
    checker.check_game(2, seed=0)
    assert "not over after 10 actions" in failed(checker.results())["ends"]


def test_the_command_prints_one_line_per_property_and_exits_0_when_all_hold():
    run = skald("check", "proof", "--games", "5", "--seed", "7")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "15 random games (2–4 players, seeds 7–11)" in lines[0]
    assert [line[0] for line in lines[1:-1]] == ["✓"] * len(PROPERTIES)
    assert lines[-1] == f"all {len(PROPERTIES)} properties hold"


def test_the_command_exits_non_zero_naming_the_seed_and_the_command_that_reproduces_a_leak():
    run = skald("check", HAND_LEAK.name, "--games", "3", "--players", "3")
    assert run.returncode == 1
    assert "✗ two worlds a viewer cannot tell apart look the same to it" in run.stdout
    assert "error: 1 of 8 properties failed; the first failure is in seed 0 with 3 players" in run.stderr
    assert f"skald check {HAND_LEAK.name} --players 3 --seed 0 --games 1" in run.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "hnefatafl"], "no game called 'hnefatafl'"),
        (["check", "proof", "--players", "5"], "--players: Proof is played by 2–4 players, not 5"),
        (["check", "proof", "--games", "0"], "--games"),
        (["check", "vikings", "--option", "ship_row=anywhere"], "--option: options.ship_row"),
    ],
)
def test_bad_arguments_get_one_error_line_naming_the_argument(args, message):
    run = skald(*args)
    assert run.returncode == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr
