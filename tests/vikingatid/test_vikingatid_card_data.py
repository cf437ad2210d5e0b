"""The Vikingatid cards as data: the shipped deck matches the rule text, and every kind of broken file is refused.

The rule text is rules/004 (Abramowski's translation, section "The cards"); the rulings are
research/vikingatid-rulings.md (VA-08 windows, VA-12 the deck, VA-13 the untitled cards, VA-25 the card tables).
Each broken file is a copy of the shipped `cards.toml` with one fault, written to tmp_path; the loader must refuse
it with a `CardDataError` naming the card or table and the field at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from skald.games.vikingatid.board import load_board
from skald.games.vikingatid.cards.data import (
    ANY,
    CARD_COUNT,
    KIND_COUNT,
    TARGETS,
    WINDOWS,
    CardData,
    CardDataError,
    cards,
    default_cards_path,
    load_cards,
)

SHIPPED = Path(default_cards_path()).read_text(encoding="utf-8")
#: The rule text sits beside the repository when the shared sources are at hand.
RULE_FILE = Path(__file__).resolve().parents[3] / "shared" / "rules" / "004_25a3c065d9c5bef8.txt"
needs_rule_text = pytest.mark.skipif(not RULE_FILE.exists(), reason="the rule text is not beside the repository")

#: The 42 kinds in the rule text's Swedish alphabetical order, PEST! three times (VA-12, VA-13).
ORDER = (
    "protection", "good_trade", "british_attack", "byzantine_expansion", "berserk", "exile", "peace", "free_trade",
    "free_passage", "heritage", "mines_dry", "divine_intervention", "trade_stop", "sea_monsters", "war",
    "election_influence", "initiative", "khazars", "christianisation", "king", "magyar_hordes", "invalid_election",
    "plague_east", "plague_south", "plague_west", "pecheneg_hordes", "unifier", "robbers", "sea_storm",
    "small_kingdom", "berserks_west", "berserks_east", "thors_hammer", "religious_quarrel", "german_attack",
    "rebellion", "discovery", "separatists", "friendly_town", "varangian_guard", "western_expansion",
    "eastern_expansion",
)  # fmt: skip
UNTITLED = ("trade_stop", "war", "discovery")
#: Swedish alphabetical order: Å, Ä and Ö come after Z.
SWEDISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖ"


def swedish_key(title: str) -> tuple[int, ...]:
    """A title's place in Swedish alphabetical order (spaces and punctuation before every letter)."""
    return tuple(SWEDISH.index(ch) + 1 if ch in SWEDISH else 0 for ch in title.upper())


def cards_section() -> str:
    """The rule text's section "The cards", up to the next section."""
    text = RULE_FILE.read_text(encoding="utf-8")
    start = text.index("\nThe cards\n")
    return text[start : text.index("\nThe game phases\n", start) + 1]


@pytest.fixture(scope="module")
def deck() -> CardData:
    return cards()


# -- the shipped deck ------------------------------------------------------------------------------------------


def test_va12_the_deck_has_42_kinds_in_the_rule_texts_order(deck: CardData) -> None:
    """VA-12: "PEST! … (3 different cards!)" makes the 40 printed texts 42 kinds, in the printed order."""
    assert len(deck.kinds) == KIND_COUNT == 42
    assert tuple(kind.id for kind in deck.kinds) == ORDER
    assert [kind.index for kind in deck.kinds] == list(range(42))
    assert all(deck.by_id[kind.id] is kind for kind in deck.kinds)


def test_va12_the_deck_has_112_cards(deck: CardData) -> None:
    """VA-12 ("The game includes 112 cards"): the counts sum to 112; the split itself is provisional."""
    assert sum(deck.counts) == CARD_COUNT == 112
    assert len(deck.deck()) == 112
    assert all(count >= 1 for count in deck.counts)
    assert all(deck.deck().count(kind.index) == kind.count for kind in deck.kinds)


def test_pest_is_three_kinds_one_per_printed_region(deck: CardData) -> None:
    """PEST!: "(3 different cards!)" — one kind for each of the three printed lists of areas."""
    plagues = [kind for kind in deck.kinds if kind.title == "PEST!"]
    assert [kind.id for kind in plagues] == ["plague_east", "plague_south", "plague_west"]
    regions = [kind.text.split("\n")[1] for kind in plagues]
    assert regions == [
        "-Kazakstan and all adjacent areas which are not part of the empire",
        "-Byzantine, Western and Eastern Caliphate and all adjacent areas",
        "-Britain, Ireland, German-Roman Empire and all adjacent areas",
    ]


