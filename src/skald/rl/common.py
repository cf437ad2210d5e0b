"""What the learning adapters share: which games encode tensors, masks of legal actions, and chance by seed."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from skald.engine import CHANCE, Game, State, game_names, get_game, sample_chance

#: Used when a game does not say how long it can last (an attribute `max_game_length` on the Game, an int).
DEFAULT_MAX_GAME_LENGTH = 10_000


def supports_tensors(game: Game) -> bool:
    """Whether `game` encodes observations as tensors (overrides `Game.observation_tensor_shape`)."""
    try:
        game.observation_tensor_shape(game.min_players)
    except NotImplementedError:
        return False
    return True


def learnable_games() -> list[str]:
    """Names of the registered games that encode observation tensors, sorted."""
    return [name for name in game_names() if supports_tensors(get_game(name))]


def require_tensors(game: Game, num_players: int) -> tuple[int, ...]:
    """The observation shape of `game` for `num_players`; raises `ValueError` if the game has no tensor encoding."""
    game.check_players(num_players)
    try:
        return game.observation_tensor_shape(num_players)
    except NotImplementedError as error:
        raise ValueError(f"{game.name} cannot be used for learning yet: {error}") from None


def max_game_length(game: Game, num_players: int) -> int:
    """An upper bound on the actions (chance included) of one game, or `DEFAULT_MAX_GAME_LENGTH`."""
    del num_players
    bound = getattr(game, "max_game_length", None)
    return bound if isinstance(bound, int) else DEFAULT_MAX_GAME_LENGTH


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
