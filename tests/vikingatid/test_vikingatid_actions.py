"""Vikingatid's fixed action space: ids, JSON and notation (docs/vikingatid.md, "The action space":
every action has a stable id, JSON, and a notation that reads as the rulebook speaks, round-tripping)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from skald.games.vikingatid import actions as A
from skald.games.vikingatid.actions import ActionSpace, Phrase
from skald.games.vikingatid.board import Board, load_board

DOCS = Path(__file__).resolve().parents[2] / "docs" / "vikingatid.md"
BOARD = load_board()
SPACE = ActionSpace(BOARD)
#: The ids the design assigns, less the two spare singles and the 80th area slot (79 areas).
EMPTY_SLOT = {A.FLEET + 79, A.FLEET + 159, A.MOVE + 79, A.BUY + 79, A.BUY + 159, A.PULL_DOWN + 79,
              A.PULL_DOWN + 159, A.EMIGRATE + 79, A.TARGET_AREA + 79}  # fmt: skip
ASSIGNED = [
    a for a in range(A.NUM_ACTIONS)
    if not (A.SINGLE + len(A.SINGLES) <= a < A.FLEET or a in EMPTY_SLOT)
]  # fmt: skip


def test_the_blocks_lie_where_the_docs_table_puts_them() -> None:
    """The ids of docs/vikingatid.md's table are the code's: a block never moves, or old records change meaning."""
    starts = {
        "choose a kingdom": A.KINGDOM,
        "single decisions": A.SINGLE,
        "start a fleet": A.FLEET,
        "move to an area": A.MOVE,
        "place bought ships": A.BUY,
        "pull down a camp": A.PULL_DOWN,
        "build 1–5": A.BUILD,
        "pay onto a roll": A.PAY_ONTO,
        "give silver to a seat": A.GIVE_SILVER,
        "offer a King's Peace": A.OFFER_PEACE,
        "emigrate to an area": A.EMIGRATE,
        "an amount 1–99": A.AMOUNT,
        "chance: a D10 face": A.ROLL,
        "chance: a side's hits": A.HITS,
        "play a card": A.PLAY_CARD,
        "give a card, by kind": A.GIVE_CARD,
        "discard a card": A.DISCARD,
        "chance: draw a card": A.DRAW,
        "a card's target seat": A.TARGET_SEAT,
        "a card's target kingdom": A.TARGET_KINGDOM,
        "a card's target area": A.TARGET_AREA,
        "give a card to seat": A.GIVE_CARD_TO,
    }
    rows = re.findall(r"^\| (\d+)–(\d+) \| ([^|]+)\|", DOCS.read_text(encoding="utf-8"), re.MULTILINE)
    found = {block.strip(): (int(first), int(last)) for first, last, block in rows}
    for name, start in starts.items():
        matches = [span for block, span in found.items() if block.startswith(name)]
        assert matches, f"docs table has no row for {name!r}"
        assert matches[0][0] == start, name
    assert max(last for _, last in found.values()) == A.NUM_ACTIONS - 1 == 1106


def test_the_id_table_matches_the_docs_examples() -> None:
    """The examples of the design read as designed: ids from the table, JSON and notation."""
    assert SPACE.to_json(1) == {"type": "kingdom", "kingdom": "norway"}
    assert SPACE.to_notation(1) == "choose Norge"
    assert SPACE.to_json(A.SINGLE + 4) == {"type": "trade"}
    war_norge = SPACE.fleet("war", "norge")
    assert A.FLEET <= war_norge < A.MOVE
    assert SPACE.to_json(war_norge) == {"type": "fleet", "ships": "war", "area": "norge"}
    assert SPACE.to_notation(war_norge) == "war fleet from Norge"
    assert SPACE.to_notation(SPACE.buy("trading", "gotland")) == "buy trading ships at Gutland"
    assert SPACE.to_notation(SPACE.pull_down("war", "mercien")) == "pull down a war camp in Mercien"
    assert SPACE.to_json(A.BUILD + 1) == {"type": "build", "camp": "trading", "count": 2}
    assert SPACE.to_notation(A.BUILD + 1) == "build 2 trading camps"
    assert SPACE.to_json(A.PAY_ONTO_KINGDOM) == {"type": "pay_onto", "roll": "kingdom"}
    assert SPACE.to_notation(A.GIVE_SILVER + 2) == "give silver to seat 3"
    assert SPACE.to_notation(A.OFFER_PEACE) == "offer King's Peace to Danavalde"
    assert SPACE.to_notation(SPACE.emigrate("normandie")) == "emigrate to Normandie"
    assert SPACE.to_json(A.ROLL + 6) == {"type": "roll", "face": 7}
    assert SPACE.to_notation(A.ROLL + 6) == "roll 7"
    three_and_a_one = A.HITS + A.MAX_HITS + 1 + 3
    assert SPACE.to_json(three_and_a_one) == {"type": "hits", "n": 3, "one": True}
    assert SPACE.to_notation(three_and_a_one) == "3 hits and a 1"
    assert SPACE.to_notation(A.HITS + 1) == "1 hit"


def test_every_id_round_trips_through_json_and_notation() -> None:
    """Every assigned id: its JSON (through a JSON text) and its notation parse back to it, and no two ids share a
    JSON form or a notation."""
    forms: set[str] = set()
    notations: set[str] = set()
    for action in ASSIGNED:
        data = json.loads(json.dumps(SPACE.to_json(action)))
        assert SPACE.from_json(data) == action, data
        notation = SPACE.to_notation(action)
        assert SPACE.from_notation(notation) == action, notation
        forms.add(json.dumps(data, sort_keys=True))
        notations.add(notation)
    assert len(forms) == len(notations) == len(ASSIGNED) == 1107 - 2 - 9


PHRASES = [
    Phrase(A.FLEET_SIZE, ships="war", area="norge"),
    Phrase(A.JOURNEY, ships="trading", area="svea_rike", size=7),
    Phrase(A.PURCHASE, ships="trading", area="gotland"),
    Phrase(A.PAYMENT, seat=1),
    Phrase(A.PAYMENT, kingdom="sweden"),
    Phrase(A.ELECTION, kingdom="denmark"),
    Phrase(A.GIFT, seat=4),
    Phrase(A.DUTY),
    Phrase(A.BUILDING, area="mercien"),
]


@pytest.mark.parametrize("phrase", PHRASES, ids=lambda p: f"{p.kind}")
def test_every_id_round_trips_through_its_sentence_in_context(phrase: Phrase) -> None:
    """With the phrase a position reads, an action's notation is the whole sentence, and it parses back to the
    same id without the position."""
    for action in ASSIGNED:
        assert SPACE.from_notation(SPACE.to_notation(action, phrase)) == action


def test_sentences_read_as_the_rulebook_speaks() -> None:
    """The notation's examples: 'war fleet of 5 from Norge to Nordsjön', 'pay 3 silver onto Svea Rike's roll'."""
    move = SPACE.move("nordsjon")
    assert SPACE.to_notation(move, Phrase(A.JOURNEY, "war", "norge", 5)) == "war fleet of 5 from Norge to Nordsjön"
    assert SPACE.from_notation("war fleet of 5 from Norge to Nordsjön") == move
    three = A.AMOUNT + 2
    assert SPACE.to_notation(three, Phrase(A.PAYMENT, kingdom="sweden")) == "pay 3 silver onto Svea Rike's roll"
    assert SPACE.from_notation("pay 3 silver onto Svea Rike's roll") == three
    assert SPACE.to_notation(A.PAY_ONTO_KINGDOM, Phrase(A.ELECTION, kingdom="sweden")) == "pay onto Svea Rike's roll"
    assert SPACE.to_notation(A.PAY_ONTO, Phrase(A.ELECTION, kingdom="sweden")) == "pay onto seat 1's roll"
    five = A.AMOUNT + 4
    assert SPACE.to_notation(five, Phrase(A.FLEET_SIZE, "war", "norge")) == "war fleet of 5 from Norge"
    assert SPACE.to_notation(A.AMOUNT, Phrase(A.PURCHASE, "war", "norge")) == "buy 1 war ship at Norge"
    assert SPACE.to_notation(A.AMOUNT + 1, Phrase(A.DUTY)) == "ask 2 silver duty"
    assert SPACE.to_notation(A.AMOUNT + 3, Phrase(A.GIFT, seat=0)) == "give 4 silver to seat 1"
    assert SPACE.to_notation(A.BUILD + A.MAX_BUILD, Phrase(A.BUILDING, area="mercien")) == "build 1 war camp in Mercien"


@pytest.mark.parametrize("typed", ["to Nordsjon", "to NORDSJÖN", "to North Sea", "to nordsjon", "move to  nordsjön"])
def test_areas_are_read_by_id_name_or_english_name_in_any_case(typed: str) -> None:
    """Notation reads an area's id, board name or English name, without regard to case or diacritics."""
    assert SPACE.from_notation(typed) == SPACE.move("nordsjon")


