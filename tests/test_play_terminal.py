"""`skald play` through the real command in a pseudo-terminal: whole games, illegal entries, undo, save, resume.

The person's moves are read off the listed choices, as a person reads them; chance and bots follow `--seed`, and
without it draw from the operating system's randomness.
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from skald.engine import Record, Seat, get_game, sample_chance

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = r"(\S+) \(([a-zA-Z ]+)\)> "
CHOICE = re.compile(r"^\s*\[(\w+)\] (\S+(?: \S+)?)", re.M)


def _as_at_a_terminal() -> None:
    """Ctrl-C interrupts, as at a person's terminal, even when the suite itself runs with SIGINT ignored (a job
    started with `&` by a non-interactive shell), which the command would otherwise inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Player:
    """A person at the table: reads what the command prints and types answers."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "skald.cli.main", "play", *args, "--pause", "0"],
            cwd=str(cwd),
            dimensions=(60, 220),
            encoding="utf-8",
            timeout=60,
            preexec_fn=_as_at_a_terminal,
        )
        self.child.delaybeforesend = None
        self.seen = ""
        self.who = ""
        self.step = ""

    def prompt(self) -> bool:
        """Wait for the next prompt (True) or the final standings (False); `seen` holds what came before."""
        index = self.child.expect([PROMPT, "Final standings"])
        self.seen = ANSI.sub("", self.child.before)
        if index == 0:
            self.who, self.step = self.child.match.group(1), self.child.match.group(2)
        return index == 0

    def choices(self) -> list[tuple[str, str]]:
        """The keys and notations listed since the previous prompt."""
        return CHOICE.findall(self.seen)

    def say(self, text: str) -> None:
        """Type a line."""
        self.child.sendline(text)

    def pick_first(self) -> str:
        """Choose the first listed choice; returns its notation."""
        key, notation = self.choices()[0]
        self.say(key)
        return notation

    def finish(self) -> str:
        """After the standings: wait for the command to end; returns everything it printed after them."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        return ANSI.sub("", self.child.before)

    def play_to_the_end(self) -> str:
        """Pick the first choice at every prompt until the standings; returns everything after them."""
        while self.prompt():
            self.pick_first()
        return self.finish()


