"""The cards of kings, kingdoms, war and faith (`cards.kingdoms`): EXIL, FRED, the war card, KRISTNAD, RIKSENANDE,
TROSTVIST, FÖRLÄNING, SMÅRIKE and GRUVORNA SINAR (VA-14, VA-18, VA-20, VA-21, VA-23, VA-40, VA-65).

Each test puts the card in a hand, brings the table to a moment (the card window at the start of a phase), checks
the card is offered exactly when its text allows, plays it with its target, roll or answers, and checks the table.
"""

from __future__ import annotations

import random
from typing import Any

from vikingatid_kit import fixed_state, position_for, roll

from skald.engine import CHANCE
from skald.games.vikingatid import purchases
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import CARD_IDS, PASS, PLAY_CARD, TARGET_AREA, TARGET_KINGDOM, TARGET_SEAT
from skald.games.vikingatid.cards.kingdoms import ADOPT, EXILE_SHIPS, REFUSE
from skald.games.vikingatid.conquest import conqueror, drop_lost_fiefs
from skald.games.vikingatid.emigration import begin, candidates, emigrate, pass_emigration
from skald.games.vikingatid.position import NO_MARKER, PEACE_PENDING, WAR_MARKER, Position, problems
from skald.games.vikingatid.state import VikingatidState
from skald.games.vikingatid.victory_points import phase_scores

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def kind(card_id: str) -> int:
    return CARD_IDS.index(card_id)


def at_window(position: Position, phase: int, hands: dict[int, list[str]], **options: Any) -> VikingatidState:
    """A state on `position` whose seats hold `hands`, at the card window that opens the start of `phase`."""
    state = fixed_state(position.num_players, **options).clone()
    state.position = position
    state.history = []
    state.deck.to_draw = []
    for seat, cards in hands.items():
        for card_id in cards:
            k = kind(card_id)
            state.deck.deck[k] -= 1
            state.deck.hands[seat][k] += 1
    state.begin_phase(phase)
    return state


def offered(state: VikingatidState, card_id: str) -> bool:
    return PLAY_CARD + kind(card_id) in state.legal_actions()


def play(state: VikingatidState, card_id: str, *then: int) -> None:
    """The player asked plays the card, then its targets, rolls and answers, each checked legal first."""
    assert offered(state, card_id), (card_id, state.legal_actions())
    state.apply(PLAY_CARD + kind(card_id))
    for action in then:
        assert action in state.legal_actions(), (action, state.legal_actions())
        state.apply(action)
    assert state.play is None, "the card still needs something"
    assert problems(state.position) == []


def war_camps(position: Position, seat: int, area_id: str, n: int) -> None:
    position.build_camps(seat, "war", area_id, n)


# -- EXIL ---------------------------------------------------------------------------------------------------------


def test_exile_a_king_sends_a_follower_into_exile_with_ten_war_ships_after_distribution() -> None:
    """EXIL: 'The player who is king may send one of his followers into exile. That player gets ten war ships free
    ... (Play immediately after Distribution phase.)' (VA-18: the window at the start of phase 5.)"""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.king[DENMARK] = 0
    state = at_window(position, S.BUYING_SHIPS, {0: ["exile"]})
    assert state.step == S.CARD_WINDOW and state.current_player() == 0
    assert state.legal_actions() == [PASS, PLAY_CARD + kind("exile")]
    state.apply(PLAY_CARD + kind("exile"))
    assert state.legal_actions() == [TARGET_SEAT + 1]
    state.apply(TARGET_SEAT + 1)
    assert state.position.exiled == [False, True, False]
    assert state.position.ships_at(1, "war", state.board.kingdom_area("denmark").id) == EXILE_SHIPS
    assert problems(state.position) == []


def test_exile_is_not_for_a_player_who_is_not_king_nor_outside_its_window() -> None:
    """EXIL: 'The player who is king may send one of his followers' and '(Play immediately after Distribution
    phase.)': no king, or the start of phase 2, offers nothing but a pass."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    state = at_window(position, S.BUYING_SHIPS, {0: ["exile"]})
    assert state.legal_actions() == [PASS]
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.king[DENMARK] = 0
    state = at_window(position, S.REACTIONS, {0: ["exile"]})
    assert state.legal_actions() == [PASS]


def test_exile_the_unifier_forbids_it() -> None:
    """RIKSENANDE: 'no more players are allowed to emigrate or be sent into exile by the king' (VA-18, VA-20)."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.king[DENMARK] = 0
    position.unified[DENMARK] = True
    state = at_window(position, S.BUYING_SHIPS, {0: ["exile"]})
    assert state.legal_actions() == [PASS]


