"""Small, large and end-game scoring, and the Boatswains' ferrying (rules/000 p.4 "Scoring", p.5 "End Game
Scoring", "Game End")."""

from __future__ import annotations

import pytest
from vikings_kit import land, position, snapshot

from skald.engine import IllegalAction
from skald.games.vikings import actions as A
from skald.games.vikings.components import BLUE, GREEN, GREY, RED, YELLOW
from skald.games.vikings.scoring import end_scoring, large_scoring, small_scoring, threats
from skald.games.vikings.steps import BUY, DRAW_TILES, GAME_OVER, LAND


def _lines(lines, kind):
    return [(line.square, line.fame, line.gold) for line in lines if line.kind == kind]


def test_ship_threatens_its_column_down_to_the_row_of_its_sail():
    """rules/000 p.4 step 2: "The threat affects all rows up to and including the row that matches the color of
    the Ship's sail" — a red sail reaches the Noble row only, a blue sail all five rows."""
    state = position(land({"ship": "red1 blue1", "W": "L R", "N": "L:N R:N", "S": "L:S R:S", "F": "L:F R:F"}), land())
    seen = threats(state.lands[0])
    assert seen.is_threatened(2, 1) and not seen.is_threatened(3, 1)
    assert all(seen.is_threatened(row, 2) for row in (1, 2, 3, 4, 5))


def test_warrior_directly_below_a_ship_repels_it_and_shields_the_column():
    """rules/000 p.4 step 3: "When a Warrior occupies an Island tile directly below a Ship, the threat is repelled
    ... All Vikings below the Warrior are not affected by the threat, and the Warrior earns the player the Fame or
    Gold depicted on the Ship tile"."""
    state = position(land({"ship": "blue3", "W": "L:W", "N": "L:N"}), land())
    lines = large_scoring(0, state.lands[0])
    assert _lines(lines, "warrior") == [("W1", 5, 0)]
    assert _lines(lines, "noble") == [("N1", 2, 0)]


def test_threat_passes_through_an_empty_warrior_square():
    """A ship is repelled only by a Warrior on the tile directly below it; an empty Warrior square stops nothing."""
    state = position(land({"ship": "green1", "W": "L", "N": "L:N"}), land())
    assert _lines(large_scoring(0, state.lands[0]), "noble") == [("N1", 0, 0)]


def test_scout_scores_for_goldsmith_and_fisherman_below_it_in_its_column():
    """rules/000 p.4 step 5: "the player scores 1 Fame for each Goldsmith or Fisherman directly below a Scout"."""
    state = position(land({"S": "L:S R:S", "G": "L:G R", "F": "L:F R:F"}), land())
    assert _lines(large_scoring(0, state.lands[0]), "scout") == [("S1", 3, 0), ("S2", 2, 0)]


def test_small_scoring_pays_only_unthreatened_goldsmiths():
    """rules/000 p.4: "Players receive 3 Gold for each Goldsmith ... no gold is awarded for any Goldsmith
    threatened by a ship"; Nobles and Scouts score nothing at a small scoring."""
    state = position(land({"ship": "yellow1", "N": "L:N", "S": "L:S R", "G": "L:G R:G"}), land())
    assert [(line.square, line.gold) for line in small_scoring(0, state.lands[0])] == [("G1", 0), ("G2", 3)]


def test_small_scoring_happens_after_rounds_1_3_5_and_large_after_2_4_6():
    """rules/000 p.2: "After the 1st, 3rd and 5th rounds, there is a small scoring ... After the 2nd, 4th and 6th
    rounds, there is a large scoring"; then the end-game scoring."""
    import random

    from skald.engine import play_random_game
    from skald.games.vikings.game import GAME

    state = play_random_game(GAME.new_initial_state(2), random.Random(4))
    assert [(r["round"], r["when"]) for r in state.scorings()] == [
        (1, "small"),
        (2, "large"),
        (3, "small"),
        (4, "large"),
        (5, "small"),
        (6, "large"),
        (6, "end"),
    ]