@needs_rule_text
def test_every_card_text_is_verbatim_from_the_rule_text(deck: CardData) -> None:
    """The cards: each text, with its "(Play …)" timing, stands in the rule text under its printed title."""
    section = cards_section()
    lines = section.split("\n")
    for kind in deck.kinds:
        if kind.title == "PEST!":
            # The three PEST! cards share the heading, the first line and the timing; each keeps one area line.
            block = section[section.index("PEST! – Plague!\n") :]
            first, region, timing = kind.text.split("\n")
            assert block.startswith(f"PEST! – Plague!\n{first}\n"), kind.id
            assert f"\n{region}\n" in block.split("\n\n")[0] and timing in block.split("\n\n")[0], kind.id
        elif kind.id in UNTITLED:
            # VA-13: no heading above the text, only the blank line after the card before it.
            assert f"\n\n{kind.text}\n\n" in section, kind.id
        else:
            header = next(line for line in lines if line.startswith(kind.title) and line.endswith(kind.name))
            assert f"\n{header}\n{kind.text}\n\n" in section, kind.id
        assert "(Play" in kind.text, kind.id


@needs_rule_text
def test_the_rule_text_has_no_card_the_deck_lacks(deck: CardData) -> None:
    """The cards: 40 printed texts (37 under a heading, 3 without), all of them in the deck."""
    section = cards_section()
    paragraphs = [p for p in section.split("\n\n")[1:] if p.strip()]
    timings = [p for p in paragraphs if "(Play" in p]
    assert len(timings) == 40
    matched: set[str] = set()
    for paragraph in timings:
        lines = set(paragraph.split("\n"))
        found = {
            kind.id
            for kind in deck.kinds
            if set(kind.text.split("\n")) - {""} <= lines or kind.text.endswith(paragraph)
        }
        assert found, paragraph[:60]
        matched |= found
    assert matched == set(ORDER)


def test_va13_each_untitled_cards_title_sorts_into_its_place(deck: CardData) -> None:
    """VA-13: the provisional Swedish titles of the three untitled cards fall where their texts stand."""
    titles = [kind.title for kind in deck.kinds]
    keys = [swedish_key(title) for title in titles]
    assert keys == sorted(keys), "the titles are in Swedish alphabetical order"
    for card_id in UNTITLED:
        at = ORDER.index(card_id)
        assert keys[at - 1] < keys[at] < keys[at + 1], (titles[at - 1], titles[at], titles[at + 1])
    assert not deck.kind("war").title.startswith("KRIG")


def test_va08_every_window_name_is_known_and_used(deck: CardData) -> None:
    """VA-08: cards name only the known windows, and every window is named by some card."""
    named = {window for kind in deck.kinds for window in kind.windows}
    assert named <= set(WINDOWS)
    assert named == set(WINDOWS)
    assert all(kind.target in TARGETS for kind in deck.kinds)


def test_va08_a_card_that_names_a_time_is_playable_only_then(deck: CardData) -> None:
    """VA-08: "A card whose own text names a time can be played only in the matching window"; "(Play at any
    time…)" cards fit every window."""
    any_time = re.compile(r"\(Play at:? any time", re.IGNORECASE)
    for kind in deck.kinds:
        if any_time.search(kind.text):
            assert kind.windows == (ANY,), kind.id
            assert all(kind.playable_in(window) for window in WINDOWS), kind.id
        else:
            assert ANY not in kind.windows, kind.id
            assert not kind.playable_in("before_fight") or kind.id == "berserk", kind.id
    assert deck.kind("initiative").windows == ("after_initiative",)
    assert deck.kind("exile").windows == ("after_distribution",)
    assert deck.kind("sea_monsters").windows == deck.kind("sea_storm").windows == ("before_danger_sea",)


def test_unifier_is_played_at_any_time_on_nothing(deck: CardData) -> None:
    """RIKSENANDE "(Play at any time by the king.)": any window, no target; the rules check the player is a king."""
    unifier = deck.kind("unifier")
    assert (unifier.windows, unifier.target, unifier.rule) == (("any",), "none", "VA-20")


def test_va25_attack_table_covers_every_d10_face(deck: CardData) -> None:
    """VA-25: the attack cards and MAGYARHORDER read their armies (strength 5) off a D10 table with all ten faces."""
    assert [deck.attack_armies(face) for face in range(1, 11)] == [1, 1, 1, 2, 2, 2, 3, 3, 4, 5]
    assert deck.attack_table.strength == 5
    for face in (0, 11):
        with pytest.raises(ValueError, match="attack_armies"):
            deck.attack_armies(face)


def test_va25_card_tables_agree_with_the_boards_copies(deck: CardData) -> None:
    """VA-25: board.toml carries the same two tables; the deck's must not drift from them."""
    board = load_board()
    for face in range(1, 11):
        assert deck.attack_armies(face) == board.table("attack_armies_table")(face)
        assert deck.varangian_price(face) == board.table("vaeringagarde_price_table")(face)


