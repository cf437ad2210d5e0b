"""Dealing the unseen cards again, consistently with all one seat has seen (`State.resample_from_infostate`).

A seat sees its own draws, every card played or discarded, and the kinds of card gifts it took part in; it does not
see other players' draws or the kinds of gifts between two others (the rulings' "Hidden information"). A world it
cannot tell from the true one gives each hidden draw and hidden gift a kind such that:
- every card a player later played, discarded or gave was in his hand at that moment;
- every draw found its kind in the deck (with the face-up pile shuffled in whenever the deck ran out);
- the seat's own draws are as they were.

`deal` finds such an assignment from the public card events alone, with the rng. In another player's hand every
card is a joker (its kind unseen) except those the seat itself gave him; a hand's size is public. So the one real
choice is what each unseen gift passes: a joker or one of those known cards. `_plan` searches these choices so
that no player ever lacks both a card of a kind he is seen to use and a joker. `_trace` then follows every card
as a token: a joker is settled to a kind when its holder uses that kind without a known card of it, and its draw
and the unseen gifts it went through take the kind too. `_follow` gives the jokers never settled kinds by the
deck's odds (keeping back the kinds settled for later draws) and checks every move against the deck and the hands.
A dead end (the search's budget spent, a kind not left in the deck) starts again with the next random choices; the
true deal shows that one exists. Nothing here reads a hidden kind.

Plain functions over ints. Not in the compiled build: the search nests functions, and it runs for bots and checks,
not in the game's own moves.
"""

from __future__ import annotations

import random
import sys
from typing import Final, NamedTuple

#: Card event verbs (`CardEvent.verb`).
DRAWN: Final = 0
PLAYED: Final = 1
DISCARDED: Final = 2
GIVEN: Final = 3
#: Tries before giving up (each try follows the card events, not the game).
TRIES: Final = 80
#: Choices of unseen gifts one try's search may make, per card event.
SEARCH_STEPS: Final = 200


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
    assigned = [m.kind if seen_by(m, seat) else -1 for m in moves]
    paths = _trace(moves, assigned, counts, num_players, seat, rng)
    return _follow(moves, assigned, paths, counts, num_players, seat, rng)


def _trace(
    moves: list[CardMove], assigned: list[int], counts: tuple[int, ...], num_players: int, seat: int, rng: random.Random
) -> dict[int, list[int]]:
    """Follow every card as a token: one drawn unseen is a joker, whose kind is settled only when a card of a
    kind seen is needed from a hand holding no such card (played, discarded, or given with its kind seen); the
    joker then takes that kind, and so do its draw and every unseen gift it passed through. Each unseen gift passes
    the token `_plan` chose: a joker, or a card of a kind seen. Returns, per hidden draw whose joker is never
    settled, the unseen gifts it passed through (settled with the draw by `_follow`)."""
    plan = _plan(moves, assigned, num_players, seat, rng)
    seen_out = _seen_out(moves, assigned, counts, num_players, seat)
    # Draws settled to each kind, per deck (between two reshuffles).
    settled: dict[tuple[int, int], int] = {}
    hands: list[list[list[int]]] = [[] for _ in range(num_players)]  # tokens: [draw index or -1, kind or -1]
    paths: dict[int, list[int]] = {}
    for index, move in enumerate(moves):
        kind = assigned[index]
        if move.verb == DRAWN:
            hands[move.seat].append([-1, kind] if kind >= 0 else [index, -1])
            if kind < 0:
                paths[index] = []
            continue
        if kind >= 0 or move.verb != GIVEN:
            token = _take(hands[move.seat], kind, assigned, paths, seen_out, settled, rng)
        else:
            token = _take_planned(hands[move.seat], plan[index], rng)
            if token[1] >= 0:
                assigned[index] = token[1]
            else:
                paths[token[0]].append(index)
        if move.verb == GIVEN:
            hands[move.other].append(token)
    return {origin: path for origin, path in paths.items() if assigned[origin] < 0}


def _seen_out(
    moves: list[CardMove], assigned: list[int], counts: tuple[int, ...], num_players: int, seat: int
) -> dict[int, list[int]]:
    """Before each hidden draw (by its move), how many cards of each kind the seat knows were not in the deck: the
    face-up pile since the last reshuffle, and its own hand, then the number of reshuffles before it; under key -1,
    the counts of the whole game (the deck's composition is public). A draw could not have found a kind all of whose
    cards were out."""
    kinds_n = len(counts)
    pile = [0] * kinds_n
    own = [0] * kinds_n
    in_hands = 0
    out: dict[int, list[int]] = {-1: list(counts)}
    cycle = 0
    for index, move in enumerate(moves):
        kind = assigned[index]
        if move.verb == DRAWN:
            if sum(counts) - in_hands - sum(pile) == 0:
                pile = [0] * kinds_n  # the pile is shuffled into a new deck
                cycle += 1
            out[index] = [*(pile[k] + own[k] for k in range(kinds_n)), cycle]
            in_hands += 1
            if move.seat == seat:
                own[kind] += 1
        elif move.verb == GIVEN:
            if move.seat == seat:
                own[kind] -= 1
            if move.other == seat:
                own[kind] += 1
        else:
            in_hands -= 1
            pile[kind] += 1
            if move.seat == seat:
                own[kind] -= 1
    return out


