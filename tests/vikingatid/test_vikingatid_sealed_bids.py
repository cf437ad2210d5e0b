"""Sealed election payments (VA-35, option `election_bids: sealed`): "each player makes one hidden set of payments,
and all are shown together". The rulings' "Hidden information": a seat sees "its own payments until all are shown
together"; no seat sees "another player's sealed payments before they are shown"; "Showing sealed payments reveals
them all at once". Rule text (3. King's election): "Before the dice roll, all players may pay silver to influence
this roll"; "Each player may pay up to all of his silver to modify any of the dice rolls (his own, another player's
or the country's)"."""

from __future__ import annotations

import random

import pytest
from vikingatid_kit import GAME, at_phase, fixed_state, play_randomly, position_for, roll

from skald.bots import make_bot
from skald.engine import CHANCE, IllegalAction
from skald.games.vikingatid import elections as E
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import AMOUNT, CARD_IDS, PASS, PLAY_CARD, TARGET_KINGDOM
from skald.games.vikingatid.cards import deck as D
from skald.games.vikingatid.cards.windows import AFTER_ELECTION
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.situation import PUBLIC
from skald.games.vikingatid.state import VikingatidState, position_at
from skald.sim.check import views

DENMARK = 0
KINGDOM = E.KINGDOM_ROLL_TARGET
KING = CARD_IDS.index("king")
SEALED = {"election_bids": "sealed", "gifts": "off"}


def amount(n: int) -> int:
    """The id of an amount."""
    return AMOUNT + n - 1


def danes() -> Position:
    """Two Danes (seats 0, 1), a Norwegian (seat 2) and a Swede (seat 3): 5, 3, 2 and no silver."""
    position = position_for(4, ("denmark", "denmark", "norway", "sweden"))
    position.gain_silver(0, 5)
    position.gain_silver(1, 3)
    position.gain_silver(2, 2)
    return position


def since_start(information: str) -> str:
    """An information-state string without the digest of the start position it leads with."""
    return information.split(" ", 1)[1] if information.startswith("@") else information


def sealed_at(position: Position, **options: str) -> VikingatidState:
    """Phase 3 on `position` under `election_bids: sealed` (no gifts unless asked)."""
    return at_phase(position, S.ELECTIONS, **{**SEALED, **options})


def decide(state: VikingatidState, *actions: int) -> list[tuple[int, int]]:
    """Apply sealed decisions in order; returns (seat, roll) of each decision asked."""
    asked = []
    for action in actions:
        assert state.step == S.SEALED_BID, S.STEPS[state.step].name
        asked.append((state.current_player(), state.election.target))
        state.apply(action)
    return asked


def until_revealed(state: VikingatidState, choose: random.Random | None = None) -> list[tuple[int, int]]:
    """Every decision of the sealed round under way: a pass each, or random legal choices with `choose`."""
    asked = []
    while state.step == S.SEALED_BID:
        action = PASS if choose is None else choose.choice(state.legal_actions())
        asked.extend(decide(state, action))
    return asked


# -- the round -----------------------------------------------------------------------------------------------------


def test_each_seat_with_silver_decides_once_per_roll_in_a_fixed_order() -> None:
    """VA-35 'sealed': each seat with silver (silver is public), in seat order from the first seat, decides once on
    each roll, the participants' in seat order then the kingdom's; the order and number of decisions are the same
    whatever is pledged. The Swede has no silver and is not asked."""
    expected = [(seat, roll_) for seat in (0, 1, 2) for roll_ in (0, 1, KINGDOM)]
    passing = sealed_at(danes())
    assert passing.election.participants == [0, 1]
    assert until_revealed(passing) == expected
    spending = sealed_at(danes())
    assert decide(spending, amount(5)) == [(0, 0)]
    assert until_revealed(spending) == expected[1:]
    for seed in range(5):
        assert until_revealed(sealed_at(danes()), random.Random(seed)) == expected


def test_the_first_seat_decides_first() -> None:
    """'Bidding goes ... starting from the turn's first seat' (VA-35): with seat 2 first, seat 2 decides first,
    then 0 and 1 (the rolls keep their order)."""
    position = danes()
    position.first_seat = 2
    state = sealed_at(position)
    asked = until_revealed(state)
    assert [seat for seat, _ in asked] == [2, 2, 2, 0, 0, 0, 1, 1, 1]
    assert [target for _, target in asked[:3]] == [0, 1, KINGDOM]


def test_a_seat_whose_pledges_hold_all_its_silver_is_still_asked() -> None:
    """The number of decisions must not tell the amounts: seat 0 pledges its 5 silver on its own roll and is still
    asked on the others, where only a pass is legal."""
    state = sealed_at(danes())
    decide(state, amount(5))
    assert state.current_player() == 0 and state.election.target == 1
    assert state.legal_actions() == [PASS]
    decide(state, PASS)
    assert state.current_player() == 0 and state.election.target == KINGDOM and state.legal_actions() == [PASS]