def test_va25_varangian_guard_sells_up_to_four_ships_in_miklagard(deck: CardData) -> None:
    """VÄRINGAGARDE: "Up to four war ships may be sold as mercenaries in Miklagård"; a price for every face."""
    table = deck.varangian_table
    assert table.max_ships == 4
    assert load_board().area(table.area).name == "Miklagård"
    assert [deck.varangian_price(face) for face in range(1, 11)] == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3]


def test_va25_pecheneg_route_is_the_printed_chain_of_land_borders(deck: CardData) -> None:
    """PETJENEGHORDER: "Ten armies (strength 5) move the following way: Kalmykien, Georgien, Beresan, Moldavien,
    Bolgaraland" — each area borders the next by land on the board (VA-25)."""
    board = load_board()
    route = deck.pecheneg.route
    assert [board.area(area).name for area in route] == ["Kalmykien", "Georgien", "Beresan", "Moldavien", "Bolgaraland"]
    for here, there in pairwise(route):
        assert there in board.area(here).land_borders and here in board.area(there).land_borders
    assert (deck.pecheneg.armies, deck.pecheneg.strength) == (10, 5)
    assert (deck.expansion.armies, deck.expansion.strength) == (4, 5)


def test_the_board_names_the_empire_cards_by_their_titles(deck: CardData) -> None:
    """The board's empires name their attack and expansion cards; those titles are the deck's."""
    titles = {kind.title for kind in deck.kinds}
    named = {e.attack_card for e in load_board().empires} | {e.expansion_card for e in load_board().empires}
    assert named - {""} <= titles
    for card_id in ("british_attack", "khazars", "berserks_west", "berserks_east", "german_attack"):
        assert deck.kind(card_id).title in named


def test_va11_hand_three_dealt_one_drawn_three_kept(deck: CardData) -> None:
    """Setup ("three cards"), 1. Draw cards, and "no player is allowed to have more than three cards" (VA-11)."""
    assert (deck.hand.start, deck.hand.draw, deck.hand.limit) == (3, 1, 3)


def test_only_the_counts_and_three_titles_are_provisional(deck: CardData) -> None:
    """Provenance: every text is confirmed; the untitled cards' titles are not; the counts never are (VA-12)."""
    for kind, provenance in zip(deck.kinds, deck.provenances, strict=True):
        assert provenance.level == "provisional"
        assert "text" in provenance.confirmed_fields
        assert ("title" in provenance.confirmed_fields) == (kind.id not in UNTITLED), kind.id
        assert "count" not in provenance.confirmed_fields


def test_cards_are_read_once(deck: CardData) -> None:
    """`cards()` shares one deck: the file never changes during play."""
    assert cards() is deck
    with pytest.raises(KeyError, match="no card kind 'dragon'"):
        deck.kind("dragon")


# -- broken files ----------------------------------------------------------------------------------------------


def card_block(text: str, card_id: str) -> tuple[int, int]:
    """Where the [[card]] entry with this id starts and ends in `text`."""
    start = text.index(f'[[card]]\nid = "{card_id}"\n')
    end = text.find("\n[[card]]", start + 1)
    return start, len(text) if end < 0 else end + 1


def set_card(card_id: str, field: str, value: str | None) -> Callable[[str], str]:
    """An edit setting `field` of a card to the TOML `value` (removing it when None)."""

    def edit(text: str) -> str:
        start, end = card_block(text, card_id)
        block, count = re.subn(
            rf"(?m)^{field} = .*\n", "" if value is None else f"{field} = {value}\n", text[start:end], count=1
        )
        assert count == 1, (card_id, field)
        return text[:start] + block + text[end:]

    return edit


def replace(old: str, new: str) -> Callable[[str], str]:
    """An edit replacing the one occurrence of `old`."""

    def edit(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)

    return edit


def drop_card(card_id: str) -> Callable[[str], str]:
    """An edit removing a whole [[card]] entry."""

    def edit(text: str) -> str:
        start, end = card_block(text, card_id)
        return text[:start] + text[end:]

    return edit


