"""What the terminal table shows for a game: the board, the choices and their keys, notes, rules and results.

`View` works for any registered game through the contract alone; a game may have a richer view (Vikings has
`skald.cli.vikings_table`) that marks squares, explains prices and paraphrases the rulebook step by step.
"""

from __future__ import annotations

from importlib import import_module

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from skald.engine import JSONDict, State


class View:
    """How the table presents a game's positions; every method asks the state and never decides legality."""

    def board(self, state: State, names: list[str]) -> RenderableType:
        """The whole table, in Rich markup (letters keep it readable without colour)."""
        return Text.from_markup(state.render_text(color=True))

    def step(self, state: State) -> str:
        """What the seat to act does now, in a few words."""
        step_name = getattr(state, "step_name", None)
        return str(step_name()) if callable(step_name) else "choose a move"

    def keys(self, state: State) -> list[tuple[str, int]]:
        """The legal actions with the short keys a person types for them: 1, 2, 3…"""
        return [(str(index), action) for index, action in enumerate(state.legal_actions(), start=1)]

    def describe(self, state: State, action: int) -> str:
        """A few words beside an action's notation saying what it does (empty when the notation says it all)."""
        return ""

    def notes(self, state: State) -> list[str]:
        """Lines of Rich markup on what matters at this step (prices, forced rules), shown above the choices."""
        return []

    def focus(self, state: State, keys: list[tuple[str, int]]) -> RenderableType | None:
        """A close-up of what this step changes, with the choices' keys marked on it, or None."""
        return None

    def aftermath(self, before: State, after: State, name: str) -> list[str]:
        """What an action brought about without a choice (the game's automatic steps), as lines to show."""
        return []

    def rules(self, state: State) -> str:
        """The rulebook's words on the current step, paraphrased, in Rich markup."""
        return f"No rules summary for {state.game.title} here yet; the choices listed are exactly the legal ones."

    def step_help(self, state: State) -> str:
        """How to make this step's choice, in Rich markup."""
        return "Type a choice's key or its notation as listed."

    def scoring(self, report: JSONDict, names: list[str]) -> RenderableType:
        """One scoring's itemised lines for every player, with each player's totals."""
        lines = report["lines"]
        amounts = [key for key in ("fame", "gold", "coins", "points") if any(key in line for line in lines)]
        title = f"Round {report.get('round', '?')}: {report.get('when', '')} scoring"
        table = Table(title=title, title_justify="left")
        table.add_column("Player")
        table.add_column("Item")
        for key in amounts:
            table.add_column(key.title(), justify="right")
        for line in lines:
            table.add_row(Text(names[line["seat"]]), line["text"], *(_signed(line.get(k, 0)) for k in amounts))
        if not lines:
            table.add_row("—", "nothing to score", *("" for _ in amounts))
        elif amounts:
            table.add_section()
            for seat, name in enumerate(names):
                mine = [line for line in lines if line["seat"] == seat]
                table.add_row(Text(name), "total", *(f"{sum(line.get(k, 0) for line in mine):+d}" for k in amounts))
        return table

    def standings(self, state: State, names: list[str]) -> RenderableType:
        """The final standings: each seat's score, the winners first."""
        scores = state.scores()
        winners = set(state.winners())
        table = Table(title="Final standings", title_justify="left")
        for column in ("", "Player", "Score"):
            table.add_column(column)
        for seat in sorted(range(len(names)), key=lambda s: (s not in winners, -scores[s])):
            table.add_row("winner" if seat in winners else "", Text(names[seat]), str(scores[seat]))
        return table

    def tie_break(self, state: State, names: list[str]) -> str:
        """How the winners were decided, in a sentence (plain text: names are not read as markup)."""
        winners = state.winners()
        if len(winners) > 1:
            return "Shared victory: " + " and ".join(names[s] for s in winners) + "."
        return f"{names[winners[0]]} wins." if winners else "Nobody wins."


def _signed(value: int) -> str:
    return f"{value:+d}" if value else ""


#: Games with a richer view than the contract alone gives, by game name: the module and its class.
RICHER_VIEWS = {"vikings": ("skald.cli.vikings_table", "VikingsView")}


def view_for(game: str) -> View:
    """The view for a game: its richer view if it has one, else the contract-only `View`."""
    if game not in RICHER_VIEWS:
        return View()
    module, name = RICHER_VIEWS[game]
    view: View = getattr(import_module(module), name)()
    return view
