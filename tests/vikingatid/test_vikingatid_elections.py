"""Phase 3, "King's election" (rule text, 3.; VA-34 – VA-39): who rolls, the modifiers, the three-point margin, open
payments in rounds, gifts before each election, and the King's Peace at the end of the phase."""

from __future__ import annotations

import random

import pytest
from vikingatid_kit import at_phase, play_randomly, position_for, roll

from skald.engine import CHANCE, IllegalAction
from skald.games.vikingatid import elections as E
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    ACCEPT_PEACE,
    AMOUNT,
    DECLINE_PEACE,
    GIVE_SILVER,
    OFFER_PEACE,
    PASS,
    PAY_ONTO,
    PAY_ONTO_KINGDOM,
)
from skald.games.vikingatid.position import Position, pair_index, problems
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.state import VikingatidState

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def amount(n: int) -> int:
    """The id of an amount."""
    return AMOUNT + n - 1


def play(state: VikingatidState, *actions: int) -> VikingatidState:
    """Apply actions in order."""
    for action in actions:
        state.apply(action)
    return state


def elections_at(position: Position, **options: str) -> VikingatidState:
    """A state at the start of phase 3 on `position`."""
    return at_phase(position, S.ELECTIONS, **options)


def test_a_kingdom_without_players_holds_no_election() -> None:
    """'there is a king's election in the three Viking kingdoms ... if there are any players in the respective
    country': two Danes, so only Denmark rolls: the two members and the kingdom."""
    state = elections_at(position_for(2, ("denmark", "denmark")))
    assert state.step == S.ELECTION_ROLL and state.election.participants == [0, 1]
    play(state, roll(1), roll(1), roll(1))
    assert [r.kingdom for r in state.election.results] == ["denmark"]
    assert state.position.phase == S.BUYING_SHIPS  # phases 4 and 5 follow


def test_three_points_over_every_other_roll_makes_a_king() -> None:
    """'If one player rolls at least three points higher than any other player, he is king for the current turn':
    8 against 5 and 4 is king; the counter goes in front of him."""
    state = elections_at(position_for(3, ("denmark", "denmark", "norway")))
    play(state, roll(8), roll(5), roll(4))  # seat 0, seat 1, the kingdom
    assert state.position.king[DENMARK] == 0
    result = state.election.results[0]
    assert result.totals == (8, 5) and result.kingdom_total == 4 and result.king == 0


def test_two_points_clear_is_not_enough() -> None:
    """'If no player rolls sufficiently high ... no player is king for this turn': 7 against 5."""
    state = elections_at(position_for(2, ("denmark", "denmark")))
    play(state, roll(7), roll(5), roll(1))
    assert state.position.king[DENMARK] == NOBODY


def test_the_country_rolling_highest_means_no_king() -> None:
    """'or the country rolls highest, no player is king'; under VA-37 'over_all' the kingdom's roll needs the same
    three-point margin: a lone Norwegian's 9 against the kingdom's 7 is no king."""
    state = elections_at(position_for(2, ("denmark", "norway")))
    play(state, roll(1), roll(10))  # Denmark: seat 0 rolls 1, the kingdom 10
    assert state.position.king[DENMARK] == NOBODY
    play(state, roll(9), roll(7))
    assert state.position.king[NORWAY] == NOBODY


def test_over_players_needs_only_to_beat_the_kingdom() -> None:
    """VA-37 option 'over_players': three over every player's total and merely higher than the kingdom's."""
    state = elections_at(position_for(2, ("denmark", "norway")), election_margin="over_players")
    play(state, roll(6), roll(5))
    assert state.position.king[DENMARK] == 0


def test_the_throne_adds_one() -> None:
    """'+ 1 if the player is currently on the throne': the king's 5 is 6, three over the other member's 3."""
    position = position_for(2, ("denmark", "denmark"))
    position.king[DENMARK] = 0
    state = elections_at(position)
    play(state, roll(5), roll(3), roll(1))
    assert state.election.results[0].totals == (6, 3) and state.position.king[DENMARK] == 0