def _skald(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "play", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_a_whole_two_player_game_against_a_bot_reaches_the_final_standings(tmp_path):
    person = Player(tmp_path, "vikings", "--seats", "you,greedy", "--seed", "1")
    scorings = set()
    steps = set()
    while person.prompt():
        scorings.update(re.findall(r"Round (\d): (small|large|end) scoring", person.seen))
        steps.add(person.step)
        person.pick_first()
    end = person.finish()
    scorings.update(re.findall(r"Round (\d): (small|large|end) scoring", person.seen))
    assert person.child.exitstatus == 0
    # rules/000 p.2: small scorings after rounds 1, 3, 5; large after 2, 4, 6; then the end-game scoring.
    assert {("1", "small"), ("2", "large"), ("5", "small"), ("6", "large"), ("6", "end")} <= scorings
    assert {"buy a Group", "place the tile"} <= steps
    assert re.search(r"winner\s+│\s+(You|greedy)", end)
    assert re.search(r"(wins with the most Fame|on the tie-break \(most Gold|share the victory)", end)
    record = Record.load(tmp_path / "skald-vikings.json")
    assert record.replay().is_terminal()
    assert [(s.name, s.kind) for s in record.seats] == [("You", "human"), ("greedy", "greedy")]


def test_illegal_entries_show_the_rules_reason_and_ask_again(tmp_path):
    person = Player(tmp_path, "vikings", "--seats", "you,random", "--seed", "3")
    assert person.prompt() and person.step == "buy a Group"
    # rules/000 p.2: the 0-Group only when its Viking is the last of its colour, or nothing else is affordable.
    assert "The 0-Group is not allowed" in person.seen
    person.say("0")
    assert person.prompt() and person.step == "buy a Group"
    assert "Not allowed: buy 0:" in person.seen and "(rule purchase.zero_space)" in person.seen
    person.say("viking N3")
    assert person.prompt() and "(rule turn.step)" in person.seen
    person.say("99")
    assert person.prompt() and "No choice 99" in person.seen
    person.say("tile Z9")
    assert person.prompt() and "Not understood" in person.seen and "row letter" in person.seen
    person.say("1")
    assert person.prompt() and person.step == "place the tile"
    # The bought M1 cannot go anywhere before the start tile: only `start …` squares are marked and listed.
    assert all(notation.startswith("start") for _, notation in person.choices())
    person.say("tile F5")
    assert person.prompt() and "Not allowed: tile F5:" in person.seen and "(rule placement." in person.seen
    person.say("rules")
    assert person.prompt() and "Placing a tile" in person.seen and "rules/000 p.3" in person.seen
    person.say("help")
    assert person.prompt() and "undo" in person.seen and "save [FILE]" in person.seen
    person.child.sendintr()
    person.child.expect(pexpect.EOF)
    person.child.close()
    assert person.child.exitstatus == 130
    assert "Saved to" in ANSI.sub("", person.child.before)


def test_undo_save_and_resume_in_the_middle(tmp_path):
    person = Player(tmp_path, "vikings", "--seats", "you,random", "--seed", "5")
    for _ in range(12):
        assert person.prompt()
        person.pick_first()
    assert person.prompt()
    while person.step != "buy a Group":
        person.pick_first()
        assert person.prompt()
    bought = person.pick_first()
    assert person.prompt() and person.step != "buy a Group"
    person.say("undo")
    assert person.prompt() and person.step == "buy a Group"
    assert f"Undone: your step {bought}" in person.seen
    person.say("undo")
    assert person.prompt() and "Cannot undo" in person.seen
    person.say("save middle.json")
    assert person.prompt() and "Saved to" in person.seen
    saved = json.loads((tmp_path / "middle.json").read_text())
    assert saved["seats"] == [{"name": "You", "kind": "human"}, {"name": "random", "kind": "random"}]
    position = len(saved["actions"])
    # Ctrl-C saves to the default file before leaving, and says where.
    person.child.sendintr()
    person.child.expect(pexpect.EOF)
    person.child.close()
    assert person.child.exitstatus == 130
    assert "skald-vikings.json" in ANSI.sub("", person.child.before)
    assert len(Record.load(tmp_path / "skald-vikings.json").actions) == position

    resumed = Player(tmp_path, "--resume", "middle.json", "--seed", "5")
    assert resumed.prompt() and resumed.step == "buy a Group"
    assert "random (bot)" in resumed.seen
    resumed.pick_first()
    resumed.play_to_the_end()
    assert resumed.child.exitstatus == 0
    record = Record.load(tmp_path / "middle.json")
    assert record.replay().is_terminal() and len(record.actions) > position


def test_a_hot_seat_game_of_two_people(tmp_path):
    table = Player(tmp_path, "vikings", "--seats", "you:Ann,you:Bo", "--seed", "2")
    people = set()
    undone = False
    while table.prompt():
        people.add(table.who)
        if table.who == "Bo" and table.step == "buy a Group" and not undone:
            # Ann's last step is still hers to take back: Bo has not acted yet.
            table.say("undo")
            assert table.prompt() and table.who == "Ann" and "Undone: Ann's step" in table.seen
            undone = True
        table.pick_first()
    end = table.finish()
    assert people == {"Ann", "Bo"} and undone
    assert table.child.exitstatus == 0 and "Game over" in table.seen + end


def test_bad_seats_and_records_are_one_clear_line_without_a_traceback(tmp_path):
    for args, message in (
        (("vikings", "--seats", "you"), "2–4 players"),
        (("vikings", "--seats", "you,wizard"), "unknown bot"),
        (("chess",), "no game called 'chess'"),
        (("--resume", "missing.json"), "cannot read"),
    ):
        result = _skald(tmp_path, *args)
        assert result.returncode == 2, (args, result.stdout)
        assert message in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_a_resumed_game_draws_afresh_without_a_seed_and_as_before_with_one(tmp_path):
    # A Vikings game saved after its first purchases, then resumed by two random bots to the end, four times.
    state, rng = get_game("vikings").new_initial_state(2), random.Random(8)
    while len(state.history) < 40:
        legal = state.legal_actions()
        state.apply(sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal))
    Record.of(state, [Seat("Ann", "human"), Seat("Bo", "human")]).save(tmp_path / "middle.json")
    finished = {}
    for save, seed in (("a.json", ["--seed", "5"]), ("b.json", ["--seed", "5"]), ("c.json", []), ("d.json", [])):
        result = _skald(
            tmp_path, "--resume", "middle.json", "--seats", "random,random", "--pause", "0", "--save-file", save, *seed
        )
        assert result.returncode == 0, result.stderr
        assert ("· seed 5 ·" in result.stdout) == bool(seed)
        finished[save] = Record.load(tmp_path / save).actions
        assert finished[save][:40] == state.history
    # With the seed, the same draws; without, the tiles and Vikings drawn (over a hundred draws) differ.
    assert finished["a.json"] == finished["b.json"]
    assert finished["c.json"] != finished["d.json"]
