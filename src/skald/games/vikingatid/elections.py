"""Phase 3, "King's election": gifts, open payments onto the rolls, the rolls, the three-point margin, King's Peace.

Rule text: "Each turn, there is a king's election in the three Viking kingdoms (Denmark, Norway and Sweden, in this
order), if there are any players in the respective country. All players from that kingdom roll a dice. Even a
player from another country may participate if he is the current king ... Furthermore, one player rolls a dice for
the kingdom itself. If one player rolls at least three points higher than any other player, he is king for the
current turn. ... If no player rolls sufficiently high, or the country rolls highest, no player is king for this
turn." Modifiers: "+ 1 for each three camps the player has on the map, rounded down (not valid if the player is
alone in his country)", "+ 1 if the player is currently on the throne", "+ 1 per silver the player paid before the
roll"; "Each player may pay up to all of his silver to modify any of the dice rolls (his own, another player's or
the country's)". "Players may give silver or cards to each other". King's Peace: "If two Viking kings agree, they
can announce a King's Peace at the end of the Election phase."

Skald's readings (each an option of `options.py`): a foreign king alone still stands against the kingdom's die
(VA-34, `foreign_king_only`); bidding in open rounds from the turn's first seat, a payment starting a new round,
ending when every seat has passed in succession (VA-35); paid silver leaves the game (VA-36, `bid_silver`); the
margin is over every other total, the kingdom's included (VA-37, `election_margin`); a gift window before each
election's bids, in seat order, each player giving silver to any players until he passes (VA-38, `gifts`); at the
end of the phase each king in kingdom order may offer peace to another king, who accepts or declines (VA-39,
`kings_peace`). A seat with no silver has nothing to give or pay and is not asked (silver is public, so skipping
him reveals nothing). The camp bonus counts all his camps, trading and war (VA-34). Each die is a chance node
(VA-07): the participants' in seat order, then the kingdom's.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from skald.games.vikingatid.actions import KINGDOMS, MAX_AMOUNT
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.steps import (
    BID_AMOUNT,
    BID_TARGET,
    ELECTION_ROLL,
    GIFT_AMOUNT,
    GIFT_TARGET,
    PEACE_ANSWER,
    PEACE_OFFER,
    seat_order,
)
from skald.games.vikingatid.table import KINGDOM_PAIRS, Table, pair_index

#: The step value once phase 3 is over.
OVER: Final = -1
#: A payment's target that is the kingdom's own roll.
KINGDOM_ROLL_TARGET: Final = -1
#: The margin a king needs over every other total (rule text: "at least three points higher").
MARGIN: Final = 3
#: Camps per +1 on the election roll (rule text: "+ 1 for each three camps").
CAMPS_PER_POINT: Final = 3


class ElectionRules(NamedTuple):
    """The rule options phase 3 reads (VA-34 – VA-39)."""

    gifts: str = "before_elections"
    foreign_king_only: str = "election"
    bid_silver: str = "bank"
    election_margin: str = "over_all"
    kings_peace: str = "this_turn"


class ElectionResult(NamedTuple):
    """One kingdom's election: participants, their dice and totals, the kingdom's die and total, the king (or -1)."""

    kingdom: str
    participants: tuple[int, ...]
    dice: tuple[int, ...]
    totals: tuple[int, ...]
    kingdom_die: int
    kingdom_total: int
    king: int


class Election:
    """Phase 3 under way: which kingdom, the step and who acts, the gift and bidding rounds, payments, dice, the
    King's Peace offers, and the results so far. Plain class, cloned through its constructor (mypyc-ready)."""

    def __init__(self, num_players: int, rules: ElectionRules, source: Election | None = None) -> None:
        self.num_players: Final = num_players
        self.rules: Final = rules
        if source is not None:
            self.kingdom: int = source.kingdom
            self.step: int = source.step
            self.actor: int = source.actor
            self.target: int = source.target
            self.gift_queue: list[int] = list(source.gift_queue)
            self.bid_order: list[int] = list(source.bid_order)
            self.bid_pointer: int = source.bid_pointer
            self.passes: int = source.passes
            self.participants: list[int] = list(source.participants)
            self.paid: list[int] = list(source.paid)
            self.kingdom_paid: int = source.kingdom_paid
            self.dice: list[int] = list(source.dice)
            self.peace_kingdom: int = source.peace_kingdom
            self.peace_to: int = source.peace_to
            self.offered: list[bool] = list(source.offered)
            self.results: list[ElectionResult] = list(source.results)
            return
        self.kingdom = -1
        self.step = OVER
        self.actor = NOBODY
        self.target = NOBODY
        self.gift_queue = []
        self.bid_order = []
        self.bid_pointer = 0
        self.passes = 0
        self.participants = []
        self.paid = [0] * num_players
        self.kingdom_paid = 0
        self.dice = []
        self.peace_kingdom = -1
        self.peace_to = -1
        self.offered = [False] * len(KINGDOM_PAIRS)
        self.results = []

    def clone(self) -> Election:
        """An independent copy."""
        return Election(self.num_players, self.rules, self)

    @property
    def kingdom_id(self) -> str:
        """The kingdom whose election (or King's Peace offer) is under way, or ''."""
        if 0 <= self.kingdom < len(KINGDOMS):
            return KINGDOMS[self.kingdom]
        if 0 <= self.peace_kingdom < len(KINGDOMS):
            return KINGDOMS[self.peace_kingdom]
        return ""


