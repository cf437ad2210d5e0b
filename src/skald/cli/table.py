"""What the terminal table shows for a game: the board, the choices and their keys, notes, rules and results.

`View` knows no game: it asks the game's `Presentation` (`state.game.presentation`) for the words, keys, close-ups
and rules summaries, and lays them out with Rich. A game with more to say supplies a richer presentation, never a
richer terminal. Whatever shows a position is told who is looking (a seat, or None for a spectator), so a hand
stays hidden from those who may not see it.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from skald.engine import JSONDict, Presentation, Standings, State, final_standings


def _presentation(state: State) -> Presentation:
    return state.game.presentation


def _renderable(shown: Any) -> RenderableType:
    """A presentation's answer as something Rich prints: a string is Rich markup, anything else a renderable."""
    return Text.from_markup(shown) if isinstance(shown, str) else shown


class View:
    """How the table presents a game's positions; every method asks the state or its presentation and never
    decides legality."""

    def board(self, state: State, names: list[str], seat: int | None) -> RenderableType:
        """The whole table as `seat` (None: a spectator) may see it."""
        return _renderable(_presentation(state).board(state, seat, names))

    def step(self, state: State) -> str:
        """What the seat to act does now, in a few words."""
        return _presentation(state).prompt(state)

    def keys(self, state: State) -> list[tuple[str, int]]:
        """The legal actions with the short keys a person types for them, in the order the game lists them."""
        return _presentation(state).keys(state, state.legal_actions())

    def groups(self, state: State, keys: list[tuple[str, int]]) -> list[tuple[str, list[tuple[str, int]]]]:
        """The keyed choices under the game's headings (one untitled group unless the game groups them)."""
        by_action = {action: key for key, action in keys}
        grouped = _presentation(state).groups(state, [action for _, action in keys])
        shown = [(title, [(by_action[a], a) for a in actions if a in by_action]) for title, actions in grouped]
        listed = {action for _, group in shown for _, action in group}
        missing = [(key, action) for key, action in keys if action not in listed]
        return [*shown, ("", missing)] if missing else shown  # a choice the game left out is still offered

    def describe(self, state: State, action: int) -> str:
        """A few words beside an action's notation saying what it does (empty when the notation says it all)."""
        return _presentation(state).describe(state, action)

    def brief(self, state: State, action: int) -> str:
        """The words kept beside an action's notation where the terminal is short of rows (empty: none needed)."""
        return _presentation(state).brief(state, action)

    def notes(self, state: State) -> list[str]:
        """Lines of Rich markup on what matters at this step (prices, forced rules), shown above the choices."""
        return _presentation(state).notes(state)

    def focus(self, state: State, keys: list[tuple[str, int]]) -> RenderableType | None:
        """A close-up of what this step changes, with the choices' keys marked on it, or None."""
        shown = _presentation(state).focus(state, keys)
        return None if shown is None else _renderable(shown)

    def outcome(self, state: State, action: int, seat: int | None) -> str:
        """What the chance outcome `action` at `state` (not applied yet) decides, in the game's words for `seat`
        (None: a spectator); empty when the game says nothing more than the notation or the outcome is hidden from
        that viewer (a card drawn)."""
        if state.action_hidden_from(action, seat):
            return ""
        return _presentation(state).outcome(state, action)

    def aftermath(self, before: State, after: State, name: str, seat: int | None) -> list[str]:
        """What an action brought about without a choice (the game's automatic steps), as `seat` may read it."""
        return _presentation(before).aftermath(before, after, name, seat)

    def rules(self, state: State) -> str:
        """The rulebook's words on the current step, paraphrased, in Rich markup."""
        return _presentation(state).rules(state)

    def overview(self, state: State) -> str:
        """The game in brief (goal, end, phases, scoring, glossary) in Rich markup, or "" if the game gives none."""
        return _presentation(state).overview(state)

    def step_help(self, state: State) -> str:
        """How to make this step's choice, in Rich markup."""
        return _presentation(state).step_help(state)

    def scoring(self, state: State, report: JSONDict, names: list[str]) -> RenderableType:
        """One scoring's itemised lines for every player, with each player's totals."""
        return scoring_table(_presentation(state), report, names)

    def standings(self, state: State, names: list[str]) -> RenderableType:
        """The final standings (`skald.engine.final_standings`): the winners first, then by the game's order; the
        columns the game lists."""
        standings = final_standings(state.game, state)
        table = Table(title="Final standings", title_justify="left")
        table.add_column("")
        table.add_column("Player")
        for _, heading in standings.columns:
            table.add_column(heading, justify="right")
        for row in standings.rows:
            table.add_row(
                "winner" if row.winner else "",
                Text(names[row.seat]),
                *(str(row.value(key)) for key, _ in standings.columns),
                style="bold" if row.winner else "",
            )
        return table

    def verdict(self, state: State, names: list[str]) -> str:
        """Who won and why, in a sentence with the game's tie-break (plain text: names are not read as markup)."""
        return verdict(final_standings(state.game, state), names)


