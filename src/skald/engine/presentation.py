"""How a game presents its positions to people: the words, labels, groups and close-ups every front end shows.

A front end knows no game by name. It asks `game.presentation` what to say at a step, how to label an action, how
to group the choices and what to show beside the board; the defaults here use the contract alone, so a new game
plays everywhere before it says anything richer. Text is plain, or Rich console markup where a method says so (the
terminal renders it, the web strips it). A method that shows a position is told who is looking (`seat`, None for a
spectator) and must show that viewer only what `State` lets it see.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

#: A position of the game: a `skald.engine.State`. A state names its game, and the game its presentation, so this
#: module lies below the state's and cannot name its class; a game's presentation takes its own states as they come.
Position: TypeAlias = Any


#: Sorted keys, no spaces, non-ASCII escaped: one text for one JSON form, whatever order its keys were built in.
_TARGET_KEY: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def target_key(data: Any) -> str:
    """The canonical text of an action's JSON form: what a drawn board's click target carries as `data-action` and
    what a front end compares with the legal actions' forms, so that the two match exactly when the actions do."""
    return _TARGET_KEY.encode(data)


@dataclass(frozen=True)
class StandingAnswer:
    """An answer a person may give once for a run of decisions like the one before him, until his next other
    decision: Vikingatid's "pass in every card window" spares a card holder hundreds of pass clicks a game.

    A front end that keeps it answers with `action` whenever the game offers the same `name` at his decision, and
    forgets it at the first decision where the game offers none. Since he answers whatever he holds, how fast he
    answers tells the others nothing about his hidden cards.
    """

    #: What the front end keeps and asks for again at each decision ("card_windows").
    name: str
    #: The offer in words ("Pass in every card window until my next decision").
    label: str
    #: The action it answers this decision with.
    action: int


@dataclass(frozen=True)
class CardFace:
    """A card as a person reads it, whole: what a front end shows wherever the card is named (a hand, a choice,
    the deck's list), never cut."""

    #: The title as printed ("BRA HANDEL").
    title: str
    #: Its name in English ("Good trade"), or "" if the printed title is the only one.
    name: str
    #: The card's whole text.
    text: str
    #: When it may be played, in words ("during your own trading journey").
    when: str
    #: What playing it needs: what it is played on, what must be so ("names an area").
    needs: str
    #: Copies: held in a hand, or in the whole deck.
    count: int = 1
    #: In a hand: whether the seat may play it at the decision it is at now.
    playable_now: bool = False


#: The JSON form of a pass, in every game that has one.
PASS: dict[str, Any] = {"type": "pass"}


def kept_answer(state: Position, kept: dict[int, StandingAnswer]) -> int | None:
    """The action the seat to act in `state` gives by the standing answer it keeps (in `kept`, by seat), or None.
    A decision where the game offers that seat no answer of the name it keeps ends it: it is removed from `kept`."""
    player = state.current_player()
    answer = kept.get(player)
    if answer is None:
        return None
    offer: StandingAnswer | None = state.game.presentation.standing_answer(state)
    if offer is None or offer.name != answer.name:
        del kept[player]
        return None
    return offer.action


def only_answer(state: Position, legal: Sequence[int] | None = None) -> int | None:
    """The one legal action of the seat to act, or None where it has a real choice (or chance acts, or the game is
    over); `legal` is `state.legal_actions()` if the caller has it already. A person is never asked a question with
    one answer: front ends give it for him, at once where the table may know it has one answer
    (`State.forced_is_public`), else at the pace of a real answer."""
    if state.current_player() < 0:
        return None
    if legal is None:
        legal = state.legal_actions()
    return legal[0] if len(legal) == 1 else None


