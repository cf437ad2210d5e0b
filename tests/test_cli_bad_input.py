"""Bad input at the command line: every mistake ends in one `error:` line naming the flag, file or field at fault
and a non-zero exit, never a traceback, and never costs the person a file."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from skald.engine import Record, get_game, play_random_game
from skald.sim import simulation

runner = CliRunner()


def run(*args: str, input: str | None = "") -> tuple[int, str, str]:
    """Run `skald ARGS` in this process: the exit code, stdout and stderr."""
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def one_error_line(stderr: str) -> str:
    """The single `error:` line a failed command printed (and nothing else on stderr)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    return lines[0].removeprefix("error: ")


def _record(path: Path, game: str = "vikings") -> Path:
    Record.of(play_random_game(get_game(game).new_initial_state(2), random.Random(3))).save(path)
    return path


# -- files ------------------------------------------------------------------------------------------------------

UNREADABLE = {
    "binary": bytes(range(256)),
    "deeply-nested": b"[" * 100_000 + b"]" * 100_000,
    "huge-number": b'{"format": "skald-record", "players": ' + b"9" * 5000 + b"}",
}


@pytest.mark.parametrize("command", [["replay"], ["vikings", "score"], ["play", "--resume"]], ids=" ".join)
@pytest.mark.parametrize("kind", UNREADABLE)
def test_a_file_that_is_not_readable_json_is_one_error_line_naming_the_file(tmp_path, command, kind):
    path = tmp_path / f"{kind}.json"
    path.write_bytes(UNREADABLE[kind])
    code, _, stderr = run(*command, str(path))
    assert code == 2
    assert one_error_line(stderr).startswith(f"{path}: not ")
    assert path.read_bytes() == UNREADABLE[kind]


def test_an_illegal_action_in_a_record_names_the_action_and_the_rule(tmp_path):
    path = _record(tmp_path / "game.json")
    data = json.loads(path.read_text())
    data["actions"][5]["action"] = {"type": "buy", "price": 11}
    path.write_text(json.dumps(data))
    code, _, stderr = run("replay", str(path))
    message = one_error_line(stderr)
    assert code == 2 and message.startswith(f"{path}: actions[5].action: illegal here:")
    assert message.endswith("[turn.step]"), "the rule's name is printed, not swallowed as Rich markup"


def test_vikings_score_refuses_a_record_of_another_game(tmp_path):
    path = _record(tmp_path / "vikingdoms.json", "vikingdoms")
    code, _, stderr = run("vikings", "score", str(path))
    assert code == 2 and one_error_line(stderr) == f"{path}: game: 'vikingdoms' is not Vikings, the game this scores"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"turn": {"viking": "Z"}}, "turn.viking: not a Viking letter"),
        ({"options": ["advanced"]}, "options: expected an object of rule options"),
        ({"scorings": 5}, "scorings: expected a list"),
        ({"step": "land"}, "step: 'land' belongs to the large scorings after rounds 2, 4 and 6, not round 1"),
    ],
)
def test_vikings_score_names_the_position_field_at_fault(tmp_path, fields, message):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"mainlands": [{}, {}], **fields}))
    code, _, stderr = run("vikings", "score", str(path))
    assert code == 2 and one_error_line(stderr).startswith(f"{path}: {message}")


# -- flags ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, flag",
    [
        (["simulate", "vikings", "--players", "x"], "'--players'"),
        (["replay", "game.json", "--every", "-1"], "'--every'"),
        (["vikings", "score", "position.json", "--when", "never"], "'--when'"),
        (["tournament", "vikings", "--workers", "-1"], "'--workers'"),
        (["simulate", "vikings", "--option", "ferry=any_number", "--option", "ferry=as_many_as_fit"], "--option"),
    ],
)
def test_a_command_line_mistake_is_one_error_line_naming_the_flag(args, flag):
    code, _, stderr = run(*args)
    assert code == 2 and flag in one_error_line(stderr)


