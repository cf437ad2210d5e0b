"""Dealing the unseen cards again, consistently with all one seat has seen (`State.resample_from_infostate`).

A seat sees its own draws, every card played or discarded, and the kinds of card gifts it took part in; it does not
see other players' draws or the kinds of gifts between two others (the rulings' "Hidden information"). A world it
cannot tell from the true one gives each hidden draw and hidden gift a kind such that:
- every card a player later played, discarded or gave was in his hand at that moment;
- every draw found its kind in the deck (with the face-up pile shuffled in whenever the deck ran out);
- the seat's own draws are as they were.

`deal` finds such an assignment from the public card events alone, with the rng. In another player's hand every
card is a joker (its kind unseen) except those the seat itself gave him; a hand's size is public. So the one real
choice is what each unseen gift passes: a joker or one of those known cards. `_Planner` searches these choices so
that no player ever lacks both a card of a kind he is seen to use and a joker, turning back as soon as a look ahead
(`_Lookahead`) shows a hand or a kind that can no longer make its seen uses, and starting over with new random
choices when a search runs long. `_trace` then follows every card
as a token: a joker is settled to a kind when its holder uses that kind without a known card of it, and its draw
and the unseen gifts it went through take the kind too. Each draw's deck is public (the whole
composition, then the face-up pile at each reshuffle), so a joker is settled only to a kind its deck still has
untaken (`Decks`). `_follow` gives the jokers never settled kinds from what their decks have left and checks every
move against the hands.
A dead end (the search's budget spent, a kind not left in the deck) starts again with the next random choices; the
true deal shows that one exists. Nothing here reads a hidden kind.

Plain functions over ints, compiled with the rules (the search's nested functions too): every bot that searches
Vikingatid's hidden hands deals a world this way at each iteration.
"""

from __future__ import annotations

import bisect
import functools
import random
import sys
from typing import Final, NamedTuple

