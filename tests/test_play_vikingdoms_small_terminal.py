"""`skald play vikingdoms` in an 80×24 pseudo-terminal, a laptop's default: at every decision the board, both seats,
the choices and the prompt are on one screen (the compact table and the choices in columns), `?` gives the words
the columns leave out, and the table is whole on a tall terminal or in a file."""

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

from skald.cli import play
from skald.cli.table import View
from skald.engine import CHANCE, Seat, State, get_game, sample_chance

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
PROMPT = r"(\S+) \(([^()\n]+)\)> "
KEY = re.compile(r"\[\s*(\w+)\] (\S+)")
#: The first line of the table in either form (render.py), and of the whole form's board.
HEADER = re.compile(r"^Vikingdoms · (raid \d|game over)", re.M)
WHOLE_BOARD = "Board (each stack bottom to top)"
SEATS = (re.compile(r"^You \(Red\): camp \d+", re.M), re.compile(r"^random \(Blue\): camp \d+", re.M))
ROWS, COLUMNS = 24, 80


def _as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _rows(lines: list[str]) -> int:
    """The terminal rows `lines` take at 80 columns (a longer line wraps)."""
    return sum(max(1, -(-len(line) // COLUMNS)) for line in lines)


def test_at_80_by_24_every_decision_shows_the_board_the_seats_every_choice_and_the_prompt_on_one_screen(
    tmp_path: Path,
) -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "skald.cli.main", "play", "vikingdoms", "--seats", "you,random", "--seed", "3", "--pause", "0"],
        cwd=str(tmp_path),
        dimensions=(ROWS, COLUMNS),
        encoding="utf-8",
        timeout=60,
        preexec_fn=_as_at_a_terminal,
        env={key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")},
    )
    child.delaybeforesend = None
    rng = random.Random(3)
    prompts = most = columns = 0
    explained = False
    while child.expect([PROMPT, "Final standings"]) == 0:
        prompts += 1
        seen = ANSI.sub("", child.before)
        # Since the previous prompt's line (its echoed answer first): the bot's moves, the table, the choices. The
        # bot's "thinking…" line is drawn over once it has chosen.
        lines = [line for line in seen.split("\n")[1:] if "is thinking…" not in line]
        rows = _rows(lines)
        most = max(most, rows)
        assert rows <= ROWS, seen
        assert HEADER.search(seen) and all(seat.search(seen) for seat in SEATS), seen
        assert WHOLE_BOARD not in seen
        listing = seen.split("Choices (")[-1]
        keys = [key for key, _ in KEY.findall(listing)]
        # Every choice is listed, none lost to a line too long: the keys run 1, 2, 3… to the last.
        assert keys == [str(n) for n in range(1, len(keys) + 1)] and keys, listing
        moves = [
            (key, notation) for key, notation in KEY.findall(listing) if re.fullmatch(r"\d[a-d]\d-[a-d]\d", notation)
        ]
        columns += any(len(KEY.findall(line)) > 1 for line in listing.split("\n"))
        if moves and not explained:
            # The columns leave a move's words out; `? KEY` gives them.
            key, notation = moves[-1]
            child.sendline(f"? {key}")
            child.expect(PROMPT)
            told = ANSI.sub("", child.before)
            count, start, end = notation[0], notation[1:3], notation[4:6]
            assert re.search(rf"\[{key}\] {notation}\s+{count} Vikings? from {start} onto {end}", told), told
            explained = True
        child.sendline(rng.choice(keys))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and explained
    # A whole game; recruitments with many moves fill the screen nearly to its last row, in columns.
    assert prompts >= 25 and columns >= 10 and most >= 20, (prompts, columns, most)


def _most_moves(games: int) -> State:
    """Of `games` random Vikingdoms games, the position where the first seat had the most choices."""
    game = get_game("vikingdoms")
    most: State | None = None
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(2)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if state.current_player() == 0 and (most is None or len(legal) > len(most.legal_actions())):
                most = state.clone()
            state.apply(rng.choice(legal))
    assert most is not None
    return most


def test_the_decision_with_the_most_choices_of_a_hundred_games_still_fits_80_by_24(tmp_path, monkeypatch) -> None:
    state = _most_moves(100)
    legal = len(state.legal_actions())
    out = io.StringIO()
    monkeypatch.setattr(play, "console", Console(file=out, width=80, height=24, force_terminal=True, color_system=None))
    table = play.TerminalTable(
        state, [Seat("You", "human"), Seat("random", "random")], 1, tmp_path / "x.json", 0, View()
    )
    keys = table.view.keys(state)
    prompt = table.draw(0, keys, None)
    drawn = ANSI.sub("", out.getvalue())
    # A line left above for the bot's move told before the table.
    assert _rows([*drawn.split("\n")[:-1], prompt]) <= ROWS - 1, drawn
    assert HEADER.search(drawn) and all(seat.search(drawn) for seat in SEATS), drawn
    assert [key for key, _ in KEY.findall(drawn)] == [str(n) for n in range(1, legal + 1)] and legal >= 40, drawn


def test_the_table_is_compact_on_a_short_terminal_and_whole_on_a_tall_one_or_in_a_file() -> None:
    game = get_game("vikingdoms")
    state = game.new_initial_state(2)
    chance = random.Random(2)
    while len(state.history) < 40:
        state.apply(sample_chance(state, chance) if state.current_player() == CHANCE else state.legal_actions()[-1])
    board = game.presentation.board(state, 0, ["Ann", "Bo"])

    def drawn(height: int, terminal: bool) -> str:
        out = io.StringIO()
        Console(file=out, width=80, height=height, force_terminal=terminal, color_system=None).print(board)
        return out.getvalue()

    short, tall, filed = drawn(24, True), drawn(60, True), drawn(24, False)
    assert HEADER.search(short) and WHOLE_BOARD not in short
    assert WHOLE_BOARD in tall and WHOLE_BOARD in filed
    # The compact table: the step, the board with the five islands beside it, a line a seat; nothing over 80 wide.
    assert len(short.splitlines()) <= 9, short
    assert re.search(r"^Ann \(Red\): camp \d+ .* coins · tiles ", short, re.M), short
    assert re.search(r"^Bo \(Blue\): camp \d+ .* coins · tiles ", short, re.M), short
    assert all(len(line) <= 80 for line in short.splitlines())
    for island in range(1, 6):
        assert re.search(rf"^ [1-4 ]  .*[ >]{island} ", short, re.M), (island, short)
