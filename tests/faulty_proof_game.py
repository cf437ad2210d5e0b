"""Deliberately broken variants of the proof game, to show that `skald check` catches what they get wrong.

Nothing here is registered on import: tests register a variant for the length of a test, and a `skald check`
subprocess finds them all through `SKALD_GAMES=register_faulty_proof_game`, with the tests folder on `PYTHONPATH`.
Each leaky variant shows one viewer something hidden from it through one thing a front end shows; the state and its
information are otherwise honest.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from proof_game import actions as A
from proof_game.game import ProofGame
from proof_game.presentation import ProofPresentation
from proof_game.state import ProofState
from skald.engine import IllegalAction, JSONDict, Presentation, State


def _proof(state: State) -> ProofState:
    assert isinstance(state, ProofState)
    return state


def _next_seat(state: ProofState) -> int:
    """The seat after the one to move (the one whose hand a careless helper peeks at)."""
    return (state.current_player() + 1) % state.num_players


# -- leaks in the state ---------------------------------------------------------------------------------------


class HandLeakState(ProofState):
    """Shows every seat every hand: the two-worlds check must see it."""

    def observation(self, seat: int | None) -> JSONDict:
        """The honest observation, plus every hand."""
        data = super().observation(seat)
        data["all_hands"] = [sorted(hand) for hand in self.hands]
        return data


class NotationLeakState(ProofState):
    """Tells everyone which card was dealt ("seat 2 is dealt 7"), though the deal is hidden."""

    def notation_for(self, action: int, viewer: int | None) -> str:
        """The receiver's notation with the card, for every viewer."""
        if A.kind_of(action) == "deal":
            return f"seat {self.receiver() + 1} is dealt {A.value_of(action)}"
        return super().notation_for(action, viewer)


class MutatingRefusalState(ProofState):
    """Refusing an illegal action moves the leader: the untouched-state check must see it."""

    def illegal_reason(self, action: int) -> IllegalAction | None:
        """The honest answer, after a stray change of the state."""
        reason = super().illegal_reason(action)
        if reason is not None:
            self.tricks_won[0] += 1
        return reason


class ShiftingJsonState(ProofState):
    """Writes an action's JSON with the number of tricks played, so the same action has another JSON form in each
    trick: the check must see it, since the web table builds each action's form once a game (docs/engine.md)."""

    def action_to_json(self, action: int) -> JSONDict:
        """The honest form, plus the tricks played so far."""
        return {**super().action_to_json(action), "tricks": sum(self.tricks_won)}

    def action_from_json(self, data: Any) -> int:
        """The honest parse, whatever the tricks said."""
        if isinstance(data, dict):
            data = {key: value for key, value in data.items() if key != "tricks"}
        return super().action_from_json(data)


class ShiftingNotationState(ProofState):
    """Writes an action's notation with the number of tricks played, in a game that declares `fixed_notation`: the
    web table would show the notation of the trick it first offered the action in, so the check must see it."""

    def action_to_notation(self, action: int) -> str:
        """The honest notation, plus the tricks played so far."""
        return f"{super().action_to_notation(action)} @{sum(self.tricks_won)}"

    def action_from_notation(self, text: str) -> int:
        """The honest parse, whatever the tricks said."""
        return super().action_from_notation(text.split(" @")[0])


class ReasonLeakState(ProofState):
    """Says where a card it refuses is ("card 7 is in seat 2's hand"): the seat to move learns another hand."""

    def illegal_reason(self, action: int) -> IllegalAction | None:
        """The honest answer, except that a refused play names the hand that holds the card."""
        reason = super().illegal_reason(action)
        if reason is not None and reason.rule == "play.in_hand":
            card = A.value_of(action)
            holder = next((s for s, hand in enumerate(self.hands) if card in hand), None)
            where = "in the deck" if holder is None else f"in seat {holder + 1}'s hand"
            return IllegalAction("play.in_hand", f"card {card} is not yours: it is {where}")
        return reason


