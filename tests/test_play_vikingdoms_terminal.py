"""`skald play vikingdoms` through the real command in a pseudo-terminal: a whole game against a bot, the rules
summary at every step, the table drawn again after every change (also when the same seat decides twice in a row),
and an undo refusal that names the action in the way in Vikingdoms' notation."""

from __future__ import annotations

import os
import random
import re
import signal
import sys
from pathlib import Path

import pexpect

from skald.engine import Record

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
#: `You (place a Viking from the camp, or move a stack)> `: Vikingdoms' steps have commas and apostrophes.
PROMPT = r"(\S+) \(([^()\n]+)\)> "
CHOICE = re.compile(r"^\s*\[(\w+)\] (\S+(?: \S+)?)", re.M)
#: The heading of the board in the drawn table (skald.games.vikingdoms.render).
BOARD = "Board (each stack bottom to top)"


def _as_at_a_terminal() -> None:
    """Ctrl-C interrupts, as at a person's terminal, even when the suite runs with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Table:
    """The person at the terminal: reads what the command prints and types answers."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "skald.cli.main", "play", "vikingdoms", *args, "--pause", "0"],
            cwd=str(cwd),
            dimensions=(60, 220),
            encoding="utf-8",
            timeout=60,
            preexec_fn=_as_at_a_terminal,
            # The terminal's own size: not the COLUMNS and LINES that readline, loaded by the test runner, exports.
            env={key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")},
        )
        self.child.delaybeforesend = None
        self.seen = ""
        self.step = ""

    def prompt(self) -> bool:
        """Wait for the next prompt (True) or the final standings (False); `seen` holds what came before."""
        index = self.child.expect([PROMPT, "Final standings"])
        self.seen = ANSI.sub("", self.child.before)
        if index == 0:
            self.step = self.child.match.group(2)
        return index == 0

    def ask(self, text: str) -> str:
        """Type a command and return what it printed before the next prompt."""
        self.child.sendline(text)
        assert self.prompt()
        return self.seen


def test_a_whole_vikingdoms_game_at_the_terminal_with_rules_redraws_and_undo_in_the_games_words(tmp_path):
    table = Table(tmp_path, "--seats", "you,random", "--seed", "4")
    rng = random.Random(4)
    steps_with_rules: set[str] = set()
    mine_last = False
    twice_in_a_row = 0
    undo_refused = False
    moves = 0
    while table.prompt():
        seen = table.seen
        bot_acted = re.search(r"^random: ", seen, re.M) is not None
        if moves:
            # Something changed since the last prompt (the person's own action, at least): the table is drawn again.
            assert BOARD in seen, seen
        if mine_last and not bot_acted:
            twice_in_a_row += 1
        choices = CHOICE.findall(seen)
        if table.step not in steps_with_rules:
            rules = table.ask("rules")
            assert "rules/002" in rules and "No rules summary" not in rules
            steps_with_rules.add(table.step)
            choices = choices or CHOICE.findall(table.ask("board"))
        if bot_acted and not undo_refused:
            refusal = table.ask("undo")
            # The refusal names the bot's action in Vikingdoms' notation (a square, a move, a tile, an ally…).
            assert re.search(r"Cannot undo: random has moved since \([^)]+\); undo stops at", refusal), refusal
            undo_refused = True
            choices = choices or CHOICE.findall(table.ask("board"))
        key, _ = rng.choice(choices)
        table.child.sendline(key)
        mine_last = True
        moves += 1
    table.child.expect(pexpect.EOF)
    table.child.close()
    end = ANSI.sub("", table.child.before)
    assert table.child.exitstatus == 0
    assert re.search(r"winner\s+│\s+(You|random)", end)
    assert {"place a Viking from the camp, or move a stack"} <= steps_with_rules
    assert undo_refused and twice_in_a_row >= 1
    record = Record.load(tmp_path / "skald-vikingdoms.json")
    assert record.replay().is_terminal()