def test_pledges_move_no_silver_until_the_reveal() -> None:
    """A pledge is not paid until all are shown: silver, the payments on the rolls and the treasuries stay as they
    were through the round."""
    state = sealed_at(danes())
    silver, treasury = list(state.position.silver), list(state.position.treasury)
    decide(state, amount(3), amount(1), PASS, PASS, amount(2), amount(1), PASS, PASS)
    assert state.position.silver == silver and state.position.treasury == treasury
    assert state.election.paid == [0, 0, 0, 0] and state.election.kingdom_paid == 0
    assert state.election.shown == [] and state.step == S.SEALED_BID


def test_the_reveal_moves_every_pledge_at_once() -> None:
    """'all are shown together': after the last decision every pledge goes onto its roll (paid silver leaves the
    game, VA-36 'bank'), then the dice; the totals count them."""
    state = sealed_at(danes())
    decide(state, amount(3), amount(1), PASS, PASS, amount(2), amount(1), PASS, PASS, amount(2))
    assert state.step == S.ELECTION_ROLL
    assert state.position.silver == [1, 0, 0, 0]
    assert state.election.paid == [3, 3, 0, 0] and state.election.kingdom_paid == 3
    assert [(p.seat, p.roll, p.pledged, p.paid) for p in state.election.shown] == [
        (0, 0, 3, 3),
        (0, 1, 1, 1),
        (1, 1, 2, 2),
        (1, KINGDOM, 1, 1),
        (2, KINGDOM, 2, 2),
    ]
    for face in (6, 2, 1):
        state.apply(roll(face))
    result = state.election.results[0]
    assert result.totals == (9, 5) and result.kingdom_total == 4
    assert problems(state.position) == []


def test_the_reveal_is_shown_to_every_viewer() -> None:
    """Showing sealed payments "reveals them all at once": after the reveal each seat and a spectator see every
    pledge in the observation, and the information state shows every decision of the round."""
    state = sealed_at(danes())
    decide(state, amount(3), PASS, PASS, PASS, amount(2), PASS, PASS, PASS)
    before = state.information_state_string(None)
    assert before.count("?") == 8
    decide(state, PASS)
    everyone = [p._asdict() for p in state.election.shown]
    assert [(p["seat"], p["pledged"]) for p in everyone] == [(0, 3), (1, 2)]
    for viewer in (0, 1, 2, 3, None):
        assert state.observation(viewer)["election"]["shown"] == everyone
        assert since_start(state.information_state_string(viewer)) == " ".join(map(str, state.history))
    assert all(mask == PUBLIC for mask in state.visible)


def test_the_last_decision_is_public_it_is_shown_at_once() -> None:
    """The round's last decision is shown with all the others the moment it is made, so it is not hidden."""
    state = sealed_at(danes())
    decide(state, *[PASS] * 8)
    assert not state.action_hidden_from(amount(2), 1) and not state.action_hidden_from(PASS, None)
    assert state.notation_for(amount(2), 1) == "pay 2 silver onto Danavalde's roll"


# -- what the others see -------------------------------------------------------------------------------------------


def two_worlds(first: int, second: int) -> tuple[VikingatidState, VikingatidState]:
    """Two states that differ only in seat 0's first pledge, each with the same later decisions, up to seat 1's
    first decision."""
    one, two = sealed_at(danes()), sealed_at(danes())
    decide(one, first, PASS, PASS)
    decide(two, second, PASS, PASS)
    return one, two


@pytest.mark.parametrize("viewer", [1, 2, 3, None])
def test_another_viewer_sees_the_same_whatever_a_seat_pledged(viewer: int | None) -> None:
    """No one sees "another player's sealed payments before they are shown": whether seat 0 pledged 5 or passed,
    every other seat and a spectator get the same observation, information state, text, SVG, seat to move, scores
    and (for the seat to move) legal actions, notations and refusals; they see the pledge only as "seat 1 pledges
    in secret on seat 1's roll"."""
    one, two = two_worlds(amount(5), PASS)
    probes = list(range(-1, GAME.num_distinct_actions + 1))
    for _ in range(4):  # seat 1's decisions, the same in both worlds
        assert views(GAME, one, viewer, probes, record=False) == views(GAME, two, viewer, probes, record=False)
        assert one.legal_actions() == two.legal_actions()
        action = max(one.legal_actions())
        assert [one.notation_for(action, v) for v in (0, 1, 2, 3, None)] == [
            two.notation_for(action, v) for v in (0, 1, 2, 3, None)
        ]
        one.apply(action)
        two.apply(action)


