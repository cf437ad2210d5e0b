"""The raid: taking tiles, the tile effects in strict order, the four allies, the end of the phase."""

from __future__ import annotations

import pytest
from vikingdoms_kit import B, R, at_raid, board, game_with, play, settle, tile

from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.board import square_from_name


def names(state: S.VikingdomsState, seat: int) -> set[str]:
    return {state.names[t] for t in state.territory[seat]}


def test_the_leader_takes_a_tile_first_and_the_opponent_must_take_the_other() -> None:
    """'The first to take a tile is the player whose Viking leads the troop. His opponent must take the rest.'"""
    state = at_raid(("V1",), ("P2",), ("Mk", "Wk"), "BBBRRR")
    assert state.current_player() == R
    assert state.legal_actions() == sorted([A.TAKE + tile("Mk"), A.TAKE + tile("Wk")])
    play(state, "take Wk")
    assert names(state, R) == {"V1", "Wk"} and names(state, B) == {"P2", "Mk"}


def test_a_tile_of_another_island_cannot_be_taken() -> None:
    """Players raid the territories next to the raid marker."""
    state = at_raid(("V1",), ("P2",), ("Mk", "Wk"), "BBBRRR")
    error = state.illegal_reason(A.TAKE + tile("F1"))
    assert error is not None and "raid marker" in error.reason


def test_prisoners_by_difference_example_4_minus_1_is_3() -> None:
    """'Takes as many Vikings from his opponent as the difference (example: 4-1=3, takes 3 prisoners).'"""
    game = game_with(F1={"prisoners": 4})
    # Prisoners on both sides keep the raid paused at the optional exchange, before the troop disbands.
    state = at_raid(("V2",), ("P2",), ("F1", "V1"), "BBBRRR", lockup=(2, 1), game=game)
    camp, lockup = state.camp[B], state.lockup[R]
    play(state, "take F1")
    assert state.phase == S.EXCHANGING
    assert state.lockup[R] == lockup + 3
    assert state.camp[B] == camp - 3


def test_prisoners_tie_no_prisoners_are_taken() -> None:
    """'In case of a tie, no prisoners are taken.'"""
    state = at_raid(("V2",), ("P2",), ("V1", "P1"), "BBBRRR")
    before = (state.camp[:], state.lockup[:])
    play(state, "take V1")
    assert (state.camp, state.lockup) == before


def test_prisoners_come_from_the_troop_when_the_camp_lacks_them() -> None:
    """'If the opponent doesn't have enough Vikings in his camp, the prisoners are taken from the raiding troop.'"""
    state = at_raid(("V2",), ("V1",), ("F1", "P2"), "BBBRRR", lockup=(8, 1))
    assert state.camp[B] == 1
    play(state, "take F1")
    assert state.camp[B] == 0 and state.lockup[R] == 11
    assert state.troop.count(B) == 1
    settle(state)
    assert state.camp[B] == 1 and state.vikings_of(B) == 12


def test_riot_on_the_second_rioter_opponent_takes_a_tile_of_his_choice_and_its_prisoners() -> None:
    """'When a player collects a second rioter ... his opponent takes a territory tile of his choice ... He also
    receives the prisoners shown on the tile (example: the player loses a tile and 4 prisoners).'"""
    game = game_with(Fm={"prisoners": 4})
    state = at_raid(("V4", "Fm"), ("V1", "F2"), ("P3", "P2"), "BBBRRR", game=game)
    play(state, "take P3")
    assert state.phase == S.RIOTING and state.current_player() == B
    assert state.legal_actions() == sorted(A.RIOT + tile(n) for n in ("V4", "Fm", "P3"))
    red_camp, blue_lockup = state.camp[R], state.lockup[B]
    play(state, "riot Fm")
    assert "Fm" in names(state, B) and "Fm" not in names(state, R)
    assert state.lockup[B] == blue_lockup + 4 and state.camp[R] == red_camp - 4


def test_a_first_rioter_causes_no_riot() -> None:
    """Only the second rioter breaks out a riot."""
    state = at_raid(("V1",), ("V2",), ("P3", "P2"), "BBBRRR")
    play(state, "take P3")
    assert state.phase != S.RIOTING


