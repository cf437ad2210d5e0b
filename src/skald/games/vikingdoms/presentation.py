"""How Vikingdoms presents itself to people: the step in words, what to click, what a choice does, the tie-break.

Every front end (the terminal, the web) asks `VikingdomsGame.presentation`; the SVG board reads the same words
from here, so a step is named the same way everywhere.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape
from rich.text import Text

from skald.engine import Presentation, State
from skald.games.vikingdoms import render
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.options import MOVE_CAP, RECRUITMENT_CAP, REPETITIONS
from skald.games.vikingdoms.state import VikingdomsState

#: What the seat to act does at each decision, as the board's status line says it after the seat's name.
PROMPTS = {
    S.CHOOSING_START: "choose the upper or the lower island; the raiding starts there",
    S.RECRUITMENT: "place a Viking from the camp, or move a stack",
    S.CHOOSING_TROOP: "both passed: choose which tallest stack becomes the raiding troop",
    S.TAKING: "leads the raid: take a tile of the island by the raid marker",
    S.CHOOSING_ALLY: "take an ally",
    S.GUNNAR_SWAP: "Gunnar: swap two islands not raided yet, or not",
    S.EXCHANGING: "exchange prisoners, or not",
}
#: The steps where nobody decides, in words.
CHANCE_WORDS = {
    S.DEALING: "the territory tiles are drawn",
    S.YOUNGEST: "the youngest player is chosen",
    S.OVER: "game over",
}
#: How to act by clicking, for the seat whose decision it is.
HINTS = {
    S.CHOOSING_START: "Click island 1 or island 5.",
    S.RECRUITMENT: "Click an empty square to place a Viking, or click a Viking (it and those above it move) "
    "and then a lit stack.",
    S.CHOOSING_TROOP: "Click one of the tallest stacks.",
    S.TAKING: "Click a tile of the island by the raid marker.",
    S.RIOTING: "Click a tile in the rioter's territory.",
    S.CHOOSING_ALLY: "Click a free ally.",
    S.GUNNAR_SWAP: "Click an island, then the island to swap it with.",
    S.EXCHANGING: "Click how many prisoners to exchange.",
}
#: Each ally's ability: a few words for its card, the rules' words for its tooltip.
ALLY_ABILITY = {
    "Freya": ("no compulsion to form troops", "it is no longer mandatory to build the troop with your Viking on top"),
    "Volund": ("+3 coins", "gives 3 coins to your territory"),
    "Gunnar": ("swap two unraided islands", "you may at once exchange two islands not raided yet"),
    "Loke": ("takes two prisoners", "you at once take two prisoners from your opponent"),
}
#: How the winner is decided, under the standings.
TIE_BREAK = (
    "3 villages, 3 ports or 16 coins build the VI. Kingdom; if both players reach a victory in the same raid, "
    "3 identical buildings beat coins, otherwise the leader of the last raid wins"
)
RULES = "rules/002, Vikingdoms"
#: Each step's rules, paraphrased (the terminal's `rules`), after the one-line rule the state cites.
SUMMARIES = {
    S.DEALING: "The twelve territory tiles are shuffled: each player draws one, the other ten make five islands of "
    "two tiles. Each player takes as many of the opponent's Vikings as his tile shows prisoners.",
    S.YOUNGEST: "Both territories are worth the same: the youngest player chooses where the raiding starts.",
    S.CHOOSING_START: "The less wealthy player places the raid marker by the upper or the lower island and starts "
    "the game; the marker then moves one island at a time.",
    S.RECRUITMENT: "Place a Viking from your camp on an empty square, or move a stack (or its top part) onto "
    "another stack; a stack moves by its full height: 1 pawn, 2 rook, 3 knight, 4 bishop, 5 queen. Six or more "
    "make the raiding troop; its top Viking leads. If you can form a troop with your own Viking on top, you must "
    "(Freya lifts this). Pass only when nothing else is possible.",
    S.CHOOSING_TROOP: "Both players passed: one of the tallest stacks becomes the raiding troop (rule option "
    "both_pass).",
    S.TAKING: "The leader takes one of the two tiles; the other player must take the other. Then, in order: "
    "prisoners by difference, a riot on a second rioter, allies on a second village, port or fortress, an "
    "optional prisoner exchange.",
    S.RIOTING: "A second rioter: the opponent takes a territory tile of his choice from the rioter, and as many "
    "prisoners as it shows.",
    S.CHOOSING_ALLY: "A second village, port or fortress brings an ally tile; if both earn one, the leader chooses "
    "first. Freya: no compulsion. Völund: 3 coins. Gunnar: swap two islands. Löke: two prisoners.",
    S.GUNNAR_SWAP: "Gunnar: you may at once exchange two islands not raided yet.",
    S.EXCHANGING: "A player with two or more prisoners may exchange the same number each way; they go back to "
    "their camps.",
    S.OVER: "3 villages, 3 ports or 16 coins at the end of a raid build the VI. Kingdom.",
}
#: How a recruitment that never forms a troop ends, per value of the rule option `termination`.
TERMINATION = {
    "recruitment_ends": "A position seen {repetitions} times in this recruitment, or {cap} turns, ends it as if "
    "both had passed",
    "game_ends": "A position seen {repetitions} times in this recruitment, or {cap} turns, ends the game (more "
    "coins wins)",
    "move_cap": "After {moves} actions in all the game ends and the player with more coins wins",
}


#: The lines a step's choices and prompt take below the table at most (a recruitment's compact listing of fifty
#: moves), kept free when choosing the table's form.
CHOICES_ROOM = 16


class VikingdomsTable:
    """The whole table in the form that fits where it is printed: in full where the terminal has room for it and
    the choices, else the compact form (`render.render_compact`: the islands beside the board, a line a seat), which
    keeps the board, the seats and the choices in view at 80×24. Rich asks at print time, so the person's terminal
    decides; printed anywhere but a terminal (a file, a pipe), the table is whole."""

    def __init__(self, state: VikingdomsState, names: list[str]) -> None:
        self.state = state
        self.names = names

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The table's markup as Rich text, in the form the terminal's height leaves room for."""
        full = render.render_text(self.state, True, self.names)
        if console.is_terminal and full.count("\n") + 1 + CHOICES_ROOM > options.size.height:
            yield Text.from_markup(render.render_compact(self.state, True, self.names, options.max_width))
        else:
            yield Text.from_markup(full)