def test_exile_must_leave_at_phase_7_to_a_conquered_area_or_homeless_if_he_passes() -> None:
    """EXIL: 'must leave his homeland this turn' (VA-18: he emigrates at the start of phase 7; passing there does
    not keep him home: he leaves homeless)."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.build_camps(1, "trading", "gotland", position.board.area("gotland").trade)
    war_camps(position, 1, "gotland", position.board.area("gotland").shields)
    position.exiled[1] = True
    position.unified[DENMARK] = True  # sent before RIKSENANDE: he still leaves
    em = begin(position)
    assert em.queue == [1] and candidates(position, 1) == ["gotland"]
    pass_emigration(position, em)
    assert position.emigrated[1] and position.home[1] == "" and not position.exiled[1]
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.build_camps(1, "trading", "gotland", position.board.area("gotland").trade)
    war_camps(position, 1, "gotland", position.board.area("gotland").shields)
    position.exiled[1] = True
    em = begin(position)
    emigrate(position, em, "gotland")
    assert position.home[1] == "gotland" and position.members("denmark") == [0]


def test_exile_without_a_conquered_area_homeless_by_default_or_lapses_under_stays() -> None:
    """VA-18 `exile_without_conquest`: 'homeless' (he is out of the kingdom and gets no home silver) or 'stays'
    (the exile lapses)."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.exiled[1] = True
    em = begin(position)
    assert position.emigrated[1] and position.home[1] == "" and em.moves[0].left == "denmark"
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.exiled[1] = True
    begin(position, "stays")
    assert not position.emigrated[1] and not position.exiled[1] and position.members("denmark") == [0, 1]


# -- FRED and the war card ---------------------------------------------------------------------------------------


def test_peace_removes_the_war_marker_of_a_kingdom_at_war_only() -> None:
    """FRED: 'Play on any Viking kingdom currently at war. Remove the war marker.' (card_at_war default: a Peace?
    marker is still at war, VA-41.)"""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.war[NORWAY] = WAR_MARKER
    position.war[SWEDEN] = PEACE_PENDING
    state = at_window(position, S.REACTIONS, {0: ["peace"]})
    state.apply(PLAY_CARD + kind("peace"))
    assert state.legal_actions() == [TARGET_KINGDOM + NORWAY, TARGET_KINGDOM + SWEDEN]
    state.apply(TARGET_KINGDOM + NORWAY)
    assert state.position.war == [NO_MARKER, NO_MARKER, PEACE_PENDING]


def test_peace_is_not_offered_without_a_war_and_under_war_only_not_on_peace_pending() -> None:
    """FRED needs a kingdom 'currently at war'; under `card_at_war: war_only` a Peace? marker is not."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    assert at_window(position, S.REACTIONS, {0: ["peace"]}).legal_actions() == [PASS]
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.war[SWEDEN] = PEACE_PENDING
    assert at_window(position, S.REACTIONS, {0: ["peace"]}, card_at_war="war_only").legal_actions() == [PASS]


def test_war_card_puts_a_war_marker_on_a_kingdom_not_at_war() -> None:
    """War card: 'Play on a Viking kingdom currently not at war. That country immediately goes to war.' (VA-14
    `war_card: kingdom_only`: a War marker on it alone.)"""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.war[DENMARK] = WAR_MARKER
    position.war[NORWAY] = PEACE_PENDING
    state = at_window(position, S.REACTIONS, {0: ["war"]})
    state.apply(PLAY_CARD + kind("war"))
    assert state.legal_actions() == [TARGET_KINGDOM + SWEDEN]
    state.apply(TARGET_KINGDOM + SWEDEN)
    assert state.position.war == [WAR_MARKER, PEACE_PENDING, WAR_MARKER]


def test_war_card_under_war_only_turns_peace_pending_back_to_war() -> None:
    """`card_at_war: war_only`: a kingdom showing Peace? is 'not at war', so the card may turn it to War."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.war[NORWAY] = PEACE_PENDING
    state = at_window(position, S.REACTIONS, {0: ["war"]}, card_at_war="war_only")
    play(state, "war", TARGET_KINGDOM + NORWAY)
    assert state.position.war[NORWAY] == WAR_MARKER


