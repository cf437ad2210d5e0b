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
ending when every seat has passed in succession (VA-35), or under `election_bids: sealed` one hidden pledge (or
pass) per seat with silver and roll, all shown together before the dice (`begin_sealed`, `pledge`, `reveal`); paid
silver leaves the game (VA-36, `bid_silver`); the margin is over every other total, the kingdom's included (VA-37,
`election_margin`); a gift window before each election's bids, in seat order, each player giving silver to any
players until he passes (VA-38, `gifts`); at the end of the phase each king in kingdom order may offer peace to
another king, who accepts or declines (VA-39, `kings_peace`). A seat with no silver has nothing to give or pay and
is not asked (silver is public, so skipping him reveals nothing; in a sealed round the seats with silver when it
begins are asked on every roll, even once their pledges hold all their silver, so that nothing asked tells an
amount). The camp bonus counts all his camps, trading and war (VA-34). Each die is a chance node
(VA-07): the participants' in seat order, then the kingdom's.

The cards of the election (`cards.elections`) come in here as contests on the same steps: OGILTIGT
KUNGAVAL holds the just held election again from the start (`invalidate`); KUNG is a duel between the challenger and
the king, or the kingdom if it has none, with bets on either roll, open or sealed as the election's (`challenge`);
INFLYTANDE VID KUNGAVAL adds 2 to one roll (`influence`). A contest set up in the window after a result runs when
the window closes, and the phase then goes on where it stood (`Election.resume`). Gifts may be cards as well as
silver (VA-38): a giver with cards in hand may name a receiver for a card (`choose_card_gift`) and then the card
(`give_card`).
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple, Protocol

from skald.engine import IllegalAction, OptionError
from skald.games.vikingatid import actions as A
from skald.games.vikingatid.actions import KINGDOMS, MAX_AMOUNT, ActionSpace
from skald.games.vikingatid.cards.data import CardData
from skald.games.vikingatid.cards.deck import Deck
from skald.games.vikingatid.cards.deck import give as give_card_from_hand
from skald.games.vikingatid.position import KINGDOM_PAIRS, Position, pair_index
from skald.games.vikingatid.resample import GIVEN, CardMove
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.steps import (
    BID_AMOUNT,
    BID_TARGET,
    ELECTION_ROLL,
    GIFT_AMOUNT,
    GIFT_CARD,
    GIFT_TARGET,
    PEACE_ANSWER,
    PEACE_OFFER,
    SEALED_BID,
    seat_order,
)

#: The step value once phase 3 is over.
OVER: Final = -1
#: A payment's target that is the kingdom's own roll.
KINGDOM_ROLL_TARGET: Final = -1
#: The margin a king needs over every other total (rule text: "at least three points higher").
MARGIN: Final = 3
#: Camps per +1 on the election roll (rule text: "+ 1 for each three camps").
CAMPS_PER_POINT: Final = 3
#: What INFLYTANDE VID KUNGAVAL adds to one roll ("This card gives the player +2 on any one dice roll").
INFLUENCE: Final = 2
#: The kinds of contest a result comes from: an election (held again after OGILTIGT KUNGAVAL as well) or a KUNG duel.
ELECTION_CONTEST: Final = "election"
CHALLENGE_CONTEST: Final = "challenge"
#: The `election_bids` value with hidden payments (VA-35).
SEALED: Final = "sealed"
#: The `gifts` values phase 3 plays; 'any_window' is refused (see `check_rules`).
PLAYABLE_GIFTS: Final = ("before_elections", "off")


class ElectionRules(NamedTuple):
    """The rule options phase 3 reads (VA-34 – VA-39)."""

    gifts: str = "before_elections"
    foreign_king_only: str = "election"
    bid_silver: str = "bank"
    election_margin: str = "over_all"
    kings_peace: str = "this_turn"
    election_bids: str = "open"


def check_rules(rules: ElectionRules) -> None:
    """Refuse the values phase 3 cannot play, rather than play them under a name that promises more (OptionError).

    `gifts: any_window` (VA-38: gifts also in every card window) would put a giver, a receiver and an amount or a
    card into each of the card windows, whose round knows only a card or a pass (VA-09); it is refused until the
    window has gift steps."""
    if rules.gifts not in PLAYABLE_GIFTS:
        raise OptionError(
            f"options.gifts: {rules.gifts!r} is not playable yet (gifts inside card windows need gift steps in the "
            "window's round, VA-09/VA-38); use 'before_elections' or 'off'"
        )


class Pledge(NamedTuple):
    """A sealed payment as shown at the reveal (VA-35 `sealed`): the kingdom whose election (or KUNG duel) it was,
    who pledged, onto which roll (a participant's seat or KINGDOM_ROLL_TARGET), what he pledged, and what he paid
    (less than pledged only if a card left him short of silver before the reveal)."""

    kingdom: str
    seat: int
    roll: int
    pledged: int
    paid: int


class ElectionResult(NamedTuple):
    """One kingdom's election or KUNG duel: participants, their dice and totals, the kingdom's die and total (0 and 0
    in a duel against a king: the kingdom does not roll), the king (or -1), which contest it was, and whether it
    still stands (False once OGILTIGT KUNGAVAL voided it)."""

    kingdom: str
    participants: tuple[int, ...]
    dice: tuple[int, ...]
    totals: tuple[int, ...]
    kingdom_die: int
    kingdom_total: int
    king: int
    contest: str = ELECTION_CONTEST
    valid: bool = True


