"""The legal choices as the terminal lists them: one a line with the game's words, or compactly on a short terminal.

The listing serves every game. In full, each choice has its key, its notation and what the game says it does
(`Presentation.describe`). Compactly, where the board, the choices and the prompt would not fit the terminal's
height, a choice keeps only the game's brief words (`Presentation.brief`); a run of choices left without words is
laid side by side in columns, key and notation, under its group's heading, and `?` gives their words.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table as Grid
from rich.text import Text

from skald.cli.table import View
from skald.engine import State

#: The last line of the listing: what else may be typed.
MORE = "…or type a move in notation, or help, rules, board, undo, save [FILE], quit."
#: A compact listing that left words out says where they are in its first line (and has no last line).
HINT = "(? KEY says what one does; a move in notation will do; help for more"
#: Spaces between two columns of a compact listing.
GAP = 2


def label(view: View, state: State, notation: str, action: int, words: str | None = None) -> Text:
    """An action's notation and the words beside it: `words`, or by default the game's description."""
    text = Text(f"{notation:<12}", style="cyan")
    words = view.describe(state, action) if words is None else words
    if words:
        text.append(f" {words}")
    return text


def listing(view: View, state: State, keys: list[tuple[str, int]], width: int, compact: bool) -> list[RenderableType]:
    """The step's choices under the game's headings, ready to print: in full, or `compact` for a short terminal
    (`width` is the terminal's, for the columns)."""
    shown: list[RenderableType] = []
    key_width = max((len(key) for key, _ in keys), default=1) + 4
    left_out = False
    for title, group in view.groups(state, keys):
        if title:
            shown.append(Text(f" {title}:", style="italic"))
        runs = _runs(view, state, group) if compact else [(group, None)]
        for run, brief in runs:
            if brief is not None and len(run) > 1 and not any(brief.values()):
                shown.extend(_columns(state, run, width))
                left_out = left_out or any(view.describe(state, action) for _, action in run)
            else:  # a lone choice keeps all its words: a line is a line
                shown.append(_rows(view, state, run, key_width, None if len(run) == 1 else brief))
    if left_out:  # a line saved: the prompt names the step
        return [Text.assemble(("Choices ", "bold"), (HINT, "dim"), ("):", "bold")), *shown]
    return [Text(f"Choices ({view.step(state)}):", style="bold"), *shown, Text(MORE, style="dim")]


def one(view: View, state: State, key: str, action: int) -> Text:
    """A single choice with its key and the game's whole words on it (`? KEY`)."""
    line = Text(f"[{key}] ", style="bold")
    line.append_text(label(view, state, state.action_to_notation(action), action))
    return line


def _runs(view: View, state: State, group: list[tuple[str, int]]) -> list[tuple[list[tuple[str, int]], dict[int, str]]]:
    """A group cut into runs of choices that all have brief words or all have none, in the game's order."""
    runs: list[tuple[list[tuple[str, int]], dict[int, str]]] = []
    for key, action in group:
        brief = view.brief(state, action)
        if runs and bool(next(iter(runs[-1][1].values()))) == bool(brief):
            runs[-1][0].append((key, action))
            runs[-1][1][action] = brief
        else:
            runs.append(([(key, action)], {action: brief}))
    return runs


def _rows(
    view: View, state: State, run: list[tuple[str, int]], key_width: int, brief: dict[int, str] | None
) -> RenderableType:
    """Choices one a line: the key in a column of its own, so that a label longer than the terminal wraps under
    itself, not under the key (a narrow terminal keeps the list readable)."""
    grid = Grid.grid(padding=(0, 1, 0, 0))
    grid.add_column(width=key_width, justify="right", no_wrap=True)
    grid.add_column()
    for key, action in run:
        words = None if brief is None else brief[action]
        grid.add_row(
            Text(f"[{key}]", style="bold"), label(view, state, state.action_to_notation(action), action, words)
        )
    return grid


def _columns(state: State, run: list[tuple[str, int]], width: int) -> list[Text]:
    """Choices side by side, key and notation, as many to a line as the terminal's width takes."""
    longest = max(len(key) for key, _ in run)
    cells = [(f"[{key}]".rjust(longest + 2), state.action_to_notation(action)) for key, action in run]
    cell = max(len(key) + 1 + len(notation) for key, notation in cells)
    per_line = max(1, (width - 1 + GAP) // (cell + GAP))
    lines = []
    for start in range(0, len(cells), per_line):
        line = Text(" ")
        for index, (key, notation) in enumerate(cells[start : start + per_line]):
            if index:
                line.append(" " * GAP)
            line.append(key, style="bold")
            line.append(" ")
            line.append(notation.ljust(cell - len(key) - 1), style="cyan")
        line.rstrip()
        lines.append(line)
    return lines
