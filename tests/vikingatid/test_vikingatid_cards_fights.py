"""The cards that order fights, plagues and separatists (`cards.fights`): the five attack cards, MAGYARHORDER,
PETJENEGHORDER, the three expansions, UPPROR!, the three PEST! and UTBRYTARE.

Each test builds a table, gives seat 0 the card, opens the card window at the start of phase 9 and plays it through
its target, D10 and dice (each side's dice one chance node of hits, VA-24), then reads the table. The card texts
are quoted in the docstrings; the rulings are research/vikingatid-rulings.md (VA-22, VA-24, VA-25, VA-67).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from vikingatid_kit import fixed_state, position_for, roll

from skald.engine import CHANCE
from skald.games.vikingatid import combat
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import CARD_IDS, HITS, HITS_WITH_ONE, MAX_HITS, PLAY_CARD, TARGET_AREA
from skald.games.vikingatid.cards.fights import EFFECTS, magyar_areas, plague_areas, separatist_camps
from skald.games.vikingatid.position import Position, problems
from skald.games.vikingatid.reactions import empire_areas_with_camps
from skald.games.vikingatid.state import VikingatidState, position_at
from skald.games.vikingatid.taxation import untroubled_trading_camps
from skald.games.vikingatid.victory_points import final_scores, phase_scores

KINGDOMS4 = ("denmark", "norway", "sweden", "denmark")
TRADING, WAR = "trading", "war"


def new_position() -> Position:
    return position_for(4, KINGDOMS4)


def holding(position: Position, card_id: str, seat: int = 0, **options: Any) -> VikingatidState:
    """A state at the card window opening phase 9, `seat` holding one `card_id` (and no one any other card)."""
    base = fixed_state(4, **options)
    kind = CARD_IDS.index(card_id)
    base.deck.deck[kind] -= 1
    base.deck.hands[seat][kind] += 1
    return position_at(base, position, S.VICTORY_POINTS)


def playable(state: VikingatidState, card_id: str) -> bool:
    return PLAY_CARD + CARD_IDS.index(card_id) in state.legal_actions()


def play(state: VikingatidState, card_id: str) -> None:
    assert state.current_player() == 0
    state.apply(PLAY_CARD + CARD_IDS.index(card_id))


def target(state: VikingatidState, area_id: str) -> None:
    assert state.step == S.CARD_TARGET
    state.apply(TARGET_AREA + state.position.slot(area_id))


def dice_now(state: VikingatidState) -> int:
    """The dice of the node of hits under way (its highest outcome)."""
    assert state.step == S.CARD_HITS
    return max(a for a, _ in state.chance_outcomes()) - HITS


def hits(state: VikingatidState, n: int) -> None:
    assert state.step == S.CARD_HITS
    state.apply(HITS + n)


def done(state: VikingatidState) -> bool:
    """The card under way is over (no target, roll or dice asked any more)."""
    return state.play is None and state.step not in S.CARD_STEPS


def camps(position: Position, seat: int, kind: str, area_id: str) -> int:
    return position.camps_at(seat, kind, area_id)


# -- the attack cards ---------------------------------------------------------------------------------------------


def test_attack_card_plays_at_any_time_and_has_no_effect_without_camps() -> None:
    """BRETLÄNDSK ATTACK: "Everybody who has camps in any provinces of Britain is attacked ... (Play at any time.)" —
    with no camp in Britain it may be played and attacks no one (no D10 rolled, no camp elsewhere touched)."""
    position = new_position()
    position.build_camps(1, TRADING, "irland", 1)
    state = holding(position, "british_attack")
    assert playable(state, "british_attack")
    play(state, "british_attack")
    assert done(state)
    assert "no effect" in state.card_log[-1].target
    assert camps(state.position, 1, TRADING, "irland") == 1
    position.build_camps(1, TRADING, "mercien", 1)
    state = holding(position, "british_attack")
    play(state, "british_attack")
    assert state.step == S.CARD_ROLL


def test_attack_armies_come_from_the_table_and_fight_until_one_side_is_gone() -> None:
    """BRETLÄNDSK ATTACK: "attacked by as many armies (strength 5) as rolled on the table below": a D10 of 4 sends
    2 armies (VA-25). Defenders are war ships and war camps, a camp counting as two ships; ships fall first, and
    the fight goes on round after round (VA-24 `to_the_end`)."""
    position = new_position()
    position.place_ships(1, WAR, "mercien", 1)
    position.build_camps(1, WAR, "mercien", 1)
    position.build_camps(1, TRADING, "mercien", 2)
    state = holding(position, "british_attack")
    play(state, "british_attack")
    assert state.step == S.CARD_ROLL
    state.apply(roll(4))
    assert dice_now(state) == 2  # two armies roll
    hits(state, 2)
    assert dice_now(state) == 3  # one war ship and a camp of two: three dice
    hits(state, 1)
    # Round 1: the ship and one hit on the camp; the armies lose one.
    assert position is state.position
    assert state.position.ships_at(1, WAR, "mercien") == 0
    assert camps(state.position, 1, WAR, "mercien") == 1
    assert dice_now(state) == 1  # one army left
    hits(state, 0)
    assert dice_now(state) == 1  # the damaged camp rolls one die
    hits(state, 1)
    assert done(state)
    assert camps(state.position, 1, WAR, "mercien") == 1
    assert camps(state.position, 1, TRADING, "mercien") == 2
    assert problems(state.position) == []


def test_attack_destroys_trading_camps_of_a_player_left_without_war_ship_or_camp() -> None:
    """VA-24: once a player has no war ship or war camp in the area, his trading camps there are destroyed (as
    UPPROR! 2. says) — a player with only trading camps loses them at once; the war camp's owner keeps his."""
    position = new_position()
    position.build_camps(1, WAR, "ostangeln", 1)
    position.build_camps(1, TRADING, "ostangeln", 1)
    position.build_camps(1, TRADING, "mercien", 1)
    state = holding(position, "british_attack")
    play(state, "british_attack")
    state.apply(roll(1))  # Mercien first (board order): one army, no defender
    assert camps(state.position, 1, TRADING, "mercien") == 0
    assert state.step == S.CARD_ROLL  # Ostangeln rolls its own armies ("Roll separately for each area")
    state.apply(roll(1))
    hits(state, 1)
    hits(state, 0)
    hits(state, 1)  # round 2: the camp falls at its second hit
    hits(state, 0)
    assert done(state)
    assert camps(state.position, 1, WAR, "ostangeln") == 0
    assert camps(state.position, 1, TRADING, "ostangeln") == 0


