"""`skald play vikingatid` through the real command in a pseudo-terminal: a whole 3-player game against two bots at
100×30, the compact table at 80×24, and two people at one keyboard with the pass-the-keyboard screen between them.

The person's answers are read off the listed choices, as a person reads them (a seeded random pick among the keys
shown); chance and bots follow `--seed`. What is checked is what a person sees: the table in the form that fits the
terminal, every choice labelled in words, the bots' moves told under their names with nobody's hidden card shown,
no "pass" asked of a person who has no other choice, and, at one keyboard, no hand left on screen for the next
person (docs/vikingatid.md, "The terminal table").
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from skald.engine import Record, get_game
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.render import render_text
from skald.games.vikingatid.state import VikingatidState

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
#: What `clear_screen` writes before the pass-the-keyboard screen: the screen and the scrollback wiped.
CLEAR = "\x1b[2J"
#: `Ann (move the war fleet of 2 on, stop, or end the journey)> `.
PROMPT = r"(\S+) \(([^()\n]+)\)> "
PASS_SCREEN = r"press Enter when nobody else can see the screen… "
CHOICE = re.compile(r"^\s*\[(\S+)\] (.*)$", re.M)
#: A word of the choices' labels (the board's names have Swedish letters).
WORD = re.compile(r"[A-Za-zÅÄÖåäöÆØæøÉéü]{3,}")
#: The first line of the table in each form (render.py): the full one says "year", the compact one does not.
FULL_HEADER = re.compile(r"^Vikingatid · turn \d+, year \d+ · phase \d+", re.M)
COMPACT_HEADER = re.compile(r"^Vikingatid · turn \d+ \(\d+\) · \d+\. ", re.M)
#: The titles of the cards, as the choices and the narration name them.
TITLES = frozenset(card.title for card in get_game("vikingatid").cards.kinds)  # type: ignore[attr-defined]


def _as_at_a_terminal() -> None:
    """Ctrl-C interrupts, as at a person's terminal, even when the suite runs with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """A terminal of `rows`×`columns` running `skald play vikingatid`, and the person (or people) at it."""

    def __init__(self, cwd: Path, rows: int, columns: int, *args: str) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "skald.cli.main", "play", "vikingatid", *args, "--pause", "0", "--save-file", "game.json"],
            cwd=str(cwd),
            dimensions=(rows, columns),
            encoding="utf-8",
            timeout=120,
            preexec_fn=_as_at_a_terminal,
            # The terminal's size is the pseudo-terminal's, as at a person's: the runner's COLUMNS and LINES (the
            # test runner exports them) would otherwise override it.
            env={key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")},
        )
        self.child.delaybeforesend = None
        self.rows = rows
        self.columns = columns
        #: What was printed before the last prompt (ANSI codes and carriage returns taken out), and as printed.
        self.seen = ""
        self.raw = ""
        self.who = ""
        self.step = ""
        self.prompt_line = ""

    def next(self) -> str:
        """Wait for a person's prompt ("prompt"), the pass-the-keyboard screen ("pass") or the end ("end")."""
        index = self.child.expect([PROMPT, PASS_SCREEN, "Final standings"])
        self.raw = self.child.before
        self.seen = ANSI.sub("", self.raw)
        if index == 0:
            self.who, self.step = self.child.match.group(1), self.child.match.group(2)
            self.prompt_line = ANSI.sub("", self.child.after)
        return ("prompt", "pass", "end")[index]

    def choices(self) -> list[tuple[str, str]]:
        """The keys and labels (notation and description) listed since the previous prompt."""
        return [(key, " ".join(label.split())) for key, label in CHOICE.findall(self.seen)]

    def say(self, text: str) -> None:
        self.child.sendline(text)

    def finish(self) -> str:
        """After the standings: everything printed until the command ends."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        return ANSI.sub("", self.child.before)


def _last_screen(terminal: Terminal) -> list[str]:
    """The lines on the terminal when a prompt waits: the last `rows` lines printed, the prompt's own line last."""
    lines = (terminal.seen + terminal.prompt_line).split("\n")
    return lines[-terminal.rows :]


def _labels_in_words(choices: list[tuple[str, str]]) -> None:
    """Each choice says what it is in words ("pass", "no war", "war fleet of 3 from Norge"), never in bare
    notation alone ("#45", "b2", "3")."""
    for key, label in choices:
        assert WORD.search(label) and not re.fullmatch(r"[#\w+-]*\d[#\w+-]*", label), f"[{key}] {label!r}"


