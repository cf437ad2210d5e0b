"""`skald verify RECORD.json`: a finished web game's record proves that every chance draw
came from the seed the server committed to at the start; a record whose seed or any draw was altered fails with the
first bad action named. Games are played to the end by a real `skald serve` over HTTP, and the command is run as a
person runs it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import browser_fixture  # noqa: F401 (the fixture browser)
from skald.engine import CHANCE, Record, get_game, play_random_game, signature
from test_web_api import Socket, play_out
from web_support import Server, running

TWO_BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real app on a real SQLite file with its default settings: the server chooses every seed."""
    with running(f"sqlite:///{tmp_path_factory.mktemp('web') / 'skald.db'}") as live:
        yield live


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, Any]:
    """The record, as downloaded after the end, of a Vikings game two bots played to the end on the server."""
    game = server.create(TWO_BOTS, game="vikings")
    assert game["fair"]["seed"] is None  # committed to, not revealed
    deadline = time.monotonic() + 300
    while True:
        status, summary = server.request("GET", f"/api/games/{game['id']}")
        assert status == 200, summary
        if summary["status"] == "over":
            break
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.2)
    status, record = server.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200, record
    assert record["fair"] == summary["fair"]
    return dict(record)


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    """`skald verify PATH`, as typed at a shell."""
    return verify_with(path)


def verify_with(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`skald verify PATH FLAGS…`, as typed at a shell."""
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "verify", str(path), *flags],
        capture_output=True,
        text=True,
        timeout=120,
    )


def saved(tmp_path: Path, data: Any, name: str = "record.json") -> Path:
    """`data` written as a JSON file."""
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def chance_indices(record: dict[str, Any]) -> list[int]:
    """The indices of the record's chance actions."""
    return [index for index, entry in enumerate(record["actions"]) if entry["seat"] == "chance"]


def test_a_finished_web_games_record_verifies(tmp_path: Path, finished: dict[str, Any]) -> None:
    draws = len(chance_indices(finished))
    assert draws > 10
    done = verify(saved(tmp_path, finished))
    assert done.returncode == 0, done.stderr
    assert f"fair: every one of {draws} draws comes from the committed seed" in done.stdout.splitlines()


def test_a_finished_record_is_signed_by_the_key_the_server_serves(
    tmp_path: Path, server: Server, finished: dict[str, Any]
) -> None:
    status, served = server.request("GET", "/api/signing-key")
    assert status == 200, served
    assert served["algorithm"] == "Ed25519" and finished["signature"]["key"] == served["key"]
    done = verify_with(saved(tmp_path, finished), "--key", served["key"])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (
        lines[1] == "signed: the moves, seats and options are exactly those the server stored, signed by the key given"
    )
    assert lines[-1] == "not proved: who sat at each seat, or that a person's moves were his own"
    without = verify(saved(tmp_path, finished, "unkeyed.json"))
    assert f"signed by key {served['key']} (compare it with the server's /api/signing-key)" in " ".join(
        without.stdout.split()
    )


def test_a_renamed_seat_fails_the_signature_though_every_draw_holds(tmp_path: Path, finished: dict[str, Any]) -> None:
    seats = [dict(seat) for seat in finished["seats"]]
    seats[0]["name"] = "Someone else"
    renamed = {**finished, "seats": seats}
    unsigned = {key: value for key, value in renamed.items() if key != "signature"}
    assert verify(saved(tmp_path, unsigned, "unsigned.json")).returncode == 0  # the draws alone cannot tell
    done = verify(saved(tmp_path, renamed))
    assert done.returncode == 1
    assert "signature: does not match the record" in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr


def test_any_changed_move_breaks_the_signature(finished: dict[str, Any]) -> None:
    assert signature.check(finished) == finished["signature"]["key"]
    for index in (0, len(finished["actions"]) // 2, len(finished["actions"]) - 1):
        actions = [dict(entry) for entry in finished["actions"]]
        actions[index] = {**actions[index], "action": {"changed": True}}
        with pytest.raises(signature.BadSignature, match="does not match the record"):
            signature.check({**finished, "actions": actions})


def test_a_record_signed_by_another_key_fails_when_the_servers_key_is_given(
    tmp_path: Path, finished: dict[str, Any]
) -> None:
    other = "ab" * 32
    done = verify_with(saved(tmp_path, finished), "--key", other)
    assert done.returncode == 1
    assert "not by the key given with --key" in " ".join(done.stderr.split())
    unsigned = {key: value for key, value in finished.items() if key != "signature"}
    refused = verify_with(saved(tmp_path, unsigned, "unsigned.json"), "--key", other)
    assert refused.returncode == 1 and "the record is not signed" in " ".join(refused.stderr.split())


def test_the_downloaded_record_still_loads_and_replays_as_a_record(finished: dict[str, Any]) -> None:
    assert Record.from_dict(finished).replay().is_terminal()


def test_an_altered_seed_fails_on_the_commitment(tmp_path: Path, finished: dict[str, Any]) -> None:
    seed = finished["fair"]["seed"]
    altered = {**finished, "fair": {**finished["fair"], "seed": ("0" if seed[0] != "0" else "1") + seed[1:]}}
    done = verify(saved(tmp_path, altered))
    assert done.returncode == 1
    assert "fair.seed: its SHA-256 is" in done.stderr and "not the seed the server committed to" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_altered_draw_fails_naming_that_action(tmp_path: Path, finished: dict[str, Any]) -> None:
    record = Record.from_dict(finished)
    state = record.initial_state()
    # The first draw past the middle of the game that had another outcome: it is the one named, not a later one.
    middle = len(record.actions) // 2
    for index, action in enumerate(record.actions):
        if index >= middle and state.current_player() == CHANCE:
            others = [outcome for outcome, _p in state.chance_outcomes() if outcome != action]
            if others:
                break
        state.apply(action)
    else:
        pytest.fail("no draw in the second half had another outcome")
    other = others[0]
    actions = [dict(entry) for entry in finished["actions"]]
    actions[index] = {"seat": "chance", "action": state.action_to_json(other)}
    done = verify(saved(tmp_path, {**finished, "actions": actions}))
    assert done.returncode == 1
    message = " ".join(done.stderr.split())
    assert (
        f"actions[{index}]: chance drew {state.action_to_notation(other)}, "
        f"the seed gives {state.action_to_notation(action)}" in message
    )


def test_a_local_games_record_cannot_be_verified_and_says_why(tmp_path: Path) -> None:
    state = play_random_game(get_game("vikings").new_initial_state(2, {}), random.Random(3))
    path = tmp_path / "local.json"
    Record.of(state).save(path)
    done = verify(path)
    assert done.returncode == 1
    message = " ".join(done.stderr.split())
    assert "cannot be verified" in message and "no 'fair' field" in message and "never committed to" in message


def test_a_record_downloaded_during_play_has_the_commitment_but_not_yet_the_seed(
    tmp_path: Path, server: Server
) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}], game="vikings")
    status, record = server.request("GET", f"/api/games/{game['id']}/record")
    assert status == 200
    assert record["fair"] == {"commitment": game["fair"]["commitment"], "seed": None}
    done = verify(saved(tmp_path, record))
    assert done.returncode == 1
    assert "fair.seed: not revealed yet" in " ".join(done.stderr.split())


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda r: {**r, "fair": "yes"}, "fair: expected an object"),
        (lambda r: {**r, "fair": {**r["fair"], "commitment": "abc"}}, "fair.commitment: expected"),
        (lambda r: {**r, "fair": {**r["fair"], "seed": 7}}, "fair.seed: expected the 256-bit seed"),
        (lambda r: {**r, "players": "two"}, "players: expected an integer"),
        (lambda r: {**r, "actions": [*r["actions"][:3], {"seat": 0}]}, "actions[3]: expected an object"),
        (lambda r: {**r, "actions": [{"action": {"nonsense": 1}}]}, "actions[0].action:"),
        (lambda r: [r], "record: expected a JSON object"),
    ],
)
def test_a_malformed_record_gets_one_line_naming_the_field(
    tmp_path: Path, finished: dict[str, Any], change: Any, named: str
) -> None:
    done = verify(saved(tmp_path, change(finished)))
    assert done.returncode == 1
    assert named in " ".join(done.stderr.split()) and "Traceback" not in done.stderr
    assert done.stderr.startswith("error:")