#: Card event verbs (`CardEvent.verb`).
DRAWN: Final = 0
PLAYED: Final = 1
DISCARDED: Final = 2
GIVEN: Final = 3
#: Settlings of one plan's jokers tried before planning again: a plan that keeps every hand able to make its seen
#: moves is usually sound, and what fails is a random settling that asks the deck for a kind it no longer holds.
SETTLINGS: Final = 40
#: A known card's kind in the search's memory once no one is seen to use that kind again.
DEAD_WEIGHT: Final = -2
#: Choices of unseen gifts the shortest search may make, per card move. A search that gets lost is seldom found
#: again by going on: searches start over with new random choices, for 1, 1, 2, 1, 1, 2, 4, … times this (the Luby
#: sequence, within a constant factor of the best schedule of restarts for a search whose length is unknown). Of
#: 1, 4 and 16, the shortest dealt the hardest positions known fastest (`benchmarks/bench_resample.py`).
SEARCH_STEPS: Final = 1
#: The share of choices a wandering search (every other pair of searches) takes in random order instead of by
#: `_rank`: searches that all follow the ranking start alike and may all get lost alike (a 6-player game of 238
#: unseen gifts was planned only by these; the ranking plans others many times faster).
WANDER: Final = 0.2
#: Choices of unseen gifts all searches together may make, per card move, before `deal` gives up. The hardest
#: positions known (6-player games of 216 and 238 unseen gifts, whole hands passed on) took up to about 2,400.
SEARCH_LIMIT: Final = 20_000


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
    consistent deal is found within `SEARCH_LIMIT` (`Dealer.deal`)."""
    return Dealer(moves, counts, num_players, seat).deal(rng)


class Dealer:
    """The deals of one seat's unseen cards over one list of card moves: what it saw, the decks and the planner,
    made once and kept for every world dealt from the same moves (a search deals one at each of its iterations).
    The planner's dead ends hold for every later search of the same moves, so each deal after the first searches
    less. Made from what the seat saw alone."""

    def __init__(self, moves: list[CardMove], counts: tuple[int, ...], num_players: int, seat: int) -> None:
        self.moves: Final = moves
        self.size: Final = len(moves)
        self.seen: Final = [m.kind if seen_by(m, seat) else -1 for m in moves]
        self.decks: Final = _decks(moves, self.seen, counts, seat)
        self.planner: Final = _Planner(moves, self.seen, self.decks, num_players, seat)
        self.num_players: Final = num_players
        self.seat: Final = seat

    def fits(self, moves: list[CardMove]) -> bool:
        """Whether this dealer deals `moves` as they are: the same list, no move added since."""
        return moves is self.moves and len(moves) == self.size

    def deal(self, rng: random.Random) -> list[int]:
        """A kind for every move; `RuntimeError` if no consistent deal is found within `SEARCH_LIMIT`. Plans are
        searched for again and again, each search given `SEARCH_STEPS` times the Luby sequence, and each plan found
        is settled up to SETTLINGS times: an easy table is dealt at the first short search, a hard one by one of
        many."""
        moves, seen, decks, planner = self.moves, self.seen, self.decks, self.planner
        scale = max(len(moves), 1)
        left = SEARCH_LIMIT * scale
        attempt = 0
        while left > 0:
            attempt += 1
            budget = min(left, SEARCH_STEPS * _luby(attempt) * scale)
            left -= budget
            try:
                plan = planner.plan(rng, attempt % 2 == 0, budget, look_ahead=attempt > 1, wander=attempt % 4 >= 2)
            except NoDeal:
                continue
            for _ in range(SETTLINGS):
                assigned = list(seen)
                try:
                    paths = _trace(moves, assigned, plan, decks, self.num_players, rng)
                    return _follow(moves, assigned, paths, decks, self.num_players, self.seat, rng)
                except NoDeal:
                    continue
        raise RuntimeError("resample_from_infostate: no deal of the unseen cards fits the cards seen")


def _luby(n: int) -> int:
    """The n-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …"""
    while True:
        k = n.bit_length()
        if n == (1 << k) - 1:
            return 1 << (k - 1)
        n -= (1 << (k - 1)) - 1


def _trace(
    moves: list[CardMove],
    assigned: list[int],
    plan: dict[int, int],
    decks: Decks,
    num_players: int,
    rng: random.Random,
) -> dict[int, list[int]]:
    """Follow every card as a token: one drawn unseen is a joker, whose kind is settled only when a card of a
    kind seen is needed from a hand holding no such card (played, discarded, or given with its kind seen); the
    joker then takes that kind, and so do its draw and every unseen gift it passed through. Each unseen gift passes
    the token `_Planner` chose: a joker, or a card of a kind seen. Returns, per hidden draw whose joker is never
    settled, the unseen gifts it passed through (settled with the draw by `_follow`)."""
    # Each deck's cards of each kind not yet taken by a draw settled here.
    room = [list(r) for r in decks.room]
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
            token = _take(hands[move.seat], kind, assigned, paths, decks.deck_of, room, rng)
        else:
            token = _take_planned(hands[move.seat], plan[index], rng)
            if token[1] >= 0:
                assigned[index] = token[1]
            else:
                paths[token[0]].append(index)
        if move.verb == GIVEN:
            hands[move.other].append(token)
    return {origin: path for origin, path in paths.items() if assigned[origin] < 0}


class Decks(NamedTuple):
    """The decks of a game, all public: each draw's deck (the first, then one per reshuffle of the face-up pile),
    and per deck the cards of each kind its draws may take that the seat did not draw itself. The first deck is the
    whole composition; a later one is the pile when it was shuffled in, every card of which was played or discarded
    face up. A deck is drawn from without replacement, so a deal fits it exactly when, per deck and kind, the draws
    of that kind are no more than its cards: the draws in between cannot then find it empty either."""

    deck_of: list[int]
    room: list[list[int]]


def _decks(moves: list[CardMove], seen: list[int], counts: tuple[int, ...], seat: int) -> Decks:
    """The decks of `moves`, from public facts and the seat's own draws."""
    kinds_n = len(counts)
    deck_of = [-1] * len(moves)
    room = [list(counts)]
    left = sum(counts)
    pile = [0] * kinds_n
    for index, move in enumerate(moves):
        if move.verb == DRAWN:
            if left == 0:  # the pile is shuffled into a new deck
                room.append(pile)
                left, pile = sum(pile), [0] * kinds_n
            left -= 1
            deck_of[index] = len(room) - 1
            if move.seat == seat:
                room[-1][seen[index]] -= 1
        elif move.verb != GIVEN:
            pile[seen[index]] += 1
    return Decks(deck_of, room)


