"""The tournament runner: fair seating, seeds derived per game, identical results for any worker count."""

from __future__ import annotations

from collections import Counter

import pytest

import bots_fixture_game
from skald.sim import TournamentConfig, run_tournament, to_dict, wilson
from skald.sim.lineup import entrant_names, lineups
from skald.sim.match import ranks_of

HAUL = bots_fixture_game.GAME.name


def deterministic(data: dict[str, object]) -> dict[str, object]:
    """A result's JSON without what depends on the run (wall time, backend, worker count)."""
    return {k: v for k, v in data.items() if k not in ("timing", "backend", "workers")}


def test_the_last_bot_fills_the_remaining_seats_and_repeats_are_numbered() -> None:
    assert entrant_names(["mcts:normal", "greedy"], 4) == ["mcts:normal", "greedy", "greedy#2", "greedy#3"]
    assert entrant_names(["greedy", "random"], 2) == ["greedy", "random"]
    with pytest.raises(ValueError):
        entrant_names([], 2)


@pytest.mark.parametrize(("bots", "players"), [(2, 2), (3, 3), (4, 4), (3, 2), (4, 3), (5, 4)])
def test_over_a_cycle_every_entrant_sits_in_every_seat_equally_often(bots: int, players: int) -> None:
    names = [f"bot{i}" for i in range(bots)]
    cycle = lineups(names, players)
    seat_counts = Counter((seat, name) for lineup in cycle for seat, name in enumerate(lineup))
    assert len(set(seat_counts.values())) == 1
    assert {name for _, name in seat_counts} == set(names)
    assert all(len(set(lineup)) == players for lineup in cycle)


def test_two_players_alternate_seats() -> None:
    assert lineups(["a", "b"], 2) == [("a", "b"), ("b", "a")]


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ranks_put_winners_first_then_scores_with_ties_shared() -> None:
    assert ranks_of([10, 30, 30, 5], [1]) == [3, 1, 2, 4]
    assert ranks_of([30, 30, 5], [0, 1]) == [1, 1, 3]


def test_results_are_identical_whatever_the_number_of_workers() -> None:
    config = TournamentConfig(HAUL, ("mcts:iters=30", "greedy", "random"), 3, 12, seed=4)
    alone = run_tournament(config, workers=1)
    pooled = run_tournament(config, workers=2)
    assert deterministic(to_dict(alone)) == deterministic(to_dict(pooled))
    assert [g.index for g in pooled.games] == list(range(12))
    assert len({g.seed for g in pooled.games}) == 12
    changed = run_tournament(TournamentConfig(HAUL, config.bots, 3, 12, seed=5), workers=1)
    assert [g.seed for g in changed.games] != [g.seed for g in alone.games]


def test_summaries_count_every_seat_of_every_game() -> None:
    config = TournamentConfig(HAUL, ("greedy", "random"), 4, 8, seed=1)
    result = run_tournament(config, workers=1)
    by_name = {e.name: e for e in result.entrants}
    assert set(by_name) == {"greedy", "random", "random#2", "random#3"}
    assert all(e.games == 8 for e in result.entrants)
    assert sum(e.wins for e in result.entrants) == pytest.approx(8)
    assert sum(s.wins for s in result.seats) == pytest.approx(8)
    assert sum(s.advantage for s in result.seats) == pytest.approx(0)
    assert by_name["greedy"].rating_mu > by_name["random"].rating_mu
