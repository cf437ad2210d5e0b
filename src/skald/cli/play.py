"""`skald play`: people and bots at one table in the terminal, with undo, save, resume and the rules at hand.

People are `you` or `you:NAME` seats (several make a hot-seat game); any other seat is a bot spec. The table
asks the state what is legal and applies what was chosen. Without `--seed`, chance draws from the operating system's
randomness and bots get unpredictable seeds, none of it shown or saved, so nobody can work out a hidden card or a
face-down stack; with `--seed`, chance is sampled from a generator seeded by the seed and the position (a saved game
resumed with the same seed goes on drawing as it would have), and anyone who knows the seed can reproduce the deal.

Everything is shown as the person at the keyboard may see it: the one person's seat, or, with several people, the
seat whose turn it is (bots' and chance's moves as a spectator sees them). In a game with hidden information, a
"pass the keyboard" screen that first clears the terminal stands between two people's turns, so no hand stays on
screen for the next person, and undo takes back only the person's own step; everything hidden is revealed once the
game is over.

A person whose only legal choice is one action (a card window where none of his cards may be played) is not asked:
the table takes it and says so, when that tells nobody anything: with one person at the table (the others are
bots), or in a game without hidden information. With several people and hidden hands, whether a person has a real
choice can depend on his hand, so the table asks as the game's rules ask (a pass screen included) and the others
cannot tell one case from the other.

An answer is only what was typed after its prompt appeared: at a terminal, whatever was typed ahead (while bots
moved) is set aside when the prompt is shown (`skald.cli.typeahead`). Where the table, the choices and the prompt
would not fit the terminal's height, the choices are listed compactly (`skald.cli.choices`) so the board stays in
view.
"""

from __future__ import annotations

import math
import random
import secrets
import sys
import time
from pathlib import Path

import typer
from rich.console import RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from skald.bots import Bot, SpecError, check_spec, make_bot
from skald.cli.choices import label, listing, one
from skald.cli.common import (
    FROM_HELP,
    check_options,
    console,
    display_names,
    fail,
    find_game,
    load_position,
    load_record,
    parse_options,
)
from skald.cli.table import View, with_outcome
from skald.cli.typeahead import set_aside
from skald.engine import (
    CHANCE,
    PERFECT,
    Game,
    Record,
    RecordError,
    Seat,
    StandingAnswer,
    State,
    game_names,
    sample_chance,
    step_of,
    steps_of,
    take_back,
)
from skald.engine.presentation import kept_answer, only_answer
from skald.engine.record import FORMAT, read_json_file

#: `Seat.kind` of a person; every other kind is a bot spec.
PERSON = "human"
DEFAULT_SEATS = "you,mcts:normal"
COMMANDS = (
    ("help", "the commands and how to type this step's choice"),
    ("? [KEY]", "what each choice does (or the one with KEY), in the game's words"),
    ("rules", "what the rulebook says about this step"),
    ("rules all", "the whole game in brief: the goal, the end, a turn's phases, the scoring, the words used"),
    ("board", "the whole table again"),
    ("keep", "where offered: give this answer now and at every decision like it until your next other one"),
    ("undo", "take back your last step (until another seat acts or chance draws)"),
    ("save [FILE]", "save the game record (resume with skald play --resume FILE)"),
    ("quit", "save and leave"),
)


class Leave(Exception):
    """The person asked to leave the table (quit, Ctrl-D): save and go."""


class InputEnded(Exception):
    """Stdin ended without a person asking to leave (a closed pipe or file, not Ctrl-D at a terminal)."""