def with_outcome(notation: str, words: str) -> str:
    """A chance outcome's notation with what it decided beside it ("roll 7 — danger roll 7 against a count of 6:
    …"), or the notation alone when there are no words."""
    return f"{notation} — {words}" if words else notation


def verdict(standings: Standings, names: list[str]) -> str:
    """Who won and why, in a sentence with the game's tie-break (plain text: names are not read as markup)."""
    winners = standings.winners
    scores = standings.scores()
    rule = standings.tie_break
    unit = standings.score_name
    if not winners:
        return "Nobody wins."
    who = " and ".join(names[s] for s in winners)
    top = scores[winners[0]]
    level = [s for s in range(len(scores)) if scores[s] == top]
    if not all(scores[s] == top for s in winners) or top != max(scores):
        # The game decides by something other than the score (a kingdom built): its rule says how.
        return f"{who} wins." + (f" How a winner is decided: {rule}." if rule else "")
    if len(level) == 1:
        return f"{who} wins with the most {unit} ({top})."
    tied = " and ".join(names[s] for s in level)
    if len(winners) == 1:
        return f"{tied} tie on {top} {unit}; on the tie-break ({rule or 'the game decides'}), {who} wins."
    if len(winners) == len(level):
        too = f", and on the tie-break too ({rule})" if rule else ""
        return f"{tied} tie on {top} {unit}{too}: they share the victory."
    return f"{tied} tie on {top} {unit}; on the tie-break ({rule}), {who} share the victory."


def scoring_table(presentation: Presentation, report: JSONDict, names: list[str]) -> Table:
    """A scoring's itemised lines (`State.scorings()`) as a table: who, what, and each amount the game's
    presentation names (`scoring_amounts`) that a line carries, with each player's totals."""
    lines = report["lines"]
    amounts = [(key, title) for key, title in presentation.scoring_amounts() if any(key in line for line in lines)]
    table = Table(title=f"Round {report.get('round', '?')}: {report.get('when', '')} scoring", title_justify="left")
    table.add_column("Player")
    table.add_column("Item")
    for _, title in amounts:
        table.add_column(title, justify="right")
    for line in lines:
        table.add_row(Text(names[line["seat"]]), line["text"], *(_signed(line.get(k, 0)) for k, _ in amounts))
    if not lines:
        table.add_row("—", "nothing to score", *("" for _ in amounts))
    elif amounts:
        table.add_section()
        for seat, name in enumerate(names):
            mine = [line for line in lines if line["seat"] == seat]
            table.add_row(Text(name), "total", *(f"{sum(line.get(k, 0) for line in mine):+d}" for k, _ in amounts))
    return table


def _signed(value: int) -> str:
    return f"{value:+d}" if value else ""