def test_attack_rolls_once_for_the_card_under_per_card() -> None:
    """Option `attack_rolls: per_card`: one D10 sends the same number of armies to every area."""
    position = new_position()
    position.build_camps(1, WAR, "mercien", 1)
    position.build_camps(2, WAR, "ostangeln", 1)
    state = holding(position, "british_attack", attack_rolls="per_card")
    play(state, "british_attack")
    state.apply(roll(10))  # 5 armies
    assert dice_now(state) == 5
    hits(state, 2)
    hits(state, 2)  # Mercien's camp falls; the armies are down to 3
    assert state.step == S.CARD_HITS and dice_now(state) == 5  # Ostangeln: no new roll, five armies again


def _conquer_britain(position: Position) -> None:
    for seat, area_id in enumerate(("mercien", "northumbrien", "ostangeln")):
        area = position.board.area(area_id)
        position.build_camps(seat, TRADING, area_id, area.trade)
        position.build_camps(seat, WAR, area_id, area.shields)


def test_attack_has_no_effect_when_the_whole_empire_is_conquered() -> None:
    """BRETLÄNDSK ATTACK: "if the whole empire is conquered, this card has no effect" — every province conquered
    (`attack_empire_conquered: all_provinces`); under `never` the armies still come."""
    position = new_position()
    _conquer_britain(position)
    state = holding(position, "british_attack")
    play(state, "british_attack")
    assert done(state)
    assert "no effect" in state.card_log[-1].target
    other = holding(position, "british_attack", attack_empire_conquered="never")
    play(other, "british_attack")
    assert other.step == S.CARD_ROLL


