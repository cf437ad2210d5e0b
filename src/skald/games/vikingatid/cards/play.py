"""Playing a card: the card under way, what its effect must still be told, and the shape every effect has.

"When a card is played, its instructions are followed" (1. Draw cards). A played card goes face up at once (it is
public from then on). Its effect may then need a target (an area, a seat, a kingdom), dice (a D10 for KRISTNAD,
FÖRLÄNING, UTBRYTARE, the armies an attack card sends; the hits of a fight a card orders) and answers from other
players (TROSTVIST's followers). `Play` holds the card under way and what it needs next; the state asks for it
(steps CARD_TARGET, CARD_ROLL, CARD_HITS, CARD_ANSWER) and hands it back to the card's `Effect`.

Each card kind has one `Effect`: five functions the card modules (`cards_journey`, `cards_fights`,
`cards_kingdoms`) write and `cardeffects` gathers. The state stays out of what cards do; the cards stay out of
how the turn flows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from skald.games.vikingatid.state import VikingatidState

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


class Effect(NamedTuple):
    """What one card kind does.

    - `may_play(state, seat)`: whether `seat` may play it now, beyond the window its text names (which the state
      checks first): e.g. BÄRSÄRK needs the seat's ships or camps in the fight about to start.
    - `targets(state, seat)`: the target action ids it may take (`actions.TARGET_SEAT`, `TARGET_KINGDOM`,
      `TARGET_AREA`), or [] if it takes none. A card with targets but none legal now is not playable.
    - `resolve(state)`: carry out `state.play` (its target set); set `play.need` to ask for more.
    - `on_roll(state, face)`: a D10 the effect asked for (NEED_ROLL).
    - `hit_outcomes(state)`: at NEED_HITS, each outcome id (`actions.HITS + n`, or `HITS_WITH_ONE + n`) with its
      chance; `on_hits(state, action)` then gets the one rolled.
    - `answers(state)`: at NEED_ANSWER, the ids `play.answerer` may choose; `on_answer(state, action)` the choice.
    """

    may_play: Callable[[VikingatidState, int], bool]
    targets: Callable[[VikingatidState, int], list[int]]
    resolve: Callable[[VikingatidState], None]
    on_roll: Callable[[VikingatidState, int], None]
    hit_outcomes: Callable[[VikingatidState], list[tuple[int, float]]]
    on_hits: Callable[[VikingatidState, int], None]
    answers: Callable[[VikingatidState], list[int]]
    on_answer: Callable[[VikingatidState, int], None]


def never(state: VikingatidState, seat: int) -> bool:
    """A card not playable (not written yet, or out of its moment)."""
    return False


def always(state: VikingatidState, seat: int) -> bool:
    """No condition beyond the window."""
    return True


def no_targets(state: VikingatidState, seat: int) -> list[int]:
    return []


def nothing(state: VikingatidState) -> None:
    return None


def no_roll(state: VikingatidState, face: int) -> None:
    raise AssertionError("this card asks for no roll")


def no_hit_outcomes(state: VikingatidState) -> list[tuple[int, float]]:
    raise AssertionError("this card orders no fight")


def no_hits(state: VikingatidState, action: int) -> None:
    raise AssertionError("this card orders no fight")


def no_answers(state: VikingatidState) -> list[int]:
    raise AssertionError("this card asks no one")


def no_answer(state: VikingatidState, action: int) -> None:
    raise AssertionError("this card asks no one")


def effect(
    may_play: Callable[[VikingatidState, int], bool] = always,
    targets: Callable[[VikingatidState, int], list[int]] = no_targets,
    resolve: Callable[[VikingatidState], None] = nothing,
    on_roll: Callable[[VikingatidState, int], None] = no_roll,
    hit_outcomes: Callable[[VikingatidState], list[tuple[int, float]]] = no_hit_outcomes,
    on_hits: Callable[[VikingatidState, int], None] = no_hits,
    answers: Callable[[VikingatidState], list[int]] = no_answers,
    on_answer: Callable[[VikingatidState, int], None] = no_answer,
) -> Effect:
    """An `Effect` with the functions a card does not need left out."""
    return Effect(may_play, targets, resolve, on_roll, hit_outcomes, on_hits, answers, on_answer)


#: The effect of a card not written yet: never playable.
UNWRITTEN: Final = effect(may_play=never)
