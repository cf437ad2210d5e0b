"""Bot specs typed by a person (`--bots`, `--seats`, the web's seat menu): a setting no search can use is refused
with a `SpecError` naming it, before any game starts."""

from __future__ import annotations

import re

import pytest

from skald.bots import MCTSBot, SpecError, make_bot


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:seconds=nan",  # never reaches its deadline: the bot searched forever
        "mcts:seconds=inf",
        "mcts:seconds=1e400",  # inf by another name
        "mcts:hard:seconds=inf",
        "mcts:temp=nan",  # NaN rewards: no child ever scored best (an AssertionError mid-game)
        "mcts:temp=inf",
        "mcts:c=nan",
        "mcts:c=-inf",
    ],
)
def test_mcts_settings_that_are_not_finite_numbers_are_refused(spec: str) -> None:
    key = spec.rsplit(":", 1)[1].split("=")[0]
    with pytest.raises(SpecError, match=rf"^{re.escape(spec)}: {key}= expects a finite number, not '"):
        make_bot(spec)


def test_an_exploration_weight_below_0_is_refused_and_0_is_not() -> None:
    with pytest.raises(SpecError, match=r"^mcts:c=-0\.5: c= is an exploration weight, at least 0, not '-0\.5'$"):
        make_bot("mcts:c=-0.5")
    greedy_search = make_bot("mcts:c=0")
    assert isinstance(greedy_search, MCTSBot) and greedy_search.config.exploration == 0.0


def test_a_rollout_depth_below_0_is_refused_and_0_is_not() -> None:
    with pytest.raises(SpecError, match=r"^mcts:depth=-1: depth= is a count of random decisions, at least 0 .*'-1'$"):
        make_bot("mcts:depth=-1")
    leaf = make_bot("mcts:depth=0")
    assert isinstance(leaf, MCTSBot) and leaf.config.rollout_depth == 0


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:" + "x" * 10_000,
        "mcts:iters=" + "9" * 10_000,
        "mcts:seconds=" + "x" * 10_000,
        "greedy:" + "x" * 10_000,
        "x" * 10_000,
    ],
)
def test_a_huge_spec_is_quoted_short_in_its_error(spec: str) -> None:
    with pytest.raises(SpecError) as error:
        make_bot(spec)
    assert len(str(error.value)) < 300