def test_german_attack_has_no_whole_empire_clause() -> None:
    """TYSK-ROMERSK ATTACK prints no "whole empire" clause: it attacks even a fully conquered empire's camps."""
    position = new_position()
    area = position.board.area("normandie")
    position.build_camps(0, TRADING, "normandie", area.trade)
    position.build_camps(0, WAR, "normandie", area.shields)
    state = holding(position, "german_attack")
    play(state, "german_attack")
    assert state.step == S.CARD_ROLL


def test_magyar_hordes_attack_magyarlandet_and_its_land_neighbours_separately() -> None:
    """MAGYARHORDER: "Everyone with camps in Magyarlandet and/or any adjacent areas is attacked ... (roll
    separately for each area)": areas by land border (VA-67), one D10 per area with camps."""
    position = new_position()
    assert magyar_areas(position)[0] == "magyarlandet"
    assert set(magyar_areas(position)) == {"magyarlandet", "bolgaraland", "italien", "moldavien"}
    position.build_camps(1, WAR, "magyarlandet", 1)
    position.build_camps(2, WAR, "moldavien", 1)
    position.build_camps(3, WAR, "grekland", 1)
    state = holding(position, "magyar_hordes")
    assert playable(state, "magyar_hordes")
    play(state, "magyar_hordes")
    state.apply(roll(7))  # 3 armies in Magyarlandet
    assert dice_now(state) == 3
    hits(state, 2)
    hits(state, 0)
    assert camps(state.position, 1, WAR, "magyarlandet") == 0
    assert state.step == S.CARD_ROLL  # Moldavien's own roll
    state.apply(roll(9))
    assert dice_now(state) == 4
    hits(state, 0)
    hits(state, 2)
    hits(state, 0)
    hits(state, 0)  # round 2: the camp's two dice again (undamaged)
    assert dice_now(state) == 2


def test_card_fights_last_one_round_under_one_round() -> None:
    """Option `card_fights: one_round` (VA-24): the card's armies and the defenders roll once, then the area is
    done whatever is left."""
    position = new_position()
    position.build_camps(1, WAR, "mercien", 2)
    state = holding(position, "british_attack", card_fights="one_round")
    play(state, "british_attack")
    state.apply(roll(10))
    hits(state, 1)
    hits(state, 1)
    assert done(state)
    assert camps(state.position, 1, WAR, "mercien") == 2


def test_card_fights_roll_without_a_reroll_after_a_one() -> None:
    """6.4 for card fights: "no side rolls again after a natural 1" — every node's outcomes are plain hits, none
    "with a one"."""
    position = new_position()
    position.build_camps(1, WAR, "syrien", 1)
    state = holding(position, "eastern_expansion")
    play(state, "eastern_expansion")
    target(state, "georgien")  # no Vikings: the armies of Georgien (strength 3) answer
    for _ in range(2):
        assert all(a < HITS_WITH_ONE for a, _ in state.chance_outcomes())
        hits(state, 0)
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == {HITS + n for n, _ in combat.binomial_outcomes(4, 5)}


def test_more_than_twenty_defending_dice_roll_in_batches() -> None:
    """A side with more than MAX_HITS dice rolls them in several nodes (VA-07): twelve war camps, 24 dice, roll
    20 and then 4."""
    position = new_position()
    position.build_camps(1, WAR, "mercien", 12)
    state = holding(position, "british_attack")
    play(state, "british_attack")
    state.apply(roll(1))
    hits(state, 0)
    assert dice_now(state) == MAX_HITS
    hits(state, 0)
    assert dice_now(state) == 4


# -- PETJENEGHORDER ----------------------------------------------------------------------------------------------