# -- who takes part ----------------------------------------------------------------------------------------------


def participants(table: Table, kingdom: str) -> list[int]:
    """The seats that roll in a kingdom's election: its members and a current king from elsewhere, in seat order."""
    found = table.members(kingdom)
    king = table.king[KINGDOMS.index(kingdom)]
    if king != NOBODY and king not in found:
        found = sorted([*found, king])
    return found


def holds_election(table: Table, kingdom: str, rules: ElectionRules) -> bool:
    """Whether the kingdom elects this turn: it has members, or a king from elsewhere under `foreign_king_only:
    election` (VA-34); under `keeps_throne` a foreign king with no members keeps the throne without a vote."""
    if table.members(kingdom):
        return True
    if table.king[KINGDOMS.index(kingdom)] == NOBODY:
        return False
    return rules.foreign_king_only == "election"


def camp_bonus(table: Table, seat: int) -> int:
    """+1 per three camps the player has on the map, rounded down, unless he is alone in his country (an emigrant
    is alone in his home country)."""
    if table.emigrated[seat] or table.members(table.kingdom_of(seat)) == [seat]:
        return 0
    return sum(table.camps[seat]) // CAMPS_PER_POINT


def modifier(table: Table, election: Election, seat: int) -> int:
    """Everything added to a participant's die: camps, the throne, silver paid onto his roll."""
    throne = 1 if table.king[election.kingdom] == seat else 0
    return camp_bonus(table, seat) + throne + election.paid[seat]


def king_of(totals: list[int], kingdom_total: int, margin_rule: str) -> int:
    """The index of the participant who is king, or -1: under `over_all` his total is at least three above every
    other total, the kingdom's included; under `over_players` three above every other player's and above the
    kingdom's (VA-37)."""
    for i, total in enumerate(totals):
        others = [t for j, t in enumerate(totals) if j != i]
        if any(total < other + MARGIN for other in others):
            continue
        if margin_rule == "over_players":
            if total > kingdom_total:
                return i
        elif total >= kingdom_total + MARGIN:
            return i
    return -1


# -- the flow ----------------------------------------------------------------------------------------------------


def begin(table: Table, rules: ElectionRules) -> Election:
    """Phase 3 starts: a King's Peace of the last turn ends under `kings_peace: this_turn` (VA-39); the first
    kingdom that holds an election opens, or the King's Peace offers if none does."""
    if rules.kings_peace == "this_turn":
        table.kings_peace = [False] * len(KINGDOM_PAIRS)
    election = Election(table.num_players, rules)
    _open_election(table, election, 0)
    return election