class Election:
    """Phase 3 under way: which kingdom, the step and who acts, the gift and bidding rounds, payments, INFLYTANDE's
    bonuses, dice, the King's Peace offers, and the results so far; a card's contest (KUNG's `challenger`, who rolls,
    where the phase goes on after it) and the throne before each election (which OGILTIGT KUNGAVAL restores). Plain
    class, cloned through its constructor (mypyc-ready)."""

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
            self.bonus: list[int] = list(source.bonus)
            self.kingdom_bonus: int = source.kingdom_bonus
            self.kingdom_rolls: bool = source.kingdom_rolls
            self.challenger: int = source.challenger
            self.challenge_modifiers: bool = source.challenge_modifiers
            self.resume: int = source.resume
            self.prior_king: list[int] = list(source.prior_king)
            self.dice: list[int] = list(source.dice)
            self.peace_kingdom: int = source.peace_kingdom
            self.peace_to: int = source.peace_to
            self.offered: list[bool] = list(source.offered)
            self.results: list[ElectionResult] = list(source.results)
            self.sealed_seats: list[int] = list(source.sealed_seats)
            self.sealed_rolls: list[int] = list(source.sealed_rolls)
            self.sealed_at: int = source.sealed_at
            self.pledges: list[list[int]] = [list(row) for row in source.pledges]
            self.sealed_plies: list[int] = list(source.sealed_plies)
            self.sealed_silver: list[int] = list(source.sealed_silver)
            self.shown: list[Pledge] = list(source.shown)
            return
        check_rules(rules)
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
        # INFLYTANDE VID KUNGAVAL's +2s on each participant's roll and on the kingdom's.
        self.bonus = [0] * num_players
        self.kingdom_bonus = 0
        # Whether the kingdom rolls (not in a KUNG duel against a king).
        self.kingdom_rolls = True
        # KUNG's challenger while his duel is under way (-1 in an election), and whether the election's modifiers
        # count in it (`king_modifiers: election`).
        self.challenger = NOBODY
        self.challenge_modifiers = False
        # The kingdom index the phase goes on from once a card's contest has its result (-1: no contest).
        self.resume = -1
        # Each kingdom's king before its election this phase (OGILTIGT KUNGAVAL voids the result).
        self.prior_king = [NOBODY] * len(KINGDOMS)
        self.dice = []
        self.peace_kingdom = -1
        self.peace_to = -1
        self.offered = [False] * len(KINGDOM_PAIRS)
        self.results = []
        # The sealed round under way (`election_bids: sealed`, VA-35): the seats that take part (those with silver
        # when it began, in seat order from the first seat), the rolls in their public order, the decision reached
        # (seat `sealed_at // len(rolls)`, roll `sealed_at % len(rolls)`), each seat's pledges per roll (hidden
        # until the reveal), and for each decision made its ply in the history and the decider's silver then
        # (public: what a resampler needs to deal the pledges again).
        self.sealed_seats = []
        self.sealed_rolls = []
        self.sealed_at = 0
        self.pledges = []
        self.sealed_plies = []
        self.sealed_silver = []
        # Every sealed payment shown this phase, in the order shown (public).
        self.shown = []

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


def participants(position: Position, kingdom: str) -> list[int]:
    """The seats that roll in a kingdom's election: its members and a current king from elsewhere, in seat order."""
    found = position.members(kingdom)
    king = position.king[KINGDOMS.index(kingdom)]
    if king != NOBODY and king not in found:
        found = sorted([*found, king])
    return found


def holds_election(position: Position, kingdom: str, rules: ElectionRules) -> bool:
    """Whether the kingdom elects this turn: it has members, or a king from elsewhere under `foreign_king_only:
    election` (VA-34); under `keeps_throne` a foreign king with no members keeps the throne without a vote."""
    if position.members(kingdom):
        return True
    if position.king[KINGDOMS.index(kingdom)] == NOBODY:
        return False
    return rules.foreign_king_only == "election"


def camp_bonus(position: Position, seat: int) -> int:
    """+1 per three camps the player has on the map, rounded down, unless he is alone in his country (an emigrant
    is alone in his home country); camps in separatist areas are not his and give no bonus (VA-22)."""
    if position.emigrated[seat] or position.members(position.kingdom_of(seat)) == [seat]:
        return 0
    return position.controlled_total(seat) // CAMPS_PER_POINT


def modifier(position: Position, election: Election, seat: int) -> int:
    """Everything added to a participant's die: camps, the throne, silver paid onto his roll, INFLYTANDE VID
    KUNGAVAL's +2s. In a KUNG duel only the bets and the cards count ("Anyone can bet money like in a normal
    election"), unless `king_modifiers: election` brings in the camps and the throne."""
    added = election.paid[seat] + election.bonus[seat]
    if election.challenger != NOBODY and not election.challenge_modifiers:
        return added
    throne = 1 if position.king[election.kingdom] == seat else 0
    return camp_bonus(position, seat) + throne + added


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


