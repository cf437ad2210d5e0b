"""Dealing the unseen cards again in one pass over the card moves (`State.resample_from_infostate`).

What a seat knows of the cards (the rulings' "Hidden information"): its own hand and draws, every card played or
discarded (so the face-up pile and each deck a reshuffle makes), every hand's size, and the kinds of the card gifts
it gave or took. Being asked in a card window tells nothing (every holder of a card is asked, VA-09), so the only
hidden facts are the kinds of the other players' draws and of the gifts between two others, and with them the other
hands and the deck's composition (the deck has no order: each draw is a chance node over the kinds left in it).

`deal` follows every card as a token, in the order the cards moved:
- a draw by another player is a joker: a card of its deck whose kind is not settled yet;
- a card the seat gave is a known card in its receiver's hand;
- a card another player is seen to use (play, discard, or give to the seat) is a known card of its kind in his hand
  if he holds one (which one makes no difference to the hands that follow), else one of his jokers whose deck still
  has a card of that kind no other draw has taken, chosen uniformly, settled to that kind;
- a gift between two others passes a token of the giver's hand chosen uniformly (a joker, or a known card, whose
  kind the gift then has): the seat saw a card change hands and nothing of which, so it weighs every card the giver
  held alike; a choice by another player is never read as a sign of what he held.
At the end every joker still open takes a kind drawn from what its deck has left by their numbers, and the deck is
what remains. So the kinds a seen use forces are settled and everything else is dealt by the deck's odds, as the
search of `resample.deal` settles and deals them; with two players (every gift seen) the two laws are the same, with
more they differ in the unseen gifts, which the search chooses by a ranking that plans them so that a use is never
left without its card. Here a use left without a card (a known card carried off by an unseen gift, or a kind its
holder's decks have no more of) ends the pass with None, and the caller deals again with the next random choices:
rejecting such a pass conditions the deal on being consistent with what the seat saw. A pass reads no hidden kind.

The pass is linear in the card moves, with no search: each move is a few list operations. Plain functions over ints
and lists (mypyc-ready).

`Memory` keeps, by the same rules of what a seat sees, what it can be sure of rather than one random deal: the cards
each seat played or discarded, its own draws, and the cards it knows another seat holds (those it gave him, less the
ones he has since been seen to use; a gift he makes to a third player, its kind unseen, may have been any of them, so
each kind it knew of in his hand counts one fewer). The observation tensor shows it (`tensor.py`).
"""

from __future__ import annotations

import random
from typing import Final

from skald.games.vikingatid.resample import CardMove

#: Card event verbs (`resample.CardMove.verb`).
DRAWN: Final = 0
DISCARDED: Final = 2
GIVEN: Final = 3


class Dealt:
    """One deal: the kind of every card move (seen ones as they were) and each seat's hand, a count per kind."""

    def __init__(self, kinds: list[int], hands: list[list[int]]) -> None:
        self.kinds = kinds
        self.hands = hands


def deal(
    moves: list[CardMove], counts: tuple[int, ...], num_players: int, seat: int, rng: random.Random
) -> Dealt | None:
    """One pass over the card moves (their kinds read only where `seat` saw them) dealing every unseen kind again;
    None if the pass's random choices left a seen use without its card."""
    kinds_n = len(counts)
    n = len(moves)
    kinds = [-1] * n
    # Each deck's cards of each kind that the draws of other players may still take, and each draw's deck.
    room: list[list[int]] = [list(counts)]
    deck_of = [0] * n
    left = 0
    for kind in counts:
        left += kind
    pile = [0] * kinds_n
    # Tokens: per token, its kind (-1: a joker) and the draw it came from (-1: its kind was seen).
    token_kind: list[int] = []
    token_draw: list[int] = []
    # Per draw of another player, the unseen gifts its card passed through (they take its kind with it).
    paths: dict[int, list[int]] = {}
    hands: list[list[int]] = [[] for _ in range(num_players)]
    for index in range(n):
        move = moves[index]
        verb = move.verb
        mover = move.seat
        if verb == DRAWN:
            if left == 0:  # the face-up pile is shuffled into a new deck
                room.append(pile)
                for kind in pile:
                    left += kind
                pile = [0] * kinds_n
            left -= 1
            deck = len(room) - 1
            deck_of[index] = deck
            if mover == seat:
                kind = move.kind
                kinds[index] = kind
                room[deck][kind] -= 1
                hands[mover].append(len(token_kind))
                token_kind.append(kind)
                token_draw.append(-1)
            else:
                hands[mover].append(len(token_kind))
                token_kind.append(-1)
                token_draw.append(index)
                paths[index] = []
            continue
        receiver = move.other
        if verb == GIVEN and mover != seat and receiver != seat:
            hand = hands[mover]
            token = hand.pop(rng.randrange(len(hand)))
            kind = token_kind[token]
            if kind >= 0:
                kinds[index] = kind
            else:
                paths[token_draw[token]].append(index)
            hands[receiver].append(token)
            continue
        kind = move.kind
        kinds[index] = kind
        token = _take(hands[mover], kind, token_kind, token_draw, deck_of, room, rng)
        if token < 0:
            return None
        draw = token_draw[token]
        if draw >= 0 and kinds[draw] < 0:  # a joker settled to this kind
            kinds[draw] = kind
            for gift in paths.pop(draw):
                kinds[gift] = kind
        if verb == GIVEN:
            hands[receiver].append(token)
        else:
            pile[kind] += 1
    # The jokers still open take kinds from what their decks have left, by their numbers.
    for draw, path in paths.items():
        if kinds[draw] >= 0:
            continue
        kind = _pick(room[deck_of[draw]], rng)
        if kind < 0:
            return None
        room[deck_of[draw]][kind] -= 1
        kinds[draw] = kind
        for gift in path:
            kinds[gift] = kind
    held = [[0] * kinds_n for _ in range(num_players)]
    for player in range(num_players):
        counted = held[player]
        for token in hands[player]:
            kind = token_kind[token]
            if kind < 0:
                kind = kinds[token_draw[token]]
            counted[kind] += 1
    return Dealt(kinds, held)


