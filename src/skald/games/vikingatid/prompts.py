"""Vikingatid's prompts made from the choices on offer: a prompt names only what the legal actions offer ("move the
war fleet of 5 on" where moves alone are legal, "give a card before Norge's election" where the giver has no
silver), read from the kinds of the legal actions (their JSON `type`).

`presentation.py` says each step in its words through `offer`; `STEP_CHOICES` gives the words of the steps whose
choices need nothing from the table. Where which choices are offered depends on the hand of the seat to act
(`HAND_STEPS`), what everyone else reads names the step's every kind of choice instead, so it tells them nothing.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid import steps as S
from skald.games.vikingatid.state import VikingatidState

#: The steps whose choices on offer depend on the cards the seat to act holds.
HAND_STEPS: Final = frozenset({S.GIFT_TARGET, S.GIFT_CARD, S.CARD_WINDOW, S.CARD_TARGET, S.CARD_ANSWER, S.DISCARD_CARD})

#: Each kind of choice in words, per step, for the steps that need nothing more from the table to say them.
STEP_CHOICES: Final[dict[int, list[tuple[str, str]]]] = {
    S.GIFT_TARGET: [
        ("give_silver", "give silver before the election"),
        ("give_card_to", "give a card before the election"),
        ("pass", "pass"),
    ],
    S.BID_TARGET: [("pay_onto", "pay silver onto a roll"), ("pass", "pass")],
    S.PEACE_OFFER: [("offer_peace", "offer a King's Peace"), ("pass", "pass")],
    S.PEACE_ANSWER: [("accept_peace", "accept the King's Peace"), ("decline_peace", "decline it")],
    S.PULL_DOWN: [("pull_down", "pull down a camp"), ("done", "done")],
    S.BUY_SHIPS: [("buy", "buy ships: choose type and place"), ("done", "done")],
    S.JOURNEY_CHOICE: [("fleet", "start a fleet"), ("pass", "pass")],
    S.MOVE: [("move", "move the fleet"), ("stop", "stop here"), ("end_journey", "end the journey")],
    S.ACT: [
        ("trade", "trade"),
        ("build", "build camps"),
        ("plunder", "plunder"),
        ("destroy", "destroy trading camps"),
        ("move", "move on"),
        ("end_journey", "end the journey"),
    ],
    S.ENTRY_ANSWER: [("allow", "allow the fleet"), ("ask_duty", "ask a duty"), ("forbid", "forbid it")],
    S.ENTRY_REPLY: [("pay_duty", "pay the duty"), ("fight", "fight"), ("turn_away", "turn away")],
    S.FIGHT_ON: [("fight_on", "fight on"), ("withdraw", "withdraw")],
    S.WAR_DECLARATION: [("declare_war", "declare war"), ("no_war", "not")],
    S.EMIGRATION: [("emigrate", "emigrate to a conquered area"), ("pass", "pass")],
    S.CARD_WINDOW: [("play", "play a card"), ("pass", "pass")],
}


def offered_kinds(state: VikingatidState) -> set[str]:
    """The kinds (JSON `type`) of the legal actions of the seat to act."""
    kinds = set()
    for action in state.legal_actions():
        try:
            kinds.add(str(state.space.to_json(action).get("type", "")))
        except ValueError:
            continue
    return kinds


def offer(choices: list[tuple[str, str]], offered: set[str], last: str = ", or ") -> str:
    """The words of the `choices` (kind, words) whose kind is `offered`, in order: "a", "a, or b", "a, b, or c"
    (with `last` " or ": "a or b", "a, b or c"); "" when none is offered."""
    words = [phrase for kind, phrase in choices if kind in offered and phrase]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + last + words[-1]
