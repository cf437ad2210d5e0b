"""Set-up (rules text, SET-UP 1–7) and the tile table (research note §4)."""

from __future__ import annotations

from collections import Counter

import pytest
from vikingdoms_kit import DEFAULT_ORDER, GAME, B, R, dealt, tile

from skald.engine import CHANCE
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.tiles import load_tiles, parse_tiles


def test_setup_3_tiles_are_shuffled_as_chance_draws() -> None:
    """(3) 'Shuffle the 12 territory tiles and both players randomly draw one': each draw a chance node."""
    state = GAME.new_initial_state(2)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 12 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply(A.DEAL + tile("Mk"))
    assert len(state.chance_outcomes()) == 11
    assert A.DEAL + tile("Mk") not in state.legal_actions()


def test_setup_3_each_player_draws_one_and_ten_tiles_make_five_islands() -> None:
    """(3) The remaining tiles lie in pairs: the five islands."""
    state = dealt()
    assert state.territory == [(tile("V1"),), (tile("P2"),)]
    assert [len(state.island_tiles(p)) for p in range(5)] == [2, 2, 2, 2, 2]
    assert state.island_tiles(0) == [tile("V2"), tile("V3")]


def test_setup_5_take_as_many_vikings_as_prisoners_on_your_tile() -> None:
    """(5) 'Take as many Vikings from your opponent as shown on your territory tiles, place them in your lockup.'"""
    state = dealt(("F1", "V2", *[n for n in DEFAULT_ORDER if n not in ("F1", "V2")]))
    assert state.lockup == [3, 2]
    assert state.camp == [12 - 2, 12 - 3]


def test_setup_7_the_less_wealthy_player_chooses_the_start_island() -> None:
    """(7) The owner of the territory with fewer coins decides from which island the raiding starts."""
    state = GAME.new_initial_state(2)
    for name in ("Mk", "V1", *[n for n in DEFAULT_ORDER if n not in ("Mk", "V1")]):
        state.apply(A.DEAL + tile(name))
    assert state.phase == S.CHOOSING_START and state.current_player() == B
    assert state.legal_actions() == [A.START, A.START + 1]


def test_setup_7_a_tie_in_coins_goes_to_the_youngest_chosen_at_random() -> None:
    """(7) 'In case of a tie, the youngest player': a fair chance node, recorded like any draw."""
    state = GAME.new_initial_state(2)
    for name in ("V1", "P1", *[n for n in DEFAULT_ORDER if n not in ("V1", "P1")]):
        state.apply(A.DEAL + tile(name))
    assert state.current_player() == CHANCE and state.phase == S.YOUNGEST
    assert state.chance_outcomes() == [(A.YOUNGEST, 0.5), (A.YOUNGEST + 1, 0.5)]
    state.apply(A.YOUNGEST + 1)
    assert state.current_player() == B and state.phase == S.CHOOSING_START


def test_setup_7_upper_island_raided_first_then_downwards() -> None:
    """(7) Starting from the upper island, the raid marker moves on to the next island below."""
    state = dealt(start="upper")
    assert state.marker == 0 and state.direction == 1


def test_setup_7_lower_island_raided_first_then_upwards() -> None:
    """(7) Starting from the lower island, the raid marker moves upwards."""
    state = dealt(start="lower")
    assert state.marker == 4 and state.direction == -1
    assert state.current_player() == R


def test_observation_never_reveals_undrawn_tiles() -> None:
    """What a seat may see: drawn tiles lie face up; of the shuffled rest only how many remain."""
    first, second = GAME.new_initial_state(2), GAME.new_initial_state(2)
    for name in ("V1", "P2", "Mk"):
        first.apply(A.DEAL + tile(name))
        second.apply(A.DEAL + tile(name))
    first.apply(A.DEAL + tile("Wk"))
    second.apply(A.DEAL + tile("Wk"))
    assert first.observation(0) == second.observation(0)
    assert first.observation(1)["undrawn"] == 8
    text = str(first.observation(0))
    assert "Fm" not in text and "F1" not in text


def test_tile_table_has_the_confirmed_building_counts() -> None:
    """4 villages, 3 ports, 2 fortresses (confirmed); one workshop, farm, marketplace (inferred)."""
    tiles = load_tiles()
    counts = Counter(t.building for t in tiles)
    assert counts == {"village": 4, "port": 3, "fortress": 2, "workshop": 1, "farm": 1, "marketplace": 1}


def test_tile_table_has_two_rioters_one_on_a_port() -> None:
    """'Two tiles also contain rioters'; one of them is a port (confirmed)."""
    rioters = [t for t in load_tiles() if t.rioter]
    assert len(rioters) == 2 and sum(t.building == "port" for t in rioters) == 1


def test_tile_table_totals_31_coins_and_every_entry_has_a_provenance() -> None:
    """Research §4.2: 31 coins guarantee a 16-coin winner after the fifth raid; provenance per entry."""
    tiles = load_tiles()
    assert sum(t.coins for t in tiles) == 31
    assert {t.provenance for t in tiles} <= {"confirmed", "inferred", "provisional"}


def test_option_second_rioter_marketplace_moves_the_rioter() -> None:
    """Rule option second_rioter: the reconstructed rioter on a village can be moved to the marketplace."""
    state = GAME.new_initial_state(2, {"second_rioter": "marketplace"})
    rioters = sorted(t.name for t in state.tiles if t.rioter)
    assert rioters == ["Mk", "P3"]
    assert sorted(t.name for t in GAME.new_initial_state(2).tiles if t.rioter) == ["P3", "V4"]


def test_tile_table_errors_name_the_field() -> None:
    """A replacement table is checked entry by entry."""
    with pytest.raises(ValueError, match=r"tile\[0\]\.coins"):
        parse_tiles(
            "\n".join(
                f'[[tile]]\nname = "T{i}"\nbuilding = "farm"\ncoins = {-1 if i == 0 else 1}\n'
                'prisoners = 0\nrioter = false\nprovenance = "provisional"'
                for i in range(12)
            )
        )