def test_others_read_the_same_notation_for_any_pledge() -> None:
    """The notation of a sealed decision for the others is the same whatever the amount; the decider reads his own."""
    state = sealed_at(danes())
    for action in state.legal_actions():
        for viewer in (1, 2, 3, None):
            assert state.action_hidden_from(action, viewer)
            assert state.notation_for(action, viewer) == "seat 1 pledges in secret on seat 1's roll"
        assert not state.action_hidden_from(action, 0)
    assert state.notation_for(amount(4), 0) == "pay 4 silver onto seat 1's roll"
    assert state.notation_for(PASS, 0) == "pass"


def test_the_decider_sees_its_own_pledges() -> None:
    """Only the seat itself may see "its own payments until all are shown together": seat 0's observation shows
    its pledges per roll and its information state its decisions; seat 1's shows none of seat 0's."""
    state = sealed_at(danes())
    decide(state, amount(4), amount(1), PASS)
    own = state.observation(0)["election"]["sealed"]
    assert own["pledges"] == [4, 1, 0] and own["rolls"] == [0, 1, KINGDOM] and own["seats"] == [0, 1, 2]
    assert state.observation(1)["election"]["sealed"]["pledges"] == [0, 0, 0]
    assert state.observation(3)["election"]["sealed"]["pledges"] is None
    assert state.observation(None)["election"]["sealed"]["pledges"] is None
    assert since_start(state.information_state_string(0)) == " ".join(map(str, state.history))
    assert since_start(state.information_state_string(1)) == "? ? ?"


# -- legality ------------------------------------------------------------------------------------------------------


def test_a_pledge_over_the_silver_left_is_refused_and_changes_nothing() -> None:
    """'Each player may pay up to all of his silver': seat 0 (5 silver) has pledged 4; 2 more is refused naming
    VA-35, and the state is as it was."""
    state = sealed_at(danes())
    decide(state, amount(4))
    assert state.legal_actions() == [PASS, amount(1)]
    before = (list(state.history), [list(row) for row in state.election.pledges], state.observation(0))
    with pytest.raises(IllegalAction) as refused:
        state.apply(amount(2))
    assert refused.value.rule == "VA-35" and "pledged 4" in refused.value.reason
    assert (list(state.history), [list(row) for row in state.election.pledges], state.observation(0)) == before


def test_bid_silver_treasury_takes_the_revealed_pledges() -> None:
    """VA-36 'treasury': at the reveal the pledged silver goes into the kingdom's treasury."""
    state = sealed_at(danes(), bid_silver="treasury")
    decide(state, amount(2), PASS, amount(1), PASS, PASS, amount(3))
    assert state.position.treasury[DENMARK] == 0
    until_revealed(state)
    assert state.position.treasury[DENMARK] == 6 and state.position.silver[:2] == [2, 0]
    assert problems(state.position) == []


def test_a_seat_short_of_its_pledges_at_the_reveal_pays_what_it_can() -> None:
    """If a seat's silver fell below its pledges before the reveal (a card may cost silver), it pays what it has,
    roll by roll in the rolls' order; the rest lapses, and the shown pledge says so."""
    position = danes()
    election = E.begin(position, E.ElectionRules(gifts="off", election_bids="sealed"))
    E.pledge(position, election, 2, 0)
    E.pledge(position, election, 3, 1)
    E.pledge(position, election, 0, 2)
    position.spend_silver(0, 2)  # seat 0 now holds 3 silver against pledges of 5
    for ply in range(3, 9):
        E.pledge(position, election, 0, ply)
    assert election.step == S.ELECTION_ROLL
    assert [(p.roll, p.pledged, p.paid) for p in election.shown] == [(0, 2, 2), (1, 3, 1)]
    assert election.paid[:2] == [2, 1] and position.silver[0] == 0


def test_a_round_with_no_silver_goes_straight_to_the_dice() -> None:
    """No seat with silver, no decision: the dice follow at once."""
    state = sealed_at(position_for(3, ("denmark", "denmark", "norway")))
    assert state.step == S.ELECTION_ROLL


# -- resampling ------------------------------------------------------------------------------------------------------


