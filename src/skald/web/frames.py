"""An update that brings several seats' moves, cut into frames, so that a page can show each move in turn.

One commit may carry several moves: a bot's move with the draws and the table's answers that follow it, a person's
move followed by answers given for others, the answers of a card window released together, or what another process
committed. The update then carries, before its own view, a frame for every seat's move but the last: the board
after that move (and the draws and answers that follow it, up to the next seat's move) as its viewer may see it, the
parts of the board that move changed, who is to move there and what the seats' panels say. A page that shows others'
moves at a human pace draws the frames one by one (`static/pace.js`); one that shows everything at once skips them.
Every viewer is sent its frames whatever its pace, so what reaches it says nothing about what it chose; and a frame
is the viewer's own view of a position it would have been shown had the moves been committed one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skald.engine import State
from skald.web.live_table import LiveTable, LogEntry

#: The most frames one update is cut into, its own view counted: a catch-up of many moves shows its earlier moves
#: together in its first frame rather than render the board once a move.
MOST_FRAMES = 16


def marks(state: State, entries: Sequence[LogEntry], seat: int | None) -> list[str]:
    """The parts of `state`'s drawn board (`data-at` names) that the last move by a seat in `entries` changed, as
    `seat` may see them (`Presentation.last_move`): the web rings them, so that someone who looked away sees what
    changed."""
    for entry in reversed(entries):
        mover = entry.whole["seat"]
        if mover is not None:
            action = state.history[entry.whole["ply"]]
            return state.game.presentation.last_move(state, mover, action, seat)
    return []


class Frames:
    """The positions an update passes through after each seat's move but the last: `ends[i]` log entries of the
    update lead to `states[i]`. The board of each is drawn once for each viewer that asks for it."""

    def __init__(self, table: LiveTable, entries: list[LogEntry], ends: list[int], states: list[State]) -> None:
        self.table = table
        self.entries = entries
        self.ends = ends
        self.states = states
        self._boards: dict[int | None, list[tuple[str, ...]]] = {}

    def boards(self, seat: int | None) -> list[tuple[str, ...]]:
        """Each frame's board in the game's pieces (`Game.render_svg_parts`) as `seat` sees it."""
        drawn = self._boards.get(seat)
        if drawn is None:
            names = [info.name for info in self.table.seats]
            render = self.table.game.render_svg_parts
            drawn = self._boards[seat] = [tuple(render(state, seat, names)) for state in self.states]
        return drawn

    def view(self, index: int, seat: int | None) -> dict[str, Any]:
        """Frame `index` as `seat` (None: a spectator) is told it, without its board: how many of the update's log
        entries it shows, who is to move, what the move changed on the board and the seats' panels."""
        state = self.states[index]
        presentation = self.table.game.presentation
        player = state.current_player()
        to_move = player if player >= 0 else None
        body: dict[str, Any] = {
            "log": self.ends[index],
            "to_move": to_move,
            "last_move": marks(state, self.entries[: self.ends[index]], seat),
            "seat_lines": [presentation.seat_summary(state, s, seat) for s in range(state.num_players)],
        }
        if to_move is not None:
            body["step"] = presentation.step(state)
        return body


def cut(table: LiveTable, before: State, entries: list[LogEntry]) -> Frames | None:
    """The frames of an update that took the table from `before` to its state by the moves logged as `entries`;
    None when they hold one seat's move or none (the update is its own only frame)."""
    starts = [i for i, entry in enumerate(entries) if entry.whole["seat"] is not None]
    ends = starts[1:][-(MOST_FRAMES - 1) :]
    if not ends or len(before.history) != entries[0].whole["ply"]:
        return None
    history = table.state.history
    state = before.clone()
    states = []
    done = 0
    for end in ends:
        for entry in entries[done:end]:
            state.apply(history[entry.whole["ply"]])
        done = end
        states.append(state.clone())
    return Frames(table, entries, ends, states)