def test_a_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    done = verify(path)
    assert done.returncode == 1
    assert f"{path}: not JSON" in " ".join(done.stderr.split())


# -- the end screen --------------------------------------------------------------------------------------------------


def test_the_table_shows_the_commitment_in_play_and_at_the_end_offers_the_record_to_verify(
    tmp_path: Path, server: Server, browser: Any
) -> None:
    game = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}], game="vikings")
    commitment = game["fair"]["commitment"]
    page = browser.new_context(accept_downloads=True).new_page()
    page.goto(f"{server.url}/table/{game['id']}")  # a spectator's page
    page.wait_for_selector("#fair h3")
    assert page.inner_text("#fair h3") == "Fair draws"
    assert page.input_value("#fair input") == commitment
    assert page.locator("#fair-record").count() == 0  # nothing to verify before the end
    sock = Socket(server, game["id"], game["invites"][0]["token"])
    play_out(sock)
    sock.close()
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_selector("#fair-record")
    assert page.inner_text("#fair h3") == "Fair draws: verify"
    assert "skald verify RECORD.json" in page.inner_text("#fair")
    assert page.input_value("#fair input") == commitment
    shots = Path(__file__).resolve().parent.parent / "out" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "end-screen-fair-draws.png"), full_page=True)
    with page.expect_download() as download:
        page.click("#fair-record")
    path = tmp_path / "downloaded.json"
    download.value.save_as(path)
    done = verify(path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("fair: every one of ")