def test_pecheneg_hordes_follow_the_route_fighting_vikings_then_the_armies() -> None:
    """PETJENEGHORDER: "Ten armies (strength 5) move the following way: Kalmykien, Georgien, ... they attack all
    Vikings and armies they encounter": in Kalmykien no Vikings, so its one army (strength 5) fights; in Georgien
    the Vikings' war camp first."""
    position = new_position()
    position.build_camps(2, WAR, "georgien", 1)
    state = holding(position, "pecheneg_hordes")
    assert playable(state, "pecheneg_hordes")
    play(state, "pecheneg_hordes")
    assert dice_now(state) == 10
    hits(state, 1)
    assert dice_now(state) == 1  # Kalmykien's army
    hits(state, 1)
    assert dice_now(state) == 9  # Georgien: nine armies against the war camp
    hits(state, 2)
    assert dice_now(state) == 2
    hits(state, 0)
    assert camps(state.position, 2, WAR, "georgien") == 0
    assert dice_now(state) == 9  # then Georgien's two armies (no war camp left to reduce them)
    hits(state, 0)
    assert dice_now(state) == 2


def test_pecheneg_hordes_stop_once_none_is_left() -> None:
    """PETJENEGHORDER: "As long as there is at least one of them": beaten in Kalmykien, they go no further."""
    position = new_position()
    position.build_camps(2, WAR, "georgien", 1)
    state = holding(position, "pecheneg_hordes")
    play(state, "pecheneg_hordes")
    hits(state, 0)
    hits(state, 1)  # one army of Kalmykien hits one horde...
    for _ in range(9):
        hits(state, 0)  # ...and so on, round by round, until the hordes are gone
        hits(state, 1)
    assert done(state)
    assert camps(state.position, 2, WAR, "georgien") == 1
    assert "gone" in state.card_log[-1].target


# -- the expansions ------------------------------------------------------------------------------------------------


def test_expansion_targets_are_the_land_areas_bordering_the_empire() -> None:
    """VÄSTKALIFATISK EXPANSION: "invade one of the areas below" — the land areas outside the empire bordering it
    (VA-25, the board's expansion targets)."""
    position = new_position()
    state = holding(position, "western_expansion")
    play(state, "western_expansion")
    slots = {position.area_ids[a - TARGET_AREA] for a in state.legal_actions()}
    assert slots == {"aquitanien", "asturien"}


def test_expansion_that_beats_vikings_and_armies_takes_the_area() -> None:
    """BYSANTISK EXPANSION: "If they defeat any Vikings there and also that area's armies, the area becomes part of
    the Byzantine Empire" (table.empire_of, table.expanded); the Vikings are fought first (VA-24)."""
    position = new_position()
    position.build_camps(1, WAR, "beresan", 1)
    position.build_camps(1, TRADING, "beresan", 1)
    state = holding(position, "byzantine_expansion")
    play(state, "byzantine_expansion")
    target(state, "beresan")
    assert dice_now(state) == 4
    hits(state, 2)
    hits(state, 0)
    assert camps(state.position, 1, TRADING, "beresan") == 0  # his last war camp gone, his trading camp goes too
    hits(state, 1)  # Beresan's one army
    hits(state, 0)
    assert done(state)
    slot = state.position.slot("beresan")
    assert state.position.empire_of[slot] == "byzantine"
    assert state.position.expanded[slot]
    # The area is now the empire's: its camps will make reaction rolls (phase 2).
    state.position.build_camps(0, TRADING, "beresan", 1)
    assert "beresan" in empire_areas_with_camps(state.position)


def test_expansion_beaten_by_the_area_armies_takes_nothing() -> None:
    """The expansion fails if the area's armies win: the area stays outside the empire."""
    position = new_position()
    state = holding(position, "byzantine_expansion")
    play(state, "byzantine_expansion")
    target(state, "georgien")
    hits(state, 0)
    hits(state, 2)
    hits(state, 0)
    hits(state, 2)
    assert done(state)
    assert state.position.empire_of[state.position.slot("georgien")] == ""
    assert not state.position.expanded[state.position.slot("georgien")]


