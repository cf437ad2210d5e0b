"""Recruitment on the 4×4 board (research note §3, from Six MaKING): placing, moving by height, the troop."""

from __future__ import annotations

import pytest
from vikingdoms_kit import B, R, board, moves_from, play, targets_from

from skald.engine import IllegalAction
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.board import square_from_name


def test_place_a_viking_from_your_camp_on_any_empty_square() -> None:
    """'Place one of your Vikings on any empty square' (research §3.1.2)."""
    state = board({"a1": "R", "b2": "B"})
    camp = state.camp[R]
    places = {a - A.PLACE for a in state.legal_actions() if A.kind(a) == "place"}
    assert places == set(range(16)) - {square_from_name("a1"), square_from_name("b2")}
    play(state, "c3")
    assert state.board[square_from_name("c3")] == (R,)
    assert state.camp[R] == camp - 1
    assert state.to_move == B


def test_place_not_on_an_occupied_square() -> None:
    """A placed Viking goes on an empty square; only moves end on a stack."""
    state = board({"a1": "R"})
    with pytest.raises(IllegalAction, match="empty square"):
        state.apply(A.PLACE + square_from_name("a1"))


def test_place_needs_vikings_in_your_camp() -> None:
    """Vikings are placed from your own camp; prisoners in the lockup are not yours to place."""
    state = board({"a1": "R"})
    state.camp[R] = 0
    error = state.illegal_reason(A.PLACE + square_from_name("c3"))
    assert error is not None and "camp" in error.rule


def test_height_1_moves_like_a_pawn_one_square_orthogonally_onto_a_troop() -> None:
    """Height 1, pawn: one square orthogonally, onto an adjacent troop (never diagonally, never onto empty)."""
    state = board({"b2": "R", "b3": "B", "c2": "B", "c3": "B", "b4": "B"})
    assert targets_from(state, "b2") == {"b3", "c2"}


def test_height_2_moves_like_a_rook_to_the_first_troop_in_its_path() -> None:
    """Height 2, rook: orthogonally across empty squares onto the first troop in its path."""
    state = board({"a1": "RB", "a3": "R", "a4": "B", "d1": "R", "c2": "B"})
    assert targets_from(state, "a1") == {"a3", "d1"}
    assert moves_from(state, "a1") == {("a3", 1), ("a3", 2), ("d1", 1), ("d1", 2)}


def test_height_3_moves_like_a_knight_jumping_over_troops() -> None:
    """Height 3, knight: an L-shaped jump over whatever stands between."""
    state = board({"a1": "RRB", "a2": "R", "b1": "R", "b2": "B", "b3": "B", "c2": "R", "c1": "B"})
    assert targets_from(state, "a1") == {"b3", "c2"}


def test_height_4_moves_like_a_bishop_diagonally_to_the_first_troop() -> None:
    """Height 4, bishop: diagonally across empty squares onto the first troop in its path."""
    state = board({"a1": "RRBB", "c3": "R", "d4": "B", "a2": "B", "b1": "B"})
    assert targets_from(state, "a1") == {"c3"}


def test_height_5_moves_like_a_queen_in_all_eight_directions() -> None:
    """Height 5, queen: orthogonally or diagonally, to the first troop in each of its paths."""
    state = board({"b2": "RRBBR", "b4": "B", "d2": "B", "d4": "R", "a1": "B", "a2": "R", "c1": "B"})
    assert targets_from(state, "b2") == {"b4", "d2", "d4", "a1", "a2", "c1"}


def test_top_part_moves_as_the_full_stack_height_dictates() -> None:
    """'Movement depends on the height of the whole troop before it is split.' A 3-stack's top Viking jumps."""
    state = board({"a1": "RBR", "b3": "B", "a2": "B"})
    assert moves_from(state, "a1") == {("b3", 1), ("b3", 2), ("b3", 3)}
    play(state, "1a1-b3")
    assert state.board[square_from_name("a1")] == (R, B)
    assert state.board[square_from_name("b3")] == (B, R)


def test_any_troop_may_be_moved_whatever_colour_is_on_top() -> None:
    """'You may move any troop on the board, whatever colour is on top.'"""
    state = board({"a1": "B", "a2": "B"}, to_move=R)
    assert targets_from(state, "a1") == {"a2"}


def test_a_move_never_ends_on_an_empty_square() -> None:
    """A move must end on top of another troop."""
    state = board({"a1": "R", "c3": "B"})
    error = state.illegal_reason(A.move_id(square_from_name("a1"), square_from_name("a2"), 1))
    assert error is not None and "another troop" in error.rule


def test_a_move_out_of_the_pieces_reach_names_the_height_rule() -> None:
    """A pawn cannot reach a troop two squares away."""
    state = board({"a1": "R", "a3": "B"})
    error = state.illegal_reason(A.move_id(square_from_name("a1"), square_from_name("a3"), 1))
    assert error is not None and "full height" in error.rule and "pawn" in error.reason


def test_a_stack_of_six_or_more_is_the_raiding_troop_led_by_its_top_viking() -> None:
    """'Each raid requires a larger troop of six or more Vikings'; the Viking on top leads."""
    state = board({"a1": "BBR", "b3": "RRB"}, to_move=R)
    play(state, "3a1-b3")
    assert state.phase == S.TAKING
    assert state.troop == (R, R, B, B, B, R)
    assert state.leader == R and state.current_player() == R
    assert not state.board[square_from_name("b3")] and not state.board[square_from_name("a1")]