# -- Boatswains ---------------------------------------------------------------------------------------------------


def _ferrying(me: dict, round_: int = 2, **options):
    """Player 1 ferrying at the large scoring of `round_` (2 players: she scores second in even rounds)."""
    return position(me, land(), round=round_, step="ferry", to_move=0, ferry={"scoring_index": 1}, options=options)


EXAMPLE = land({"S": "L R", "G": "L", "F": "L M1 R"}, head={"F": 3, "G": 1, "S": 2, "B": 1})


def test_boatswain_example_three_fishermen_or_one_goldsmith_or_two_scouts_or_one_of_each():
    """rules/000 p.4 "Boatswain example": one Boatswain can move 3 Fishermen, or 1 Goldsmith, or 2 Scouts, or 1 of
    each (1 Fisherman, 1 Goldsmith and 1 Scout)."""
    results = {}
    for letter in ("F", "G", "S"):
        state = _ferrying(EXAMPLE)
        state.apply(state.action_from_notation(f"ferry {letter}"))
        results[letter] = sum(1 for v in state.lands[0].vikings if v != -1)
    assert results == {"F": 3, "G": 1, "S": 2}
    each = _ferrying(EXAMPLE)
    each.apply(A.FERRY_EACH)
    assert each.step == LAND  # the Fisherman has three tiles to choose from
    each.apply(A.viking(5, 2))
    each.apply(A.viking(3, 2))  # the Scout's choice of two tiles; the Goldsmith's single tile was filled for her
    placed = [(r, c) for r in (3, 4, 5) for c in (1, 2, 3) if each.lands[0].viking(r, c) != -1]
    assert len(placed) == 3 and (5, 2) in placed
    assert each.lands[0].head[:3] == [2, 0, 1]


def test_used_boatswain_leaves_the_game():
    """rules/000 p.4: "Each Boatswain used to move Vikings is removed from the game"."""
    state = _ferrying(EXAMPLE)
    state.apply(A.FERRY + GREEN)
    assert state.lands[0].head[GREY] == 0 and state.boatswains_spent[0] == 1


def test_ferrying_is_optional_before_round_6():
    """rules/000 p.4: "a player may use as many or as few Boatswains as she chooses"."""
    state = _ferrying(EXAMPLE)
    assert A.DONE in state.legal_actions()
    state.apply(A.DONE)
    assert state.step == DRAW_TILES and state.round == 3 and state.lands[0].head[GREY] == 1


def test_ferrying_is_compulsory_at_the_round_6_large_scoring():
    """rules/000 p.4: "During the third large scoring (at the end of round 6), each player must use her
    Boatswains to move as many Vikings as possible onto unoccupied Island tiles"."""
    state = _ferrying(EXAMPLE, round_=6)
    assert A.DONE not in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(A.DONE)
    assert error.value.rule == "ferry.compulsory" and snapshot(state) == before


def test_boatswain_moves_only_from_the_head_boatswain_to_free_tiles_of_the_row():
    """rules/000 p.4: "A player may only move Vikings from the Head Boatswain to Island tiles"; all placement rules
    apply: a colour with no free tile in its row cannot be ferried."""
    state = _ferrying(land({"N": "L:N"}, head={"N": 1, "B": 1}))
    assert state.legal_actions() == [A.DONE]  # the Noble row is full: no ferry is possible
    refused = _ferrying(land({"N": "L:N", "S": "L"}, head={"N": 1, "S": 1, "B": 1}))
    with pytest.raises(IllegalAction) as error:
        refused.apply(A.FERRY + RED)
    assert error.value.rule == "ferry.no_free_tile"


