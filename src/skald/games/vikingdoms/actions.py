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

from skald.games.vikingdoms.board import NUM_SQUARES

NUM_TILES = 12
MAX_MOVE = 5
NUM_ISLANDS = 5

DEAL = 0
YOUNGEST = DEAL + NUM_TILES
START = YOUNGEST + 2
PLACE = START + 2
MOVE = PLACE + NUM_SQUARES
PASS = MOVE + NUM_SQUARES * NUM_SQUARES * MAX_MOVE
TAKE = PASS + 1
RIOT = TAKE + NUM_TILES
ALLY = RIOT + NUM_TILES
SWAP = ALLY + 4
NO_SWAP = SWAP + 10
EXCHANGE = NO_SWAP + 1
NO_EXCHANGE = EXCHANGE + 12
TROOP = NO_EXCHANGE + 1
NUM_ACTIONS = TROOP + NUM_SQUARES

#: Seat letters and colours, used by notation and rendering.
SEAT_LETTERS = ("R", "B")
SEAT_NAMES = ("Red", "Blue")
SEAT_COLOURS = ("red", "blue")
START_ENDS = ("upper", "lower")

FREYA, VOLUND, GUNNAR, LOKE = range(4)
ALLY_NAMES = ("Freya", "Völund", "Gunnar", "Löke")
#: ASCII spellings accepted (and used) in notation so it can be typed on any keyboard.
ALLY_ASCII = ("Freya", "Volund", "Gunnar", "Loke")

#: The ten unordered pairs of island positions (0 = upper), in id order.
ISLAND_PAIRS = tuple(combinations(range(NUM_ISLANDS), 2))


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


_KINDS = (
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