class Presentation:
    """The generic presentation of any game; a game overrides what it can say better."""

    def prompt(self, state: Position) -> str:
        """What the seat to act does now, in a few words ("buy a Group from the wheel")."""
        return "choose a move"

    def step(self, state: Position) -> str:
        """The step the seat to act is at, in words everyone at the table may read (the web says "Astrid to move —
        buy a Group" to the others). By default the seat's own prompt: a game whose prompt names something only that
        seat may see (a card in hand) says less here. `skald check` compares it in two worlds for every viewer."""
        return self.prompt(state)

    def seat_summary(self, state: Position, seat: int, viewer: int | None) -> str:
        """`seat`'s standing in a few words ("10 Fame · 29 Gold"), for the panel beside its name that a front end
        keeps in sight of `viewer` (None: a spectator); only what that viewer may see. The drawn board's part for
        the seat, if any, is its element with `data-seat`. By default the seat's score."""
        score = state.scores()[seat]
        return f"{state.game.score_name} {score:g}"

    def last_move(self, state: Position, mover: int, action: int, seat: int | None) -> list[str]:
        """What the last move by a seat (`action`, made by `mover`, the last seat's action in `state`'s history)
        changed on the drawn board, as the `data-at` names of elements of `render_svg(state, seat)`, for `seat`
        (None: a spectator) to see highlighted; only what that viewer may see. None by default."""
        return []

    def outcome(self, state: Position, action: int) -> str:
        """What the chance outcome `action` at `state` decides, in words for everyone who may see the outcome
        ("danger roll 7 against a count of 6: the fleet sails on"); empty when its notation says it all (a tile
        drawn). Never more than the outcome and the table show: a front end gives it beside the notation to every
        viewer from whom the outcome is not hidden."""
        return ""

    def section(self, state: Position) -> tuple[str, str]:
        """The turn (or round) and the phase within it that the next action at `state` belongs to, in words
        everyone may read ("Turn 3 · 850", "6. Initiative and journeys"), under which a log groups its entries;
        ("", "") for a game that has none."""
        return ("", "")

    def ending(self, state: Position) -> str:
        """Why the game at terminal `state` ended, in a sentence for everyone ("every player became Christian");
        empty where the end says itself."""
        return ""

    def click_hint(self, state: Position) -> str | None:
        """How to make this step's choice on the drawn board (`data-action` targets in the SVG), or None."""
        return None

    def describe(self, state: Position, action: int) -> str:
        """A few words saying what a legal `action` of the seat to act does (empty when its notation says it all)."""
        return ""

    def brief(self, state: Position, action: int) -> str:
        """The words a terminal short of rows keeps beside `action`'s notation (`describe` in full elsewhere): all of
        `describe` by default; "" where the notation and the group's heading say enough, and the terminal then lays
        such choices side by side."""
        return self.describe(state, action)

    def groups(self, state: Position, actions: list[int]) -> list[tuple[str, list[int]]]:
        """The seat to act's `actions` under headings, in the order to show them; one untitled group by default."""
        return [("", list(actions))]

    def keys(self, state: Position, actions: list[int]) -> list[tuple[str, int]]:
        """The short keys a person types at the terminal for `actions`: 1, 2, 3… by default."""
        return [(str(index), action) for index, action in enumerate(actions, start=1)]

    def notes(self, state: Position) -> list[str]:
        """Lines of Rich markup for the seat to act on what matters at this step (prices, forced rules)."""
        return []

    def board(self, state: Position, seat: int | None, names: list[str]) -> Any:
        """The whole table for the terminal as `seat` sees it: Rich markup text or a Rich renderable."""
        return state.render_text(color=True, seat=seat)

    def focus(self, state: Position, keys: list[tuple[str, int]]) -> Any:
        """A close-up of what this step changes, for the seat to act, with the choices' keys marked on it: Rich
        markup text or a Rich renderable, or None."""
        return None

    def aftermath(self, before: Position, after: Position, name: str, seat: int | None) -> list[str]:
        """What an action brought about without a choice (the game's automatic steps), as lines of Rich markup for
        `seat` to read (None: everyone at the table)."""
        return []

    def rules(self, state: Position) -> str:
        """The rulebook's words on the current step, paraphrased, in Rich markup."""
        return f"No rules summary for {state.game.title} here yet; the choices listed are exactly the legal ones."

    def overview(self, state: Position) -> str:
        """The game as a whole for someone who has not read its rulebook (the goal, how it ends, the flow of a
        turn, the scoring, the words its prompts use), in Rich markup: sections parted by a blank line, each headed
        by its first line, lines starting with "•" a list. Empty by default: the game has said nothing yet."""
        return ""

    def hand(self, state: Position, seat: int) -> list[CardFace]:
        """The cards `seat` holds, as that seat alone may see them (its own observation), in the order to show
        them; [] for a game without cards in hand."""
        return []

    def deck(self, state: Position) -> list[CardFace]:
        """Every kind of card the game uses under `state`'s options, each with its copies in the deck; [] for a
        game without cards."""
        return []

    def step_help(self, state: Position) -> str:
        """How to make this step's choice at the terminal, in Rich markup."""
        return "Type a choice's key or its notation as listed."

    def scoring_amounts(self) -> list[tuple[str, str]]:
        """The keys of a scoring line (`State.scorings()`) that are amounts won or lost, each with its heading, in
        the order to show them as columns."""
        return [("points", "Points")]

    def standings(self, state: Position) -> list[dict[str, Any]]:
        """At the end, per seat, the columns to list beside its name (`{"score": …}` by default, headed by
        `Game.score_name`); an `"order"` entry, if given, is a list of values ranking seats best-first after the
        winners, and is not shown."""
        return [{"score": score} for score in state.scores()]

    def standing_answer(self, state: Position) -> StandingAnswer | None:
        """The answer the seat to act may give in advance for this decision and the like of it until his next
        other one (see `StandingAnswer`), or None: by default a game offers none."""
        return None

    def pass_action(self, state: Position) -> int | None:
        """The legal action by which the seat to act passes its turn here, where the rules allow one, or None. The web
        table passes an absent player's turns with it (its `pass` rule for a seat whose clock ran out). By default the
        legal action whose JSON form is `{"type": "pass"}`, as the games name their passes."""
        if state.current_player() < 0:
            return None
        return next((action for action in state.legal_actions() if state.action_to_json(action) == PASS), None)

    def tie_break(self, state: Position) -> str:
        """The rule that separates players level on score, in a sentence (empty if the game has none)."""
        return ""
