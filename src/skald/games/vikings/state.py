"""A position of Vikings and the flow of a round, as the rulebook's pages read: offer, purchases, scoring.

A round (rules/000 p.2):
  1. the offer — 12 tiles drawn (islands from space 0 up, ships from 11 down), then 12 Vikings drawn and laid
     from space 0 in the colour order blue, yellow, green, red, black, grey (both are chance nodes);
  2. purchases — from the start player clockwise, each buys one Group, places its tile (and, on her first
     purchase, her start tile, in either order) and then its Viking, until the 12 Groups are gone;
  3. scoring — small after rounds 1, 3, 5; large after 2, 4, 6, each player in turn ferrying with Boatswains
     and then scoring; the start player passes clockwise. After round 6, the end-game scoring.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from skald.engine import CHANCE, TERMINAL, GameLike, IllegalAction, JSONDict
from skald.games.vikings import actions as A
from skald.games.vikings import tensor
from skald.games.vikings.advanced import AdvancedSteps
from skald.games.vikings.components import (
    BAG_COUNTS,
    BOAT,
    COLOUR_OF_ROW,
    EMPTY,
    FIRST_SHIP,
    GREY,
    GROUPS_PER_ROUND,
    ISLAND_ROWS,
    LARGE_SCORING_ROUNDS,
    LEFT,
    MAX_COLUMNS,
    NUM_COLOURS,
    ROUNDS,
    ROW_OF_COLOUR,
    STACK_COUNTS,
    STARTING_FAME,
    STARTING_GOLD,
    VIKINGS,
    is_ship,
    tile_name,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.scoring import (
    ScoreReport,
    apply_lines,
    end_scoring,
    large_scoring,
    small_scoring,
)

if TYPE_CHECKING:
    import random

    import numpy as np
    import numpy.typing as npt

from skald.games.vikings.steps import (
    BUY,
    DRAW_SPECIALS,
    DRAW_TILES,
    DRAW_VIKINGS,
    FERRY,
    GAME_OVER,
    LAND,
    PLACE_TILE,
    PLACE_VIKING,
    STEP_NAMES,
    TAKE_SPECIAL,
)

PURCHASING = "rules/000 p.2, Purchasing Groups"
PLACING = "rules/000 p.3, Placing tiles and Vikings"
FERRYING = "rules/000 p.4, Large scoring step 1: Boatswains"


@lru_cache(maxsize=8192)  # the round-6 search for the most Vikings a player can ferry asks the same ones again
def _ferry_effect(action: int, movable: tuple[int, ...], single: bool) -> tuple[int, tuple[int, ...]]:
    """How many Vikings one ferry moves (as_many_as_fit), and what stays movable after it.

    `single`: the advanced game, where a Boatswain without a Boat moves exactly one Viking.
    """
    if action in (A.FERRY_EACH, A.BOAT_FERRY_EACH):
        return sum(1 for n in movable if n), tuple(max(0, n - 1) for n in movable)
    boat = action >= A.BOAT_FERRY
    colour = action - (A.BOAT_FERRY if boat else A.FERRY)
    moved = 1 if single and not boat else movable[colour]
    return moved, tuple(n - moved if c == colour else n for c, n in enumerate(movable))


def ferry_options(movable: tuple[int, ...], single: bool, boats: int) -> list[int]:
    """The ferries possible with these movable Vikings: colours and each, Boat ferries when a Boat is at hand."""
    colours = [c for c, n in enumerate(movable) if n]
    if not colours:
        return []
    found = [A.FERRY + c for c in colours]
    if not single:
        found.append(A.FERRY_EACH)
    elif boats:
        found += [A.BOAT_FERRY + c for c in colours] + [A.BOAT_FERRY_EACH]
    return found


@lru_cache(maxsize=8192)
def most_ferried(boatswains: int, movable: tuple[int, ...], single: bool = False, boats: int = 0) -> int:
    """The most Vikings `boatswains` Boatswains (and `boats` Boat tiles) can move, given what could find a tile."""
    if boatswains <= 0:
        return 0
    best = 0
    for action in ferry_options(movable, single, boats):
        moved, after = _ferry_effect(action, movable, single)
        used_boat = 1 if action >= A.BOAT_FERRY else 0
        best = max(best, moved + most_ferried(boatswains - 1, after, single, boats - used_boat))
    return best


class VikingsState(AdvancedSteps):
    """A position of the Vikings base game for 2–4 players."""

    def __init__(
        self, game: GameLike, num_players: int, options: dict[str, Any], source: VikingsState | None = None
    ) -> None:
        if source is not None:
            self._copy(source)
            return
        self.game = game
        self.num_players = num_players
        self.options = options
        self.history: list[int] = []
        #: The position the history starts from, when `game.state_from_position` made this state (else None).
        self.origin: JSONDict | None = None
        self._touching = options["ship_row"] == "touching"
        self._any_tile = options["viking_placement"] == "any_tile_in_row"
        self._ferry_any = options["ferry"] == "any_number"
        self.advanced = options["variant"] == "advanced"
        self.auction = self.advanced and options["auction"] == "on"
        self._building_after_placing = options["building_choice"] == "after_placing"
        gold = STARTING_GOLD[num_players]
        self.lands = [Mainland(gold, STARTING_FAME) for _ in range(num_players)]
        self.round = 1
        #: Tiles still face down in the stacks, by type; Vikings still in the bag, by colour.
        self.pool = list(STACK_COUNTS)
        self.bag = list(BAG_COUNTS)
        #: The wheel: a tile and a Viking colour on each of the 12 spaces; price = space − offset.
        self.wheel_tiles = [EMPTY] * GROUPS_PER_ROUND
        self.wheel_vikings = [EMPTY] * GROUPS_PER_ROUND
        self.offset = 0
        self.drawn = [0] * NUM_COLOURS
        self.step = DRAW_TILES
        self.to_move = 0
        self.purchases = 0
        #: The Group being placed: its tile (EMPTY once placed or discarded), its Viking, where its tile went.
        self.pending_tile = EMPTY
        self.pending_viking = EMPTY
        self.placed_at = -1
        #: Large scoring: which player in turn order is ferrying, what her current ferry still carries.
        self.scoring_index = 0
        self.ferry_load = [0] * NUM_COLOURS
        self.ferry_landed = 0
        self.discarded: list[int] = []
        self.boatswains_spent = [0] * num_players
        self.reports: list[ScoreReport] = []
        #: The holder of the Start Player Ship.
        self.start = 0
        #: What `tensor.encode_array` last wrote for this State, to catch up from; not part of the game.
        self.tensor_memo: Any = None
        self._init_advanced()
        self._begin_round()

    # -- the contract ---------------------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE while the offer is drawn, TERMINAL after the end-game scoring."""
        step = self.step
        # CHANCE_STEPS spelled out (steps.py numbers the draws 0, 1 and DRAW_SPECIALS): no set lookup per action.
        if step <= DRAW_VIKINGS or step == DRAW_SPECIALS:
            return CHANCE
        if step == GAME_OVER:
            return TERMINAL
        return self.to_move

    @property
    def start_player(self) -> int:
        """The holder of the Start Player Ship: passed clockwise after each scoring, or won at the auction."""
        return self.start

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next tile from the stacks, Viking from the bag or special tile, each by its share of what is left."""
        if self.step == DRAW_TILES:
            counts, base = self.pool, A.DRAW_TILE
        elif self.step == DRAW_VIKINGS:
            counts, base = self.bag, A.DRAW_VIKING
        elif self.step == DRAW_SPECIALS:
            counts, base = self.specials_pool, A.DRAW_SPECIAL
        else:
            return []
        total = sum(counts)
        return [(base + kind, n / total) for kind, n in enumerate(counts) if n]

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """The next tile, Viking or special tile drawn by its share of what is left, without building the list of
        outcomes: the same sums in the same order as walking `chance_outcomes()`, so the same draw for the same rng."""
        step = self.step
        if step == DRAW_TILES:
            counts, base = self.pool, A.DRAW_TILE
        elif step == DRAW_VIKINGS:
            counts, base = self.bag, A.DRAW_VIKING
        elif step == DRAW_SPECIALS:
            counts, base = self.specials_pool, A.DRAW_SPECIAL
        else:
            return super().sample_chance_outcome(rng)  # not a chance node: the contract's own answer
        total = sum(counts)
        pick = rng.random()
        running = 0.0
        last = 0
        for kind, n in enumerate(counts):
            if n:
                running += n / total
                if pick < running:
                    return base + kind
                last = kind
        return base + last

    def legal_actions(self) -> list[int]:
        """The legal actions in ascending id order."""
        step = self.step
        if step == BUY:
            return self._buyable()  # A.BUY is 0: an action id is its price
        if step <= DRAW_VIKINGS or step == DRAW_SPECIALS:
            return [action for action, _ in self.chance_outcomes()]
        if step > GAME_OVER:
            return self._advanced_legal_actions()
        land = self.lands[self.to_move]
        if step == PLACE_TILE:
            found = []
            tile = self.pending_tile
            if tile != EMPTY:
                # Both come in ascending order already: ship columns, and island squares row by row.
                if tile >= FIRST_SHIP:
                    found = [A.SHIP + col - 1 for col in land.ship_columns_open(self._touching)]
                else:
                    found = [A.ISLAND + offset for offset in land.island_offsets(tile)]
            if not land.start_placed:
                found += [A.START + row - 1 for row in ISLAND_ROWS if land.island_reason(LEFT, row, 1) is None]
                found.sort()
            return found
        if step == PLACE_VIKING:
            placed = self.placed_at
            row = ROW_OF_COLOUR[self.pending_viking]
            if not self._any_tile and placed >= MAX_COLUMNS and placed // MAX_COLUMNS == row:
                # `_viking_targets()` written out: the square of the tile just placed, in the Viking's row.
                return [A.VIKING + placed - MAX_COLUMNS, A.HEAD]
            return [A.VIKING + sq for sq in self._viking_targets()] + [A.HEAD]
        if step == FERRY:
            found = []
            if land.head[GREY]:
                movable = self._movable()
                single, boats = self.advanced, land.specials[BOAT]
                found = ferry_options(movable, single, boats)
                if found and self._must_maximise():
                    # `_ferry_is_maximal` for each, with what they share worked out once.
                    best = most_ferried(land.head[GREY], movable, single, boats)
                    found = [a for a in found if self._moves_most(a, movable, best)]
            if not self._ferry_compulsory():
                found.append(A.DONE)
            return sorted(found)
        if step == LAND:
            found = [A.VIKING + sq for sq in self._landing_squares()]
            if self._ferry_any and self.ferry_landed:
                found.append(A.DONE)
            return found
        return []

    def illegal_reason(self, action: int) -> IllegalAction | None:
        """Why `action` is illegal here, naming the rule; None when legal. Never changes the state."""
        if not isinstance(action, int) or not 0 <= action < A.NUM_ACTIONS:
            return IllegalAction("action.space", f"{action!r} is not a Vikings action id (0–{A.NUM_ACTIONS - 1})")
        step = self.step
        if step == DRAW_TILES:
            if A.DRAW_TILE <= action < A.DRAW_VIKING:
                if self.pool[action - A.DRAW_TILE]:
                    return None
                return IllegalAction("offer.stacks", f"no {A.to_json(action)['tile']} tile is left face down")
            return self._wrong_step(action)
        if step == DRAW_VIKINGS:
            if A.DRAW_VIKING <= action < A.DRAW_SPECIAL:
                if self.bag[action - A.DRAW_VIKING]:
                    return None
                return IllegalAction("offer.bag", f"no {A.to_json(action)['colour']} Viking is left in the bag")
            return self._wrong_step(action)
        if step == GAME_OVER:
            return IllegalAction("game.over", "the game is over")
        if step > GAME_OVER:
            return self._advanced_reason(action)
        if step == BUY:
            if A.BUY <= action < A.SHIP:
                return self._buy_reason(action - A.BUY)
            return self._wrong_step(action)
        land = self.lands[self.to_move]
        if step == PLACE_TILE:
            return self._place_reason(land, action)
        if step == PLACE_VIKING:
            if action == A.HEAD:
                return None
            if A.VIKING <= action < A.HEAD:
                return self._viking_reason(land, action - A.VIKING)
            return self._wrong_step(action)
        if step == FERRY:
            return self._ferry_reason(land, action)
        if step == LAND:
            return self._land_reason(land, action)
        return self._wrong_step(action)

    def _apply(self, action: int) -> None:
        step = self.step
        if step > GAME_OVER:
            self._advanced_apply(action)
        elif step == DRAW_TILES:
            self._draw_tile(action - A.DRAW_TILE)
        elif step == DRAW_VIKINGS:
            self._draw_viking(action - A.DRAW_VIKING)
        elif step == BUY:
            self._buy(action - A.BUY)
        elif step == PLACE_TILE:
            self._place_tile(action)
        elif step == PLACE_VIKING:
            if action != A.HEAD:
                self._put_viking(action - A.VIKING)
            else:
                self.lands[self.to_move].head[self.pending_viking] += 1
            self._end_turn()
        elif step == FERRY:
            if action == A.DONE:
                self._finish_ferrying()
            else:
                self._start_ferry(action)
        elif step == LAND:
            if action == A.DONE:
                self.ferry_load = [0] * NUM_COLOURS
                self._ferry_step()
            else:
                self._land(action - A.VIKING)

    def clone(self) -> VikingsState:
        """An independent copy; scoring reports are immutable and shared."""
        return VikingsState(self.game, self.num_players, self.options, self)

    def _copy(self, source: VikingsState) -> None:
        """Become an independent copy of `source` (every field, listed: a compiled class has no `__dict__`)."""
        self.game = source.game
        self.num_players = source.num_players
        self.options = source.options
        self.history = source.history[:]
        self.origin = source.origin
        self._touching = source._touching
        self._any_tile = source._any_tile
        self._ferry_any = source._ferry_any
        self.advanced = source.advanced
        self.auction = source.auction
        self._building_after_placing = source._building_after_placing
        self.lands = [Mainland(0, 0, land) for land in source.lands]
        self.round = source.round
        self.pool = source.pool[:]
        self.bag = source.bag[:]
        self.wheel_tiles = source.wheel_tiles[:]
        self.wheel_vikings = source.wheel_vikings[:]
        self.offset = source.offset
        self.drawn = source.drawn[:]
        self.step = source.step
        self.to_move = source.to_move
        self.purchases = source.purchases
        self.pending_tile = source.pending_tile
        self.pending_viking = source.pending_viking
        self.placed_at = source.placed_at
        self.scoring_index = source.scoring_index
        self.ferry_load = source.ferry_load[:]
        self.ferry_landed = source.ferry_landed
        self.discarded = source.discarded[:]
        self.boatswains_spent = source.boatswains_spent[:]
        self.reports = source.reports[:]
        self.start = source.start
        self.tensor_memo = None
        self.specials_pool = source.specials_pool[:]
        self.face_up = source.face_up[:]
        self.specials_spent = source.specials_spent
        self.high_bid = source.high_bid
        self.high_bidder = source.high_bidder
        self.bidding = source.bidding[:]
        self.removed_vikings = source.removed_vikings
        self.pending_special = source.pending_special

    def scores(self) -> list[int]:
        """Each player's Fame."""
        return [land.fame for land in self.lands]

    def winners(self) -> list[int]:
        """Most Fame; tied, most Gold; still tied, the victory is shared (rules/000 p.5, Game End)."""
        if self.step != GAME_OVER:
            return []
        best = max((land.fame, land.gold) for land in self.lands)
        return [seat for seat, land in enumerate(self.lands) if (land.fame, land.gold) == best]

    def returns(self) -> list[float]:
        """1/k to each of the k winners, 0 to the others; all 0 before the end."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.num_players)]

    def to_position(self) -> JSONDict:
        """The position as JSON (docs/vikings-positions.md); `game.state_from_position` reads it back."""
        from skald.games.vikings.position import state_to_dict

        return state_to_dict(self)

    def start_position(self) -> JSONDict | None:
        """The position the history starts from, or None from the setup."""
        return self.origin

    def observation(self, seat: int | None) -> JSONDict:
        """Everything on the table as seen from `seat`; the stacks and the bag only as the counts anyone can tally."""
        from skald.games.vikings.position import state_to_dict

        view = state_to_dict(self)
        view["seat"] = -1 if seat is None else seat
        return view

    def observation_tensor(self, seat: int) -> list[float]:
        """The observation as a flat list of floats (see `skald.games.vikings.tensor`, docs/rl-observation.md)."""
        return tensor.encode(self, seat)

    def observation_array(self, seat: int) -> npt.NDArray[np.float32]:
        """`observation_tensor(seat)` as a float32 numpy array, written directly (needs numpy)."""
        return tensor.encode_array(self, seat)

    def scorings(self) -> list[JSONDict]:
        """Every scoring so far with its itemised lines (Fame and Gold per Viking, ship or award)."""
        return [report.to_json() for report in self.reports]

    def action_to_json(self, action: int) -> JSONDict:
        """The action's JSON form."""
        return A.to_json(action)

    def action_from_json(self, data: Any) -> int:
        """Parse an action's JSON form."""
        return A.from_json(data)

    def action_to_notation(self, action: int) -> str:
        """The action's notation."""
        return A.to_notation(action)

    def action_from_notation(self, text: str) -> int:
        """Parse notation; a bare number buys at that price, a bare square means this step's tile or Viking."""
        words = text.strip().split()
        if len(words) == 1:
            word = words[0]
            if self.step == BUY and word.isascii() and word.isdecimal():
                return A.from_notation(f"buy {word}")
            if self.step in (PLACE_TILE, PLACE_VIKING, LAND) and word[:1].isalpha() and word[1:].isdigit():
                row, col = A.parse_square(word)
                return A.island(row, col) if self.step == PLACE_TILE else A.viking(row, col)
        return A.from_notation(text)

    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        """The table as text (see `skald.games.vikings.render`); everything on it is public, whoever looks."""
        from skald.games.vikings.render import render_text

        return render_text(self, color)

    # -- describing the current step -------------------------------------------------------------------------

    def step_name(self) -> str:
        """What happens now, in a few words."""
        return STEP_NAMES[self.step]

    def _wrong_step(self, action: int) -> IllegalAction:
        return IllegalAction(
            "turn.step",
            f"'{A.to_notation(action)}' is not a choice now: the step is '{STEP_NAMES[self.step]}'",
        )

    # -- the offer (rules/000 p.2) ----------------------------------------------------------------------------

    def _draw_tile(self, tile: int) -> None:
        self.pool[tile] -= 1
        if tile >= FIRST_SHIP:  # is_ship(tile)
            # Ships fill the highest free spaces from 11 down.
            space = GROUPS_PER_ROUND - 1
            while self.wheel_tiles[space] != EMPTY:
                space -= 1
        else:
            space = self.wheel_tiles.index(EMPTY)  # islands fill the lowest free space
        self.wheel_tiles[space] = tile
        if EMPTY not in self.wheel_tiles:
            if self.auction:
                self._start_colour_placement()
            else:
                self.step = DRAW_VIKINGS

    def _begin_offer(self) -> None:
        """The offer: tiles then 12 Vikings; with the auction, 13 Vikings first (rules/000 advanced rules)."""
        self.offset = 0
        self.step = DRAW_VIKINGS if self.auction else DRAW_TILES

    def _draw_viking(self, colour: int) -> None:
        self.bag[colour] -= 1
        self.drawn[colour] += 1
        if self.auction:
            if sum(self.drawn) == GROUPS_PER_ROUND + 1:
                self._start_auction()
            return
        if sum(self.drawn) < GROUPS_PER_ROUND:
            return
        # Sorted by colour and laid from space 0 upward.
        space = 0
        for c in range(NUM_COLOURS):
            for _ in range(self.drawn[c]):
                self.wheel_vikings[space] = c
                space += 1
        self.drawn = [0] * NUM_COLOURS
        self.offset = 0
        self.step = BUY
        self.to_move = self.start_player

    # -- purchases (rules/000 p.2) -----------------------------------------------------------------------------

    def price_of(self, space: int) -> int:
        """The price of the Group on wheel space `space`."""
        return space - self.offset

    def _zero_allowed(self, gold: int) -> bool:
        """The 0-Group: only when its Viking is the last of its colour, or nothing else is affordable with Gold."""
        offset = self.offset
        colour = self.wheel_vikings[offset]
        if self.wheel_vikings.count(colour) == 1:
            return True
        tiles = self.wheel_tiles
        # A plain loop rather than all(generator): this runs at every purchase.
        for space in range(offset + 1, min(GROUPS_PER_ROUND, offset + gold + 1)):  # noqa: SIM110
            if tiles[space] != EMPTY:
                return False  # a Group at a price within Gold alone
        return True

    def _buyable(self) -> list[int]:
        """The prices that may be paid now, ascending (with A.BUY == 0, also the BUY action ids)."""
        land = self.lands[self.to_move]
        offset = self.offset
        tiles = self.wheel_tiles
        prices = [
            space - offset
            for space in range(offset + 1, min(GROUPS_PER_ROUND, offset + land.gold + land.fame + 1))
            if tiles[space] != EMPTY
        ]
        if self._zero_allowed(land.gold):
            prices.insert(0, 0)
        return prices

    def _buy_reason(self, price: int) -> IllegalAction | None:
        space = price + self.offset
        if space >= GROUPS_PER_ROUND or self.wheel_tiles[space] == EMPTY:
            return IllegalAction("purchase.price", f"no Group on the wheel costs {price} now")
        land = self.lands[self.to_move]
        if price > land.gold + land.fame:
            return IllegalAction(
                "purchase.afford",
                f"the Group costs {price} but you have {land.gold} Gold and {land.fame} Fame to exchange; "
                f"Fame may never go below 0 ({PURCHASING})",
            )
        if price == 0 and not self._zero_allowed(land.gold):
            colour = VIKINGS[self.wheel_vikings[space]]
            return IllegalAction(
                "purchase.zero_space",
                f"the Group on space 0 may be bought only when its {colour.role} is the last {colour.colour} "
                f"Viking on the wheel, or when no other Group is affordable with Gold alone ({PURCHASING})",
            )
        return None

    def _buy(self, price: int) -> None:
        space = price + self.offset
        land = self.lands[self.to_move]
        may_take_special = self.advanced and self._takes_special(space)
        land.pay(price)
        self.pending_tile = self.wheel_tiles[space]
        self.pending_viking = self.wheel_vikings[space]
        self.wheel_tiles[space] = EMPTY
        self.wheel_vikings[space] = EMPTY
        self.placed_at = -1
        if price == 0:
            # The wheel turns until a Group stands on 0 again: every remaining price falls.
            while self.offset < GROUPS_PER_ROUND and self.wheel_tiles[self.offset] == EMPTY:
                self.offset += 1
        if may_take_special:
            self.step = TAKE_SPECIAL
        else:
            self._tile_step()

    def _tile_step(self) -> None:
        """Place the bought tile (and the start tile on a first purchase); a tile with no legal place is discarded."""
        land = self.lands[self.to_move]
        tile = self.pending_tile
        if tile == EMPTY:
            if land.start_placed:
                self._viking_step()
                return
        elif land.start_placed:
            placeable = (
                bool(land.ship_columns_open(self._touching)) if tile >= FIRST_SHIP else bool(land.island_offsets(tile))
            )
            if not placeable:
                self.discarded.append(tile)
                self.pending_tile = EMPTY
                if self.pending_special != EMPTY and self._choose_deferred_building():
                    return
                self._viking_step()
                return
        self.step = PLACE_TILE

    def _place_reason(self, land: Mainland, action: int) -> IllegalAction | None:
        tile = self.pending_tile
        if A.START <= action < A.VIKING:
            if land.start_placed:
                return IllegalAction("start.once", "your start tile is already placed")
            row = action - A.START + 1
            found = land.island_reason(LEFT, row, 1)
            if found:
                return IllegalAction(f"start.{found[0].split('.')[-1]}", f"start tile: {found[1]}")
            return None
        if A.SHIP <= action < A.ISLAND:
            if tile == EMPTY:
                return IllegalAction("start.pending", "your bought tile is placed; now place your start tile")
            if not is_ship(tile):
                return IllegalAction(
                    "placement.island_rows", f"a {tile_name(tile)} goes in one of the five Viking rows ({PLACING})"
                )
            found = land.ship_reason(action - A.SHIP + 1, self._touching)
            return IllegalAction(*found) if found else None
        if A.ISLAND <= action < A.START:
            if tile == EMPTY:
                return IllegalAction("start.pending", "your bought tile is placed; now place your start tile")
            if is_ship(tile):
                return IllegalAction("placement.ship_row", f"a Ship tile must be placed in the Ship row ({PLACING})")
            row, col = A.square_of(action - A.ISLAND)
            found = land.island_reason(tile, row, col)
            return IllegalAction(*found) if found else None
        return self._wrong_step(action)

    def _place_tile(self, action: int) -> None:
        land = self.lands[self.to_move]
        if A.START <= action < A.VIKING:
            land.place_island(LEFT, action - A.START + 1, 1)
            land.start_placed = True
        elif action < A.ISLAND:
            land.place_ship(self.pending_tile, action - A.SHIP + 1)
            self.pending_tile = EMPTY
        else:
            offset = action - A.ISLAND  # A.square_of(offset), written out
            row = offset // MAX_COLUMNS + 1
            land.place_island(self.pending_tile, row, offset % MAX_COLUMNS + 1)
            self.placed_at = offset + MAX_COLUMNS
            if land.waiting:
                self._swap_in_waiting_building(land, self.pending_tile, self.placed_at)
            self.pending_tile = EMPTY
            if self.pending_special != EMPTY and self._choose_deferred_building():
                return
        self._tile_step()

    # -- the bought Viking (rules/000 p.3) -------------------------------------------------------------------

    def _viking_targets(self) -> list[int]:
        """Square offsets (in the VIKING block) where the bought Viking may stand."""
        colour = self.pending_viking
        row = ROW_OF_COLOUR[colour]
        if row == 0:
            return []
        if self.placed_at < 0 or self.placed_at // MAX_COLUMNS != row:
            return []  # a ship's Viking, a discarded tile's, or one whose tile went to another row
        if self._any_tile:
            base = (row - 1) * MAX_COLUMNS - 1  # A.square_index(row, col) is base + col
            return [base + col for col in self.lands[self.to_move].free_tiles(row)]
        return [(row - 1) * MAX_COLUMNS + self.placed_at % MAX_COLUMNS]

    def _viking_step(self) -> None:
        row = ROW_OF_COLOUR[self.pending_viking]
        placed = self.placed_at
        # `_viking_targets()` is not empty: without any_tile_in_row it is the square just placed (asked without
        # building the list, as every purchase comes here).
        if row and placed >= 0 and placed // MAX_COLUMNS == row and (not self._any_tile or self._viking_targets()):
            self.step = PLACE_VIKING
        else:
            # A Boatswain, a ship's Viking, or one whose tile is elsewhere: to the Head Boatswain.
            self.lands[self.to_move].head[self.pending_viking] += 1
            self._end_turn()

    def _viking_reason(self, land: Mainland, square: int) -> IllegalAction | None:
        if square in self._viking_targets():
            return None
        row, col = A.square_of(square)
        colour = VIKINGS[self.pending_viking]
        if row != colour.row:
            return IllegalAction(
                "viking.row",
                f"a {colour.role} may be placed only on an island tile in the {colour.role} row ({PLACING})",
            )
        if land.tile(row, col) == EMPTY:
            return IllegalAction("viking.no_tile", f"{A.square_name(row, col)} has no island tile")
        if land.viking(row, col) != EMPTY:
            return IllegalAction("viking.one_per_tile", f"only one Viking may stand on each island tile ({PLACING})")
        return IllegalAction(
            "viking.bought_tile",
            f"a bought Viking may stand only on the tile bought with it ({PLACING}); "
            "otherwise it goes to the Head Boatswain",
        )

    def _put_viking(self, square: int) -> None:
        self.lands[self.to_move].put_viking(self.pending_viking, square // MAX_COLUMNS + 1, square % MAX_COLUMNS + 1)

    def _end_turn(self) -> None:
        self.pending_viking = EMPTY
        self.placed_at = -1
        self.purchases += 1
        if self.purchases < GROUPS_PER_ROUND:
            self.to_move = (self.to_move + 1) % self.num_players
            self.step = BUY
            return
        self.purchases = 0
        if self.round in LARGE_SCORING_ROUNDS:
            self.scoring_index = 0
            self._ferry_step()
        else:
            order = self.turn_order()
            lines = [line for seat in order for line in small_scoring(seat, self.lands[seat])]
            apply_lines(self.lands, lines)
            self.reports.append(ScoreReport(self.round, "small", tuple(lines)))
            self._next_round()

    def turn_order(self) -> list[int]:
        """Seats from this round's start player clockwise."""
        return [(self.start + k) % self.num_players for k in range(self.num_players)]

    # -- large scoring: the Boatswains ferry, then the player scores (rules/000 p.4) -----------------------------

    def _ferry_colours(self) -> list[int]:
        """Colours a Boatswain of the player to move could ferry now."""
        land = self.lands[self.to_move]
        if land.head[GREY] == 0:
            return []
        head, free = land.head, land.free  # count_free(row) is free[row]
        return [c for c in range(GREY) if head[c] and free[ROW_OF_COLOUR[c]]]

    def _ferry_compulsory(self) -> bool:
        return self.round == ROUNDS and bool(self._ferry_colours())

    def _must_maximise(self) -> bool:
        return self.round == ROUNDS and not self._ferry_any

    def _movable(self) -> tuple[int, ...]:
        """Per colour, how many waiting Vikings could still find a free tile."""
        land = self.lands[self.to_move]
        head, free = land.head, land.free
        return (
            min(head[0], free[ROW_OF_COLOUR[0]]),
            min(head[1], free[ROW_OF_COLOUR[1]]),
            min(head[2], free[ROW_OF_COLOUR[2]]),
            min(head[3], free[ROW_OF_COLOUR[3]]),
            min(head[4], free[ROW_OF_COLOUR[4]]),
        )  # the five colours below GREY, written out: ferrying asks this often

    def _ferry_is_maximal(self, action: int) -> bool:
        """Whether this ferry still lets the player move as many Vikings as her Boatswains possibly can."""
        land = self.lands[self.to_move]
        boatswains, boats, single = land.head[GREY], land.specials[BOAT], self.advanced
        movable = self._movable()
        return self._moves_most(action, movable, most_ferried(boatswains, movable, single, boats))

    def _moves_most(self, action: int, movable: tuple[int, ...], best: int) -> bool:
        """Whether, after this ferry, the player's Boatswains can still move `best` Vikings in all."""
        land = self.lands[self.to_move]
        single = self.advanced
        moved, after = _ferry_effect(action, movable, single)
        boats = land.specials[BOAT] - (1 if action >= A.BOAT_FERRY else 0)
        return moved + most_ferried(land.head[GREY] - 1, after, single, boats) == best

    def _ferry_step(self) -> None:
        """Next ferrying decision of the scoring player, or score her and move on."""
        while self.scoring_index < self.num_players:
            seat = (self.start + self.scoring_index) % self.num_players  # turn_order()[self.scoring_index]
            self.to_move = seat
            if self._ferry_colours():
                self.step = FERRY
                return
            self._score_large(seat)
        self._next_round()

    def _score_large(self, seat: int) -> None:
        lines = large_scoring(seat, self.lands[seat])
        apply_lines(self.lands, lines)
        if self.reports and self.reports[-1].round == self.round and self.reports[-1].when == "large":
            previous = self.reports.pop()
            lines = list(previous.lines) + lines
        self.reports.append(ScoreReport(self.round, "large", tuple(lines)))
        self.scoring_index += 1

    def _finish_ferrying(self) -> None:
        self._score_large(self.to_move)
        self._ferry_step()

    def _ferry_reason(self, land: Mainland, action: int) -> IllegalAction | None:
        if action == A.DONE:
            if self._ferry_compulsory():
                return IllegalAction(
                    "ferry.compulsory",
                    "at the large scoring of round 6 each player must use her Boatswains to move as many Vikings "
                    f"as possible onto unoccupied island tiles ({FERRYING})",
                )
            return None
        boat = A.BOAT_FERRY <= action <= A.BOAT_FERRY_EACH
        if not (A.FERRY <= action <= A.FERRY_EACH or boat):
            return self._wrong_step(action)
        if land.head[GREY] == 0:
            return IllegalAction("ferry.no_boatswain", "you have no Boatswain with the Head Boatswain")
        if boat and not self.advanced:
            return IllegalAction("ferry.boat", "Boat special tiles belong to the advanced game (rule option variant)")
        if boat and not land.specials[BOAT]:
            return IllegalAction("ferry.boat", "you have no Boat special tile")
        if action == A.FERRY_EACH and self.advanced:
            return IllegalAction(
                "ferry.single",
                "in the advanced game a Boatswain may only move a single Viking; a Boat special tile restores the "
                "standard ferry (rules/000, advanced rules: Boatswain)",
            )
        colours = self._ferry_colours()
        if colours and self._must_maximise() and not self._ferry_is_maximal(action):
            return IllegalAction(
                "ferry.as_many_as_possible",
                "at the large scoring of round 6 each player must use her Boatswains to move as many Vikings as "
                f"possible; another choice of ferries moves more ({FERRYING})",
            )
        if action in (A.FERRY_EACH, A.BOAT_FERRY_EACH):
            return None if colours else IllegalAction("ferry.nothing", "no waiting Viking has a free tile")
        colour = action - (A.BOAT_FERRY if boat else A.FERRY)
        if colour in colours:
            return None
        kind = VIKINGS[colour]
        if not land.head[colour]:
            return IllegalAction("ferry.none_waiting", f"no {kind.role} waits with the Head Boatswain")
        return IllegalAction("ferry.no_free_tile", f"the {kind.role} row has no unoccupied island tile ({FERRYING})")

    def _start_ferry(self, action: int) -> None:
        land = self.lands[self.to_move]
        land.head[GREY] -= 1
        self.boatswains_spent[self.to_move] += 1
        boat = action >= A.BOAT_FERRY
        if boat:
            # The Boat special tile leaves the game with its Boatswain.
            land.specials[BOAT] -= 1
            self.specials_spent += 1
        load = [0] * NUM_COLOURS
        if action in (A.FERRY_EACH, A.BOAT_FERRY_EACH):
            for c in self._ferry_colours_after_spend(land):
                load[c] = 1
        else:
            c = action - (A.BOAT_FERRY if boat else A.FERRY)
            load[c] = 1 if self.advanced and not boat else min(land.head[c], land.count_free(ROW_OF_COLOUR[c]))
        self.ferry_load = load
        self.ferry_landed = 0
        self._land_step()

    @staticmethod
    def _ferry_colours_after_spend(land: Mainland) -> list[int]:
        return [c for c in range(GREY) if land.head[c] and land.count_free(ROW_OF_COLOUR[c])]

    def _landing_squares(self) -> list[int]:
        land = self.lands[self.to_move]
        squares = []
        for c in range(GREY):
            if self.ferry_load[c]:
                row = ROW_OF_COLOUR[c]
                base = (row - 1) * MAX_COLUMNS - 1  # A.square_index(row, col) is base + col
                squares += [base + col for col in land.free_tiles(row)]
        return sorted(squares)

    def _land_step(self) -> None:
        """Land what the choice leaves no freedom over; ask where the rest go."""
        land = self.lands[self.to_move]
        if not self._ferry_any:
            for c in range(GREY):
                load = self.ferry_load[c]
                if load:
                    row = ROW_OF_COLOUR[c]
                    if load == land.free[row]:  # count_free(row)
                        for col in land.free_tiles(row):
                            self._land(A.square_index(row, col), advance=False)
        if any(self.ferry_load):
            self.step = LAND
        else:
            self._ferry_step()

    def _land_reason(self, land: Mainland, action: int) -> IllegalAction | None:
        if action == A.DONE:
            if not self._ferry_any:
                return IllegalAction(
                    "ferry.whole_load",
                    "one Boatswain moves all Vikings of one colour (as many as fit) or one of each colour "
                    f"({FERRYING}); rule option ferry=any_number allows stopping early",
                )
            if not self.ferry_landed:
                return IllegalAction("ferry.at_least_one", "a Boatswain must move at least one Viking")
            return None
        if not A.VIKING <= action < A.HEAD:
            return self._wrong_step(action)
        row, col = A.square_of(action - A.VIKING)
        colour = COLOUR_OF_ROW[row]
        if not self.ferry_load[colour]:
            return IllegalAction("ferry.load", f"this ferry carries no {VIKINGS[colour].role}")
        if land.tile(row, col) == EMPTY:
            return IllegalAction("viking.no_tile", f"{A.square_name(row, col)} has no island tile")
        if land.viking(row, col) != EMPTY:
            return IllegalAction("viking.one_per_tile", f"only one Viking may stand on each island tile ({PLACING})")
        return None

    def _land(self, square: int, advance: bool = True) -> None:
        row, col = A.square_of(square)
        colour = COLOUR_OF_ROW[row]
        land = self.lands[self.to_move]
        land.put_viking(colour, row, col)
        land.head[colour] -= 1
        self.ferry_load[colour] -= 1
        self.ferry_landed += 1
        if advance:
            self._land_step()

    # -- the next round, and the end (rules/000 p.5) -----------------------------------------------------------

    def _begin_round(self) -> None:
        """A round opens with the offer; the advanced game first refills the four face-up special tiles."""
        if self.advanced and EMPTY in self.face_up and any(self.specials_pool):
            self.step = DRAW_SPECIALS
        else:
            self._begin_offer()

    def _next_round(self) -> None:
        if self.round == ROUNDS:
            order = self.turn_order()
            lines = end_scoring(
                self.lands, order, self.options["zero_majority"] == "all_tied", self.options["fame_floor"] == "zero"
            )
            apply_lines(self.lands, lines)
            self.reports.append(ScoreReport(self.round, "end", tuple(lines)))
            self.step = GAME_OVER
            return
        self.round += 1
        self.start = (self.start + 1) % self.num_players
        self._begin_round()

    # -- conservation, for tests and checks ------------------------------------------------------------------

    def tile_census(self) -> int:
        """Tiles accounted for: in the stacks, on the wheel, being placed, on Mainlands and discarded."""
        on_wheel = sum(1 for t in self.wheel_tiles if t != EMPTY)
        pending = 1 if self.pending_tile != EMPTY else 0
        placed = sum(land.tile_count() - len(land.buildings) for land in self.lands)
        unplaced_start = sum(1 for land in self.lands if not land.start_placed)
        return sum(self.pool) + on_wheel + pending + placed + len(self.discarded) + unplaced_start

    def viking_census(self) -> int:
        """Vikings accounted for: bag, drawn, wheel, being placed, on Mainlands, ferry load, Boatswains spent."""
        on_wheel = sum(1 for v in self.wheel_vikings if v != EMPTY)
        pending = 1 if self.pending_viking != EMPTY else 0
        owned = sum(land.vikings_owned() for land in self.lands)
        spent = sum(self.boatswains_spent) + self.removed_vikings
        return sum(self.bag) + sum(self.drawn) + on_wheel + pending + owned + spent
