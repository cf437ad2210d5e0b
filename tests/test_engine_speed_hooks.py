"""The speed hooks of the contract change nothing a game does: `State.sample_chance_outcome` draws with
exactly the probabilities that `chance_outcomes()` lists, and random play through `apply_legal` plays the same games."""

from __future__ import annotations

import random

import pytest

from skald.engine import CHANCE, State, get_game, play_random_game, sample_chance
from skald.engine.state import State as ContractState

CHI_SQUARE_999: dict[int, float] = {}  # degrees of freedom -> the 99.9% point, filled below


def chi_square_999(degrees: int) -> float:
    """The 99.9% point of chi-square with `degrees` degrees of freedom (Wilson–Hilferty; ample for a bound)."""
    if degrees not in CHI_SQUARE_999:
        z = 3.0902  # the normal's 99.9% point
        k = float(degrees)
        CHI_SQUARE_999[degrees] = k * (1 - 2 / (9 * k) + z * (2 / (9 * k)) ** 0.5) ** 3
    return CHI_SQUARE_999[degrees]


def chance_nodes(game: str, players: int, options: dict[str, str], count: int) -> list[State]:
    """Chance nodes met in a seeded random game: the first of each kind and then every few."""
    rng = random.Random(players)
    state = get_game(game).new_initial_state(players, options)
    found: list[State] = []
    while not state.is_terminal() and len(found) < count:
        if state.current_player() == CHANCE:
            if len(state.history) % 7 == 0 or not found:
                found.append(state.clone())
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return found


CASES = [
    ("vikings", 2, {"variant": "base"}),
    ("vikings", 4, {"variant": "base"}),
    ("vikings", 3, {"variant": "advanced"}),
    ("vikings", 4, {"variant": "advanced", "auction": "off"}),
    ("vikingdoms", 2, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_the_chance_hook_draws_each_outcome_with_its_listed_probability(game, players, options):
    draws = 4000
    for state in chance_nodes(game, players, options, 6):
        listed = dict(state.chance_outcomes())
        rng = random.Random(2026)
        seen: dict[int, int] = {}
        for _ in range(draws):
            outcome = state.sample_chance_outcome(rng)
            seen[outcome] = seen.get(outcome, 0) + 1
        assert set(seen) <= set(listed), "the hook drew an outcome chance_outcomes() does not list"
        likely = [a for a, p in listed.items() if p * draws >= 5]
        statistic = sum((seen.get(a, 0) - listed[a] * draws) ** 2 / (listed[a] * draws) for a in likely)
        if len(likely) > 1:
            assert statistic < chi_square_999(len(likely) - 1), (state.history, seen, listed)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_the_chance_hook_reaches_every_listed_outcome_and_no_other(game, players, options):
    for state in chance_nodes(game, players, options, 4):
        listed = {a for a, _ in state.chance_outcomes()}
        rng = random.Random(7)
        drawn = {state.sample_chance_outcome(rng) for _ in range(20 * len(listed) + 2000)}
        assert drawn == listed


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_the_chance_hook_draws_what_the_contracts_walk_over_chance_outcomes_draws(game, players, options):
    # A game's own hook must give the same outcome as the default for the same generator, so seeded games, searches
    # and recorded test games stay exactly as they were.
    for state in chance_nodes(game, players, options, 6):
        for seed in range(300):
            assert state.sample_chance_outcome(random.Random(seed)) == ContractState.sample_chance_outcome(
                state, random.Random(seed)
            )


def test_random_play_through_apply_legal_plays_a_game_that_replays_through_apply():
    for seed in range(5):
        played = play_random_game(get_game("vikings").new_initial_state(4), random.Random(seed))
        replayed = get_game("vikings").new_initial_state(4)
        for action in played.history:
            replayed.apply(action)
        assert replayed.is_terminal()
        assert (replayed.scores(), replayed.scorings()) == (played.scores(), played.scorings())


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_random_play_chooses_as_rng_choice_over_the_legal_actions_would(game, players, options):
    """`play_random_game` spells out `Random.choice` for speed: the same seed must give the very same game as the
    plain loop that chooses with `rng.choice(legal_actions())` and draws chance with `sample_chance`."""
    for seed in range(3):
        fast = play_random_game(get_game(game).new_initial_state(players, options), random.Random(seed))
        rng = random.Random(seed)
        plain = get_game(game).new_initial_state(players, options)
        while not plain.is_terminal():
            if plain.current_player() == CHANCE:
                plain.apply(sample_chance(plain, rng))
            else:
                plain.apply(rng.choice(plain.legal_actions()))
        assert fast.history == plain.history
