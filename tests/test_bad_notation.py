"""Vikings notation and action JSON as a person or a file may give them: numbers are ASCII digits, anything else
is refused with the usual message, and a value is quoted short however long it is."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skald.games.vikings import actions as A
from skald.games.vikings.game import GAME as VIKINGS

HUGE = "x" * 100_000


@pytest.mark.parametrize("text", ["buy ²", "ship ³", "bid ٣", "take ¹", "buy 7²", "bid ৪"])
def test_a_count_in_digits_other_than_ascii_is_not_notation(text: str) -> None:
    """'²' passed `str.isdigit` and then failed in `int()`; '٣' passed both and was read as 3."""
    with pytest.raises(ValueError, match=r"is not Vikings notation \(e\.g\. 'buy 7'"):
        A.from_notation(text)


@pytest.mark.parametrize("text", ["tile N²", "viking N١", "replace G٣"])
def test_a_column_in_digits_other_than_ascii_is_not_a_square(text: str) -> None:
    square = text.split()[1]
    with pytest.raises(ValueError, match=rf"^square: '{square}' is not a square \(a row letter"):
        A.from_notation(text)


def test_a_word_without_a_count_never_reads_its_argument_as_one() -> None:
    """`tile ²` failed in `int()` too: every word's argument was converted, whichever word was given."""
    with pytest.raises(ValueError, match=r"^square: '²' is not a square"):
        A.from_notation("tile ²")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sail " + HUGE, "^'sail xxxxx.*' is not Vikings notation"),
        ("tile " + HUGE, "^square: 'XXXX.*' is not a square"),
        ("tile N" + "9" * 100_000, "^square: 'N999.*' is not a square"),  # not Python's limit on int() digits
        ("bid " + "9" * 100_000, "^'bid 999.*' is not Vikings notation"),
        ("draw tile " + HUGE, "^tile: 'xxxx.*' is not a tile code"),
    ],
)
def test_huge_notation_is_quoted_short(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        A.from_notation(text)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": HUGE}, "^type: unknown action type 'xxxx"),
        ({"type": "buy", "price": HUGE}, "^price: expected int, got 'xxxx"),
        ({"type": "island", "square": HUGE}, "^square: 'XXXX.*' is not a square"),
        ({"type": "draw_tile", "tile": HUGE}, "^tile: 'xxxx.*' is not a tile code"),
        ({"type": "viking", "square": "N" + "9" * 100_000}, "^square: 'N999.*' is not a square"),
    ],
)
def test_huge_action_json_is_quoted_short_and_names_its_field(data: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        A.from_json(data)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"variant": HUGE}, "options.variant: "),
        ({HUGE: "on"}, "options.xxxx"),
        ({"ferry": [HUGE] * 1000}, "options.ferry: "),
    ],
)
def test_a_huge_rule_option_is_quoted_short(options: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError) as error:
        VIKINGS.new_initial_state(2, options)
    assert str(error.value).startswith(field) and len(str(error.value)) < 300


WORDS = ["buy", "ship", "tile", "start", "viking", "head", "ferry", "boat", "done", "bid", "pass", "remove", "place"]
WORDS += ["take", "decline", "replace", "draw", "draw tile", "draw viking", "draw special"]
FIELDS = ("price", "column", "square", "colour", "boat", "tile", "special", "gold", "slot", "type")


@settings(max_examples=500, deadline=None, database=None)
@given(st.sampled_from(WORDS), st.text(max_size=8))
@example("buy", "²")
@example("tile", "²")
@example("take", "１")
def test_any_argument_to_any_word_parses_or_is_refused_with_the_usual_message(word: str, argument: str) -> None:
    """Either an action, or 'is not Vikings notation', or the field at fault: never an error from `int()`."""
    try:
        action = A.from_notation(f"{word} {argument}")
    except ValueError as error:
        message = str(error)
        assert "is not Vikings notation" in message or message.startswith(tuple(f + ": " for f in FIELDS)), message
    else:
        assert A.from_notation(A.to_notation(action)) == action


@pytest.mark.parametrize("word", ["²", "٣", "5" * 5000])
def test_a_bare_price_at_a_purchase_must_be_ascii_digits(word: str) -> None:
    # At a purchase a bare number buys at that price; anything else is refused as notation, never by `int()`.
    state = VIKINGS.new_initial_state(2)
    while state.current_player() < 0:
        state.apply(state.chance_outcomes()[0][0])
    assert state.action_from_notation("3") == A.BUY + 3
    with pytest.raises(ValueError, match="is not Vikings notation"):
        state.action_from_notation(word)
