"""Whole games between bots: the same seed gives the same game; search and heuristics beat chance."""

from __future__ import annotations

import random

import pytest

import bots_fixture_game
from skald.bots import LEVELS, MCTSBot, MCTSConfig, SpecError, make_bot
from skald.bots.mcts import _Budget
from skald.engine import CHANCE, PERFECT, State, get_game, sample_chance
from skald.sim import GameTask, derive_seed, play_game

HAUL = bots_fixture_game.GAME.name


def task(game: str, specs: tuple[str, ...], index: int, master: int = 5) -> GameTask:
    return GameTask(game, len(specs), index, derive_seed(master, index), specs, specs)


@pytest.mark.parametrize(
    ("game", "specs"),
    [
        ("vikings", ("mcts:iters=20", "greedy")),
        ("vikings", ("random", "mcts:iters=10:depth=none", "greedy")),
        ("vikings", ("greedy", "random", "greedy", "mcts:iters=30")),
        (HAUL, ("mcts:iters=40", "greedy", "random", "mcts:iters=20:depth=0")),
    ],
)
def test_the_same_seed_plays_the_same_game(game: str, specs: tuple[str, ...]) -> None:
    first = play_game(task(game, specs, 0))
    again = play_game(task(game, specs, 0))
    assert first.outcome() == again.outcome()
    other = play_game(task(game, specs, 1))
    assert other.actions_digest != first.actions_digest


def test_greedy_beats_random_and_mcts_beats_greedy_at_haul() -> None:
    def wins(specs: tuple[str, str], games: int) -> float:
        total = 0.0
        for index in range(games):
            seating = specs if index % 2 == 0 else specs[::-1]
            result = play_game(task(HAUL, seating, index))
            total += result.returns[seating.index(specs[0])]
        return total / games

    assert wins(("greedy", "random"), 40) >= 0.8
    assert wins(("mcts:iters=200", "greedy"), 30) >= 0.55


def test_spec_strings_build_the_named_bots_and_levels() -> None:
    assert make_bot("random").spec == "random"
    bot = make_bot("mcts")
    assert isinstance(bot, MCTSBot) and bot.config == LEVELS["normal"]
    hard = make_bot("mcts:hard")
    assert isinstance(hard, MCTSBot) and hard.config == LEVELS["hard"]
    tuned = make_bot("mcts:easy:iters=500:c=1.2:depth=none:temp=2")
    assert isinstance(tuned, MCTSBot)
    assert tuned.config == MCTSConfig(
        iterations=500,
        seconds=None,
        exploration=1.2,
        rollout_depth=None,
        temperature=2.0,
    )
    timed = make_bot("mcts:seconds=0.05")
    assert isinstance(timed, MCTSBot) and timed.config.iterations is None and timed.config.seconds == 0.05
    capped = make_bot("mcts:hard:seconds=3")
    assert isinstance(capped, MCTSBot)
    assert capped.config.iterations == LEVELS["hard"].iterations and capped.config.seconds == 3.0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("minimax", "unknown bot"),
        ("greedy:fast", "takes no settings"),
        ("mcts:insane", "neither a level"),
        ("mcts:iters=lots", "expects int"),
        ("mcts:iters=0", "at least 1"),
        ("mcts:iters=none", "budget"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        make_bot(spec)


def test_a_time_budget_still_returns_a_legal_action() -> None:
    state = get_game(HAUL).new_initial_state(3)
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    bot = make_bot("mcts:seconds=0.01")
    assert bot.step(state) in state.legal_actions()
    assert isinstance(bot, MCTSBot) and bot.last_iterations >= 1


def _choices(game: str, players: int, count: int) -> list[State]:
    """Positions with a choice, from a seeded greedy game of `game`."""
    rng = random.Random(players)
    state = get_game(game).new_initial_state(players)
    bots = [make_bot("greedy", seat) for seat in range(players)]
    found: list[State] = []
    while not state.is_terminal() and len(found) < count:
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1 and rng.random() < 0.3:
            found.append(state.clone())
        state.apply(bots[player].step(state))
    return found


@pytest.mark.parametrize(("game", "players", "count"), [("vikings", 3, 12), (HAUL, 3, 12), ("vikingatid", 4, 8)])
def test_a_search_that_stops_once_its_choice_is_settled_chooses_as_the_whole_search_would(
    game: str, players: int, count: int
) -> None:
    bot = MCTSBot("mcts", seed=2, config=MCTSConfig(iterations=80))
    stopped_early = 0
    for state in _choices(game, players, count):
        legal = state.legal_actions()
        player = state.current_player()
        if state.game.information == PERFECT:
            whole = bot._search(state, legal).action
            settled = bot._search(state, legal, decide=True).action
        else:
            whole = bot._search_information_sets(state, player, legal).action
            settled = bot._search_information_sets(state, player, legal, decide=True).action
        assert bot.last_iterations <= 80
        stopped_early += bot.last_iterations < 80
        assert settled == whole
    assert stopped_early > 0


def test_a_search_is_settled_only_when_the_leader_leads_by_more_than_the_iterations_left() -> None:
    budget = _Budget(MCTSConfig(iterations=10))
    budget.done = 6  # 4 left
    assert not budget.decided([5, 1])  # 4 more to the second would tie: the tie-break decides, so not yet
    assert budget.decided([5, 0])
    assert budget.decided([6, 0, 0])
    assert not budget.decided([5, 5])
    assert not budget.decided([6, 0, 2])  # the third could still tie
    assert not budget.decided([])
    timed = _Budget(MCTSConfig(iterations=None, seconds=5.0))
    timed.done = 6
    assert not timed.decided([6, 0])  # a time budget alone does not say what is left
    capped = _Budget(MCTSConfig(iterations=10, seconds=5.0))
    capped.done = 6
    assert capped.decided([5, 0])  # the clock could only end it sooner