def test_war_card_named_enemy_marks_both_kingdoms() -> None:
    """VA-14 `war_card: named_enemy`: 'the player also names a second kingdom, which gets a War marker as well'."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    state = at_window(position, S.REACTIONS, {0: ["war"]}, war_card="named_enemy")
    state.apply(PLAY_CARD + kind("war"))
    state.apply(TARGET_KINGDOM + DENMARK)
    assert state.legal_actions() == [TARGET_KINGDOM + NORWAY, TARGET_KINGDOM + SWEDEN]
    state.apply(TARGET_KINGDOM + SWEDEN)
    assert state.position.war == [WAR_MARKER, NO_MARKER, WAR_MARKER]
    assert state.card_log[-1].target.startswith("war between")


# -- KRISTNAD -----------------------------------------------------------------------------------------------------


def test_christianisation_succeeds_on_a_roll_at_most_the_turns_started() -> None:
    """KRISTNAD: 'Play on any player. If D10 is more than the number of turns started, this card has no effect.
    Otherwise, that player is Christianised.' (VA-03: turn 3 has 3 turns started.)"""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.turn = 3
    state = at_window(position, S.REACTIONS, {0: ["christianisation"]})
    play(state, "christianisation", TARGET_SEAT + 2, roll(3))
    assert state.position.christian == [False, False, True]
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.turn = 3
    state = at_window(position, S.REACTIONS, {0: ["christianisation"]})
    play(state, "christianisation", TARGET_SEAT + 2, roll(4))
    assert state.position.christian == [False, False, False]


def test_christianisation_targets_only_pagan_players() -> None:
    """KRISTNAD on a Christian could do nothing: only pagans are offered as targets."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.christian[1] = True
    state = at_window(position, S.REACTIONS, {0: ["christianisation"]})
    state.apply(PLAY_CARD + kind("christianisation"))
    assert state.legal_actions() == [TARGET_SEAT + 0, TARGET_SEAT + 2]


# -- RIKSENANDE ---------------------------------------------------------------------------------------------------


def test_unifier_played_by_a_king_ends_emigration_for_everyone_on_a_low_roll() -> None:
    """RIKSENANDE: 'no more players are allowed to emigrate ... Only takes effect if D10 is less or equal to the
    number of turns already begun. (Play at any time by the king.)' (VA-20 `unifier_scope: all_players`)."""
    position = position_for(3, ("denmark", "norway", "norway"))
    position.turn = 4
    position.build_camps(2, "trading", "gotland", position.board.area("gotland").trade)
    war_camps(position, 2, "gotland", position.board.area("gotland").shields)
    assert candidates(position, 2) == ["gotland"]
    state = at_window(position, S.REACTIONS, {0: ["unifier"], 1: ["unifier"]})
    assert state.legal_actions() == [PASS]  # seat 0 is no king
    position.king[DENMARK] = 0
    state = at_window(position, S.REACTIONS, {0: ["unifier"]})
    play(state, "unifier", roll(5))
    assert state.position.unified == [False, False, False]
    state = at_window(position, S.REACTIONS, {0: ["unifier"]})
    play(state, "unifier", roll(4))
    assert state.position.unified == [True, True, True]
    assert candidates(state.position, 2) == []


def test_unifier_own_kingdom_scope_covers_the_kings_kingdom_only() -> None:
    """VA-20 `unifier_scope: own_kingdom`: 'only the king's kingdom is covered'."""
    position = position_for(3, ("denmark", "norway", "norway"))
    position.king[DENMARK] = 0
    state = at_window(position, S.REACTIONS, {0: ["unifier"]}, unifier_scope="own_kingdom")
    play(state, "unifier", roll(1))
    assert state.position.unified == [True, False, False]


# -- TROSTVIST ----------------------------------------------------------------------------------------------------