BROKEN = {
    "unknown window": (set_card("exile", "windows", '["after_dinner"]'), r"card 'exile'\.windows: unknown window"),
    "any with another window": (set_card("peace", "windows", '["any", "before_fight"]'), r"card 'peace'\.windows"),
    "no window": (set_card("peace", "windows", "[]"), r"card 'peace'\.windows: expected at least one"),
    "wrong target": (set_card("exile", "target", '"planet"'), r"card 'exile'\.target: expected one of"),
    "counts not 112": (set_card("protection", "count", "4"), r"\[\[card\]\]\.count: the counts sum to 113"),
    "count zero": (set_card("protection", "count", "0"), r"card 'protection'\.count: expected at least 1"),
    "count not a number": (set_card("protection", "count", '"three"'), r"card 'protection'\.count: expected an int"),
    "41 kinds": (drop_card("eastern_expansion"), r"\[\[card\]\]: expected 42 kinds \(VA-12\), got 41"),
    "duplicate id": (set_card("good_trade", "id", '"protection"'), r"card 'protection'\.id: duplicate id"),
    "missing rule": (set_card("berserk", "rule", None), r"card 'berserk'\.rule: missing"),
    "bad rule": (set_card("berserk", "rule", '"VA8"'), r"card 'berserk'\.rule: expected a rulings item"),
    "misspelt field": (replace('target = "seat"\nrule = "VA-18"', 'tagret = "seat"\nrule = "VA-18"'), r"exile"),
    "unknown provenance": (set_card("war", "provenance", '"guessed"'), r"card 'war'\.provenance: expected one of"),
    "empty title": (set_card("king", "title", '""'), r"card 'king'\.title: empty"),
    "attack band gap": (
        replace("{ low = 4, high = 6, armies = 2 }", "{ low = 5, high = 6, armies = 2 }"),
        r"\[attack_armies\]\.bands: faces 4–4 are in no band",
    ),
    "attack band overlap": (
        replace("{ low = 4, high = 6, armies = 2 }", "{ low = 3, high = 6, armies = 2 }"),
        r"\[attack_armies\]\.bands: face 3 is in two bands",
    ),
    "attack table short": (
        replace("  { low = 10, high = 10, armies = 5 },\n", ""),
        r"\[attack_armies\]\.bands: faces 10–10 are in no band",
    ),
    "price band past ten": (
        replace("{ low = 8, high = 10, silver = 3 }", "{ low = 8, high = 12, silver = 3 }"),
        r"\[varangian_price\]\.bands: faces above 10",
    ),
    "price band backwards": (
        replace("{ low = 4, high = 7, silver = 2 }", "{ low = 7, high = 4, silver = 2 }"),
        r"\[varangian_price\]\.bands: band 1 runs from 7 down to 4",
    ),
    "price area not on the board": (
        replace('area = "miklagard"', 'area = "atlantis"'),
        r"\[varangian_price\]\.area: no area 'atlantis'",
    ),
    "route area not on the board": (
        replace('"beresan", "moldavien"', '"atlantis", "moldavien"'),
        r"\[pecheneg\]\.route: no area 'atlantis'",
    ),
    "route not a chain": (
        replace('"georgien", "beresan"', '"beresan", "georgien"'),
        r"\[pecheneg\]\.route: 'kalmykien' and 'beresan' share no land border",
    ),
    "route over sea": (
        replace('"kalmykien", "georgien"', '"svarta_havet", "georgien"'),
        r"\[pecheneg\]\.route: 'svarta_havet' is a sea",
    ),
    "hand missing": (replace("limit = 3\n", ""), r"\[hand\]\.limit: missing"),
    "unknown section": (replace("[expansion]\n", "[expansions]\n"), r"expansions: unknown top-level entry"),
    "schema": (replace("schema_version = 1", "schema_version = 2"), r"schema_version: expected 1"),
    "not TOML": (set_card("robbers", "count", "3 3"), r"not valid TOML: .*\(in card 'robbers'\)"),
}


@pytest.mark.parametrize("fault", sorted(BROKEN))
def test_a_broken_card_file_is_refused_naming_the_field(fault: str, tmp_path: Path) -> None:
    """Loading refuses a file that is not the deck, and says which card or table and which field is wrong."""
    edit, message = BROKEN[fault]
    path = tmp_path / "cards.toml"
    path.write_text(edit(SHIPPED), encoding="utf-8")
    with pytest.raises(CardDataError, match=message) as refused:
        load_cards(path)
    assert str(refused.value).startswith(str(path))


def test_the_shipped_file_loads_from_a_path(tmp_path: Path) -> None:
    """The unedited copy loads: every refusal above comes from its one fault."""
    path = tmp_path / "cards.toml"
    path.write_text(SHIPPED, encoding="utf-8")
    assert sum(load_cards(path).counts) == 112


def test_a_missing_card_file_is_refused(tmp_path: Path) -> None:
    """A path that holds no file says so, naming it."""
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "none.toml")


def test_the_card_list_for_players_shows_every_card(deck: CardData) -> None:
    """docs/vikingatid-cards.md: every kind with its id, count and text, so the list cannot drift from the data."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "vikingatid-cards.md").read_text(encoding="utf-8")
    for kind in deck.kinds:
        assert f"| `{kind.id}` | {kind.count} |" in doc, kind.id
        quoted = "\n".join(f"> {line}" if line else ">" for line in kind.text.split("\n"))
        assert quoted in doc, kind.id