def parse_seats(text: str, game: Game) -> list[Seat]:
    """Seats from `you,mcts:normal,greedy`: `you`/`you:NAME` are people, anything else a bot spec.

    Raises `ValueError` naming `--seats` and what is wrong with it.
    """
    parts = [part.strip() for part in text.split(",")]
    if any(not part for part in parts):
        raise ValueError(f"--seats {text!r}: an empty seat; give seats separated by commas, e.g. you,greedy")
    try:
        game.check_players(len(parts))
    except ValueError as error:
        raise ValueError(f"--seats {text!r}: {error}") from None
    people = sum(1 for part in parts if _is_person(part))
    seats = []
    for index, part in enumerate(parts):
        if _is_person(part):
            name = part[4:].strip() if part.startswith("you:") else ""
            seats.append(Seat(name or ("You" if people == 1 else f"Player {index + 1}"), PERSON))
        else:
            try:
                check_spec(part, game, len(parts))
            except SpecError as error:
                raise ValueError(f"--seats: {error}") from None
            seats.append(Seat(part, part))
    return seats


def _is_person(part: str) -> bool:
    return part == "you" or part.startswith("you:")


class TerminalTable:
    """One game at the terminal: the state, who sits where, and the record that undo and save are built on."""

    def __init__(
        self, state: State, seats: list[Seat], seed: int | None, save_path: Path, pause: float, view: View
    ) -> None:
        self.state = state
        self.seats = seats
        self.names = display_names(seats)
        #: `--seed`, or None: then chance and the bots' seeds come from the operating system and are never shown.
        self.seed = seed
        self.system_random = random.SystemRandom()
        self.save_path = save_path
        self.pause = pause
        self.view = view
        self.bots: dict[int, Bot] = {
            seat: make_bot(s.kind, seed=self.bot_seed(seat)) for seat, s in enumerate(seats) if s.kind != PERSON
        }
        #: Who took each action of the history and whether it revealed anything (`skald.engine.undo`).
        self.steps = steps_of(state)
        #: The positions in the history (indices) of the people's steps the table took alone (their only choice).
        self.taken_alone: set[int] = set()
        #: A bot's move not printed yet, and who made it: the same move again (a card window's passes) is told on
        #: the same line rather than on dozens.
        self.told: tuple[Text, list[str]] | None = None
        self.scorings_shown = len(state.scorings())
        self.show_board = True
        #: How many actions the state had when the table was last drawn: any change draws it again.
        self.drawn_at = -1
        self.people = [seat for seat, s in enumerate(seats) if s.kind == PERSON]
        #: Several people at one keyboard in a game with hidden information: each turn is preceded by a pass screen.
        self.passing = state.game.information != PERFECT and len(self.people) > 1
        #: The person who last had the keyboard (and whose hand the screen may still show), once passing.
        self.at_keyboard: int | None = None
        #: What each person has not seen yet, as that person may see it (shown after the pass screen).
        self.unseen: dict[int, list[str]] = {seat: [] for seat in self.people}
        #: The standing answer each person keeps (`keep`: `Presentation.standing_answer`), given for him until his
        #: next decision of another kind.
        self.standing: dict[int, StandingAnswer] = {}
        #: Whether the choices are listed compactly at this decision (a terminal too short for them and the board).
        self.compact = False

    def bot_seed(self, seat: int) -> int:
        """The seed of the bot in `seat`: `--seed` plus the seat, or 64 unpredictable bits."""
        return secrets.randbits(64) if self.seed is None else self.seed + seat

    def chance_rng(self) -> random.Random:
        """Where the next chance outcome is drawn from: the operating system's randomness, or with `--seed` a
        generator seeded by the seed and the position (so a resumed game with the same seed draws the same)."""
        if self.seed is None:
            return self.system_random
        return random.Random(f"{self.seed}:{len(self.state.history)}")

    def viewer(self) -> int | None:
        """Whose eyes the screen is for now: the one person at the table, else the person to act, else a spectator."""
        if len(self.people) == 1:
            return self.people[0]
        player = self.state.current_player()
        return player if player in self.people else None

    # -- the loop -----------------------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the game ends, then show the standings and save the record."""
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == CHANCE:
                self.apply(sample_chance(self.state, self.chance_rng()), CHANCE)
            elif player in self.bots:
                self.bot_moves(player)
            elif (kept := kept_answer(self.state, self.standing)) is not None:
                self.take_alone(player, kept, "kept")
            elif self.only_choice() is not None:
                self.take_alone(player)
            else:
                self.flush_told()
                self.person_moves(player)
        self.flush_told()
        self.finish()

    def apply(self, action: int, actor: int) -> None:
        """Apply a legal action, say what happened by itself, and show any scoring it completed."""
        viewer = self.viewer()
        if actor == CHANCE:
            self.tell_outcome(action, viewer)
        if self.passing:
            who = "chance" if actor == CHANCE else self.names[actor]
            for seat in self.people:
                if seat != actor:
                    notation = self.state.notation_for(action, seat)
                    words = self.view.outcome(self.state, action, seat) if actor == CHANCE else ""
                    self.unseen[seat].append(f"{who}: {with_outcome(notation, words)}")
        before = self.state.clone() if actor != CHANCE else None
        step = step_of(self.state, action)
        self.state.apply(action)
        self.steps.append(step)
        if before is not None:
            for line in self.view.aftermath(before, self.state, self.names[actor], viewer):
                self.flush_told()
                console.print(Text.from_markup(line, style="italic"))
        self.show_scorings()
        if actor == CHANCE and self.state.current_player() >= 0 and not self.people:
            self.flush_told()
            console.print(self.view.board(self.state, self.names, None))

    def tell_outcome(self, action: int, viewer: int | None) -> None:
        """Say what the chance outcome `action`, about to be applied, decides, where the game has words for it that
        `viewer` may read ("roll 7  danger roll 7 against a count of 6: …"); an outcome without words goes untold."""
        words = self.view.outcome(self.state, action, viewer)
        if not words:
            return
        self.flush_told()
        notation = self.state.notation_for(action, viewer)
        console.print(self._said("chance", label(self.view, self.state, notation, action, words)))

    def show_scorings(self) -> None:
        """Print every scoring completed since the last one shown (a large scoring grows seat by seat)."""
        reports = self.state.scorings()
        complete = len(reports) if self.state.current_player() < 0 else len(reports) - 1
        complete = max(complete, self.scorings_shown)
        for report in reports[self.scorings_shown : complete]:
            self.flush_told()
            console.print(self.view.scoring(self.state, report, self.names))
        self.scorings_shown = complete

    def bot_moves(self, seat: int) -> None:
        """The bot in `seat` chooses, shown with a short pause so people can follow."""
        bot = self.bots[seat]
        with console.status(f"{escape(self.names[seat])} is thinking…"):
            action = bot.step(self.state)
        viewer = self.viewer()
        hidden = self.state.action_hidden_from(action, viewer)
        notation = self.state.notation_for(action, viewer)
        self.tell(self.names[seat], self._label(notation, action, described=not hidden))
        self.apply(action, seat)
        if self.pause:
            time.sleep(self.pause)

    def tell(self, name: str, label: Text) -> None:
        """Tell a bot's move, on the line of the move before it if that was the same and nothing came between."""
        if self.told is not None and self.told[0].plain == label.plain:
            self.told[1].append(name)
            return
        self.flush_told()
        self.told = (label, [name])

    def flush_told(self) -> None:
        """Print the bots' move held back: "greedy: pass (×3)", or "greedy (seat 2), random: pass"."""
        if self.told is None:
            return
        label, names = self.told
        self.told = None
        counts = {name: names.count(name) for name in names}
        if len(counts) == 1:
            line = self._said(names[0], label)
            if len(names) > 1:
                line.append(f" (×{len(names)})", style="dim")
        else:
            who = ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())
            line = self._said(who, label)
        console.print(line)

    def only_choice(self) -> int | None:
        """The one legal action of the person to act, if the table may take it unasked: there is no other, and
        taking it alone tells nobody at the keyboard anything (one person at the table, or everyone can tell the
        move is forced: `State.forced_is_public`)."""
        only = only_answer(self.state)
        if only is None or (len(self.people) > 1 and not self.state.forced_is_public()):
            return None
        return only

    def take_alone(self, seat: int, action: int | None = None, why: str = "the only choice") -> None:
        """Take the person's only choice (or the answer he keeps) for him, and say so with the bots' moves like it
        (undo takes it back with his last step)."""
        action = self.only_choice() if action is None else action
        assert action is not None
        self.tell(f"{self.names[seat]} ({why})", self._label(self.state.notation_for(action, seat), action))
        self.taken_alone.add(len(self.state.history))
        self.apply(action, seat)

    def person_moves(self, seat: int) -> None:
        """Show the step and its choices, then read entries until one is a legal action (or the state changes)."""
        state = self.state
        if self.passing and self.at_keyboard != seat:
            self.pass_keyboard(seat)
        keys = self.view.keys(state)
        offer = state.game.presentation.standing_answer(state)
        prompt = self.draw(seat, keys, offer)
        keymap = dict(keys)
        while True:
            text = self.read(prompt)
            if not text:
                continue
            word, _, rest = text.partition(" ")
            command = word.lower()
            if command == "help":
                self.show_help()
            elif command == "?":
                self.explain(rest.strip(), keys)
            elif command == "rules":
                self.show_rules(state, rest.strip().lower() == "all")
            elif command == "board":
                console.print(self.view.board(state, self.names, seat))
                self.show_choices(keys)
            elif command == "save":
                self.save(Path(rest.strip()) if rest.strip() else self.save_path, check=True)
            elif command in ("quit", "exit"):
                raise Leave
            elif command == "undo":
                if self.undo(seat):
                    return
            elif command == "keep":
                if offer is None:
                    console.print("[red]Nothing to keep:[/] the game offers no standing answer at this step.")
                    continue
                self.standing[seat] = offer
                self.apply(offer.action, seat)
                return
            else:
                action = self.understand(text, keymap)
                if action is not None:
                    self.apply(action, seat)
                    return

    def draw(self, seat: int, keys: list[tuple[str, int]], offer: StandingAnswer | None) -> str:
        """Show the table (when it changed), the step's choices and any standing answer offered; returns the prompt.
        Where it would not all fit the terminal's height, the choices are listed compactly, so that the board stays
        in view."""
        state = self.state
        # The whole table is shown again whenever the state changed since it was last drawn (the same seat may
        # decide several times in a row, each decision changing the table).
        head: list[RenderableType] = []
        if self.show_board or self.drawn_at != len(state.history):
            head = [Rule(Text(f"{self.names[seat]}: {self.view.step(state)}")), *self.unseen_lines(seat)]
            head.append(self.view.board(state, self.names, seat))
            self.show_board = False
            self.drawn_at = len(state.history)
        tail: list[RenderableType] = []
        if offer is not None:
            wording = offer.label[:1].lower() + offer.label[1:]
            tail.append(Text.from_markup(f"[dim]Type [b]keep[/b] to {escape(wording)}.[/]"))
        prompt = f"{escape(self.names[seat])} ({escape(self.view.step(state))})> "
        whole = [*head, *self.choices(keys, compact=False), *tail]
        self.compact = console.is_terminal and _screen_rows(whole, prompt) > console.size.height
        for part in [*head, *self.choices(keys), *tail]:
            console.print(part)
        return prompt

    def understand(self, text: str, keymap: dict[str, int]) -> int | None:
        """The legal action an entry names (a key or notation); otherwise say why not and return None."""
        state = self.state
        action = keymap.get(text.strip())
        if action is None:
            try:
                action = state.action_from_notation(text)
            except ValueError as error:
                if text.strip().isdigit():
                    console.print(f"[red]No choice {escape(text.strip())}:[/] type one of the keys listed.")
                else:
                    console.print(f"[red]Not understood:[/] {escape(str(error))} (type [b]help[/] for help)")
                return None
            if text.strip().isdigit() and text.strip() not in state.action_to_notation(action).split():
                # A bare number the game reads as something else entirely (Vikings reads "99" as id 99).
                console.print(f"[red]No choice {escape(text.strip())}:[/] type one of the keys listed.")
                return None
        reason = state.illegal_reason(action)
        if reason is not None:
            notation = state.action_to_notation(action)
            console.print(
                f"[red]Not allowed:[/] {escape(notation)}: {escape(reason.reason)} [dim](rule {escape(reason.rule)})[/]"
            )
            return None
        return action

    def read(self, prompt: str) -> str:
        """One line from the person, typed after the prompt appeared: a line typed ahead (while bots moved) is set
        aside, and the person told. Ctrl-D at a terminal means leaving, any other end of input is an error."""
        if set_aside():
            console.print(Text("(what you typed before this prompt was set aside)", style="dim"))
        try:
            return console.input(prompt).strip()
        except EOFError:
            console.print()
            raise (Leave if sys.stdin.isatty() else InputEnded) from None

    # -- what a person sees -------------------------------------------------------------------------------

    def pass_keyboard(self, seat: int) -> None:
        """Clear the screen (and the scrollback) of the last person's hand, and wait for the next person."""
        clear_screen()
        name = escape(self.names[seat])
        console.print(Rule(Text(f"{self.names[seat]}'s turn")))
        self.read(f"Pass the keyboard to {name}; {name}, press Enter when nobody else can see the screen… ")
        self.at_keyboard = seat
        self.show_board = True

    def unseen_lines(self, seat: int) -> list[Text]:
        """What happened since `seat` last had the keyboard, as that seat may see it (hot seat, hidden hands)."""
        lines, self.unseen[seat] = self.unseen.get(seat, []), []
        return [Text("Since your last turn:", style="bold"), *(Text(f"  {line}") for line in lines)] if lines else []

    def choices(self, keys: list[tuple[str, int]], compact: bool | None = None) -> list[RenderableType]:
        """The notes for this step, the close-up with keys marked, and the legal choices with their keys: listed
        compactly where the terminal is too short for them (`self.compact`, unless `compact` says otherwise)."""
        state = self.state
        shown: list[RenderableType] = [
            Text.from_markup(note) if isinstance(note, str) else note for note in self.view.notes(state)
        ]
        focus = self.view.focus(state, keys)
        if focus is not None:
            shown.append(focus)
        compact = self.compact if compact is None else compact
        return [*shown, *listing(self.view, state, keys, console.size.width, compact)]

    def show_choices(self, keys: list[tuple[str, int]], compact: bool | None = None) -> None:
        """Print the step's notes, close-up and choices (`choices`)."""
        for part in self.choices(keys, compact):
            console.print(part)

    def explain(self, text: str, keys: list[tuple[str, int]]) -> None:
        """`?`: every choice with the game's words on it; `? KEY`: that one."""
        if not text:
            self.show_choices(keys, compact=False)
            return
        action = dict(keys).get(text)
        if action is None:
            console.print(f"[red]No choice {escape(text)}:[/] type ? and one of the keys listed.")
            return
        console.print(one(self.view, self.state, text, action))

    @staticmethod
    def _said(who: str, label: Text) -> Text:
        """`who: label`: a move told as it is made."""
        line = Text(f"{who}: ", style="bold")
        line.append_text(label)
        return line

    def _label(self, notation: str, action: int, described: bool = True) -> Text:
        """The action's notation and, unless hidden from the viewer, the game's words on what it does."""
        return label(self.view, self.state, notation, action, None if described else "")

    def show_rules(self, state: State, whole: bool) -> None:
        """The rulebook on this step or, `whole`, the game in brief (where the game gives one)."""
        overview = self.view.overview(state)
        if whole and overview:
            console.print(overview)
            return
        console.print(self.view.rules(state))
        if overview:
            console.print("[dim]Type [b]rules all[/b] for the whole game: goal, end, phases, scoring, words.[/]")

    def show_help(self) -> None:
        """The commands, and how to type this step's choice."""
        console.print(self.view.step_help(self.state))
        for name, what in COMMANDS:
            console.print(f"  [b]{escape(name):<12}[/] {what}")

    # -- undo, save, the end --------------------------------------------------------------------------------

    def undo(self, seat: int) -> bool:
        """Take back the last decision a person took, with the steps the table took alone for him since (his only
        choices, or undo would find them taken again at once), under the engine's rule (`skald.engine.undo`): his
        own steps only, until another seat acts or something hidden or random is revealed. In a perfect-information
        game at one keyboard, the person at it may hand back the last person's step before acting."""
        steps = self.steps
        last = next((step.actor for step in reversed(steps) if step.actor != CHANCE), None)
        owner = seat if self.passing or last not in self.people or last is None else last
        rule = take_back(steps, owner, self.taken_alone)
        if rule.plies == 0:
            if rule.at is None:
                console.print("[red]Nothing to undo:[/] no step has been taken yet.")
                return False
            # The refusal names the action in the way: the game's own notation, as this person may see it.
            blocking = _notation_at(self.state, rule.at, seat)
            console.print(f"[red]Cannot undo:[/] {escape(rule.refusal(self.names, blocking))}.")
            return False
        at = len(steps) - rule.plies
        alone = rule.plies - 1
        last = steps[at].actor
        state = self.state
        record = Record.of(state, self.seats)
        record.actions = record.actions[:at]
        self.state = record.replay()
        taken = self.state.notation_for(state.history[at], seat)  # as the one undoing it may see it
        del self.steps[at:]
        self.taken_alone = {index for index in self.taken_alone if index < at}
        for other in self.people:
            for _ in range(alone + 1):
                if other != seat and self.unseen[other]:
                    self.unseen[other].pop()  # nobody has had the keyboard since: the undone steps' lines are last
        self.scorings_shown = min(self.scorings_shown, len(self.state.scorings()))
        self.standing.pop(last, None)  # the step that kept it may be the one undone: ask again
        whose = "your" if last == seat else f"{self.names[last]}'s"
        console.print(f"Undone: {escape(whose)} step [cyan]{escape(taken)}[/].")
        self.show_board = True
        return True

    def save(self, path: Path, check: bool = False) -> bool:
        """Write the game record to `path`; say where, or why it could not be written. With `check` (a path the
        person typed), a directory or a file that is not a Skald record is refused rather than replaced."""
        refusal = _refusal(path) if check else None
        if refusal is not None:
            console.print(f"[red]Cannot save to {escape(str(path))}:[/] {escape(refusal)}")
            return False
        try:
            Record.of(self.state, self.seats).save(path)
        except OSError as error:
            console.print(f"[red]Cannot save to {escape(str(path))}:[/] {escape(error.strerror or str(error))}")
            return False
        console.print(
            f"Saved to {escape(str(path.resolve()))} · resume with: skald play --resume {escape(str(path))}",
            soft_wrap=True,
        )
        return True

    def finish(self) -> None:
        """Final standings with the breakdown and the tie-break, and the record saved for replay."""
        self.show_scorings()
        console.print(Rule("Game over"))
        viewer = self.people[0] if len(self.people) == 1 else None
        console.print(self.view.board(self.state, self.names, viewer))
        hidden = revealed(self.state, self.names, viewer)
        if hidden:
            console.print(Text("Revealed now that the game is over:", style="bold"))
            for line in hidden:
                console.print(Text(f"  {line}"))
        console.print(self.view.standings(self.state, self.names))
        console.print(Text(self.view.verdict(self.state, self.names)))
        self.save(self.save_path)


