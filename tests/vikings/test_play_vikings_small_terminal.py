"""`skald play vikings` in an 80×24 pseudo-terminal, as on a laptop's default terminal: the compact table, the
choices and the prompt on the last screen, and the bot's moves told in the third person under its name ("fits 80×24 …
a compact board when the terminal is small; bots narrated in the third person with their names")."""

from __future__ import annotations

import io
import os
import random
import re
import signal
import sys
from pathlib import Path

import pexpect
from rich.console import Console

from skald.engine import CHANCE, get_game, sample_chance

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = r"(\S+) \(([^()\n]+)\)> "
CHOICE = re.compile(r"^\s*\[(\S+)\] ", re.M)
#: The first line of each form of the table (render.py).
FULL_HEADER = re.compile(r"^Vikings — round \d of 6", re.M)
COMPACT_HEADER = re.compile(r"^Vikings · round \d/6 ", re.M)
ROWS, COLUMNS = 24, 80


def _as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_two_player_game_at_80_by_24_keeps_the_compact_table_and_every_choice_on_the_last_screen(
    tmp_path: Path,
) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "skald.cli.main", "play", "vikings", "--seats", "you,random", "--seed", "4", "--pause", "0"],
        cwd=str(tmp_path),
        dimensions=(ROWS, COLUMNS),
        encoding="utf-8",
        timeout=120,
        preexec_fn=_as_at_a_terminal,
        env={key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")},
    )
    rng = random.Random(4)
    prompts = whole = 0
    while child.expect([PROMPT, "Final standings"]) == 0:
        prompts += 1
        seen = ANSI.sub("", child.before)
        screen = (seen + ANSI.sub("", child.after)).split("\n")[-ROWS:]
        assert COMPACT_HEADER.search(seen) and not FULL_HEADER.search(seen), seen[-2000:]
        assert all(len(line) <= COLUMNS for line in seen.split("\n")), seen
        # The bot's moves are told under its name, in the third person: never "your" start tile, camp or Gold.
        for line in re.findall(r"^random\b.*$", seen, re.M):
            assert not re.search(r"\byou(r)?\b", line, re.I), line
        keys = CHOICE.findall(seen.split("Choices (")[-1])
        listed = seen.split("Choices (")[-1].split("\n")
        assert screen[-1].startswith("You (")
        if len(listed) <= ROWS - 1:
            assert any(line.startswith("Choices (") for line in screen), "\n".join(screen)
            for key in keys:
                assert any(line.lstrip().startswith(f"[{key}]") for line in screen), (key, screen)
        whole += any(COMPACT_HEADER.match(line) for line in screen)
        child.sendline(rng.choice(keys))
    child.expect(pexpect.EOF)
    assert prompts >= 60
    # The table, its first line included, shares the screen with the choices at half the prompts or more (32 of 60
    # in this game). Not at the first purchases of a round (up to twelve Groups, three lines of the 0-Group rule and
    # the Ships' long labels) nor where a tile may go on many squares: there the choices, which come last, stay.
    assert whole >= 0.5 * prompts, (whole, prompts)


def test_the_table_is_compact_on_a_short_terminal_and_whole_on_a_tall_one_or_in_a_file() -> None:
    game = get_game("vikings")
    state = game.new_initial_state(4)
    chance = random.Random(1)
    for _ in range(300):
        state.apply(sample_chance(state, chance) if state.current_player() == CHANCE else state.legal_actions()[0])
    board = game.presentation.board(state, 0, ["Ann", "Bo", "Cy", "Di"])

    def drawn(height: int, terminal: bool) -> str:
        out = io.StringIO()
        Console(file=out, width=80, height=height, force_terminal=terminal, color_system=None).print(board)
        return out.getvalue()

    short, tall, filed = drawn(24, True), drawn(80, True), drawn(24, False)
    assert COMPACT_HEADER.search(short) and not FULL_HEADER.search(short)
    assert FULL_HEADER.search(tall) and FULL_HEADER.search(filed)
    # Every Mainland stays in the compact table, in at most three lines each, and nothing is wider than 80.
    assert all(f"{name}: " in short for name in ("Ann", "Bo", "Cy", "Di"))
    assert len(short.splitlines()) <= 1 + 2 + 3 * 4, short
    assert all(len(line) <= 80 for line in short.splitlines())
