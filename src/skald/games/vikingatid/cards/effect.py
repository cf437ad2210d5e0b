"""The shape every card effect has: what a card kind does, as functions of the `Situation` it is played in.

Each card kind has one `Effect`, written by the card modules (`cards.journey`, `cards.fights`, `cards.kingdoms`,
`cards.elections`) and gathered by `cards.effects`. The state stays out of what cards do; the cards stay out of how
the turn flows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from skald.games.vikingatid.situation import Situation


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

    may_play: Callable[[Situation, int], bool]
    targets: Callable[[Situation, int], list[int]]
    resolve: Callable[[Situation], None]
    on_roll: Callable[[Situation, int], None]
    hit_outcomes: Callable[[Situation], list[tuple[int, float]]]
    on_hits: Callable[[Situation, int], None]
    answers: Callable[[Situation], list[int]]
    on_answer: Callable[[Situation, int], None]


def never(state: Situation, seat: int) -> bool:
    """A card not playable (not written yet, or out of its moment)."""
    return False


def always(state: Situation, seat: int) -> bool:
    """No condition beyond the window."""
    return True


def no_targets(state: Situation, seat: int) -> list[int]:
    return []


def nothing(state: Situation) -> None:
    return None


def no_roll(state: Situation, face: int) -> None:
    raise AssertionError("this card asks for no roll")


def no_hit_outcomes(state: Situation) -> list[tuple[int, float]]:
    raise AssertionError("this card orders no fight")


def no_hits(state: Situation, action: int) -> None:
    raise AssertionError("this card orders no fight")


def no_answers(state: Situation) -> list[int]:
    raise AssertionError("this card asks no one")


def no_answer(state: Situation, action: int) -> None:
    raise AssertionError("this card asks no one")


def effect(
    may_play: Callable[[Situation, int], bool] = always,
    targets: Callable[[Situation, int], list[int]] = no_targets,
    resolve: Callable[[Situation], None] = nothing,
    on_roll: Callable[[Situation, int], None] = no_roll,
    hit_outcomes: Callable[[Situation], list[tuple[int, float]]] = no_hit_outcomes,
    on_hits: Callable[[Situation, int], None] = no_hits,
    answers: Callable[[Situation], list[int]] = no_answers,
    on_answer: Callable[[Situation, int], None] = no_answer,
) -> Effect:
    """An `Effect` with the functions a card does not need left out."""
    return Effect(may_play, targets, resolve, on_roll, hit_outcomes, on_hits, answers, on_answer)


#: The effect of a card not written yet: never playable.
UNWRITTEN: Final = effect(may_play=never)