def _screen_rows(parts: list[RenderableType], prompt: str) -> int:
    """How many rows of the terminal `parts` and then the prompt's line take."""
    options = console.options
    rows = sum(len(console.render_lines(part, options, pad=False)) for part in parts)
    return rows + len(console.render_lines(Text.from_markup(prompt), options, pad=False))


def clear_screen() -> None:
    """Wipe the terminal and its scrollback, so what the last person saw cannot be scrolled back to."""
    if console.is_terminal:
        console.file.write("\x1b[H\x1b[2J\x1b[3J")
        console.file.flush()


def revealed(state: State, names: list[str], viewer: int | None) -> list[str]:
    """Every action of `state`'s history that was hidden from `viewer`, as everyone may now see it."""
    if state.game.information == PERFECT:
        return []
    replay = _fresh(state)
    lines = []
    for action in state.history:
        player = replay.current_player()
        if replay.action_hidden_from(action, viewer):
            who = "chance" if player == CHANCE else names[player]
            lines.append(f"{who}: {replay.action_to_notation(action)}")
        replay.apply(action)
    return lines


def _notation_at(state: State, ply: int, viewer: int) -> str:
    """The notation of the action at `ply` of `state`'s history as `viewer` saw it, taken in its own position."""
    replay = _fresh(state)
    for action in state.history[:ply]:
        replay.apply(action)
    return replay.notation_for(state.history[ply], viewer)


