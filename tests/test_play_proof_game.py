"""`skald play` of the proof game (hidden hands, secret bids) through the real command in a pseudo-terminal.

The terminal shows each position as the person at the keyboard may see it. Several people at one keyboard get a
"pass the keyboard" screen that clears the terminal first, so the next person never sees the last one's hand
and each may take back only their own step; everything hidden is revealed once the game is
over. Without `--seed` the deal is drawn from the operating system's randomness and no seed is shown, so nobody can
replay a game to learn the hands (review H1).
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from proof_game import actions as A
from proof_game import subprocess_env
from proof_game.game import GAME
from skald.engine import Record, sample_chance

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
#: What the terminal writes to wipe the screen (and the scrollback) before a pass screen.
CLEAR = "\x1b[2J"
PROMPT = r"(\S+) \(([a-zA-Z ]+)\)> "
PASS = r"Pass the keyboard to (\S+); \S+, press Enter[^\n]*… "
CHOICE = re.compile(r"^\s*\[(\w+)\] (\S+(?: \S+)?)", re.M)
HAND = re.compile(r"Seat (\d) \(you\): hand ([\d ]+?) ·")
#: Words that name cards on a screen: a hand, a deal, a choice or a move of play, a card to beat.
CARD = re.compile(r"\b(?:hand|dealt|deal|play|beat)((?: \d+\b)+)")
#: A card in the trick so far: "Trick: Seat 1 (you) 5, Seat 2 3".
TRICK_CARD = re.compile(r"[\w)] (\d+)(?=,|$)")


def cards_named(text: str) -> list[int]:
    """Every card `text` names, in whatever words: hands, deals, choices, moves, cards to beat, tricks."""
    cards = [int(card) for match in CARD.finditer(text) for card in match.group(1).split()]
    for line in text.splitlines():
        if "Trick:" in line:
            cards.extend(int(card) for card in TRICK_CARD.findall(line.split("Trick:", 1)[1].rstrip()))
    return cards


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
        self.chunk = ""
        #: The keys and notations listed last (a prompt asked again after a refused command lists none).
        self.choices: list[tuple[str, str]] = []

    def next(self) -> tuple[str, str, str]:
        """Wait for a prompt, a pass screen or the end: ("prompt", seat name, step), ("pass", name, ""), or
        ("end", "", "")."""
        index = self.child.expect([PROMPT, PASS, pexpect.EOF])
        #: What was printed since the previous event, the prompt included.
        self.chunk = self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        self.raw += self.chunk
        listed = CHOICE.findall(ANSI.sub("", self.chunk))
        if listed:
            self.choices = listed
        if index == 0:
            return "prompt", self.child.match.group(1), self.child.match.group(2)
        if index == 1:
            return "pass", self.child.match.group(1), ""
        self.child.close()
        return "end", "", ""

    def pick_first(self) -> None:
        """Choose the first choice listed for this prompt."""
        self.child.sendline(self.choices[0][0])


def screens(raw: str) -> list[str]:
    """What stood on the screen between two clears, as plain text."""
    return [ANSI.sub("", part) for part in raw.split(CLEAR)]


def skald(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`skald ARGS` run to its end with the proof game registered, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", *args],
        cwd=cwd,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def dealt_cards(record: Record) -> list[set[int]]:
    """Each seat's dealt cards in a finished proof game's record (deals go round the table from seat 0)."""
    hands: list[set[int]] = [set() for _ in range(record.num_players)]
    for index, action in enumerate(record.actions):
        if A.kind_of(action) == "deal":
            hands[index % record.num_players].add(A.value_of(action))
    return hands


def test_two_people_pass_the_keyboard_and_never_see_each_others_hand(tmp_path):
    table = Table(tmp_path, "--seats", "you:Ann,you:Bo", "--seed", "4")
    passes, prompts = [], set()
    #: What was printed for each prompt (since the previous one) with who was at the keyboard and the steps taken.
    printed: list[tuple[str, int, int]] = []
    at_keyboard, steps = 0, 0
    while True:
        kind, who, _ = table.next()
        if kind == "end":
            break
        if kind == "pass":
            passes.append(who)
            before_clear, _, after_clear = table.chunk.rpartition(CLEAR)
            printed.append((before_clear, at_keyboard, steps))  # the last person's screen, until the clear
            assert not cards_named(ANSI.sub("", after_clear)), after_clear  # the pass screen names no card
            table.child.sendline("")
        else:
            prompts.add(who)
            at_keyboard = ["Ann", "Bo"].index(who)
            printed.append((table.chunk, at_keyboard, steps))
            table.pick_first()
            steps += 1
    assert table.child.exitstatus == 0
    assert prompts == {"Ann", "Bo"} and {"Ann", "Bo"} <= set(passes)
    # Every pass screen stands on a freshly cleared screen, before anything of the next person's turn.
    shown_screens = screens(table.raw)
    for screen in shown_screens[1:]:
        assert re.match(r"\s*─* \w+'s turn", screen), screen[:200]
    record = Record.load(tmp_path / "skald-proof.json")
    dealt = dealt_cards(record)
    deals = sum(1 for action in record.actions if A.kind_of(action) == "deal")
    # Whatever the wording (a hand, "you are dealt 7", a choice, a move, the trick, "does not beat 6"), every card
    # a person's screen names is their own or one already played face up: never a card still in the other's hand.
    for text, seat, taken in printed:
        shown = ANSI.sub("", text).split("Game over")[0]
        on_table = {A.value_of(action) for action in record.actions[: deals + taken] if A.kind_of(action) == "play"}
        for card in cards_named(shown):
            assert card in dealt[seat] or card in on_table, (seat, card, shown[-600:])
        assert f"Seat {2 - seat} (you)" not in shown
    assert {seat for _, seat, _ in printed} == {0, 1}
    last = shown_screens[-1]
    # At the end, the secret bids and the deals are revealed to everyone.
    assert "Game over" in last and "Revealed now that the game is over:" in last
    assert re.search(r"Ann: bid \d", last) and "Final standings" in last
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
    result = skald(tmp_path, "replay", "skald-proof.json", "--every", "6")
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
    result = skald(tmp_path, "replay", "saved.json")
    assert result.returncode == 0, result.stderr
    assert "shown as a spectator sees it" in result.stdout
    assert "seat 1 is dealt a card" in result.stdout and "seat 1 bids" in result.stdout
    assert "deal " not in result.stdout and "bid 1" not in result.stdout and "hand" not in result.stdout


def test_play_names_the_game_or_resumes_one(tmp_path):
    result = skald(tmp_path, "play", "--seats", "random,random")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: GAME: name the game to play (") and "proof" in result.stderr


def _bots_play(cwd: Path, save: str, *args: str) -> tuple[str, list[int]]:
    """A 4-seat proof game of random bots played by `skald play`: what it printed, and the record's actions."""
    result = skald(
        cwd, "play", "proof", "--seats", "random,random,random,random", "--pause", "0", "--save-file", save, *args
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, Record.load(cwd / save).actions


def test_without_a_seed_the_deal_is_unpredictable_and_no_seed_is_shown_or_saved(tmp_path):
    # Review H1: a seed shown at the start let anyone replay the game and read every hand. Two games deal the 12
    # cards of a 4-seat game in the same order with probability 1 / (16!/4!) < 1.2e-12 when the draws are random.
    first, first_actions = _bots_play(tmp_path, "a.json")
    second, second_actions = _bots_play(tmp_path, "b.json")
    deals = [[a for a in actions if A.kind_of(a) == "deal"] for actions in (first_actions, second_actions)]
    assert len(deals[0]) == len(deals[1]) == 12
    assert deals[0] != deals[1]
    for printed in (first, second):
        assert not re.search(r"\bseed\b", printed.replace(str(tmp_path), ""), re.I), printed
    for save in ("a.json", "b.json"):
        assert "seed" not in (tmp_path / save).read_text().lower()


def test_a_given_seed_reproduces_the_whole_game_and_is_shown(tmp_path):
    # docs/play.md: anyone who knows the seed can reproduce the deal.
    first, first_actions = _bots_play(tmp_path, "a.json", "--seed", "3")
    second, second_actions = _bots_play(tmp_path, "b.json", "--seed", "3")
    assert first_actions == second_actions
    assert "· seed 3 ·" in first and "· seed 3 ·" in second


def test_in_a_hot_seat_game_with_hidden_hands_no_step_is_taken_back_past_another_seat_or_a_card_shown(tmp_path):
    # A person may take back only his own steps, and never one that revealed what was hidden: a card played leaves
    # a hidden hand face up (skald.engine.undo; the proof game's `action_reveals`).
    table = Table(tmp_path, "--seats", "you:Ann,you:Bo", "--seed", "2")
    other = revealed = False
    last_actor = ""
    while True:
        kind, who, _ = table.next()
        if kind == "end":
            break
        if kind == "pass":
            table.child.sendline("")
            continue
        if last_actor and who != last_actor and not other:
            # The last step (perhaps a secret bid) was the other person's: not this person's to take back.
            table.child.sendline("undo")
            assert table.next()[:2] == ("prompt", who)
            assert f"Cannot undo: {last_actor} has moved since (" in ANSI.sub("", table.chunk)
            other = True
        if who == last_actor and not revealed:
            # Two steps in a row (won a trick, now leads): his own, but the card he played is seen by all.
            table.child.sendline("undo")
            assert table.next()[:2] == ("prompt", who)
            screen = ANSI.sub("", table.chunk)
            assert re.search(r"Cannot undo: your step play \d+ revealed what was hidden", screen), screen
            revealed = True
        table.pick_first()
        last_actor = who
    assert table.child.exitstatus == 0 and other and revealed


def test_a_hot_seat_proof_game_saves_quits_and_resumes_behind_the_pass_screen(tmp_path):
    table = Table(tmp_path, "--seats", "you:Ann,you:Bo", "--seed", "6")
    assert table.next()[0] == "pass"
    table.child.sendline("")
    assert table.next()[:2] == ("prompt", "Ann")
    table.pick_first()  # Ann's secret bid
    assert table.next()[:2] == ("pass", "Bo")
    table.child.sendline("")
    assert table.next()[:2] == ("prompt", "Bo")
    table.child.sendline("save middle.json")
    assert table.next()[:2] == ("prompt", "Bo") and "Saved to" in ANSI.sub("", table.chunk)
    table.child.sendline("quit")
    assert table.next()[0] == "end" and table.child.exitstatus == 0
    assert "Saved to" in ANSI.sub("", table.chunk) and "skald-proof.json" in ANSI.sub("", table.chunk)
    saved = Record.load(tmp_path / "middle.json")
    assert saved.actions == Record.load(tmp_path / "skald-proof.json").actions
    assert saved.replay().current_player() == 1 and not saved.replay().is_terminal()

    # Resumed (without --seed: nothing is left to chance), the game starts with the pass screen, never a hand.
    resumed = Table(tmp_path, "--resume", "middle.json")
    kind, who, _ = resumed.next()
    assert (kind, who) == ("pass", "Bo")
    assert not cards_named(ANSI.sub("", resumed.chunk)) and "hand" not in resumed.chunk
    resumed.child.sendline("")
    while True:
        kind, _, _ = resumed.next()
        if kind == "end":
            break
        resumed.child.sendline("") if kind == "pass" else resumed.pick_first()
    assert resumed.child.exitstatus == 0
    finished = Record.load(tmp_path / "middle.json")
    assert finished.replay().is_terminal() and finished.actions[: len(saved.actions)] == saved.actions
