"""Deliberately broken variants of the proof game, to show that `skald check` catches what they get wrong.

Nothing here is registered on import: tests register a variant for the length of a test, and a `skald check`
subprocess finds them all through `SKALD_GAMES=proof_game.register_faulty`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from proof_game import actions as A
from proof_game.game import ProofGame
from proof_game.state import ProofState
from skald.engine import IllegalAction, JSONDict


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


class FaultyGame(ProofGame):
    """The proof game with one of the faulty states above."""

    def __init__(self, name: str, state_class: type[ProofState]) -> None:
        self.name = name
        self.title = f"Proof ({name})"
        self.state_class = state_class

    def new_initial_state(self, num_players: int = 2, options: Mapping[str, Any] | None = None) -> ProofState:
        """A fresh faulty state."""
        self.check_players(num_players)
        self.resolve_options(options)
        return self.state_class(self, num_players)


HAND_LEAK = FaultyGame("proof-hand-leak", HandLeakState)
NOTATION_LEAK = FaultyGame("proof-notation-leak", NotationLeakState)
MUTATING_REFUSAL = FaultyGame("proof-mutating-refusal", MutatingRefusalState)
FAULTY_GAMES = (HAND_LEAK, NOTATION_LEAK, MUTATING_REFUSAL)