class Memory:
    """What `seat` (-1: a spectator) has seen of the cards, one card move at a time: per seat the cards it played or
    discarded, by kind (`played`); the seat's own draws, its starting hand included (`drawn`); and per seat the
    cards the observer knows it holds (`known`: always 0 in the observer's own row, whose whole hand it knows). It
    reads a move's kind only where the seat saw it (a play or discard, its own draw, a gift it gave or took)."""

    def __init__(self, moves: list[CardMove], num_players: int, kinds: int, seat: int) -> None:
        self.moves = moves
        self.seat = seat
        self.played: list[list[int]] = [[0] * kinds for _ in range(num_players)]
        self.drawn: list[int] = [0] * kinds
        self.known: list[list[int]] = [[0] * kinds for _ in range(num_players)]
        self.done = 0
        self.last: CardMove | None = None
        #: The observation tensor's entries for this memory (`tensor._cards`), kept until a card moves again, and the
        #: id of the tensor layout they were written for (-1: none kept).
        self.encoded_for = -1
        self.encoded_index: list[int] = []
        self.encoded_value: list[float] = []

    def fits(self, moves: list[CardMove]) -> bool:
        """Whether this memory followed `moves` up to `done` (the list only grows; another list starts afresh)."""
        done = self.done
        if self.moves is not moves or done > len(moves):
            return False
        return done == 0 or moves[done - 1] is self.last

    def follow(self) -> None:
        """Take in the moves made since the last call."""
        moves = self.moves
        seat = self.seat
        played, drawn, known = self.played, self.drawn, self.known
        for index in range(self.done, len(moves)):
            move = moves[index]
            verb = move.verb
            mover = move.seat
            if verb == DRAWN:
                if mover == seat:
                    drawn[move.kind] += 1
            elif verb == GIVEN:
                receiver = move.other
                if mover == seat:
                    known[receiver][move.kind] += 1
                elif receiver == seat:
                    if known[mover][move.kind] > 0:
                        known[mover][move.kind] -= 1
                else:
                    held = known[mover]
                    for kind in range(len(held)):
                        if held[kind] > 0:
                            held[kind] -= 1
            elif move.ply < 0:
                # The face-up pile of a start position, counted as drawn and discarded by seat 0 before the first
                # action (`positions.start_here`): nobody played it.
                if verb == DISCARDED and mover == seat:
                    drawn[move.kind] -= 1
            else:
                played[mover][move.kind] += 1
                if known[mover][move.kind] > 0:
                    known[mover][move.kind] -= 1
        self.done = len(moves)
        if moves:
            self.last = moves[-1]
        self.encoded_for = -1


def memory(kept: dict[int, Memory], moves: list[CardMove], num_players: int, kinds: int, seat: int) -> Memory:
    """What `seat` has seen of the cards of `moves`, caught up from its memory in `kept` (a state's own, by seat:
    the state's list only grows as it is played on; a copy's is another list, followed afresh once)."""
    held = kept.get(seat)
    if held is None or not held.fits(moves):
        held = kept[seat] = Memory(moves, num_players, kinds, seat)
    if held.done < len(moves):
        held.follow()
    return held


def _take(
    hand: list[int],
    kind: int,
    token_kind: list[int],
    token_draw: list[int],
    deck_of: list[int],
    room: list[list[int]],
    rng: random.Random,
) -> int:
    """The token of `kind` a hand gives up: a known card of that kind, else a joker whose deck still has a card of
    the kind no other draw has taken (chosen uniformly), settled to it; -1 if there is none."""
    for position in range(len(hand)):
        token = hand[position]
        if token_kind[token] == kind:
            hand.pop(position)
            return token
    possible: list[int] = []
    for position in range(len(hand)):
        token = hand[position]
        if token_kind[token] < 0 and room[deck_of[token_draw[token]]][kind] > 0:
            possible.append(position)
    if not possible:
        return -1
    token = hand.pop(possible[rng.randrange(len(possible))])
    room[deck_of[token_draw[token]]][kind] -= 1
    token_kind[token] = kind
    return token


def _pick(weights: list[int], rng: random.Random) -> int:
    """A kind drawn by its weight, or -1 if every weight is 0."""
    total = 0
    for weight in weights:
        total += weight
    if total <= 0:
        return -1
    r = rng.randrange(total)
    for kind in range(len(weights)):
        weight = weights[kind]
        if r < weight:
            return kind
        r -= weight
    return -1
