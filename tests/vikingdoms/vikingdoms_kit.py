"""Hand-made Vikingdoms positions for the tests: deal a known order, set a board, stage a raid."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skald.engine import get_game
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.board import NUM_SQUARES, square_from_name
from skald.games.vikingdoms.game import VikingdomsGame
from skald.games.vikingdoms.state import VikingdomsState

GAME = get_game("vikingdoms")
assert isinstance(GAME, VikingdomsGame)
NAMES = tuple(t.name for t in GAME.tiles)
R, B = 0, 1
#: Red (seat 0) draws V1 (1 coin) and Blue P2 (2 coins): Red is less wealthy and chooses the start.
DEFAULT_ORDER = ("V1", "P2", "V2", "V3", "V4", "P1", "P3", "F1", "F2", "Wk", "Fm", "Mk")


def tile(name: str) -> int:
    """The index of the tile called `name`."""
    return NAMES.index(name)


def game_with(**changes: dict[str, Any]) -> VikingdomsGame:
    """A game whose tile table has some tiles' fields changed, e.g. game_with(F1={"prisoners": 4})."""
    tiles = tuple(replace(t, **changes[t.name]) if t.name in changes else t for t in GAME.tiles)
    return VikingdomsGame(tiles)


def dealt(
    order: tuple[str, ...] = DEFAULT_ORDER,
    start: str = "upper",
    options: dict[str, Any] | None = None,
    game: VikingdomsGame = GAME,
) -> VikingdomsState:
    """A state dealt in `order` (Red's tile, Blue's tile, then the islands from the top), start chosen."""
    state = game.new_initial_state(2, options)
    for name in order:
        state.apply(A.DEAL + tile(name))
    if state.phase == S.YOUNGEST:
        state.apply(A.YOUNGEST)
    state.apply(state.action_from_notation(start))
    return state


def stack(letters: str) -> tuple[int, ...]:
    """A stack written bottom to top as seat letters, e.g. 'RRB' has a Blue Viking on top."""
    return tuple("RB".index(c) for c in letters.upper())


def rebalance(state: VikingdomsState) -> None:
    """Set the camps so every Viking is accounted for (12 each across camp, lockup, board and troop)."""
    for seat in (R, B):
        on_board = sum(s.count(seat) for s in state.board) + state.troop.count(seat)
        state.camp[seat] = S.VIKINGS_PER_PLAYER - state.lockup[1 - seat] - on_board
        assert state.camp[seat] >= 0


def with_board(state: VikingdomsState, stacks: dict[str, str], to_move: int = R) -> VikingdomsState:
    """`state` in recruitment with exactly `stacks` on the board (square name -> stack letters)."""
    state.board = [()] * NUM_SQUARES
    for name, letters in stacks.items():
        state.board[square_from_name(name)] = stack(letters)
    state.phase, state.to_move = S.RECRUITMENT, to_move
    state._begin_recruitment()  # the position on the board is the recruitment's first (for the repetition rule)
    rebalance(state)
    return state


def board(stacks: dict[str, str], to_move: int = R, **options: Any) -> VikingdomsState:
    """A fresh recruitment position with `stacks` on the board."""
    return with_board(dealt(options=options or None), stacks, to_move)


def at_raid(
    red: tuple[str, ...],
    blue: tuple[str, ...],
    island: tuple[str, str],
    troop: str,
    lockup: tuple[int, int] = (0, 0),
    options: dict[str, Any] | None = None,
    game: VikingdomsGame = GAME,
) -> VikingdomsState:
    """A raid about to start: the territories, the island by the marker, and the troop (its top leads).

    The tiles in no territory and not on this island lie on the islands after it, in table order.
    """
    state = dealt(options=options, game=game)
    used = set(red) | set(blue) | set(island)
    assert len(used) == len(red) + len(blue) + 2
    rest = [tile(n) for n in NAMES if n not in used]
    pairs = len(rest) // 2
    state.marker, state.direction = A.NUM_ISLANDS - 1 - pairs, 1
    state.raids = state.marker
    state.islands = [-1] * (2 * A.NUM_ISLANDS)
    state.raided = [p < state.marker for p in range(A.NUM_ISLANDS)]
    state.islands[2 * state.marker : 2 * state.marker + 2] = [tile(island[0]), tile(island[1])]
    state.islands[2 * (state.marker + 1) :] = rest
    state.territory = [tuple(tile(n) for n in red), tuple(tile(n) for n in blue)]
    state.lockup = list(lockup)
    state.board = [()] * NUM_SQUARES
    state.troop = stack(troop)
    state.leader = state.troop[-1]
    state.completer = state.leader
    state.phase, state.to_move = S.TAKING, state.leader
    rebalance(state)
    return state


def play(state: VikingdomsState, *notations: str) -> VikingdomsState:
    """Apply each action written in notation."""
    for text in notations:
        state.apply(state.action_from_notation(text))
    return state


def settle(state: VikingdomsState) -> VikingdomsState:
    """Finish the raid's optional effects by declining them (first free ally, no swap, no exchange)."""
    while state.phase in (S.CHOOSING_ALLY, S.GUNNAR_SWAP, S.EXCHANGING):
        if state.phase == S.CHOOSING_ALLY:
            state.apply(state.legal_actions()[0])
        else:
            state.apply(A.NO_SWAP if state.phase == S.GUNNAR_SWAP else A.NO_EXCHANGE)
    return state


def moves_from(state: VikingdomsState, square: str) -> set[tuple[str, int]]:
    """The (target square, count) pairs of the legal moves from `square`."""
    source = square_from_name(square)
    found = set()
    for action in state.legal_actions():
        if A.kind(action) == "move":
            src, dst, count = A.move_parts(action)
            if src == source:
                found.add((S.SQUARE_NAMES[dst], count))
    return found


def targets_from(state: VikingdomsState, square: str) -> set[str]:
    """The target squares of the legal moves from `square`."""
    return {t for t, _ in moves_from(state, square)}
