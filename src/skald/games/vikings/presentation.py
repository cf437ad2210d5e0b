"""How Vikings presents itself to people: prices and the Fame exchange, the 0-space rule, squares marked for placement.

Every front end asks `VikingsGame.presentation`: the terminal shows its notes, close-ups and rules summaries, the web
its prompts, click hints and the same descriptive labels. Everything legal comes from the state (`legal_actions`,
`illegal_reason`); this module only explains and draws. Vikings is a perfect-information game: every seat sees the
whole table, so the viewer changes nothing here.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from skald.engine import JSONDict, Presentation, State
from skald.games.vikings import actions as A
from skald.games.vikings.components import (
    EMPTY,
    GREY,
    LARGE_SCORING_ROUNDS,
    LETTERS,
    ROUNDS,
    ROW_LETTERS,
    ROW_NAMES,
    VIKINGS,
    is_ship,
    ship_of,
    tile_code,
    tile_name,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.render import STYLES, render_compact, render_text, ship_label
from skald.games.vikings.scoring import threats
from skald.games.vikings.state import VikingsState
from skald.games.vikings.steps import (
    AUCTION,
    BUY,
    FERRY,
    LAND,
    PLACE_COLOURS,
    PLACE_TILE,
    PLACE_VIKING,
    REMOVE_VIKING,
    REPLACE_BUILDING,
    TAKE_SPECIAL,
)

PURCHASING = "rules/000 p.2, Purchasing Groups"
PLACING = "rules/000 p.3, Placing tiles and Vikings"
SCORING = "rules/000 p.4, Scoring"
END = "rules/000 p.5, End Game Scoring and Game End"
ADVANCED = "rules/000, advanced rules"

RULES = {
    BUY: (
        f"[b]Purchasing Groups[/] ({PURCHASING})\n"
        "• From the start player clockwise, each player buys one Group (a tile and the Viking beside it) until "
        "all 12 are gone; the price is the number beside its space on the wheel.\n"
        "• The Group on space 0 may be bought only when its Viking is the only one of that colour left on the "
        "wheel. But a player who cannot afford any other Group with her Gold must take the 0-Group.\n"
        "• Fame may be exchanged for Gold, 1 Fame for 1 Gold, but never below 0 Fame; nobody is obliged to "
        "exchange Fame to avoid the 0-Group. Here the exchange is made for you: choose a Group dearer than your "
        "Gold and the shortfall is taken from your Fame.\n"
        "• Once the 0-Group is bought, the wheel turns until a Group stands on 0 again: every price falls."
    ),
    PLACE_TILE: (
        f"[b]Placing a tile[/] ({PLACING})\n"
        "• A Ship goes in the Ship row: the first three into its first three spaces in any order, each later "
        "one next to a placed Ship.\n"
        "• An Island tile goes in one of the five Viking rows, next to the Mainland or to an Island tile (not "
        "diagonally), never upside-down, land against land and sea against sea.\n"
        "• An Island tile that cannot be placed legally is removed from the game; its Viking goes to the Head "
        "Boatswain.\n"
        "• With your first Group you also place your start tile in column 1 of a Viking row, in either order."
    ),
    PLACE_VIKING: (
        f"[b]Placing Vikings[/] ({PLACING})\n"
        "• When the tile went into the row of the Viking's colour, the Viking may stand on that tile, and on no "
        "other. If you prefer, it goes to the Head Boatswain instead, to be ferried at a large scoring.\n"
        "• One Viking per Island tile; once placed it never moves.\n"
        "• Rows: W Warriors (black), N Nobles (red), S Scouts (green), G Goldsmiths (yellow), F Fishermen (blue)."
    ),
    FERRY: (
        f"[b]Large scoring, step 1: Boatswains[/] ({SCORING})\n"
        "• At the start of her large scoring a player may use Boatswains waiting with the Head Boatswain. Each "
        "moves all waiting Vikings of one colour, or one Viking of each colour, onto unoccupied Island tiles of "
        "their rows, then leaves the game.\n"
        "• Use as many or as few as you like, except at the end of round 6: then you must move as many "
        "Vikings as possible.\n"
        "• Then the scoring: a Ship threatens its column down to its sail's row unless a Warrior stands right "
        "below it (the Warrior earns the Ship's Fame or Gold); Nobles 2 Fame; Scouts 1 Fame, +1 for a "
        "Goldsmith and +1 for a Fisherman below; Goldsmiths 3 Gold. Threatened Vikings score nothing.\n"
        f"• Boatswains you keep count at the end: the most earn 10 Fame ({END})."
    ),
    LAND: (
        f"[b]Landing the ferried Vikings[/] ({SCORING})\n"
        "• The Vikings this Boatswain carries go onto unoccupied Island tiles of their own rows: choose the tile "
        "for each. Vikings already on islands never move."
    ),
    AUCTION: (
        f"[b]Auction for the Start Player Ship[/] ({ADVANCED})\n"
        "• 13 Vikings are drawn and shown. The current start player opens with a bid of 0 or more Gold; then, "
        "clockwise, each player raises or passes, and a pass ends her part in the auction.\n"
        "• Gold may be topped up from Fame, 1 for 1, never below 0. If nobody raises, the start player wins for 0.\n"
        "• The winner pays her bid to the bank, takes the Start Player Ship, removes one of the 13 Vikings from "
        "the game, and lays out the tiles; then, from her clockwise, each player chooses a colour and lays all its "
        "Vikings on the highest free spaces from 11 down."
    ),
    REMOVE_VIKING: (
        f"[b]Removing a Viking[/] ({ADVANCED})\n"
        "• The auction's winner removes one of the 13 drawn Vikings from the game; the other 12 go on the wheel."
    ),
    PLACE_COLOURS: (
        f"[b]Laying the Vikings on the wheel[/] ({ADVANCED})\n"
        "• From the auction's winner clockwise, each player chooses a colour still to be laid and places all its "
        "Vikings on the highest free spaces, from 11 down. The last colour lays itself."
    ),
    TAKE_SPECIAL: (
        f"[b]Taking a special tile[/] ({ADVANCED}: Special tiles)\n"
        "• Whoever buys the most expensive remaining Group may take one of the face-up special tiles (never with "
        "the round's last Group, bought for 0). Four lie face up; empty spaces are refilled at the next round.\n"
        "• 5 Gold pays at once; Goldsmith tiles pay at small and large scorings; Boat, Noble, Scout and Fisherman "
        "tiles at large scorings; Boatswain with horn, Fisherman with fish, 3 Gold = 1 Fame and Building tiles "
        "at the end."
    ),
    REPLACE_BUILDING: (
        f"[b]Placing a Building tile[/] ({ADVANCED}: Special tiles)\n"
        "• The Building tile replaces one of your island tiles showing the same building (that tile leaves the "
        "game; a Viking on it stays). At the end it scores 1 Fame for each Viking on it and on the eight tiles "
        "around it, at most 9, unless a ship threatens it."
    ),
}

#: What to click on the drawn board, per step (the web shows it above the board).
CLICK_HINTS = {
    BUY: "click a Group on the wheel to buy it",
    PLACE_TILE: "click a highlighted square to place the tile",
    PLACE_VIKING: "click a highlighted tile for the Viking, or send it to the Head Boatswain",
    FERRY: "ferry: click a waiting colour (or use the buttons), or stop",
    LAND: "click a highlighted tile to land a Viking",
}
#: The rule that separates players level on Fame (rules/000 p.5, Game End).
TIE_BREAK = "most Gold breaks a tie in Fame; still tied, the victory is shared"

HELP = {
    BUY: "The key is the Group's price: type [b]7[/] (or [b]buy 7[/]) to buy the Group that costs 7.",
    PLACE_TILE: "Type a key, or a square: [b]N3[/] or [b]tile N3[/] for the tile, [b]start W1[/], [b]ship 2[/].",
    PLACE_VIKING: "Type a key, or [b]viking N3[/] to stand the Viking on its tile, or [b]head[/].",
    FERRY: "Type a key, or [b]ferry G[/] (one colour), [b]ferry each[/] (one of each), [b]done[/] to stop.",
    LAND: "Type a key, or the square where a carried Viking lands, e.g. [b]S4[/].",
    AUCTION: "Type a key, or [b]bid 3[/] to raise the bid to 3, or [b]pass[/] to leave the auction.",
    REMOVE_VIKING: "Type a key, or [b]remove B[/] to remove a drawn Boatswain (F G S N W B).",
    PLACE_COLOURS: "Type a key, or [b]place G[/] to lay the Goldsmiths from the highest free space down.",
    TAKE_SPECIAL: "Type a key, or [b]take 2[/] for the second face-up special tile, or [b]decline[/].",
    REPLACE_BUILDING: "Type a key, or [b]replace N3[/] for the island tile the Building replaces.",
}


def _state(state: State) -> VikingsState:
    if not isinstance(state, VikingsState):
        raise TypeError(f"the Vikings table cannot show a {type(state).__name__}")
    return state


def _paint(text: str, letter: str) -> Text:
    return Text(text, style=STYLES.get(letter.upper(), ""))


def viking_name(colour: int) -> str:
    """A Viking as people call it: `Scout (S)`."""
    return f"{VIKINGS[colour].role} ({LETTERS[colour]})"


def tile_words(tile: int) -> str:
    """A tile as people call it: `right end (R)`, or a Ship with its sail, value and reward."""
    if is_ship(tile):
        ship = ship_of(tile)
        return (
            f"Ship {ship_label(tile)} ({VIKINGS[ship.sail].colour} sail down to the {ROW_NAMES[ship.row]} row, "
            f"{ship.value} {ship.reward.title()})"
        )
    return f"{tile_code(tile)} {tile_name(tile)}"


def count(n: int, thing: str) -> str:
    """`1 Scout`, `3 Scouts`."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def possessive(name: str) -> str:
    """`Your` for the seat called You, otherwise `Ann's`."""
    return "Your" if name == "You" else f"{name}'s"


