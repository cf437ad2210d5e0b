"""The game in brief (`Presentation.overview`): the goal, how the game ends, the eleven phases ("Summary of the game
turns": "Each turn consists of eleven phases"), the sources of victory points ("9. Victory points", "Winning the
game") and a glossary holding every term the prompts use, found by reading the prompts of random games; and the
kingdoms by the board's names (Danavalde, with the rule text's Denmark in brackets) in the rules the table shows."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from rich.text import Text
from vikingatid_kit import GAME

from skald.games.vikingatid import steps as S
from skald.games.vikingatid.overview import GLOSSARY
from skald.games.vikingatid.state import VikingatidState

P = GAME.presentation
#: Everyday words a prompt may use without a glossary entry: articles, pronouns, prepositions and the plain verbs
#: of asking. A word of the game (fleet, duty, initiative, camp…) is never here.
EVERYDAY = frozenset(
    [
        "a",
        "an",
        "the",
        "or",
        "and",
        "nor",
        "to",
        "of",
        "on",
        "in",
        "at",
        "for",
        "from",
        "by",
        "with",
        "how",
        "much",
        "many",
        "which",
        "what",
        "whose",
        "who",
        "this",
        "that",
        "these",
        "here",
        "there",
        "it",
        "its",
        "his",
        "her",
        "their",
        "your",
        "you",
        "be",
        "is",
        "are",
        "was",
        "would",
        "not",
        "no",
        "nothing",
        "more",
        "less",
        "now",
        "then",
        "after",
        "before",
        "once",
        "say",
        "choose",
        "give",
        "pay",
        "ask",
        "let",
        "take",
        "make",
        "keep",
        "go",
        "come",
        "get",
        "offer",
        "accept",
        "decline",
        "place",
        "one",
        "two",
        "three",
        "some",
        "any",
        "all",
        "each",
        "every",
        "other",
        "another",
        "again",
        "still",
        "only",
        "also",
        "into",
        "onto",
        "up",
        "down",
        "off",
        "out",
        "as",
        "if",
        "so",
        "may",
        "can",
        "hold",
        "played",
    ]
)


def overview() -> str:
    return Text.from_markup(P.overview(GAME.new_initial_state(3))).plain


def prompts(seeds: range, limit: int = 1500) -> Iterator[str]:
    """The prompt of every decision in random games of 2 to 6 players, each game played to `limit` actions (far
    enough for elections, purchases, journeys and fights), with every card and sealed-bid option met in turn."""
    for seed in seeds:
        rng = random.Random(seed)
        options = {"election_bids": "sealed"} if seed % 3 == 2 else {}
        state = GAME.new_initial_state(2 + seed % 5, options)
        for _ in range(limit):
            if state.is_terminal():
                break
            if state.current_player() >= 0:
                yield P.prompt(state)
            state.apply(rng.choice(state.legal_actions()))
    for step in S.STEPS:
        if not step.chance and not step.terminal:
            yield step.name  # the words a prompt falls back on


def _stem(word: str) -> str:
    word = word.lower().removesuffix("'s").removesuffix("’s")
    return word[:-1] if word.endswith("s") and len(word) > 3 and not word.endswith("ss") else word


def glossary_words() -> set[str]:
    return {_stem(w) for term, _ in GLOSSARY for w in re.findall(r"[A-Za-zÄÖÅäöå?']+", term)}


def names_on_the_table(state: VikingatidState) -> set[str]:
    """Words that name a place or card (areas, kingdoms, card titles): they are the board's and the deck's."""
    board = state.position.board
    words: set[str] = set()
    for name in [a.name for a in board.areas] + list(state.space.card_titles):
        words.update(_stem(w) for w in re.findall(r"[A-Za-zÄÖÅäöå']+", name))
    return words


def test_the_overview_states_the_goal_and_the_end() -> None:
    text = overview()
    assert "The goal" in text and "the most VP at the end wins" in text
    assert "How the game ends" in text
    assert "every player is Christian" in text and "1125" in text and "1 VP per own camp" in text


def test_the_overview_follows_the_game_length_option() -> None:
    short = Text.from_markup(P.overview(GAME.new_initial_state(3, {"last_year": "1100"}))).plain
    assert "after turn 13 (the year 1100" in short
    endless = Text.from_markup(P.overview(GAME.new_initial_state(3, {"last_year": "none"}))).plain
    assert "sets no last year" in endless and "after turn" not in endless


def test_the_overview_gives_all_eleven_phases_in_order_in_two_or_three_sentences() -> None:
    text = overview()
    lines = [line for line in text.splitlines() if re.match(r"• \d+\. ", line)]
    assert [int(re.match(r"• (\d+)\.", line).group(1)) for line in lines] == list(range(1, 12))  # type: ignore[union-attr]
    for number, line in enumerate(lines, start=1):
        name = S.PHASE_NAMES[number]
        assert name.split()[0] in line, (name, line)
        sentences = len(re.findall(r"[.!?](?:\s|$)", line.split(": ", 1)[1]))
        assert 1 <= sentences <= 3, line


def test_the_overview_names_every_source_of_victory_points() -> None:
    text = overview()
    section = text.split("Victory points\n", 1)[1].split("\n\n", 1)[0]
    assert "conquered area: its trade value" in section
    assert "king counter held in phase 9: 2 VP" in section
    assert "discovery of an unknown land: 5 VP" in section
    assert "1 VP per own camp" in section


def test_every_term_the_prompts_use_is_in_the_glossary() -> None:
    state = GAME.new_initial_state(3)
    known = glossary_words() | names_on_the_table(state) | {_stem(w) for w in EVERYDAY}
    missing: dict[str, str] = {}
    for prompt in prompts(range(12)):
        for word in re.findall(r"[A-Za-zÄÖÅäöå?']+", re.sub(r"\bseat \d+('s)?", "", prompt)):
            if _stem(word) not in known:
                missing.setdefault(word, prompt)
    assert not missing, missing


def test_the_glossary_explains_the_words_a_newcomer_met() -> None:
    text = overview()
    for term in (
        "initiative",
        "danger count",
        "election",
        "trading camp",
        "war ship",
        "duty",
        "King's Peace",
        "Christian",
        "✝",
        "Gäld",
        "conquered area",
        "emigrate",
        "plunder",
    ):
        assert term in text, term


def test_the_rules_name_the_kingdoms_by_the_board_with_the_english_in_brackets() -> None:
    state = GAME.new_initial_state(3)
    rules = Text.from_markup(P.rules(state)).plain
    assert "Danavalde (Denmark), Norge (Norway) or Svea Rike (Sweden)" in rules
    assert "Denmark, Norway" not in overview() and "Danavalde (Denmark)" in overview()
