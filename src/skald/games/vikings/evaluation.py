"""A heuristic worth of a Vikings position for one seat, in Fame, for greedy bots and cut-off rollouts.

Fame and Gold now, plus what the Mainland will still earn: unthreatened Nobles, Scouts and Goldsmiths at the
scorings to come, ships covered by Warriors, the end-game penalty of uncovered ships, feeding, completed
islands and Boatswains. Gold counts at the end-game rate (5 Gold = 1 Fame) with a premium while it can still buy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from skald.games.vikings.components import (
    BLACK,
    BLUE,
    BOAT,
    EMPTY,
    FISH,
    FISHERMAN1,
    GOLD3,
    GOLDSMITH1,
    GOLDSMITH2,
    GREEN,
    GREY,
    HORN,
    ISLAND_ROWS,
    LARGE_SCORING_ROUNDS,
    MAX_COLUMNS,
    NOBLE1,
    RED,
    ROUNDS,
    SCOUT1,
    YELLOW,
    ship_of,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.scoring import threats
from skald.games.vikings.steps import FERRY, LAND

if TYPE_CHECKING:
    from skald.games.vikings.state import VikingsState

GOLD_AT_END: Final = 0.2
GOLD_IN_PLAY: Final = 0.35
#: The flat index of column 1 of each island row.
ISLAND_BASES: Final = tuple(row * MAX_COLUMNS for row in ISLAND_ROWS)


def _scorings_left(state: VikingsState) -> tuple[int, int]:
    """(large, small) scorings still to come, counting this round's if it has not been scored yet."""
    current_done = state.step in (FERRY, LAND) and state.scoring_index > 0
    rounds = range(state.round + (1 if current_done else 0), ROUNDS + 1)
    large = sum(1 for r in rounds if r in LARGE_SCORING_ROUNDS)
    return large, len(rounds) - large


def evaluate(state: VikingsState, seat: int) -> float:
    """The seat's expected final Fame, roughly; exact final Fame (gold as tie-break) once the game is over."""
    land = state.lands[seat]
    if state.is_terminal():
        return land.fame + land.gold / 1000.0
    large, small = _scorings_left(state)
    seen = threats(land)
    gold_rate = GOLD_IN_PLAY if state.round < ROUNDS else GOLD_AT_END
    value = float(land.fame) + gold_rate * land.gold
    vikings = land.vikings
    threatened = seen.threatened
    fishermen = 0
    width = land.width
    # Vikings stand only in the island rows, left of the Mainland's width: the same squares in the same order as
    # a walk over every square, so the same sum.
    for base in ISLAND_BASES:
        for index in range(base, base + width):
            colour = vikings[index]
            if colour == EMPTY or index in threatened:
                continue
            if colour == RED:
                value += 2 * large
            elif colour == GREEN:
                col = index % MAX_COLUMNS
                below = 0
                if vikings[4 * MAX_COLUMNS + col] in (YELLOW, BLUE):
                    below += 1
                if vikings[5 * MAX_COLUMNS + col] in (YELLOW, BLUE):
                    below += 1
                value += (1 + below) * large
            elif colour == YELLOW:
                value += 3 * (large + small) * gold_rate
            elif colour == BLUE:
                fishermen += 1
    for _, tile in seen.repelled:
        ship = ship_of(tile)
        value += ship.value * large * (1.0 if ship.reward == "fame" else gold_rate)
    for _, tile in seen.unrepelled:
        ship = ship_of(tile)
        value -= ship.value * (1.0 if ship.reward == "fame" else GOLD_AT_END * 5)
    surplus = 5 * fishermen - land.vikings_owned()
    value += 2 * surplus if surplus > 0 else surplus
    value += 2.0 * len(land.completed_islands())
    value += 1.5 * land.head[GREY]
    # Vikings still waiting can be ferried later; a Warrior placed before its ship still has promise.
    value += 0.5 * sum(land.head[c] for c in range(GREY))
    value += 0.5 * sum(1 for col in range(land.width) if vikings[MAX_COLUMNS + col] == BLACK)
    return value + _specials_value(land, large, small, gold_rate)


def _specials_value(land: Mainland, large: int, small: int, gold_rate: float) -> float:
    """Advanced game: what the special tiles beside the Mainland will still earn, roughly."""
    specials = land.specials
    if not (any(specials) or land.waiting or land.buildings):
        return 0.0
    per_goldsmith = specials[GOLDSMITH1] + 2 * specials[GOLDSMITH2]
    goldsmiths = sum(1 for v in land.vikings if v == YELLOW)
    value = per_goldsmith * goldsmiths * (large + small) * gold_rate
    value += large * (
        specials[NOBLE1] * sum(1 for v in land.vikings if v == RED)
        + specials[SCOUT1] * sum(1 for v in land.vikings if v == GREEN)
        + specials[FISHERMAN1] * sum(1 for v in land.vikings if v == BLUE)
    )
    value += (
        2.0 * specials[BOAT] * (1 if large else 0) + 2.5 * specials[HORN] + 2.0 * (specials[FISH] + specials[GOLD3])
    )
    value += 3.0 * (len(land.buildings) + 0.5 * len(land.waiting))
    return value