def _take_planned(hand: list[list[int]], kind: int, rng: random.Random) -> list[int]:
    """The token an unseen gift passes as planned: a card of `kind`, or a joker (-1), chosen at random among
    those alike."""
    alike = [position for position, token in enumerate(hand) if token[1] == kind]
    if not alike:
        raise NoDeal
    return hand.pop(alike[rng.randrange(len(alike))])


class _Planner:
    """What each unseen gift passes: a joker (-1) or a card of a kind the seat saw come to its giver, such that no
    player ever lacks both a card of a kind he is seen to use and a joker.

    Cards the seat saw come to another player (its own gifts to him) are the only cards of known kind in other
    hands; every other card there is a joker, and a hand's size is public, so a player's jokers are his hand's size
    less his known cards. A seen use takes a known card of its kind if the hand holds one (a joker is never worse
    kept), else a joker. `plan` is a depth-first search over the unseen gifts' choices, in random order, that turns
    back at choices the look ahead (`_Lookahead`) shows to lead nowhere and remembers each state found to lead to a
    dead end. What it remembers holds for every later search of the same moves, so a planner is made once per deal
    and searches again and again."""

    def __init__(self, moves: list[CardMove], assigned: list[int], decks: Decks, num_players: int, seat: int) -> None:
        self.seat = seat
        self.sizes: list[list[int]] = []
        size = [0] * num_players
        for move in moves:
            self.sizes.append(list(size))
            if move.verb == DRAWN:
                size[move.seat] += 1
            else:
                size[move.seat] -= 1
                if move.verb == GIVEN:
                    size[move.other] += 1
        # The last seen use of each kind by another player: a known card of a kind never used again is dead weight
        # in a hand, the same whatever its kind, so the search treats all such cards alike (fewer choices, and dead
        # ends remembered across them).
        self.last_use = [-1] * (max(assigned, default=-1) + 1)
        for index, move in enumerate(moves):
            if move.verb != DRAWN and move.seat != seat and assigned[index] >= 0:
                self.last_use[assigned[index]] = index
        self.dead: set[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]] = set()
        # Each kind's cards the other players' draws may have taken, over all decks: a seen use with no known card of
        # its kind settles a joker to it, and no more jokers can be settled to a kind than that.
        self.room = [sum(deck[k] for deck in decks.room) for k in range(len(decks.room[0]))]
        # At each unseen gift, the kinds someone is still seen to use (the only ones whose settled count matters).
        self.live_at = {
            index: [k for k in range(len(self.last_use)) if self.last_use[k] >= index]
            for index, move in enumerate(moves)
            if move.verb == GIVEN and move.seat != seat and assigned[index] < 0
        }
        self.moves, self.assigned, self.final, self.num_players = moves, assigned, size, num_players
        # Each other player's seen uses of each kind, by move index.
        self.uses: dict[tuple[int, int], list[int]] = {}
        for index, move in enumerate(moves):
            if move.verb != DRAWN and move.seat != seat and assigned[index] >= 0:
                self.uses.setdefault((move.seat, assigned[index]), []).append(index)
        # The moves the search looks at, in order: the seat's gifts to others (a known card comes to a hand), other
        # players' seen uses, and the unseen gifts between two others (its choices); draws and the seat's own uses
        # change nothing in it.
        self.looked_at = [
            (index, move, assigned[index])
            for index, move in enumerate(moves)
            if move.verb != DRAWN and (move.seat != seat or move.verb == GIVEN)
        ]

    @functools.cached_property
    def lookahead(self) -> _Lookahead:
        """The look ahead, made at its first use: most tables are planned at the first search, which goes without."""
        return _Lookahead(self.moves, self.assigned, self.sizes, self.final, self.num_players, self.seat)

    def plan(
        self, rng: random.Random, guard_jokers: bool, steps: int, look_ahead: bool = True, wander: bool = False
    ) -> dict[int, int]:
        """One search, its choices in `rng`'s order, turning back where the look ahead says so if `look_ahead`,
        and with `wander` taking a share (`WANDER`) of its choices in random order rather than by `_rank`;
        `NoDeal` if there is no plan or `steps` choices of unseen gifts find none."""
        seat, sizes, last_use, room, dead, live_at, uses = (
            self.seat,
            self.sizes,
            self.last_use,
            self.room,
            self.dead,
            self.live_at,
            self.uses,
        )
        looked_at = self.looked_at
        if look_ahead:
            hand_ok, kind_ok = self.lookahead.hand_ok, self.lookahead.kind_ok
        plan: dict[int, int] = {}
        budget = [steps]

        def use(player: int, kind: int, known: list[tuple[int, int]], used: list[int], index: int) -> bool:
            if (player, kind) in known:
                known.remove((player, kind))
                return True
            if used[kind] >= room[kind] or sizes[index][player] - sum(1 for p, _ in known if p == player) < 1:
                return False
            used[kind] += 1
            return True

        def search(start: int, known: list[tuple[int, int]], used: list[int]) -> bool:
            for position in range(start, len(looked_at)):
                index, move, kind = looked_at[position]
                if move.seat == seat:
                    known.append((move.other, kind))
                    continue
                if kind >= 0:
                    if not use(move.seat, kind, known, used, index):
                        return False
                    continue
                # A dead end is remembered by the known cards' holders and kinds (those no one uses again alike) and
                # the jokers settled to each kind still to be used.
                state = (
                    index,
                    tuple(sorted([(p, k if last_use[k] >= index else DEAD_WEIGHT) for p, k in known])),
                    tuple([used[k] for k in live_at[index]]),
                )
                if state in dead:
                    return False
                budget[0] -= 1
                if budget[0] < 0:
                    raise NoDeal
                giver, receiver = move.seat, move.other
                giver_kinds = {k for p, k in known if p == giver}
                options = sorted(k for k in giver_kinds if last_use[k] >= index)
                weight = [k for k in giver_kinds if last_use[k] < index]
                if weight:
                    options.append(min(weight))  # any one of the giver's dead-weight cards stands for them all
                spare = sizes[index][giver] - sum(1 for p, _ in known if p == giver)
                if spare >= 1:
                    options.append(-1)
                rng.shuffle(options)
                if not guard_jokers:
                    spare = 2
                if not wander or rng.random() >= WANDER:
                    options.sort(key=lambda option: _rank(option, giver, receiver, index, uses, spare))
                for option in options:
                    after = list(known)
                    if option >= 0:
                        after.remove((giver, option))
                        after.append((receiver, option))
                    if look_ahead and not (
                        hand_ok(giver, index + 1, after)
                        and hand_ok(receiver, index + 1, after)
                        and all(kind_ok(k, index + 1, after, used[k], room[k]) for k in giver_kinds)
                    ):
                        continue
                    plan[index] = option
                    if search(position + 1, after, list(used)):
                        return True
                dead.add(state)
                return False
            return True

        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * len(looked_at) + 1000))
        try:
            if not search(0, [], [0] * len(room)):
                raise NoDeal
        finally:
            sys.setrecursionlimit(limit)
        return plan


