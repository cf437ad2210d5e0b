"""The cards of the king's election: KUNG and OGILTIGT KUNGAVAL (VA-19), INFLYTANDE VID KUNGAVAL (VA-35),
and gifts of cards before each election (VA-38). Each test cites the card's text or the rule it checks."""

from __future__ import annotations

import random

import pytest
from vikingatid_kit import GAME, at_phase, fixed_state, play_phase_randomly, position_for, roll

from skald.engine import CHANCE, IllegalAction, OptionError
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    AMOUNT,
    CARD_IDS,
    GIVE_CARD,
    GIVE_CARD_TO,
    GIVE_SILVER,
    PASS,
    PAY_ONTO,
    PLAY_CARD,
    TARGET_KINGDOM,
    TARGET_SEAT,
)
from skald.games.vikingatid.cards import deck as D
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.cards.windows import AFTER_ELECTION
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.state import VikingatidState, position_at

DENMARK, NORWAY, SWEDEN = 0, 1, 2
KING = CARD_IDS.index("king")
INVALID = CARD_IDS.index("invalid_election")
INFLUENCE = CARD_IDS.index("election_influence")


def amount(n: int) -> int:
    """The id of an amount."""
    return AMOUNT + n - 1


def hand(state: VikingatidState, seat: int, *kinds: int) -> None:
    """Put cards from the deck into a seat's hand."""
    for kind in kinds:
        state.deck.deck[kind] -= 1
        state.deck.hands[seat][kind] += 1


def elections_at(position: Position, **options: str) -> VikingatidState:
    """A state at the start of phase 3 on `position` (the hands are empty: no window has opened yet)."""
    return at_phase(position, S.ELECTIONS, **options)


def elections_with_hands(position: Position, hands: dict[int, tuple[int, ...]], **options: str) -> VikingatidState:
    """A state at the start of phase 3 on `position` with the hands given, the phase-start window passed."""
    base = fixed_state(position.num_players, **options)
    for seat, kinds in hands.items():
        hand(base, seat, *kinds)
    state = position_at(base, position, S.ELECTIONS)
    pass_windows(state)
    return state


def pass_windows(state: VikingatidState) -> None:
    """Every holder passes in the card windows open now, except the one after an election's result."""
    while state.step == S.CARD_WINDOW and state.window is not None and state.window.kind != AFTER_ELECTION:
        state.apply(PASS)


def dice(state: VikingatidState, *faces: int) -> None:
    """Roll the election dice in order, every card window passed on the way (up to the window after a result)."""
    for face in faces:
        pass_windows(state)
        assert state.current_player() == CHANCE, S.STEPS[state.step].name
        state.apply(roll(face))
    pass_windows(state)


def after_election(state: VikingatidState) -> bool:
    """Whether the window after an election's result is open."""
    return state.step == S.CARD_WINDOW and state.window is not None and state.window.kind == AFTER_ELECTION


def danes_and_a_norwegian(king: int = NOBODY) -> Position:
    """Two Danes (seats 0, 1) and a Norwegian (seat 2), no silver; Denmark's king as given."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.king[DENMARK] = king
    return position


def consistent(state: VikingatidState) -> None:
    """Silver, kings and every card where it belongs."""
    assert problems(state.position) == [] and D.problems(state.deck) == []


# -- KUNG ----------------------------------------------------------------------------------------------------------


def test_king_challenges_the_kingdom_when_it_has_no_king() -> None:
    """KUNG: 'The player and the current king (or the kingdom, if there is no king) each roll a dice. If - the player
    rolls higher, he becomes king.' Denmark elects no king; the Norwegian plays KUNG on Denmark after the result and
    rolls 7 against the kingdom's 6."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, KING)
    dice(state, 5, 5, 4)
    assert state.position.king[DENMARK] == NOBODY and after_election(state)
    assert state.current_player() == 2 and PLAY_CARD + KING in state.legal_actions()
    state.apply(PLAY_CARD + KING)
    assert state.step == S.CARD_TARGET and state.legal_actions() == [TARGET_KINGDOM + DENMARK]
    state.apply(TARGET_KINGDOM + DENMARK)
    assert state.election.participants == [2] and state.election.kingdom_rolls
    dice(state, 7, 6)
    assert state.position.king[DENMARK] == 2
    duel = state.election.results[-1]
    assert duel.contest == "challenge" and duel.totals == (7,) and duel.kingdom_total == 6 and duel.king == 2
    assert state.card_log[-1].card == "king" and "Danavalde" in state.card_log[-1].target
    consistent(state)