def _open_election(table: Table, election: Election, start: int) -> None:
    """Open the first kingdom from `start` on that holds an election (gifts first), or the King's Peace offers."""
    for k in range(start, len(KINGDOMS)):
        if holds_election(table, KINGDOMS[k], election.rules):
            election.kingdom = k
            election.participants = participants(table, KINGDOMS[k])
            election.paid = [0] * table.num_players
            election.kingdom_paid = 0
            election.dice = []
            order = seat_order(table.first_seat, table.num_players)
            election.gift_queue = list(order) if election.rules.gifts != "off" else []
            election.bid_order = list(order)
            election.bid_pointer = 0
            election.passes = 0
            _next_gift(table, election)
            return
    election.kingdom = len(KINGDOMS)
    election.peace_kingdom = -1
    _next_peace_offer(table, election)


def _next_gift(table: Table, election: Election) -> None:
    """Ask the first seat in the gift window that has silver to give; then the bidding."""
    while election.gift_queue and table.silver[election.gift_queue[0]] <= 0:
        election.gift_queue.pop(0)
    if election.gift_queue:
        election.step, election.actor, election.target = GIFT_TARGET, election.gift_queue[0], NOBODY
        return
    _next_bidder(table, election)


def _next_bidder(table: Table, election: Election) -> None:
    """Ask the next seat with silver in the bidding round; a seat without silver passes. When every seat has passed
    in succession, the dice are rolled."""
    n = table.num_players
    while election.passes < n:
        seat = election.bid_order[election.bid_pointer]
        if table.silver[seat] > 0:
            election.step, election.actor, election.target = BID_TARGET, seat, NOBODY
            return
        election.passes += 1
        election.bid_pointer = (election.bid_pointer + 1) % n
    election.step, election.actor, election.target = ELECTION_ROLL, NOBODY, NOBODY


def roller(election: Election) -> int:
    """Whose die is rolled next in ELECTION_ROLL: a participant's seat, or KINGDOM_ROLL_TARGET for the kingdom."""
    if len(election.dice) < len(election.participants):
        return election.participants[len(election.dice)]
    return KINGDOM_ROLL_TARGET


# -- legal choices -----------------------------------------------------------------------------------------------


def gift_targets(table: Table, election: Election) -> list[int]:
    """The seats the giver may give silver to: every other seat."""
    return [s for s in range(table.num_players) if s != election.actor]


def bid_targets(election: Election) -> list[int]:
    """The rolls a payment may go onto: each participant's (by seat), then the kingdom's (KINGDOM_ROLL_TARGET)."""
    return [*election.participants, KINGDOM_ROLL_TARGET]


def amounts(table: Table, election: Election) -> range:
    """The amounts the actor may give or pay: 1 up to all his silver (at most MAX_AMOUNT in one action; more takes
    another action, and payments add up)."""
    return range(1, min(table.silver[election.actor], MAX_AMOUNT) + 1)


# -- the decisions ----------------------------------------------------------------------------------------------


def choose_gift(election: Election, receiver: int) -> None:
    """The giver names the receiver; the amount follows."""
    election.step, election.target = GIFT_AMOUNT, receiver


def give(table: Table, election: Election, n: int) -> None:
    """The gift takes effect at once (VA-38); the giver may give again until he passes."""
    table.give_silver(election.actor, election.target, n)
    _next_gift(table, election)


def pass_gift(table: Table, election: Election) -> None:
    """The giver is done for this window."""
    election.gift_queue.pop(0)
    _next_gift(table, election)


def choose_roll(election: Election, target: int) -> None:
    """The bidder names the roll (a participant's seat or KINGDOM_ROLL_TARGET); the amount follows."""
    election.step, election.target = BID_AMOUNT, target


def pay(table: Table, election: Election, n: int) -> None:
    """The payment goes onto the roll: to the bank (VA-36 'bank') or the kingdom's treasury ('treasury'); it starts a
    new round (VA-35)."""
    seat = election.actor
    if election.rules.bid_silver == "treasury":
        table.pay_treasury(seat, KINGDOMS[election.kingdom], n)
    else:
        table.spend_silver(seat, n)
    if election.target == KINGDOM_ROLL_TARGET:
        election.kingdom_paid += n
    else:
        election.paid[election.target] += n
    election.passes = 0
    election.bid_pointer = (election.bid_pointer + 1) % table.num_players
    _next_bidder(table, election)


