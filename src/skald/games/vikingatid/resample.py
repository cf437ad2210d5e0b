"""Dealing the unseen cards again, consistently with all one seat has seen (`State.resample_from_infostate`).

A seat sees its own draws, every card played or discarded, and the kinds of card gifts it took part in; it does not
see other players' draws or the kinds of gifts between two others (the rulings' "Hidden information"). A world it
cannot tell from the true one gives each hidden draw and hidden gift a kind such that:
- every card a player later played, discarded or gave was in his hand at that moment;
- every draw found its kind in the deck (with the face-up pile shuffled in whenever the deck ran out);
- the seat's own draws are as they were.

`deal` finds such an assignment from the public card events alone, with the rng: first each player's later uses
of cards are matched to his earlier unseen entries (hidden draws, and gifts whose kind only he saw), at random; a
gift given a kind so becomes a use of its giver, matched in turn. Then the card flow is followed: the remaining
hidden draws are filled by the deck's odds, keeping back the kinds promised to later draws, and the remaining
hidden gifts from what the giver can spare. A dead end (a kind not left in the deck) starts again with the next
random choices; the true deal shows that one exists. Nothing here reads a hidden kind.

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
    _match(moves, assigned, kinds_n, num_players, seat, rng)
    # Each player's card exits of a known kind from each move on (to give away a card he will not need).
    later: list[list[list[int]]] = [[[0] * kinds_n] for _ in range(num_players)]
    for index in range(len(moves) - 1, -1, -1):
        move = moves[index]
        for player in range(num_players):
            row = list(later[player][-1])
            if move.seat == player and move.verb != DRAWN and assigned[index] >= 0:
                row[assigned[index]] += 1
            later[player].append(row)
    for player in range(num_players):
        later[player].reverse()
    return _follow(moves, assigned, counts, num_players, seat, later, rng)


def _match(
    moves: list[CardMove], assigned: list[int], kinds_n: int, num_players: int, seat: int, rng: random.Random
) -> None:
    """Give each other player's uses of cards (plays, discards, gifts of a kind now known) a source among his
    earlier unseen entries (draws, and gifts whose kind he alone saw), at random. A gift so given a kind becomes a
    use of its giver, matched in the next round, until nothing changes."""
    changed = True
    while changed:
        changed = False
        for player in range(num_players):
            if player == seat:
                continue
            hand = [0] * kinds_n
            open_entries: list[int] = []
            for index, move in enumerate(moves):
                kind = assigned[index]
                entry = (move.verb == DRAWN and move.seat == player) or (move.verb == GIVEN and move.other == player)
                if entry:
                    if kind >= 0:
                        hand[kind] += 1
                    else:
                        open_entries.append(index)
                elif move.seat == player and move.verb != DRAWN and kind >= 0:
                    if hand[kind] > 0:
                        hand[kind] -= 1
                    elif open_entries:
                        pick = open_entries.pop(rng.randrange(len(open_entries)))
                        assigned[pick] = kind
                        changed = True
                    else:
                        raise NoDeal


def _follow(
    moves: list[CardMove],
    assigned: list[int],
    counts: tuple[int, ...],
    num_players: int,
    seat: int,
    later: list[list[list[int]]],
    rng: random.Random,
) -> list[int]:
    """Follow the card flow: fill the hidden draws still open by the deck's odds, keeping back the kinds promised
    to later draws, and the gifts still open from what the giver can spare."""
    kinds_n = len(counts)
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
            hand = hands[move.seat]
            if kind < 0:
                needed = later[move.seat][index + 1]
                kind = _pick([max(0, hand[k] - needed[k]) for k in range(kinds_n)], rng)
                if kind < 0:
                    kind = _pick(hand, rng)
                assigned[index] = kind
            if kind < 0 or hand[kind] <= 0:
                raise NoDeal
            hand[kind] -= 1
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
