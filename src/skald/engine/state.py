"""The state half of the game contract: whose turn, what is legal, and how an action changes the table."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from skald.engine.presentation import Presentation

if TYPE_CHECKING:
    import random

    import numpy as np
    import numpy.typing as npt

#: `current_player()` at a node where chance acts (a tile drawn, a Viking pulled from the bag).
CHANCE: Final = -1
#: `current_player()` once the game is over.
TERMINAL: Final = -4

#: `Game.information` of a game where every seat sees everything that has happened (chance may still act).
PERFECT: Final = "perfect"
#: `Game.information` of a game where some seat may not see something that has happened (cards in a hand).
IMPERFECT: Final = "imperfect"
#: The kinds of information a game may declare. Front ends test `!= PERFECT`, so anything unexpected stays hidden.
Information = Literal["perfect", "imperfect"]

JSONDict = dict[str, Any]

try:  # mypyc reads the decorator when it compiles; at run time it changes nothing, so it may be missing
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - installs without mypy
    from skald.build import mypyc_attr


class GameLike(Protocol):
    """The game a state belongs to, as the state and whoever holds only a state reach it (`State.game`): every
    `skald.engine.Game` is one. The game module names the state's class, so the state names its game by this."""

    @property
    def name(self) -> str:
        """The registry name ("vikings")."""

    @property
    def title(self) -> str:
        """The display title ("Vikings")."""

    @property
    def score_name(self) -> str:
        """What `State.scores()` counts, as front ends head it ("Fame")."""

    @property
    def information(self) -> Information:
        """`PERFECT` or `IMPERFECT`."""

    @property
    def presentation(self) -> Presentation:
        """How front ends present the game's positions."""

    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed action space."""

    def new_initial_state(self, num_players: int, options: Mapping[str, Any] | None = None) -> State:
        """The position before the first action, with `options` merged over the defaults."""

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic worth of `state` for `seat`."""

    def state_from_position(self, data: Any) -> State:
        """A state from a position's JSON (`Game.state_from_position`)."""

    def rollout_action(self, state: State, legal: list[int], rng: random.Random) -> int:
        """The action a search's rollout plays for the seat to act."""