#: What a move is to one player's hand, for `_Lookahead`.
_JOKER_IN: Final = 0  # an unseen draw or an unseen gift to him (a joker, at best)
_KNOWN_IN: Final = 1  # a card the seat gave him
_OUT: Final = 2  # an unseen gift of his
_USE: Final = 3  # a seen use of his (played, discarded, or given to the seat)


class _Lookahead:
    """Two checks of a state of the plan search, each a relaxation: if one fails, the search's choices so far lead
    to a dead end whatever it chooses later, and it turns back at once instead of finding out many choices later.

    `hand_ok`: whether one other player's hand can still make all its seen uses, at best: every unseen gift to him
    brings a joker, and every unseen gift of his passes one of his known cards while he holds any (the one he would
    need last, the seat's cards of its kind to come counted in). Passing a known card is never worse for him than
    passing a joker: the joker is kept until the card would have been used, and a use taken by the joker then leaves
    him as he would have been. Each choice of the search changes only the giver's and the receiver's hands from what
    their last look ahead assumed (a use, a draw or the seat's gift is as the look ahead took it), so those two are
    all it looks at.

    `kind_ok`: whether the uses of one kind still to come can be made by the known cards of it that can reach them
    and the jokers the deck has room for."""

    def __init__(
        self,
        moves: list[CardMove],
        assigned: list[int],
        sizes: list[list[int]],
        final: list[int],
        num_players: int,
        seat: int,
    ) -> None:
        self.sizes = [*sizes, final]
        self.events: list[list[tuple[int, int, int]]] = [[] for _ in range(num_players)]
        # Each player's known cards of each kind to come (+1, from the seat) and seen uses of it (-1), in order.
        self.flows: dict[tuple[int, int], list[tuple[int, int]]] = {}
        # Each kind's seen uses by the other players and the seat's gifts of it, in order; per use, the latest move
        # at which a card in each player's hand can still set out to reach the user's hand in time through unseen
        # gifts (-1 if none can).
        self.kind_uses: dict[int, list[tuple[int, list[int]]]] = {}
        self.kind_gifts: dict[int, list[tuple[int, int]]] = {}
        unseen_gifts: list[tuple[int, int, int]] = []
        for index, move in enumerate(moves):
            kind = assigned[index]
            if move.verb == DRAWN:
                if move.seat != seat:
                    self.events[move.seat].append((index, _JOKER_IN, -1))
            elif move.seat == seat:
                if move.verb == GIVEN:
                    self.events[move.other].append((index, _KNOWN_IN, kind))
                    self.flows.setdefault((move.other, kind), []).append((index, 1))
                    self.kind_gifts.setdefault(kind, []).append((index, move.other))
            elif kind >= 0:
                self.events[move.seat].append((index, _USE, kind))
                self.flows.setdefault((move.seat, kind), []).append((index, -1))
                latest = [-1] * num_players
                latest[move.seat] = index
                for gift, giver, receiver in reversed(unseen_gifts):
                    if gift < latest[receiver] and gift > latest[giver]:
                        latest[giver] = gift
                self.kind_uses.setdefault(kind, []).append((index, latest))
            else:
                self.events[move.seat].append((index, _OUT, -1))
                self.events[move.other].append((index, _JOKER_IN, -1))
                unseen_gifts.append((index, move.seat, move.other))
        self.starts = [[event[0] for event in events] for events in self.events]
        # Past each player's last card from the seat, a hand with no known card left is only jokers: it can make
        # every use it is seen to make, since its size shows it held a card then.
        self.last_known_in = [
            max((event[0] for event in events if event[1] == _KNOWN_IN), default=-1) for events in self.events
        ]
        self.memo: dict[tuple[int, int, tuple[int, ...]], bool] = {}
        self.served: dict[tuple[int, int, tuple[int, ...]], int] = {}

    def kind_ok(self, kind: int, start: int, known: list[tuple[int, int]], used: int, room: int) -> bool:
        """Whether the seen uses of `kind` from move `start` on can, at best, be made with the jokers its deck
        still has room for: each known card of the kind (in a hand now, or still to be given by the seat) serves at
        most one use, one it can reach through unseen gifts in time, and every other use settles a joker."""
        uses = self.kind_uses.get(kind, [])
        first = bisect.bisect_left(uses, (start,))
        need = used + len(uses) - first - room  # the uses ahead that known cards must make
        if need <= 0:
            return True
        holders = tuple(sorted(holder for holder, k in known if k == kind))
        key = (kind, start, holders)
        served = self.served.get(key)
        if served is None:
            ahead = uses[first:]
            cards = [(start, holder) for holder in holders]
            cards += [gift for gift in self.kind_gifts.get(kind, []) if gift[0] >= start]
            reach = [[u for u, (_, latest) in enumerate(ahead) if at <= latest[holder]] for at, holder in cards]
            served = self.served[key] = _matching(reach, len(ahead))
        return served >= need

    def hand_ok(self, player: int, start: int, known: list[tuple[int, int]]) -> bool:
        """Whether `player`, holding his cards among `known` (holder, kind) before move `start`, can at best make
        every seen use from there on."""
        held = sorted(kind for holder, kind in known if holder == player)
        key = (player, start, tuple(held))
        found = self.memo.get(key)
        if found is None:
            found = self._simulate(player, start, held)
            self.memo[key] = found
        return found

    def _needed(self, player: int, kind: int, index: int, held: int) -> int:
        """When the player, holding `held` known cards of `kind` at move `index`, would first lack one of them for
        a use of that kind had he passed one on (the seat's cards of it to come counted in); one past every move if
        never. Passing on the card needed last is best: each card passed leaves a use to a joker from that moment."""
        flows = self.flows.get((player, kind), [])
        cover = held - 1
        for at, change in flows[bisect.bisect_right(flows, (index, 1)) :]:
            cover += change
            if cover < 0:
                return at
        return sys.maxsize

    def _simulate(self, player: int, start: int, held: list[int]) -> bool:
        jokers = self.sizes[start][player] - len(held)
        events = self.events[player]
        for at in range(bisect.bisect_left(self.starts[player], start), len(events)):
            index, what, kind = events[at]
            if not held and index > self.last_known_in[player]:
                return True
            if what == _JOKER_IN:
                jokers += 1
            elif what == _KNOWN_IN:
                held.append(kind)
            elif what == _USE:
                if kind in held:
                    held.remove(kind)
                elif jokers >= 1:
                    jokers -= 1
                else:
                    return False
            elif held:
                held.remove(max(held, key=lambda k: self._needed(player, k, index, held.count(k))))
            else:
                jokers -= 1
        return True


