"""Phase 4, "Distribution of Silver" (rule text, 4.; War between Viking kingdoms; VA-40 – VA-42). The phase has
no decision: a state started at phase 4 applies it at once and waits in phase 5 with the silver still unspent."""

from __future__ import annotations

from vikingatid_kit import at_phase, position_for

from skald.games.vikingatid import steps as S
from skald.games.vikingatid.position import PEACE_PENDING, WAR_MARKER, Position, pair_index, problems
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.state import VikingatidState

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def distributed(position: Position, **options: str) -> VikingatidState:
    """The state after phase 4 on `position` (phase 5 waiting, nobody has bought yet)."""
    state = at_phase(position, S.SILVER, **options)
    assert state.position.phase == S.BUYING_SHIPS and state.purchases.bought == [0] * position.num_players
    assert problems(state.position) == []
    return state


def test_each_member_gets_five_silver_from_his_home_country() -> None:
    """'Each player belonging to Denmark, Norway or Sweden gets five silver from his home country ... and does not
    influence the treasury.'"""
    state = distributed(position_for(3, ("denmark", "norway", "norway")))
    assert state.position.silver == [5, 5, 5] and state.position.treasury == [0, 0, 0]
    assert [i.home for i in state.incomes] == [5, 5, 5]


def test_an_emigrant_gets_no_home_silver_and_keeps_his_own() -> None:
    """'Players with their own home country (i.e. they have emigrated) get no silver from their land, but keep all
    formerly earned silver'."""
    position = position_for(2, ("denmark", "denmark"))
    position.emigrated[1] = True
    position.gain_silver(1, 4)
    state = distributed(position)
    assert state.position.silver == [5, 4]


def test_the_king_takes_half_the_treasury_and_the_rest_is_shared() -> None:
    """'The king of a country gets half the treasury, rounded down.' 'The rest of the treasury is shared among the
    players of that kingdom (rounded down), including the king. Any silver that cannot be divided up remains in the
    treasury': 9 in the treasury, two members: the king 4 + 2, the other 2, and 1 stays."""
    position = position_for(2, ("denmark", "denmark"))
    position.treasury_gains("denmark", 9)
    position.king[DENMARK] = 0
    state = distributed(position)
    assert state.position.silver == [5 + 4 + 2, 5 + 2] and state.position.treasury[DENMARK] == 1
    assert (state.incomes[0].king, state.incomes[0].share, state.incomes[1].share) == (4, 2, 2)


def test_without_a_king_his_half_vanishes() -> None:
    """'If there is no king, that silver vanishes instead.'"""
    position = position_for(2, ("denmark", "norway"))
    position.treasury_gains("denmark", 8)
    state = distributed(position)
    assert state.position.silver == [5 + 4, 5] and state.position.treasury[DENMARK] == 0
    assert state.position.silver_out == 4


def test_a_kingdom_at_war_has_its_silver_halved_at_the_end_of_the_phase() -> None:
    """'If a Viking kingdom is at war, the players' silver is halved (rounded down) at the end of this phase. This
    silver is out of the game.' (VA-41 'all_silver': all he holds): 2 + 5 = 7 becomes 3."""
    position = position_for(2, ("denmark", "norway"))
    position.war[DENMARK] = WAR_MARKER
    position.gain_silver(0, 2)
    state = distributed(position)
    assert state.position.silver == [3, 5] and state.incomes[0].halved == 4


def test_peace_pending_halves_too_unless_war_only() -> None:
    """VA-41 'war_or_peace_pending': a Peace? marker halves as War does; 'war_only': it does not."""
    position = position_for(2, ("denmark", "norway"))
    position.war[NORWAY] = PEACE_PENDING
    assert distributed(position.clone()).position.silver == [5, 2]
    assert distributed(position.clone(), war_silver="war_only").position.silver == [5, 5]


def test_a_kings_peace_lifts_the_halving() -> None:
    """'A King's Peace makes them get their normal rate of silver, even if there was war between the kingdoms one
    turn before.'"""
    position = position_for(2, ("denmark", "norway"))
    position.war = [PEACE_PENDING, PEACE_PENDING, ""]
    position.king = [0, 1, NOBODY]
    position.kings_peace[pair_index("denmark", "norway")] = True
    assert distributed(position).position.silver == [5, 5]


def test_income_only_halves_only_this_phases_silver() -> None:
    """VA-41 option 'income_only' ('get only half as much'): 10 kept from before, 5 received: 10 + 2."""
    position = position_for(2, ("denmark", "norway"))
    position.war[DENMARK] = WAR_MARKER
    position.gain_silver(0, 10)
    assert distributed(position, war_halving="income_only").position.silver == [12, 5]


def test_per_pair_war_halves_both_kingdoms_of_the_pair() -> None:
    """VA-40 'per_pair': a kingdom is at war if any of its pairs is; Sweden, at peace with both, keeps its silver."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.pair_war[pair_index("denmark", "norway")] = WAR_MARKER
    assert distributed(position, war_tracking="per_pair").position.silver == [2, 2, 5]


def test_a_foreign_king_takes_half_but_no_share() -> None:
    """VA-42 'half_only': the rest is shared 'among the players of that kingdom', which a Norwegian king of Denmark
    is not; 'half_and_share': he shares too."""
    position = position_for(2, ("denmark", "norway"))
    position.treasury_gains("denmark", 8)
    position.king[DENMARK] = 1
    assert distributed(position.clone()).position.silver == [5 + 4, 5 + 4]
    assert distributed(position.clone(), foreign_king_share="half_and_share").position.silver == [5 + 2, 5 + 4 + 2]
