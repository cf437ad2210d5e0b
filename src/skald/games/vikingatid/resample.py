"""Dealing the unseen cards again, consistently with all one seat has seen (`State.resample_from_infostate`).

A seat sees its own draws, every card played or discarded, and the kinds of card gifts it took part in; it does not
see other players' draws or the kinds of gifts between two others (the rulings' "Hidden information"). A world it
cannot tell from the true one gives each hidden draw and hidden gift a kind such that:
- every card a player later played, discarded or gave was in his hand at that moment;
- every draw found its kind in the deck (with the face-up pile shuffled in whenever the deck ran out);
- the seat's own draws are as they were.

`deal` finds such an assignment from the public card events alone, with the rng. It follows every card as a token:
a card drawn unseen is a joker, settled to a kind only when its holder must play, discard or give a kind the seat
sees and holds no card of it (its draw and the unseen gifts it went through then take that kind too); an unseen
gift passes a token its giver can spare without falling short of his later uses, and one its receiver needs if he
would fall short. Then the card flow is followed: the jokers never settled take kinds by the deck's odds, keeping
back the kinds settled for later draws, and every move is checked against the deck and the hands. A dead end (no
card or joker for a use, a kind not left in the deck) starts again with the next random choices; the true deal
shows that one exists. Nothing here reads a hidden kind.

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
#: Tries before giving up (each try follows the card events, not the game).
TRIES: Final = 30
#: Moves one try's search may take, going back included, per card event.
SEARCH_STEPS: Final = 4


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
    paths = _trace(moves, assigned, kinds_n, num_players, seat, rng)
    return _follow(moves, assigned, paths, counts, num_players, seat, rng)


def _trace(
    moves: list[CardMove], assigned: list[int], kinds_n: int, num_players: int, seat: int, rng: random.Random
) -> dict[int, list[int]]:
    """Follow every card as a token: one drawn unseen is a joker, whose kind is settled only when a card of a
    kind seen is needed from a hand holding no such card (played, discarded, or given with its kind seen); the
    joker then takes that kind, and so do its draw and every unseen gift it passed through. An unseen gift passes
    one of its giver's tokens: the choices (`_choices`, one per kind of token) are tried in turn, going back to the
    last gift whose choice is left to try when a hand has neither the kind needed nor a joker (a search of at most
    SEARCH_STEPS moves per card event; `NoDeal` beyond, or when every choice fails). Returns, per hidden draw
    whose joker is never settled, the unseen gifts it passed through (settled with the draw by `_follow`)."""
    hands: list[list[list[int]]] = [[] for _ in range(num_players)]  # tokens: [draw index or -1, kind or -1]
    paths: dict[int, list[int]] = {}
    # The gifts whose choices are being tried: (move, choices, next choice, the position before it).
    stack: list[tuple[int, list[int], list[int], tuple[list[list[list[int]]], list[int], dict[int, list[int]]]]] = []
    index = 0
    steps = 0
    while index < len(moves):
        steps += 1
        if steps > SEARCH_STEPS * len(moves):
            raise NoDeal
        move = moves[index]
        kind = assigned[index]
        if move.verb == DRAWN:
            hands[move.seat].append([-1, kind] if kind >= 0 else [index, -1])
            if kind < 0:
                paths[index] = []
            index += 1
            continue
        if kind >= 0 or move.verb != GIVEN:
            try:
                token = _take(hands[move.seat], kind, assigned, paths, rng)
            except NoDeal:
                index, hands, assigned_now, paths = _back(stack, moves, move.seat)
                assigned[:] = assigned_now
                continue
        else:
            if not stack or stack[-1][0] != index:
                stack.append((index, _choices(moves, assigned, hands, index, rng), [0], _copy(hands, assigned, paths)))
            frame = stack[-1]
            if frame[2][0] >= len(frame[1]):
                stack.pop()
                index, hands, assigned_now, paths = _back(stack, moves, -1)
                assigned[:] = assigned_now
                continue
            hands, assigned_now, paths = _copy(*frame[3])
            assigned[:] = assigned_now
            token = hands[move.seat].pop(frame[1][frame[2][0]])
            frame[2][0] += 1
            if token[1] >= 0:
                assigned[index] = token[1]
            else:
                paths[token[0]].append(index)
        if move.verb == GIVEN:
            hands[move.other].append(token)
        index += 1
    return {origin: path for origin, path in paths.items() if assigned[origin] < 0}


def _copy(
    hands: list[list[list[int]]], assigned: list[int], paths: dict[int, list[int]]
) -> tuple[list[list[list[int]]], list[int], dict[int, list[int]]]:
    """An independent copy of the tokens, the kinds settled and the jokers' paths."""
    return [[list(token) for token in hand] for hand in hands], list(assigned), {k: list(v) for k, v in paths.items()}


