"""The steps of a Vikings round, in the order the flow reaches them; the last six belong to the advanced game."""

from typing import Final

# Final, so that the compiled build inlines them.
DRAW_TILES: Final = 0
DRAW_VIKINGS: Final = 1
BUY: Final = 2
PLACE_TILE: Final = 3
PLACE_VIKING: Final = 4
FERRY: Final = 5
LAND: Final = 6
GAME_OVER: Final = 7
DRAW_SPECIALS: Final = 8
AUCTION: Final = 9
REMOVE_VIKING: Final = 10
PLACE_COLOURS: Final = 11
TAKE_SPECIAL: Final = 12
REPLACE_BUILDING: Final = 13
STEP_NAMES: Final = (
    "draw tiles",
    "draw Vikings",
    "buy a Group",
    "place the tile",
    "place the Viking",
    "ferry with Boatswains",
    "land the ferried Vikings",
    "game over",
    "turn up special tiles",
    "bid for the Start Player Ship",
    "remove one drawn Viking",
    "choose a colour to lay on the wheel",
    "take a special tile",
    "choose the tile the Building replaces",
)
CHANCE_STEPS: Final = frozenset((DRAW_TILES, DRAW_VIKINGS, DRAW_SPECIALS))
