"""Vikingatid setup and rule options: the kingdom choice by D10 (rule text, setup; VA-01), the first seat (VA-06),
the start position (VA-02), and the options of the rulings' "Rule options at a glance"."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from skald.engine import IllegalAction
from skald.games.vikingatid.board import load_board
from skald.games.vikingatid.options import DEFAULTS, OPTIONS
from skald.games.vikingatid.setup import D10_FACES, KINGDOMS, NOBODY, KingdomChoice, start_position

DOCS = Path(__file__).resolve().parents[2] / "docs" / "vikingatid.md"


def rolled(choice: KingdomChoice, *faces: int) -> KingdomChoice:
    """`choice` after the given faces are rolled for whoever rolls next."""
    for face in faces:
        choice.roll(face)
    return choice


def test_the_highest_roll_chooses_first_then_in_order_of_the_rolls() -> None:
    """'The highest number is the first to choose his home country ... Then the other players choose, in order of
    their dice roll' (rule text, setup)."""
    choice = rolled(KingdomChoice(3, "free"), 4, 9, 6)
    assert choice.roller() == NOBODY
    assert choice.order() == [1, 2, 0]
    assert choice.chooser() == 1
    choice.choose("sweden")
    assert choice.chooser() == 2
    choice.choose("norway")
    choice.choose("denmark")
    assert choice.done() and choice.kingdoms == ["denmark", "sweden", "norway"]


def test_tied_players_roll_again_among_themselves() -> None:
    """A tie is rolled again among the tied players, the initiative's tie rule (6.1; VA-01); the others wait."""
    choice = rolled(KingdomChoice(4, "free"), 7, 3, 7, 7)
    assert choice.chooser() == NOBODY
    assert choice.roller() == 0
    rolled(choice, 5)  # seat 0
    assert choice.roller() == 2
    rolled(choice, 5)  # seat 2: tied again with seat 0, so seat 3 ([7]) is behind and rolls first
    assert choice.roller() == 3
    rolled(choice, 8)  # seat 3 beats both
    assert choice.roller() in (0, 2)
    rolled(choice, 2, 6)  # seats 0 and 2 settle their second tie
    assert choice.roller() == NOBODY
    assert choice.order() == [3, 2, 0, 1]


def test_the_highest_tie_is_settled_first() -> None:
    """Ties further up the order are rolled again before ties further down (VA-44's reading, used by VA-01)."""
    choice = rolled(KingdomChoice(4, "free"), 2, 9, 2, 9)
    assert choice.roller() == 1
    rolled(choice, 4, 6)  # seats 1 and 3
    assert choice.roller() == 0
    rolled(choice, 1, 10)  # seats 0 and 2
    assert choice.order() == [3, 1, 2, 0]


def test_there_is_no_limit_how_many_players_start_in_the_same_kingdom() -> None:
    """'There is no limit how many players can start in the same kingdom' (rule text, setup; kingdom_choice free)."""
    choice = rolled(KingdomChoice(6, "free"), 1, 2, 3, 4, 5, 6)
    for _ in range(6):
        assert choice.legal_kingdoms() == list(KINGDOMS)
        choice.choose("norway")
    assert choice.kingdoms == ["norway"] * 6


def test_spread_fills_every_kingdom_before_any_takes_a_second_player() -> None:
    """kingdom_choice 'spread' (VA-01): no kingdom takes a second player until every kingdom has one."""
    choice = rolled(KingdomChoice(5, "spread"), 10, 9, 8, 7, 6)
    choice.choose("denmark")
    assert choice.legal_kingdoms() == ["norway", "sweden"]
    with pytest.raises(IllegalAction, match=r"second player until every kingdom has one.*\[VA-01\]"):
        choice.choose("denmark")
    choice.choose("sweden")
    assert choice.legal_kingdoms() == ["norway"]
    choice.choose("norway")
    assert choice.legal_kingdoms() == list(KINGDOMS)


def test_fixed_gives_denmark_norway_sweden_in_turn_without_dice() -> None:
    """kingdom_choice 'fixed' (VA-01; the text's 'The players may also decide beforehand'): no roll, seat s takes
    Denmark, Norway, Sweden in turn."""
    choice = KingdomChoice(5, "fixed")
    assert choice.roller() == NOBODY and choice.chooser() == NOBODY and choice.done()
    assert choice.kingdoms == ["denmark", "norway", "sweden", "denmark", "norway"]
    assert choice.first_seat() == 0


def test_the_first_to_choose_is_the_first_seat_of_turn_one() -> None:
    """VA-06: in turn 1 the first seat is the player who chose a kingdom first."""
    choice = rolled(KingdomChoice(3, "free"), 2, 5, 10)
    assert choice.first_seat() == 2
    assert KingdomChoice(3, "free").first_seat() == NOBODY


def test_an_illegal_setup_action_names_the_rule_and_changes_nothing() -> None:
    """A choice before the dice, a kingdom that is none, or a face off the die raise IllegalAction; nothing moves."""
    choice = KingdomChoice(2, "free")
    with pytest.raises(IllegalAction, match=r"the dice decide the order first \[VA-01\]"):
        choice.choose("denmark")
    with pytest.raises(IllegalAction, match=r"a D10 shows 1 to 10, not 11 \[VA-07\]"):
        choice.roll(11)
    assert choice.rolls == [[], []]
    rolled(choice, 3, 4)
    before = (choice.rolls, list(choice.kingdoms))
    with pytest.raises(IllegalAction, match=r"not 'iceland' \[VA-01\]"):
        choice.choose("iceland")
    with pytest.raises(IllegalAction, match=r"no one rolls"):
        choice.roll(5)
    assert (choice.rolls, choice.kingdoms) == before