def mid_round() -> VikingatidState:
    """A whole game under `sealed` played from a seed to the middle of a sealed round with several seats in it."""
    for seed in range(200):
        rng = random.Random(seed)
        state = fixed_state(3, **SEALED, last_year="1100")
        while not state.is_terminal():
            e = state.election
            if state.step == S.SEALED_BID and len(e.sealed_seats) >= 2 and e.sealed_at > len(e.sealed_rolls):
                return state
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance_outcome(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no game reached a sealed round with two seats")


def replayed(state: VikingatidState) -> VikingatidState:
    """A new game with `state`'s history applied."""
    fresh = GAME.new_initial_state(state.num_players, state.options)
    assert isinstance(fresh, VikingatidState)
    for action in state.history:
        fresh.apply(action)
    return fresh


def test_resampling_deals_the_other_seats_pledges_again_and_replays() -> None:
    """`resample_from_infostate(seat)` deals again the other seats' pledges of the round under way (a pass or an
    amount their silver allowed); the seat's own stay; the history replays to the same state, which looks the same
    to the seat and to a spectator."""
    state = mid_round()
    e = state.election
    seat = e.sealed_seats[-1] if e.actor != e.sealed_seats[-1] else e.sealed_seats[0]
    others = [ply for i, ply in enumerate(e.sealed_plies) if e.sealed_seats[i // len(e.sealed_rolls)] != seat]
    assert others
    seen = set()
    for draw in range(12):
        world = state.resample_from_infostate(seat, random.Random(draw))
        again = replayed(world)
        assert again.history == world.history and again.election.pledges == world.election.pledges
        assert world.election.pledges[seat] == e.pledges[seat]
        for viewer in (seat, None):
            assert world.observation(viewer) == state.observation(viewer)
            assert world.information_state_string(viewer) == state.information_state_string(viewer)
        seen.add(tuple(world.history[ply] for ply in others))
    assert len(seen) > 1


def test_two_worlds_a_seat_cannot_tell_apart_resample_alike() -> None:
    """Resampling reads only what the seat knows: two states that differ only in seat 0's pledge resample alike
    for seat 2 from one seed."""
    one, two = two_worlds(amount(5), amount(2))
    decide(one, PASS, amount(3), PASS)
    decide(two, PASS, amount(3), PASS)
    for draw in range(5):
        first = one.resample_from_infostate(2, random.Random(draw))
        second = two.resample_from_infostate(2, random.Random(draw))
        assert first.history == second.history and first.election.pledges == second.election.pledges


# -- KUNG, cards and whole games ---------------------------------------------------------------------------------------


def pass_windows(state: VikingatidState) -> None:
    """Every holder passes in the card windows open now, except the one after an election's result."""
    while state.step == S.CARD_WINDOW and state.window is not None and state.window.kind != AFTER_ELECTION:
        state.apply(PASS)


def test_a_king_duel_takes_sealed_bets() -> None:
    """KUNG: "Anyone can bet money like in a normal election": under 'sealed' the duel's bets are sealed too, one
    decision per seat with silver and roll (the challenger's, then the kingdom's), shown together before the dice.
    The Norwegian (seat 2) challenges Denmark, which elected no king."""
    base = fixed_state(4, **SEALED)
    base.deck.deck[KING] -= 1
    base.deck.hands[2][KING] += 1
    state = position_at(base, danes(), S.ELECTIONS)
    pass_windows(state)
    until_revealed(state)
    for face in (1, 1, 1):  # Denmark: no king
        pass_windows(state)
        state.apply(roll(face))
    pass_windows(state)
    assert state.position.king[DENMARK] == -1 and state.current_player() == 2
    state.apply(PLAY_CARD + KING)
    state.apply(TARGET_KINGDOM + DENMARK)
    assert state.election.challenger == 2 and state.election.participants == [2]
    asked = decide(state, amount(1), amount(2), PASS, amount(1), amount(2), PASS)
    assert asked == [(0, 2), (0, KINGDOM), (1, 2), (1, KINGDOM), (2, 2), (2, KINGDOM)]
    assert state.step == S.ELECTION_ROLL
    assert state.election.paid[2] == 3 and state.election.kingdom_paid == 3
    assert state.position.silver[:3] == [2, 2, 0]
    state.apply(roll(5))
    state.apply(roll(7))
    duel = state.election.results[-1]
    assert duel.contest == "challenge" and duel.totals == (8,) and duel.kingdom_total == 10
    assert state.position.king[DENMARK] == -1
    assert problems(state.position) == [] and D.problems(state.deck) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_sealed_games_end(players: int) -> None:
    """Whole games under 'sealed' with random play end, the table's invariants holding after every action."""
    state = fixed_state(players, election_bids="sealed", last_year="1100")
    play_randomly(state, random.Random(players), limit=60_000, turns=99)
    assert state.is_terminal()


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iters=8"])
def test_bots_make_sealed_pledges_from_what_their_seat_knows(spec: str) -> None:
    """Bots play the sealed round through the contract: each choice is legal, and seat 1's choice is the same
    whether seat 0 pledged 5 or passed (a bot decides on a world resampled from its own information state)."""
    one, two = two_worlds(amount(5), PASS)
    bot = make_bot(spec, seed=3)
    while one.step == S.SEALED_BID:
        choice = bot.step(one)
        assert choice in one.legal_actions()
        if one.current_player() != 0:
            assert bot.step(two) == choice
        one.apply(choice)
        two.apply(choice)
    assert one.step == S.ELECTION_ROLL and problems(one.position) == []