def test_an_unexpected_error_is_one_line_asking_for_a_report(monkeypatch):
    def broken(*_args: object) -> None:
        raise RuntimeError("something no one expected")

    monkeypatch.setattr(simulation, "play_one", broken)
    code, _, stderr = run("simulate", "vikings", "-n", "1", "-w", "1")
    message = one_error_line(stderr)
    assert code == 1 and message.startswith("internal error: RuntimeError: something no one expected")
    assert "please report it" in message


def test_simulate_picks_a_player_count_the_game_allows_when_none_is_given():
    code, stdout, _ = run("simulate", "vikingdoms", "--games", "2")
    assert code == 0 and "Vikingdoms, 2 players" in stdout


def test_ctrl_c_during_simulate_is_one_line_and_exit_130(monkeypatch):
    played = []

    real_play_one = simulation.play_one

    def interrupted_on_the_third(*args):
        if len(played) == 2:
            raise KeyboardInterrupt
        played.append(args)
        return real_play_one(*args)

    monkeypatch.setattr(simulation, "play_one", interrupted_on_the_third)
    code, _, stderr = run("simulate", "vikings", "--games", "10", "--workers", "1")
    assert code == 130 and one_error_line(stderr) == "interrupted (Ctrl-C) after 2 of 10 games; no summary"


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--workers", "-1"], "'--workers'"),
        (["--backend", "cluster"], "--backend: 'cluster' is not one of local, ray"),
        (["--address", "10.0.0.1:6379"], "--address: a Ray cluster's address goes with --backend ray"),
        (["--bots", "random:x"], "--bots: random:x: random takes no settings"),
        (["--bots", " , "], "--bots: no bot spec"),
        (["--json", "--csv"], "--csv: --json and --csv both print on stdout"),
        (["--compare", "ship_row"], "--compare: expected OPTION=V1,V2"),
        (["--compare", "ship_row=zman"], "--compare ship_row: give two or more values"),
        (["--compare", "ship_row=zman,zman"], "--compare ship_row: a value is given twice"),
        (["--compare", "ship_row=zman,diagonal"], "--compare: options.ship_row: 'diagonal' is not one of"),
        (["--compare", "ship_row=zman,touching", "-o", "ship_row=zman"], "--compare ship_row: the option is also"),
        (["--compare", "ferry=as_many_as_fit,any_number", "--compare", "ferry=any_number,as_many_as_fit"], "twice"),
        (["--compare", "oars=1,2"], "--compare: options.oars: no such rule option"),
        (["--plot", "/no/such/directory/chart.png"], "--plot /no/such/directory/chart.png: cannot write there"),
        (["--import", ""], "--import : cannot import it"),
    ],
)
def test_simulate_flags_are_checked_before_any_game(flags, message):
    code, stdout, stderr = run("simulate", "vikings", "-n", "2", "-w", "1", *flags)
    assert code == 2 and message in one_error_line(stderr)
    assert "random games" not in stdout


# -- tournament -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--option", "variant=x"], "--option: options.variant: 'x' is not one of"),
        (["--option", "variant=base", "--option", "variant=[1]"], "--option: variant is given twice"),
        (["--bots", " , "], "--bots: no bot spec"),
        (["--bots", "random:x"], "--bots: random:x: random takes no settings"),
        (["--import", ""], "--import : cannot import it"),
        (["--backend", "cluster"], "--backend: 'cluster' is not one of local, ray"),
        (["--address", "10.0.0.1:6379"], "--address: a Ray cluster's address goes with --backend ray"),
    ],
)
def test_tournament_flags_are_checked_before_any_game(tmp_path, flags, message):
    out = tmp_path / "results"
    code, stdout, stderr = run(
        "tournament", "vikings", "--bots", "random", "-n", "2", "-w", "1", "--out", str(out), *flags
    )
    assert code == 2 and message in one_error_line(stderr)
    assert "win rate" not in stdout and not (out / "tournament.json").exists()


def test_tournament_refuses_an_out_directory_it_cannot_write_before_playing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    code, stdout, stderr = run("tournament", "vikings", "--bots", "random", "-n", "2", "--out", str(blocker / "out"))
    assert code == 2 and one_error_line(stderr) == f"--out {blocker / 'out'}: cannot write there: Not a directory"
    assert "win rate" not in stdout and blocker.read_text() == "mine"