def _state(state: State) -> VikingdomsState:
    if not isinstance(state, VikingdomsState):
        raise TypeError(f"the Vikingdoms presentation cannot show a {type(state).__name__}")
    return state


class VikingdomsPresentation(Presentation):
    """Vikingdoms in words: each phase's prompt and click hint, what a tile or an ally brings, the tie-break."""

    def board(self, state: State, seat: int | None, names: list[str]) -> Any:
        """The whole table (render.py) in colour, each seat by its name and colour (`Astrid (Red)`): in full, or
        compact on a terminal too short for it and the choices (`VikingdomsTable`)."""
        return VikingdomsTable(_state(state), [escape(name) for name in names])

    def seat_summary(self, state: State, seat: int, viewer: int | None) -> str:
        """Coins towards the twenty that win, territory tiles and the camp: `7/20 coins · 3 tiles · camp 4`."""
        v = _state(state)
        obs = v.observation(viewer)
        tiles = len(obs["territory"][seat])
        plural = "s" if tiles != 1 else ""
        return f"{int(obs['coins'][seat])}/{S.COINS_TO_WIN} coins · {tiles} tile{plural} · camp {obs['camp'][seat]}"

    def last_move(self, state: State, mover: int, action: int, seat: int | None) -> list[str]:
        """The board's squares a recruitment move changed: where a Viking was placed, a stack's square and the
        square it moved onto, the square a troop was chosen from (svg.py names them `square:NAME`)."""
        data = _state(state).action_to_json(action)
        kind = data.get("type")
        if kind in ("place", "troop"):
            return [f"square:{data['square']}"]
        if kind == "move":
            return [f"square:{data['from']}", f"square:{data['to']}"]
        return []

    def prompt(self, state: State) -> str:
        """The phase in words: `take an ally for the second village`, `riot! take a tile from the rioter's…`."""
        v = _state(state)
        if v.phase == S.RIOTING:
            return "riot! take a tile from the rioter's territory"
        if v.phase == S.CHOOSING_ALLY and v.pending_allies:
            return f"take an ally for the second {v.pending_allies[0][1]}"
        return PROMPTS.get(v.phase) or CHANCE_WORDS.get(v.phase, v.phase)

    def click_hint(self, state: State) -> str | None:
        """How to make the phase's choice on the drawn board."""
        v = _state(state)
        return HINTS.get(v.phase) if v.current_player() >= 0 else None

    def describe(self, state: State, action: int) -> str:
        """What a choice brings: the island the raiding starts from, a tile's building and corners, an ally."""
        v = _state(state)
        data = v.action_to_json(action)
        kind = data.get("type")
        if kind == "start":
            return f"the raiding starts at island {1 if data['island'] == 'upper' else 5}"
        if kind in ("take", "riot"):
            tile = next((t for t in v.tiles if t.name == data["tile"]), None)
            if tile is None:
                return ""
            corners = [f"{tile.coins} coins"] if tile.coins else []
            corners += [f"{tile.prisoners} prisoners"] if tile.prisoners else []
            corners += ["a rioter"] if tile.rioter else []
            return f"a {tile.building}" + (f" with {', '.join(corners)}" if corners else "")
        if kind == "ally":
            return ALLY_ABILITY.get(str(data["ally"]), ("", ""))[0]
        if kind == "place":
            return "a Viking from the camp onto the board"
        if kind == "move":
            return f"{data['count']} Viking{'s' if data['count'] != 1 else ''} from {data['from']} onto {data['to']}"
        return ""

    def brief(self, state: State, action: int) -> str:
        """On a short terminal a placement's square and a move's notation (`2b3-d3`: two Vikings from b3 onto d3)
        under their heading say it all; a tile, an ally or an island keeps its words."""
        kind = _state(state).action_to_json(action).get("type")
        return "" if kind in ("place", "move") else self.describe(state, action)

    def groups(self, state: State, actions: list[int]) -> list[tuple[str, list[int]]]:
        """At recruitment, placing from the camp apart from moving a stack (and passing, when allowed)."""
        v = _state(state)
        if v.phase != S.RECRUITMENT:
            return super().groups(state, actions)
        headings = {"place": "place a Viking from your camp", "move": "move a stack", "pass": "or pass"}
        kinds = {action: str(v.action_to_json(action).get("type")) for action in actions}
        grouped = [(title, [a for a in actions if kinds[a] == kind]) for kind, title in headings.items()]
        rest = [a for a in actions if kinds[a] not in headings]
        return [(title, group) for title, group in [*grouped, ("", rest)] if group]

    def tie_break(self, state: State) -> str:
        """How the winner is decided when both reach a victory in the same raid."""
        return TIE_BREAK

    def rules(self, state: State) -> str:
        """The rule at this phase, in the words the state cites for it."""
        v = _state(state)
        lines = [f"[b]The rule now[/] ({RULES}): {S.PHASE_RULES[v.phase]}.", SUMMARIES[v.phase]]
        if v.phase == S.RECRUITMENT:
            ending = TERMINATION[v.options["termination"]].format(
                repetitions=REPETITIONS, cap=RECRUITMENT_CAP, moves=MOVE_CAP
            )
            lines.append(f"{ending} (rule option termination; turn {v.recruit_turns} of this recruitment).")
        return "\n".join(lines)
