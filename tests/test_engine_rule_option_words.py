"""Every rule option of every registered game is named in words — a title, each choice as
a label a player understands, one line on what it decides — and the options that change the game most are marked
`primary`, so that a lobby can name them without knowing any game. Records keep the options' names and values."""

from __future__ import annotations

import pytest

from skald.engine import RuleOption, get_game, listed_games

ALL_OPTIONS = [(name, option) for name in listed_games() for option in get_game(name).options]


@pytest.mark.parametrize(("game", "option"), ALL_OPTIONS, ids=[f"{g}.{o.name}" for g, o in ALL_OPTIONS])
def test_every_rule_option_has_a_title_a_label_per_choice_and_one_line(game: str, option: RuleOption) -> None:
    assert option.title.strip(), f"{game}.{option.name} has no title"
    assert option.title != option.name
    if option.labels:
        assert len(option.labels) == len(option.choices)
        assert all(label.strip() for label in option.labels)
        assert len(set(option.labels)) == len(option.labels), "two choices worded alike"
    line = option.one_line()
    assert line.strip() and "\n" not in line and len(line) <= 160


def test_every_string_choice_is_labelled_so_no_raw_identifier_reaches_a_player() -> None:
    unlabelled = [
        f"{game}.{o.name}" for game, o in ALL_OPTIONS if not o.labels and any("_" in str(c) for c in o.choices)
    ]
    assert unlabelled == []


def test_the_advanced_vikings_game_is_a_primary_option_labelled_in_words() -> None:
    variant = next(o for o in get_game("vikings").options if o.name == "variant")
    assert variant.primary
    assert variant.choices == ("base", "advanced") and variant.default == "base"  # as records store them
    assert variant.choice_label("base") == "Base game"
    assert variant.choice_label("advanced").startswith("Advanced game")


def test_an_option_without_words_falls_back_to_its_name_and_values() -> None:
    bare = RuleOption("head_start", "a_little", ("a_little", "none"), "Points seat 1 starts with. More words.")
    assert bare.heading() == "Head start"
    assert [bare.choice_label(c) for c in bare.choices] == ["A little", "None"]
    assert bare.one_line() == "Points seat 1 starts with."
    flag = RuleOption("undo", False, (False, True), "Whether a move may be taken back")
    assert [flag.choice_label(c) for c in flag.choices] == ["No", "Yes"]
    assert flag.one_line() == "Whether a move may be taken back."


def test_an_option_with_a_label_missing_or_a_default_outside_its_choices_is_refused() -> None:
    with pytest.raises(ValueError, match="2 labels for 3 choices"):
        RuleOption("size", "s", ("s", "m", "l"), "Size.", labels=("Small", "Medium"))
    with pytest.raises(ValueError, match="default 'x' is not one of"):
        RuleOption("size", "x", ("s", "m"), "Size.")
