"""Skald games as OpenSpiel games: `pyspiel.load_game("skald_vikings", {"players": 3})` after `register_all()`.

Every registered Skald game becomes `skald_<name>`, with parameters `players` and one per rule option: an option
whose choices spell numbers is a number there (`{"last_year": 1100}`, its one word choice 0: `last_year=0` is
`none`), every other its own text or truth value (`SpielOption`). Chance acts at
explicit chance nodes with the game's own outcomes (in Vikings, a tile from the stacks or a Viking from the bag),
action ids are the game's fixed action space (chance outcomes included, so `max_chance_outcomes` is the same size),
returns are Skald's: 1/k to each of k winners (constant sum 1), and serialization is the history of action ids:
OpenSpiel writes a Python state as its history, its move number and a base64 pickle of the object's attributes, and
a Skald state's one attribute pickles as the number of its actions alone (`_Held.__reduce__`), so that pickle is a
few bytes at any length; deserializing replays the history through the rules (`SkaldSpielState.__setattr__`).

A game with hidden information (`Game.information == IMPERFECT`) is registered as `IMPERFECT_INFORMATION`: its
observer answers each player with that seat's view only (the information-state string and observation JSON of the
Skald state, and its observation tensor), and `resample_from_infostate` draws a full state consistent with what a
player knows. Its information-state tensor is the game's own (`State.information_state_tensor(seat)`) when the game
encodes one (`Game.information_state_tensor_shape`); the observation tensor never stands in for it (two histories a
seat can tell apart, e.g. by the order its own cards came, may give it equal observation tensors). A
perfect-information game's information state is the history of action ids.

`max_game_length` is the bound the game declares (`Game.max_game_length(num_players, options)`), else 10,000.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, Final

import numpy as np
import pyspiel

from skald.bots import make_bot
from skald.engine import PERFECT, Game, OptionError, State, get_game
from skald.engine import game_names as skald_game_names
from skald.engine.messages import shown
from skald.rl.common import max_game_length

PREFIX = "skald_"

_registered: dict[str, type[SkaldSpielGame]] = {}


def short_name(game_name: str) -> str:
    """OpenSpiel's name for a Skald game: `skald_vikings`."""
    return PREFIX + game_name