def _told(seen: str, bots: tuple[str, ...]) -> list[tuple[list[tuple[str, int]], str]]:
    """The moves told for the bots and taken alone for the person: who (each with how many times) and the label.
    The same move made in a row is told on one line ("greedy ×2, random ×2, You (the only choice) ×2: pass")."""
    name = "|".join([*(re.escape(bot) for bot in bots), r"You \(the only choice\)"])
    one = rf"(?:{name})(?: ×\d+)?"
    lines = re.findall(rf"^({one}(?:, {one})*): (.*)$", seen, re.M)
    told = []
    for who, label in lines:
        counted = [re.fullmatch(rf"({name})(?: ×(\d+))?", part) for part in who.split(", ")]
        told.append(([(m.group(1), int(m.group(2) or 1)) for m in counted if m], label.strip()))
    return told


def _play_a_game_against_two_bots(tmp_path: Path, seed: int, bots: str) -> dict[str, int]:
    """A whole 3-player game at 100×30 (the person in seat 1), every check at every prompt; the counts seen."""
    terminal = Terminal(tmp_path, 30, 100, "--seats", f"you,{bots}", "--seed", str(seed))
    specs = bots.split(",")
    # As the table names them: a bot's spec, with its seat where two seats share one.
    names = tuple(spec if specs.count(spec) == 1 else f"{spec} (seat {i + 2})" for i, spec in enumerate(specs))
    rng = random.Random(seed)
    counts = {"prompts": 0, "taken alone": 0, "card windows asked": 0, "bot moves": 0, "lines telling them": 0}
    kinds: set[str] = set()
    tables: list[str] = []  # the table drawn for each prompt
    while terminal.next() == "prompt":
        seen = terminal.seen
        assert terminal.who == "You"
        counts["prompts"] += 1
        tables.append(seen.split("── You: ")[-1])
        if terminal.step == "play a card, or pass":
            counts["card windows asked"] += 1
        # The full table, drawn for 100 columns, fits them: no line of it wider.
        assert FULL_HEADER.search(seen) and not COMPACT_HEADER.search(seen), seen[-3000:]
        assert all(len(line) <= 100 for line in seen.split("\n"))
        choices = terminal.choices()
        assert choices, seen[-2000:]
        _labels_in_words(choices)
        headings = re.findall(r"^ (\w[^:\n]*):$", seen.split("Choices (")[-1], re.M)
        kinds.update(headings or [terminal.step])
        # A person is asked only where there is a choice: a lone "pass" is taken by the table.
        assert len(choices) > 1 or not choices[0][1].startswith("pass"), choices
        for who, label in _told(seen, names):
            counts["lines telling them"] += 1
            for name, times in who:
                counts["taken alone" if name.startswith("You") else "bot moves"] += times
            # Told under the bots' names, never as "you"; a card given between the bots stays hidden from seat 1.
            assert not re.search(r"\byou(r)?\b", label, re.I), label
            gift = re.search(r"^give (.+?) to seat (\d)", label)
            mine = any(name.startswith("You") for name, _ in who)
            assert gift is None or gift.group(1) not in TITLES or gift.group(2) == "1" or mine, label
        terminal.say(rng.choice(choices)[0])
    end = terminal.finish()
    assert terminal.child.exitstatus == 0
    assert "Game over" in terminal.seen
    assert "Victory points" in end and re.search(r"^│?.*You .* \d+ ", end, re.M), end
    assert re.search(r"(wins|share the victory|Nobody wins)", end), end
    record = Record.load(tmp_path / "game.json")
    assert record.replay().is_terminal()
    # Replayed: the person was asked exactly where he had more than one choice, and each time the table showed his
    # own hand, never a bot's.
    state = get_game("vikingatid").new_initial_state(3, record.options)
    asked: list[VikingatidState] = []
    for action in record.actions:
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            asked.append(state.clone())  # type: ignore[arg-type]
        state.apply(action)
    assert len(asked) == len(tables)
    for table, position in zip(tables, asked, strict=True):
        own = _hand_line(position, 0)
        assert own in table, own
        for bot in (1, 2):
            theirs = _hand_line(position, bot)
            assert theirs == own or theirs not in table, theirs
    counts["kinds of choice"] = len(kinds)
    return counts


