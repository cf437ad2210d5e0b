"""The step table's contract (`step_rules.STEP_RULES`): one entry per step of `steps.STEPS`, and each decision and
roll of a phase carries the functions of that phase's own module, so a phase's rules are read in one file."""

from __future__ import annotations

from types import ModuleType

import pytest

from skald.games.vikingatid import (
    christianisation,
    elections,
    emigration,
    journeys,
    purchases,
    reactions,
    setup,
)
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.step_rules import STEP_RULES, no_actions, not_applied, rule_only

#: The module that writes each phase's steps.
PHASE_MODULES: dict[int, ModuleType] = {
    S.SETUP: setup,
    S.REACTIONS: reactions,
    S.ELECTIONS: elections,
    S.BUYING_SHIPS: purchases,
    S.JOURNEYS: journeys,
    S.TAXATION: emigration,
    S.CHRISTIANISATION: christianisation,
}
#: The steps the state plays itself: the draws and discards, a card window, a card under way.
CARD_STEPS = (S.DRAW_CARD, S.DISCARD_CARD, *S.CARD_STEPS)


def test_the_table_has_one_entry_per_step_in_step_id_order() -> None:
    assert len(STEP_RULES) == len(S.STEPS)
    assert [rules.step for rules in STEP_RULES] == list(S.STEPS)


@pytest.mark.parametrize(
    "step",
    [s for s in S.STEPS if not s.chance and not s.terminal and s.id not in CARD_STEPS],
    ids=lambda s: s.name,
)
def test_every_decision_has_legal_apply_and_explain_from_its_phases_module(step: S.Step) -> None:
    rules = STEP_RULES[step.id]
    module = PHASE_MODULES[step.phase].__name__
    assert rules.legal is not no_actions and rules.legal.__module__ == module
    assert rules.apply is not not_applied and rules.apply.__module__ == module
    assert rules.explain is rule_only or rules.explain.__module__ == module


@pytest.mark.parametrize("step", [s for s in S.STEPS if s.chance and s.id not in CARD_STEPS], ids=lambda s: s.name)
def test_every_roll_is_applied_by_its_phases_module_and_takes_chances_outcomes(step: S.Step) -> None:
    rules = STEP_RULES[step.id]
    assert rules.apply is not not_applied and rules.apply.__module__ == PHASE_MODULES[step.phase].__name__
    assert rules.legal is no_actions
    assert rules.explain is rule_only


@pytest.mark.parametrize("step", [S.STEPS[i] for i in (*CARD_STEPS, S.GAME_OVER)], ids=lambda s: s.name)
def test_the_card_steps_and_the_end_are_left_to_the_state(step: S.Step) -> None:
    assert STEP_RULES[step.id][1:] == (no_actions, not_applied, rule_only)
