"""The 4×4 recruitment board: squares, their names, and how a stack of each height moves."""

from __future__ import annotations

from typing import Final

SIZE: Final[int] = 4
NUM_SQUARES: Final[int] = SIZE * SIZE
#: Square index = row * 4 + column; named like a chessboard, files a–d (columns) and ranks 1–4 (rows).
SQUARE_NAMES: Final[tuple[str, ...]] = tuple(f"{'abcd'[sq % SIZE]}{sq // SIZE + 1}" for sq in range(NUM_SQUARES))
#: A stack of this height or more is the raiding troop.
TROOP_HEIGHT: Final[int] = 6
#: The chess piece whose move each height borrows (Six MaKING's towers).
PIECES: Final[dict[int, str]] = {1: "pawn", 2: "rook", 3: "knight", 4: "bishop", 5: "queen"}

_ORTHOGONAL: Final[tuple[tuple[int, int], ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL: Final[tuple[tuple[int, int], ...]] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT: Final[tuple[tuple[int, int], ...]] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _ray(square: int, step: tuple[int, int]) -> tuple[int, ...]:
    row, col = divmod(square, SIZE)
    out = []
    row, col = row + step[0], col + step[1]
    while 0 <= row < SIZE and 0 <= col < SIZE:
        out.append(row * SIZE + col)
        row, col = row + step[0], col + step[1]
    return tuple(out)


ORTHOGONAL_RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(r for s in _ORTHOGONAL if (r := _ray(sq, s))) for sq in range(NUM_SQUARES)
)
DIAGONAL_RAYS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(r for s in _DIAGONAL if (r := _ray(sq, s))) for sq in range(NUM_SQUARES)
)
KNIGHT_JUMPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sorted(
            (sq // SIZE + dr) * SIZE + sq % SIZE + dc
            for dr, dc in _KNIGHT
            if 0 <= sq // SIZE + dr < SIZE and 0 <= sq % SIZE + dc < SIZE
        )
    )
    for sq in range(NUM_SQUARES)
)

#: A pawn's steps from each square (the first square of each orthogonal ray), ascending.
PAWN_STEPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(ray[0] for ray in ORTHOGONAL_RAYS[sq])) for sq in range(NUM_SQUARES)
)


def square_from_name(text: str) -> int:
    """The index of a square named like `b3`; raises `ValueError` for anything else."""
    name = text.strip().lower()
    if name not in SQUARE_NAMES:
        raise ValueError(f"{text!r} is not a square (a1..d4)")
    return SQUARE_NAMES.index(name)


def _first_stacks(heights: list[int], rays: tuple[tuple[int, ...], ...]) -> list[int]:
    """The first occupied square along each ray: sliding stops at the first stack in the path."""
    found: list[int] = []
    for ray in rays:
        for square in ray:
            if heights[square]:
                found.append(square)
                break
    return found


def targets(heights: list[int], source: int) -> list[int]:
    """The squares the stack on `source` may move onto, by its full height, in ascending order.

    A move always ends on another stack (never on an empty square): a pawn steps orthogonally, a rook or
    bishop or queen slides to the first stack in its path, a knight jumps over whatever stands between.
    """
    height = heights[source]
    if height == 1:
        return [sq for sq in PAWN_STEPS[source] if heights[sq]]  # already ascending
    if height == 3:
        return [sq for sq in KNIGHT_JUMPS[source] if heights[sq]]  # already ascending
    if height == 2:
        found = _first_stacks(heights, ORTHOGONAL_RAYS[source])
    elif height == 4:
        found = _first_stacks(heights, DIAGONAL_RAYS[source])
    elif height == 5:
        found = _first_stacks(heights, ORTHOGONAL_RAYS[source]) + _first_stacks(heights, DIAGONAL_RAYS[source])
    else:
        found = []
    return sorted(found)
