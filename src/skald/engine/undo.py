"""Taking steps back, under Board Game Arena's policy: a seat may take back its own steps until another seat acts or
something hidden or random is revealed (a tile drawn, a die rolled, a card played from a hidden hand, the bids of a
sealed round shown). The one rule every front end asks (the terminal's `undo`, the web table's Undo button).

A front end keeps one `Step` per ply of the game (`step_of`, asked before the action is applied), and the plies
it answered by itself for a seat (its only answer, a standing answer): taking back a seat's last decision takes
those with it, or the table would answer them again at once. `take_back` then says how far the seat may go.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from skald.engine.state import CHANCE, State

#: `TakeBack.stop`: the seat has taken no step yet that it may take back (the game's first ply is reached).
START: Final = "start"
#: `TakeBack.stop`: chance acted (a draw, a roll): what it drew is known, so it is not taken back.
DRAWN: Final = "drawn"
#: `TakeBack.stop`: another seat acted: its move is its own.
OTHER: Final = "other"
#: `TakeBack.stop`: the seat's own step revealed something hidden (`State.action_reveals`).
REVEALED: Final = "revealed"


@dataclass(frozen=True, slots=True)
class Step:
    """One ply as taking back sees it: who took it (a seat, or `CHANCE`) and whether it revealed something that was
    hidden or random (always, for chance)."""

    actor: int
    reveals: bool


@dataclass(frozen=True, slots=True)
class TakeBack:
    """How far one seat may go back now.

    `plies` takes back its last decision and the answers the table gave for it since (0: none may be taken back);
    `most` takes back every decision it still may. `stop` says what ends the run of its steps (`START`, `DRAWN`,
    `OTHER`, `REVEALED`), taken at ply `at` by `by` (None at `START`)."""

    plies: int
    most: int
    stop: str
    at: int | None
    by: int | None

    def refusal(self, names: Sequence[str], blocking: str) -> str:
        """Why the seat may take back nothing (or nothing further), in words: `names` are the seats' names and
        `blocking` the notation of the ply at `at`, as the seat may see it."""
        if self.stop == DRAWN:
            return f"chance has drawn since ({blocking}); undo stops at a draw or a roll"
        if self.stop == OTHER and self.by is not None:
            return f"{names[self.by]} has moved since ({blocking}); undo stops at another seat's move"
        if self.stop == REVEALED:
            return f"your step {blocking} revealed what was hidden; undo stops there"
        return "you have no step of your own to take back"


def step_of(state: State, action: int) -> Step:
    """The `Step` of `action`, about to be taken at `state`."""
    actor = state.current_player()
    return Step(actor, actor == CHANCE or state.action_reveals(action))


def steps_of(state: State) -> list[Step]:
    """The `Step` of every ply of `state`'s history, found by replaying it from the game's first position."""
    replay = state.first_state()
    steps = []
    for action in state.history:
        steps.append(step_of(replay, action))
        replay.apply(action)
    return steps


def take_back(steps: Sequence[Step], seat: int, given: Collection[int] = ()) -> TakeBack:
    """How many of the last plies `seat` may take back, given the `Step` of every ply and the plies (indices) the
    table answered by itself for a seat: each is taken back with the seat's decision before it, never alone."""
    end = len(steps)
    index = end - 1
    last = first = None
    while index >= 0:
        step = steps[index]
        if step.actor != seat or step.reveals:
            break
        if index not in given:
            first = index
            if last is None:
                last = index
        index -= 1
    if index < 0:
        stop, at, by = START, None, None
    else:
        actor = steps[index].actor
        stop = DRAWN if actor == CHANCE else OTHER if actor != seat else REVEALED
        at, by = index, None if actor == CHANCE else actor
    return TakeBack(0 if last is None else end - last, 0 if first is None else end - first, stop, at, by)