def test_ctrl_c_stops_a_tournament_and_its_workers_at_once(tmp_path):
    """Ctrl-C reaches the whole process group: the workers must neither print tracebacks nor keep playing."""
    out = tmp_path / "results"
    args = ["tournament", "vikings", "--bots", "mcts:iters=200,greedy", "-n", "400", "-w", "2", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-m", "skald.cli.main", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not out.exists() and time.monotonic() < deadline:  # the results directory is made just before the games
        time.sleep(0.1)
    time.sleep(1.0)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130
    played = re.match(r"interrupted \(Ctrl-C\) after (\d+) of 400 games", one_error_line(stderr))
    assert played is not None and int(played.group(1)) < 400, "the games still queued are not waited for"
    assert not (out / "tournament.json").exists()


# -- play -------------------------------------------------------------------------------------------------------


def test_play_with_stdin_closed_seats_no_person_and_writes_nothing(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "play", "vikings", "--seats", "you,random", "--pause", "0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(0),
    )
    assert result.returncode == 2 and one_error_line(result.stderr).startswith("stdin: closed")
    assert list(tmp_path.iterdir()) == []


def test_play_saves_and_exits_non_zero_when_its_input_ends_mid_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = run("play", "vikings", "--seats", "you,random", "--pause", "0", "--seed", "1", input="")
    assert code == 1 and one_error_line(stderr).startswith("stdin: the input ended before the game did")
    assert "Saved to" in stdout and Record.load(tmp_path / "skald-vikings.json").actions


def test_a_new_game_never_replaces_an_earlier_save(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    earlier = _record(tmp_path / "skald-vikings.json")
    before = earlier.read_bytes()
    code, stdout, _ = run("play", "vikings", "--seats", "random,random", "--pause", "0", "--seed", "2")
    assert code == 0 and "skald-vikings-2.json" in stdout
    assert earlier.read_bytes() == before
    assert Record.load(tmp_path / "skald-vikings-2.json").replay().is_terminal()


def test_play_will_not_save_over_a_file_that_is_not_a_game_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    code, _, stderr = run("play", "vikings", "--seats", "random,random", "--pause", "0", "--save-file", "notes.txt")
    assert code == 2 and "--save-file notes.txt: cannot save the game there: it exists" in one_error_line(stderr)
    code, stdout, _ = run("play", "vikings", "--seats", "you,random", "--pause", "0", input="save notes.txt\nquit\n")
    assert code == 0 and "Cannot save to notes.txt: it exists and is not a Skald game record" in stdout
    assert notes.read_text() == "my notes"


def test_seat_names_are_shown_as_typed_not_read_as_markup(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, stderr = run("play", "vikings", "--seats", "you:[/b]Ann,random", "--pause", "0", input="quit\n")
    assert code == 0, stderr
    assert "[/b]Ann (buy a Group)>" in stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["vikingdoms"], "a game of vikings, not vikingdoms"),
        (["--option", "ferry=any_number"], "--option: a resumed game keeps the rule options in its record"),
    ],
)
def test_a_resumed_game_keeps_the_game_and_rule_options_of_its_record(tmp_path, args, message):
    path = _record(tmp_path / "game.json")
    before = path.read_bytes()
    code, _, stderr = run("play", "--resume", str(path), *args)
    assert code == 2 and message in one_error_line(stderr)
    assert path.read_bytes() == before


def test_play_pause_must_be_a_finite_number_of_seconds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, stderr = run("play", "vikings", "--seats", "random,random", "--pause", "inf")
    assert code == 2 and one_error_line(stderr) == "--pause: expected a number of seconds, not inf"
    assert list(tmp_path.iterdir()) == []


def test_replay_step_says_when_its_input_ends(tmp_path):
    path = _record(tmp_path / "game.json")
    code, _, stderr = run("replay", str(path), "--step", input="\n\n")
    assert code == 1 and one_error_line(stderr).startswith("--step: the input ended (stdin closed) at action 3 of ")
