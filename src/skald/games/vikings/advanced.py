"""The advanced game's steps (rules/000, supplementary sheet): special tiles, the auction and colour placement.

A round of the advanced game with the auction reads:
  1. the empty face-up special tile spaces are refilled (chance);
  2. the start player draws 13 Vikings (chance); players bid for the Start Player Ship from the start player
     clockwise, raising or passing; the winner pays the bank, takes the ship and removes one of the 13;
  3. the 12 tiles are laid out as usual (chance); from the winner clockwise each player chooses a colour still
     on offer and lays all its Vikings on the highest free spaces from 11 down;
  4. purchases as in the base game — whoever buys the most expensive remaining Group may take a face-up special
     tile (never with the round's last Group, bought for 0).
"""

from __future__ import annotations

from skald.engine import IllegalAction, State
from skald.games.vikings import actions as A
from skald.games.vikings.components import (
    BUILDING_FIRST,
    EMPTY,
    FACE_UP_SPECIALS,
    GOLD5,
    GROUPS_PER_ROUND,
    MAX_COLUMNS,
    NUM_COLOURS,
    SPECIAL_COUNTS,
    SPECIALS,
    VIKINGS,
    building_of,
)
from skald.games.vikings.mainland import Mainland
from skald.games.vikings.steps import (
    AUCTION,
    BUY,
    DRAW_SPECIALS,
    DRAW_TILES,
    PLACE_COLOURS,
    REMOVE_VIKING,
    REPLACE_BUILDING,
    TAKE_SPECIAL,
)

ADVANCED = "rules/000, advanced rules"


