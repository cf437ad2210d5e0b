"""Playing a card: the card under way and what its effect must still be told.

"When a card is played, its instructions are followed" (1. Draw cards). A played card goes face up at once (it is
public from then on). Its effect may then need a target (an area, a seat, a kingdom), dice (a D10 for KRISTNAD,
FÖRLÄNING, UTBRYTARE, the armies an attack card sends; the hits of a fight a card orders) and answers from other
players (TROSTVIST's followers). `Play` holds the card under way and what it needs next; the state asks for it
(steps CARD_TARGET, CARD_ROLL, CARD_HITS, CARD_ANSWER) and hands it back to the card's `Effect`.

`Play` is a plain class (mypyc-ready), cloned through the constructor.
"""

from __future__ import annotations

from typing import Final

#: What a card under way needs next.
NEED_NONE: Final = 0
NEED_TARGET: Final = 1
NEED_ROLL: Final = 2
NEED_HITS: Final = 3
NEED_ANSWER: Final = 4


class Play:
    """A card being played: who, which kind, its target (a target action id, or -1), where play goes back to
    (`resume`: the step of the player's own decision, or -1 from a window), what it needs next (`need`, and for
    an answer who gives it), and room its effect may use while it resolves (`stage`, `n`, `seats`, `areas`,
    `dice`, `strength`, `one_counts`). Plain class (mypyc-ready)."""

    def __init__(self, seat: int, kind: int, resume: int, source: Play | None = None) -> None:
        self.seat: Final = seat
        self.kind: Final = kind
        self.resume: Final = resume
        if source is not None:
            self.target: int = source.target
            self.need: int = source.need
            self.answerer: int = source.answerer
            self.stage: int = source.stage
            self.n: int = source.n
            self.seats: list[int] = list(source.seats)
            self.areas: list[str] = list(source.areas)
            self.dice: int = source.dice
            self.strength: int = source.strength
            self.one_counts: bool = source.one_counts
            self.text: str = source.text
            return
        self.target = -1
        self.need = NEED_NONE
        self.answerer = -1
        self.stage = 0
        self.n = 0
        self.seats = []
        self.areas = []
        #: For NEED_HITS: the number of dice rolled and their strength (a hit on a roll at most `strength`... as
        #: the effect's own `hit_outcomes` reads them).
        self.dice = 0
        self.strength = 0
        self.one_counts = False
        #: What the card did, in words, for the log (the effect writes it).
        self.text = ""

    def clone(self) -> Play:
        return Play(self.seat, self.kind, self.resume, self)
