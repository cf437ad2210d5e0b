"""Rule options: each point the Vikings texts leave open, defaulting to the Z-Man rulebook (rules/000).

docs/vikings-rule-options.md gives the reasons at length.
"""

from __future__ import annotations

from skald.engine import RuleOption

SHIP_ROW = RuleOption(
    "ship_row",
    "zman",
    ("zman", "touching"),
    "zman: the first three ships go into columns 1-3 in any order, later ships next to a placed ship "
    "(rules/000 p.3). touching: every ship after the first must touch a placed ship (rules/001).",
    title="Ship placement",
    labels=("Z-Man rulebook", "Every ship touches the last"),
    summary="Whether your first three ships fill columns 1–3 in any order, or each new ship must touch a placed one.",
)

VIKING_PLACEMENT = RuleOption(
    "viking_placement",
    "bought_tile",
    ("bought_tile", "any_tile_in_row"),
    "bought_tile: a bought Viking may stand only on the tile bought with it, placed in its colour's row "
    "(rules/000 p.3). any_tile_in_row: on any free island tile of its colour's row (a review's reading).",
    title="Where a bought Viking stands",
    labels=("Only on the tile bought with it", "On any free tile of its row"),
    summary="Whether a bought Viking must stand on the tile bought with it or on any free tile of its row.",
)

FERRY = RuleOption(
    "ferry",
    "as_many_as_fit",
    ("as_many_as_fit", "any_number"),
    "as_many_as_fit: one Boatswain moves all waiting Vikings of one colour, or one of each colour that has a "
    "free tile; when fewer tiles are free than Vikings of the colour, as many as fit (rules/000 p.4). "
    "any_number: any number of one colour, or at most one of each colour (BGG thread 1182761).",
    title="Boatswain ferry",
    labels=(
        "As many as fit",
        "Any number of one colour",
    ),
    summary="How many waiting Vikings one Boatswain may bring to the islands.",
)

ZERO_MAJORITY = RuleOption(
    "zero_majority",
    "nobody",
    ("nobody", "all_tied"),
    "nobody: a majority award (Boatswains, completed islands) needs at least one; when everyone has none, "
    "nobody scores. all_tied: everyone tied at zero shares the award (the literal tie rule).",
    title="Majority awards when nobody has any",
    labels=("Nobody scores", "Everyone tied at zero shares"),
    summary="Whether a majority award is shared out when every player has none.",
)

FAME_FLOOR = RuleOption(
    "fame_floor",
    "none",
    ("none", "zero"),
    "none: end-game penalties (ships, underfeeding) may take Fame below 0; rules/000 caps only the Fame-for-"
    "Gold exchange. zero: penalties stop at 0 Fame.",
    title="Fame below zero",
    labels=("Penalties may take Fame below 0", "Penalties stop at 0 Fame"),
    summary="Whether end-game penalties may take a player's Fame below zero.",
)

BASE_OPTIONS = (SHIP_ROW, VIKING_PLACEMENT, FERRY, ZERO_MAJORITY, FAME_FLOOR)

VARIANT = RuleOption(
    "variant",
    "base",
    ("base", "advanced"),
    "base: the standard game. advanced: the supplementary sheet of rules/000 — a Boatswain moves a single Viking "
    "(a Boat special tile restores the standard ferry), the 25 special tiles, and (option auction) the auction.",
    title="Base or advanced game",
    labels=("Base game", "Advanced game (auction and the 25 special tiles)"),
    summary="The advanced game adds the 25 special tiles, the auction and a ferry of one Viking per Boatswain.",
    primary=True,
)

AUCTION = RuleOption(
    "auction",
    "on",
    ("on", "off"),
    "Advanced game only. on: each round 13 Vikings are drawn and auctioned for the Start Player Ship, the winner "
    'removes one, and players choose colours to lay from space 11 down. off: "Players can also choose to play the '
    'advanced game without the preceding auction and offer preparation rules" (rules/000).',
    title="Auction (advanced game)",
    labels=("Auction", "No auction"),
    summary="In the advanced game, whether each round opens with an auction for the Start Player Ship.",
)

BUILDING_CHOICE = RuleOption(
    "building_choice",
    "at_purchase",
    ("at_purchase", "after_placing"),
    "Advanced game only. at_purchase: a Building tile taken with a purchase replaces a matching island tile already "
    "on the Mainland at once (the special tile comes with the purchase, rules/000 Example 3). after_placing: when "
    "the bought Group's own tile shows the same building, the choice waits until that tile is placed, so it may be "
    'the one replaced ("Upon purchasing, the player immediately adds the tile", rules/000 p.2).',
    title="Building tile replacement (advanced game)",
    labels=("At purchase", "After placing the bought tile"),
    summary="In the advanced game, when a bought Building tile picks the island tile it replaces.",
)

OPTIONS = (*BASE_OPTIONS, VARIANT, AUCTION, BUILDING_CHOICE)