class ScoringLeakState(ProofState):
    """Lists, as a scoring once the cards are dealt, what each hand is worth: scorings are public."""

    def scorings(self) -> list[JSONDict]:
        """A "deal" scoring with each seat's hand total, from the bidding on."""
        if self.step() in ("deal", "end"):
            return []
        lines = [
            {"seat": s, "kind": "hand", "text": f"holds {sum(self.dealt[s])} in cards", "points": 0}
            for s in range(self.num_players)
        ]
        return [{"round": 1, "when": "deal", "lines": lines}]


class InfostateLeakState(ProofState):
    """From trick play on, the information-state string holds every seat's dealt cards, and the resample keeps
    them, as resampling by rejection until the strings match would: views stay honest, the string does not."""

    def information_state_string(self, seat: int | None) -> str:
        """The honest string, plus every hand's dealt cards once trick play starts."""
        honest = super().information_state_string(seat)
        if self.step() != "play":
            return honest
        return honest + "|hands " + " / ".join(" ".join(map(str, sorted(cards))) for cards in self.dealt)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> ProofState:
        """In trick play, the real hands dealt in a random order (all the string leaves open); before, honest."""
        if self.step() != "play":
            return super().resample_from_infostate(seat, rng)
        n = self.num_players
        dealt = [list(cards) if other == seat else sorted(cards) for other, cards in enumerate(self.dealt)]
        for other, cards in enumerate(dealt):
            if other != seat:
                rng.shuffle(cards)
        history = [A.deal(dealt[k % n][k // n]) for k in range(self.deals_done())]
        history += [A.bid(b) for b in self.bids]
        history += [A.play(card) for _, card in self.plays]
        state = self.game.new_initial_state(n)
        for action in history:
            state.apply(action)
        return _proof(state)


class RenderCrashState(ProofState):
    """Its text table raises KeyError once a trick has cards in it: a bug in the game, which the check must
    report as a failed property with its seed rather than crash on."""

    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        """The honest table, until a card lies in the trick."""
        if self.trick:
            raise KeyError("trick")
        return super().render_text(color, seat)


class ShortTensorState(ProofState):
    """Its game says it encodes observation tensors, but a tensor leaves off its last entry."""

    def observation_tensor(self, seat: int) -> list[float]:
        """The honest tensor without its last entry."""
        return super().observation_tensor(seat)[:-1]


# -- leaks in the presentation --------------------------------------------------------------------------------


class BoardLeak(ProofPresentation):
    """The terminal's board lists every hand under the table."""

    def board(self, state: State, seat: int | None, names: list[str]) -> Any:
        """The honest table, and every hand."""
        hands = " / ".join(" ".join(map(str, sorted(hand))) for hand in _proof(state).hands)
        return f"{state.render_text(color=True, seat=seat)}\n  [dim]hands: {hands}[/]"


class FocusLeak(ProofPresentation):
    """The close-up over the choices names the next seat's best card."""

    def focus(self, state: State, keys: list[tuple[str, int]]) -> Any:
        """The next seat's highest card, to beat."""
        proof = _proof(state)
        hand = proof.hands[_next_seat(proof)]
        return f"to beat: [bold]{max(hand)}[/]" if hand else None


class GroupsLeak(ProofPresentation):
    """Heads the plays by whether they beat every card of the next seat's hand."""

    def groups(self, state: State, actions: list[int]) -> list[tuple[str, list[int]]]:
        """During trick play, two headings: safe (beats all the next seat holds) and the rest."""
        proof = _proof(state)
        if proof.step() != "play":
            return super().groups(state, actions)
        best = max(proof.hands[_next_seat(proof)], default=0)
        safe = [a for a in actions if A.value_of(a) > best]
        return [("safe", safe), ("risky", [a for a in actions if a not in safe])]


class KeysLeak(ProofPresentation):
    """Keys a choice with a mark when the next seat holds the card after it."""

    def keys(self, state: State, actions: list[int]) -> list[tuple[str, int]]:
        """1, 2, 3…, with a "+" on a play whose next card up is in the next seat's hand."""
        proof = _proof(state)
        hand = proof.hands[_next_seat(proof)] if proof.step() == "play" else []
        return [
            (f"{index}{'+' if A.value_of(action) + 1 in hand else ''}", action)
            for index, action in enumerate(actions, start=1)
        ]


class AftermathLeak(ProofPresentation):
    """After a bid, tells the table what was bid, though the bid is secret."""

    def aftermath(self, before: State, after: State, name: str, seat: int | None) -> list[str]:
        """Says "NAME bid N" after every bid."""
        bids = [b for b in _proof(after).bids if b >= 0]
        if len(bids) > len([b for b in _proof(before).bids if b >= 0]):
            return [f"{name} bid {bids[-1]}"]
        return []


class StepLeak(ProofPresentation):
    """Tells the whole table, in the step's words, the best card of the seat to act."""

    def step(self, state: State) -> str:
        """`play a card (holding N)`."""
        proof = _proof(state)
        seat = state.current_player()
        hand = proof.hands[seat] if seat >= 0 else []
        return f"{self.prompt(state)} (holding {max(hand)})" if hand else self.prompt(state)


class FaultyGame(ProofGame):
    """The proof game with one of the faulty states or presentations above."""

    def __init__(
        self,
        name: str,
        state_class: type[ProofState] = ProofState,
        presentation: Presentation | None = None,
        fixed_notation: bool = False,
    ) -> None:
        self.name = name
        self.fixed_notation = fixed_notation
        self.title = f"Proof ({name})"
        self.state_class = state_class
        if presentation is not None:
            self.presentation = presentation

    def new_initial_state(self, num_players: int = 2, options: Mapping[str, Any] | None = None) -> ProofState:
        """A fresh faulty state."""
        self.check_players(num_players)
        self.resolve_options(options)
        return self.state_class(self, num_players)


HAND_LEAK = FaultyGame("proof-hand-leak", HandLeakState)
NOTATION_LEAK = FaultyGame("proof-notation-leak", NotationLeakState)
MUTATING_REFUSAL = FaultyGame("proof-mutating-refusal", MutatingRefusalState)
SHIFTING_JSON = FaultyGame("proof-shifting-json", ShiftingJsonState)
SHIFTING_NOTATION = FaultyGame("proof-shifting-notation", ShiftingNotationState, fixed_notation=True)
REASON_LEAK = FaultyGame("proof-reason-leak", ReasonLeakState)
SCORING_LEAK = FaultyGame("proof-scoring-leak", ScoringLeakState)
INFOSTATE_LEAK = FaultyGame("proof-infostate-leak", InfostateLeakState)
RENDER_CRASH = FaultyGame("proof-render-crash", RenderCrashState)
SHORT_TENSOR = FaultyGame("proof-short-tensor", ShortTensorState)
BOARD_LEAK = FaultyGame("proof-board-leak", presentation=BoardLeak())
FOCUS_LEAK = FaultyGame("proof-focus-leak", presentation=FocusLeak())
GROUPS_LEAK = FaultyGame("proof-groups-leak", presentation=GroupsLeak())
KEYS_LEAK = FaultyGame("proof-keys-leak", presentation=KeysLeak())
AFTERMATH_LEAK = FaultyGame("proof-aftermath-leak", presentation=AftermathLeak())
STEP_LEAK = FaultyGame("proof-step-leak", presentation=StepLeak())
FAULTY_GAMES = (
    HAND_LEAK,
    NOTATION_LEAK,
    MUTATING_REFUSAL,
    SHIFTING_JSON,
    SHIFTING_NOTATION,
    REASON_LEAK,
    SCORING_LEAK,
    INFOSTATE_LEAK,
    RENDER_CRASH,
    SHORT_TENSOR,
    BOARD_LEAK,
    FOCUS_LEAK,
    GROUPS_LEAK,
    KEYS_LEAK,
    AFTERMATH_LEAK,
    STEP_LEAK,
)
