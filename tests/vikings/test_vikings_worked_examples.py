"""The worked examples printed in the Vikings rulebook (rules/000_682062401d0e4b7d.txt), as tests."""

from __future__ import annotations

from vikings_kit import land, position

from skald.games.vikings.scoring import end_scoring, large_scoring, small_scoring

# rules/000 p.4, "Example of a large scoring": ships in columns 1–3 (a 3-Fame ship and a 3-Gold ship repelled by
# Warriors, a green ship threatening down to the Scout row), Nobles, Scouts with Goldsmiths and a Fisherman below.
BROWN = land(
    {
        "ship": "green2 red3 green1",
        "W": "L:W R:W",
        "N": "L M1:N R:N",
        "S": "L:S M2:S R:S",
        "G": "L M3:G R:G",
        "F": "L M4 R:F",
    }
)


def totals(lines: list, seat: int = 0) -> tuple[int, int]:
    mine = [line for line in lines if line.seat == seat]
    return sum(line.fame for line in mine), sum(line.gold for line in mine)


def test_large_scoring_example_gives_8_fame_and_9_gold():
    """rules/000 p.4: "The brown player would be awarded a total of 8 Fame and 9 Gold during a large scoring"."""
    state = position(BROWN, land())
    assert totals(large_scoring(0, state.lands[0])) == (8, 9)


def test_large_scoring_example_itemises_each_viking_and_ship():
    """rules/000 p.4 captions: each Viking and ship of the example with what it scored."""
    lines = large_scoring(0, position(BROWN, land()).lands[0])
    by_square = {(line.kind, line.square): (line.fame, line.gold) for line in lines}
    assert by_square[("warrior", "W1")] == (3, 0)  # "3 Fame for the repelled ship."
    assert by_square[("warrior", "W2")] == (0, 3)  # "3 Gold for the repelled ship."
    assert by_square[("noble", "N3")] == (0, 0)  # "No Fame for the Noble, as it is threatened by a ship."
    assert by_square[("noble", "N2")] == (2, 0)  # "2 Fame for the Noble."
    assert by_square[("scout", "S1")] == (1, 0)  # "1 Fame for the Scout."
    assert by_square[("scout", "S3")] == (0, 0)  # "No Fame for the Scout, nor for the Vikings below it"
    assert by_square[("scout", "S2")] == (2, 0)  # "1 Fame for the Scout, plus 1 additional Fame for the Goldsmith"
    assert by_square[("goldsmith", "G2")] == (0, 3)
    assert by_square[("goldsmith", "G3")] == (0, 3)


def test_same_display_gives_6_gold_at_a_small_scoring():
    """rules/000 p.4: "The same configuration would award the brown player 6 Gold during a small scoring"."""
    assert totals(small_scoring(0, position(BROWN, land()).lands[0])) == (0, 6)


def _feeding_line(lines: list, seat: int):
    return next(line for line in lines if line.seat == seat and line.kind == "feeding")


def test_feeding_example_adele_overfeeds_by_2_for_4_fame_and_bruno_underfeeds_by_8():
    """rules/000 p.5: Adele, 23 Vikings and 5 Fishermen, +4 Fame; Bruno, 23 Vikings and 3 Fishermen, −8 Fame."""
    adele = land({"F": "L:F M1:F M2:F M3:F R:F"}, head={"G": 18})
    bruno = land({"F": "L:F M1:F R:F"}, head={"G": 20})
    state = position(adele, bruno)
    assert [m.vikings_owned() for m in state.lands] == [23, 23]
    lines = end_scoring(state.lands, [0, 1], zero_majority=False, fame_floor=False)
    assert _feeding_line(lines, 0).fame == 4
    assert _feeding_line(lines, 1).fame == -8


def test_end_game_ship_example_green_costs_5_gold_blue_costs_3_fame():
    """rules/000 p.5: "The Ship with the green sail would cause the player to lose 5 Gold. The Ship with the blue
    sail would cause the player to lose 3 Fame."""
    state = position(land({"ship": "green1 blue1"}, gold=7), land())
    ships = [line for line in end_scoring(state.lands, [0, 1], False, False) if line.kind == "ship"]
    assert [(line.fame, line.gold) for line in ships] == [(0, -5), (-3, 0)]