def _back(
    stack: list[tuple[int, list[int], list[int], tuple[list[list[list[int]]], list[int], dict[int, list[int]]]]],
    moves: list[CardMove],
    player: int,
) -> tuple[int, list[list[list[int]]], list[int], dict[int, list[int]]]:
    """Back to the last gift with a choice left that can bear on `player`'s hand (-1: any): one he gave or got,
    or one given or got by a player who gave him or got from him a card in a gift passed over on the way back (a
    gift between others cannot have left him short)."""
    involved = {player}
    while stack:
        frame = stack[-1]
        gift = moves[frame[0]]
        bears = player < 0 or gift.seat in involved or gift.other in involved
        if bears and frame[2][0] < len(frame[1]):
            hands, assigned, paths = _copy(*frame[3])
            return frame[0], hands, assigned, paths
        if bears:
            involved.add(gift.seat)
            involved.add(gift.other)
        stack.pop()
    raise NoDeal


def _choices(
    moves: list[CardMove], assigned: list[int], hands: list[list[list[int]]], index: int, rng: random.Random
) -> list[int]:
    """The tokens the unseen gift `moves[index]` may pass, one per kind of token (jokers are alike to the hands),
    best first: those whose loss leaves the giver able to meet his later uses in time and whose gain the receiver
    needs if he would fall short without; then the others the giver can spare; then the rest; at random within
    each."""
    move = moves[index]
    giver, receiver = hands[move.seat], hands[move.other]
    kinds: dict[int, list[int]] = {}
    for position, token in enumerate(giver):
        kinds.setdefault(token[1], []).append(position)
    picks = [positions[rng.randrange(len(positions))] for positions in kinds.values()]
    rng.shuffle(picks)
    trusting = rng.random() < 0.5
    short = not _meets(moves, assigned, receiver, move.other, index, -1, None, trusting)
    ranked: list[tuple[int, int]] = []
    for position in picks:
        spare = _meets(moves, assigned, giver, move.seat, index, position, None, trusting)
        helps = short and _meets(moves, assigned, receiver, move.other, index, -1, giver[position], trusting)
        ranked.append((0 if spare and (helps or not short) else 1 if spare else 2, position))
    return [position for _, position in sorted(ranked, key=lambda r: r[0])]


def _take(
    hand: list[list[int]], kind: int, assigned: list[int], paths: dict[int, list[int]], rng: random.Random
) -> list[int]:
    """The token of `kind` a hand gives up: a card of that kind, else a joker settled to it."""
    for position, token in enumerate(hand):
        if token[1] == kind:
            return hand.pop(position)
    jokers = [position for position, token in enumerate(hand) if token[1] < 0]
    if not jokers:
        raise NoDeal
    token = hand.pop(jokers[rng.randrange(len(jokers))])
    token[1] = kind
    assigned[token[0]] = kind
    for gift in paths.pop(token[0]):
        assigned[gift] = kind
    return token


def _meets(
    moves: list[CardMove],
    assigned: list[int],
    hand: list[list[int]],
    player: int,
    index: int,
    losing: int,
    gaining: list[int] | None,
    trusting: bool,
) -> bool:
    """Whether `player`'s hand, less its token at `losing` (unless -1) and with `gaining` (unless None), can meet
    each of his later uses of a seen kind in time: each from a card of that kind or a joker, counting the cards
    that come to him later (seen ones by kind, his unseen draws as jokers, and the unseen gifts he will get as
    jokers only if `trusting`: they may bring anything) and his later unseen gifts (each taking a card he will not
    need, else a joker)."""
    held: dict[int, int] = {}
    jokers = 0
    for position, token in enumerate(hand):
        if position == losing:
            continue
        if token[1] >= 0:
            held[token[1]] = held.get(token[1], 0) + 1
        else:
            jokers += 1
    if gaining is not None:
        if gaining[1] >= 0:
            held[gaining[1]] = held.get(gaining[1], 0) + 1
        else:
            jokers += 1
    needs: dict[int, int] = {}
    for later in range(index + 1, len(moves)):
        move, kind = moves[later], assigned[later]
        if move.seat == player and move.verb != DRAWN and kind >= 0:
            needs[kind] = needs.get(kind, 0) + 1
    for later in range(index + 1, len(moves)):
        move = moves[later]
        kind = assigned[later]
        receiver = move.seat if move.verb == DRAWN else move.other if move.verb == GIVEN else -1
        if receiver == player:
            if kind >= 0:
                held[kind] = held.get(kind, 0) + 1
            elif move.verb == DRAWN or trusting:
                jokers += 1
        elif move.seat == player and move.verb != DRAWN:
            if kind >= 0:
                needs[kind] -= 1
                if held.get(kind, 0) > 0:
                    held[kind] -= 1
                elif jokers > 0:
                    jokers -= 1
                else:
                    return False
                continue
            spare = next((k for k, n in held.items() if n > needs.get(k, 0)), -1)
            if spare >= 0:
                held[spare] -= 1
            elif jokers > 0:
                jokers -= 1
            elif any(held.values()):
                held[next(k for k, n in held.items() if n > 0)] -= 1
            else:
                return False
    return True


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
