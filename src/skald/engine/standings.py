"""The final standings of a game: every seat ranked best first, with the columns its game lists and its tie-break.

Every end screen (the terminal's, the web's) shows this one value; it is built from the terminal state by the game's
presentation (`Presentation.standings`, `Presentation.tie_break`) and `Game.score_name`. The game is over, so all of
it may be seen by everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skald.engine.state import GameLike, JSONDict, State


@dataclass(frozen=True)
class StandingRow:
    """One seat's line of the standings: its place (1 is best), the seat, its score and the game's own columns."""

    place: int
    seat: int
    score: int
    #: The columns the game lists for the seat (`Presentation.standings`, without its `order`), by key.
    columns: Mapping[str, Any]
    winner: bool

    def value(self, key: str) -> Any:
        """The seat's value in column `key`: the game's, else its score for `"score"`, else empty."""
        if key in self.columns:
            return self.columns[key]
        return self.score if key == "score" else ""


@dataclass(frozen=True)
class Standings:
    """The end of a game as every end screen shows it."""

    #: Best first: the winners (after the game's tie-breaks), then by the game's `order` (else the score), then seat.
    rows: tuple[StandingRow, ...]
    #: The columns to show beside each name, as (key, heading), in the game's order.
    columns: tuple[tuple[str, str], ...]
    winners: tuple[int, ...]
    #: The rule that separates players level on score, in a sentence (empty if the game has none).
    tie_break: str
    #: Whether the best score was shared: then the tie-break decided, or the victory is shared.
    tied: bool
    #: What the score counts (`Game.score_name`, "Fame").
    score_name: str

    def scores(self) -> list[int]:
        """Each seat's score, by seat."""
        by_seat = sorted(self.rows, key=lambda row: row.seat)
        return [row.score for row in by_seat]

    def to_json(self, names: Sequence[str]) -> JSONDict:
        """The JSON form, each row named by `names` (by seat): `winners`, `standings` (place, seat, name, score and
        the game's columns), `columns` (key and label), `tie_break` and `tied`."""
        rows = []
        for row in self.rows:
            entry: JSONDict = {"place": row.place, "seat": row.seat, "name": names[row.seat], "score": row.score}
            entry.update(row.columns)
            rows.append(entry)
        return {
            "winners": list(self.winners),
            "standings": rows,
            "columns": [{"key": key, "label": label} for key, label in self.columns],
            "tie_break": self.tie_break,
            "tied": self.tied,
        }


def final_standings(game: GameLike, state: State) -> Standings:
    """The standings of `state`, a finished game of `game`; raises `ValueError` if the game is not over."""
    if not state.is_terminal():
        raise ValueError("standings: the game is not over")
    presentation = game.presentation
    winners = state.winners()
    scores = state.scores()
    listed = presentation.standings(state)
    extra = [{key: value for key, value in row.items() if key != "order"} for row in listed]
    keys = list(extra[0]) if extra else ["score"]
    columns = tuple((key, game.score_name if key == "score" else column_heading(key)) for key in keys)

    def rank(seat: int) -> tuple[Any, ...]:
        order = listed[seat].get("order", [scores[seat]]) if seat < len(listed) else [scores[seat]]
        return (seat not in winners, *(-value for value in order), seat)

    rows = tuple(
        StandingRow(
            place=place,
            seat=seat,
            score=scores[seat],
            columns=extra[seat] if seat < len(extra) else {},
            winner=seat in winners,
        )
        for place, seat in enumerate(sorted(range(len(scores)), key=rank), start=1)
    )
    return Standings(
        rows=rows,
        columns=columns,
        winners=tuple(winners),
        tie_break=presentation.tie_break(state),
        tied=scores.count(max(scores)) > 1,
        score_name=game.score_name,
    )


def column_heading(key: str) -> str:
    """A column's key as its heading: spaces for underscores, the first letter a capital ("Kingdoms built")."""
    return key.replace("_", " ").capitalize()