def _matching(edges: list[list[int]], right: int) -> int:
    """The size of a largest matching of a small bipartite graph (left vertex i joined to `edges[i]`)."""
    partner = [-1] * right

    def augment(left: int, seen: list[bool]) -> bool:
        for r in edges[left]:
            if not seen[r]:
                seen[r] = True
                if partner[r] < 0 or augment(partner[r], seen):
                    partner[r] = left
                    return True
        return False

    return sum(1 for left in range(len(edges)) if augment(left, [False] * right))


def _rank(
    option: int, giver: int, receiver: int, index: int, uses: dict[tuple[int, int], list[int]], spare: int
) -> int:
    """The order in which the search tries what an unseen gift passes: first a known card the receiver is seen to
    use before the giver (the card goes where it is used up, which is likely how it went), then a joker, then any
    other known card (dead weight moved on). Tried in this order, a search that used to spend seconds and often
    find nothing in a 6-player random game full of gifts finds a plan at once."""
    if option < 0:
        return 1 if spare >= 2 else 3
    return 0 if _next_use(uses, receiver, option, index) < _next_use(uses, giver, option, index) else 2


def _next_use(uses: dict[tuple[int, int], list[int]], player: int, kind: int, index: int) -> int:
    """The index of the player's next seen use of the kind at or after `index`, or one past every move."""
    found = uses.get((player, kind), [])
    at = bisect.bisect_left(found, index)
    return found[at] if at < len(found) else sys.maxsize