class AdvancedSteps(State):
    """The advanced game's steps; `VikingsState` builds on it (one line of inheritance, so that it compiles)."""

    # Fields of VikingsState used here.
    num_players: int
    lands: list[Mainland]
    step: int
    to_move: int
    start: int
    advanced: bool
    _building_after_placing: bool
    drawn: list[int]
    wheel_tiles: list[int]
    wheel_vikings: list[int]
    offset: int
    pending_tile: int
    discarded: list[int]

    def _init_advanced(self) -> None:
        #: Special tiles face down (by type), face up (the four spaces), and those that have left the game.
        self.specials_pool = list(SPECIAL_COUNTS) if self.advanced else [0] * len(SPECIAL_COUNTS)
        self.face_up = [EMPTY] * FACE_UP_SPECIALS
        self.specials_spent = 0
        #: The auction: the highest bid so far (-1 before the opening bid), its bidder, who is still bidding.
        self.high_bid = -1
        self.high_bidder = -1
        self.bidding = [False] * self.num_players
        #: Vikings the auction's winners removed from the game.
        self.removed_vikings = 0
        #: A Building special tile whose island tile the player is choosing.
        self.pending_special = EMPTY

    # -- hooks into the base flow, defined by VikingsState ------------------------------------------------------

    def _begin_offer(self) -> None:
        raise NotImplementedError

    def _tile_step(self) -> None:
        raise NotImplementedError

    def _wrong_step(self, action: int) -> IllegalAction:
        raise NotImplementedError

    # -- dispatch -----------------------------------------------------------------------------------------------

    def _advanced_legal_actions(self) -> list[int]:

        step = self.step
        if step == AUCTION:
            land = self.lands[self.to_move]
            top = min(A.MAX_BID, land.gold + land.fame)
            found = [A.BID + bid for bid in range(self.high_bid + 1, top + 1)]
            return [*found, A.PASS] if self.high_bid >= 0 else found
        if step == REMOVE_VIKING:
            return [A.REMOVE + c for c in range(NUM_COLOURS) if self.drawn[c]]
        if step == PLACE_COLOURS:
            return [A.PLACE_COLOUR + c for c in range(NUM_COLOURS) if self.drawn[c]]
        if step == TAKE_SPECIAL:
            return [A.TAKE_SPECIAL + slot for slot in range(FACE_UP_SPECIALS) if self.face_up[slot] != EMPTY] + [
                A.DECLINE
            ]
        if step == REPLACE_BUILDING:
            land = self.lands[self.to_move]
            return sorted(
                A.REPLACE + index - MAX_COLUMNS for index in land.building_squares(building_of(self.pending_special))
            )
        return []

    def _advanced_reason(self, action: int) -> IllegalAction | None:

        step = self.step
        if step == DRAW_SPECIALS:
            if A.DRAW_SPECIAL <= action < A.BID:
                if self.specials_pool[action - A.DRAW_SPECIAL]:
                    return None
                return IllegalAction("specials.stacks", f"no {A.to_json(action)['special']} special tile is face down")
            return self._wrong_step(action)
        if step == AUCTION:
            return self._bid_reason(action)
        if step in (REMOVE_VIKING, PLACE_COLOURS):
            base = A.REMOVE if step == REMOVE_VIKING else A.PLACE_COLOUR
            if not base <= action < base + NUM_COLOURS:
                return self._wrong_step(action)
            if self.drawn[action - base]:
                return None
            return IllegalAction(
                "auction.colour", f"no {VIKINGS[action - base].colour} Viking is among those drawn and not yet laid"
            )
        if step == TAKE_SPECIAL:
            if action == A.DECLINE:
                return None
            if A.TAKE_SPECIAL <= action < A.DECLINE:
                if self.face_up[action - A.TAKE_SPECIAL] != EMPTY:
                    return None
                return IllegalAction("specials.empty", f"special tile space {action - A.TAKE_SPECIAL + 1} is empty")
            return self._wrong_step(action)
        if step == REPLACE_BUILDING:
            if action in self._advanced_legal_actions():
                return None
            if A.REPLACE <= action < A.BOAT_FERRY:
                return IllegalAction(
                    "specials.building",
                    "a Building tile replaces an island tile showing the same building "
                    f"({SPECIALS[self.pending_special].name}) ({ADVANCED}: Special tiles)",
                )
            return self._wrong_step(action)
        return self._wrong_step(action)

    def _advanced_apply(self, action: int) -> None:

        step = self.step
        if step == DRAW_SPECIALS:
            self._turn_up_special(action - A.DRAW_SPECIAL)
        elif step == AUCTION:
            self._bid(action)
        elif step == REMOVE_VIKING:
            self.drawn[action - A.REMOVE] -= 1
            self.removed_vikings += 1
            self.step = DRAW_TILES  # the winner lays out the tiles as usual
        elif step == PLACE_COLOURS:
            self._place_colour(action - A.PLACE_COLOUR)
        elif step == TAKE_SPECIAL:
            if action != A.DECLINE:
                slot = action - A.TAKE_SPECIAL
                special = self.face_up[slot]
                self.face_up[slot] = EMPTY
                if self._receive_special(special):
                    return
            self._tile_step()
        elif step == REPLACE_BUILDING:
            self._replace_with_building(self.lands[self.to_move], action - A.REPLACE + MAX_COLUMNS)
            self.pending_special = EMPTY
            self._tile_step()

    # -- special tiles turned up (before the first auction, then refilled each round) ----------------------------

    def _turn_up_special(self, special: int) -> None:
        self.specials_pool[special] -= 1
        self.face_up[self.face_up.index(EMPTY)] = special
        if EMPTY not in self.face_up or not any(self.specials_pool):
            self._begin_offer()

    # -- the auction for the Start Player Ship ---------------------------------------------------------------------

    def _start_auction(self) -> None:

        self.step = AUCTION
        self.high_bid = -1
        self.high_bidder = -1
        self.bidding = [True] * self.num_players
        self.to_move = self.start

    def _bid_reason(self, action: int) -> IllegalAction | None:
        land = self.lands[self.to_move]
        if action == A.PASS:
            if self.high_bid < 0:
                return IllegalAction(
                    "auction.open", f"the current start player begins the auction by bidding 0 or more ({ADVANCED})"
                )
            return None
        if not A.BID <= action < A.PASS:
            return self._wrong_step(action)
        bid = action - A.BID
        if bid <= self.high_bid:
            return IllegalAction("auction.raise", f"a bid must raise the highest bid, {self.high_bid} ({ADVANCED})")
        if bid > land.gold + land.fame:
            return IllegalAction(
                "auction.afford",
                f"you have {land.gold} Gold and {land.fame} Fame to exchange; Fame may never go below 0 ({ADVANCED})",
            )
        return None

    def _bid(self, action: int) -> None:

        seat = self.to_move
        if action == A.PASS:
            self.bidding[seat] = False
        else:
            self.high_bid = action - A.BID
            self.high_bidder = seat
        if sum(self.bidding) > 1:
            nxt = (seat + 1) % self.num_players
            while not self.bidding[nxt]:
                nxt = (nxt + 1) % self.num_players
            self.to_move = nxt
            return
        # The last bidder standing wins: she pays the bank and takes the Start Player Ship.
        winner = self.high_bidder
        self.lands[winner].pay(self.high_bid)
        self.start = winner
        self.to_move = winner
        self.bidding = [False] * self.num_players
        self.step = REMOVE_VIKING

    # -- colour placement: all Vikings of a chosen colour on the highest free spaces from 11 down ----------------

    def _start_colour_placement(self) -> None:

        self.to_move = self.start
        self.step = PLACE_COLOURS
        self._place_forced_colour()

    def _place_colour(self, colour: int) -> None:
        space = GROUPS_PER_ROUND - 1
        while self.wheel_vikings[space] != EMPTY:
            space -= 1
        for _ in range(self.drawn[colour]):
            self.wheel_vikings[space] = colour
            space -= 1
        self.drawn[colour] = 0
        self.to_move = (self.to_move + 1) % self.num_players
        self._place_forced_colour()

    def _place_forced_colour(self) -> None:
        """With one colour left there is no choice: it fills the rest; then the start player buys first."""

        left = [c for c in range(NUM_COLOURS) if self.drawn[c]]
        if len(left) == 1:
            self._place_colour(left[0])
        elif not left:
            self.step = BUY
            self.to_move = self.start

    # -- taking special tiles -------------------------------------------------------------------------------------

    def _takes_special(self, space: int) -> bool:
        """Whether buying the Group on `space` lets its buyer take a special tile: the most expensive remaining
        Group, never the round's last Group (bought for 0), and only while a special tile lies face up."""
        remaining = [s for s in range(GROUPS_PER_ROUND) if self.wheel_tiles[s] != EMPTY]
        return len(remaining) > 1 and space == remaining[-1] and any(t != EMPTY for t in self.face_up)

    def _receive_special(self, special: int) -> bool:
        """Give the player a special tile; True when she must now choose which island tile a Building replaces."""

        land = self.lands[self.to_move]
        if special == GOLD5:
            land.gold += 5
            self.specials_spent += 1
            return False
        if special < BUILDING_FIRST:
            land.specials[special] += 1
            return False
        squares = land.building_squares(building_of(special))
        if not squares:
            land.waiting.append(special)  # beside the Mainland until a matching island tile is bought
            return False
        if self._building_after_placing and self.pending_tile == building_of(special):
            # The Group she bought shows the same building: she chooses once that tile is placed, so that it may
            # be the one replaced (`_choose_deferred_building`; rule option building_choice=after_placing).
            self.pending_special = special
            return False
        if len(squares) == 1:
            self._replace_with_building(land, squares[0])
            return False
        self.pending_special = special
        self.step = REPLACE_BUILDING
        return True

    def _replace_with_building(self, land: Mainland, index: int) -> None:
        """The Building tile takes the island tile's place; that tile leaves the game (its Viking stays)."""
        self.discarded.append(land.tiles[index])
        land.buildings.append(index)
        land.buildings.sort()

    def _choose_deferred_building(self) -> bool:
        """After the bought tile is placed or discarded, the Building taken with it goes where she chooses (among
        the matching island tiles, the new one included); True when she must now choose."""
        land = self.lands[self.to_move]
        squares = land.building_squares(building_of(self.pending_special))
        if len(squares) > 1:
            self.step = REPLACE_BUILDING
            return True
        if squares:
            self._replace_with_building(land, squares[0])
        else:
            land.waiting.append(self.pending_special)  # no matching tile after all: it waits beside the Mainland
        self.pending_special = EMPTY
        return False

    def _swap_in_waiting_building(self, land: Mainland, tile: int, index: int) -> None:
        """A bought island tile with a waiting Building tile's building is removed and the Building used instead."""
        for special in land.waiting:
            if building_of(special) == tile:
                land.waiting.remove(special)
                self._replace_with_building(land, index)
                return

    def special_census(self) -> int:
        """Special tiles accounted for: face down, face up, beside Mainlands, waiting, placed, spent."""
        held = sum(sum(land.specials) + len(land.waiting) + len(land.buildings) for land in self.lands)
        pending = 1 if self.pending_special != EMPTY else 0
        face_up = sum(1 for t in self.face_up if t != EMPTY)
        return sum(self.specials_pool) + face_up + held + pending + self.specials_spent