@pytest.mark.parametrize("taken", ["Mk", "V4", "F2", "P2", "P3"])
def test_a_riot_can_spoil_a_16_coin_victory(taken: str) -> None:
    """'With the port tile, the player has gathered 16 coins, but because he has now collected a second rioter,
    his opponent can take any of his tiles ... at the end of the phase, he won't have 16 coins.'"""
    state = at_raid(("Mk", "V4", "F2", "P2"), ("F1", "Fm"), ("P3", "V1"), "BBBRRR")
    play(state, "take P3")
    assert state.coins(R) == 16
    play(state, f"riot {taken}")
    settle(state)
    assert state.coins(R) < 16
    assert not state.is_terminal() and state.phase == S.RECRUITMENT


def test_riot_targets_option_earlier_protects_the_tile_just_taken() -> None:
    """Rule option riot_targets=earlier: the tile just taken cannot be lost in its own riot."""
    state = at_raid(("V4", "Fm"), ("V1", "F2"), ("P3", "P2"), "BBBRRR", options={"riot_targets": "earlier"})
    play(state, "take P3")
    assert A.RIOT + tile("P3") not in state.legal_actions()
    error = state.illegal_reason(A.RIOT + tile("P3"))
    assert error is not None and "riot_targets" in error.rule


@pytest.mark.parametrize(("held", "island"), [("V1", ("V2", "Mk")), ("P1", ("P2", "Mk")), ("F1", ("F2", "Mk"))])
def test_second_village_port_or_fortress_brings_an_ally(held: str, island: tuple[str, str]) -> None:
    """'When a player collects his second village or port or fortress tile, he will also take an ally tile.'"""
    state = at_raid((held,), ("Wk",), island, "BBBRRR")
    play(state, f"take {island[0]}")
    assert state.phase == S.CHOOSING_ALLY and state.current_player() == R
    assert state.legal_actions() == [A.ALLY + a for a in range(4)]


def test_third_village_brings_no_ally() -> None:
    """Only the second of a kind brings an ally."""
    state = at_raid(("V1", "V2"), ("Wk", "Mk"), ("V3", "Fm"), "BBBRRR")
    play(state, "take V3")
    assert state.phase != S.CHOOSING_ALLY


def test_ally_by_riot() -> None:
    """'(by raiding or by a riot)': taking a second village in a riot brings an ally too."""
    state = at_raid(("V4", "Fm"), ("V1", "F2"), ("P3", "P2"), "BBBRRR")
    play(state, "take P3", "riot V4")
    assert state.phase == S.CHOOSING_ALLY and state.current_player() == B


def test_both_earn_an_ally_the_leader_chooses_first() -> None:
    """'If both players achieve this at the same time, the first to choose is the one whose Viking is on top.'"""
    state = at_raid(("V1",), ("P1",), ("V2", "P2"), "RRRBBB")
    play(state, "take P2")
    assert state.current_player() == B
    play(state, "ally Volund")
    assert state.current_player() == R and A.ALLY + A.VOLUND not in state.legal_actions()


def test_freya_is_kept_for_the_compulsion_rule() -> None:
    """FREYA – the lawbreaker: taken now, she lifts the compulsion later (tested in recruitment)."""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    play(state, "take V2", "ally Freya")
    assert state.allies[A.FREYA] == R


def test_volund_gives_3_coins() -> None:
    """VÖLUND – the wealthy: 'Gives 3 coins to your territory.'"""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    play(state, "take V2")
    coins = state.coins(R)
    play(state, "ally Volund")
    assert state.coins(R) == coins + 3


def test_gunnar_exchanges_two_island_pairs() -> None:
    """GUNNAR – the strategist: 'You may immediately exchange two territory tile pairs between themselves.'"""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    play(state, "take V2", "ally Gunnar")
    assert state.phase == S.GUNNAR_SWAP and state.current_player() == R
    upper, lower = state.island_tiles(1), state.island_tiles(4)
    legal = state.legal_actions()
    assert A.NO_SWAP in legal and len(legal) == 6 + 1  # pairs among the four islands not yet raided
    assert A.SWAP + A.ISLAND_PAIRS.index((0, 1)) not in legal
    play(state, "swap 2-5")
    assert state.island_tiles(1) == lower and state.island_tiles(4) == upper
    settle(state)
    assert state.marker == 1 and state.island_tiles(state.marker) == lower