def test_king_a_tie_keeps_the_king_on_the_throne() -> None:
    """VA-19: 'On a tie the king keeps the throne' ('If - the player rolls higher, he becomes king'); the king and
    the challenger roll, the kingdom does not."""
    state = elections_at(danes_and_a_norwegian(king=0), gifts="off")
    hand(state, 2, KING)
    dice(state, 9, 2, 1)  # seat 0 is king again (9 + 1 for the throne)
    assert state.position.king[DENMARK] == 0
    state.apply(PLAY_CARD + KING)
    state.apply(TARGET_KINGDOM + DENMARK)
    assert state.election.participants == [0, 2] and not state.election.kingdom_rolls
    dice(state, 5, 5)  # seat 0, seat 2: no throne bonus in the duel (king_modifiers: none)
    assert state.position.king[DENMARK] == 0 and state.election.results[-1].totals == (5, 5)


def test_king_the_challenger_rolling_higher_takes_the_throne() -> None:
    """KUNG: 'If - the player rolls higher, he becomes king': 6 against the king's 5; the elections go on with
    Norway's, where the new king of Denmark is a Norwegian member as before."""
    state = elections_at(danes_and_a_norwegian(king=0), gifts="off")
    hand(state, 2, KING)
    dice(state, 9, 2, 1)
    state.apply(PLAY_CARD + KING)
    state.apply(TARGET_KINGDOM + DENMARK)
    dice(state, 5, 6)
    assert state.position.king[DENMARK] == 2
    assert state.election.kingdom_id == "norway" and state.election.participants == [2]


def test_king_modifiers_election_counts_the_throne() -> None:
    """Option `king_modifiers: election` (VA-19, 'Points still open'): camps and the throne count in the duel, so
    the king's 5 is 6 and beats the challenger's 5."""
    state = elections_at(danes_and_a_norwegian(king=0), gifts="off", king_modifiers="election")
    hand(state, 2, KING)
    dice(state, 9, 2, 1)
    state.apply(PLAY_CARD + KING)
    state.apply(TARGET_KINGDOM + DENMARK)
    dice(state, 5, 5)
    assert state.election.results[-1].totals == (6, 5) and state.position.king[DENMARK] == 0


def test_king_bets_of_the_election_are_not_counted_again() -> None:
    """KUNG: 'Anyone can bet money like in a normal election. Money that was bet before is not counted again': the
    3 silver seat 1 paid onto the king's roll in the election do not count in the duel; new bets go onto either
    roll (the kingdom does not roll against a king)."""
    position = danes_and_a_norwegian(king=0)
    position.gain_silver(1, 5)
    state = elections_at(position, gifts="off")
    hand(state, 2, KING)
    state.apply(PAY_ONTO + 0)
    state.apply(amount(3))
    state.apply(PASS)  # seat 1 passes; seats 0 and 2 have no silver
    dice(state, 9, 2, 1)
    assert state.election.results[-1].totals == (13, 2)
    state.apply(PLAY_CARD + KING)
    state.apply(TARGET_KINGDOM + DENMARK)
    assert state.step == S.BID_TARGET and state.current_player() == 1
    assert state.legal_actions() == [PASS, PAY_ONTO + 0, PAY_ONTO + 2]
    state.apply(PAY_ONTO + 2)
    state.apply(amount(2))  # his last silver: the bidding is over
    dice(state, 6, 5)
    assert state.election.results[-1].totals == (6, 7) and state.position.king[DENMARK] == 2
    assert state.position.silver[1] == 0
    consistent(state)


