"""The fixed action space: every decision (and every chance outcome) of Vikingdoms as one integer.

Layout, in id order (see docs/vikingdoms.md):

    DEAL + t            chance: territory tile t is drawn (12)
    YOUNGEST + s        chance: seat s is "the youngest" after a tie in coins (2)
    START + e           island end the raiding starts from: 0 upper, 1 lower (2)
    PLACE + q           place a Viking from your camp on empty square q (16)
    MOVE + (q*16+r)*5+k-1   move the top k Vikings of the stack on q onto the stack on r (1280)
    PASS                nothing is possible (1)
    TAKE + t            the troop's leader takes tile t of the raided island (12)
    RIOT + t            take tile t from the rioting player (12)
    ALLY + a            take ally a: Freya, Völund, Gunnar, Löke (4)
    SWAP + p            Gunnar: exchange island pair p, one of the ten pairs of island positions (10)
    NO_SWAP             Gunnar: leave the islands as they are (1)
    EXCHANGE + n - 1    exchange n prisoners, n = 1..12 (12)
    NO_EXCHANGE         decline the prisoner exchange (1)
    TROOP + q           the stack on q becomes the raiding troop (fallback when both pass) (16)
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from skald.games.vikingdoms.board import NUM_SQUARES

NUM_TILES: Final[int] = 12
MAX_MOVE: Final[int] = 5
NUM_ISLANDS: Final[int] = 5

DEAL: Final[int] = 0
YOUNGEST: Final[int] = DEAL + NUM_TILES
START: Final[int] = YOUNGEST + 2
PLACE: Final[int] = START + 2
MOVE: Final[int] = PLACE + NUM_SQUARES
PASS: Final[int] = MOVE + NUM_SQUARES * NUM_SQUARES * MAX_MOVE
TAKE: Final[int] = PASS + 1
RIOT: Final[int] = TAKE + NUM_TILES
ALLY: Final[int] = RIOT + NUM_TILES
SWAP: Final[int] = ALLY + 4
NO_SWAP: Final[int] = SWAP + 10
EXCHANGE: Final[int] = NO_SWAP + 1
NO_EXCHANGE: Final[int] = EXCHANGE + 12
TROOP: Final[int] = NO_EXCHANGE + 1
NUM_ACTIONS: Final[int] = TROOP + NUM_SQUARES

#: Seat letters and colours, used by notation and rendering.
SEAT_LETTERS: Final[tuple[str, ...]] = ("R", "B")
SEAT_NAMES: Final[tuple[str, ...]] = ("Red", "Blue")
SEAT_COLOURS: Final[tuple[str, ...]] = ("red", "blue")
START_ENDS: Final[tuple[str, ...]] = ("upper", "lower")

FREYA: Final[int] = 0
VOLUND: Final[int] = 1
GUNNAR: Final[int] = 2
LOKE: Final[int] = 3
ALLY_NAMES: Final[tuple[str, ...]] = ("Freya", "Völund", "Gunnar", "Löke")
#: ASCII spellings accepted (and used) in notation so it can be typed on any keyboard.
ALLY_ASCII: Final[tuple[str, ...]] = ("Freya", "Volund", "Gunnar", "Loke")

#: The ten unordered pairs of island positions (0 = upper), in id order.
ISLAND_PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(combinations(range(NUM_ISLANDS), 2))


def move_id(source: int, target: int, count: int) -> int:
    """The id of moving the top `count` Vikings from `source` onto `target`."""
    return MOVE + (source * NUM_SQUARES + target) * MAX_MOVE + count - 1


def move_parts(action: int) -> tuple[int, int, int]:
    """`(source, target, count)` of a move id."""
    offset = action - MOVE
    squares, count = divmod(offset, MAX_MOVE)
    source, target = divmod(squares, NUM_SQUARES)
    return source, target, count + 1


def kind(action: int) -> str:
    """The kind of an action id: deal, youngest, start, place, move, pass, take, riot, ally, swap, ..."""
    for bound, name in _KINDS:
        if 0 <= action < bound:
            return name
    raise ValueError(f"action {action} is outside Vikingdoms' action space 0..{NUM_ACTIONS - 1}")


_KINDS: Final[tuple[tuple[int, str], ...]] = (
    (YOUNGEST, "deal"),
    (START, "youngest"),
    (PLACE, "start"),
    (MOVE, "place"),
    (PASS, "move"),
    (TAKE, "pass"),
    (RIOT, "take"),
    (ALLY, "riot"),
    (SWAP, "ally"),
    (NO_SWAP, "swap"),
    (EXCHANGE, "no_swap"),
    (NO_EXCHANGE, "exchange"),
    (TROOP, "no_exchange"),
    (NUM_ACTIONS, "troop"),
)