def test_ferry_shortfall_moves_as_many_as_fit_by_default():
    """Rule option ferry=as_many_as_fit: with 3 Nobles waiting and 2 free Noble tiles, one Boatswain moves 2."""
    state = _ferrying(land({"N": "L R"}, head={"N": 3, "B": 1}))
    state.apply(A.FERRY + RED)
    assert state.lands[0].head[RED] == 1 and state.lands[0].viking(2, 1) == RED == state.lands[0].viking(2, 2)


def test_ferry_option_any_number_may_stop_after_one():
    """Rule option ferry=any_number (BGG thread 1182761): a ferry may carry fewer than all of a colour."""
    state = _ferrying(land({"N": "L R"}, head={"N": 3, "B": 1}), ferry="any_number")
    state.apply(A.FERRY + RED)
    assert state.step == LAND and A.DONE not in state.legal_actions()
    state.apply(A.viking(2, 2))
    assert A.DONE in state.legal_actions()
    state.apply(A.DONE)
    assert state.lands[0].head[RED] == 2


def test_large_scoring_follows_the_ferrying_of_each_player():
    """rules/000 p.4: each player in turn order ferries first, then scores her Vikings — a ferried Noble scores."""
    state = _ferrying(land({"N": "L"}, head={"N": 1, "B": 1}))
    state.apply(A.FERRY + RED)
    report = state.scorings()[-1]
    assert report["when"] == "large" and any(line["kind"] == "noble" and line["fame"] == 2 for line in report["lines"])


# -- end of game --------------------------------------------------------------------------------------------------


def _end(*lands_, **options):
    state = position(*lands_, options=options)
    return end_scoring(
        state.lands,
        list(range(len(lands_))),
        options.get("zero_majority") == "all_tied",
        options.get("fame_floor") == "zero",
    )


def test_unrepelled_gold_ship_takes_the_shortfall_in_fame():
    """rules/000 p.5: "For every 1 Gold a player is unable to lose, she must lose 1 Fame instead"."""
    lines = _end(land({"ship": "green1"}, gold=2, fame=10), land())
    assert _lines(lines, "ship") == [("ship1", -3, -2)]


def test_every_5_gold_becomes_1_fame_and_1_to_4_gold_stay():
    """rules/000 p.5: "For every 5 Gold remaining in a player's supply, she gains 1 Fame"."""
    state = position(land(gold=14), land(gold=4))
    lines = end_scoring(state.lands, [0, 1], False, False)
    assert _lines(lines, "gold") == [("", 2, -10)]


def test_most_boatswains_10_most_completed_islands_7_longest_island_5_ties_share():
    """rules/000 p.5: Boatswains 10 Fame, completed Islands 7 Fame, longest Island 5 Fame; "In case of a tie ... all
    tied players are awarded"."""
    a = land({"W": "L R", "N": "L M1 M2 R"}, head={"B": 2})
    b = land({"W": "L R", "N": "L M1 M2 R"}, head={"B": 2})
    c = land({"W": "L R"}, head={"B": 1})
    lines = _end(a, b, c)
    assert sorted(
        (line.seat, line.kind, line.fame) for line in lines if line.kind in ("boatswains", "islands", "longest")
    ) == [
        (0, "boatswains", 10),
        (0, "islands", 7),
        (0, "longest", 5),
        (1, "boatswains", 10),
        (1, "islands", 7),
        (1, "longest", 5),
    ]


def test_majority_of_nothing_scores_nobody_by_default_and_everyone_with_all_tied():
    """Rule option zero_majority: when nobody has a Boatswain or a completed island, nobody scores (default);
    with all_tied, everyone tied at zero does."""
    assert not [line for line in _end(land(), land()) if line.kind in ("boatswains", "islands", "longest")]
    kinds = [(line.seat, line.kind) for line in _end(land(), land(), zero_majority="all_tied")]
    assert (0, "boatswains") in kinds and (1, "islands") in kinds and (0, "longest") not in kinds


