"""The terminal says what each die decided: `skald play`'s log and `skald replay` give the game's words
(`Presentation.outcome`, read from the table before the outcome) beside a chance outcome's notation, for every viewer
from whom the outcome is not hidden ("Other seats' moves reach a person at a human pace, each die saying what it
decided": DESIGN.md, "Questions, pace and time"). A game whose outcomes have no words prints them as before.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from skald.cli.play import PERSON, TerminalTable
from skald.cli.table import View
from skald.engine import CHANCE, Record, Seat, State, get_game, play_random_game, sample_chance
from skald.games.vikingatid import steps as S


def _skald(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command, its output wide enough that no line of the log is wrapped."""
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "400"},
    )


def _chance_words(record: Record, viewer: int | None, whole: bool) -> list[tuple[int, str, str, int]]:
    """Each chance outcome of `record`: its index, notation and words as `viewer` may read them (all of them in a
    game shown `whole`), and the step it was drawn at; the words are read from the state before the outcome."""
    state = record.initial_state()
    said = []
    for index, action in enumerate(record.actions):
        if state.current_player() == CHANCE:
            hidden = not whole and state.action_hidden_from(action, viewer)
            notation = state.action_to_notation(action) if whole else state.notation_for(action, viewer)
            words = "" if hidden else state.game.presentation.outcome(state, action)
            said.append((index, notation, words, getattr(state, "step", -1)))
        state.apply(action)
    return said


def _advanced_to(step: int, rng: random.Random) -> State:
    """A 2-player Vikingatid game played at random up to its first chance node at `step`."""
    state = get_game("vikingatid").new_initial_state(2)
    while not (state.current_player() == CHANCE and state.step == step):  # type: ignore[attr-defined]
        assert not state.is_terminal()
        player = state.current_player()
        state.apply(sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions()))
    return state


def test_the_terminal_log_says_what_a_danger_roll_decided(tmp_path: Path) -> None:
    result = _skald(
        tmp_path,
        "play",
        "vikingatid",
        "--seats",
        "random,random",
        "--seed",
        "3",
        "--pause",
        "0",
        "--save-file",
        "g.json",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    said = _chance_words(Record.load(tmp_path / "g.json"), None, whole=False)
    dangers = [words for _, _, words, step in said if step == S.DANGER_ROLL]
    assert dangers and all("danger roll" in words and "against a count of" in words for words in dangers)
    told = [line for line in lines if line.startswith("chance: ")]
    # Every outcome with words is told, in order, beside its notation (the bots' moves' layout); no other is.
    assert told == [f"chance: {notation:<12} {words}" for _, notation, words, _ in said if words]
    assert any("danger roll" in line and "against a count of" in line for line in told)


def test_at_one_keyboard_the_lines_kept_for_a_person_away_say_what_a_roll_decided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = _advanced_to(S.DANGER_ROLL, random.Random(4))
    rng = random.Random(4)
    table = TerminalTable(state, [Seat("Ann", PERSON), Seat("Bo", PERSON)], 1, tmp_path / "g.json", 0, View())
    assert table.passing
    action = sample_chance(state, rng)
    words = state.game.presentation.outcome(state.clone(), action)
    assert "danger roll" in words and "against a count of" in words
    notation = state.notation_for(action, 0)
    table.apply(action, CHANCE)
    assert table.unseen == {0: [f"chance: {notation} — {words}"], 1: [f"chance: {notation} — {words}"]}
    assert words in " ".join(capsys.readouterr().out.split())  # told at the table too, as the terminal wraps it


def test_an_outcome_hidden_from_a_viewer_comes_to_him_without_its_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card drawn is the drawer's alone: whatever the game would say of it reaches only the viewers who see it."""
    state = _advanced_to(S.DRAW_CARD, random.Random(4))
    presentation = state.game.presentation
    monkeypatch.setattr(type(presentation), "outcome", lambda self, state, action: "what the card is")
    table = TerminalTable(state, [Seat("Ann", PERSON), Seat("Bo", PERSON)], 1, tmp_path / "g.json", 0, View())
    action = sample_chance(state, random.Random(4))
    hidden = {seat: state.action_hidden_from(action, seat) for seat in (0, 1)}
    assert sorted(hidden.values()) == [False, True] and state.action_hidden_from(action, None)
    shown = {seat: state.notation_for(action, seat) for seat in (0, 1)}
    table.apply(action, CHANCE)
    assert table.unseen == {
        seat: [f"chance: {shown[seat]}" if hidden[seat] else f"chance: {shown[seat]} — what the card is"]
        for seat in (0, 1)
    }
    assert "what the card is" not in capsys.readouterr().out  # the screen is a spectator's between two people


def _replayed(tmp_path: Path, record: Record) -> list[str]:
    record.save(tmp_path / "game.json")
    result = _skald(tmp_path, "replay", "game.json")
    assert result.returncode == 0, result.stderr
    return [line.strip() for line in result.stdout.splitlines() if ". chance: " in line]


def test_replaying_a_vikingatid_record_says_what_each_roll_decided(tmp_path: Path) -> None:
    state = play_random_game(get_game("vikingatid").new_initial_state(2), random.Random(5))
    record = Record.of(state)
    said = _chance_words(record, None, whole=True)
    assert any("danger roll" in words for _, _, words, _ in said)
    told = _replayed(tmp_path, record)
    assert told == [f"{i + 1}. chance: {n} — {w}" if w else f"{i + 1}. chance: {n}" for i, n, w, _ in said]
    assert any("danger roll" in line and "against a count of" in line for line in told)


def test_replaying_an_unfinished_vikingatid_game_gives_a_spectator_the_words_of_what_he_may_see(
    tmp_path: Path,
) -> None:
    state = play_random_game(get_game("vikingatid").new_initial_state(2), random.Random(5))
    record = Record.of(state)
    record.actions = record.actions[: len(record.actions) // 2]
    said = _chance_words(record, None, whole=False)
    assert any(words for _, _, words, _ in said)
    # A card drawn is hidden from a spectator: told without words (`notation_for`), never as its kind.
    assert any(step == S.DRAW_CARD and not words for _, _, words, step in said)
    told = _replayed(tmp_path, record)
    assert told == [f"{i + 1}. chance: {n} — {w}" if w else f"{i + 1}. chance: {n}" for i, n, w, _ in said]


def test_a_game_whose_outcomes_have_no_words_prints_its_chance_lines_unchanged(tmp_path: Path) -> None:
    state: State = play_random_game(get_game("vikings").new_initial_state(2), random.Random(8))
    record = Record.of(state)
    said = _chance_words(record, None, whole=True)
    assert said and not any(words for _, _, words, _ in said)
    assert _replayed(tmp_path, record) == [f"{index + 1}. chance: {notation}" for index, notation, _, _ in said]
    # At the table, an outcome without words adds no line to the log.
    result = _skald(tmp_path, "play", "vikings", "--seats", "random,random", "--seed", "3", "--pause", "0")
    assert result.returncode == 0, result.stderr
    assert not [line for line in result.stdout.splitlines() if line.startswith("chance")]