def test_king_only_on_another_viking_kingdom_than_his_own() -> None:
    """KUNG: 'try to become king of another Viking kingdom than his own': a Dane may not play it after Denmark's
    election; refused naming the card's text, the state unchanged."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 1, KING)
    dice(state, 5, 5, 4)
    assert after_election(state) and state.current_player() == 1
    assert PLAY_CARD + KING not in state.legal_actions()
    before = state.observation(None)
    with pytest.raises(IllegalAction) as error:
        state.apply(PLAY_CARD + KING)
    assert error.value.rule == "VA-19" and "another Viking kingdom" in error.value.reason
    assert state.observation(None) == before


def test_king_only_right_after_an_election() -> None:
    """KUNG: '(Play immediately after Election.)': not in the window after an election die."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, KING)
    state.apply(roll(5))
    assert state.step == S.CARD_WINDOW and state.window is not None and state.window.kind == windows.AFTER_ROLL
    assert state.legal_actions() == [PASS]


def test_king_end_of_phase_may_name_any_kingdom_that_voted() -> None:
    """Option `election_cards_window: end_of_phase` (VA-19): one window after all three elections, even when King's
    Peace offers follow; KUNG may name any kingdom that held an election this phase, other than his own."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    state = elections_at(position, gifts="off", election_cards_window="end_of_phase")
    hand(state, 0, KING)
    dice(state, 10, 1, 10, 1)  # Denmark: seat 0 king; Norway: seat 1 king
    assert not after_election(state)
    dice(state, 10, 1)  # Sweden: seat 2 king; three kings, so King's Peace offers follow
    assert after_election(state) and state.current_player() == 0
    state.apply(PLAY_CARD + KING)
    assert state.legal_actions() == [TARGET_KINGDOM + NORWAY, TARGET_KINGDOM + SWEDEN]
    state.apply(TARGET_KINGDOM + SWEDEN)
    dice(state, 8, 3)  # seat 0, seat 2
    assert state.position.king == [0, 1, 0]
    while after_election(state):
        state.apply(PASS)
    assert state.step == S.PEACE_OFFER and state.current_player() == 0


# -- OGILTIGT KUNGAVAL ---------------------------------------------------------------------------------------------


def test_invalid_election_is_held_again_and_former_bets_are_lost() -> None:
    """OGILTIGT KUNGAVAL: 'The just held election is not valid. A new election is to be held. All players may bet
    new money. Former bets are lost.' Seat 0 was made king with 3 silver paid; the card voids it (the throne goes
    back), the 3 silver stay paid, and the new election starts from its bids with nothing on the rolls."""
    position = danes_and_a_norwegian()
    position.gain_silver(0, 5)
    state = elections_at(position, gifts="off")
    hand(state, 2, INVALID, KING)
    state.apply(PAY_ONTO + 0)
    state.apply(amount(3))
    state.apply(PASS)
    dice(state, 7, 5, 4)  # 10 against 5 and 4: seat 0 is king
    assert state.position.king[DENMARK] == 0 and after_election(state)
    state.apply(PLAY_CARD + INVALID)
    assert state.position.king[DENMARK] == NOBODY and not state.election.results[0].valid
    while after_election(state):
        state.apply(PASS)
    assert state.step == S.BID_TARGET and state.election.kingdom_id == "denmark"
    assert state.election.paid == [0, 0, 0] and state.position.silver[0] == 2
    state.apply(PASS)
    dice(state, 2, 9, 1)
    assert state.position.king[DENMARK] == 1 and state.election.results[-1].valid
    assert state.card_log[-1].card == "invalid_election"
    consistent(state)


def test_invalid_election_the_new_result_gets_its_own_window() -> None:
    """'(Play immediately after Election.)': the new election's result opens the window again, so KUNG (or another
    OGILTIGT KUNGAVAL) may follow it; the phase then goes on with Norway's election."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, INVALID, KING)
    dice(state, 5, 5, 4)
    state.apply(PLAY_CARD + INVALID)
    # The window goes round again; seat 2 may not set up a second contest while the new election waits.
    assert state.legal_actions() == [PASS]
    state.apply(PASS)
    dice(state, 5, 4, 2)
    assert after_election(state) and state.position.king[DENMARK] == NOBODY
    assert PLAY_CARD + KING in state.legal_actions()
    state.apply(PASS)
    assert state.election.kingdom_id == "norway"