def begin(position: Position, rules: ElectionRules, deck: Deck | None = None) -> Election:
    """Phase 3 starts: a King's Peace of the last turn ends under `kings_peace: this_turn` (VA-39); the first
    kingdom that holds an election opens, or the King's Peace offers if none does. `deck` gives the hands, for gifts
    of cards (None: silver only)."""
    if rules.kings_peace == "this_turn":
        position.kings_peace = [False] * len(KINGDOM_PAIRS)
    election = Election(position.num_players, rules)
    _open_election(position, election, 0, deck)
    return election


def _open_election(position: Position, election: Election, start: int, deck: Deck | None) -> None:
    """Open the first kingdom from `start` on that holds an election (gifts first), or the King's Peace offers."""
    for k in range(start, len(KINGDOMS)):
        if holds_election(position, KINGDOMS[k], election.rules):
            _start_election(position, election, k, deck)
            return
    election.kingdom = len(KINGDOMS)
    election.peace_kingdom = -1
    _next_peace_offer(position, election)


def _fresh_rolls(position: Position, election: Election, k: int) -> None:
    """Kingdom `k`'s rolls start clean: no payments, no bonuses, no dice, bidding from the turn's first seat."""
    election.kingdom = k
    election.paid = [0] * position.num_players
    election.kingdom_paid = 0
    election.bonus = [0] * position.num_players
    election.kingdom_bonus = 0
    election.dice = []
    election.bid_order = seat_order(position.first_seat, position.num_players)
    election.bid_pointer = 0
    election.passes = 0
    _end_sealed(election)


def _start_election(position: Position, election: Election, k: int, deck: Deck | None) -> None:
    """Kingdom `k`'s election from the start: its throne noted (for OGILTIGT KUNGAVAL), its participants, the gift
    window in seat order, then the bids."""
    _fresh_rolls(position, election, k)
    election.prior_king[k] = position.king[k]
    election.participants = participants(position, KINGDOMS[k])
    election.kingdom_rolls = True
    election.challenger = NOBODY
    order = seat_order(position.first_seat, position.num_players)
    election.gift_queue = list(order) if election.rules.gifts != "off" else []
    _next_gift(position, election, deck)


def _has_gift(position: Position, deck: Deck | None, seat: int) -> bool:
    """Whether a seat has anything to give: silver, or a card (VA-38: "Players may give silver or cards")."""
    return position.silver[seat] > 0 or (deck is not None and deck.hand_size(seat) > 0)


def _next_gift(position: Position, election: Election, deck: Deck | None) -> None:
    """Ask the first seat in the gift window that has silver or a card to give; then the bidding."""
    while election.gift_queue and not _has_gift(position, deck, election.gift_queue[0]):
        election.gift_queue.pop(0)
    if election.gift_queue:
        election.step, election.actor, election.target = GIFT_TARGET, election.gift_queue[0], NOBODY
        return
    _open_bids(position, election)


def _open_bids(position: Position, election: Election) -> None:
    """The bidding of the contest under way begins: open rounds, or one sealed round (VA-35 `election_bids`)."""
    if election.rules.election_bids == SEALED:
        begin_sealed(position, election)
    else:
        _next_bidder(position, election)


def _next_bidder(position: Position, election: Election) -> None:
    """Ask the next seat with silver in the bidding round; a seat without silver passes. When every seat has passed
    in succession, the dice are rolled."""
    n = position.num_players
    while election.passes < n:
        seat = election.bid_order[election.bid_pointer]
        if position.silver[seat] > 0:
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


def dice_to_roll(election: Election) -> int:
    """The dice of the contest under way: one per participant, and the kingdom's unless a king defends in a duel."""
    return len(election.participants) + (1 if election.kingdom_rolls else 0)


# -- legal choices -----------------------------------------------------------------------------------------------


def gift_targets(position: Position, election: Election) -> list[int]:
    """The seats the giver may give silver to: every other seat, if he has silver."""
    if position.silver[election.actor] <= 0:
        return []
    return [s for s in range(position.num_players) if s != election.actor]


def card_gift_targets(position: Position, election: Election, deck: Deck) -> list[int]:
    """The seats the giver may give a card to: every other seat, if he holds a card (VA-38)."""
    if deck.hand_size(election.actor) <= 0:
        return []
    return [s for s in range(position.num_players) if s != election.actor]


def card_gift_kinds(election: Election, deck: Deck) -> list[int]:
    """The kinds the giver may give at GIFT_CARD: each kind he holds."""
    return deck.kinds_held(election.actor)


def bid_targets(election: Election) -> list[int]:
    """The rolls a payment may go onto: each participant's (by seat), then the kingdom's (KINGDOM_ROLL_TARGET) if
    it rolls (in a KUNG duel against a king it does not)."""
    if election.kingdom_rolls:
        return [*election.participants, KINGDOM_ROLL_TARGET]
    return list(election.participants)


def amounts(position: Position, election: Election) -> range:
    """The amounts the actor may give or pay: 1 up to all his silver (at most MAX_AMOUNT in one action; more takes
    another action, and payments add up)."""
    return range(1, min(position.silver[election.actor], MAX_AMOUNT) + 1)


# -- the decisions ----------------------------------------------------------------------------------------------


def choose_gift(election: Election, receiver: int) -> None:
    """The giver names the receiver of silver; the amount follows."""
    election.step, election.target = GIFT_AMOUNT, receiver


