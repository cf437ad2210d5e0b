"""`skald simulate --compare`: rule variants on the same seeds, each metric's difference with a 95% interval.

The checks use options whose effect is known for sure: a head start for seat 1 in a game registered here, and
Vikings' `fame_floor=zero`, which changes no legal choice (so the same seeds play the same games) but lifts every
negative Fame to zero.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

import bots_fixture_game
from skald.cli.main import app
from skald.engine import RuleOption, State, register
from skald.engine.registry import unregister
from skald.sim.metrics import bootstrap, compare
from skald.sim.simulation import GameSummary

runner = CliRunner()


class HeadStartHaul(bots_fixture_game.Haul):
    """Haul with a rule option giving seat 1 points before the first take."""

    name = "haul-head-start"
    title = "Haul with a head start"
    options = (RuleOption("head_start", 0, (0, 4), "Points seat 1 starts with."),)

    def new_initial_state(self, num_players: int, options: Any = None) -> State:
        state = super().new_initial_state(num_players, options)
        assert isinstance(state, bots_fixture_game.HaulState)
        state.points[0] = self.resolve_options(options)["head_start"]
        return state


@pytest.fixture
def head_start() -> Iterator[None]:
    register(HeadStartHaul())
    yield
    unregister(HeadStartHaul.name)


def comparison(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", *args, "-w", "1", "--json"])
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def metric(data: dict[str, Any], name: str, variant: int = 0) -> dict[str, Any]:
    rows = data["comparison"]["variants"][variant]["metrics"]
    return next(row for row in rows if row["metric"] == name)


def test_a_head_start_for_seat_1_shows_a_significant_seat_advantage(head_start: None):
    data = comparison("haul-head-start", "-p", "3", "-n", "400", "--compare", "head_start=0,4")
    assert data["comparison"]["baseline"] == "head_start=0"
    wins = metric(data, "seat 1 win rate")
    assert wins["significant"] and wins["low"] > 0 and wins["difference"] > 0.1
    for seat in (2, 3):
        assert metric(data, f"seat {seat} win rate")["high"] < 0
    # The same seeds play the same takes (points never change what is legal): the score moves by exactly 4.
    score = metric(data, "seat 1 score")
    assert score["difference"] == score["low"] == score["high"] == 4 and score["significant"]
    length = metric(data, "decisions")
    assert length["difference"] == 0 and not length["significant"]
    advantages = [variant["seats"][0]["advantage"] for variant in data["variants"]]
    assert advantages[1] > advantages[0]


def test_vikings_zero_fame_floor_plays_the_same_games_and_lifts_every_seat_s_score():
    data = comparison("vikings", "-p", "4", "-n", "150", "--compare", "fame_floor=none,zero")
    assert [variant["options"]["fame_floor"] for variant in data["variants"]] == ["none", "zero"]
    assert data["variants"][0]["scores"]["min"] < 0 <= data["variants"][1]["scores"]["min"]
    for name in ("decisions", "actions", "buy per game", "island per game"):
        row = metric(data, name)
        assert row["difference"] == row["low"] == row["high"] == 0 and not row["significant"]
    for seat in range(1, 5):
        row = metric(data, f"seat {seat} score")
        assert row["significant"] and row["low"] > 0


def test_several_compared_options_give_every_combination_against_the_first():
    data = comparison("vikings", "-p", "2", "-n", "20", "--compare", "ship_row=zman,touching")
    assert [variant["label"] for variant in data["variants"]] == ["ship_row=zman", "ship_row=touching"]
    data = comparison(
        "vikings", "-p", "2", "-n", "10", "--compare", "ship_row=zman,touching", "--compare", "fame_floor=none,zero"
    )
    labels = [variant["label"] for variant in data["variants"]]
    assert labels == [
        "ship_row=zman fame_floor=none",
        "ship_row=zman fame_floor=zero",
        "ship_row=touching fame_floor=none",
        "ship_row=touching fame_floor=zero",
    ]
    assert [entry["label"] for entry in data["comparison"]["variants"]] == labels[1:]
    seeds = {tuple(row["seed"] for row in variant["results"]) for variant in data["variants"]}
    assert seeds == {tuple(range(10))}


def test_the_bootstrap_interval_is_fixed_by_its_seed_and_covers_a_constant_difference_exactly():
    import numpy as np

    noisy = np.array([[(i * 7919) % 13 - 6 for i in range(500)]], dtype=np.int64)
    assert bootstrap(noisy) == bootstrap(noisy)
    low, high = bootstrap(noisy)
    assert low[0] < int(noisy.sum()) < high[0]
    constant = np.full((1, 50), 3, dtype=np.int64)
    assert bootstrap(constant) == ([150], [150])


def test_comparing_games_played_on_different_seeds_is_refused():
    def game(seed: int) -> GameSummary:
        return GameSummary(index=0, seed=seed, decisions=1, actions=1, scores=[1, 0], winners=[0], returns=[1.0, 0.0])

    with pytest.raises(ValueError, match="not played on the same seeds"):
        compare([game(1)], [game(2)], 2)


def test_a_comparison_says_how_many_games_the_variant_changed_and_how_many_winners():
    # A zero floor for Fame changes no legal choice, so every game is played alike, but some end with other
    # scores; a head start changes who wins some games, and Haul's takes never depend on the points.
    data = comparison("vikings", "-p", "2", "-n", "30", "--compare", "fame_floor=none,zero")
    changed = data["comparison"]["variants"][0]["changed"]
    assert changed["games"] == 30 and changed["played_differently"] == 0
    assert 0 < changed["results_changed"] <= 30 and changed["winners_changed"] <= changed["results_changed"]
    digests = [[row["digest"] for row in variant["results"]] for variant in data["variants"]]
    assert digests[0] == digests[1] and len(set(digests[0])) == 30


def test_significance_is_corrected_for_many_metrics_by_holms_method_within_each_family(head_start: None):
    data = comparison("haul-head-start", "-p", "3", "-n", "200", "--compare", "head_start=0,4")
    assert "Holm" in data["comparison"]["correction"] and "permutation" in data["comparison"]["test"]
    rows = data["comparison"]["variants"][0]["metrics"]
    assert {row["family"] for row in rows} == {"outcome", "kind"}
    for family in ("outcome", "kind"):
        members = [row for row in rows if row["family"] == family]
        for row in members:
            assert row["p"] <= row["p_adjusted"] <= 1
            assert row["significant"] == (row["p_adjusted"] < 0.05)
    score = metric(data, "seat 1 score")  # +4 in every game: the smallest p the test can give, then corrected
    assert score["p"] == pytest.approx(1 / 10000) and score["significant"]
    assert metric(data, "decisions")["p"] == 1.0


def test_holm_multiplies_the_kth_smallest_p_by_the_hypotheses_left_and_keeps_the_order():
    from skald.sim.metrics import holm

    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([0.9, 0.8, 0.7]) == pytest.approx([1.0, 1.0, 1.0])


def test_the_permutation_p_value_is_one_for_no_change_tiny_for_a_constant_one_and_fixed_by_its_seed():
    import numpy as np

    from skald.sim.metrics import PERMUTATIONS, permutation_p_values

    rows = np.array(
        [[0] * 40, [2] * 40, [(-1) ** i * (i % 5) for i in range(40)]],
        dtype=np.int64,
    )
    p = permutation_p_values(rows)
    assert p[0] == 1.0
    assert p[1] == 1 / (1 + PERMUTATIONS)
    assert p[2] > 0.2  # symmetric noise around zero
    assert permutation_p_values(rows) == p


def test_the_table_puts_the_changed_games_and_outcomes_before_the_action_kinds_that_changed():
    result = runner.invoke(
        app, ["simulate", "vikings", "-p", "2", "-n", "30", "-w", "1", "--compare", "ship_row=zman,touching"]
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    said = text.index("of 30 games on the same seeds,")
    assert "were played differently" in text and "with other winners" in text
    assert said < text.index("Outcomes: ship_row=touching") < text.index("after Holm's correction")
    assert "seat 1 win rate" in text and "pt (" in text  # rates and their differences in points
