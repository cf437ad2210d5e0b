"""What the learning adapters share: the games that encode tensors, masks of legal actions, chance by seed, the
bounds a game declares, rewards and the final result an environment hands over."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from skald.engine import CHANCE, Game, OptionError, State, game_names, get_game, sample_chance

#: Used when a game does not say how long it can last (`Game.max_game_length(num_players, options)`).
DEFAULT_MAX_GAME_LENGTH = 10_000

#: The rewards an environment offers: the Skald return at the end only, or shaped by the change in score margin.
REWARDS = ("win", "margin")


def learnable_games() -> list[str]:
    """Names of the registered games that encode observation tensors, sorted."""
    return [name for name in game_names() if get_game(name).provides_observation_tensor]


def require_tensors(game: Game, num_players: int) -> tuple[int, ...]:
    """The observation shape of `game` for `num_players`; raises `ValueError` for a player count the game is not
    played by (`Game.check_players`) or a game without a tensor encoding."""
    game.check_players(num_players)
    if not game.provides_observation_tensor:
        raise ValueError(
            f"{game.name} cannot be used for learning yet: it does not encode observations as tensors "
            "(Game.provides_observation_tensor; see docs/rl-observation.md)"
        )
    return game.observation_tensor_shape(num_players)


def declared_max_game_length(game: Game, num_players: int, options: Mapping[str, Any] | None = None) -> int | None:
    """The upper bound on the actions (chance included) of one game that `game` declares, or None.

    The contract's form is a method, `Game.max_game_length(num_players, options)`, answering None for a game that
    declares none; a plain int attribute of that name (one bound for every player count and option) is read too.
    """
    declared = getattr(game, "max_game_length", None)
    bound = declared(num_players, game.resolve_options(options)) if callable(declared) else declared
    return int(bound) if isinstance(bound, int) and bound > 0 else None


def max_game_length(game: Game, num_players: int, options: Mapping[str, Any] | None = None) -> int:
    """The declared bound on the length of one game, or `DEFAULT_MAX_GAME_LENGTH` for a game that declares none."""
    bound = declared_max_game_length(game, num_players, options)
    return DEFAULT_MAX_GAME_LENGTH if bound is None else bound


#: `longest_game` walks through every combination of a game's rule options when there are at most this many.
MAX_OPTION_COMBINATIONS = 4096


def longest_game(game: Game) -> int:
    """The largest `max_game_length` over every player count of `game` and every combination of its rule options
    (one a combination the game refuses is passed over); a game with more than `MAX_OPTION_COMBINATIONS` of them
    declares a bound that no option raises (Vikingatid's action limit counts seats only), so its default options
    stand for all. Gymnasium's `max_episode_steps` for the game's id: a learner's steps are some of the game's
    actions."""
    players = range(game.min_players, game.max_players + 1)
    choices = [option.choices for option in game.options]
    if math.prod(len(c) for c in choices) > MAX_OPTION_COMBINATIONS:
        return max(max_game_length(game, n) for n in players)
    best = 0
    for combination in itertools.product(*choices):
        options = {option.name: value for option, value in zip(game.options, combination, strict=True)}
        for n in players:
            try:
                best = max(best, max_game_length(game, n, options))
            except OptionError:
                break
    return best or DEFAULT_MAX_GAME_LENGTH


def observation_bounds(game: Game, num_players: int) -> tuple[float, float]:
    """The least and greatest value any entry of the observation tensor can take, as the game declares them
    (`Game.observation_tensor_bounds(num_players)`, None when it declares none), or unbounded without them."""
    declared = getattr(game, "observation_tensor_bounds", None)
    bounds = declared(num_players) if callable(declared) else None
    if bounds is None:
        return -math.inf, math.inf
    low, high = bounds
    return float(low), float(high)


def margin(state: State, seat: int) -> int:
    """`seat`'s score minus the best score among the other seats (the game's own score, e.g. Fame)."""
    scores = state.scores()
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)


def final_info(state: State, decisions: int, forced: int) -> dict[str, Any]:
    """What an environment adds to the last step's info: the final scores, the winners and returns (after the
    game's tie-breaks), the game's length in actions (chance included), and the decisions the agent was asked for
    and the forced ones the environment played for it. All of it is public at the end of the game."""
    return {
        "scores": list(state.scores()),
        "winners": list(state.winners()),
        "returns": list(state.returns()),
        "game_length": len(state.history),
        "decisions": decisions,
        "forced": forced,
    }


def legal_mask(state: State, size: int) -> npt.NDArray[np.int8]:
    """1 for each legal action of the seat to act, 0 elsewhere (all 0 at chance and terminal nodes)."""
    if state.current_player() < 0:
        return np.zeros(size, dtype=np.int8)
    return np.frombuffer(legal_bytes(state, size), dtype=np.int8)


def legal_bytes(state: State, size: int) -> bytearray:
    """The legal actions of the seat to act (the caller knows a seat is to act) as a mask of bytes: a bytearray
    fills faster than numpy for a few legal actions, and numpy takes it as is, writable."""
    mask = bytearray(size)
    for action in state.legal_actions():
        mask[action] = 1
    return mask


#: The legal-action mask an adapter handed out, as a private copy tied to the position it was built for: that state,
#: its number of plies then, and the mask's bytes (a plain tuple: adapters build one on every turn).
KnownLegal = tuple[State, int, bytes]


def known_legal(state: State, mask: bytearray) -> KnownLegal:
    """Remember `mask` as the legal actions of `state` as it stands now."""
    return state, len(state.history), bytes(mask)


def apply_checked(state: State, action: int, known: KnownLegal | None) -> None:
    """Apply `action`, checked against the mask the adapter handed out for this very position when it has one.

    An action that mask allows (same state, no ply since, its bit set) is applied without asking the game again; any
    other goes through `State.apply`, which raises `IllegalAction` naming the rule and leaves the state as it was.
    """
    if (
        known is not None
        and known[0] is state
        and known[1] == len(state.history)
        and 0 <= action < len(known[2])
        and known[2][action]
    ):
        state.apply_legal(action)
    else:
        state.apply(action)


def resolve_chance(state: State, rng: random.Random) -> None:
    """Draw chance outcomes with `rng` until a seat is to act or the game is over."""
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))


#: The frame rate declared to Gymnasium and PettingZoo (`metadata["render_fps"]`) for the text table: what recording
#: and display wrappers pace frames by. Rendering itself never waits.
RENDER_FPS = 4


def render_table(state: State, render_mode: str | None, seat: int | None = None) -> str | None:
    """The adapters' `render()`: the table as text as `seat` (None: a spectator) may see it, returned for `ansi`,
    printed for `human`, None without a mode."""
    if render_mode is None:
        return None
    text = state.render_text(seat=seat)
    if render_mode == "human":
        print(text)
        return None
    return text
