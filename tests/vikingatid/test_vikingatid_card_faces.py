"""The cards as a person reads them (`Presentation.hand`, `Presentation.deck`): the rule text's "The cards" prints
each card's Swedish title, its English name and its text, "(Play …)" timing included; a face gives all of it, when
the card may be played (its windows, VA-08) and what it needs (its target), and a choice naming a card gives its
whole text, never cut."""

from __future__ import annotations

import random

from vikingatid_kit import GAME

from skald.games.vikingatid.card_faces import NEEDS, WHEN
from skald.games.vikingatid.state import VikingatidState

P = GAME.presentation


def with_cards(seed: int = 3, players: int = 3) -> VikingatidState:
    """Random play to the first decision where the seat to act holds cards and may play one."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(players)
    for _ in range(3000):
        seat = state.current_player()
        if seat >= 0 and any(state.space.to_json(a).get("type") == "play" for a in state.legal_actions()):
            return state
        state.apply(state.sample_chance_outcome(rng) if seat < 0 else rng.choice(state.legal_actions()))
    raise AssertionError("no card could be played")


def test_the_deck_lists_every_kind_whole_with_its_copies() -> None:
    deck = P.deck(GAME.new_initial_state(3))
    kinds = GAME.cards.kinds
    assert len(deck) == len(kinds) == 42 and sum(card.count for card in deck) == 112
    for card, kind in zip(deck, kinds, strict=True):
        assert (card.title, card.name, card.text) == (kind.title, kind.name, " ".join(kind.text.split()))
        assert card.when and card.needs == NEEDS[kind.target]
        assert all(WHEN[window] in card.when for window in kind.windows)


def test_no_deck_and_no_hand_without_cards() -> None:
    state = GAME.new_initial_state(3, {"card_windows": "off"})
    assert P.deck(state) == [] and P.hand(state, 0) == []


def test_a_hand_is_the_seats_own_cards_whole_and_marks_those_playable_now() -> None:
    state = with_cards()
    seat = state.current_player()
    held = state.observation(seat)["cards"]["hand"]
    faces = P.hand(state, seat)
    by_title = {(kind.title, kind.name): kind for kind in GAME.cards.kinds}
    assert {by_title[(f.title, f.name)].id: f.count for f in faces} == {k: n for k, n in held.items() if n}
    playable = {
        str(state.space.to_json(a)["card"])
        for a in state.legal_actions()
        if state.space.to_json(a).get("type") == "play"
    }
    assert {by_title[(f.title, f.name)].id for f in faces if f.playable_now} == playable
    others = [s for s in range(state.num_players) if s != seat]
    assert not any(f.playable_now for s in others for f in P.hand(state, s))  # only the seat to act plays now


def test_a_choice_naming_a_card_gives_its_whole_text() -> None:
    state = with_cards()
    for action in state.legal_actions():
        data = state.space.to_json(action)
        if data.get("type") == "play":
            kind = GAME.cards.by_id[str(data["card"])]
            label = P.describe(state, action)
            assert label == f"{kind.name}: {' '.join(kind.text.split())}" and "…" not in label