class _Held:
    """Holds the Skald state so that OpenSpiel's deepcopy-based clone uses Skald's cheap `clone()`.

    It also remembers the text and tensors of the current position: OpenSpiel's tests ask for each several times.
    """

    __slots__ = ("at", "seen", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.at = -1
        self.seen: dict[Any, Any] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        other = _Held(self.state.clone())
        # What was worked out for this position holds for its copy (the values are never mutated).
        other.at, other.seen = self.at, dict(self.seen)
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as the number of actions played, nothing of the state: OpenSpiel's `serialize_state` pickles a
        Python state's attributes beside the history it writes itself, and the history is all a Skald state needs.
        A copy is kept in `_SERIALIZED`, so that deserializing in this process need not replay the whole history."""
        _remember(self)
        return (int, (len(self.state.history),))

    def cached(self, key: Any, make: Any) -> Any:
        """`make()` for this position, computed once per position and key."""
        if self.at != len(self.state.history):
            self.at = len(self.state.history)
            self.seen = {}
        if key not in self.seen:
            self.seen[key] = make()
        return self.seen[key]


#: Copies of the Skald states serialized last in this process, by game and history (`_Held.__reduce__`), newest
#: last: deserializing one of them, or a history that continues one, starts from the copy instead of the first action.
_SERIALIZED: dict[tuple[str, int, tuple[int, ...]], _Held] = {}
#: How many serialized states `_SERIALIZED` keeps.
SERIALIZED_KEPT: Final = 8


def _history_key(state: State) -> tuple[str, int, tuple[int, ...]]:
    """What tells a serialized state: its game, its options (as their text), its player count and its history."""
    options = json.dumps(state.options, sort_keys=True, default=str)
    return (f"{state.game.name} {options}", state.num_players, tuple(state.history))


def _remember(held: _Held) -> None:
    """Keep a copy of `held` (its state, just serialized, with what was worked out for it), dropping the oldest
    beyond `SERIALIZED_KEPT`."""
    key = _history_key(held.state)
    _SERIALIZED.pop(key, None)
    _SERIALIZED[key] = held.__deepcopy__({})
    while len(_SERIALIZED) > SERIALIZED_KEPT:
        del _SERIALIZED[next(iter(_SERIALIZED))]


def _replay(start: _Held, history: list[int]) -> _Held:
    """The position after `history` (which `start`'s history begins), reached from a copy of `start` through the
    rules (`apply`: a history that breaks a rule raises `IllegalAction` naming it)."""
    held = start.__deepcopy__({})
    for action in history[len(held.state.history) :]:
        held.state.apply(action)
    return held


#: The number that stands, in OpenSpiel, for the one word among a numeric option's choices (`last_year=0` is
#: Vikingatid's `last_year: none`, `journey_moves=0` its `unlimited`).
SPIEL_WORD_NUMBER: Final = 0


def _number(text: Any) -> int | float | None:
    """`text` as the number it spells (`"1125"` → 1125, `"0.5"` → 0.5), else None (words, flags and numbers
    themselves are not text that spells a number)."""
    if not isinstance(text, str):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def _same(spiel: Any, value: Any) -> bool:
    """Whether `value` is the parameter value `spiel`: equal, and neither a truth value or text standing for a number
    (to Python, True == 1)."""
    kinds = (isinstance(spiel, bool), isinstance(spiel, str))
    return bool(spiel == value) and kinds == (isinstance(value, bool), isinstance(value, str))


class SpielOption:
    """How one rule option travels as an OpenSpiel game parameter.

    OpenSpiel checks each parameter's type against the game's specification before the game sees it, and reads
    `last_year=1100` in a game string as an int: so an option whose choices spell numbers (Vikingatid's
    `last_year`: "1125", "1100", "none") is an int parameter (a float one if a choice has a fraction), and its one
    word choice, if any, is `SPIEL_WORD_NUMBER`. Every other option keeps its own values (text, or a truth value).
    """

    def __init__(self, name: str, choices: tuple[Any, ...]) -> None:
        self.name = name
        numbers = {choice: _number(choice) for choice in choices}
        words = [choice for choice, number in numbers.items() if number is None]
        spelled = [number for number in numbers.values() if number is not None]
        self.numeric = bool(spelled) and len(words) <= 1 and SPIEL_WORD_NUMBER not in spelled
        self.to_spiel: dict[Any, Any] = {}
        if self.numeric:
            as_float = any(isinstance(number, float) for number in spelled)
            for choice, number in numbers.items():
                value = SPIEL_WORD_NUMBER if number is None else number
                self.to_spiel[choice] = float(value) if as_float else value
        else:
            self.to_spiel = {choice: choice for choice in choices}
        self.to_skald = {value: choice for choice, value in self.to_spiel.items()}

    def spiel(self, value: Any) -> Any:
        """A rule option's value as the OpenSpiel parameter (a value already in OpenSpiel's form passes as is)."""
        for choice, spiel in self.to_spiel.items():
            if _same(choice, value) or _same(spiel, value):
                return spiel
        raise OptionError(f"options.{self.name}: {shown(value)} is not one of {self.shown_choices()}")

    def skald(self, value: Any) -> Any:
        """An OpenSpiel parameter back as the rule option's value; `OptionError` names the option and its choices."""
        for spiel, choice in self.to_skald.items():
            if _same(spiel, value):
                return choice
        raise OptionError(f"options.{self.name}: {shown(value)} is not one of {self.shown_choices()}")

    def shown_choices(self) -> str:
        """The OpenSpiel values, each with the option's own word where the two differ (`1125, 1100, 0 (none)`)."""
        return ", ".join(
            f"{shown(spiel)} ({choice})" if self.numeric and _number(choice) is None else shown(spiel)
            for choice, spiel in self.to_spiel.items()
        )


def spiel_option(skald_game: Game, name: str) -> SpielOption:
    """How the rule option `name` of `skald_game` travels as an OpenSpiel parameter."""
    key = (skald_game.name, name)
    if key not in _spiel_options:
        option = next(o for o in skald_game.options if o.name == name)
        _spiel_options[key] = SpielOption(name, option.choices)
    return _spiel_options[key]


_spiel_options: dict[tuple[str, str], SpielOption] = {}


#: OpenSpiel's modules whose search reads the whole state it is given (`SkaldSpielGame.get_type`).
_PERFECT_SEARCHES: Final = frozenset({"open_spiel.python.algorithms.mcts"})


def _asked_by_perfect_search() -> bool:
    """Whether `get_type` is being called from a search that assumes it may read the whole state (MCTSBot's
    constructor asks the game's type first)."""
    frame = sys._getframe(2)
    return frame.f_globals.get("__name__") in _PERFECT_SEARCHES


class SkaldSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Skald game, with its player count and rule options, as an OpenSpiel game."""

    def __init__(self, game_type: Any, skald_game: Game, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        num_players = int(params.get("players", skald_game.min_players))
        skald_game.check_players(num_players)
        self.skald_game = skald_game
        self.num_seats = num_players
        self.options = skald_game.resolve_options(
            {
                o.name: spiel_option(skald_game, o.name).skald(params[o.name])
                for o in skald_game.options
                if o.name in params
            }
        )
        actions = skald_game.num_distinct_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=actions,
            num_players=num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(skald_game, num_players, self.options),
        )
        super().__init__(game_type, info, params)

    def get_type(self) -> Any:
        """The game's OpenSpiel type. OpenSpiel's `MCTSBot`, which searches the state it is given and so would see
        every hidden hand, is refused here for a game with hidden information, naming the search that fits."""
        if self.skald_game.information != PERFECT and _asked_by_perfect_search():
            raise ValueError(
                f"{self.skald_game.name} has hidden information: OpenSpiel's MCTSBot would search the true state "
                "(every hand seen); use open_spiel.python.algorithms.ismcts.ISMCTSBot, which searches information "
                "sets through resample_from_infostate (docs/learning.md)"
            )
        return super().get_type()

    def new_initial_state(self) -> SkaldSpielState:
        """The position before the first action (whatever the game deals or draws first comes at chance nodes)."""
        return SkaldSpielState(self, self.skald_game.new_initial_state(self.num_seats, self.options))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer: Skald's tensor and JSON view for observations; for information states, the action history
        (perfect information) or the seat's information-state string (imperfect information). None, OpenSpiel's
        "not supported", for private information without the public part in a game with hidden information (the
        contract cannot tell the two apart)."""
        if self.skald_game.information != PERFECT:
            if iig_obs_type is not None and not iig_obs_type.public_info and _private(iig_obs_type) != "spectator":
                return None
            return SeatViewObserver(self, iig_obs_type, params)
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return SkaldObserver(self, params)
        return HistoryObserver(iig_obs_type, params)


class SkaldSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state that delegates every rule to the Skald state it holds."""

    def __init__(self, game: SkaldSpielGame, state: State) -> None:
        super().__init__(game)
        self._held = _Held(state)

    def __setattr__(self, name: str, value: Any) -> None:
        """OpenSpiel's deserialization restores the history, then sets each pickled attribute: the holder pickled as
        a count of actions (`_Held.__reduce__`) becomes the position reached by replaying that history through the
        rules (`apply`, so a history that breaks a rule raises `IllegalAction` naming it)."""
        if name == "_held" and type(value) is int:
            value = self._replayed(value)
        super().__setattr__(name, value)

    def _replayed(self, length: int) -> _Held:
        """The Skald state after this state's OpenSpiel history (restored already, `length` actions long)."""
        history = self.history()
        if len(history) != length:
            raise ValueError(f"serialized state: {length} actions pickled, but the history holds {len(history)}")
        game = self.get_game()
        start = _Held(game.skald_game.new_initial_state(game.num_seats, game.options))
        name, players, _ = _history_key(start.state)
        for (kept_name, kept_players, kept), held in reversed(_SERIALIZED.items()):
            same_game = kept_name == name and kept_players == players
            if same_game and len(kept) <= length and list(kept) == history[: len(kept)]:
                start = held
                break
        return _replay(start, history)

    @property
    def skald_state(self) -> State:
        """The Skald state behind this OpenSpiel state."""
        return self._held.state

    def current_player(self) -> int:
        """The seat to act; Skald's CHANCE and TERMINAL are OpenSpiel's values (-1, -4)."""
        return self._held.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """The seat's legal actions, ascending; none for a seat that is not to act."""
        state = self._held.state
        return state.legal_actions() if player == state.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome chance may draw here with its probability (the game's `chance_outcomes`)."""
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Apply through Skald's `apply`, which raises `IllegalAction` naming the rule for an illegal action."""
        self._held.state.apply(action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SkaldSpielState:
        """A state drawn among those consistent with what `player_id` knows here, with the right probabilities (the
        Skald state's `resample_from_infostate`, driven by a generator seeded from the sampler's draws)."""
        # Two draws of the sampler (floats in [0, 1)) give the generator 106 bits of seed.
        seed = int(probability_sampler() * 2**53) << 53 | int(probability_sampler() * 2**53)
        drawn = self._held.state.resample_from_infostate(player_id, random.Random(seed))
        # Replayed through `apply_action`, so that OpenSpiel's own history (and with it serialization) is the drawn one.
        state: SkaldSpielState = self.get_game().new_initial_state()
        for action in drawn.history:
            state.apply_action(action)
        return state

    def _action_to_string(self, player: int, action: int) -> str:
        """The game's notation of the action in full (OpenSpiel's strings are for logs and debugging, not a view)."""
        return self._held.state.action_to_notation(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        """1/k to each of the k winners at the end; 0 for everyone before."""
        return self._held.state.returns()

    def __str__(self) -> str:
        return str(self._held.cached("text", self._held.state.render_text))


#: The tensors an observer may give: the seat's observation, or its information state (perfect recall).
OBSERVATION, INFORMATION_STATE = "observation", "info_state"


class _Observer:
    """What OpenSpiel's PyObservers share: a tensor for a seat (its observation or its information state, when the
    observer gives one and the game encodes it) and the seat's observation as compact JSON."""

    def __init__(self, game: SkaldSpielGame, params: Any, tensor: str | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}
        self.kind = tensor
        skald_game = game.skald_game
        shape: tuple[int, ...] | None = None
        if tensor == OBSERVATION and skald_game.provides_observation_tensor:
            shape = skald_game.observation_tensor_shape(game.num_seats)
        elif tensor == INFORMATION_STATE and skald_game.provides_information_state_tensor:
            shape = skald_game.information_state_tensor_shape(game.num_seats)
        if shape is not None:
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {str(tensor): self.tensor.reshape(shape)}

    def set_from(self, state: SkaldSpielState, player: int) -> None:
        """Fill `tensor` (if this observer has one) with `state` as `player` sees it or knows it."""
        if self.tensor is None:
            return
        skald_state = state.skald_state
        if self.kind == OBSERVATION:
            self.tensor[:] = state._held.cached(("tensor", player), lambda: skald_state.observation_array(player))
        else:
            self.tensor[:] = state._held.cached(
                ("info_tensor", player),
                lambda: np.asarray(skald_state.information_state_tensor(player), np.float32),
            )

    @staticmethod
    def observation_json(state: SkaldSpielState, viewer: int | None) -> str:
        """What `viewer` (None: a spectator) sees, as compact JSON (never the order of stacks or deck: the engine
        keeps none)."""
        skald_state = state.skald_state
        return str(
            state._held.cached(
                ("text", viewer),
                lambda: json.dumps(skald_state.observation(viewer), sort_keys=True, separators=(",", ":")),
            )
        )


class SkaldObserver(_Observer):
    """OpenSpiel's PyObserver for a seat of a perfect-information game: the game's observation tensor and its JSON
    view as a string."""

    def __init__(self, game: SkaldSpielGame, params: Any) -> None:
        super().__init__(game, params, tensor=OBSERVATION)

    def string_from(self, state: SkaldSpielState, player: int) -> str:
        """What `player` sees, as compact JSON."""
        return self.observation_json(state, player)


class HistoryObserver:
    """Information states of a public-information game: every action so far, chance included."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.public = bool(iig_obs_type.public_info)
        self.tensor: Any = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SkaldSpielState, player: int) -> None:
        """Nothing to fill: information states here are strings only."""

    def string_from(self, state: SkaldSpielState, player: int) -> str:
        """The history of action ids (the same for every seat: nothing is private)."""
        return " ".join(map(str, state.skald_state.history)) if self.public else ""


def _private(iig_obs_type: Any) -> str:
    """Whose private information an observation type asks for: "seat" (the player's own, also the default),
    "spectator" (nobody's) or "all" (every player's)."""
    if iig_obs_type is None:
        return "seat"
    return {
        pyspiel.PrivateInfoType.SINGLE_PLAYER: "seat",
        pyspiel.PrivateInfoType.NONE: "spectator",
    }.get(iig_obs_type.private_info, "all")


class SeatViewObserver(_Observer):
    """OpenSpiel's PyObserver for a game with hidden information: a player's own view only.

    With a seat's private information (`private_info` SINGLE_PLAYER, the default) the string is the seat's
    information-state string (perfect recall) or its observation JSON, each with its tensor when the game encodes
    one: the seat's information-state tensor, or its observation tensor. With public information only
    (NONE) the strings are a spectator's, and there is no tensor (the game encodes seats' views); with nothing at all
    (NONE and no public information) the string is empty. With every seat's private information and the public
    information (ALL_PLAYERS) the string is the whole history of action ids. Private information without the public
    part is not offered (`make_py_observer` answers None).
    """

    def __init__(self, game: SkaldSpielGame, iig_obs_type: Any, params: Any) -> None:
        self.recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        self.public = iig_obs_type is None or bool(iig_obs_type.public_info)
        self.viewer = _private(iig_obs_type)
        tensor = (INFORMATION_STATE if self.recall else OBSERVATION) if self.viewer == "seat" else None
        super().__init__(game, params, tensor=tensor)

    def string_from(self, state: SkaldSpielState, player: int) -> str:
        """What `player` (or a spectator, for public information only) knows or sees, as a string."""
        if self.viewer == "all":
            return " ".join(map(str, state.skald_state.history))
        if self.viewer == "spectator" and not self.public:
            return ""
        viewer = player if self.viewer == "seat" else None
        if self.recall:
            skald_state = state.skald_state
            key: tuple[str, int | None] = ("infostate", viewer)
            return str(state._held.cached(key, lambda: skald_state.information_state_string(viewer)))
        return self.observation_json(state, viewer)


def game_type(skald_game: Game) -> Any:
    """OpenSpiel's GameType for a Skald game: sequential, explicit chance, constant sum; perfect information, or
    imperfect with per-player information states for a game with hidden information."""
    spec: dict[str, Any] = {"players": skald_game.min_players}
    spec.update({o.name: spiel_option(skald_game, o.name).spiel(o.default) for o in skald_game.options})
    tensors = skald_game.provides_observation_tensor
    hidden = skald_game.information != PERFECT
    # Only a game with hidden information encodes one (a perfect-information game's information state is its history).
    information_tensors = hidden and skald_game.provides_information_state_tensor
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(skald_game.name),
        long_name=f"Skald {skald_game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION if hidden else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=skald_game.max_players,
        min_num_players=skald_game.min_players,
        provides_information_state_string=True,
        # The game's own, where it has one; the observation tensor is not one (it forgets order).
        provides_information_state_tensor=information_tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=spec,
    )


def register(game_name: str) -> str:
    """Register one Skald game with OpenSpiel (once); returns its OpenSpiel short name."""
    name = short_name(game_name)
    if game_name not in _registered:
        skald_game = get_game(game_name)
        kind = game_type(skald_game)

        def __init__(self: SkaldSpielGame, params: dict[str, Any] | None = None) -> None:
            SkaldSpielGame.__init__(self, kind, skald_game, params)

        # OpenSpiel keeps the constructor until exit; a class (not a bare function) survives interpreter shutdown.
        _registered[game_name] = type(f"Skald_{game_name}_Game", (SkaldSpielGame,), {"__init__": __init__})
        pyspiel.register_game(kind, _registered[game_name])
    return name


def register_all() -> list[str]:
    """Register every Skald game with OpenSpiel; returns their OpenSpiel short names."""
    return [register(name) for name in skald_game_names()]


def load(game_name: str, num_players: int, **options: Any) -> Any:
    """The OpenSpiel game for a Skald game, player count and rule options (registering it if needed); an option's
    value may be the game's own (`last_year="none"`) or OpenSpiel's (`last_year=0`)."""
    skald_game = get_game(game_name)
    known = {o.name for o in skald_game.options}
    # An unknown name goes through as it is: OpenSpiel's refusal lists the parameters there are.
    params = {name: spiel_option(skald_game, name).spiel(v) if name in known else v for name, v in options.items()}
    return pyspiel.load_game(register(game_name), {"players": num_players, **params})


class SkaldBot(pyspiel.Bot):  # type: ignore[misc]
    """A Skald bot (`random`, `greedy`, `mcts:easy`, …) playing in OpenSpiel, e.g. in `evaluate_bots`."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        super().__init__()
        self.bot = make_bot(spec, seed)

    def step(self, state: SkaldSpielState) -> int:
        """The Skald bot's choice for the seat to act."""
        return self.bot.step(state.skald_state)

    def restart_at(self, state: SkaldSpielState) -> None:
        """Nothing to reset: a Skald bot keeps no memory between steps (it reads its seat's view of the state)."""

    def inform_action(self, state: SkaldSpielState, player_id: int, action: int) -> None:
        """Nothing to track: a Skald bot keeps no memory between steps (it reads its seat's view of the state)."""