def test_expanded_area_armies_fight_at_strength_five_under_empire() -> None:
    """Option `expanded_strength: empire`: an area an expansion took fights at the empire's strength 5 (its armies'
    dice hit on 5 or less); under `printed` Georgien keeps its strength 3."""
    position = new_position()
    slot = position.slot("georgien")
    position.empire_of[slot] = "e_caliphate"
    position.expanded[slot] = True
    for value, strength in (("empire", 5), ("printed", 3)):
        state = holding(position.clone(), "byzantine_expansion", expanded_strength=value)
        play(state, "byzantine_expansion")
        target(state, "georgien")
        hits(state, 0)
        expected = {HITS + n: p for n, p in combat.binomial_outcomes(2, strength)}
        assert dict(state.chance_outcomes()) == pytest.approx(expected)


# -- UPPROR! ------------------------------------------------------------------------------------------------------


def test_rebellion_destroys_trade_camps_without_war_camps_and_fights_full_armies() -> None:
    """UPPROR!: "1. War camps in that area need to fight against the areas full army value. 2. Trade camps without
    army camps in the area are destroyed." The armies are the printed shields, not reduced by war camps (VA-24)."""
    position = new_position()
    position.build_camps(0, WAR, "mercien", 1)
    position.build_camps(0, TRADING, "mercien", 1)
    position.build_camps(3, TRADING, "mercien", 2)
    state = holding(position, "rebellion")
    play(state, "rebellion")
    target(state, "mercien")
    assert camps(state.position, 3, TRADING, "mercien") == 0
    assert camps(state.position, 0, TRADING, "mercien") == 1
    assert dice_now(state) == 2  # Mercien's two shields, though a war camp stands there
    hits(state, 2)
    hits(state, 0)
    assert done(state)
    assert camps(state.position, 0, WAR, "mercien") == 0
    assert camps(state.position, 0, TRADING, "mercien") == 0


def test_rebellion_targets_areas_with_camps() -> None:
    """UPPROR! "in one area of choice": playable on an area with camps; with none anywhere it is not playable."""
    position = new_position()
    assert not playable(holding(position, "rebellion"), "rebellion")
    position.build_camps(1, TRADING, "irland", 1)
    state = holding(position, "rebellion")
    play(state, "rebellion")
    assert state.legal_actions() == [TARGET_AREA + position.slot("irland")]


# -- PEST! --------------------------------------------------------------------------------------------------------


def test_plague_takes_one_war_and_one_trade_camp_per_player_and_area() -> None:
    """PEST!: "In the following areas, each player loses one war and one trade camp per area: -Britain, Ireland,
    German-Roman Empire and all adjacent areas" — no fight; areas outside the list untouched."""
    position = new_position()
    position.build_camps(0, WAR, "mercien", 2)
    position.build_camps(0, TRADING, "mercien", 2)
    position.build_camps(1, TRADING, "mercien", 1)
    position.build_camps(1, TRADING, "irland", 1)
    position.build_camps(2, WAR, "georgien", 1)
    assert "skottland" in plague_areas(position, "plague_west")  # bordering Northumbrien
    assert "georgien" not in plague_areas(position, "plague_west")
    state = holding(position, "plague_west")
    play(state, "plague_west")
    assert done(state)
    t = state.position
    assert (camps(t, 0, WAR, "mercien"), camps(t, 0, TRADING, "mercien")) == (1, 1)
    assert camps(t, 1, TRADING, "mercien") == 0
    assert camps(t, 1, TRADING, "irland") == 0
    assert camps(t, 2, WAR, "georgien") == 1


def test_plague_east_covers_kazakstan_and_its_neighbours() -> None:
    """PEST! (east): "Kazakstan and all adjacent areas": Kalmykien and Georgien (bordering it), not Syrien."""
    position = new_position()
    areas = plague_areas(position, "plague_east")
    assert "kalmykien" in areas and "georgien" in areas and "syrien" not in areas
    position.build_camps(0, TRADING, "georgien", 1)
    position.build_camps(0, TRADING, "syrien", 1)
    state = holding(position, "plague_east")
    play(state, "plague_east")
    assert camps(state.position, 0, TRADING, "georgien") == 0
    assert camps(state.position, 0, TRADING, "syrien") == 1