def test_religious_quarrel_each_follower_adopts_or_refuses_and_a_refusal_is_civil_war() -> None:
    """TROSTVIST: 'All followers must immediately take on the same religion as the king (Christian or not
    Christian), or a civil war breaks out ... only one kingdom is affected. (Play at any time on one king.)'
    (VA-21 `religious_quarrel: choice`: in seat order each follower answers.)"""
    position = position_for(4, ("denmark", "denmark", "norway", "denmark"))
    position.king[DENMARK] = 0
    position.christian[0] = True
    state = at_window(position, S.REACTIONS, {2: ["religious_quarrel"]}, turn_order="fixed")
    assert state.current_player() == 2
    state.apply(PLAY_CARD + kind("religious_quarrel"))
    assert state.legal_actions() == [TARGET_SEAT + 0]
    state.apply(TARGET_SEAT + 0)
    assert state.current_player() == 1 and state.legal_actions() == [ADOPT, REFUSE]
    state.apply(ADOPT)
    assert state.current_player() == 3
    state.apply(REFUSE)
    assert state.position.christian == [True, True, False, False]
    assert state.position.war == [WAR_MARKER, NO_MARKER, NO_MARKER]


def test_religious_quarrel_war_if_different_changes_no_one() -> None:
    """VA-21 `war_if_different`: 'no one changes religion; civil war breaks out whenever any follower's religion
    differs from the king's'."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.king[DENMARK] = 0
    position.christian[1] = True
    state = at_window(position, S.REACTIONS, {0: ["religious_quarrel"]}, religious_quarrel="war_if_different")
    play(state, "religious_quarrel", TARGET_SEAT + 0)
    assert state.position.christian == [False, True, False] and state.position.war[DENMARK] == WAR_MARKER


def test_religious_quarrel_needs_a_king_with_followers() -> None:
    """'on one king': a king without followers (the only member of his kingdom) is no target."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.king[DENMARK] = 0
    assert at_window(position, S.REACTIONS, {0: ["religious_quarrel"]}).legal_actions() == [PASS]


# -- FÖRLÄNING and SMÅRIKE ----------------------------------------------------------------------------------------


def _empire_area(position: Position, empire: str) -> str:
    """A province of `empire` with shields and coins (a conquest there needs more than one camp)."""
    for area in position.board.areas:
        if area.empire == empire and area.shields >= 1 and area.trade >= 1 and not area.no_camps:
            return area.id
    raise AssertionError(empire)


def test_heritage_for_a_christian_makes_the_area_his_conquest_at_once() -> None:
    """FÖRLÄNING: 'Play on one area in German-Roman Empire or Britain where the player has at least one war camp.
    If the player is Christian, the area counts automatically as conquered' (VA-23: even with other players' camps
    there; no reaction roll; VP every turn)."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    area = _empire_area(position, "britain")
    war_camps(position, 0, area, 1)
    position.build_camps(1, "trading", area, 1)
    position.christian[0] = True
    assert conqueror(position, area) == -1
    state = at_window(position, S.REACTIONS, {0: ["heritage"]})
    state.apply(PLAY_CARD + kind("heritage"))
    slot = state.position.slot(area)
    assert state.legal_actions() == [TARGET_AREA + slot]
    state.apply(TARGET_AREA + slot)
    assert state.position.fief[slot] == 0 and state.position.fief_kind[slot] == "heritage"
    assert conqueror(state.position, area) == 0
    assert ("conquest", area) in [
        (line.reason, line.subject) for line in phase_scores(state.position) if line.seat == 0
    ]


def test_heritage_for_a_pagan_needs_a_roll_of_1_to_5() -> None:
    """FÖRLÄNING: 'Otherwise, the player must roll 1-5 to be successful.'"""
    for face, success in ((5, True), (6, False)):
        position = position_for(3, ("denmark", "denmark", "norway"))
        area = _empire_area(position, "german_roman")
        war_camps(position, 0, area, 1)
        state = at_window(position, S.REACTIONS, {0: ["heritage"]})
        play(state, "heritage", TARGET_AREA + position.slot(area), roll(face))
        assert (state.position.fief[position.slot(area)] == 0) is success


def test_heritage_only_in_the_german_roman_empire_or_britain() -> None:
    """FÖRLÄNING: 'Play on one area in German-Roman Empire or Britain': a war camp elsewhere offers nothing."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    war_camps(position, 0, _empire_area(position, "byzantine"), 1)
    assert at_window(position, S.REACTIONS, {0: ["heritage"]}).legal_actions() == [PASS]