def test_every_three_camps_add_one_unless_alone_in_his_country() -> None:
    """'+ 1 for each three camps the player has on the map, rounded down (not valid if the player is alone in his
    country)': 7 camps give +2 to a Dane with a countryman, nothing to a lone Norwegian."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.build_camps(0, "trading", "gotland", 1)
    position.build_camps(0, "trading", "mercien", 2)
    position.build_camps(0, "trading", "valland", 4)
    position.build_camps(2, "trading", "frisland", 2)
    position.build_camps(2, "war", "frisland", 1)
    assert sum(position.camps[0]) == 7 and sum(position.camps[2]) == 3
    state = elections_at(position)
    assert E.camp_bonus(state.position, 0) == 2 and E.camp_bonus(state.position, 2) == 0
    play(state, roll(1), roll(1), roll(1))
    assert state.election.results[0].totals == (3, 1)


def test_a_king_from_another_country_takes_part() -> None:
    """'Even a player from another country may participate if he is the current king': a Norwegian king of Denmark
    rolls in Denmark's election (and in Norway's)."""
    position = position_for(3, ("denmark", "norway", "norway"))
    position.king[DENMARK] = 1
    state = elections_at(position)
    assert state.election.participants == [0, 1]


def test_a_foreign_king_alone_still_faces_the_kingdom() -> None:
    """VA-34 'election': with no members but a king from elsewhere, the election is held between him and the
    kingdom; 'keeps_throne': no election, he stays king."""
    position = position_for(2, ("norway", "norway"))
    position.king[DENMARK] = 0
    state = elections_at(position)
    assert state.election.kingdom_id == "denmark" and state.election.participants == [0]
    kept_position = position_for(2, ("norway", "norway"))
    kept_position.king[DENMARK] = 0
    kept = elections_at(kept_position, foreign_king_only="keeps_throne")
    assert kept.election.kingdom_id == "norway"
    play(kept, roll(1), roll(1), roll(9))
    assert kept.position.king[DENMARK] == 0


def rich_danes() -> Position:
    """Two Danes (seats 0 and 1) and a Norwegian (seat 2); seat 0 has 5 silver, seat 1 has 3, seat 2 none."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.gain_silver(0, 5)
    position.gain_silver(1, 3)
    return position


def test_payments_add_to_the_roll_and_leave_the_game() -> None:
    """'+ 1 per silver the player paid before the roll' onto 'his own, another player's or the country's' roll;
    the silver leaves the game (VA-36 'bank')."""
    state = elections_at(rich_danes(), gifts="off")
    assert state.step == S.BID_TARGET and state.current_player() == 0
    assert state.legal_actions() == [PASS, PAY_ONTO + 0, PAY_ONTO + 1, PAY_ONTO_KINGDOM]
    play(state, PAY_ONTO + 0, amount(4))
    assert state.position.silver[0] == 1 and state.position.silver_out == 4
    play(state, PAY_ONTO_KINGDOM, amount(2))  # seat 1 pays onto the kingdom's roll
    play(state, PASS, PASS)  # seat 0 (1 left), seat 1 (1 left); seat 2 has none and is not asked
    assert state.current_player() == CHANCE
    play(state, roll(3), roll(9), roll(1))
    result = state.election.results[0]
    assert result.totals == (7, 9) and result.kingdom_total == 3
    assert problems(state.position) == []


def test_paid_silver_goes_to_the_treasury_under_that_option() -> None:
    """VA-36 option 'treasury': the payment goes into the kingdom's treasury."""
    state = elections_at(rich_danes(), gifts="off", bid_silver="treasury")
    play(state, PAY_ONTO + 1, amount(5))
    assert state.position.treasury[DENMARK] == 5 and state.position.silver[0] == 0 and problems(state.position) == []


def test_a_payment_starts_a_new_round() -> None:
    """VA-35: any payment starts a new round; bidding ends only when every seat has passed in succession, the payer
    included."""
    state = elections_at(rich_danes(), gifts="off")
    play(state, PASS)  # seat 0
    play(state, PAY_ONTO + 1, amount(1))  # seat 1
    assert state.current_player() == 0  # seat 2 has no silver; seat 0 is asked again
    play(state, PASS, PASS)
    assert state.current_player() == CHANCE


def test_no_one_pays_more_than_all_his_silver() -> None:
    """'Each player may pay up to all of his silver': 6 from 5 is refused naming the rule; nothing changes."""
    state = elections_at(rich_danes(), gifts="off")
    play(state, PAY_ONTO + 0)
    assert state.legal_actions() == [amount(n) for n in range(1, 6)]
    before = state.observation(None)
    with pytest.raises(IllegalAction) as error:
        state.apply(amount(6))
    assert error.value.rule == "VA-35" and "5 silver" in error.value.reason
    assert state.observation(None) == before


def test_only_rolls_of_the_election_take_payments() -> None:
    """'to modify any of the dice rolls (his own, another player's or the country's)': seat 3 does not roll in
    Denmark's election."""
    state = elections_at(rich_danes(), gifts="off")
    with pytest.raises(IllegalAction, match="does not roll in Danavalde's election"):
        state.apply(PAY_ONTO + 2)


def test_payment_notation_reads_as_the_rulebook_speaks() -> None:
    """'pay 3 silver onto Danavalde's roll', and it parses back."""
    state = elections_at(rich_danes(), gifts="off")
    assert state.action_to_notation(PAY_ONTO_KINGDOM) == "pay onto Danavalde's roll"
    play(state, PAY_ONTO_KINGDOM)
    assert state.action_to_notation(amount(3)) == "pay 3 silver onto Danavalde's roll"
    assert state.action_from_notation("pay 3 silver onto Danavalde's roll") == amount(3)


