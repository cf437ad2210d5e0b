"""The 4×4 recruitment board: squares, their names, and how a stack of each height moves."""

from __future__ import annotations

SIZE = 4
NUM_SQUARES = SIZE * SIZE
#: Square index = row * 4 + column; named like a chessboard, files a–d (columns) and ranks 1–4 (rows).
SQUARE_NAMES = tuple(f"{'abcd'[sq % SIZE]}{sq // SIZE + 1}" for sq in range(NUM_SQUARES))
#: A stack of this height or more is the raiding troop.
TROOP_HEIGHT = 6
#: The chess piece whose move each height borrows (Six MaKING's towers).
PIECES = {1: "pawn", 2: "rook", 3: "knight", 4: "bishop", 5: "queen"}

_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _ray(square: int, step: tuple[int, int]) -> tuple[int, ...]:
    row, col = divmod(square, SIZE)
    out = []
    row, col = row + step[0], col + step[1]
    while 0 <= row < SIZE and 0 <= col < SIZE:
        out.append(row * SIZE + col)
        row, col = row + step[0], col + step[1]
    return tuple(out)


ORTHOGONAL_RAYS = tuple(tuple(r for s in _ORTHOGONAL if (r := _ray(sq, s))) for sq in range(NUM_SQUARES))
DIAGONAL_RAYS = tuple(tuple(r for s in _DIAGONAL if (r := _ray(sq, s))) for sq in range(NUM_SQUARES))
KNIGHT_JUMPS = tuple(
    tuple(
        sorted(
            (sq // SIZE + dr) * SIZE + sq % SIZE + dc
            for dr, dc in _KNIGHT
            if 0 <= sq // SIZE + dr < SIZE and 0 <= sq % SIZE + dc < SIZE
        )
    )
    for sq in range(NUM_SQUARES)
)


def square_from_name(text: str) -> int:
    """The index of a square named like `b3`; raises `ValueError` for anything else."""
    name = text.strip().lower()
    if name not in SQUARE_NAMES:
        raise ValueError(f"{text!r} is not a square (a1..d4)")
    return SQUARE_NAMES.index(name)


def _first_stacks(heights: list[int], rays: tuple[tuple[int, ...], ...]) -> list[int]:
    """The first occupied square along each ray: sliding stops at the first stack in the path."""
    found = []
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
        found = [ray[0] for ray in ORTHOGONAL_RAYS[source] if heights[ray[0]]]
    elif height == 2:
        found = _first_stacks(heights, ORTHOGONAL_RAYS[source])
    elif height == 3:
        found = [sq for sq in KNIGHT_JUMPS[source] if heights[sq]]
    elif height == 4:
        found = _first_stacks(heights, DIAGONAL_RAYS[source])
    elif height == 5:
        found = _first_stacks(heights, ORTHOGONAL_RAYS[source]) + _first_stacks(heights, DIAGONAL_RAYS[source])
    else:
        found = []
    return sorted(found)