def test_gunnar_may_be_declined() -> None:
    """'You may': the owner can leave the islands as they are."""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    play(state, "take V2", "ally Gunnar")
    islands = state.islands[:]
    play(state, "no swap")
    assert state.islands == islands


def test_loke_takes_two_prisoners_immediately() -> None:
    """LÖKE – the conqueror: 'You immediately take two prisoners from your opponent, put them in your lockup.'"""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    play(state, "take V2")
    lockup, camp = state.lockup[R], state.camp[B]
    play(state, "ally Loke")
    troop_vikings = 3  # Blue's three Vikings of the disbanded troop are back in camp too
    assert state.lockup[R] == lockup + 2 and state.camp[B] == camp - 2 + troop_vikings


def test_prisoner_exchange_with_two_or_more_prisoners() -> None:
    """'If a player has two or more prisoners, he can initiate a prisoner exchange. They exchange the same number
    of prisoners and place them back into their camp (example: the players exchange 3 prisoners).'"""
    state = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR", lockup=(4, 3))
    play(state, "take Mk")
    assert state.phase == S.EXCHANGING and state.current_player() == R
    assert state.legal_actions() == [A.EXCHANGE, A.EXCHANGE + 1, A.EXCHANGE + 2, A.NO_EXCHANGE]
    camps = state.camp[:]
    play(state, "exchange 3")
    assert state.lockup == [1, 0]
    troop = 3  # each side's three troop Vikings return too, as the raid ends with no exchange left
    assert state.camp == [camps[0] + 3 + troop, camps[1] + 3 + troop]


def test_prisoner_exchange_needs_two_prisoners() -> None:
    """A player with a single prisoner cannot initiate the exchange."""
    state = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR", lockup=(1, 1))
    play(state, "take Mk")
    assert state.phase == S.RECRUITMENT


def test_prisoner_exchange_each_player_may_initiate_leader_first() -> None:
    """Rule option exchange_offers=each: the leader is offered first, then the opponent."""
    state = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR", lockup=(2, 2))
    play(state, "take Mk", "no exchange")
    assert state.phase == S.EXCHANGING and state.current_player() == B
    one = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR", lockup=(3, 3), options={"exchange_offers": "one"})
    play(one, "take Mk", "exchange 1")
    assert one.phase == S.RECRUITMENT


def test_prisoner_exchange_size_option_all() -> None:
    """Rule option exchange_size=all: an exchange swaps all that both lockups allow."""
    state = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR", lockup=(4, 3), options={"exchange_size": "all"})
    play(state, "take Mk")
    assert state.legal_actions() == [A.EXCHANGE + 2, A.NO_EXCHANGE]


def test_end_of_phase_troop_disbanded_to_camps_board_stays_marker_moves_on() -> None:
    """'The phase ends by ... disbanding the raiding troop, each player putting his Vikings back in his own camp,
    and moving the raid marker next to the upcoming island.'"""
    state = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR")
    state.board[square_from_name("a1")] = (R, B)
    state.camp[R] -= 1
    state.camp[B] -= 1
    marker, camps = state.marker, state.camp[:]
    play(state, "take Mk")
    assert state.troop == () and state.camp == [camps[0] + 3, camps[1] + 3]
    assert state.board[square_from_name("a1")] == (R, B)
    assert state.marker == marker + 1 and state.phase == S.RECRUITMENT


def test_board_after_raid_option_cleared() -> None:
    """Rule option board_after_raid=cleared: every stack goes back to the camps too."""
    state = at_raid(("Wk",), ("V1",), ("Mk", "P2"), "BBBRRR", options={"board_after_raid": "cleared"})
    state.board[square_from_name("a1")] = (R, B)
    state.camp[R] -= 1
    state.camp[B] -= 1
    play(state, "take Mk")
    assert state.board[square_from_name("a1")] == () and state.camp == [12, 12]


@pytest.mark.parametrize(("option", "starter"), [("alternate", B), ("not_leader", R)])
def test_next_recruitment_starter_option(option: str, starter: int) -> None:
    """Rule option next_starter: 'alternate' continues the turns (the completing mover's opponent starts);
    'not_leader': the player who did not lead the raid starts."""
    state = board({"a1": "RRB", "c2": "RRRR"}, to_move=R, next_starter=option)
    play(state, "3a1-c2")
    assert state.leader == B and state.completer == R
    state.apply(state.legal_actions()[0])
    settle(state)
    assert state.phase == S.RECRUITMENT and state.current_player() == starter