def cost_words(price: int, gold: int) -> str:
    """What a price costs a player with `gold`: Gold alone, or all her Gold and Fame for the shortfall."""
    if price <= gold:
        return f"{price} Gold"
    return f"{gold} Gold + {price - gold} Fame"


#: The lines a step's notes, choices and prompt take below the table (a purchase: 4 of notes, up to 12 Groups, some
#: on two lines, and the prompt), kept free when choosing the table's form.
CHOICES_ROOM = 20


class VikingsTable:
    """The whole table in the form that fits where it is printed: the grids (`render_text`) where the terminal has
    room for them and the choices, else the compact form (`render_compact`), which keeps the step, the wheel and
    every Mainland in view at 80×24. Rich asks at print time, so the person's terminal decides; printed anywhere
    but a terminal (a file, a pipe), the table is whole."""

    def __init__(self, state: VikingsState, names: list[str], choosing: bool = False) -> None:
        self.state = state
        self.names = names
        #: Drawn for the seat about to choose: its choices and close-up follow, and show what the compact form omits.
        self.choosing = choosing

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The table's markup as Rich text, in the form the terminal's height leaves room for."""
        full = render_text(self.state, True, self.names)
        if console.is_terminal and full.count("\n") + CHOICES_ROOM > options.size.height:
            yield Text.from_markup(render_compact(self.state, True, self.names, self.choosing))
        else:
            yield Text.from_markup(full)


class VikingsPresentation(Presentation):
    """The Vikings table: the wheel's prices, the 0-space rule, the Fame exchange and marked squares."""

    def prompt(self, state: State) -> str:
        """The step in the rulebook's words: `buy a Group`, `place the tile`, `ferry with Boatswains`…"""
        return _state(state).step_name()

    def scoring_amounts(self) -> list[tuple[str, str]]:
        """A scoring line gives Fame, Gold or both."""
        return [("fame", "Fame"), ("gold", "Gold")]

    def click_hint(self, state: State) -> str | None:
        """What to click on the drawn board at this step, or None where the board has nothing to click."""
        return CLICK_HINTS.get(_state(state).step)

    def groups(self, state: State, actions: list[int]) -> list[tuple[str, list[int]]]:
        """With the start tile still in hand, the bought tile's squares apart from the start tile's."""
        v = _state(state)
        starts = [a for a in actions if A.START <= a < A.VIKING]
        if v.step != PLACE_TILE or not starts or len(starts) == len(actions):
            return super().groups(state, actions)
        tile = [a for a in actions if a not in starts]
        return [(f"the {tile_words(v.pending_tile)}", tile), ("your start tile", starts)]

    def board(self, state: State, seat: int | None, names: list[str]) -> Any:
        """The wheel and every Mainland, with the seats' names (every seat sees the whole table): the grids on a
        terminal tall enough for them and the choices below, the compact form on a shorter one."""
        v = _state(state)
        return VikingsTable(v, [escape(n) for n in names], choosing=seat is not None and seat == v.current_player())

    def seat_summary(self, state: State, seat: int, viewer: int | None) -> str:
        """Fame, Gold and the Vikings waiting with the Head Boatswain: `10 Fame · 29 Gold · 3 waiting`."""
        land = _state(state).lands[seat]
        waiting = sum(land.head)
        return f"{land.fame} Fame · {land.gold} Gold" + (f" · {waiting} waiting" if waiting else "")

    def last_move(self, state: State, mover: int, action: int, seat: int | None) -> list[str]:
        """The square a tile, Ship or Viking went to on the mover's Mainland, or its Head Boatswain when a Viking
        went there or was ferried from there (svg.py names them `SEAT:SQUARE` and `SEAT:head`); nothing for a
        purchase, which the Bought tile on the board and the log show."""
        data = A.to_json(action)
        kind = data.get("type")
        if kind in ("island", "start", "viking", "replace"):
            return [f"{mover}:{data['square']}"]
        if kind == "ship":
            return [f"{mover}:{ROW_LETTERS[0]}{data['column']}"]
        if kind in ("head", "ferry"):
            return [f"{mover}:head"]
        return []

    def keys(self, state: State, actions: list[int]) -> list[tuple[str, int]]:
        """At a purchase the key is the price, as on the wheel; otherwise 1, 2, 3…"""
        if _state(state).step == BUY:
            return [(str(action - A.BUY), action) for action in actions]
        return super().keys(state, actions)

    def describe(self, state: State, action: int) -> str:
        """What the action does, e.g. `right end (R) with a Scout (S) — 3 Gold + 2 Fame`."""
        v = _state(state)
        land = v.lands[v.to_move]
        if v.step == BUY and A.BUY <= action < A.SHIP:
            space = action - A.BUY + v.offset
            tile, viking = v.wheel_tiles[space], v.wheel_vikings[space]
            return f"{tile_words(tile)} with a {viking_name(viking)} — {cost_words(action - A.BUY, land.gold)}"
        if A.SHIP <= action < A.ISLAND:
            return f"the Ship in column {action - A.SHIP + 1}"
        if A.ISLAND <= action < A.START:
            row, _ = A.square_of(action - A.ISLAND)
            return f"the {tile_words(v.pending_tile)} in the {ROW_NAMES[row]} row"
        if A.START <= action < A.VIKING:
            return f"the start tile in the {ROW_NAMES[action - A.START + 1]} row"
        if A.VIKING <= action < A.HEAD:
            row, col = A.square_of(action - A.VIKING)
            role = VIKINGS[v.pending_viking].role if v.step == PLACE_VIKING else ROW_NAMES[row]
            verb = "lands" if v.step == LAND else "stands"
            return f"the {role} {verb} on the tile at {A.square_name(row, col)}"
        if action == A.HEAD:
            return f"the {VIKINGS[v.pending_viking].role} waits with the Head Boatswain"
        if A.FERRY <= action < A.FERRY_EACH:
            colour = action - A.FERRY
            fits = min(land.head[colour], land.count_free(VIKINGS[colour].row))
            return f"a Boatswain carries the waiting {VIKINGS[colour].role}s ({fits} fit)"
        if action == A.FERRY_EACH:
            return "a Boatswain carries one Viking of each colour that has a free tile"
        if action == A.DONE:
            return "end this ferry" if v.step == LAND else "stop ferrying and score"
        return ""

    def notes(self, state: State) -> list[str]:
        """Prices and the Fame exchange at a purchase, the start tile, what waits to be ferried."""
        v = _state(state)
        land = v.lands[v.to_move]
        if v.step == BUY:
            return self._purchase_notes(v)
        if v.step == PLACE_TILE:
            lines = []
            if v.pending_tile != EMPTY:
                viking = v.pending_viking
                lines.append(f"Place your {tile_words(v.pending_tile)}; it came with a {viking_name(viking)}.")
                if viking != GREY and not is_ship(v.pending_tile):
                    row = VIKINGS[viking].row
                    lines.append(
                        f"The {VIKINGS[viking].role} may stand on it only if it goes in the {ROW_NAMES[row]} row "
                        f"({ROW_LETTERS[row]}); otherwise it goes to the Head Boatswain."
                    )
            if not land.start_placed:
                lines.append("Your start tile is in hand too: place both, in either order.")
            return lines
        if v.step == PLACE_VIKING:
            return [
                f"Your {viking_name(v.pending_viking)} may stand on the tile just placed, or wait with the Head "
                "Boatswain to be ferried at a large scoring."
            ]
        if v.step == FERRY:
            waiting = ", ".join(count(n, VIKINGS[c].role) for c, n in enumerate(land.head) if n and c != GREY)
            lines = [
                f"Large scoring of round {v.round}: you have {count(land.head[GREY], 'Boatswain')} with the Head "
                f"Boatswain; waiting to be ferried: {waiting or 'nobody'}."
            ]
            if v.round == ROUNDS:
                lines.append(
                    "Round 6: you must use your Boatswains to move as many Vikings as possible onto unoccupied "
                    f"Island tiles ({SCORING})."
                )
            return lines
        if v.step == LAND:
            load = ", ".join(count(n, VIKINGS[c].role) for c, n in enumerate(v.ferry_load) if n)
            return [f"This Boatswain carries {load}: choose the tile where each lands."]
        return []

    @staticmethod
    def _purchase_notes(v: VikingsState) -> list[str]:
        land = v.lands[v.to_move]
        scoring = "large" if v.round in LARGE_SCORING_ROUNDS else "small"
        lines = [
            f"Round {v.round} of {ROUNDS} ({scoring} scoring after it). You have {land.gold} Gold and {land.fame} Fame."
        ]
        if v.wheel_tiles[v.offset] != EMPTY:
            colour = v.wheel_vikings[v.offset]
            reason = v.illegal_reason(A.BUY + 0)
            if reason is not None:
                lines.append(f"The 0-Group is not allowed: {escape(reason.reason)}.")
            elif sum(1 for c in v.wheel_vikings if c == colour) == 1:
                lines.append(
                    f"The 0-Group is allowed: its {VIKINGS[colour].role} is the last {VIKINGS[colour].colour} "
                    "Viking on the wheel."
                )
            else:
                lines.append(
                    f"The 0-Group is allowed: no other Group costs at most your {land.gold} Gold, so you may take "
                    f"it ({PURCHASING})."
                )
        legal = v.legal_actions()
        dearer = [a - A.BUY for a in legal if a - A.BUY > land.gold]
        if dearer:
            lines.append(
                f"Fame for Gold: a Group dearer than your {land.gold} Gold costs all your Gold and 1 Fame for each "
                f"Gold short (prices {', '.join(map(str, dearer))}); Fame never goes below 0."
            )
        out = [
            space - v.offset
            for space in range(v.offset + 1, len(v.wheel_tiles))
            if v.wheel_tiles[space] != EMPTY and A.BUY + space - v.offset not in legal
        ]
        if out:
            lines.append(
                f"Out of reach (more than your Gold + Fame = {land.gold + land.fame}): prices "
                f"{', '.join(map(str, out))}."
            )
        return lines

    def focus(self, state: State, keys: list[tuple[str, int]]) -> Any:
        """The Mainland of the seat to act, with the keys of this step's choices on their squares."""
        v = _state(state)
        if v.step not in (PLACE_TILE, PLACE_VIKING, FERRY, LAND):
            return None
        marks: dict[tuple[int, int], list[str]] = {}
        for key, action in keys:
            square = _square_of(action)
            if square is not None:
                marks.setdefault(square, []).append(key)
        return mainland_table(v, v.to_move, marks)

    def rules(self, state: State) -> str:
        """The rulebook on this step, paraphrased, with where it stands in rules/000."""
        return RULES.get(_state(state).step) or super().rules(state)

    def step_help(self, state: State) -> str:
        """How to type this step's choice."""
        return HELP.get(_state(state).step) or super().step_help(state)

    def aftermath(self, before: State, after: State, name: str, seat: int | None) -> list[str]:
        """What happened without a choice: a discarded tile, a Viking sent to the Head Boatswain, the wheel turning
        (the same for every viewer: nothing in Vikings is hidden once it has happened), in Rich markup."""
        b, a = _state(before), _state(after)
        seat = b.to_move
        owner = possessive(escape(name))
        lines = []
        if len(a.discarded) > len(b.discarded):
            tile = a.discarded[-1]
            lines.append(f"{owner} {tile_name(tile)} has no legal place: it is removed from the game ({PLACING}).")
        if b.step in (BUY, PLACE_TILE) and a.step != PLACE_VIKING:
            for c in range(GREY + 1):
                if a.lands[seat].head[c] > b.lands[seat].head[c]:
                    why = "Boatswains always wait there" if c == GREY else "it has no tile of its own in its row"
                    lines.append(f"{owner} {VIKINGS[c].role} goes to the Head Boatswain ({why}).")
        if a.round == b.round and a.offset > b.offset:
            lines.append(f"The wheel turns: every price falls by {a.offset - b.offset}.")
        return lines

    def standings(self, state: State) -> list[JSONDict]:
        """Per seat, the Fame and Gold the end screen lists; `order` ranks by Fame, then Gold (the tie-break)."""
        return [{"fame": land.fame, "gold": land.gold, "order": [land.fame, land.gold]} for land in _state(state).lands]

    def section(self, state: State) -> tuple[str, str]:
        """The round and its part, as the rulebook's page reads (rules/000 p.2–4): the offer on the wheel, the
        purchases, and the Boatswains' ferry of a large scoring."""
        v = _state(state)
        if v.step in (FERRY, LAND):
            part = "Large scoring: the Boatswains ferry"
        elif v.step in (BUY, PLACE_TILE, PLACE_VIKING, TAKE_SPECIAL, REPLACE_BUILDING):
            part = "Purchasing Groups"
        else:
            part = "The offer on the wheel"
        return (f"Round {v.round}", part)

    def tie_break(self, state: State) -> str:
        """Most Fame wins; tied, most Gold; still tied, the victory is shared (rules/000 p.5, Game End)."""
        return TIE_BREAK


