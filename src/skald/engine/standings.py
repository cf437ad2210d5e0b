"""The final standings of a game: every seat ranked best first, with the columns its game lists and its tie-break.

Every end screen (the terminal's, the web's) shows this one value; it is built from the terminal state by the game's
presentation (`Presentation.standings`, `Presentation.tie_break`) and `Game.score_name`. The game is over, so all of
it may be seen by everyone.

A game may also end off the board: seats that resign (`Departures.resigned`, in the order they left) are ranked
last, the first to leave lowest ("the first player to quit loses as if last"), and never win; the game is then
over when its state is terminal, when at most one seat is left in it, or when the seats left agreed to share the
result (`Departures.agreed`, a draw). Ended early, the standings list each seat's columns as they stood.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skald.engine.state import GameLike, JSONDict, State


@dataclass(frozen=True)
class Departures:
    """How a game ended off the board: the seats that resigned, first to leave first, and whether the seats left
    agreed to end it with a shared result."""

    resigned: tuple[int, ...] = ()
    agreed: bool = False

    def remaining(self, players: int) -> list[int]:
        """The seats still in the game, by seat."""
        return [seat for seat in range(players) if seat not in self.resigned]

    def decided(self, state: State) -> bool:
        """Whether the game is over: its state is terminal, at most one seat is left, or those left agreed."""
        return state.is_terminal() or self.agreed or len(self.remaining(state.num_players)) <= 1


NO_DEPARTURES = Departures()


@dataclass(frozen=True)
class StandingRow:
    """One seat's line of the standings: its place (1 is best), the seat, its score and the game's own columns."""

    place: int
    seat: int
    score: int
    #: The columns the game lists for the seat (`Presentation.standings`, without its `order`), by key.
    columns: Mapping[str, Any]
    winner: bool
    #: Whether the seat resigned (then it is ranked below every seat that did not).
    resigned: bool = False

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
    #: The seats that resigned, first to leave first, and whether those left agreed to share the result.
    departures: Departures = NO_DEPARTURES

    def scores(self) -> list[int]:
        """Each seat's score, by seat."""
        by_seat = sorted(self.rows, key=lambda row: row.seat)
        return [row.score for row in by_seat]

    def to_json(self, names: Sequence[str]) -> JSONDict:
        """The JSON form, each row named by `names` (by seat): `winners`, `standings` (place, seat, name, score and
        the game's columns; `resigned` on a seat that resigned), `columns` (key and label), `tie_break` and `tied`;
        `resigned` (the seats, first to leave first) and `agreed` when the game ended off the board."""
        rows = []
        for row in self.rows:
            entry: JSONDict = {"place": row.place, "seat": row.seat, "name": names[row.seat], "score": row.score}
            entry.update(row.columns)
            if row.resigned:
                entry["resigned"] = True
            rows.append(entry)
        made: JSONDict = {
            "winners": list(self.winners),
            "standings": rows,
            "columns": [{"key": key, "label": label} for key, label in self.columns],
            "tie_break": self.tie_break,
            "tied": self.tied,
        }
        if self.departures != NO_DEPARTURES:
            made["resigned"] = list(self.departures.resigned)
            made["agreed"] = self.departures.agreed
        return made


def final_standings(game: GameLike, state: State, departures: Departures = NO_DEPARTURES) -> Standings:
    """The standings of `state`, a finished game of `game` (or one that `departures` decided: see `Departures`);
    raises `ValueError` if the game is not over."""
    if not departures.decided(state):
        raise ValueError("standings: the game is not over")
    presentation = game.presentation
    scores = state.scores()
    listed = presentation.standings(state)
    extra = [{key: value for key, value in row.items() if key != "order"} for row in listed]
    keys = list(extra[0]) if extra else ["score"]
    columns = tuple((key, game.score_name if key == "score" else column_heading(key)) for key in keys)

    def order(seat: int) -> tuple[Any, ...]:
        return tuple(
            -value for value in (listed[seat].get("order", [scores[seat]]) if seat < len(listed) else [scores[seat]])
        )

    winners = decided_winners(state, departures, order)
    resigned = departures.resigned

    def rank(seat: int) -> tuple[Any, ...]:
        # Every seat left in the game first; then those who resigned, the first to leave lowest.
        left = len(resigned) - resigned.index(seat) if seat in resigned else 0
        return (left, seat not in winners, *order(seat), seat)

    rows = tuple(
        StandingRow(
            place=place,
            seat=seat,
            score=scores[seat],
            columns=extra[seat] if seat < len(extra) else {},
            winner=seat in winners,
            resigned=seat in resigned,
        )
        for place, seat in enumerate(sorted(range(len(scores)), key=rank), start=1)
    )
    best = [scores[seat] for seat in departures.remaining(len(scores))] or scores
    return Standings(
        rows=rows,
        columns=columns,
        winners=tuple(winners),
        tie_break=presentation.tie_break(state),
        tied=best.count(max(best)) > 1,
        score_name=game.score_name,
        departures=departures,
    )


def decided_winners(state: State, departures: Departures, order: Callable[[int], tuple[Any, ...]]) -> list[int]:
    """Who won: at a terminal state the game's winners, less those who resigned (if all of them did, the best of
    the seats left by the game's order, sharing level); else every seat left (one, or those who agreed)."""
    remaining = departures.remaining(state.num_players)
    if not state.is_terminal():
        return remaining
    winners = [seat for seat in state.winners() if seat not in departures.resigned]
    if winners or not remaining:
        return winners
    best = min(order(seat) for seat in remaining)
    return [seat for seat in remaining if order(seat) == best]


def column_heading(key: str) -> str:
    """A column's key as its heading: spaces for underscores, the first letter a capital ("Kingdoms built")."""
    return key.replace("_", " ").capitalize()
