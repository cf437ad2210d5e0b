"""A Vikingdoms position and its rules: setup, recruitment on the 4×4 board, the raid, and victory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from skald.engine import CHANCE, TERMINAL, GameLike, IllegalAction, JSONDict, State
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import notation, render, tensor
from skald.games.vikingdoms.board import NUM_SQUARES, PIECES, SQUARE_NAMES, TROOP_HEIGHT, targets
from skald.games.vikingdoms.options import MOVE_CAP, RECRUITMENT_CAP, REPETITIONS
from skald.games.vikingdoms.tiles import ALLY_BUILDINGS, KINGDOM_BUILDINGS, Tile

if TYPE_CHECKING:
    import random

    import numpy as np
    import numpy.typing as npt

VIKINGS_PER_PLAYER: Final[int] = 12
#: Coins that build the VI. Kingdom.
COINS_TO_WIN: Final[int] = 16
#: Identical buildings (villages or ports) that build the VI. Kingdom.
BUILDINGS_TO_WIN: Final[int] = 3
VOLUND_COINS: Final[int] = 3
LOKE_PRISONERS: Final[int] = 2
#: At most this many decisions follow a recruitment in one round: the troop chosen after both passed, the tile
#: taken, a riot, three allies (the leader gains one tile, the other two by a riot), Gunnar's swap, two exchanges.
AFTER_RECRUITMENT: Final[int] = 9
#: The most actions one round can take under `termination` 'recruitment_ends' or 'game_ends'.
ROUND_BOUND: Final[int] = RECRUITMENT_CAP + AFTER_RECRUITMENT
#: The most actions of one game, chance included, under every rule option (docs/vikingdoms.md, "Every game ends"):
#: twelve tiles drawn, the youngest chosen, the start chosen, five rounds; `MOVE_CAP` is lower.
MAX_GAME_LENGTH: Final[int] = 12 + 2 + 5 * ROUND_BOUND

#: A recruitment position, for the repetition rule: the board, whose turn, passes, the move an undo ban forbids.
Position = tuple[tuple[tuple[int, ...], ...], int, int, tuple[int, int] | None]

# The phases, in the order the rulebook lays them out.
DEALING: Final[str] = "dealing"  # set-up (3): the tiles are shuffled and drawn (chance)
YOUNGEST: Final[str] = "youngest"  # set-up (7): a tie in coins, so "the youngest" is chosen (chance)
CHOOSING_START: Final[str] = "choosing start"  # set-up (7): upper or lower island
RECRUITMENT: Final[str] = "recruitment"
CHOOSING_TROOP: Final[str] = "choosing troop"  # fallback when both players pass (rule option `both_pass`)
TAKING: Final[str] = "taking tiles"  # the raid: the leader takes a tile, the other the rest
RIOTING: Final[str] = "riot"  # effect 2: the opponent takes a tile of his choice from the rioter
CHOOSING_ALLY: Final[str] = "choosing ally"  # effect 3: second village, port or fortress
GUNNAR_SWAP: Final[str] = "Gunnar"  # Gunnar: may exchange two island pairs
EXCHANGING: Final[str] = "prisoner exchange"  # effect 4: optional
OVER: Final[str] = "game over"

#: The rule each phase's decisions follow, cited when an action is refused.
PHASE_RULES: Final[dict[str, str]] = {
    DEALING: "set-up (3): shuffle the territory tiles",
    YOUNGEST: "set-up (7): in case of a tie, the youngest player",
    CHOOSING_START: "set-up (7): the less wealthy player decides from which island the raiding starts",
    RECRUITMENT: "recruitment: place a Viking or move a troop",
    CHOOSING_TROOP: "recruitment: both players passed (rule option both_pass)",
    TAKING: "the raid: the player whose Viking leads the troop takes a tile first",
    RIOTING: "riot: his opponent takes a territory tile of his choice",
    CHOOSING_ALLY: "allies: on the second village, port or fortress, take an ally tile",
    GUNNAR_SWAP: "Gunnar: you may immediately exchange two territory tile pairs",
    EXCHANGING: "prisoner exchange: a player with two or more prisoners may initiate one",
    OVER: "end of the game",
}
_PHASE_KINDS: Final[dict[str, tuple[str, ...]]] = {
    DEALING: ("deal",),
    YOUNGEST: ("youngest",),
    CHOOSING_START: ("start",),
    RECRUITMENT: ("place", "move", "pass"),
    CHOOSING_TROOP: ("troop",),
    TAKING: ("take",),
    RIOTING: ("riot",),
    CHOOSING_ALLY: ("ally",),
    GUNNAR_SWAP: ("swap", "no_swap"),
    EXCHANGING: ("exchange", "no_exchange"),
    OVER: (),
}


class VikingdomsState(State):
    """One position of Vikingdoms: the table, whose decision it is, and the effects still to resolve."""

    game: GameLike

    def __init__(
        self,
        game: GameLike,
        options: dict[str, Any],
        tiles: tuple[Tile, ...],
        source: VikingdomsState | None = None,
    ) -> None:
        """The table before the tiles are drawn, or, given `source`, an independent copy of it (`clone`)."""
        if source is not None:
            self._copy(source)
            return
        self.game = game
        self.num_players = 2
        self.history = []
        self.options = options
        self.tiles = tiles
        self.names = tuple(t.name for t in tiles)
        self.phase = DEALING
        self.to_move = CHANCE
        #: Tiles in the order they were drawn: seat 0's, seat 1's, then the ten island slots.
        self.dealt: list[int] = []
        #: Each seat's territory tiles, in the order they were collected.
        self.territory: list[tuple[int, ...]] = [(), ()]
        #: Island position i (0 = upper) holds slots 2i and 2i+1; -1 when not drawn yet or already taken.
        self.islands: list[int] = [-1] * (2 * A.NUM_ISLANDS)
        self.raided: list[bool] = [False] * A.NUM_ISLANDS
        #: Tiles of islands voided when both players passed (rule option `both_pass`), out of the game.
        self.set_aside: tuple[int, ...] = ()
        self.camp: list[int] = [VIKINGS_PER_PLAYER, VIKINGS_PER_PLAYER]
        #: lockup[p] counts the opponent's Vikings that p holds prisoner.
        self.lockup: list[int] = [0, 0]
        #: Each square's stack, bottom to top, as the seats owning the Vikings.
        self.board: list[tuple[int, ...]] = [()] * NUM_SQUARES
        self.troop: tuple[int, ...] = ()
        #: Owner of each ally tile (Freya, Völund, Gunnar, Löke), -1 while it lies by the board.
        self.allies: list[int] = [-1, -1, -1, -1]
        self.marker = -1
        self.direction = 0
        self.starter = -1
        self.youngest = -1
        self.leader = -1
        #: Who made the move (or the second pass) that ended the recruitment.
        self.completer = -1
        self.passes = 0
        #: Placements, moves and passes in the current recruitment (rule option `termination`).
        self.recruit_turns = 0
        #: The recruitment positions since the last placement (a placement can never be undone), for repetition.
        self.positions: tuple[Position, ...] = ()
        #: (source, target) of the move just made, for the rule option `undo_ban`.
        self.last_move: tuple[int, int] | None = None
        #: Tile taken by each seat in the current raid (-1 outside a raid).
        self.taken: list[int] = [-1, -1]
        self.rioter = -1
        #: Seats owed an ally, in choosing order, with the building that earned it.
        self.pending_allies: tuple[tuple[int, str], ...] = ()
        self.exchange_queue: tuple[int, ...] = ()
        self.raids = 0
        self.winner = -1
        #: Why the game ended, for the scoring lines.
        self.ending = ""

    # -- copying and inspection -------------------------------------------------------------------------

    def clone(self) -> VikingdomsState:
        """An independent copy: stacks and territories are tuples, so copying the flat lists suffices."""
        return VikingdomsState(self.game, self.options, self.tiles, self)

    def _copy(self, source: VikingdomsState) -> None:
        """Become an independent copy of `source` (every field, listed: a compiled class has no `__dict__`)."""
        self.game = source.game
        self.num_players = source.num_players
        self.history = source.history[:]
        self.options = source.options
        self.tiles = source.tiles
        self.names = source.names
        self.phase = source.phase
        self.to_move = source.to_move
        self.dealt = source.dealt[:]
        self.territory = source.territory[:]
        self.islands = source.islands[:]
        self.raided = source.raided[:]
        self.set_aside = source.set_aside
        self.camp = source.camp[:]
        self.lockup = source.lockup[:]
        self.board = source.board[:]
        self.troop = source.troop
        self.allies = source.allies[:]
        self.marker = source.marker
        self.direction = source.direction
        self.starter = source.starter
        self.youngest = source.youngest
        self.leader = source.leader
        self.completer = source.completer
        self.passes = source.passes
        self.recruit_turns = source.recruit_turns
        self.positions = source.positions
        self.last_move = source.last_move
        self.taken = source.taken[:]
        self.rioter = source.rioter
        self.pending_allies = source.pending_allies
        self.exchange_queue = source.exchange_queue
        self.raids = source.raids
        self.winner = source.winner
        self.ending = source.ending

    def snapshot(self) -> JSONDict:
        """Every field of the state as JSON-ready data, hidden parts included (for tests and debugging)."""
        fields: dict[str, Any] = {
            "allies": self.allies,
            "board": self.board,
            "camp": self.camp,
            "completer": self.completer,
            "dealt": self.dealt,
            "direction": self.direction,
            "ending": self.ending,
            "exchange_queue": self.exchange_queue,
            "history": self.history,
            "islands": self.islands,
            "last_move": self.last_move,
            "leader": self.leader,
            "lockup": self.lockup,
            "marker": self.marker,
            "names": self.names,
            "num_players": self.num_players,
            "options": self.options,
            "passes": self.passes,
            "pending_allies": self.pending_allies,
            "phase": self.phase,
            "positions": [[[list(s) for s in p[0]], *p[1:3], p[3]] for p in self.positions],
            "raided": self.raided,
            "recruit_turns": self.recruit_turns,
            "raids": self.raids,
            "rioter": self.rioter,
            "set_aside": self.set_aside,
            "starter": self.starter,
            "taken": self.taken,
            "territory": self.territory,
            "to_move": self.to_move,
            "troop": self.troop,
            "winner": self.winner,
            "youngest": self.youngest,
        }
        data: JSONDict = {}
        for key, value in fields.items():
            if isinstance(value, list | tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            data[key] = value
        return data

    def coins(self, seat: int) -> int:
        """The coins in `seat`'s territory: its tiles, plus Völund's three."""
        total = sum(self.tiles[t].coins for t in self.territory[seat])
        return total + (VOLUND_COINS if self.allies[A.VOLUND] == seat else 0)

    def count(self, seat: int, building: str) -> int:
        """How many tiles of `building` stand in `seat`'s territory."""
        return sum(1 for t in self.territory[seat] if self.tiles[t].building == building)

    def rioters(self, seat: int) -> int:
        """How many rioters `seat` has collected."""
        return sum(1 for t in self.territory[seat] if self.tiles[t].rioter)

    def has_kingdom_buildings(self, seat: int) -> bool:
        """Whether `seat` has 3 identical buildings: 3 villages or 3 ports."""
        return any(self.count(seat, b) >= BUILDINGS_TO_WIN for b in KINGDOM_BUILDINGS)

    def heights(self) -> list[int]:
        """The height of the stack on each square."""
        return [len(s) for s in self.board]

    def vikings_of(self, seat: int) -> int:
        """All of `seat`'s Vikings wherever they are: camp, the opponent's lockup, board and troop."""
        on_board = sum(stack.count(seat) for stack in self.board)
        return self.camp[seat] + self.lockup[1 - seat] + on_board + self.troop.count(seat)

    def island_tiles(self, position: int) -> list[int]:
        """The tiles still lying on island `position` (0 = upper)."""
        return [t for t in self.islands[2 * position : 2 * position + 2] if t >= 0]

    # -- whose turn and what is legal -------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, `CHANCE` while tiles are drawn or the youngest is chosen, or `TERMINAL`."""
        if self.phase == OVER:
            return TERMINAL
        return self.to_move

    def legal_actions(self) -> list[int]:
        """The legal actions (chance's outcomes at a chance node), ascending."""
        phase = self.phase
        if phase in (DEALING, YOUNGEST):
            return [action for action, _ in self.chance_outcomes()]
        if phase == CHOOSING_START:
            return [A.START, A.START + 1]
        if phase == RECRUITMENT:
            return self._recruitment_actions()
        if phase == CHOOSING_TROOP:
            return [A.TROOP + sq for sq in self._tallest_squares()]
        if phase == TAKING:
            return sorted(A.TAKE + t for t in self.island_tiles(self.marker))
        if phase == RIOTING:
            return sorted(A.RIOT + t for t in self._riot_targets())
        if phase == CHOOSING_ALLY:
            return [A.ALLY + a for a, owner in enumerate(self.allies) if owner < 0]
        if phase == GUNNAR_SWAP:
            return [A.SWAP + i for i in self._swappable_pairs()] + [A.NO_SWAP]
        if phase == EXCHANGING:
            return [A.EXCHANGE + n - 1 for n in self._exchange_sizes()] + [A.NO_EXCHANGE]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """While dealing, each undrawn tile equally likely; at a tie in coins, each seat as the youngest."""
        if self.phase == DEALING:
            left = [t for t in range(len(self.tiles)) if t not in self.dealt]
            return [(A.DEAL + t, 1.0 / len(left)) for t in left]
        if self.phase == YOUNGEST:
            return [(A.YOUNGEST, 0.5), (A.YOUNGEST + 1, 0.5)]
        return []

    def sample_chance_outcome(self, rng: random.Random) -> int:
        """One undrawn tile (or the youngest seat), drawn as the contract's walk over `chance_outcomes()` would draw
        it from the same `rng`, without building the list of outcomes."""
        if self.phase != DEALING:
            return super().sample_chance_outcome(rng)
        dealt = self.dealt
        left = [t for t in range(len(self.tiles)) if t not in dealt]
        # The same probability added up in the same order as the walk, so the same draw picks the same tile.
        probability = 1.0 / len(left)
        pick = rng.random()
        total = 0.0
        for tile in left:
            total += probability
            if pick < total:
                return A.DEAL + tile
        return A.DEAL + left[-1]

    def _recruitment_actions(self) -> list[int]:
        seat = self.to_move
        board = self.board
        heights = [len(stack) for stack in board]
        found: list[int] = []
        if self.camp[seat] > 0:
            found = [A.PLACE + sq for sq in range(NUM_SQUARES) if not heights[sq]]
        # The move just made may not be undone at once (rule option `undo_ban`): its reverse is left out.
        banned_source = banned_target = -1
        last_move = self.last_move
        if last_move is not None and self.options["undo_ban"]:
            banned_target, banned_source = last_move
        forced: list[int] = []
        # Only Freya's owner may top a troop with the opponent's Viking when the option forbids it.
        free = self.allies[A.FREYA] == seat
        opponent_may_top = free or self.options["opponent_on_top"] == "allowed"
        for source in range(NUM_SQUARES):
            height = heights[source]
            if not height:
                continue
            own_top = board[source][-1] == seat
            # The ids of moving 1..height Vikings from `source` to a target run consecutively from that pair's base.
            row = A.MOVE + source * NUM_SQUARES * A.MAX_MOVE
            for target in targets(heights, source):
                if source == banned_source and target == banned_target:
                    continue
                first = row + target * A.MAX_MOVE
                if own_top or opponent_may_top:
                    found.extend(range(first, first + height))
                else:
                    # Moving `count` Vikings forms a troop topped by the opponent when heights[target] + count >= 6.
                    found.extend(range(first, first + min(height, TROOP_HEIGHT - heights[target] - 1)))
                if own_top:
                    # Moving `count` Vikings forms a troop when heights[target] + count >= TROOP_HEIGHT.
                    least = TROOP_HEIGHT - heights[target]
                    if least <= height:
                        forced.extend(range(first + least - 1, first + height))
        # The compulsion: whoever can form a raiding troop with his own Viking on top must; Freya lifts it.
        if forced and not free:
            return forced
        return found or [A.PASS]

    def _tallest_squares(self) -> list[int]:
        heights = self.heights()
        tallest = max(heights)
        return [sq for sq in range(NUM_SQUARES) if tallest and heights[sq] == tallest]

    def _riot_targets(self) -> list[int]:
        tiles = list(self.territory[self.rioter])
        if self.options["riot_targets"] == "earlier":
            tiles.remove(self.taken[self.rioter])
        return tiles

    def _swappable_pairs(self) -> list[int]:
        return [
            index
            for index, (first, second) in enumerate(A.ISLAND_PAIRS)
            if not self.raided[first] and not self.raided[second]
        ]

    def _exchange_sizes(self) -> list[int]:
        seat = self.to_move
        most = min(self.lockup)
        if self.lockup[seat] < 2 or most < 1:
            return []
        if self.options["exchange_size"] == "all":
            return [most]
        return list(range(1, most + 1))

    def _can_exchange(self, seat: int) -> bool:
        return self.lockup[seat] >= 2 and self.lockup[1 - seat] >= 1

    def illegal_reason(self, action: int) -> IllegalAction | None:
        """Why `action` is illegal here (naming the rule), or None; never changes the state."""
        if not isinstance(action, int) or not 0 <= action < A.NUM_ACTIONS:
            return IllegalAction("action space", f"{action!r} is not a Vikingdoms action (0..{A.NUM_ACTIONS - 1})")
        rule = PHASE_RULES[self.phase]
        if self.phase == OVER:
            return IllegalAction(rule, "the game is over: someone has built the VI. Kingdom")
        what = A.kind(action)
        if what not in _PHASE_KINDS[self.phase]:
            return IllegalAction(rule, f"it is time for {self.phase}, not for a {what.replace('_', ' ')} action")
        if action in self.legal_actions():
            return None
        return IllegalAction(*self._explain(action, what))

    def _explain(self, action: int, what: str) -> tuple[str, str]:
        """The rule and reason an action of the right kind for this phase is still illegal."""
        rule = PHASE_RULES[self.phase]
        seat = self.to_move
        if what == "deal":
            return rule, f"{self.names[action - A.DEAL]} has already been drawn"
        if what == "place":
            square = action - A.PLACE
            if self.camp[seat] == 0:
                return "recruitment: place a Viking from your camp", "your camp is empty"
            if self.board[square]:
                return "recruitment: place a Viking on an empty square", f"{SQUARE_NAMES[square]} is occupied"
            return self._compulsion()
        if what == "move":
            return self._explain_move(action)
        if what == "pass":
            return "recruitment: passing when nothing is possible", "you have a legal placement or move"
        if what == "take":
            return rule, f"{self.names[action - A.TAKE]} is not a tile of the island by the raid marker"
        if what == "riot":
            tile = action - A.RIOT
            if tile == self.taken[self.rioter]:
                return (
                    "riot (rule option riot_targets=earlier)",
                    f"{self.names[tile]} was just taken; only earlier territory tiles may be taken",
                )
            return rule, f"{self.names[tile]} is not in the rioting player's territory"
        if what == "ally":
            return rule, f"{A.ALLY_NAMES[action - A.ALLY]} has already been taken"
        if what == "swap":
            return rule, "only islands not raided yet may be exchanged"
        if what == "exchange":
            count = action - A.EXCHANGE + 1
            if self.options["exchange_size"] == "all":
                return (
                    "prisoner exchange (rule option exchange_size=all)",
                    f"all {min(self.lockup)} are exchanged",
                )
            return (
                rule,
                f"both must hold {count} prisoners; they hold {self.lockup[0]} and {self.lockup[1]}",
            )
        if what == "troop":
            return rule, "only one of the tallest stacks may become the raiding troop"
        return rule, "not possible now"

    def _compulsion(self) -> tuple[str, str]:
        return (
            "recruitment: compulsion (Freya lifts it)",
            "you can form a raiding troop with your own Viking on top, so you must",
        )

    def _explain_move(self, action: int) -> tuple[str, str]:
        source, target, count = A.move_parts(action)
        heights = self.heights()
        height = heights[source]
        src, dst = SQUARE_NAMES[source], SQUARE_NAMES[target]
        if not height:
            return "recruitment: move a troop", f"there is no troop on {src}"
        if count > height:
            return "recruitment: move a troop or its top part", f"{src} holds only {height} Vikings"
        if not heights[target]:
            return "recruitment: a move must end on another troop", f"{dst} is empty"
        if target not in targets(heights, source):
            piece = PIECES[height]
            return (
                "recruitment: a troop moves as its full height dictates",
                f"a stack of {height} moves like a {piece}, to the first troop in its path; {dst} is out of reach",
            )
        if self.options["undo_ban"] and self.last_move == (target, source):
            return "recruitment: no immediate return (rule option undo_ban)", f"{dst}-{src} was just played"
        seat = self.to_move
        opponent_tops = self.board[source][-1] != seat and heights[target] + count >= TROOP_HEIGHT
        if opponent_tops and self.options["opponent_on_top"] == "forbidden" and self.allies[A.FREYA] != seat:
            return (
                "recruitment: your Viking on top (rule option opponent_on_top=forbidden; Freya lifts it)",
                "this troop would have the opponent's Viking on top",
            )
        return self._compulsion()

    # -- applying actions -------------------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        # The kinds by id range (the layout of `actions`), the commonest first: moves and placements.
        if A.MOVE <= action < A.PASS:
            self._move(*A.move_parts(action))
        elif A.PLACE <= action < A.MOVE:
            self._place(action - A.PLACE)
        elif action == A.PASS:
            self._pass()
        elif action < A.YOUNGEST:
            self._deal(action - A.DEAL)
        elif action < A.START:
            self.youngest = action - A.YOUNGEST
            self.phase, self.to_move = CHOOSING_START, self.youngest
        elif action < A.PLACE:
            self._start(action - A.START)
        elif action >= A.TROOP:
            square = action - A.TROOP
            stack, self.board[square] = self.board[square], ()
            self._form_troop(stack)
        elif action < A.RIOT:
            self._take(action - A.TAKE)
        elif action < A.ALLY:
            self._riot(action - A.RIOT)
        elif action < A.SWAP:
            self._ally(action - A.ALLY)
        elif action < A.NO_SWAP:
            first, second = A.ISLAND_PAIRS[action - A.SWAP]
            islands = self.islands
            islands[2 * first : 2 * first + 2], islands[2 * second : 2 * second + 2] = (
                islands[2 * second : 2 * second + 2],
                islands[2 * first : 2 * first + 2],
            )
            self._advance()
        elif action == A.NO_SWAP:
            self._advance()
        elif action < A.NO_EXCHANGE:
            self._exchange(action - A.EXCHANGE + 1)
        else:  # no_exchange
            self.exchange_queue = self.exchange_queue[1:]
            self._advance()
        # Rule option termination=move_cap: this action is number len(history) + 1 (the history grows after).
        if len(self.history) + 1 >= MOVE_CAP and self.phase != OVER and self.options["termination"] == "move_cap":
            self._finish_unended(f"{MOVE_CAP} actions have been played", "move_cap")

    def _deal(self, tile: int) -> None:
        index = len(self.dealt)
        self.dealt.append(tile)
        if index < 2:
            self.territory[index] = (tile,)
        else:
            self.islands[index - 2] = tile
        if len(self.dealt) < len(self.tiles):
            return
        # Set-up (5): take as many Vikings from your opponent as your territory tile shows prisoners.
        for seat in (0, 1):
            self._take_prisoners(seat, self.tiles[self.territory[seat][0]].prisoners)
        coins = [self.coins(0), self.coins(1)]
        if coins[0] == coins[1]:
            self.phase = YOUNGEST
        else:
            self.phase, self.to_move = CHOOSING_START, coins.index(min(coins))

    def _start(self, end: int) -> None:
        self.starter = self.to_move
        self.marker, self.direction = (0, 1) if end == 0 else (A.NUM_ISLANDS - 1, -1)
        self.phase = RECRUITMENT
        self._begin_recruitment()

    def _begin_recruitment(self) -> None:
        """A recruitment starts: no turns taken, its first position seen once."""
        self.passes, self.last_move = 0, None
        self.recruit_turns = 0
        self.positions = (self._position(),)

    def _position(self) -> Position:
        undo = self.last_move if self.options["undo_ban"] else None
        return (tuple(self.board), self.to_move, self.passes, undo)

    def _recruited(self, actor: int, placed: bool) -> None:
        """After a recruitment turn that formed no troop: the termination rule (option `termination`)."""
        self.recruit_turns += 1
        if self.options["termination"] == "move_cap":
            return
        position = self._position()
        # A placement empties a camp square for good, so no earlier position can come back after it.
        self.positions = (position,) if placed else (*self.positions, position)
        if self.recruit_turns >= RECRUITMENT_CAP:
            self._stalled(actor, f"{RECRUITMENT_CAP} recruitment turns were played without a troop")
        elif self.positions.count(position) >= REPETITIONS:
            self._stalled(actor, f"a recruitment position occurred {REPETITIONS} times")

    def _stalled(self, actor: int, why: str) -> None:
        """A recruitment that would not end (option `termination`): it ends as both passing would, or the game."""
        if self.options["termination"] == "game_ends":
            self._finish_unended(why, self.options["islands_exhausted"])
        else:
            self._both_passed(actor)

    def _place(self, square: int) -> None:
        seat = self.to_move
        self.camp[seat] -= 1
        self.board[square] = (seat,)
        self.passes, self.last_move = 0, None
        self.to_move = 1 - seat
        self._recruited(seat, True)

    def _move(self, source: int, target: int, count: int) -> None:
        stack = self.board[source]
        part = stack[-count:]
        self.board[source] = stack[:-count]
        merged = self.board[target] + part
        self.passes, self.last_move = 0, (source, target)
        if len(merged) >= TROOP_HEIGHT:
            self.board[target] = ()
            self.completer = self.to_move
            self._form_troop(merged)
        else:
            self.board[target] = merged
            actor = self.to_move
            self.to_move = 1 - actor
            self._recruited(actor, False)

    def _pass(self) -> None:
        self.passes += 1
        self.last_move = None
        actor = self.to_move
        if self.passes < 2:
            self.to_move = 1 - actor
            self._recruited(actor, False)
            return
        self._both_passed(actor)

    def _both_passed(self, actor: int) -> None:
        """Both players passed (or the recruitment stalled, `actor` last): the rules are silent, so the fallback is
        the rule option `both_pass`."""
        self.completer = actor
        tallest = self._tallest_squares()
        if self.options["both_pass"] == "void" or not tallest:
            self._void_round()
        elif len(tallest) == 1:
            stack, self.board[tallest[0]] = self.board[tallest[0]], ()
            self._form_troop(stack)
        else:
            self.phase, self.to_move = CHOOSING_TROOP, 1 - actor

    def _form_troop(self, stack: tuple[int, ...]) -> None:
        """The stack goes onto the raid marker; the owner of its top Viking leads the raid."""
        self.troop = stack
        self.leader = stack[-1]
        self.passes, self.last_move = 0, None
        self.phase, self.to_move = TAKING, self.leader

    def _take(self, tile: int) -> None:
        leader, other = self.leader, 1 - self.leader
        rest = next(t for t in self.island_tiles(self.marker) if t != tile)
        self.taken[leader], self.taken[other] = tile, rest
        self.islands[2 * self.marker : 2 * self.marker + 2] = [-1, -1]
        self.raided[self.marker] = True
        for seat in (leader, other):
            self.territory[seat] = (*self.territory[seat], self.taken[seat])
        # Effect 1: the player with more prisoners on his tile takes the difference.
        prisoners = [self.tiles[self.taken[seat]].prisoners for seat in (0, 1)]
        if prisoners[0] != prisoners[1]:
            taker = 0 if prisoners[0] > prisoners[1] else 1
            self._take_prisoners(taker, abs(prisoners[0] - prisoners[1]))
        # Effect 2: collecting a second rioter breaks out a riot (only two rioters exist, so one at most).
        for seat in (leader, other):
            if self.tiles[self.taken[seat]].rioter and self.rioters(seat) == 2:
                self.rioter = seat
                self.phase, self.to_move = RIOTING, 1 - seat
                return
        self._award_allies({leader: [self.taken[leader]], other: [self.taken[other]]})

    def _riot(self, tile: int) -> None:
        rioter, opponent = self.rioter, 1 - self.rioter
        self.territory[rioter] = tuple(t for t in self.territory[rioter] if t != tile)
        self.territory[opponent] = (*self.territory[opponent], tile)
        # He also receives the prisoners shown on the tile.
        self._take_prisoners(opponent, self.tiles[tile].prisoners)
        gained = {rioter: [self.taken[rioter]], opponent: [self.taken[opponent], tile]}
        self._award_allies(gained)

    def _award_allies(self, gained: dict[int, list[int]]) -> None:
        """Effect 3: whoever now holds a second village, port or fortress takes an ally, leader first."""
        owed: list[tuple[int, str]] = []
        for seat in (self.leader, 1 - self.leader):
            kept = [self.tiles[t].building for t in gained[seat] if t in self.territory[seat]]
            for building in ALLY_BUILDINGS:
                now = self.count(seat, building)
                # He collected his second one if the count went from below two to two or more (1 -> 3 included,
                # when a riot brings a second village on top of the one just taken).
                if now >= 2 and now - kept.count(building) < 2:
                    owed.append((seat, building))
        self.pending_allies = tuple(owed)
        self.exchange_queue = (self.leader, 1 - self.leader)
        self._advance()

    def _ally(self, ally: int) -> None:
        seat = self.to_move
        self.allies[ally] = seat
        self.pending_allies = self.pending_allies[1:]
        if ally == A.LOKE:
            self._take_prisoners(seat, LOKE_PRISONERS)
        if ally == A.GUNNAR and self._swappable_pairs():
            self.phase = GUNNAR_SWAP
            return
        self._advance()

    def _exchange(self, count: int) -> None:
        # Each side returns `count` prisoners to their owner's camp.
        for seat in (0, 1):
            self.lockup[seat] -= count
            self.camp[1 - seat] += count
        self.exchange_queue = () if self.options["exchange_offers"] == "one" else self.exchange_queue[1:]
        self._advance()

    def _advance(self) -> None:
        """On to the next effect still owed in this raid, or to the end of the phase."""
        if self.pending_allies:
            if -1 in self.allies:
                self.phase, self.to_move = CHOOSING_ALLY, self.pending_allies[0][0]
                return
            self.pending_allies = ()
        while self.exchange_queue:
            seat = self.exchange_queue[0]
            if self._can_exchange(seat):
                self.phase, self.to_move = EXCHANGING, seat
                return
            self.exchange_queue = self.exchange_queue[1:]
        self._end_raid()

    def _take_prisoners(self, taker: int, count: int) -> None:
        """Move up to `count` opposing Vikings into `taker`'s lockup: from their camp, else from the troop."""
        victim = 1 - taker
        from_camp = min(count, self.camp[victim])
        self.camp[victim] -= from_camp
        from_troop = min(count - from_camp, self.troop.count(victim))
        if from_troop:
            # Which of his Vikings in the troop go makes no difference: the troop is disbanded at the end.
            troop = list(self.troop)
            for _ in range(from_troop):
                troop.pop(len(troop) - 1 - troop[::-1].index(victim))
            self.troop = tuple(troop)
        self.lockup[taker] += from_camp + from_troop

    def _end_raid(self) -> None:
        """End of the phase: territories built, troop disbanded, raid marker moved on, victory checked."""
        for seat in self.troop:
            self.camp[seat] += 1
        self.troop = ()
        self.taken = [-1, -1]
        self.rioter = -1
        self.raids += 1
        if self.options["board_after_raid"] == "cleared":
            for square, stack in enumerate(self.board):
                for seat in stack:
                    self.camp[seat] += 1
                self.board[square] = ()
        reached = [self.has_kingdom_buildings(s) or self.coins(s) >= COINS_TO_WIN for s in (0, 1)]
        if any(reached):
            kingdom = [self.has_kingdom_buildings(s) for s in (0, 1)]
            if all(reached) and kingdom[0] == kingdom[1]:
                # Both built the same sort of victory: the top Viking of the last troop decides.
                self._finish(self.leader, "both reached a victory; the leader of the last raid wins the tie")
            elif all(reached):
                self._finish(kingdom.index(True), "both reached a victory; 3 identical buildings beat coins")
            else:
                self._finish(reached.index(True), "built the VI. Kingdom")
            return
        next_starter = 1 - self.leader if self.options["next_starter"] == "not_leader" else 1 - self.completer
        self._next_island(next_starter)

    def _void_round(self) -> None:
        """Rule option both_pass=void (or an empty board): the island by the marker is set aside unraided."""
        self.set_aside = (*self.set_aside, *self.island_tiles(self.marker))
        self.islands[2 * self.marker : 2 * self.marker + 2] = [-1, -1]
        self.raided[self.marker] = True
        self._next_island(1 - self.completer)

    def _next_island(self, starter: int) -> None:
        self.marker += self.direction
        if 0 <= self.marker < A.NUM_ISLANDS:
            self.phase, self.to_move = RECRUITMENT, starter
            self._begin_recruitment()
            return
        # Every island raided and nobody built the VI. Kingdom: impossible with 31 coins on the tiles,
        # possible with another tile table or a void round, so the rule option `islands_exhausted` decides.
        self.marker = -1
        self._finish_unended("the islands are exhausted", self.options["islands_exhausted"])

    def _finish_unended(self, why: str, rule: str) -> None:
        """The game ends before anyone built the VI. Kingdom: more coins wins ('last_leader': the leader of the
        last raid does), a tie going to the leader of the last raid (before any raid, the start player)."""
        last = self.leader if self.leader >= 0 else self.starter
        coins = [self.coins(0), self.coins(1)]
        if rule != "last_leader" and coins[0] != coins[1]:
            self._finish(coins.index(max(coins)), f"{why}; the wealthier player wins")
        else:
            self._finish(last, f"{why}; the leader of the last raid wins")

    def _finish(self, winner: int, why: str) -> None:
        self.winner = winner
        self.ending = why
        self.phase, self.to_move = OVER, TERMINAL

    def most_actions_left(self) -> int:
        """An upper bound on the actions (chance included) still to come; every action lowers it by one or more,
        so no game is longer than its value at the start, `MAX_GAME_LENGTH` (docs/vikingdoms.md, "Every game
        ends"). Under termination=move_cap the bound is simply the actions left before the cap."""
        phase = self.phase
        if phase == OVER:
            return 0
        if self.options["termination"] == "move_cap":
            return MOVE_CAP - len(self.history)
        rounds = A.NUM_ISLANDS * ROUND_BOUND
        if phase == DEALING:
            return len(self.tiles) - len(self.dealt) + 2 + rounds
        if phase == YOUNGEST:
            return 2 + rounds
        if phase == CHOOSING_START:
            return 1 + rounds
        # The island by the raid marker counts as unraided until its tiles are taken (or it is voided).
        after = (self.raided.count(False) - 1) * ROUND_BOUND
        if phase == RECRUITMENT:
            return after + RECRUITMENT_CAP - self.recruit_turns + AFTER_RECRUITMENT
        if phase == CHOOSING_TROOP:
            return after + AFTER_RECRUITMENT
        if phase == TAKING:
            return after + AFTER_RECRUITMENT - 1
        # The tiles are taken: the raided island no longer counts, so `after` covers every later round in full.
        after += ROUND_BOUND
        if phase == RIOTING:
            return after + AFTER_RECRUITMENT - 2
        gunnar = 1 if phase == GUNNAR_SWAP or self.allies[A.GUNNAR] < 0 else 0
        return after + len(self.pending_allies) + gunnar + len(self.exchange_queue)

    # -- outcome ----------------------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """1 for the winner and 0 for the other at the end; 0 each before."""
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else 0.0 for seat in (0, 1)]

    def scores(self) -> list[int]:
        """Each seat's coins."""
        return [self.coins(0), self.coins(1)]

    def winners(self) -> list[int]:
        """The seat that built the VI. Kingdom; empty before the end."""
        return [self.winner] if self.winner >= 0 else []

    def scoring_lines(self, seat: int) -> list[str]:
        """Itemised: which tile or ally gave `seat` what."""
        lines = []
        for tile in self.territory[seat]:
            t = self.tiles[tile]
            lines.append(f"{t.name} {t.building}: {t.coins} coins" + (" (rioter)" if t.rioter else ""))
        if self.allies[A.VOLUND] == seat:
            lines.append(f"Völund: {VOLUND_COINS} coins")
        lines.append(f"total: {self.coins(seat)} coins")
        for building in KINGDOM_BUILDINGS:
            lines.append(f"{building}s: {self.count(seat, building)} of {BUILDINGS_TO_WIN}")
        return lines

    # -- what a seat may see ----------------------------------------------------------------------------

    def observation(self, seat: int | None) -> JSONDict:
        """Everything on the table (all tiles lie face up once drawn); of the undrawn tiles, only how many."""
        return {
            "phase": self.phase,
            "to_move": self.current_player(),
            "seat": -1 if seat is None else seat,
            "board": [list(stack) for stack in self.board],
            "camp": self.camp[:],
            "lockup": self.lockup[:],
            "territory": [[self.names[t] for t in tiles] for tiles in self.territory],
            "coins": self.scores(),
            "islands": [[self.names[t] for t in self.island_tiles(p)] for p in range(A.NUM_ISLANDS)],
            "raided": self.raided[:],
            "undrawn": len(self.tiles) - len(self.dealt),
            "set_aside": [self.names[t] for t in self.set_aside],
            "raid_marker": self.marker,
            "direction": self.direction,
            "allies": {A.ALLY_ASCII[a]: owner for a, owner in enumerate(self.allies)},
            "troop": list(self.troop),
            "leader": self.leader,
            "taken": [self.names[t] if t >= 0 else None for t in self.taken],
            "rioter": self.rioter,
            "pending_allies": [list(p) for p in self.pending_allies],
            "raids": self.raids,
            "recruitment_turns": self.recruit_turns,
            "winner": self.winner,
            "ending": self.ending,
            "options": dict(self.options),
        }

    def observation_tensor(self, seat: int) -> list[float]:
        """`observation(seat)` as a flat vector of `game.observation_tensor_shape(2)`, the observer's side first."""
        return tensor.encode(self, seat)

    def observation_array(self, seat: int) -> npt.NDArray[np.float32]:
        """`observation_tensor(seat)` as a new float32 numpy array, written directly (needs numpy)."""
        return tensor.encode_array(self, seat)

    # -- action forms -----------------------------------------------------------------------------------

    def action_to_json(self, action: int) -> JSONDict:
        """The action's JSON form, e.g. {"type": "move", "from": "a1", "to": "b1", "count": 2}."""
        return notation.to_json(action, self.names)

    def action_from_json(self, data: Any) -> int:
        """Parse an action's JSON form; raises `ValueError` naming the field at fault."""
        return notation.from_json(data, self.names)

    def action_to_notation(self, action: int) -> str:
        """The action's short notation, e.g. `b3`, `2a1-b1`, `take V3`, `ally Freya`."""
        return notation.to_notation(action, self.names)

    def action_from_notation(self, text: str) -> int:
        """Parse notation here; a move written without a count moves the whole stack."""
        return notation.from_notation(text, self.names, self.heights())

    # -- rendering --------------------------------------------------------------------------------------

    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        """The table as text: islands, board, territories (all public); with `color`, Rich markup for the colours."""
        return render.render_text(self, color)