def choose_card_gift(election: Election, receiver: int) -> None:
    """The giver names the receiver of a card; the card follows (its kind seen only by the two, VA-38)."""
    election.step, election.target = GIFT_CARD, receiver


def give(position: Position, election: Election, n: int, deck: Deck | None = None) -> None:
    """The gift takes effect at once (VA-38); the giver may give again until he passes."""
    position.give_silver(election.actor, election.target, n)
    _next_gift(position, election, deck)


def give_card(position: Position, election: Election, deck: Deck, kind: int) -> None:
    """The card passes to the receiver's hand at once (VA-38: "Players may give silver or cards to each other"; it
    counts towards his hand, VA-11); the giver may give again until he passes."""
    give_card_from_hand(deck, election.actor, election.target, kind)
    _next_gift(position, election, deck)


def pass_gift(position: Position, election: Election, deck: Deck | None = None) -> None:
    """The giver is done for this window."""
    election.gift_queue.pop(0)
    _next_gift(position, election, deck)


def choose_roll(election: Election, target: int) -> None:
    """The bidder names the roll (a participant's seat or KINGDOM_ROLL_TARGET); the amount follows."""
    election.step, election.target = BID_AMOUNT, target


def _pay_onto(position: Position, election: Election, seat: int, target: int, n: int) -> None:
    """`n` silver of `seat`'s goes onto roll `target`: to the bank (VA-36 'bank') or the kingdom's treasury
    ('treasury')."""
    if election.rules.bid_silver == "treasury":
        position.pay_treasury(seat, KINGDOMS[election.kingdom], n)
    else:
        position.spend_silver(seat, n)
    if target == KINGDOM_ROLL_TARGET:
        election.kingdom_paid += n
    else:
        election.paid[target] += n


def pay(position: Position, election: Election, n: int) -> None:
    """The payment goes onto the roll (`_pay_onto`); it starts a new round (VA-35)."""
    _pay_onto(position, election, election.actor, election.target, n)
    election.passes = 0
    election.bid_pointer = (election.bid_pointer + 1) % position.num_players
    _next_bidder(position, election)


def pass_bid(position: Position, election: Election) -> None:
    """The bidder passes this round."""
    election.passes += 1
    election.bid_pointer = (election.bid_pointer + 1) % position.num_players
    _next_bidder(position, election)


# -- sealed payments (`election_bids: sealed`, VA-35) -------------------------------------------------------------


def begin_sealed(position: Position, election: Election) -> None:
    """The sealed round begins ("each player makes one hidden set of payments, and all are shown together"): each
    seat with silver now, in seat order from the turn's first seat, decides once per roll of the contest, in the
    rolls' public order (each participant's in seat order, then the kingdom's if it rolls). Silver is public, so who
    takes part is public; the number of decisions and who makes each depend on nothing hidden."""
    election.sealed_seats = [seat for seat in election.bid_order if position.silver[seat] > 0]
    election.sealed_rolls = bid_targets(election)
    election.sealed_at = 0
    election.pledges = [[0] * len(election.sealed_rolls) for _ in range(position.num_players)]
    election.sealed_plies = []
    election.sealed_silver = []
    _next_sealed(position, election)


def _end_sealed(election: Election) -> None:
    """No sealed round under way (its pledges shown, or a contest starting afresh)."""
    election.sealed_seats = []
    election.sealed_rolls = []
    election.sealed_at = 0
    election.pledges = []
    election.sealed_plies = []
    election.sealed_silver = []


def sealed_decisions(election: Election) -> int:
    """The decisions of the sealed round under way: one per taking part seat and roll."""
    return len(election.sealed_seats) * len(election.sealed_rolls)