def test_gifts_before_the_bids() -> None:
    """'Players may give silver or cards to each other' (VA-38): in seat order before the bids, a gift takes effect
    at once and the giver may give again until he passes."""
    state = elections_at(rich_danes())
    assert state.step == S.GIFT_TARGET and state.current_player() == 0
    assert state.legal_actions() == [PASS, GIVE_SILVER + 1, GIVE_SILVER + 2]
    play(state, GIVE_SILVER + 2)
    assert state.action_to_notation(amount(2)) == "give 2 silver to seat 3"
    play(state, amount(2))
    assert state.position.silver == [3, 3, 2] and state.current_player() == 0
    play(state, PASS, PASS, PASS)  # seats 0, 1, 2
    assert state.step == S.BID_TARGET and problems(state.position) == []


def test_a_gift_goes_to_another_player() -> None:
    """VA-38: giving to oneself is no gift; refused naming the item, the state unchanged."""
    state = elections_at(rich_danes())
    before = state.observation(None)
    with pytest.raises(IllegalAction) as error:
        state.apply(GIVE_SILVER + 0)
    assert error.value.rule == "VA-38" and state.observation(None) == before


def test_gifts_off_skips_the_gift_window() -> None:
    """VA-38 option 'off': no gifts; the bids come first."""
    assert elections_at(rich_danes(), gifts="off").step == S.BID_TARGET


def kings_of_all() -> VikingatidState:
    """Three players, one per kingdom, each elected king (10 against the kingdom's 1)."""
    state = elections_at(position_for(3, ("denmark", "norway", "sweden")))
    play(state, roll(10), roll(1), roll(10), roll(1), roll(10), roll(1))
    assert state.position.king == [0, 1, 2]
    return state


def test_kings_may_announce_a_kings_peace_at_the_end_of_the_election_phase() -> None:
    """'If two Viking kings agree, they can announce a King's Peace at the end of the Election phase' (VA-39): the
    Danish king offers, the Norwegian accepts."""
    state = kings_of_all()
    assert state.step == S.PEACE_OFFER and state.current_player() == 0
    assert state.legal_actions() == [PASS, OFFER_PEACE + NORWAY, OFFER_PEACE + SWEDEN]
    play(state, OFFER_PEACE + NORWAY)
    assert state.step == S.PEACE_ANSWER and state.current_player() == 1
    play(state, ACCEPT_PEACE)
    assert state.position.kings_peace[pair_index("denmark", "norway")]
    play(state, OFFER_PEACE + SWEDEN, DECLINE_PEACE)
    assert not state.position.kings_peace[pair_index("denmark", "sweden")]
    # Denmark has offered to both (no offer twice between two kingdoms in one phase, so offers end): Norway next.
    assert state.step == S.PEACE_OFFER
    assert state.current_player() == 1 and state.legal_actions() == [PASS, OFFER_PEACE + SWEDEN]
    play(state, PASS)
    assert state.current_player() == 2 and state.legal_actions() == [PASS, OFFER_PEACE + NORWAY]
    play(state, PASS)
    assert state.position.phase == S.BUYING_SHIPS


def test_no_kings_peace_without_two_kings() -> None:
    """A King's Peace needs two kings: with one king there is no offer and the phase ends."""
    state = elections_at(position_for(2, ("denmark", "norway")))
    play(state, roll(10), roll(1), roll(1), roll(10))
    assert state.position.king == [0, NOBODY, NOBODY] and state.position.phase == S.BUYING_SHIPS


def test_last_turns_kings_peace_ends_when_kings_are_elected_anew() -> None:
    """VA-39 'this_turn': a peace lasts the rest of the turn it is made in; 'while_both_reign': while both stay
    kings."""
    position = position_for(2, ("denmark", "norway"))
    position.king = [0, 1, NOBODY]
    position.kings_peace[pair_index("denmark", "norway")] = True
    assert not any(elections_at(position.clone()).position.kings_peace)
    reign = elections_at(position.clone(), kings_peace="while_both_reign")
    assert reign.position.kings_peace[pair_index("denmark", "norway")]
    play(reign, roll(10), roll(1))  # Denmark keeps its king
    assert reign.position.kings_peace[pair_index("denmark", "norway")]
    play(reign, roll(1), roll(10))  # Norway loses its king
    assert not reign.position.kings_peace[pair_index("denmark", "norway")]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"gifts": "off"},
        {"bid_silver": "treasury", "election_margin": "over_players"},
        {"kings_peace": "while_both_reign"},
    ],
)
def test_random_elections_keep_every_invariant(options: dict[str, str]) -> None:
    """Random gifts, payments, rolls and peace offers with silver in hand: silver conserved and never negative, the
    kings valid, after every action."""
    rng = random.Random(11)
    for players in (2, 3, 4, 5, 6):
        for _ in range(10):
            kingdoms = tuple(rng.choice(("denmark", "norway", "sweden")) for _ in range(players))
            position = position_for(players, kingdoms, first_seat=rng.randrange(players))
            for seat in range(players):
                silver = rng.choice((0, 0, 3, 12, 40))
                if silver:
                    position.gain_silver(seat, silver)
            position.king = [rng.choice((NOBODY, *range(players))) for _ in range(3)]
            state = elections_at(position, **options)
            play_randomly(state, rng)
            assert state.position.turn == 2 or state.is_terminal()
