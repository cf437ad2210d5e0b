"""Dealing the unseen cards again, consistently with all one seat has seen (`State.resample_from_infostate`).

A seat sees its own draws, every card played or discarded, and the kinds of card gifts it took part in; it does not
see other players' draws or the kinds of gifts between two others (the rulings' "Hidden information"). A world it
cannot tell from the true one gives each hidden draw and hidden gift a kind such that:
- every card a player later played, discarded or gave was in his hand at that moment;
- every draw found its kind in the deck (with the face-up pile shuffled in whenever the deck ran out);
- the seat's own draws are as they were.

`deal` finds such an assignment from the public card events alone, with the rng: first each player's later uses
of cards he could only have drawn are matched to his earlier hidden draws (at random among them); the remaining
hidden draws are filled by the deck's odds as the card flow is followed, keeping back the kinds promised to later
draws. A dead end (a kind not left in the deck) starts again with the next random choices; the true deal shows that
one exists. Nothing here reads a hidden kind.

Plain functions over ints (mypyc-ready).
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

#: Card event verbs (`CardEvent.verb`).
DRAWN: Final = 0
PLAYED: Final = 1
DISCARDED: Final = 2
GIVEN: Final = 3
#: Tries before giving up (each try is cheap: it follows the card events, not the game).
TRIES: Final = 400


class CardMove(NamedTuple):
    """One movement of a card: its ply in the history, verb, the seat it leaves or joins (`seat`), the receiver
    of a gift (`other`, else -1) and its kind (which a resampler may read only where its seat saw it)."""

    ply: int
    verb: int
    seat: int
    other: int
    kind: int


def seen_by(move: CardMove, seat: int) -> bool:
    """Whether `seat` saw the kind of `move`: a play or discard (public), its own draw, a gift it took part in."""
    if move.verb == DRAWN:
        return move.seat == seat
    if move.verb == GIVEN:
        return seat in (move.seat, move.other)
    return True


class NoDeal(Exception):
    """This try's choices reach a dead end."""


def deal(moves: list[CardMove], counts: tuple[int, ...], num_players: int, seat: int, rng: random.Random) -> list[int]:
    """A kind for every move (the seen ones as they were, the hidden ones dealt again); `RuntimeError` if no
    consistent deal is found in TRIES tries."""
    for _ in range(TRIES):
        try:
            return _try(moves, counts, num_players, seat, rng)
        except NoDeal:
            continue
    raise RuntimeError("resample_from_infostate: no deal of the unseen cards fits the cards seen")


def _try(moves: list[CardMove], counts: tuple[int, ...], num_players: int, seat: int, rng: random.Random) -> list[int]:
    kinds_n = len(counts)
    assigned = [m.kind if seen_by(m, seat) else -1 for m in moves]
    # 1. Each other player's uses of cards he could only have drawn, matched to his earlier hidden draws.
    for player in range(num_players):
        if player == seat:
            continue
        hand = [0] * kinds_n
        open_draws: list[int] = []
        for index, move in enumerate(moves):
            if move.verb == DRAWN and move.seat == player:
                if assigned[index] >= 0:
                    hand[assigned[index]] += 1
                else:
                    open_draws.append(index)
            elif move.verb == GIVEN and move.other == player and assigned[index] >= 0:
                hand[assigned[index]] += 1
            elif move.seat == player and move.verb in (PLAYED, DISCARDED, GIVEN):
                kind = assigned[index]
                if kind < 0:
                    # A gift of a kind unseen: it takes one card, chosen when the flow is followed.
                    continue
                if hand[kind] > 0:
                    hand[kind] -= 1
                elif open_draws:
                    pick = open_draws.pop(rng.randrange(len(open_draws)))
                    assigned[pick] = kind
                else:
                    raise NoDeal
    # 2. Follow the flow: fill the other hidden draws by the deck's odds, keeping back promised kinds.
    promised = [0] * kinds_n
    for index, move in enumerate(moves):
        if move.verb == DRAWN and not seen_by(move, seat) and assigned[index] >= 0:
            promised[assigned[index]] += 1
    deck = list(counts)
    pile = [0] * kinds_n
    hands = [[0] * kinds_n for _ in range(num_players)]
    for index, move in enumerate(moves):
        kind = assigned[index]
        if move.verb == DRAWN:
            if sum(deck) == 0:
                deck, pile = pile, [0] * kinds_n
            if kind < 0:
                kind = _pick([max(0, deck[k] - promised[k]) for k in range(kinds_n)], rng)
                if kind < 0:
                    kind = _pick(deck, rng)
                assigned[index] = kind
            elif not seen_by(move, seat):
                promised[kind] -= 1
            if kind < 0 or deck[kind] <= 0:
                raise NoDeal
            deck[kind] -= 1
            hands[move.seat][kind] += 1
        elif move.verb == GIVEN:
            if kind < 0:
                kind = _pick(hands[move.seat], rng)
                assigned[index] = kind
            if kind < 0 or hands[move.seat][kind] <= 0:
                raise NoDeal
            hands[move.seat][kind] -= 1
            hands[move.other][kind] += 1
        else:
            if hands[move.seat][kind] <= 0:
                raise NoDeal
            hands[move.seat][kind] -= 1
            pile[kind] += 1
    return assigned


def _pick(weights: list[int], rng: random.Random) -> int:
    """A kind drawn by its weight, or -1 if every weight is 0."""
    total = sum(weights)
    if total <= 0:
        return -1
    r = rng.randrange(total)
    for kind, weight in enumerate(weights):
        if r < weight:
            return kind
        r -= weight
    return -1
