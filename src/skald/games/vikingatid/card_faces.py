"""Vikingatid's cards as a person reads them (`engine.CardFace`): the Swedish title and the English name as printed,
the whole text, when the card may be played (its windows, VA-08) and what playing it needs (its target), for a
seat's hand and for the whole deck.

Everything comes from `cards.toml` through `CardKind`; a hand comes from the seat's own observation only, so a
face tells its seat nothing another seat may not know and no other seat anything at all.
"""

from __future__ import annotations

from typing import Final

from skald.engine import CardFace
from skald.games.vikingatid.cards.data import CardKind
from skald.games.vikingatid.state import VikingatidState

#: Each card window in words: when a card of that window may be played.
WHEN: Final = {
    "any": "at any time, in any card window or at your own decision",
    "after_initiative": "immediately after an initiative roll",
    "before_fight": "immediately before a fight",
    "after_own_roll": "after a roll made for your own side",
    "after_distribution": "right after the distribution of silver (the start of phase 5)",
    "election_roll": "before or after a die of a king's election",
    "after_election": "right after a kingdom's election result",
    "trade_journey": "during your own trading journey",
    "before_danger_sea": "before a fleet's danger roll, on a sea area of its leg",
    "before_danger_land": "before a fleet's danger roll, on a land area of its leg",
    "journey_start": "as a fleet sets out on its journey",
}
#: What a card is played on, in words.
NEEDS: Final = {
    "none": "names nothing: it acts on the moment at hand or on what its text lists",
    "area": "names an area of the map",
    "seat": "names a player",
    "kingdom": "names a Viking kingdom",
    "fleet": "names a fleet",
    "king": "names a king",
}


def face(kind: CardKind, count: int, playable_now: bool = False) -> CardFace:
    """One kind of card, whole, with `count` copies."""
    when = "; or ".join(WHEN.get(window, window) for window in kind.windows)
    needs = NEEDS.get(kind.target, kind.target)
    return CardFace(kind.title, kind.name, " ".join(kind.text.split()), when, needs, count, playable_now)


def hand_faces(state: VikingatidState, seat: int) -> list[CardFace]:
    """The cards `seat` holds, from its own observation, in the deck's order; a card it may play at its decision
    now is marked."""
    if not state.cards_on() or not 0 <= seat < state.num_players:
        return []
    cards = state.observation(seat).get("cards")
    hand = cards.get("hand") if isinstance(cards, dict) else None
    if not isinstance(hand, dict):
        return []
    playable: set[str] = set()
    if state.current_player() == seat:
        for action in state.legal_actions():
            data = state.space.to_json(action)
            if data.get("type") == "play":
                playable.add(str(data["card"]))
    return [
        face(kind, int(hand[kind.id]), kind.id in playable) for kind in state.cards.kinds if hand.get(kind.id, 0) > 0
    ]


def deck_faces(state: VikingatidState) -> list[CardFace]:
    """Every kind of card in the deck, in the rule text's order, with its copies; none when cards are off."""
    if not state.cards_on():
        return []
    return [face(kind, kind.count) for kind in state.cards.kinds]
