"""The cards as they lie: the face-down deck, each player's hand and the face-up pile (1. Draw cards; VA-11).

"Unused cards are to be placed in a pile next to the board, face down. Used cards are placed face up in another
pile, face up. When there are no more cards to draw, the used cards are shuffled and recycled." The deck has no
order here: each draw is a chance node over the kinds left in it, by their counts (VA-11), so nothing about the deck
is hidden but what is in it, which anyone can count from the pile and the hands' sizes. A hand is a count per kind,
seen only by its holder; the pile is a count per kind, seen by all.

`Deck` is a plain class (mypyc-ready): lists of ints, cloned through the constructor.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import CARD_KINDS

#: Cards dealt to each player before the first turn ("Each player takes a set of counters, three cards").
START_HAND: Final = 3
#: Cards each player draws in phase 1 ("Each turn, every player draws a card").
DRAW_PER_TURN: Final = 1
#: Cards a player may keep at the end of a turn ("no player is allowed to have more than three cards").
HAND_LIMIT: Final = 3


class Deck:
    """The deck (a count per kind), every hand (a count per kind per seat) and the face-up pile (a count per kind,
    and the kinds in the order they arrived this turn for the log)."""

    def __init__(self, counts: tuple[int, ...], num_players: int, source: Deck | None = None) -> None:
        self.counts: Final = counts
        self.num_players: Final = num_players
        if source is not None:
            self.deck: list[int] = list(source.deck)
            self.hands: list[list[int]] = [list(hand) for hand in source.hands]
            self.pile: list[int] = list(source.pile)
            self.reshuffles: int = source.reshuffles
            self.to_draw: list[int] = list(source.to_draw)
            self.dealt: bool = source.dealt
            return
        self.deck = list(counts)
        self.hands = [[0] * CARD_KINDS for _ in range(num_players)]
        self.pile = [0] * CARD_KINDS
        self.reshuffles = 0
        # The seats still to draw, in order (the deal before turn 1, then phase 1).
        self.to_draw = []
        # Whether the three cards each of the setup have been dealt.
        self.dealt = False

    def clone(self) -> Deck:
        return Deck(self.counts, self.num_players, self)

    def deck_size(self) -> int:
        return sum(self.deck)

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def holds(self, seat: int, kind: int) -> bool:
        return self.hands[seat][kind] > 0

    def kinds_held(self, seat: int) -> list[int]:
        """The kinds in `seat`'s hand, ascending, each once."""
        hand = self.hands[seat]
        return [kind for kind in range(CARD_KINDS) if hand[kind] > 0]


def deal(deck: Deck, first_seat: int, cards_each: int) -> None:
    """Queue `cards_each` draws for every seat, seat by seat from `first_seat` (each draw is a chance node)."""
    n = deck.num_players
    for i in range(n):
        seat = (first_seat + i) % n
        deck.to_draw.extend([seat] * cards_each)


def drawer(deck: Deck) -> int:
    """The seat whose draw comes next, or -1."""
    return deck.to_draw[0] if deck.to_draw else -1


def draw_outcomes(deck: Deck) -> list[tuple[int, float]]:
    """Each kind left in the deck with its chance (its count over the cards left, VA-11); the pile is shuffled in
    first if the deck is empty ("When all cards are used up, the discard pile is shuffled and used again")."""
    cards = deck.deck if sum(deck.deck) > 0 else deck.pile
    total = sum(cards)
    return [(kind, count / total) for kind, count in enumerate(cards) if count > 0]


def reshuffle_if_empty(deck: Deck) -> None:
    """Turn the face-up pile into the new deck when the deck is empty (its contents are public, its order is
    chance's)."""
    if sum(deck.deck) == 0 and sum(deck.pile) > 0:
        deck.deck = deck.pile
        deck.pile = [0] * CARD_KINDS
        deck.reshuffles += 1


def draw(deck: Deck, kind: int) -> int:
    """The next queued seat draws a card of `kind`; returns the seat."""
    reshuffle_if_empty(deck)
    seat = deck.to_draw.pop(0)
    if deck.deck[kind] <= 0:
        raise ValueError(f"no card of kind {kind} is left in the deck")
    deck.deck[kind] -= 1
    deck.hands[seat][kind] += 1
    return seat


def may_draw(deck: Deck) -> bool:
    """Whether any card is left to draw, in the deck or in the pile (with every card in hands, none is)."""
    return sum(deck.deck) + sum(deck.pile) > 0


def skip_draws(deck: Deck) -> None:
    """Drop queued draws that cannot be made: every card is in a hand."""
    if not may_draw(deck):
        deck.to_draw.clear()


def discard(deck: Deck, seat: int, kind: int) -> None:
    """A card from `seat`'s hand goes onto the face-up pile (played or discarded)."""
    if deck.hands[seat][kind] <= 0:
        raise ValueError(f"seat {seat} holds no card of kind {kind}")
    deck.hands[seat][kind] -= 1
    deck.pile[kind] += 1


def give(deck: Deck, giver: int, receiver: int, kind: int) -> None:
    """A card passes from one hand to another (a gift, VA-38)."""
    if deck.hands[giver][kind] <= 0:
        raise ValueError(f"seat {giver} holds no card of kind {kind}")
    deck.hands[giver][kind] -= 1
    deck.hands[receiver][kind] += 1


def over_limit(deck: Deck, seat: int) -> int:
    """How many cards `seat` must discard in phase 8."""
    return max(0, deck.hand_size(seat) - HAND_LIMIT)


def problems(deck: Deck) -> list[str]:
    """Every card is in exactly one place: deck, a hand or the pile (112 in all)."""
    found: list[str] = []
    for kind in range(CARD_KINDS):
        here = deck.deck[kind] + deck.pile[kind] + sum(hand[kind] for hand in deck.hands)
        if here != deck.counts[kind]:
            found.append(f"card kind {kind}: {here} in play, {deck.counts[kind]} in the game")
        if min(deck.deck[kind], deck.pile[kind], *(hand[kind] for hand in deck.hands)) < 0:
            found.append(f"card kind {kind}: a negative count")
    return found