def test_small_kingdom_on_any_area_with_his_war_camp_is_conquered_until_his_last_war_camp_is_lost() -> None:
    """SMÅRIKE: 'Play on an area where the player has at least one war camp. This area counts as conquered and gets
    a marker "SMÅRIKE".' (VA-23 `fief_loss: last_war_camp`: it lasts while he keeps a war camp there.)"""
    position = position_for(3, ("denmark", "denmark", "norway"))
    area = _empire_area(position, "byzantine")
    war_camps(position, 1, area, 1)
    position.build_camps(0, "trading", area, 1)
    state = at_window(position, S.REACTIONS, {1: ["small_kingdom"]})
    assert state.current_player() == 1
    play(state, "small_kingdom", TARGET_AREA + position.slot(area))
    t = state.position
    slot = t.slot(area)
    assert t.fief[slot] == 1 and t.fief_kind[slot] == "small_kingdom" and conqueror(t, area) == 1
    t.remove_camps(1, "war", area, 1)
    assert conqueror(t, area) == -1
    assert drop_lost_fiefs(t) == [area] and t.fief[slot] == -1
    war_camps(t, 1, area, 1)
    assert conqueror(t, area) == -1


# -- GRUVORNA SINAR ------------------------------------------------------------------------------------------------


def test_mines_dry_khorasan_is_worth_two_and_excess_trading_camps_go() -> None:
    """GRUVORNA SINAR: 'The trade value of the province Khorasan is reduced to two. Counts for the rest of the game.'
    (`mines_dry_camps: remove_excess`: camps above the new cap go, from the player with the most.)"""
    position = position_for(3, ("denmark", "denmark", "norway"))
    khorasan = position.board.area("khorasan")
    assert khorasan.trade > 2
    position.build_camps(0, "trading", "khorasan", khorasan.trade - 1)
    position.build_camps(2, "trading", "khorasan", 1)
    state = at_window(position, S.REACTIONS, {0: ["mines_dry"]})
    play(state, "mines_dry")
    t = state.position
    assert t.mines_dry and t.trade_value("khorasan") == 2
    assert t.camps_at(0, "trading", "khorasan") + t.camps_at(2, "trading", "khorasan") == 2
    assert t.camps_at(2, "trading", "khorasan") == 1
    # Conquest now needs two trading camps (and the war camps): seat 0 alone with two conquers it.
    t.remove_camps(2, "trading", "khorasan", 1)
    t.build_camps(0, "trading", "khorasan", 1)
    war_camps(t, 0, "khorasan", khorasan.shields)
    assert conqueror(t, "khorasan") == 0
    # Once dry the card has nothing left to do.
    again = at_window(t.clone(), S.REACTIONS, {1: ["mines_dry"]})
    assert not offered(again, "mines_dry")


def test_mines_dry_keep_excess_leaves_the_camps() -> None:
    """`mines_dry_camps: keep_excess`: trading camps above 2 stay until lost."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.build_camps(0, "trading", "khorasan", 3)
    state = at_window(position, S.REACTIONS, {0: ["mines_dry"]}, mines_dry_camps="keep_excess")
    state.apply(PLAY_CARD + kind("mines_dry"))
    assert state.position.mines_dry and state.position.camps_at(0, "trading", "khorasan") == 3


# -- random play ---------------------------------------------------------------------------------------------------


def test_a_random_game_with_the_cards_keeps_the_table_sound() -> None:
    """A random 4-player game with cards: the table's invariants hold after every action, and the game ends."""
    rng = random.Random(7)
    state = fixed_state(4)
    count = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        count += 1
        assert problems(state.position) == [], problems(state.position)
        assert count < 60_000


# -- phase 5, where EXIL's ships stand ------------------------------------------------------------------------------


def test_pulling_down_a_camp_of_his_home_country_makes_him_homeless_before_he_buys() -> None:
    """'A player who loses his home country becomes homeless. This is the case even if he loses only one camp in
    his home country' and then 'loses the possibility to place an unlimited number of ships in his home country':
    a pull-down there takes his home at once, so he is never asked to place ships in it (VA-61, VA-43)."""
    position = position_for(2, ("denmark", "norway"))
    gotland = position.board.area("gotland")
    position.build_camps(0, "trading", "gotland", gotland.trade)
    war_camps(position, 0, "gotland", gotland.shields)
    position.emigrated[0] = True
    position.home[0] = "gotland"
    position.gain_silver(0, 30)
    bought = purchases.begin(position, "all_silver")
    assert bought.buyer == 0 and bought.step == S.PULL_DOWN
    purchases.pull_down(position, bought, "war", "gotland")
    assert position.home[0] == "" and purchases.home_area(position, 0) == ""
    assert purchases.room(position, bought, 0, "trading", "gotland") == 2 * position.camps_at(0, "trading", "gotland")