def test_victory_with_three_villages() -> None:
    """'3 identical buildings in his territory – 3 villages' wins at the end of the raiding phase."""
    state = at_raid(("V1", "V2"), ("Wk", "Mk"), ("V3", "Fm"), "BBBRRR")
    play(state, "take V3")
    assert state.is_terminal() and state.winners() == [R] and state.returns() == [1.0, 0.0]


def test_victory_with_three_ports() -> None:
    """'... or 3 ports' wins."""
    state = at_raid(("Wk", "Mk"), ("P1", "P2"), ("V3", "P3"), "BBBRRR")
    play(state, "take V3")
    assert state.winners() == [B]


def test_victory_with_16_coins() -> None:
    """'... or has 16 coins collected' wins."""
    state = at_raid(("Mk", "Wk"), ("V1", "V2"), ("Fm", "F1"), "RRRBBB")
    play(state, "take F1")
    assert state.coins(R) == 14
    settle(state)
    assert not state.is_terminal()
    state = at_raid(("Mk", "Wk"), ("V1", "V2"), ("Fm", "F2"), "BBBRRR")
    play(state, "take Fm")
    settle(state)
    assert state.coins(R) == 14 and not state.is_terminal()
    state = at_raid(("Mk", "Wk", "V3", "P2"), ("V1", "V2"), ("Fm", "F2"), "BBBRRR")
    play(state, "take Fm")
    assert state.coins(R) == 18 and state.winners() == [R]


def test_three_identical_buildings_beat_16_coins() -> None:
    """'If both reach a victory condition at the same time, the player with the 3 identical buildings wins.'"""
    state = at_raid(("V1", "V2"), ("Mk", "Wk", "Fm"), ("V3", "P2"), "RRRBBB")
    play(state, "take P2")
    assert state.coins(B) == 16 and state.count(R, "village") == 3
    assert state.winners() == [R]


@pytest.mark.parametrize(("troop", "take", "winner"), [("BBBRRR", "V3", R), ("RRRBBB", "P3", B)])
def test_both_build_three_identical_buildings_the_leader_wins(troop: str, take: str, winner: int) -> None:
    """'If both have built 3 identical buildings (3 villages, the other 3 ports) ... the winner is the player who
    had his Viking leading the last raiding troop.'"""
    state = at_raid(("V1", "V2"), ("P1", "P2"), ("V3", "P3"), troop)
    play(state, f"take {take}")
    settle(state)
    assert state.count(R, "village") == 3 and state.count(B, "port") == 3
    assert state.winners() == [winner]


@pytest.mark.parametrize(("troop", "take", "winner"), [("BBBRRR", "V3", R), ("RRRBBB", "V1", B)])
def test_both_collect_16_coins_the_leader_wins(troop: str, take: str, winner: int) -> None:
    """'... or both collected 16 coins, the winner is the player who had his Viking leading the last troop.'"""
    state = at_raid(("Mk", "Wk", "Fm"), ("V4", "P3", "F1", "F2", "P2"), ("V3", "V1"), troop)
    state.allies[A.VOLUND] = B
    play(state, f"take {take}")
    settle(state)
    assert state.coins(R) == 16 and state.coins(B) == 16
    assert state.winners() == [winner]


@pytest.mark.parametrize(("option", "winner"), [("most_coins", R), ("last_leader", B)])
def test_islands_exhausted_option(option: str, winner: int) -> None:
    """Rule option islands_exhausted: with a poorer tile table the five islands can run out without a winner."""
    game = game_with(Mk={"coins": 0}, Wk={"coins": 0})
    red = ("V1", "V3", "P1", "P2", "Fm")
    blue = ("V2", "V4", "P3", "F2", "Mk")
    state = at_raid(red, blue, ("F1", "Wk"), "RRRBBB", game=game, options={"islands_exhausted": option})
    play(state, "take Wk")
    settle(state)
    assert state.coins(R) == 11 and state.coins(B) == 9
    assert state.is_terminal() and state.winners() == [winner]