def pass_bid(table: Table, election: Election) -> None:
    """The bidder passes this round."""
    election.passes += 1
    election.bid_pointer = (election.bid_pointer + 1) % table.num_players
    _next_bidder(table, election)


def roll(table: Table, election: Election, face: int) -> None:
    """The next die shows `face`; after the kingdom's die the result: a king, or none (the counter in the kingdom)."""
    election.dice.append(face)
    if len(election.dice) <= len(election.participants):
        return
    k = election.kingdom
    totals = [
        face + modifier(table, election, seat) for seat, face in zip(election.participants, election.dice, strict=False)
    ]
    kingdom_die = election.dice[-1]
    kingdom_total = kingdom_die + election.kingdom_paid
    winner = king_of(totals, kingdom_total, election.rules.election_margin)
    king = election.participants[winner] if winner >= 0 else NOBODY
    if election.rules.kings_peace == "while_both_reign" and king != table.king[k]:
        for i, pair in enumerate(KINGDOM_PAIRS):
            if k in pair:
                table.kings_peace[i] = False
    table.king[k] = king
    election.results.append(
        ElectionResult(
            KINGDOMS[k],
            tuple(election.participants),
            tuple(election.dice[:-1]),
            tuple(totals),
            kingdom_die,
            kingdom_total,
            king,
        )
    )
    _open_election(table, election, k + 1)


# -- King's Peace ------------------------------------------------------------------------------------------------


def peace_candidates(table: Table, election: Election) -> list[int]:
    """The kingdoms (by index) the offering king may still offer peace to: another kingdom with a king, not at
    King's Peace with his, not offered between the two this phase (so offers end)."""
    k = election.peace_kingdom
    found = []
    for j in range(len(KINGDOMS)):
        if j == k or table.king[j] == NOBODY:
            continue
        pair = pair_index(KINGDOMS[k], KINGDOMS[j])
        if not table.kings_peace[pair] and not election.offered[pair]:
            found.append(j)
    return found


def _next_peace_offer(table: Table, election: Election) -> None:
    """The current king offers again if he still may; else the next kingdom's king in kingdom order; else over."""
    k = max(election.peace_kingdom, 0)
    while k < len(KINGDOMS):
        election.peace_kingdom = k
        if table.king[k] != NOBODY and peace_candidates(table, election):
            election.step, election.actor, election.target = PEACE_OFFER, table.king[k], NOBODY
            return
        k += 1
    election.peace_kingdom = len(KINGDOMS)
    election.step, election.actor, election.target = OVER, NOBODY, NOBODY


def offer_peace(table: Table, election: Election, to: int) -> None:
    """The king offers peace to kingdom `to`; its king answers, unless he is the same player, who simply declares
    it (VA-39)."""
    pair = pair_index(KINGDOMS[election.peace_kingdom], KINGDOMS[to])
    election.offered[pair] = True
    election.peace_to = to
    if table.king[to] == table.king[election.peace_kingdom]:
        table.kings_peace[pair] = True
        _next_peace_offer(table, election)
        return
    election.step, election.actor = PEACE_ANSWER, table.king[to]


def answer_peace(table: Table, election: Election, accept: bool) -> None:
    """The other king accepts (the King's Peace holds) or declines."""
    if accept:
        table.kings_peace[pair_index(KINGDOMS[election.peace_kingdom], KINGDOMS[election.peace_to])] = True
    election.peace_to = -1
    _next_peace_offer(table, election)


def pass_peace(table: Table, election: Election) -> None:
    """The king makes no (further) offer; the next kingdom's king may."""
    election.peace_kingdom += 1
    _next_peace_offer(table, election)


def done(election: Election) -> bool:
    """Whether phase 3 is over."""
    return election.step == OVER