# -- UTBRYTARE ----------------------------------------------------------------------------------------------------


def test_separatists_need_a_war_camp_and_a_low_enough_roll() -> None:
    """UTBRYTARE: "One area which includes a war camp becomes independent ... If D10 is higher than twice the number
    of war camps in the area, the card has no effect": with one war camp a 3 fails, a 2 succeeds."""
    position = new_position()
    position.build_camps(1, TRADING, "irland", 1)
    assert not playable(holding(position, "separatists"), "separatists")
    position.build_camps(1, WAR, "mercien", 1)
    state = holding(position, "separatists")
    play(state, "separatists")
    assert state.legal_actions() == [TARGET_AREA + position.slot("mercien")]
    target(state, "mercien")
    state.apply(roll(3))
    assert done(state) and not state.position.separatists[position.slot("mercien")]
    again = holding(position, "separatists")
    play(again, "separatists")
    target(again, "mercien")
    again.apply(roll(2))
    assert again.position.separatists[position.slot("mercien")]
    assert camps(again.position, 1, WAR, "mercien") == 1  # "all camps remain there"


def test_separatist_camps_give_no_vp_silver_or_reaction() -> None:
    """VA-22: separatist camps belong to no one: no VP (phase 9 or final), no silver at taxation, no reaction
    roll."""
    position = new_position()
    area = position.board.area("mercien")
    position.build_camps(1, TRADING, "mercien", area.trade)
    position.build_camps(1, WAR, "mercien", area.shields)
    assert any(line.subject == "mercien" for line in phase_scores(position))
    position.separatists[position.slot("mercien")] = True
    assert not any(line.subject == "mercien" for line in phase_scores(position))
    assert not any(line.subject == "mercien" for line in final_scores(position))
    assert untroubled_trading_camps(position, 1) == 0
    assert "mercien" not in empire_areas_with_camps(position)
    assert separatist_camps(position, 1) == area.trade + area.shields


def test_separatist_marker_goes_with_the_last_camp() -> None:
    """Once a PEST! or UPPROR! removes the separatists' last camp the area belongs to the players again."""
    position = new_position()
    position.build_camps(1, WAR, "mercien", 1)
    position.separatists[position.slot("mercien")] = True
    state = holding(position, "plague_west")
    play(state, "plague_west")
    assert not state.position.separatists[position.slot("mercien")]


# -- a fight under way ------------------------------------------------------------------------------------------


def test_no_card_fights_in_the_area_of_a_journey_fight() -> None:
    """A journey's fight holds its defenders' ships and camps: no card may fight or take camps there meanwhile —
    UPPROR! and UTBRYTARE cannot name it, an attack skips it, PETJENEGHORDER waits while it is on its route."""
    position = new_position()
    position.build_camps(1, WAR, "mercien", 1)
    position.build_camps(1, WAR, "georgien", 1)
    state = holding(position, "rebellion")
    state.journeys.fight = combat.against_defenders(4, "mercien", 0, [1], [0, 0, 0, 0], [0, 1, 0, 0])
    play(state, "rebellion")
    assert state.legal_actions() == [TARGET_AREA + position.slot("georgien")]
    attack = holding(position, "british_attack")
    attack.journeys.fight = combat.against_defenders(4, "mercien", 0, [1], [0, 0, 0, 0], [0, 1, 0, 0])
    play(attack, "british_attack")
    assert done(attack) and camps(attack.position, 1, WAR, "mercien") == 1
    hordes = holding(position, "pecheneg_hordes")
    hordes.journeys.fight = combat.against_armies(4, "georgien", 0, 2, 3)
    assert not playable(hordes, "pecheneg_hordes")


# -- random play --------------------------------------------------------------------------------------------------