def _square_of(action: int) -> tuple[int, int] | None:
    """The (row, column) an action puts something on, or None."""
    if A.SHIP <= action < A.ISLAND:
        return 0, action - A.SHIP + 1
    if A.ISLAND <= action < A.START:
        return A.square_of(action - A.ISLAND)
    if A.START <= action < A.VIKING:
        return action - A.START + 1, 1
    if A.VIKING <= action < A.HEAD:
        return A.square_of(action - A.VIKING)
    return None


def mainland_table(state: VikingsState, seat: int, marks: dict[tuple[int, int], list[str]]) -> RenderableType:
    """One Mainland as a grid; a square a choice would fill shows that choice's key in parentheses."""
    land = state.lands[seat]
    seen = threats(land)
    width = max(3, land.rightmost(), *(col for _, col in marks))
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("")
    for col in range(1, width + 1):
        table.add_column(str(col), justify="left")
    table.add_column("")
    for row in range(6):
        cells: list[Text] = []
        for col in range(1, width + 1):
            cell = _cell(land, row, col, seen.is_threatened(row, col))
            if (row, col) in marks:
                key = "(" + "/".join(marks[row, col]) + ")"
                if cell.plain == ".":
                    cell = Text(key, style="bold reverse")
                else:
                    cell.append(key, style="bold reverse")
            cells.append(cell)
        label = ROW_LETTERS[row] if row else "ship"
        table.add_row(label, *cells, Text(ROW_NAMES[row], style="dim"))
    waiting = Text("Head Boatswain: ")
    if any(land.head):
        for c, n in enumerate(land.head):
            if n:
                waiting.append_text(_paint(f"{LETTERS[c]}{n}", LETTERS[c]))
                waiting.append(" ")
    else:
        waiting.append("—")
    start = "" if land.start_placed else " · start tile in hand"
    header = Text(f"Your Mainland: {land.fame} Fame, {land.gold} Gold · ")
    header.append_text(waiting)
    header.append(start)
    return Group(header, table)


def _cell(land: Mainland, row: int, col: int, threatened: bool) -> Text:
    tile = land.tile(row, col)
    if tile == EMPTY:
        return Text(".")
    if is_ship(tile):
        label = ship_label(tile)
        return _paint(label, LETTERS[ship_of(tile).sail])
    text = Text(tile_code(tile))
    viking = land.viking(row, col)
    if viking != EMPTY:
        letter = LETTERS[viking].lower() if threatened else LETTERS[viking]
        text.append(":")
        text.append_text(_paint(letter, letter))
    return text