def test_invalid_election_restores_the_king_from_before_it() -> None:
    """OGILTIGT KUNGAVAL voids 'the just held election': the king who reigned before it is the current king again
    and rolls in the new election with his throne bonus."""
    state = elections_at(danes_and_a_norwegian(king=1), gifts="off")
    hand(state, 2, INVALID)
    dice(state, 9, 1, 1)
    assert state.position.king[DENMARK] == 0
    state.apply(PLAY_CARD + INVALID)
    assert state.position.king[DENMARK] == 1
    dice(state, 1, 1, 1)
    assert state.election.results[-1].totals == (1, 2)


# -- INFLYTANDE VID KUNGAVAL ---------------------------------------------------------------------------------------


def test_election_influence_adds_two_to_any_one_roll() -> None:
    """INFLYTANDE VID KUNGAVAL: 'This card gives the player +2 on any one dice roll at the election': played by
    the Norwegian in the window after the first Danish die, on seat 1's roll, which makes 6 a clear 8 over 5 and
    the kingdom's 1."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, INFLUENCE)
    state.apply(roll(5))
    assert state.window is not None and state.window.kind == windows.AFTER_ROLL
    state.apply(PLAY_CARD + INFLUENCE)
    assert state.legal_actions() == [TARGET_SEAT + 0, TARGET_SEAT + 1, TARGET_KINGDOM + DENMARK]
    state.apply(TARGET_SEAT + 1)
    dice(state, 6, 1)
    result = state.election.results[-1]
    assert result.dice == (5, 6) and result.totals == (5, 8) and state.position.king[DENMARK] == 1


def test_election_influence_on_the_kingdoms_roll() -> None:
    """'+2 on any one dice roll': the kingdom's roll too (its 3 becomes 5), so seat 0's 7 is no longer three
    clear (VA-37 'over_all')."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, INFLUENCE)
    dice(state, 7, 1)
    state.apply(roll(3))  # the kingdom's die, held back
    state.apply(PLAY_CARD + INFLUENCE)
    state.apply(TARGET_KINGDOM + DENMARK)
    # The +2 is public: every viewer is shown the card and the roll it went on.
    for viewer in (None, 0, 1, 2):
        shown = state.observation(viewer)["cards"]["shown"][-1]
        assert shown["card"] == "election_influence" and "+2 on" in shown["target"] and "roll" in shown["target"]
    pass_windows(state)
    assert state.election.results[-1].kingdom_total == 5 and state.position.king[DENMARK] == NOBODY


def test_an_election_bonus_is_shown_to_every_viewer_while_the_roll_waits() -> None:
    """INFLYTANDE's +2 lies on the table for all to see: while the window after the kingdom's die is still open,
    every viewer's observation shows the kingdom's roll +2 (the rulings' Hidden information: every card played, with
    its target, is public)."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, INFLUENCE)
    hand(state, 0, INFLUENCE)  # a second holder keeps the window open after the card
    dice(state, 7, 1)
    state.apply(roll(3))
    while state.current_player() != 2:
        state.apply(PASS)
    state.apply(PLAY_CARD + INFLUENCE)
    state.apply(TARGET_KINGDOM + DENMARK)
    assert state.step == S.CARD_WINDOW
    assert all(state.observation(v)["election"]["kingdom_bonus"] == 2 for v in (None, 0, 1, 2))


def test_election_influence_own_roll_only_for_a_participant() -> None:
    """Option `election_influence: own_roll`: the +2 goes on the player's own roll, so the Norwegian, who does not
    roll in Denmark's election, cannot play it there; a Dane can, on his roll only."""
    state = elections_at(danes_and_a_norwegian(), gifts="off", election_influence="own_roll")
    hand(state, 2, INFLUENCE)
    hand(state, 1, INFLUENCE)
    state.apply(roll(5))
    assert state.current_player() == 1
    state.apply(PLAY_CARD + INFLUENCE)
    assert state.legal_actions() == [TARGET_SEAT + 1]
    state.apply(TARGET_SEAT + 1)
    assert state.current_player() == 2 and state.legal_actions() == [PASS]