def test_names_with_spaces_and_apostrophes_parse() -> None:
    """Multi-word names: 'Svea Rike', 'Skagerrak & Kattegat'; a curly apostrophe reads as a straight one."""
    assert SPACE.from_notation("trading fleet of 3 from Svea Rike to Skagerrak & Kattegat") == SPACE.move("skagerrak")
    assert SPACE.from_notation("offer King’s Peace to Sweden") == A.OFFER_PEACE + 2
    assert SPACE.from_notation("choose danavalde") == A.KINGDOM
    assert SPACE.from_notation("3") == A.AMOUNT + 2


def _reordered(board: Board) -> Board:
    """The same board with its areas in the reverse order, as a person re-sorting the file would leave it."""
    return Board(
        board.source, tuple(reversed(board.areas)), board.rivers, board.empires, board.reaction_results,
        board.tables, board.turn_track, board.start_values, board.discovery, board.route_checks, board.link_notes,
        board.sections,
    )  # fmt: skip


def test_records_name_areas_by_id_so_a_reordered_board_keeps_their_meaning() -> None:
    """JSON names areas by their board id: after the file is reordered the ids move, the records' meaning not."""
    other = ActionSpace(_reordered(BOARD))
    for action in ASSIGNED:
        data = SPACE.to_json(action)
        assert other.to_json(other.from_json(data)) == data
    assert other.move("nordsjon") != SPACE.move("nordsjon")