def _fresh(state: State) -> State:
    """The position before `state`'s first action: its start position, or the same game, players and rule options."""
    return state.first_state()


def _resume(resume: Path, game: str | None, seats: str | None, option: list[str] | None) -> tuple[State, list[Seat]]:
    """The saved game in `resume`, re-seated by `--seats` if given; its record keeps the game and rule options."""
    record = load_record(resume)
    if game is not None and game != record.game:
        fail(f"--resume {resume}: a game of {record.game}, not {game} (leave out the game's name to resume it)")
    if option:
        fail(f"--option: a resumed game keeps the rule options in its record ({resume})")
    state = record.replay()
    if seats is None:
        for index, seat in enumerate(record.seats):
            if seat.kind != PERSON:
                try:
                    make_bot(seat.kind)
                except SpecError as error:
                    fail(f"{resume}: seats[{index}].kind: {error}")
        return state, record.seats
    seated = _seats(seats, find_game(record.game))
    if len(seated) != state.num_players:
        fail(f"--seats: the saved game has {state.num_players} seats, not {len(seated)}")
    return state, seated


def _seats(text: str, game: Game) -> list[Seat]:
    try:
        return parse_seats(text, game)
    except ValueError as error:
        fail(str(error))


def _refusal(path: Path) -> str | None:
    """Why the game may not be saved to `path`, or None: a directory, a missing directory, or a file of the
    person's own that is not a Skald game record (a record is the save file, so it may be replaced)."""
    if path.is_dir():
        return "it is a directory"
    if not path.parent.is_dir():
        return f"there is no directory {path.parent}"
    if path.exists():
        try:
            data = read_json_file(path)
        except RecordError:
            data = None
        if not (isinstance(data, dict) and data.get("format") == FORMAT):
            return "it exists and is not a Skald game record, so it is left as it is"
    return None


