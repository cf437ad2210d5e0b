"""`skald play` never takes a line typed before a prompt appeared as its answer: at a terminal, what was typed ahead
(while the command starts, while a bot moves) is set aside with a note; piped input is the answers in order and is
all taken."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from skald.engine import Record

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = r"(\S+) \(([^()\n]+)\)> "
CHOICE = re.compile(r"\[\s*(\w+)\] (\S+)")
SET_ASIDE = r"\(what you typed before this prompt was set aside\)"
START = "choose the upper or the lower island; the raiding starts there"


def _as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _spawn(cwd: Path, pause: str) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "skald.cli.main", "play", "vikingdoms", "--seats", "you,random", "--seed", "4", "--pause", pause],
        cwd=str(cwd),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        preexec_fn=_as_at_a_terminal,
        env={key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")},
    )
    child.delaybeforesend = None
    return child


def _person_steps(path: Path) -> list[tuple[str, str]]:
    """The person's (seat 0's) steps in a saved Vikingdoms game: the kind of move and its notation."""
    record = Record.load(path)
    state = record.replay()
    replay = state.game.new_initial_state(state.num_players, state.options)
    steps = []
    for action in record.actions:
        if replay.current_player() == 0:
            steps.append((str(replay.action_to_json(action)["type"]), replay.action_to_notation(action)))
        replay.apply(action)
    return steps


def test_a_line_typed_while_the_command_starts_is_set_aside_and_not_taken_for_the_first_prompt(tmp_path):
    child = _spawn(tmp_path, "0")
    # Typed at once, while the command is still importing: `2` would choose the lower island.
    child.sendline("2")
    child.expect(SET_ASIDE)
    assert re.search(r"\[\s*2\] lower", ANSI.sub("", child.before))  # the choices, then the note, then the prompt
    child.expect(PROMPT)
    assert child.match.group(2) == START
    child.sendline("1")
    child.expect(PROMPT)
    assert "set aside" not in ANSI.sub("", child.before)  # nothing was typed ahead this time
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert _person_steps(tmp_path / "skald-vikingdoms.json")[0] == ("start", "upper")


def test_a_line_typed_while_a_bot_moves_is_set_aside_and_the_next_prompt_waits_for_a_new_one(tmp_path):
    child = _spawn(tmp_path, "0.5")
    child.expect(PROMPT)
    child.sendline("1")
    answered = 1
    while child.expect([r"random is thinking", PROMPT]) == 1:
        child.sendline(CHOICE.findall(ANSI.sub("", child.before))[0][0])
        answered += 1
    # The bot moves, then the table pauses half a second: a line typed now comes before the next prompt.
    child.sendline("1")
    child.expect(SET_ASIDE)
    choices = CHOICE.findall(ANSI.sub("", child.before))  # listed before the note, which comes last
    child.expect(PROMPT)
    key, notation = choices[-1]
    assert key != "1"
    child.sendline(key)
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    steps = _person_steps(tmp_path / "skald-vikingdoms.json")
    assert len(steps) == answered + 1 and steps[-1][1] == notation


def test_piped_answers_are_all_taken_in_order_and_nothing_is_set_aside(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "skald.cli.main", "play", "vikingdoms", "--seats", "you,random", "--seed", "4"],
        cwd=tmp_path,
        input="2\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "set aside" not in result.stdout
    assert _person_steps(tmp_path / "skald-vikingdoms.json")[0] == ("start", "lower")
