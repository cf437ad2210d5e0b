"""`skald play` of the proof game (hidden hands, secret bids) through the real command in a pseudo-terminal.

The terminal shows each position as the person at the keyboard may see it. Several people at one keyboard get a
"pass the keyboard" screen that clears the terminal first, so the next person never sees the last one's hand
(issue 13, Terminal); everything hidden is revealed once the game is over.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from proof_game import GAME, subprocess_env
from skald.engine import Record, sample_chance

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
#: What the terminal writes to wipe the screen (and the scrollback) before a pass screen.
CLEAR = "\x1b[2J"
PROMPT = r"(\S+) \(([a-zA-Z ]+)\)> "
PASS = r"Pass the keyboard to (\S+); \S+, press Enter[^\n]*… "
CHOICE = re.compile(r"^\s*\[(\w+)\] (\S+(?: \S+)?)", re.M)
HAND = re.compile(r"Seat (\d) \(you\): hand ([\d ]+?) ·")


class Table:
    """The terminal running `skald play proof`, read as raw bytes so the screen clears can be seen."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "skald.cli.main", "play", "proof", *args, "--pause", "0"],
            cwd=str(cwd),
            env=subprocess_env(),
            dimensions=(60, 200),
            encoding="utf-8",
            timeout=60,
        )
        self.child.delaybeforesend = None
        self.raw = ""

    def next(self) -> tuple[str, str, str]:
        """Wait for a prompt, a pass screen or the end: ("prompt", seat name, step), ("pass", name, ""), or
        ("end", "", "")."""
        index = self.child.expect([PROMPT, PASS, pexpect.EOF])
        self.raw += self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        if index == 0:
            return "prompt", self.child.match.group(1), self.child.match.group(2)
        if index == 1:
            return "pass", self.child.match.group(1), ""
        self.child.close()
        return "end", "", ""

    def pick_first(self) -> None:
        """Choose the first choice listed since the last prompt."""
        key, _ = CHOICE.findall(ANSI.sub("", self.child.before))[0]
        self.child.sendline(key)


def screens(raw: str) -> list[str]:
    """What stood on the screen between two clears, as plain text."""
    return [ANSI.sub("", part) for part in raw.split(CLEAR)]


def test_two_people_pass_the_keyboard_and_never_see_each_others_hand(tmp_path):
    table = Table(tmp_path, "--seats", "you:Ann,you:Bo", "--seed", "4")
    passes, prompts = [], set()
    while True:
        kind, who, _ = table.next()
        if kind == "end":
            break
        if kind == "pass":
            passes.append(who)
            table.child.sendline("")
        else:
            prompts.add(who)
            table.pick_first()
    assert table.child.exitstatus == 0
    assert prompts == {"Ann", "Bo"} and {"Ann", "Bo"} <= set(passes)
    # Every pass screen stands on a freshly cleared screen, before anything of the next person's turn.
    shown_screens = screens(table.raw)
    for screen in shown_screens[1:]:
        assert re.match(r"\s*─* \w+'s turn", screen), screen[:200]
    playing = [screen.split("Game over")[0] for screen in shown_screens]
    hands: dict[str, set[str]] = {"1": set(), "2": set()}
    for screen in playing:
        shown = HAND.findall(screen)
        assert len({seat for seat, _ in shown}) <= 1, "two hands on one screen"
        for seat, hand in shown:
            hands[seat].add(hand)
    assert hands["1"] and hands["2"]
    # Bo's screens (those showing seat 2's hand) never hold Ann's hand, as it was at any moment, and vice versa.
    for screen in playing:
        if "Seat 2 (you)" in screen:
            assert "Seat 1 (you)" not in screen
            assert not any(f"hand {hand} ·" in screen for hand in hands["1"])
        if "Seat 1 (you)" in screen:
            assert not any(f"hand {hand} ·" in screen for hand in hands["2"])
    last = shown_screens[-1]
    # At the end, the secret bids and the deals are revealed to everyone.
    assert "Game over" in last and "Revealed now that the game is over:" in last
    assert re.search(r"Ann: bid \d", last) and "Final standings" in last
    record = Record.load(tmp_path / "skald-proof.json")
    assert record.replay().is_terminal()


def test_one_person_against_bots_plays_to_the_end_seeing_only_their_own_hand(tmp_path):
    table = Table(tmp_path, "--seats", "you,random,greedy", "--seed", "7")
    steps = set()
    while True:
        kind, who, step = table.next()
        assert kind != "pass", "one person never passes the keyboard"
        if kind == "end":
            break
        assert who == "You"
        steps.add(step)
        table.pick_first()
    assert table.child.exitstatus == 0
    assert {"bid secretly how many tricks you will win", "play a card to the trick"} & steps
    text = ANSI.sub("", table.raw)
    during, end = text.split("Game over", 1)
    # Only the person's own hand is ever shown; the bots' bids are "seat N bids" until the last bid reveals all.
    assert {seat for seat, _ in HAND.findall(during)} == {"1"}
    assert re.search(r"(random|greedy): seat [23] bids", during)
    assert "Final standings" in end and "Revealed now that the game is over:" in end
    assert Record.load(tmp_path / "skald-proof.json").replay().is_terminal()


def test_replay_of_a_finished_proof_game_shows_every_hand_and_every_bid(tmp_path):
    table = Table(tmp_path, "--seats", "random,random", "--seed", "3")
    assert table.next()[0] == "end" and table.child.exitstatus == 0
    result = subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "replay", "skald-proof.json", "--every", "6"],
        cwd=tmp_path,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"random \(seat 1\): bid \d", result.stdout) and "deal " in result.stdout
    assert {seat for seat, _ in HAND.findall(result.stdout)} == {"1", "2"}


def test_replay_of_a_proof_game_in_progress_shows_what_a_spectator_sees(tmp_path):
    state = GAME.new_initial_state(2)
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply(sample_chance(state, rng))
    state.apply(state.legal_actions()[1])  # seat 1's secret bid
    Record.of(state).save(tmp_path / "saved.json")
    result = subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "replay", "saved.json"],
        cwd=tmp_path,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "shown as a spectator sees it" in result.stdout
    assert "seat 1 is dealt a card" in result.stdout and "seat 1 bids" in result.stdout
    assert "deal " not in result.stdout and "bid 1" not in result.stdout and "hand" not in result.stdout


def test_play_names_the_game_or_resumes_one():
    result = subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "play", "--seats", "random,random"],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: GAME: name the game to play (") and "proof" in result.stderr