def _take_planned(hand: list[list[int]], kind: int, rng: random.Random) -> list[int]:
    """The token an unseen gift passes as planned: a card of `kind`, or a joker (-1), chosen at random among
    those alike."""
    alike = [position for position, token in enumerate(hand) if token[1] == kind]
    if not alike:
        raise NoDeal
    return hand.pop(alike[rng.randrange(len(alike))])


def _plan(
    moves: list[CardMove], assigned: list[int], num_players: int, seat: int, rng: random.Random
) -> dict[int, int]:
    """What each unseen gift passes: a joker (-1) or a card of a kind the seat saw come to its giver, such that no
    player ever lacks both a card of a kind he is seen to use and a joker.

    Cards the seat saw come to another player (its own gifts to him) are the only cards of known kind in other
    hands; every other card there is a joker, and a hand's size is public, so a player's jokers are his hand's size
    less his known cards. A seen use takes a known card of its kind if the hand holds one (a joker is never worse
    kept), else a joker. The search is a depth-first search over the unseen gifts' choices, in random order, that
    remembers each (move, known cards) found to lead to a dead end; `NoDeal` if there is none."""
    sizes: list[list[int]] = []
    size = [0] * num_players
    for move in moves:
        sizes.append(list(size))
        if move.verb == DRAWN:
            size[move.seat] += 1
        else:
            size[move.seat] -= 1
            if move.verb == GIVEN:
                size[move.other] += 1
    plan: dict[int, int] = {}
    dead: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    budget = [SEARCH_STEPS * len(moves)]

    def use(player: int, kind: int, known: list[tuple[int, int]], index: int) -> bool:
        if (player, kind) in known:
            known.remove((player, kind))
            return True
        return sizes[index][player] - sum(1 for p, _ in known if p == player) >= 1

    def search(start: int, held: tuple[tuple[int, int], ...]) -> bool:
        known = list(held)
        for index in range(start, len(moves)):
            move = moves[index]
            kind = assigned[index]
            if move.verb == DRAWN:
                continue
            if move.verb == GIVEN and move.seat == seat:
                known.append((move.other, kind))
                continue
            if move.seat == seat:
                continue
            if kind >= 0:
                if not use(move.seat, kind, known, index):
                    return False
                continue
            state = tuple(sorted(known))
            if (index, state) in dead:
                return False
            budget[0] -= 1
            if budget[0] < 0:
                raise NoDeal
            giver, receiver = move.seat, move.other
            options = sorted({k for p, k in known if p == giver})
            if sizes[index][giver] - sum(1 for p, _ in known if p == giver) >= 1:
                options.append(-1)
            rng.shuffle(options)
            for option in options:
                after = list(known)
                if option >= 0:
                    after.remove((giver, option))
                    after.append((receiver, option))
                plan[index] = option
                if search(index + 1, tuple(after)):
                    return True
            dead.add((index, state))
            return False
        return True

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(moves) + 1000))
    try:
        if not search(0, ()):
            raise NoDeal
    finally:
        sys.setrecursionlimit(limit)
    return plan


def _take(
    hand: list[list[int]],
    kind: int,
    assigned: list[int],
    paths: dict[int, list[int]],
    seen_out: dict[int, list[int]],
    settled: dict[tuple[int, int], int],
    rng: random.Random,
) -> list[int]:
    """The token of `kind` a hand gives up: a card of that kind, else a joker settled to it, one whose draw could
    have found the kind in the deck (`_seen_out`, less the draws of the same deck already settled to it) if there
    is one."""
    for position, token in enumerate(hand):
        if token[1] == kind:
            return hand.pop(position)
    jokers = [position for position, token in enumerate(hand) if token[1] < 0]
    if not jokers:
        raise NoDeal
    kinds_n = len(seen_out[-1])
    possible = [
        p
        for p in jokers
        if seen_out[hand[p][0]][kind] + settled.get((seen_out[hand[p][0]][kinds_n], kind), 0) < seen_out[-1][kind]
    ]
    pool = possible or jokers
    token = hand.pop(pool[rng.randrange(len(pool))])
    deck_of = (seen_out[token[0]][kinds_n], kind)
    settled[deck_of] = settled.get(deck_of, 0) + 1
    token[1] = kind
    assigned[token[0]] = kind
    for gift in paths.pop(token[0]):
        assigned[gift] = kind
    return token


def _follow(
    moves: list[CardMove],
    assigned: list[int],
    paths: dict[int, list[int]],
    counts: tuple[int, ...],
    num_players: int,
    seat: int,
    rng: random.Random,
) -> list[int]:
    """Follow the card flow: each draw still open takes a kind by the deck's odds, keeping back the kinds settled
    for later draws (its unseen gifts take the same kind), and every move is checked against the deck and the
    hands."""
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
                for gift in paths.get(index, []):
                    assigned[gift] = kind
            elif not seen_by(move, seat):
                promised[kind] -= 1
            if kind < 0 or deck[kind] <= 0:
                raise NoDeal
            deck[kind] -= 1
            hands[move.seat][kind] += 1
            continue
        if kind < 0 or hands[move.seat][kind] <= 0:
            raise NoDeal
        hands[move.seat][kind] -= 1
        if move.verb == GIVEN:
            hands[move.other][kind] += 1
        else:
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
