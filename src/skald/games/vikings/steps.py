"""The steps of a Vikings round, in the order the flow reaches them; the last six belong to the advanced game."""

(
    DRAW_TILES,
    DRAW_VIKINGS,
    BUY,
    PLACE_TILE,
    PLACE_VIKING,
    FERRY,
    LAND,
    GAME_OVER,
    DRAW_SPECIALS,
    AUCTION,
    REMOVE_VIKING,
    PLACE_COLOURS,
    TAKE_SPECIAL,
    REPLACE_BUILDING,
) = range(14)
STEP_NAMES = (
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
CHANCE_STEPS = frozenset((DRAW_TILES, DRAW_VIKINGS, DRAW_SPECIALS))
