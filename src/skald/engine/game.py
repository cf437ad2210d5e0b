"""The game half of the contract: what a game is called, who may play it, its rule options and action space."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from skald.engine.messages import shown, shown_key
from skald.engine.presentation import Presentation
from skald.engine.state import IMPERFECT, PERFECT, Information, State

if TYPE_CHECKING:
    import typer

__all__ = ["IMPERFECT", "PERFECT", "Game", "OptionError", "PositionError", "RuleOption", "WithdrawnOption"]


@dataclass(frozen=True)
class RuleOption:
    """A point the rule texts leave open, as a named choice with a documented default.

    `name`, `default` and `choices` are what records store, so they never change once published; the rest is how
    front ends present the option to a person: `title` (the option in a few words), `labels` (each choice in words,
    in the order of `choices`; empty: the choices as `choice_label` words them), `summary` (one line; empty: the
    first sentence of `doc`) and `primary` (the option changes the game so much that a lobby shows it first, in view).
    """

    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str
    title: str = ""
    labels: tuple[str, ...] = ()
    summary: str = ""
    primary: bool = False

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"rule option {self.name}: default {self.default!r} is not one of {list(self.choices)}")
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(
                f"rule option {self.name}: {len(self.labels)} labels for {len(self.choices)} choices (one each)"
            )

    def heading(self) -> str:
        """The option in a few words: `title`, else its name with spaces for underscores ("Ship row")."""
        return self.title or words(self.name)

    def choice_label(self, choice: Any) -> str:
        """`choice` in words: its label, else a yes/no for a flag, else the value with spaces for underscores."""
        if self.labels and choice in self.choices:
            return self.labels[self.choices.index(choice)]
        if isinstance(choice, bool):
            return "Yes" if choice else "No"
        return words(str(choice))

    def one_line(self) -> str:
        """What the option decides, in one line: `summary`, else the first sentence of `doc`."""
        if self.summary:
            return self.summary
        first = self.doc.split(". ", 1)[0].strip()
        return first if first.endswith(".") else f"{first}."


@dataclass(frozen=True)
class WithdrawnOption:
    """A rule option a game no longer offers. A record that names it still loads when it holds the reading the game
    kept (`kept`, which it now plays always); any other value is refused with `reason`, which says why the reading
    was withdrawn and what to use instead."""

    name: str
    kept: Any
    reason: str


def words(identifier: str) -> str:
    """An identifier as words for a person: underscores as spaces, the first letter a capital."""
    text = identifier.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


class OptionError(ValueError):
    """A rule option that does not exist or has a value outside its choices."""


class PositionError(ValueError):
    """A position's JSON that cannot be read, or a game without a position format; the message starts with the field
    at fault."""


class Game(ABC):
    """A registered game: its name, player counts, rule options and fixed action space."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[RuleOption, ...] = ()
    #: The rule options whose values change what is hidden, or who is asked what and when: `skald check
    #: --each-hidden-option` checks every value of each.
    hidden_options: tuple[str, ...] = ()
    #: Rule options once offered and since withdrawn (`WithdrawnOption`): records naming them keep loading.
    withdrawn_options: tuple[WithdrawnOption, ...] = ()
    #: What `State.scores()` counts, as front ends head it (Vikings: "Fame").
    score_name: str = "Score"
    #: `PERFECT` or `IMPERFECT`: whether every seat sees all that has happened. An imperfect-information game
    #: overrides the viewer methods of `State` (docs/engine.md, "Hidden information").
    information: Information = PERFECT
    #: Where front ends list the game, lowest first; the first listed is the one they offer by default (Skald's
    #: order of priority: Vikings 1, Vikingdoms 2).
    catalogue_rank: int = 100
    #: How front ends present the game's positions (prompts, labels, close-ups, rules); see `Presentation`.
    presentation: Presentation = Presentation()
    #: Whether the game encodes observations as tensors: it overrides `observation_tensor_shape` and
    #: `State.observation_tensor` (OpenSpiel's `provides_observation_tensor`). Learning adapters take only such games.
    provides_observation_tensor: bool = False
    #: Whether it encodes each seat's information state as a tensor: it overrides `information_state_tensor_shape`
    #: and `State.information_state_tensor` (OpenSpiel's `provides_information_state_tensor`).
    provides_information_state_tensor: bool = False
    #: Whether each action id has one notation in every position of a game (`State.action_to_notation` reads only
    #: the id and what the game fixed at its start): the web then builds each action's entry once a game. `skald
    #: check` checks it.
    fixed_notation: bool = False

    #: The document that describes the game's positions (`state_from_position`), or "" for a game without a
    #: position format.
    position_format: str = ""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the fixed action space: every action id lies in `range(num_distinct_actions)`."""

    @abstractmethod
    def new_initial_state(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        """The position before the first action, with `options` merged over the defaults."""

    def state_from_position(self, data: Any) -> State:
        """A state from a position's JSON (the form `State.to_position` writes, or a shorter one a person writes, as
        `position_format` documents); its history starts there, and `State.start_position` gives the position back.
        Raises `PositionError` naming the field at fault, or saying that the game has no position format."""
        raise PositionError(f"{self.title} has no position format: a game starts only from its setup")

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with `options`; raises `OptionError` naming an unknown option or bad value."""
        known = {o.name: o for o in self.options}
        resolved = {o.name: o.default for o in self.options}
        withdrawn = {o.name: o for o in self.withdrawn_options}
        for name, value in (options or {}).items():
            if name in withdrawn and name not in known:
                gone = withdrawn[name]
                if value == gone.kept:
                    continue
                raise OptionError(f"options.{shown_key(name)}: {shown(value)} is withdrawn: {gone.reason}")
            if name not in known:
                raise OptionError(
                    f"options.{shown_key(name)}: no such rule option in {self.name} (known: {sorted(known)})"
                )
            if value not in known[name].choices:
                raise OptionError(f"options.{name}: {shown(value)} is not one of {list(known[name].choices)}")
            resolved[name] = value
        return resolved

    def check_players(self, num_players: int) -> None:
        """Raise `ValueError` unless this game can be played by `num_players`."""
        if not self.min_players <= num_players <= self.max_players:
            counts = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players}–{self.max_players}"
            )
            raise ValueError(f"{self.title} is played by {counts} players, not {shown(num_players)}")

    def render_svg(self, state: State, seat: int | None = None, names: list[str] | None = None) -> str:
        """The table as an SVG document for the viewer in `seat` (None: a spectator), showing only what that
        viewer may see. By default the text table in monospace; a game with a drawn board overrides this."""
        from skald.engine.svgtext import text_to_svg

        return text_to_svg(state.render_text(seat=seat), self.title)

    def render_svg_parts(self, state: State, seat: int | None = None, names: list[str] | None = None) -> Sequence[str]:
        """`render_svg` cut into consecutive pieces of text whose concatenation is the whole document, so that a
        client that already holds the board is sent only the pieces that changed (the web table does). A piece is
        any run of text, not necessarily an element; a game whose board is large and changes a little at a time
        cuts it where it changes (Vikingatid: an area each). By default the document is one piece."""
        return (self.render_svg(state, seat, names),)

    def commands(self) -> typer.Typer | None:
        """The game's own `skald <name> …` sub-commands (Vikings: `score`), or None; the CLI adds them by name."""
        return None

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic worth of `state` for `seat` (higher is better), for greedy bots and cut-off rollouts."""
        return float(state.scores()[seat])

    def rollout_action(self, state: State, legal: list[int], rng: random.Random) -> int:
        """The action a search's rollout plays for the seat to act at `state`, one of its `legal` actions (at least
        one): by default one drawn uniformly. A game overrides it where uniform play is far from how anyone plays
        (Vikingatid: a card is rarely played when it could be), so that rollouts end in positions like those a
        game reaches. It may read only what the seat to act knows."""
        return rng.choice(legal)

    def observation_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        """The shape of `State.observation_tensor` for `num_players` (a game that `provides_observation_tensor`)."""
        raise NotImplementedError(
            f"{self.name} does not encode observations as tensors: it must override observation_tensor_shape "
            "(see docs/rl-observation.md)"
        )

    def max_game_length(self, num_players: int, options: Mapping[str, Any] | None = None) -> int | None:
        """An upper bound on the actions of one game, chance included, for `num_players` and rule `options`, proven
        from the rules (docs/learning.md, "How long a game lasts"); None for a game that declares none."""
        return None

    def observation_tensor_bounds(self, num_players: int) -> tuple[float, float] | None:
        """The least and greatest value any entry of `State.observation_tensor` can take, or None when unknown."""
        return None

    def information_state_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        """The shape of `State.information_state_tensor` (a game that `provides_information_state_tensor`)."""
        raise NotImplementedError(f"{self.name} does not encode information states as tensors")