FIGHT_CARDS = tuple(EFFECTS)
BUSY_AREAS = (
    "mercien",
    "ostangeln",
    "magyarlandet",
    "moldavien",
    "georgien",
    "kalmykien",
    "syrien",
    "beresan",
    "aquitanien",
    "asturien",
    "irland",
    "normandie",
    "italien",
    "garb",
    "persien",
)


@pytest.mark.parametrize("card_id", FIGHT_CARDS)
def test_each_card_plays_out_at_random_and_keeps_the_table_sound(card_id: str) -> None:
    """Every card of this module, on random tables full of camps and ships, played with random targets and dice:
    it is playable, it ends (no target, roll or dice left), and the table's ledger holds after every action."""
    for seed in range(8):
        rng = random.Random(seed)
        position = new_position()
        for area_id in BUSY_AREAS:
            area = position.board.area(area_id)
            # Within the area's limits: war camps up to its shields (Denmark's two seats), trading camps up to
            # its trade value, at least one camp in every area.
            for _ in range(area.shields):
                if rng.random() < 0.6:
                    position.build_camps(rng.choice((0, 3)), WAR, area_id, 1)
            for n in range(area.trade):
                if n == 0 or rng.random() < 0.5:
                    position.build_camps(rng.randrange(4), TRADING, area_id, 1)
            if rng.random() < 0.4:
                position.place_ships(rng.randrange(4), WAR, area_id, rng.randint(1, 25))
        state = holding(position, card_id, card_fights=rng.choice(("to_the_end", "one_round")))
        assert playable(state, card_id)
        play(state, card_id)
        count = 0
        while state.step in S.CARD_STEPS and state.play is not None:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance_outcome(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            count += 1
            assert problems(state.position) == []
            assert count < 2_000
        assert state.card_log[-1].card == card_id


# -- the Christian defence (VA-59) ----------------------------------------------------------------------------------


def _all_hit(state: VikingatidState) -> float:
    """The chance that every die of the node under way hits."""
    return dict(state.chance_outcomes())[HITS + dice_now(state)]


def test_a_christian_defends_better_against_british_armies() -> None:
    """10. Christianisation: Christians get a bonus "when defending against attackers from these empires"; VA-59
    `own_dice_minus_2`: against British or German-Roman armies sent by a card a Christian's dice get -2, so he hits
    on 7 or less; a pagan still hits on 5 or less (a war camp rolls two dice)."""
    for christian, chance in ((True, 0.7), (False, 0.5)):
        position = new_position()
        position.build_camps(1, WAR, "mercien", 1)
        position.christian[1] = christian
        state = holding(position, "british_attack")
        play(state, "british_attack")
        state.apply(roll(1))  # one army
        hits(state, 0)
        assert dice_now(state) == 2
        assert _all_hit(state) == pytest.approx(chance**2)


def test_the_christian_bonus_is_not_given_against_other_attackers() -> None:
    """VA-59 names British and German-Roman attackers only: against MAGYARHORDER's armies a Christian hits on 5."""
    position = new_position()
    position.build_camps(1, WAR, "magyarlandet", 1)
    position.christian[1] = True
    state = holding(position, "magyar_hordes")
    play(state, "magyar_hordes")
    state.apply(roll(1))
    hits(state, 0)
    assert dice_now(state) == 2
    assert _all_hit(state) == pytest.approx(0.25)


def test_under_attacker_dice_plus_2_the_british_armies_hit_less_against_christians() -> None:
    """VA-59 `attacker_dice_plus_2`: the attacking armies' dice get +2 against Christian defenders (strength 5 then
    hits on 3 or less), and the Christian's own dice are as usual."""
    position = new_position()
    position.build_camps(1, WAR, "mercien", 1)
    position.christian[1] = True
    state = holding(position, "british_attack", christian_defence="attacker_dice_plus_2")
    play(state, "british_attack")
    state.apply(roll(1))
    assert dice_now(state) == 1 and _all_hit(state) == pytest.approx(0.3)
    hits(state, 0)
    assert _all_hit(state) == pytest.approx(0.25)