def test_election_influence_not_outside_the_election() -> None:
    """'(Play during Election phase.)': not in the window after the result (the next election's dice are not yet
    under way there)."""
    state = elections_at(danes_and_a_norwegian(), gifts="off")
    hand(state, 2, INFLUENCE)
    dice(state, 5, 5, 4)
    assert after_election(state) and state.legal_actions() == [PASS]


# -- gifts of cards (VA-38) ----------------------------------------------------------------------------------------


def test_gifts_of_cards_before_the_election() -> None:
    """'Players may give silver or cards to each other' (VA-38): a Dane with a card and no silver is asked; he names
    the receiver, then the card; it passes to the receiver's hand at once and he may give again."""
    state = elections_with_hands(danes_and_a_norwegian(), {0: (KING, INVALID)})
    assert state.step == S.GIFT_TARGET and state.current_player() == 0
    assert state.legal_actions() == [PASS, GIVE_CARD_TO + 1, GIVE_CARD_TO + 2]
    state.apply(GIVE_CARD_TO + 2)
    assert state.step == S.GIFT_CARD and state.legal_actions() == [GIVE_CARD + KING, GIVE_CARD + INVALID]
    assert state.action_to_notation(GIVE_CARD + KING) == "give KUNG to seat 3"
    state.apply(GIVE_CARD + KING)
    assert state.deck.hands[0][KING] == 0 and state.deck.hands[2][KING] == 1
    assert state.step == S.GIFT_TARGET and state.current_player() == 0
    consistent(state)


def test_a_card_gift_needs_the_card_in_hand() -> None:
    """VA-38: a player gives only cards he holds; refused naming the item, nothing changes."""
    state = elections_with_hands(danes_and_a_norwegian(), {0: (INVALID,)})
    state.apply(GIVE_CARD_TO + 1)
    before = state.observation(0), [list(h) for h in state.deck.hands]
    with pytest.raises(IllegalAction) as error:
        state.apply(GIVE_CARD + KING)
    assert error.value.rule == "VA-38" and "KUNG" in error.value.reason
    assert (state.observation(0), [list(h) for h in state.deck.hands]) == before


def test_silver_gifts_only_from_a_player_with_silver() -> None:
    """VA-38: a giver with cards but no silver is offered card gifts only (a silver gift would have no amount)."""
    position = danes_and_a_norwegian()
    position.gain_silver(1, 2)
    state = elections_with_hands(position, {0: (INVALID,)})
    assert state.current_player() == 0
    assert all(a >= GIVE_CARD_TO or a == PASS for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="no silver to give"):
        state.apply(GIVE_SILVER + 1)


def test_gifts_in_every_card_window_are_refused() -> None:
    """Option `gifts: any_window` (VA-38) is refused with a reason: card windows have no gift steps."""
    with pytest.raises(OptionError, match="any_window"):
        GAME.new_initial_state(4, {"gifts": "any_window"})


# -- random play ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"election_cards_window": "end_of_phase", "king_modifiers": "election", "election_influence": "own_roll"},
        {"bid_silver": "treasury", "kings_peace": "while_both_reign", "gifts": "off"},
    ],
)
def test_random_elections_with_the_election_cards_keep_every_invariant(options: dict[str, str]) -> None:
    """Random gifts (silver and cards), bids, dice and the three election cards: silver and cards conserved after
    every action, and phase 3 ends; every one of the three cards gets played."""
    rng = random.Random(5)
    played = set()
    for _ in range(40):
        players = rng.choice((3, 4, 5))
        kingdoms = tuple(rng.choice(("denmark", "norway", "sweden")) for _ in range(players))
        position = position_for(players, kingdoms, first_seat=rng.randrange(players))
        for seat in range(players):
            silver = rng.choice((0, 4, 12))
            if silver:
                position.gain_silver(seat, silver)
        position.king = [rng.choice((NOBODY, *range(players))) for _ in range(3)]
        state = elections_at(position, **options)
        for seat in range(players):
            left = [kind for kind in (KING, INVALID, INFLUENCE) if state.deck.deck[kind] > 0]
            hand(state, seat, rng.choice(left))
        play_phase_randomly(state, rng)
        consistent(state)
        assert state.position.phase > S.ELECTIONS
        played |= {event.card for event in state.card_log}
    assert {"king", "invalid_election", "election_influence"} <= played