def test_feeding_counts_vikings_on_islands_and_with_the_head_boatswain_threatened_fishermen_feed_nobody():
    """rules/000 p.5: "Fishermen threatened by Ships or remaining with the Head Boatswain do not provide food ...
    however they must still be fed"."""
    lines = _end(land({"ship": "blue1", "F": "L:F R:F"}, head={"F": 1}), land())
    feeding = next(line for line in lines if line.seat == 0 and line.kind == "feeding")
    assert feeding.fame == 2 * (5 - 3) and "1 Fishermen feed 5, 3 Vikings" in feeding.text


def test_fame_may_go_below_zero_from_penalties_unless_the_floor_option_is_set():
    """Rule option fame_floor: rules/000 forbids going below 0 only for the Fame-for-Gold exchange (p.2)."""
    poor = land({"ship": "blue3"}, fame=2, gold=0)
    assert _lines(_end(poor, land()), "ship") == [("ship1", -5, 0)]
    assert _lines(_end(poor, land(), fame_floor="zero"), "ship") == [("ship1", -2, 0)]


def _finished(fame_gold: list[tuple[int, int]]):
    state = position(*(land(fame=f, gold=g) for f, g in fame_gold), step="game_over", round=6)
    assert state.step == GAME_OVER
    return state


def test_winner_has_most_fame_then_most_gold_then_shares_victory():
    """rules/000 p.5 "Game End": "In case of a tie, the player with the most Gold remaining wins. If there is still
    a tie, the tied players share the victory"."""
    assert _finished([(30, 0), (29, 4)]).winners() == [0]
    assert _finished([(30, 1), (30, 4)]).winners() == [1]
    shared = _finished([(30, 4), (30, 4), (12, 0)])
    assert shared.winners() == [0, 1] and shared.returns() == [0.5, 0.5, 0.0]


def test_goldsmith_and_noble_amounts_at_the_large_scoring():
    """rules/000 p.4 steps 4 and 6: a Noble 2 Fame, a Goldsmith 3 Gold."""
    state = position(land({"N": "L:N", "G": "L:G"}), land())
    lines = large_scoring(0, state.lands[0])
    assert _lines(lines, "noble") == [("N1", 2, 0)] and _lines(lines, "goldsmith") == [("G1", 0, 3)]
    assert (BLUE, YELLOW, BUY) == (0, 1, 2)


def test_round_6_ferrying_must_move_as_many_vikings_as_possible():
    """rules/000 p.4: at the end of round 6 "each player must use her Boatswains to move as many Vikings as
    possible" — with one Boatswain, three Fishermen must go rather than one Goldsmith or one of each."""
    state = _ferrying(land({"G": "L", "F": "L M1 R"}, head={"F": 3, "G": 1, "B": 1}), round_=6)
    assert state.legal_actions() == [A.FERRY + BLUE]
    before = snapshot(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(A.FERRY + YELLOW)
    assert error.value.rule == "ferry.as_many_as_possible" and snapshot(state) == before


def test_round_6_with_two_boatswains_any_plan_reaching_the_most_is_allowed():
    """rules/000 p.4: as many as possible — with 2 Boatswains, 3 Fishermen, 1 Goldsmith and 2 Scouts waiting, the
    most is 5 (Fishermen then Scouts, or one of each then the Fishermen left); Goldsmith alone first cannot reach 5."""
    state = _ferrying(EXAMPLE | {"head": {"F": 3, "G": 1, "S": 2, "B": 2}}, round_=6)
    assert state.legal_actions() == [A.FERRY + BLUE, A.FERRY + GREEN, A.FERRY_EACH]


def test_finished_game_is_scored_end_to_end_once():
    """The end-game scoring runs once, after the round-6 large scoring (rules/000 p.5)."""
    import random

    from skald.engine import play_random_game
    from skald.games.vikings.game import GAME

    state = play_random_game(GAME.new_initial_state(3), random.Random(12))
    assert [r["when"] for r in state.scorings()].count("end") == 1
    assert state.lands[0].head[RED] >= 0