def test_a_troop_may_be_taller_than_six() -> None:
    """'Six or more': five onto four makes a troop of nine."""
    state = board({"a1": "BBBBR", "a2": "RRRB"}, to_move=B)
    play(state, "5a1-a2")
    assert len(state.troop) == 9 and state.leader == R


def test_compulsion_you_must_form_a_troop_with_your_own_viking_on_top() -> None:
    """Compulsion (ludorium): if you can form a raiding troop with your Viking on top, you must."""
    state = board({"a1": "BR", "a2": "RRBB", "d4": "B"}, to_move=R)
    legal = state.legal_actions()
    assert legal == [A.move_id(square_from_name("a1"), square_from_name("a2"), 2)]
    error = state.illegal_reason(A.PLACE + square_from_name("c3"))
    assert error is not None and "compulsion" in error.rule


def test_compulsion_is_lifted_by_freya() -> None:
    """FREYA – the lawbreaker: 'It is no longer mandatory to build the raiding troop with your Viking on top!'"""
    state = board({"a1": "BR", "a2": "RRBB", "d4": "B"}, to_move=R)
    state.allies[A.FREYA] = R
    legal = state.legal_actions()
    assert A.move_id(square_from_name("a1"), square_from_name("a2"), 2) in legal
    assert A.PLACE + square_from_name("c3") in legal
    assert A.move_id(square_from_name("a1"), square_from_name("a2"), 1) in legal


def test_freya_helps_only_her_owner() -> None:
    """Freya lifts the compulsion for her owner alone."""
    state = board({"a1": "BR", "a2": "RRBB", "d4": "B"}, to_move=R)
    state.allies[A.FREYA] = B
    assert len(state.legal_actions()) == 1


def test_compulsion_does_not_force_a_troop_with_the_opponents_viking_on_top() -> None:
    """The compulsion covers only troops with your own colour on top (research §3.2)."""
    state = board({"a1": "RB", "a2": "RRBB"}, to_move=R)
    legal = state.legal_actions()
    assert A.PLACE + square_from_name("c3") in legal
    assert A.move_id(square_from_name("a1"), square_from_name("a2"), 2) in legal


def test_pass_only_when_nothing_is_possible() -> None:
    """A player with an empty camp and no legal move passes (research §3.2)."""
    state = board({"a1": "R", "d4": "B"}, to_move=R)
    state.camp[R] = 0
    assert state.legal_actions() == [A.PASS]
    state.camp[R] = 1
    assert A.PASS not in state.legal_actions()
    assert state.illegal_reason(A.PASS) is not None


def test_both_pass_fallback_the_tallest_troop_raids() -> None:
    """Rule option both_pass=tallest_troop: after two passes in a row the tallest stack becomes the troop."""
    state = board({"a1": "RRB", "d4": "B"}, to_move=R)
    state.camp = [0, 0]
    play(state, "pass")
    assert state.phase == S.RECRUITMENT and state.to_move == B
    play(state, "pass")
    assert state.phase == S.TAKING and state.troop == (R, R, B) and state.leader == B


def test_both_pass_fallback_tie_the_player_to_move_picks() -> None:
    """On equal tallest stacks, the player to move next picks the troop."""
    state = board({"a1": "RR", "d4": "BR"}, to_move=R)
    state.camp = [0, 0]
    play(state, "pass", "pass")
    assert state.phase == S.CHOOSING_TROOP and state.to_move == R
    assert state.legal_actions() == [A.TROOP + square_from_name("a1"), A.TROOP + square_from_name("d4")]
    play(state, "troop d4")
    assert state.troop == (B, R) and state.leader == R


def test_both_pass_void_option_sets_the_island_aside() -> None:
    """Rule option both_pass=void: the island by the marker is set aside unraided and the marker moves on."""
    state = board({"a1": "RR", "d4": "BR"}, to_move=R, both_pass="void")
    state.camp = [0, 0]
    play(state, "pass", "pass")
    assert state.raided[0] and state.island_tiles(0) == []
    assert state.marker == 1 and state.phase == S.RECRUITMENT


def test_undo_ban_option_forbids_moving_straight_back() -> None:
    """Rule option undo_ban (off by default): the reverse of the move just made is forbidden."""
    state = board({"a1": "RRR", "b3": "BB"}, to_move=R, undo_ban=True)
    play(state, "1a1-b3")
    assert ("a1", 1) not in moves_from(state, "b3")
    error = state.illegal_reason(A.move_id(square_from_name("b3"), square_from_name("a1"), 1))
    assert error is not None and "undo_ban" in error.rule
    free = board({"a1": "RRR", "b3": "BB"}, to_move=R)
    play(free, "1a1-b3")
    assert ("a1", 1) in moves_from(free, "b3")


def test_the_less_wealthy_player_places_the_raid_marker_and_starts() -> None:
    """Set-up (7): 'The player who has placed the raid marker starts the game, then they take turns.'"""
    state = board({})
    assert state.starter == R and state.to_move == R
    play(state, "a1")
    assert state.to_move == B