def _take(
    hand: list[list[int]],
    kind: int,
    assigned: list[int],
    paths: dict[int, list[int]],
    deck_of: list[int],
    room: list[list[int]],
    rng: random.Random,
) -> list[int]:
    """The token of `kind` a hand gives up: a card of that kind, else a joker settled to it, one whose draw's deck
    still has a card of the kind no other draw has taken; `NoDeal` if none has."""
    for position, token in enumerate(hand):
        if token[1] == kind:
            return hand.pop(position)
    possible = [p for p, token in enumerate(hand) if token[1] < 0 and room[deck_of[token[0]]][kind] > 0]
    if not possible:
        raise NoDeal
    token = hand.pop(possible[rng.randrange(len(possible))])
    room[deck_of[token[0]]][kind] -= 1
    token[1] = kind
    assigned[token[0]] = kind
    for gift in paths.pop(token[0]):
        assigned[gift] = kind
    return token


def _follow(
    moves: list[CardMove],
    assigned: list[int],
    paths: dict[int, list[int]],
    decks: Decks,
    num_players: int,
    seat: int,
    rng: random.Random,
) -> list[int]:
    """Each draw still open takes a kind from its deck's cards no other draw has taken, by their numbers (its
    unseen gifts take the same kind); then every move is checked against the hands."""
    room = [list(r) for r in decks.room]
    for index, move in enumerate(moves):
        if move.verb == DRAWN and move.seat != seat and assigned[index] >= 0:
            room[decks.deck_of[index]][assigned[index]] -= 1
    if any(n < 0 for deck in room for n in deck):
        raise NoDeal
    kinds_n = len(room[0])
    hands = [[0] * kinds_n for _ in range(num_players)]
    for index, move in enumerate(moves):
        kind = assigned[index]
        if move.verb == DRAWN:
            if kind < 0:
                left = room[decks.deck_of[index]]
                kind = _pick(left, rng)
                if kind < 0:
                    raise NoDeal
                left[kind] -= 1
                assigned[index] = kind
                for gift in paths.get(index, []):
                    assigned[gift] = kind
            hands[move.seat][kind] += 1
            continue
        if kind < 0 or hands[move.seat][kind] <= 0:
            raise NoDeal
        hands[move.seat][kind] -= 1
        if move.verb == GIVEN:
            hands[move.other][kind] += 1
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
