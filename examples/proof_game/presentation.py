"""How the proof game speaks to people: prompts, action labels and the rules, through the contract."""

from __future__ import annotations

from proof_game import actions as A
from skald.engine import Presentation, State


class ProofPresentation(Presentation):
    """Prompts for the bid and the tricks, labels saying what a play does to the trick."""

    def prompt(self, state: State) -> str:
        """Bid secretly, or play a card."""
        from proof_game.state import ProofState

        assert isinstance(state, ProofState)
        step = state.step()
        if step == "bid":
            return "bid secretly how many tricks you will win"
        if step == "play":
            return "lead a card" if not state.trick else "play a card to the trick"
        if step == "deal":
            return "the cards are dealt"
        return "the game is over"

    def click_hint(self, state: State) -> str | None:
        """During trick play, a card in your hand is clicked to play it."""
        from proof_game.state import ProofState

        assert isinstance(state, ProofState)
        return "click a card in your hand to play it" if state.step() == "play" else None

    def describe(self, state: State, action: int) -> str:
        """What a bid promises; for a play, whether it takes the trick so far."""
        from proof_game.state import ProofState

        assert isinstance(state, ProofState)
        kind, value = A.kind_of(action), A.value_of(action)
        if kind == "bid":
            return f"win exactly {value} trick{'s' if value != 1 else ''} for +5"
        if kind == "play":
            if not state.trick:
                return "leads the trick"
            best = max(card for _, card in state.trick)
            return "takes the lead" if value > best else "does not beat " + str(best)
        return ""

    def rules(self, state: State) -> str:
        """The whole rulebook, which is short."""
        return (
            "Each seat is dealt 3 cards from a deck of 4 per player. Each seat then bids, secretly, 0–3 tricks; "
            "the bids are shown once all have bid. Three tricks follow: from the last trick's winner (seat 1 "
            "first) each seat plays a card face up, and the highest card wins. Score: tricks won, +5 for winning "
            "exactly your bid. Highest score wins; ties share."
        )

    def step_help(self, state: State) -> str:
        """Type a key, the notation, or just the number."""
        return "Type a choice's key, its notation ('bid 2', 'play 7'), or just the number."