def test_a_three_player_game_against_two_bots_is_played_to_the_final_standings_at_100_by_30(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    counts = _play_a_game_against_two_bots(tmp_path, 5, "greedy,random")
    # Many card windows pass without asking the person, who is still asked where a card may be played; the bots'
    # passes in a row are told on one line.
    assert counts["taken alone"] > 0 and counts["prompts"] > 0
    assert counts["bot moves"] > counts["lines telling them"] > 0
    with capsys.disabled():
        print(f"\n100x30 greedy,random seed 5: {counts}")


@pytest.mark.slow
def test_whole_games_against_two_greedy_bots_at_100_by_30(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in (11, 12):
        (tmp_path / str(seed)).mkdir()
        counts = _play_a_game_against_two_bots(tmp_path / str(seed), seed, "greedy,greedy")
        with capsys.disabled():
            print(f"\n100x30 greedy,greedy seed {seed}: {counts}")


def test_at_80_by_24_the_compact_table_fits_and_the_prompt_and_choices_are_on_the_last_screen(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, 24, 80, "--seats", "you,random,random", "--seed", "8")
    rng = random.Random(8)
    prompts = 0
    while prompts < 80 and terminal.next() == "prompt":
        prompts += 1
        seen = terminal.seen
        # The compact form, written for 80 columns, is the one drawn; nothing printed is wider than the terminal.
        assert COMPACT_HEADER.search(seen) and not FULL_HEADER.search(seen), seen[-2000:]
        assert all(len(line) <= 80 for line in (seen + terminal.prompt_line).split("\n"))
        screen = _last_screen(terminal)
        assert screen[-1].startswith("You (") and screen[-1].rstrip().endswith(")>")
        choices = terminal.choices()
        listed = seen.split("Choices (")[-1].split("\n")
        if len(listed) <= terminal.rows - 1:
            # The choices fit on a screen: every one of them is on the last one, with its heading.
            assert any(line.startswith("Choices (") for line in screen), "\n".join(screen)
            for key, _ in choices:
                assert any(line.lstrip().startswith(f"[{key}]") for line in screen), (key, screen)
        _labels_in_words(choices)
        terminal.say(rng.choice(choices)[0])
    assert prompts == 80
    if terminal.next() == "prompt":  # typed before the prompt appears, `quit` would be set aside
        terminal.say("quit")
    terminal.finish()
    assert Record.load(tmp_path / "game.json").actions


def test_the_board_picks_its_form_by_the_width_of_the_terminal() -> None:
    """The game gives the table one renderable; Rich asks it at print time, so the person's terminal decides."""
    game = get_game("vikingatid")
    state = game.new_initial_state(3)
    board = game.presentation.board(state, 0, ["Ann", "Bo", "Cy"])
    for width, header in ((100, FULL_HEADER), (120, FULL_HEADER), (80, COMPACT_HEADER), (99, COMPACT_HEADER)):
        out = io.StringIO()
        Console(file=out, width=width, color_system=None).print(board)
        assert header.search(out.getvalue()), (width, out.getvalue())
        assert all(len(line) <= width for line in out.getvalue().split("\n"))


def test_a_step_whose_details_are_missing_is_still_shown_in_words() -> None:
    """A step met where the table lacks what its words read (no election under way, no entry asked), as a step
    added to the game before its words would be: shown by its name from steps.py, its choices by their notation;
    the table never fails on it."""
    game = get_game("vikingatid")
    rng = random.Random(3)
    state = game.new_initial_state(3)
    assert isinstance(state, VikingatidState)
    while state.current_player() < 0 or state.step != S.CARD_WINDOW:
        legal = state.legal_actions() if state.current_player() >= 0 else [a for a, _ in state.chance_outcomes()]
        state.apply(rng.choice(legal))
    actions = state.legal_actions()
    presentation = game.presentation
    for step in (S.SEALED_BID, S.GIFT_AMOUNT, S.BID_AMOUNT, S.ENTRY_REPLY, S.ENTRY_ANSWER, S.CARD_TARGET):
        state.step = step
        prompt = presentation.prompt(state)
        assert WORD.search(prompt), prompt
        keys = presentation.keys(state, actions)
        assert [a for _, a in keys] == actions
        assert sorted(a for _, group in presentation.groups(state, actions) for a in group) == sorted(actions)
        for action in actions:
            assert isinstance(presentation.describe(state, action), str)
        assert S.STEPS[step].name in presentation.rules(state) and presentation.step_help(state)
        assert isinstance(presentation.notes(state), list)


def test_two_people_at_one_keyboard_pass_it_and_the_second_never_sees_the_firsts_hand(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, 30, 100, "--seats", "you:Ann,you:Bo,random", "--seed", "21")
    rng = random.Random(21)
    screens: list[tuple[str, str]] = []  # (whose prompt, the table drawn for it)
    passes = 0
    passed = False
    last_person = ""
    while True:
        what = terminal.next()
        assert what != "end"
        if what == "pass":
            # The screen and its scrollback are wiped before the next person is named, and nothing after that shows
            # a hand until the person presses Enter.
            assert CLEAR in terminal.raw
            after = ANSI.sub("", terminal.raw.split(CLEAR)[-1])
            assert "Your cards" not in after and "'s turn" in after, after
            passes += 1
            passed = True
            terminal.say("")
            continue
        if last_person and terminal.who != last_person:
            assert passed, f"{terminal.who} took the keyboard from {last_person} without a pass screen"
        passed = False
        last_person = terminal.who
        if len(screens) == 120:
            break
        # The table drawn for this prompt: from the rule naming the person and the step.
        drawn = terminal.seen.split(f"{terminal.who}: ")
        screens.append((terminal.who, terminal.seen if len(drawn) < 2 else drawn[-1]))
        choices = terminal.choices()
        _labels_in_words(choices)
        terminal.say(rng.choice(choices)[0])
    terminal.say("quit")
    terminal.finish()
    assert passes >= 2
    # Replay what was played: at each person's prompt, that person's hand is on screen and the other's is not.
    record = Record.load(tmp_path / "game.json")
    state = get_game("vikingatid").new_initial_state(3, record.options)
    decisions: list[VikingatidState] = []
    for action in record.actions:
        if state.current_player() in (0, 1):
            decisions.append(state.clone())  # type: ignore[arg-type]
        state.apply(action)
    assert len(decisions) == len(screens)
    people = {"Ann": 0, "Bo": 1}
    for (who, screen), position in zip(screens, decisions, strict=False):
        seat = people[who]
        assert position.current_player() == seat
        own = _hand_line(position, seat)
        other = _hand_line(position, 1 - seat)
        assert own in screen, (who, own)
        if other != own:
            assert other not in screen, (who, other)
        # What the other person drew is told as a draw, never by the card.
        assert not re.search(rf"seat {2 - seat} draws (?!a card)", screen), screen


def _hand_line(state: VikingatidState, seat: int) -> str:
    """The "Your cards:" line the table shows `seat`."""
    return next(line for line in render_text(state, seat=seat).split("\n") if line.startswith("Your cards:"))


def test_at_one_keyboard_a_person_keeps_a_pass_in_card_windows_until_his_next_other_decision(tmp_path: Path) -> None:
    """Two people at one keyboard are each asked in every card window (VA-09: every holder is asked, and whether his
    pass is forced is hidden): in a window the table offers `keep`, which passes now and in every window after it,
    with no pass screen, until the person's next decision of another kind; the kept passes are told as his ("Ann
    (kept): pass")."""
    terminal = Terminal(tmp_path, 30, 100, "--seats", "you:Ann,you:Bo,random", "--seed", "21")
    rng = random.Random(21)
    kept_by = ""
    told = ""  # all printed after the keep
    while True:
        what = terminal.next()
        assert what != "end"
        if kept_by:
            told += terminal.seen
        if what == "pass":
            terminal.say("")
            continue
        offered = "Type keep to pass in every card window until my next decision." in terminal.seen
        assert offered == terminal.step.startswith("play a card, or pass"), terminal.step
        if kept_by == terminal.who:
            break  # his next decision after keeping: never a card window
        if offered and not kept_by:
            kept_by = terminal.who
            terminal.say("keep")
            continue
        terminal.say(rng.choice(terminal.choices())[0])
    assert not terminal.step.startswith("play a card")
    terminal.say("quit")
    terminal.finish()
    # The record: from the keep on, the person's every step up to this prompt was a pass in a card window.
    record = Record.load(tmp_path / "game.json")
    seat = {"Ann": 0, "Bo": 1}[kept_by]
    state = get_game("vikingatid").new_initial_state(3, record.options)
    passes = []
    keeping = False
    for action in record.actions:
        if state.current_player() == seat:
            keeping = keeping or state.step == S.CARD_WINDOW
            if keeping:
                assert state.step == S.CARD_WINDOW and state.action_to_notation(action) == "pass"
                passes.append(action)
        state.apply(action)
    assert state.current_player() == seat and state.step != S.CARD_WINDOW
    assert len(passes) >= 2, "the kept pass answered no window after the one it was kept in"
    assert re.search(rf"\b{kept_by} \(kept\)( ×\d+)?(, [^:\n]+)?: pass", told), told
