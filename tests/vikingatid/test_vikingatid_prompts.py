"""No silent losses, and prompts that name only what is offered: a prompt is made from the legal actions ("move the
war fleet of 5 on" where only moves are legal; "give a card before Norge's election" where the giver has no
silver), and a choice that costs the player something says so in its label before it is taken (6.1: "If all players
pass, the initiative phase is over ... All unused ships are removed from the board")."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from vikingatid_kit import GAME

from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import PASS, SHIP_TYPES
from skald.games.vikingatid.prompts import offered_kinds
from skald.games.vikingatid.state import VikingatidState

P = GAME.presentation
#: The words by which a prompt names a kind of choice.
NAMED = {
    "pass": r"\bpass\b(?! Danavalde)",
    "stop": r"\bstop\b",
    "end_journey": r"end the journey",
    "give_silver": r"give silver",
    "give_card_to": r"\ba card before",
    "trade": r"\btrade\b(?! value)",
    "build": r"build camps",
    "plunder": r"\bplunder\b",
    "destroy": r"destroy trading camps",
    "play": r"play a card",
    "ask_duty": r"ask a duty",
    "forbid": r"\bforbid\b",
    "turn_away": r"turn away",
    "fight_on": r"fight on",
    "withdraw": r"withdraw",
    "pay_duty": r"pay the duty",
    "bar_sea": r"bar it",
    "fleet": r"start a fleet",
    "pay_onto": r"pay silver onto",
}


def decisions(seeds: range, limit: int = 2500) -> Iterator[VikingatidState]:
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_initial_state(2 + seed % 5)
        for _ in range(limit):
            if state.is_terminal():
                break
            if state.current_player() >= 0:
                yield state
                state.apply(rng.choice(state.legal_actions()))
            else:
                state.apply(state.sample_chance_outcome(rng))


def ships(state: VikingatidState, seat: int) -> int:
    position = state.position
    return sum(position.ships_at(seat, kind, area) for kind in SHIP_TYPES for area in position.area_ids)


def test_every_prompt_names_exactly_the_kinds_of_choice_offered() -> None:
    met: set[tuple[int, frozenset[str]]] = set()
    for state in decisions(range(8)):
        prompt = P.prompt(state)
        offered = offered_kinds(state)
        if state.step in (S.SEALED_BID, S.CARD_TARGET, S.CARD_ANSWER, S.DISCARD_CARD, S.GIFT_CARD):
            continue  # amounts, targets and cards: the prompt names the step, the buttons name each choice
        if state.step != S.CARD_WINDOW:
            offered.discard("play")  # a card playable at one's own decision is listed under "play a card"
        met.add((state.step, frozenset(offered)))
        for kind, words in NAMED.items():
            named = re.search(words, prompt) is not None
            assert named == (kind in offered), (kind, prompt, sorted(offered))
    assert (S.MOVE, frozenset({"move"})) in met  # only moves: "move … on", never "stop, or end the journey"
    assert any(step == S.GIFT_TARGET and "give_silver" not in kinds for step, kinds in met)


def test_a_gift_prompt_without_silver_offers_only_cards() -> None:
    state = next(s for s in decisions(range(8)) if s.step == S.GIFT_TARGET and "give_silver" not in offered_kinds(s))
    assert "silver" not in P.prompt(state) and "give a card before" in P.prompt(state)


def test_what_others_read_tells_nothing_of_the_hand() -> None:
    """The step as the others read it never says whether the seat to act may play a card."""
    for state in decisions(range(4), limit=1200):
        words = P.step(state)
        assert "play a card" not in words or state.step == S.CARD_WINDOW
        if state.step == S.CARD_WINDOW:
            assert words == "play a card, or pass"


def test_passing_the_initiative_names_the_unused_ships_it_may_cost() -> None:
    found_now = found_later = False
    for state in decisions(range(10)):
        if state.step != S.JOURNEY_CHOICE:
            continue
        seat = state.current_player()
        label = P.describe(state, PASS)
        n = ships(state, seat)
        assert re.search(rf"seat {seat + 1}'s {n} unused ships? (is|are) removed", label), label
        after = state.clone()
        after.apply(PASS)
        if ships(after, seat) < n:
            assert label.startswith("phase 6 ends now"), label
            found_now = True
        else:
            assert "if everyone passes" in label
            found_later = True
        if found_now and found_later:
            return
    raise AssertionError("random play met no pass that ends phase 6 and none that does not")


def test_under_rest_of_phase_a_pass_costs_the_ships_for_certain() -> None:
    rng = random.Random(2)
    state = GAME.new_initial_state(3, {"initiative_pass": "rest_of_phase"})
    for _ in range(3000):
        if state.current_player() >= 0 and state.step == S.JOURNEY_CHOICE:
            label = P.describe(state, PASS)
            assert "removed" in label and "unused ship" in label
            return
        seat = state.current_player()
        state.apply(state.sample_chance_outcome(rng) if seat < 0 else rng.choice(state.legal_actions()))
    raise AssertionError("no initiative reached")