def test_a_clone_is_independent() -> None:
    """clone() copies the rolls and choices through the constructor; the copies then go their own ways."""
    choice = rolled(KingdomChoice(3, "free"), 4, 4)
    copy = choice.clone()
    rolled(copy, 9)
    assert choice.rolls == [[4], [4], []] and copy.rolls == [[4], [4], [9]]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mode", ["free", "spread"])
def test_random_choices_always_give_every_seat_a_home_country(players: int, mode: str) -> None:
    """Whatever the dice, the choice ends with every player in Denmark, Norway or Sweden (rule text, setup)."""
    rng = random.Random(players)
    for _ in range(200):
        choice = KingdomChoice(players, mode)
        while not choice.done():
            if choice.roller() != NOBODY:
                choice.roll(rng.choice(D10_FACES))
            else:
                choice.choose(rng.choice(choice.legal_kingdoms()))
        assert sorted(choice.order()) == list(range(players))
        if mode == "spread" and players >= 3:
            assert set(choice.kingdoms) == set(KINGDOMS)


def test_the_start_position_comes_from_the_board() -> None:
    """VA-02: the Year marker at 800, three cards, 0 silver, empty treasuries; 5 home silver a turn (phase 4),
    ships at one silver (phase 5), fleets of at most ten ships (6.1)."""
    start = start_position(load_board())
    assert (start.year, start.cards, start.silver, start.treasury) == (800, 3, 0, 0)
    assert (start.home_silver, start.ship_cost, start.max_fleet, start.hand_limit) == (5, 1, 10, 3)


# -- rule options ------------------------------------------------------------------------------------------------

#: The rulings' "Rule options at a glance", with VA-70 and VA-71 from "Points still open".
RULINGS_OPTIONS = {
    "card_windows": "events", "war_card": "kingdom_only",
    "protection": "danger_total", "divine_intervention": "one_roll", "berserk": "no_losses",
    "exile_without_conquest": "homeless", "election_cards_window": "each_election", "unifier_scope": "all_players",
    "religious_quarrel": "choice", "separatists": "hostile", "fief_loss": "last_war_camp",
    "card_fights": "to_the_end", "discovery": "on_arrival", "friendly_town": "this_fleet",
    "free_passage": "pass_and_build", "sea_card_timing": "at_roll",
    "kingdom_choice": "free", "last_year": "1125", "turn_order": "rotating", "reaction_roll": "per_area",
    "reaction_on_build": "whole_area", "foreign_king_only": "election", "election_bids": "open",
    "bid_silver": "bank", "election_margin": "over_all", "gifts": "before_elections", "kings_peace": "this_turn",
    "war_tracking": "per_kingdom", "war_silver": "war_or_peace_pending", "war_halving": "all_silver",
    "foreign_king_share": "half_only", "purchase": "all_silver", "initiative_pass": "this_roll",
    "land_crossing": "same_sea_or_river", "camp_break": "own_camps", "danger_at_destination": "counted",
    "danger_overflow": "drop", "journey_end": "remove_rest", "journey_moves": "40",
    "start_as_destination": "allowed", "home_trade": "none", "duty_askers": "every_owner",
    "denmark_toll": "ban_only", "denmark_passage": "all_fleets", "army_losses": "per_fight",
    "armyless_area": "free_win", "after_victory": "both", "defender_losses": "ships_first",
    "christian_defence": "own_dice_minus_2", "mixed_war_camps": "frozen", "assimilation": "phase_10",
    "tie_break": "shared", "component_limits": "none",
}  # fmt: skip


def test_every_default_of_the_rulings_is_an_option() -> None:
    """Rule options for every DEFAULT in the rulings, with the rulings' defaults (cards on:
    `card_windows: events`); the options beyond them settle the points the rulings leave to the implementer."""
    assert {name: DEFAULTS[name] for name in RULINGS_OPTIONS} == RULINGS_OPTIONS
    for option in OPTIONS:
        if option.name not in RULINGS_OPTIONS:
            assert "open point" in option.doc.lower(), option.name


def test_each_option_cites_its_ruling_and_offers_its_default() -> None:
    """Each option's doc names its VA item (or says it is Skald's own), and its default is one of its choices."""
    for option in OPTIONS:
        assert option.default == option.choices[0] and len(set(option.choices)) == len(option.choices)
        assert re.match(r"VA-\d\d[.,] |Open point ", option.doc), option.name


def test_the_docs_list_every_option_with_its_default() -> None:
    """docs/vikingatid.md lists every option, its default and its other values."""
    text = DOCS.read_text(encoding="utf-8")
    for option in OPTIONS:
        row = next((line for line in text.splitlines() if line.startswith(f"| `{option.name}` |")), "")
        assert f"| `{option.default}` |" in row, option.name
        for other in option.choices[1:]:
            assert f"`{other}`" in row, (option.name, other)