def _unused_path(game: str) -> Path:
    """`skald-GAME.json` in this directory, or `skald-GAME-2.json`, … : a new game never replaces a saved one."""
    path, number = Path(f"skald-{game}.json"), 1
    while path.exists():
        number += 1
        path = Path(f"skald-{game}-{number}.json")
    return path


def _people_can_type(seated: list[Seat]) -> None:
    """A person's moves are typed on stdin: refuse to start a game with people if it is closed."""
    if any(seat.kind == PERSON for seat in seated) and (sys.stdin is None or sys.stdin.closed):
        fail("stdin: closed, so nobody can type a person's moves; run at a terminal, or seat only bots with --seats")


def register(app: typer.Typer) -> None:
    """Add `play` to the `skald` command."""

    @app.command()
    def play(
        game: str | None = typer.Argument(None, help="Which game to play (the resumed game's by default)."),
        seats: str | None = typer.Option(
            None,
            "--seats",
            help=f"Who sits where, comma-separated: you, you:NAME (people) or a bot spec \\[default: {DEFAULT_SEATS}].",
        ),
        resume: Path | None = typer.Option(None, "--resume", help="Go on with a saved game record."),
        seed: int | None = typer.Option(
            None,
            "--seed",
            help="Seed for chance and bots: anyone who knows it can reproduce every draw, hidden cards included "
            "\\[default: unpredictable, never shown].",
        ),
        save_file: Path | None = typer.Option(
            None,
            "--save-file",
            help="Where save, quit and Ctrl-C write \\[default: the resumed file, or skald-GAME.json].",
        ),
        pause: float = typer.Option(0.4, "--pause", min=0, help="Seconds to pause after each bot move."),
        option: list[str] | None = typer.Option(
            None, "--option", "-o", help="A rule option NAME=VALUE (repeatable), e.g. variant=advanced."
        ),
        start: Path | None = typer.Option(None, "--from", help=FROM_HELP),
    ) -> None:
        """Play at the terminal: people and bots at one table (several `you` seats make a hot-seat game)."""
        if not math.isfinite(pause):
            fail(f"--pause: expected a number of seconds, not {pause}")
        if resume is not None:
            if start is not None:
                fail(f"--from: a resumed game goes on from its record ({resume}), not from a position")
            state, seated = _resume(resume, game, seats, option)
        elif start is not None:
            if game is None:
                fail(f"GAME: name the game of the position in {start}")
            chosen = find_game(game)
            _, state = load_position(chosen, start, parse_options(option))
            # Without --seats: you in seat 1, the default bot in every other seat of the position.
            bot = DEFAULT_SEATS.split(",")[-1]
            seated = _seats(seats or ",".join(["you", *[bot] * (state.num_players - 1)]), chosen)
            if len(seated) != state.num_players:
                fail(f"--seats: {len(seated)} seats, but the position in {start} has {state.num_players}")
        else:
            if game is None:
                fail(f"GAME: name the game to play ({', '.join(game_names())}), or --resume a saved game")
            chosen = find_game(game)
            seated = _seats(seats or DEFAULT_SEATS, chosen)
            state = chosen.new_initial_state(len(seated), check_options(chosen, parse_options(option)))
        path = save_file or resume or _unused_path(state.game.name)
        refusal = _refusal(path)
        if refusal is not None:
            fail(f"--save-file {path}: cannot save the game there: {refusal}")
        _people_can_type(seated)
        table = TerminalTable(state, seated, seed, path, pause, View())
        kinds = ["person" if s.kind == PERSON else "bot" for s in seated]
        who = ", ".join(f"{name} ({kind})" for name, kind in zip(table.names, kinds, strict=True))
        seeded = "" if seed is None else f" · seed {seed}"
        console.print(f"[b]{state.game.title}[/] · {escape(who)}{seeded} · type [b]help[/] at any prompt")
        try:
            table.run()
        except (KeyboardInterrupt, Leave) as stop:
            table.flush_told()
            console.print()
            saved = table.save(path)
            if isinstance(stop, KeyboardInterrupt):
                raise typer.Exit(130 if saved else 1) from None
            raise typer.Exit(0 if saved else 1) from None
        except InputEnded:
            where = f"resume with: skald play --resume {path}" if table.save(path) else "and it could not be saved"
            fail(f"stdin: the input ended before the game did ({where})", 1)
        except Exception as error:  # a table never ends in a traceback: save, then one clear line
            table.save(path)
            fail(f"{type(error).__name__}: {error}")