def test_a_smaller_board_leaves_area_slots_empty() -> None:
    """A board with fewer than 80 areas: the ids of its empty slots have no JSON and are never actions."""
    assert len(BOARD.areas) == 79
    with pytest.raises(ValueError, match="slot 79 is empty"):
        SPACE.to_json(A.MOVE + 79)
    assert [a for a in range(-1, A.NUM_ACTIONS + 1) if SPACE.assigned(a)] == ASSIGNED


@pytest.mark.parametrize(
    ("action", "words"),
    [(-1, "outside 0–1106"), (1107, "outside"), (A.SINGLE + 22, "spare"), (A.TARGET_AREA + 79, "slot 79 is empty")],
)  # fmt: skip
def test_reserved_and_outside_ids_are_refused_by_name(action: int, words: str) -> None:
    """The spare singles and ids outside the space or in an empty area slot: no JSON or notation."""
    with pytest.raises(ValueError, match=words):
        SPACE.to_json(action)
    with pytest.raises(ValueError, match=words):
        SPACE.to_notation(action)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ("move", "expected an object"),
        ({}, "type: missing"),
        ({"type": 3}, "type: expected a string"),
        ({"type": "sail"}, "type: unknown action type 'sail'"),
        ({"type": "move"}, "area: missing"),
        ({"type": "move", "area": "Norge"}, "area: no area 'Norge' on the board"),
        ({"type": "move", "area": 7}, "area: expected a string, got 7"),
        ({"type": "move", "area": "norge", "ships": "war"}, "ships: not a field of a 'move' action"),
        ({"type": "fleet", "ships": "long", "area": "norge"}, "ships: expected 'trading' or 'war'"),
        ({"type": "pull_down", "ships": "war", "area": "norge"}, "ships: not a field of a 'pull_down' action"),
        ({"type": "pull_down", "area": "norge"}, "camp: missing"),
        ({"type": "build", "camp": "war", "count": 6}, "count: a build is 1–5, got 6"),
        ({"type": "build", "camp": "war", "count": True}, "count: expected an integer, got True"),
        ({"type": "pay_onto", "roll": 6}, "roll: a seat is 0–5, got 6"),
        ({"type": "pay_onto", "roll": "king"}, "roll: expected a seat 0–5 or 'kingdom'"),
        ({"type": "play"}, "card: missing"),
        ({"type": "play", "card": "FRED"}, "card: no card 'FRED'"),
        ({"type": "target_seat", "seat": 6}, "seat: a seat is 0–5, got 6"),
        ({"type": "target_area", "area": "atlantis"}, "area: no area 'atlantis'"),
        ({"type": "give_card_to", "to": -1}, "to: a seat is 0–5, got -1"),
        ({"type": "pay_onto"}, "roll: missing"),
        ({"type": "give_silver", "to": -1}, "to: a seat is 0–5, got -1"),
        ({"type": "kingdom", "kingdom": "iceland"}, "kingdom: expected one of"),
        ({"type": "amount", "n": 0}, "n: an amount is 1–99, got 0"),
        ({"type": "amount", "n": "3"}, "n: expected an integer"),
        ({"type": "roll", "face": 11}, "face: a D10 face is 1–10, got 11"),
        ({"type": "hits", "n": 21, "one": False}, "n: a number of hits is 0–20, got 21"),
        ({"type": "hits", "n": 2, "one": 1}, "one: expected true or false, got 1"),
        ({"type": "pass", "n": 1}, "n: not a field of a 'pass' action"),
    ],
)
def test_malformed_json_names_the_field(data: Any, field: str) -> None:
    """Bad JSON raises ValueError naming the field at fault (docs/engine.md: action_from_json)."""
    with pytest.raises(ValueError) as error:
        SPACE.from_json(data)
    assert str(error.value).startswith(field), str(error.value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty notation"),
        ("dance a jig", "'dance a jig' is not Vikingatid notation"),
        ("war fleet from Narnia", "'Narnia' is not an area of the board"),
        ("war fleet of 5 from Narnia to Nordsjön", "'Narnia' is not an area"),
        ("war fleet of 5 from Norge to Atlantis", "'Atlantis' is not an area"),
        ("roll 11", "face: a D10 face is 1–10, got 11"),
        ("amount 100", "amount: an amount is 1–99, got 100"),
        ("give silver to seat 7", "seat: a seat is 1–6, got 7"),
        ("choose Finland", "'Finland' is not a Viking kingdom"),
        ("pay 3 silver onto Gutland's roll", "'Gutland' is not a Viking kingdom"),
        ("build 6 war camps", "count: a build is 1–5, got 6"),
        ("21 hits", "hits: a number of hits is 0–20, got 21"),
        ("amount ³", "is not Vikingatid notation"),
    ],
)
def test_bad_notation_says_what_was_not_understood(text: str, words: str) -> None:
    """Bad notation raises ValueError quoting what was typed and saying which part was not understood."""
    with pytest.raises(ValueError) as error:
        SPACE.from_notation(text)
    assert words in str(error.value), str(error.value)


def test_a_board_with_more_areas_than_slots_is_refused() -> None:
    """The action space has 80 area slots (the validator allows at most 80 areas)."""
    big = Board(
        "big.toml", BOARD.areas + BOARD.areas[:2], BOARD.rivers, BOARD.empires, BOARD.reaction_results,
        BOARD.tables, BOARD.turn_track, BOARD.start_values, BOARD.discovery, BOARD.route_checks, BOARD.link_notes,
        BOARD.sections,
    )  # fmt: skip
    with pytest.raises(ValueError, match="81 areas, but the action space has 80 area slots"):
        ActionSpace(big)
