"""The turn of Vikingatid with its rules: each step of `steps.STEPS` with the functions of its phase's module that
give its legal actions, apply one, and explain why one of the right kind is still refused.

`steps.py` holds the turn as data; each phase module (`setup`, `reactions`, `elections`, `purchases`, `journeys`,
`emigration`, `christianisation`) writes its steps' functions beside its rules, on a narrow protocol of what it reads
of the state (`situation.Situation` is each); this module joins the two, one `StepRules` per step id, and the state
dispatches through it (boardgame.io style: the flow is data, the rules live in one module per phase).

A roll's legal actions are its chance outcomes (`VikingatidState.chance_outcomes`), and the card steps (the draws, the
discards, a card window, a card under way) and the end are the state's own: their entries say so (`no_actions`,
`not_applied`). An `explain` of None leaves the refusal to the step's rule alone (`rule_only`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from skald.engine import IllegalAction
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
from skald.games.vikingatid.situation import Situation


class StepRules(NamedTuple):
    """One step and its rules: `legal(state)` the step's own legal actions, ascending where the step sorts them
    (cards played first apart); `apply(state, action)` a legal one, leaving the flow to the state (the next step,
    the card windows); `explain(state, action)` the `IllegalAction` for an action of the step's kinds that is not
    legal, or None for the step's rule alone."""

    step: S.Step
    legal: Callable[[Situation], list[int]]
    apply: Callable[[Situation, int], None]
    explain: Callable[[Situation, int], IllegalAction | None]


def no_actions(state: Situation) -> list[int]:
    """The legal actions of a step the table does not give: a roll's (its chance outcomes), a card step's, the end's."""
    raise AssertionError(f"step {S.STEPS[state.step].name!r} takes its legal actions from the state")


def not_applied(state: Situation, action: int) -> None:
    """A card step or the end: the state applies its actions itself."""
    raise AssertionError(f"step {S.STEPS[state.step].name!r} is applied by the state")


def rule_only(state: Situation, action: int) -> IllegalAction | None:
    """No reason beyond the step's rule."""
    return None


def _decision(
    step: int,
    legal: Callable[[Situation], list[int]],
    apply: Callable[[Situation, int], None],
    explain: Callable[[Situation, int], IllegalAction | None] = rule_only,
) -> StepRules:
    return StepRules(S.STEPS[step], legal, apply, explain)


def _roll(step: int, apply: Callable[[Situation, int], None]) -> StepRules:
    return StepRules(S.STEPS[step], no_actions, apply, rule_only)


def _state_own(step: int) -> StepRules:
    return StepRules(S.STEPS[step], no_actions, not_applied, rule_only)


#: Every step with its rules (index = step id, as in `steps.STEPS`).
STEP_RULES: Final = (
    _roll(S.KINGDOM_ROLL, setup.apply_kingdom_roll),
    _decision(S.KINGDOM_CHOICE, setup.legal_kingdom_choice, setup.apply_kingdom_choice, setup.explain_kingdom_choice),
    _roll(S.REACTION_ROLL, reactions.apply_reaction_roll),
    _roll(S.GALD_ROLL, reactions.apply_gald_roll),
    _decision(S.GIFT_TARGET, elections.legal_gift_target, elections.apply_gift_target, elections.explain_gift_target),
    _decision(S.GIFT_AMOUNT, elections.legal_amount, elections.apply_gift_amount, elections.explain_gift_amount),
    _decision(S.BID_TARGET, elections.legal_bid_target, elections.apply_bid_target, elections.explain_bid_target),
    _decision(S.BID_AMOUNT, elections.legal_amount, elections.apply_bid_amount, elections.explain_bid_amount),
    _roll(S.ELECTION_ROLL, elections.apply_election_roll),
    _decision(S.PEACE_OFFER, elections.legal_peace_offer, elections.apply_peace_offer, elections.explain_peace_offer),
    _decision(S.PEACE_ANSWER, elections.legal_peace_answer, elections.apply_peace_answer),
    _decision(S.PULL_DOWN, purchases.legal_pull_down, purchases.apply_pull_down, purchases.explain_purchase),
    _decision(S.BUY_SHIPS, purchases.legal_buy_ships, purchases.apply_buy_ships, purchases.explain_purchase),
    _decision(S.BUY_AMOUNT, purchases.legal_buy_amount, purchases.apply_buy_amount, purchases.explain_purchase),
    _roll(S.INITIATIVE_ROLL, journeys.apply_initiative_roll),
    _decision(S.JOURNEY_CHOICE, journeys.legal_journey_choice, journeys.apply_journey_choice, journeys.explain_journey),
    _decision(S.FLEET_SIZE_CHOICE, journeys.legal_fleet_size, journeys.apply_fleet_size, journeys.explain_journey),
    _decision(S.MOVE, journeys.legal_fleet_decision, journeys.apply_fleet_decision, journeys.explain_journey),
    _decision(S.ENTRY_ANSWER, journeys.legal_entry_answer, journeys.apply_entry_answer, journeys.explain_journey),
    _decision(S.DUTY_AMOUNT, journeys.legal_duty_amount, journeys.apply_duty_amount, journeys.explain_journey),
    _decision(S.ENTRY_REPLY, journeys.legal_entry_reply, journeys.apply_entry_reply, journeys.explain_journey),
    _decision(S.SEA_BAN, journeys.legal_sea_ban, journeys.apply_sea_ban, journeys.explain_journey),
    _roll(S.BAN_WAR_ROLL, journeys.apply_ban_war_roll),
    _roll(S.DANGER_ROLL, journeys.apply_danger_roll),
    _decision(S.ACT, journeys.legal_act, journeys.apply_fleet_decision, journeys.explain_journey),
    _roll(S.FLEET_HITS, journeys.apply_fleet_hits),
    _roll(S.ARMY_HITS, journeys.apply_other_hits),
    _roll(S.DEFENDER_HITS, journeys.apply_other_hits),
    _decision(S.FIGHT_ON, journeys.legal_fight_on, journeys.apply_fight_on, journeys.explain_journey),
    _roll(S.WAR_RISK_ROLL, journeys.apply_war_risk_roll),
    _decision(
        S.WAR_DECLARATION,
        journeys.legal_war_declaration,
        journeys.apply_war_declaration,
        journeys.explain_journey,
    ),
    _roll(S.BUILD_REACTION_ROLL, journeys.apply_build_reaction_roll),
    _roll(S.BUILD_GALD_ROLL, journeys.apply_build_gald_roll),
    _decision(S.EMIGRATION, emigration.legal_emigration, emigration.apply_emigration),
    _roll(S.CHRISTIANISATION_ROLL, christianisation.apply_roll),
    _roll(S.ASSIMILATION_ROLL, christianisation.apply_roll),
    _state_own(S.GAME_OVER),
    _state_own(S.DRAW_CARD),
    _state_own(S.DISCARD_CARD),
    _state_own(S.CARD_WINDOW),
    _state_own(S.CARD_TARGET),
    _state_own(S.CARD_ROLL),
    _state_own(S.CARD_HITS),
    _state_own(S.CARD_ANSWER),
    _decision(S.GIFT_CARD, elections.legal_gift_card, elections.apply_gift_card, elections.explain_gift_card),
    _decision(S.SEALED_BID, elections.legal_sealed_bid, elections.apply_sealed_bid, elections.explain_sealed_bid),
)