class IllegalAction(Exception):
    """An action the rules forbid here; `rule` names the rule and `reason` says why, in the rulebook's words."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} [{rule}]")
        self.rule = rule
        self.reason = reason


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, State is still subclassed by games that are not
class State(ABC):
    """One position of a game, OpenSpiel-shaped: seats act through integer actions, chance through outcomes.

    Subclasses implement the `_`-prefixed hooks; the public methods here hold the contract every front end,
    bot and adapter relies on.
    """

    game: GameLike
    num_players: int
    history: list[int]
    #: The rule options the game is played with, every one resolved (`Game.resolve_options`); records keep them.
    options: dict[str, Any]

    # -- whose turn -------------------------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, `CHANCE`, or `TERMINAL`."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether chance acts next."""
        return self.current_player() == CHANCE

    # -- what is legal ------------------------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act (or chance's outcomes), in a stable ascending order."""

    def forced_is_public(self) -> bool:
        """Whether every viewer can tell, from what it sees, whether the seat to act has a single legal action. Only
        then may a front end or adapter play a forced move at once, or skip it, without telling the table something
        hidden (in Vikingatid a card window has one answer exactly when its holder has no card playable there).
        The seat to act always knows its own legal actions. By default: true in a perfect-information game, false
        otherwise; an imperfect-information game overrides it where its hidden parts never change what is legal."""
        return self.game.information == PERFECT

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: each outcome with its probability, summing to 1."""

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """At a chance node: one outcome drawn with its probability, from one `rng.random()`. The default walks
        `chance_outcomes()`; a game may override it to draw without building the list, as long as it returns the
        same outcome for the same `rng` (seeded games and searches then stay as they were)."""
        outcomes = self.chance_outcomes()
        pick = rng.random()
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if pick < total:
                return action
        return outcomes[-1][0]

    @abstractmethod
    def illegal_reason(self, action: int) -> IllegalAction | None:
        """Why `action` is illegal here, or None when it is legal. Never changes the state."""

    # -- changing the state -------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises `IllegalAction` and leaves the state exactly as it was."""
        error = self.illegal_reason(action)
        if error is not None:
            raise error
        self._apply(action)
        self.history.append(action)

    def apply_legal(self, action: int) -> None:
        """Apply an action the caller has just taken from this very position's `legal_actions()` or
        `chance_outcomes()`, without checking it again (tree search, and the learning adapters holding the mask they
        handed out). Anything else must go through `apply`: an action not legal here leaves the state undefined."""
        self._apply(action)
        self.history.append(action)

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy, cheap enough for tree search."""

    # -- outcome ------------------------------------------------------------------------------------------

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat: at the end, each of the k winners gets 1/k and everyone else 0; before the end, all 0."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Per seat, the game's own score (Fame in Vikings), final once terminal."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The seats that share the victory after the game's tie-breaks; empty before the end."""

    # -- what a viewer may see ----------------------------------------------------------------------------
    #
    # A viewer is a seat, or None for a spectator. Everything a front end, bot or adapter shows or hands to a viewer
    # comes from these methods, and an imperfect-information game (`Game.information == IMPERFECT`) answers each
    # with only what that viewer may know: two histories that differ only in what the viewer cannot see give it
    # identical answers (the two-worlds check of `skald check`). The defaults suit perfect-information games.

    @abstractmethod
    def observation(self, seat: int | None) -> JSONDict:
        """What `seat` (None: a spectator) may see now, as JSON-ready data: never the order of face-down stacks,
        the bag, or another seat's hand."""

    def information_state_string(self, seat: int | None) -> str:
        """All that `seat` (None: a spectator) knows of how the game went, as a string equal for two histories
        exactly when that viewer cannot tell them apart (OpenSpiel's information state). In a perfect-information
        game that is the history itself."""
        self._require_perfect_information("information_state_string")
        return " ".join(map(str, self.history))

    def action_hidden_from(self, action: int, viewer: int | None) -> bool:
        """Whether `viewer` may not learn which action `action` (about to be taken here) is: then front ends show
        that viewer `notation_for` only, and its record leaves the action out until the game is over."""
        return False

    def action_reveals(self, action: int) -> bool:
        """Whether `action` (about to be taken here by the seat to act) reveals something hidden or random to some
        viewer beyond the choice itself: a card played from a hidden hand, a card given, the bids of a sealed round
        shown. A step that reveals is never taken back (`skald.engine.undo`), nor is any before it; chance outcomes
        always count, without asking. It must follow from what the seat to act knows. By default: false in a
        perfect-information game (every seat sees all, and only chance brings what nobody knew), true in an
        imperfect one, which says which of its actions reveal nothing."""
        return self.game.information != PERFECT

    def notation_for(self, action: int, viewer: int | None) -> str:
        """The notation of `action` (about to be taken here) as `viewer` sees it: "Ragnhild draws a card" for the
        others, "you draw Peace" for her. By default, the notation itself."""
        return self.action_to_notation(action)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        """A full state drawn from those consistent with what `seat` knows here, with the probability of reaching
        it (chance by its odds, other seats' hidden choices uniformly), for bots that search over hidden
        information. Must depend only on `information_state_string(seat)` and `rng`. In a perfect-information game
        there is one such state: a clone."""
        self._require_perfect_information("resample_from_infostate")
        return self.clone()

    def _require_perfect_information(self, method: str) -> None:
        if self.game.information != PERFECT:
            raise NotImplementedError(
                f"{self.game.name} has imperfect information: its state must override {method} (docs/engine.md)"
            )

    # -- positions ----------------------------------------------------------------------------------------

    def to_position(self) -> JSONDict:
        """The position as JSON, everything but the history: `game.state_from_position` reads it back into a state
        that plays on as this one would. A game without a position format raises `NotImplementedError`."""
        raise NotImplementedError(f"{self.game.title} has no position format")

    def start_position(self) -> JSONDict | None:
        """The position the history starts from (`game.state_from_position` read it), or None when the history
        starts at the game's setup (`game.new_initial_state`)."""
        return None

    def first_state(self) -> State:
        """The position before this state's first action, as a new state: read from `start_position`, or the
        game's setup for these players and rule options."""
        start = self.start_position()
        if start is not None:
            return self.game.state_from_position(start)
        return self.game.new_initial_state(self.num_players, self.options)

    def start_position_seen_by(self, viewer: int | None) -> JSONDict | None:
        """`start_position` as `viewer` (a seat, None: a spectator) may see it: the parts hidden from it replaced
        by their sizes. By default (perfect information) the position itself."""
        return self.start_position()

    # -- action forms -------------------------------------------------------------------------------------

    @abstractmethod
    def action_to_json(self, action: int) -> JSONDict:
        """The action's JSON form, used by records and the web."""

    @abstractmethod
    def action_from_json(self, data: Any) -> int:
        """Parse an action's JSON form; raises `ValueError` naming the field at fault."""

    @abstractmethod
    def action_to_notation(self, action: int) -> str:
        """The action's short human notation, as used in logs and typed at the terminal."""

    @abstractmethod
    def action_from_notation(self, text: str) -> int:
        """Parse notation in this position's context; raises `ValueError` saying what was not understood."""

    def action_kind(self, action: int) -> str:
        """What kind of action `action` (about to be taken here) is, for the counts of simulations: the `type` of
        its JSON form (else its first field's name). A game may tell kinds finer, e.g. which card is played."""
        form = self.action_to_json(action)
        if "type" in form:
            return str(form["type"])
        return str(next(iter(form), "action"))

    def legal_notations(self) -> list[tuple[int, str]]:
        """Each legal action with its notation."""
        return [(a, self.action_to_notation(a)) for a in self.legal_actions()]

    def scorings(self) -> list[JSONDict]:
        """Every scoring so far, itemised: `{"round", "when", "lines": [{"seat", "kind", "text", …}]}`."""
        return []

    # -- rendering ----------------------------------------------------------------------------------------

    @abstractmethod
    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        """The table as text as `seat` (None: a spectator) may see it; with `color`, Rich console markup for colours
        (letters keep it readable)."""

    def __str__(self) -> str:
        return self.render_text()

    # -- learning -----------------------------------------------------------------------------------------

    def observation_tensor(self, seat: int) -> list[float]:
        """`observation(seat)` as a flat list of floats of `game.observation_tensor_shape` (games for learning)."""
        raise NotImplementedError(
            f"{self.game.name} does not encode observations as tensors: its state must override observation_tensor "
            "(see docs/rl-observation.md)"
        )

    def information_state_tensor(self, seat: int) -> list[float]:
        """All that `seat` knows, as floats of `game.information_state_tensor_shape`: equal for two histories exactly
        when `information_state_string(seat)` is (games with hidden information that encode one)."""
        raise NotImplementedError(f"{self.game.name} does not encode information states as tensors")

    def observation_array(self, seat: int) -> npt.NDArray[np.float32]:
        """`observation_tensor(seat)` as a new float32 numpy array (needs numpy; games may override it to be faster)."""
        import numpy as np

        return np.asarray(self.observation_tensor(seat), dtype=np.float32)