def _next_sealed(position: Position, election: Election) -> None:
    """Ask the next decision of the sealed round; after the last, show every pledge, and the dice follow."""
    rolls = len(election.sealed_rolls)
    at = election.sealed_at
    if at < sealed_decisions(election):
        seat, target = election.sealed_seats[at // rolls], election.sealed_rolls[at % rolls]
        election.step, election.actor, election.target = SEALED_BID, seat, target
        return
    reveal(position, election)
    election.step, election.actor, election.target = ELECTION_ROLL, NOBODY, NOBODY


def pledged(election: Election, seat: int) -> int:
    """What `seat` has pledged so far in the sealed round under way (hidden from the others until the reveal)."""
    return sum(election.pledges[seat]) if election.pledges else 0


def sealed_amounts(position: Position, election: Election) -> range:
    """The amounts the decider may pledge on the roll asked: 1 up to his silver less what he has already pledged
    this round, at most MAX_AMOUNT on one roll. None once his pledges hold all his silver: he is still asked (only
    a pass is legal), so that the decisions asked tell nothing of the amounts."""
    seat = election.actor
    room = min(position.silver[seat] - pledged(election, seat), MAX_AMOUNT)
    return range(1, max(room, 0) + 1)


def last_sealed(election: Election) -> bool:
    """Whether the decision asked now is the sealed round's last: its pledge is shown at once, with all the others."""
    return election.step == SEALED_BID and election.sealed_at == sealed_decisions(election) - 1


def pledge(position: Position, election: Election, n: int, ply: int) -> list[int]:
    """The decider pledges `n` silver on the roll asked (0: he passes); no silver moves and no roll changes yet.
    `ply` is the decision's place in the history. After the round's last decision every pledge is shown
    (`reveal`), and the plies of the round's decisions are returned for the state to make public; until then []."""
    seat = election.actor
    election.sealed_plies.append(ply)
    election.sealed_silver.append(position.silver[seat])
    if n > 0:
        election.pledges[seat][election.sealed_at % len(election.sealed_rolls)] += n
    election.sealed_at += 1
    plies = list(election.sealed_plies)
    _next_sealed(position, election)
    return plies if election.step != SEALED_BID else []


def reveal(position: Position, election: Election) -> None:
    """Every pledge is shown and moves onto its roll at once, seat by seat in the round's order, each seat's roll
    by roll in the rolls' order: silver to the bank or the kingdom's treasury (VA-36), +1 on the roll a silver. A
    seat whose silver a card has cut below its pledges since it pledged pays what it can, in the rolls' order (the
    rest of its pledge lapses). Each pledge, with what was paid, goes into `shown`, which everyone sees."""
    kingdom = KINGDOMS[election.kingdom]
    for seat in election.sealed_seats:
        for pos, target in enumerate(election.sealed_rolls):
            n = election.pledges[seat][pos]
            if n <= 0:
                continue
            paid = min(n, position.silver[seat])
            if paid > 0:
                _pay_onto(position, election, seat, target, paid)
            election.shown.append(Pledge(kingdom, seat, target, n, paid))
    _end_sealed(election)


def deal_pledges(election: Election, seat: int, rng: random.Random) -> list[tuple[int, int]]:
    """For `resample_from_infostate(seat)`: the pledges of the round under way that `seat` has not seen (every
    other seat's) dealt again. Each decision becomes a pass or an amount, uniformly among those its decider's silver
    then allowed after the pledges dealt to him before; only public facts are read (who decided, on which roll, his
    silver then). Returns each dealt decision's ply and amount (0: a pass); `election` takes the new pledges."""
    if not election.sealed_plies:
        return []
    rolls = len(election.sealed_rolls)
    for other in range(election.num_players):
        if other != seat:
            election.pledges[other] = [0] * rolls
    spent = [0] * election.num_players
    dealt: list[tuple[int, int]] = []
    for i, ply in enumerate(election.sealed_plies):
        decider = election.sealed_seats[i // rolls]
        if decider == seat:
            continue
        room = max(min(election.sealed_silver[i] - spent[decider], MAX_AMOUNT), 0)
        n = rng.randrange(room + 1)
        spent[decider] += n
        election.pledges[decider][i % rolls] = n
        dealt.append((ply, n))
    return dealt


def roll(position: Position, election: Election, face: int, deck: Deck | None = None) -> None:
    """The next die shows `face`; after the last die the result (an election's or a KUNG duel's), and the phase
    goes on: to the next kingdom, or back where it stood before a card's contest."""
    election.dice.append(face)
    if len(election.dice) < dice_to_roll(election):
        return
    k = election.kingdom
    if election.challenger != NOBODY:
        _duel_result(position, election, k)
    else:
        _election_result(position, election, k)
    following = election.resume if election.resume >= 0 else k + 1
    election.resume = -1
    election.challenger = NOBODY
    election.kingdom_rolls = True
    _open_election(position, election, following, deck)


def _totals(position: Position, election: Election) -> list[int]:
    """Each participant's die with everything added to it."""
    return [
        face + modifier(position, election, seat)
        for seat, face in zip(election.participants, election.dice, strict=False)
    ]


def _election_result(position: Position, election: Election, k: int) -> None:
    """An election's result: a king three clear (VA-37), or none (the counter in the kingdom)."""
    totals = _totals(position, election)
    kingdom_die = election.dice[-1]
    kingdom_total = kingdom_die + election.kingdom_paid + election.kingdom_bonus
    winner = king_of(totals, kingdom_total, election.rules.election_margin)
    king = election.participants[winner] if winner >= 0 else NOBODY
    _crown(position, election, k, king)
    _record(election, k, totals, kingdom_die, kingdom_total, king)


def _duel_result(position: Position, election: Election, k: int) -> None:
    """KUNG's duel: "If the player rolls higher, he becomes king"; on a tie or a lower roll the king (or the
    kingdom) keeps the throne (VA-19)."""
    totals = _totals(position, election)
    challenger = election.challenger
    mine = totals[election.participants.index(challenger)]
    if election.kingdom_rolls:
        kingdom_die = election.dice[-1]
        kingdom_total = kingdom_die + election.kingdom_paid + election.kingdom_bonus
        other = kingdom_total
    else:
        kingdom_die, kingdom_total = 0, 0
        other = max(t for seat, t in zip(election.participants, totals, strict=False) if seat != challenger)
    king = challenger if mine > other else position.king[k]
    _crown(position, election, k, king)
    _record(election, k, totals, kingdom_die, kingdom_total, king, CHALLENGE_CONTEST)


def _record(
    election: Election,
    k: int,
    totals: list[int],
    kingdom_die: int,
    kingdom_total: int,
    king: int,
    contest: str = ELECTION_CONTEST,
) -> None:
    """The result of a contest for kingdom `k`'s throne, kept for the table and the log."""
    election.results.append(
        ElectionResult(
            KINGDOMS[k],
            tuple(election.participants),
            tuple(election.dice[: len(election.participants)]),
            tuple(totals),
            kingdom_die,
            kingdom_total,
            king,
            contest,
        )
    )


def _crown(position: Position, election: Election, k: int, king: int) -> None:
    """The counter goes to `king` (or into the kingdom); under `kings_peace: while_both_reign` a new king ends the
    kingdom's King's Peace (VA-39)."""
    if election.rules.kings_peace == "while_both_reign" and king != position.king[k]:
        for i, pair in enumerate(KINGDOM_PAIRS):
            if k in pair:
                position.kings_peace[i] = False
    position.king[k] = king


# -- the election cards (`cards.elections`) ------------------------------------------------------------------------


def contest_pending(election: Election) -> bool:
    """Whether a card's contest (a new election, a KUNG duel) is set up or under way: no other may be set up until
    it has its result (and its own window after it)."""
    return election.resume >= 0


def just_held(election: Election) -> int:
    """The kingdom (by index) of the last result this phase ("the just held election"), or -1."""
    if not election.results:
        return -1
    return KINGDOMS.index(election.results[-1].kingdom)


def held_this_phase(election: Election) -> list[int]:
    """The kingdoms (by index) that have had an election this phase, in kingdom order."""
    found = {KINGDOMS.index(result.kingdom) for result in election.results}
    return sorted(found)


def own_kingdom(position: Position, seat: int) -> int:
    """The Viking kingdom (by index) a seat belongs to, or -1 for an emigrant (who may come back only through KUNG,
    VA-61) or a seat without one."""
    kingdom = position.kingdom_of(seat)
    if position.emigrated[seat] or kingdom not in KINGDOMS:
        return -1
    return KINGDOMS.index(kingdom)


def invalidate(position: Position, election: Election, deck: Deck | None) -> int:
    """OGILTIGT KUNGAVAL: "The just held election is not valid. A new election is to be held. All players may bet
    new money. Former bets are lost." Its results this phase (a KUNG duel's after it too) are marked void, the
    throne goes back to whoever held it before that election, and the election is held again from the start (gifts,
    bids, dice); the silver already paid stays paid. Returns the kingdom (by index)."""
    k = just_held(election)
    name = KINGDOMS[k]
    election.results = [r._replace(valid=False) if r.kingdom == name else r for r in election.results]
    _crown(position, election, k, election.prior_king[k])
    election.resume = election.kingdom
    election.peace_kingdom = -1
    _start_election(position, election, k, deck)
    return k


def challenge(position: Position, election: Election, seat: int, k: int, modifiers: bool) -> None:
    """KUNG: the challenger and the current king of kingdom `k` (or the kingdom, if it has no king) each roll a D10,
    after open bets on either roll, with the money bet before not counted again ("Anyone can bet money like in a
    normal election. Money that was bet before is not counted again"); no gift window. `modifiers`: whether camps
    and the throne count (`king_modifiers: election`)."""
    election.resume = election.kingdom
    election.peace_kingdom = -1
    _fresh_rolls(position, election, k)
    king = position.king[k]
    election.participants = sorted([seat, king]) if king != NOBODY else [seat]
    election.kingdom_rolls = king == NOBODY
    election.challenger = seat
    election.challenge_modifiers = modifiers
    election.gift_queue = []
    _open_bids(position, election)


def influence_targets(election: Election, seat: int, own_only: bool) -> list[int]:
    """The rolls INFLYTANDE VID KUNGAVAL may go onto now: any roll of the contest under way, each participant's (by
    seat) and the kingdom's (KINGDOM_ROLL_TARGET) if it rolls; under `election_influence: own_roll` only the
    player's own. None outside a contest (before its gifts, or once its result is in)."""
    if not 0 <= election.kingdom < len(KINGDOMS) or election.step not in (
        GIFT_TARGET,
        BID_TARGET,
        SEALED_BID,
        ELECTION_ROLL,
    ):
        return []
    if own_only:
        return [seat] if seat in election.participants else []
    return bid_targets(election)


def influence(election: Election, target: int) -> None:
    """+2 on the roll named (a participant's seat or KINGDOM_ROLL_TARGET), counted when the result is reckoned."""
    if target == KINGDOM_ROLL_TARGET:
        election.kingdom_bonus += INFLUENCE
    else:
        election.bonus[target] += INFLUENCE


# -- King's Peace ------------------------------------------------------------------------------------------------


def peace_candidates(position: Position, election: Election) -> list[int]:
    """The kingdoms (by index) the offering king may still offer peace to: another kingdom with a king, not at
    King's Peace with his, not offered between the two this phase (so offers end)."""
    k = election.peace_kingdom
    found = []
    for j in range(len(KINGDOMS)):
        if j == k or position.king[j] == NOBODY:
            continue
        pair = pair_index(KINGDOMS[k], KINGDOMS[j])
        if not position.kings_peace[pair] and not election.offered[pair]:
            found.append(j)
    return found


def _next_peace_offer(position: Position, election: Election) -> None:
    """The current king offers again if he still may; else the next kingdom's king in kingdom order; else over."""
    k = max(election.peace_kingdom, 0)
    while k < len(KINGDOMS):
        election.peace_kingdom = k
        if position.king[k] != NOBODY and peace_candidates(position, election):
            election.step, election.actor, election.target = PEACE_OFFER, position.king[k], NOBODY
            return
        k += 1
    election.peace_kingdom = len(KINGDOMS)
    election.step, election.actor, election.target = OVER, NOBODY, NOBODY


def offer_peace(position: Position, election: Election, to: int) -> None:
    """The king offers peace to kingdom `to`; its king answers, unless he is the same player, who simply declares
    it (VA-39)."""
    pair = pair_index(KINGDOMS[election.peace_kingdom], KINGDOMS[to])
    election.offered[pair] = True
    election.peace_to = to
    if position.king[to] == position.king[election.peace_kingdom]:
        position.kings_peace[pair] = True
        _next_peace_offer(position, election)
        return
    election.step, election.actor = PEACE_ANSWER, position.king[to]


def answer_peace(position: Position, election: Election, accept: bool) -> None:
    """The other king accepts (the King's Peace holds) or declines."""
    if accept:
        position.kings_peace[pair_index(KINGDOMS[election.peace_kingdom], KINGDOMS[election.peace_to])] = True
    election.peace_to = -1
    _next_peace_offer(position, election)


def pass_peace(position: Position, election: Election) -> None:
    """The king makes no (further) offer; the next kingdom's king may."""
    election.peace_kingdom += 1
    _next_peace_offer(position, election)


def refresh(position: Position, election: Election, deck: Deck | None) -> None:
    """Ask again where a card has emptied what the actor was about to give or pay (he may play a card before his
    own decision, VA-08: his last card before naming it, or one that costs him silver): a giver with nothing left
    is done, a bidder without silver passes."""
    seat = election.actor
    if seat < 0:
        return
    step = election.step
    no_card = deck is None or deck.hand_size(seat) == 0
    no_silver = position.silver[seat] <= 0
    if step in (GIFT_TARGET, GIFT_AMOUNT, GIFT_CARD):
        if (step == GIFT_CARD and no_card) or (step == GIFT_AMOUNT and no_silver) or (no_card and no_silver):
            _next_gift(position, election, deck)
    elif step in (BID_TARGET, BID_AMOUNT) and no_silver:
        _next_bidder(position, election)


def all_held(election: Election) -> bool:
    """Whether every kingdom's election (and any card's contest) has its result: the moment of the one window
    after all three under `election_cards_window: end_of_phase` (VA-19)."""
    return election.kingdom >= len(KINGDOMS) and election.resume < 0


def done(election: Election) -> bool:
    """Whether phase 3 is over."""
    return election.step == OVER


# -- the steps (`step_rules.STEP_RULES`): the gifts, the payments, the election roll and the King's Peace ----------


class ElectionTable(Protocol):
    """What phase 3's steps read of the state (`situation.Situation` is one): the table, the election, the hands,
    the history and its card moves, and `show` to make sealed pledges public."""

    num_players: int
    history: list[int]
    position: Position
    election: Election
    deck: Deck
    card_moves: list[CardMove]

    @property
    def space(self) -> ActionSpace: ...

    @property
    def cards(self) -> CardData: ...

    def show(self, plies: list[int]) -> None: ...


def legal_gift_target(table: ElectionTable) -> list[int]:
    """A pass, or a seat to give silver or a card to."""
    position, election = table.position, table.election
    silver_to = [A.GIVE_SILVER + s for s in gift_targets(position, election)]
    cards_to = [A.GIVE_CARD_TO + s for s in card_gift_targets(position, election, table.deck)]
    return [A.PASS, *silver_to, *cards_to]


def apply_gift_target(table: ElectionTable, action: int) -> None:
    """The giver passes, or names the receiver of his silver or card."""
    election = table.election
    if action == A.PASS:
        pass_gift(table.position, election, table.deck)
    elif action >= A.GIVE_CARD_TO:
        choose_card_gift(election, action - A.GIVE_CARD_TO)
    else:
        choose_gift(election, action - A.GIVE_SILVER)


def explain_gift_target(table: ElectionTable, action: int) -> IllegalAction:
    """Why a gift may not go to that seat: himself, nothing to give, or no such seat."""
    election = table.election
    card = action >= A.GIVE_CARD_TO
    seat = action - (A.GIVE_CARD_TO if card else A.GIVE_SILVER)
    if seat == election.actor:
        return IllegalAction("VA-38", "a gift goes to another player, not to yourself")
    if 0 <= seat < table.num_players:
        what = "card" if card else "silver"
        return IllegalAction("VA-38", f"seat {election.actor + 1} has no {what} to give")
    return IllegalAction("VA-38", f"there is no seat {seat + 1} at this table of {table.num_players}")


def legal_amount(table: ElectionTable) -> list[int]:
    """How much silver the giver may give, or the payer pay (GIFT_AMOUNT, BID_AMOUNT)."""
    return [A.AMOUNT + n - 1 for n in amounts(table.position, table.election)]


def apply_gift_amount(table: ElectionTable, action: int) -> None:
    """The giver gives that much silver."""
    give(table.position, table.election, action - A.AMOUNT + 1, table.deck)


def _explain_amount(table: ElectionTable, action: int, rule: str) -> IllegalAction:
    election = table.election
    return IllegalAction(
        rule,
        f"seat {election.actor + 1} has {table.position.silver[election.actor]} silver, not {action - A.AMOUNT + 1} "
        "('Each player may pay up to all of his silver')",
    )


def explain_gift_amount(table: ElectionTable, action: int) -> IllegalAction:
    """A gift of more silver than the giver has (VA-38)."""
    return _explain_amount(table, action, "VA-38")


def legal_gift_card(table: ElectionTable) -> list[int]:
    """The kinds of card the giver holds."""
    return [A.GIVE_CARD + kind for kind in card_gift_kinds(table.election, table.deck)]


def apply_gift_card(table: ElectionTable, action: int) -> None:
    """The giver hands a card of that kind to the receiver (a card move, seen by the two alone)."""
    election = table.election
    kind = action - A.GIVE_CARD
    table.card_moves.append(CardMove(len(table.history), GIVEN, election.actor, election.target, kind))
    give_card(table.position, election, table.deck, kind)


def explain_gift_card(table: ElectionTable, action: int) -> IllegalAction:
    """A card the giver does not hold."""
    title = table.cards.kinds[action - A.GIVE_CARD].title
    return IllegalAction("VA-38", f"seat {table.election.actor + 1} holds no {title} to give")


def legal_bid_target(table: ElectionTable) -> list[int]:
    """A pass, or a roll to pay onto: a seat's, or the kingdom's."""
    rolls = bid_targets(table.election)
    return [A.PASS, *(A.PAY_ONTO_KINGDOM if r == KINGDOM_ROLL_TARGET else A.PAY_ONTO + r for r in rolls)]


def apply_bid_target(table: ElectionTable, action: int) -> None:
    """The payer passes, or chooses the roll he pays onto."""
    if action == A.PASS:
        pass_bid(table.position, table.election)
    else:
        target = KINGDOM_ROLL_TARGET if action == A.PAY_ONTO_KINGDOM else action - A.PAY_ONTO
        choose_roll(table.election, target)


def explain_bid_target(table: ElectionTable, action: int) -> IllegalAction:
    """A roll onto a seat that does not roll in this election."""
    seat = action - A.PAY_ONTO
    return IllegalAction(
        "3. King's election",
        f"seat {seat + 1} does not roll in {table.space.kingdom_names[table.election.kingdom_id]}'s election "
        "(its members roll, and a current king from another country)",
    )


def apply_bid_amount(table: ElectionTable, action: int) -> None:
    """The payer pays that much silver onto the roll."""
    pay(table.position, table.election, action - A.AMOUNT + 1)


def explain_bid_amount(table: ElectionTable, action: int) -> IllegalAction:
    """A payment of more silver than the payer has (VA-35)."""
    return _explain_amount(table, action, "VA-35")


def legal_sealed_bid(table: ElectionTable) -> list[int]:
    """A pass, or a pledge the seat's silver left in this sealed round covers."""
    return [A.PASS, *(A.AMOUNT + n - 1 for n in sealed_amounts(table.position, table.election))]


def apply_sealed_bid(table: ElectionTable, action: int) -> None:
    """A pledge in secret (a pass pledges nothing); the round's last shows them all."""
    n = 0 if action == A.PASS else action - A.AMOUNT + 1
    table.show(pledge(table.position, table.election, n, len(table.history)))


def explain_sealed_bid(table: ElectionTable, action: int) -> IllegalAction:
    """A pledge beyond the silver the seat has left in this sealed round."""
    position, election = table.position, table.election
    seat = election.actor
    most = len(sealed_amounts(position, election))
    return IllegalAction(
        "VA-35",
        f"seat {seat + 1} has {position.silver[seat]} silver and has pledged "
        f"{pledged(election, seat)} of it in this sealed round: at most {most} more on this roll, "
        f"not {action - A.AMOUNT + 1} ('Each player may pay up to all of his silver')",
    )


def apply_election_roll(table: ElectionTable, action: int) -> None:
    """A D10 of the election."""
    roll(table.position, table.election, action - A.ROLL + 1, table.deck)


def legal_peace_offer(table: ElectionTable) -> list[int]:
    """A pass, or a kingdom to offer a King's Peace to."""
    return [A.PASS, *(A.OFFER_PEACE + k for k in peace_candidates(table.position, table.election))]


def apply_peace_offer(table: ElectionTable, action: int) -> None:
    """The king passes, or offers a King's Peace."""
    if action == A.PASS:
        pass_peace(table.position, table.election)
    else:
        offer_peace(table.position, table.election, action - A.OFFER_PEACE)


def explain_peace_offer(table: ElectionTable, action: int) -> IllegalAction:
    """A kingdom no King's Peace can be offered to."""
    return IllegalAction(
        "VA-39",
        f"no King's Peace can be offered to {table.space.kingdom_names[KINGDOMS[action - A.OFFER_PEACE]]}: "
        "it needs a king of another kingdom, not already at King's Peace with yours or offered it this phase",
    )


def legal_peace_answer(table: ElectionTable) -> list[int]:
    """Accept or decline."""
    return [A.ACCEPT_PEACE, A.DECLINE_PEACE]


def apply_peace_answer(table: ElectionTable, action: int) -> None:
    """The other king accepts or declines the King's Peace."""
    answer_peace(table.position, table.election, action == A.ACCEPT_PEACE)
