"""Vikingatid observations as a flat vector of floats for learning, from the observer's side (docs/rl-observation.md).

What a seat may see and nothing more (the rulings' "Hidden information"): its own hand by kind, every other hand as
its size only, the deck as its size only (its make-up follows from what is hidden), the whole table, and what it has
seen of the cards over the game (`dealing.Memory`: each seat's plays and discards, its own draws, the cards it knows
another holds). The per-seat blocks come in seat order from the observer on (block 0 is the observer's own), so one
network serves every seat. Every value lies in [0, 1]: counts are divided by their greatest possible value where the
rules give one (camps by the largest trade value or shields, a hand's kind by that kind's count in the deck) and
otherwise by a scale above anything a game reaches, then capped at 1 (silver, victory points, standing ships).

The layout depends only on the sizes of the board (areas, empires, turn track) and the player count, so it is
worked out once (`layout`). The encoder runs at every step of an environment: it describes the tensor sparsely
(`features`, about a hundred entries of several thousand) and the list (`encode`) and the numpy array
(`encode_array`) are written from that. Plain typed loops and classes: mypyc compiles the module as it is.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Final

from skald.games.vikingatid import combat, dealing, end
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import CARD_IDS, CARD_KINDS, KINGDOMS, TRADING
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.cards.kingdoms import HERITAGE, SMALL_KINGDOM
from skald.games.vikingatid.position import PEACE_PENDING, WAR_MARKER
from skald.games.vikingatid.setup import start_position

if TYPE_CHECKING:
    import numpy.typing as npt

    from skald.games.vikingatid.board import Board
    from skald.games.vikingatid.situation import Situation

try:
    import numpy as np
except ImportError:  # numpy is needed only by `encode_array` (the learning extra installs it)
    np = None  # type: ignore[assignment]

#: Scales for the counts the rules leave open (values above them read as 1). Random and greedy games stay far below.
SILVER_SCALE: Final = 50.0
VP_SCALE: Final = 50.0
TREASURY_SCALE: Final = 50.0
SHIPS_SCALE: Final = 20.0
HAND_SCALE: Final = 10.0
PAID_SCALE: Final = 20.0
DIE_SCALE: Final = 10.0
BONUS_SCALE: Final = 10.0
DANGER_SCALE: Final = 20.0
MOVES_SCALE: Final = 30.0
ARMIES_SCALE: Final = 20.0
STRENGTH_SCALE: Final = 5.0
ROUNDS_SCALE: Final = 10.0
DUTY_SCALE: Final = 20.0
DISCARDS_SCALE: Final = 5.0
RESHUFFLES_SCALE: Final = 5.0
STAGE_SCALE: Final = 5.0

#: The kinds of card window, in the order of their one-hot (windows.py).
WINDOW_KINDS: Final = (
    windows.PHASE_START,
    windows.AFTER_ROLL,
    windows.BEFORE_ELECTION_ROLL,
    windows.AFTER_ELECTION,
    windows.BEFORE_DANGER,
    windows.BEFORE_FIGHT,
    windows.OWN_DECISION,
)
#: What a fight is against, in the order of its one-hot (combat.py).
FIGHT_KINDS: Final = (combat.ARMIES, combat.DEFENDERS)
#: The rulebook's phases 0 (setup) to 11.
NUM_PHASES: Final = len(S.PHASE_NAMES)
NUM_STEPS: Final = len(S.STEPS)
NUM_KINGDOMS: Final = len(KINGDOMS)
#: The pairs of kingdoms (table.KINGDOM_PAIRS).
NUM_PAIRS: Final = 3
#: Each card kind's index by its id (the card log names cards by id).
CARD_INDEX: Final = {card: index for index, card in enumerate(CARD_IDS)}

# One seat's block: the scalars, then planes of one value per area.
KINGDOM: Final = 0  # one-hot of 3: Denmark, Norway, Sweden (all 0 before the choice)
EMIGRATED: Final = 3
CHRISTIAN: Final = 4
EXILED: Final = 5
SILVER: Final = 6
VP: Final = 7
HAND_SIZE: Final = 8
TO_ACT: Final = 9
FIRST_SEAT: Final = 10
KING_OF: Final = 11  # one per kingdom
INITIATIVE_ROLL: Final = 14
INITIATIVE_OUT: Final = 15
INITIATIVE_HOLDER: Final = 16
PARTICIPANT: Final = 17
PAID: Final = 18
ELECTION_DIE: Final = 19
ELECTION_BONUS: Final = 20
DEFENDER_SHIPS: Final = 21
DEFENDER_CAMPS: Final = 22
DUTY_ASKED: Final = 23
FLEET_OWNER: Final = 24
CARD_PLAYER: Final = 25
DISCARDS_DUE: Final = 26
SEAT_SCALARS: Final = 27
#: The planes of a seat's block, each one value per area slot, in this order.
SEAT_PLANES: Final = (
    "trading ships",
    "war ships",
    "trading camps",
    "war camps",
    "trading ships under way",
    "war ships under way",
    "home",
    "fief",
    "discovered",
)
PLANE_SHIPS: Final = 0  # trading, then war: the table's own row order
PLANE_CAMPS: Final = 2
PLANE_UNDER_WAY: Final = 4
PLANE_HOME: Final = 6
PLANE_FIEF: Final = 7
PLANE_DISCOVERED: Final = 8
#: After the area planes, a seat's cards as the observer has seen them, each one value per card kind, in this order
#: (`dealing.Memory`): played or discarded (public), drawn (the observer's own draws only: another's are hidden),
#: known to be in its hand (what the observer gave it and has not seen it use since; 0 for the observer itself,
#: whose hand is the table's hand slice).
CARD_PLANES: Final = ("played or discarded", "drawn", "known in hand")
CARDS_PLAYED: Final = 0
CARDS_DRAWN: Final = 1
CARDS_KNOWN: Final = 2

# One area's features in the area block.
AREA_TRADE_STOP: Final = 0
AREA_PLUNDERED: Final = 1
AREA_SEPARATISTS: Final = 2
AREA_EXPANDED: Final = 3
AREA_DISCOVERED: Final = 4
AREA_NEW: Final = 5  # discovered this turn: the others may sail there from the next turn
AREA_HERITAGE: Final = 6
AREA_SMALL_KINGDOM: Final = 7
AREA_EMPIRE: Final = 8  # one-hot over the board's empires (all 0: no empire)
AREA_FIXED: Final = 8


class Layout:
    """Where each slice starts for one board size and player count (docs/rl-observation.md lists them in order)."""

    def __init__(self, num_players: int, num_areas: int, num_empires: int, num_turns: int) -> None:
        n, areas = num_players, num_areas
        self.num_players: Final = n
        self.num_areas: Final = areas
        self.num_empires: Final = num_empires
        self.num_turns: Final = num_turns
        self.seat_cards: Final = SEAT_SCALARS + len(SEAT_PLANES) * areas  # offset in a seat's block
        self.seat_size: Final = self.seat_cards + len(CARD_PLANES) * CARD_KINDS
        self.area_features: Final = AREA_FIXED + num_empires
        at = n * self.seat_size
        self.turn: Final = at  # one-hot over the turn track (a turn beyond it reads as the last box)
        at += num_turns
        self.last_turn: Final = at  # 1 in the last box under `last_year`
        self.turns_left: Final = at + 1  # turns after this one / the track's length (0 under `last_year: none`)
        self.no_last_box: Final = at + 2  # 1 under `last_year: none`
        at += 3
        self.phase: Final = at
        at += NUM_PHASES
        self.step: Final = at
        at += NUM_STEPS
        self.chance: Final = at
        self.terminal: Final = at + 1
        self.mines_dry: Final = at + 2
        at += 3
        self.kingdoms: Final = at  # per kingdom: no king, treasury, war, peace?, unified
        at += 5 * NUM_KINGDOMS
        self.pairs: Final = at  # per pair: war, peace?, King's Peace
        at += 3 * NUM_PAIRS
        self.areas: Final = at
        at += areas * self.area_features
        self.hand: Final = at
        at += CARD_KINDS
        self.pile: Final = at
        at += CARD_KINDS
        self.shown: Final = at
        at += CARD_KINDS
        self.deck: Final = at
        self.reshuffles: Final = at + 1
        at += 2
        self.window: Final = at  # open, then its kind one-hot, then passes
        at += 2 + len(WINDOW_KINDS)
        self.play: Final = at  # the card under way, one-hot, then its stage
        at += CARD_KINDS + 1
        self.election: Final = at  # kingdom one-hot, the kingdom's paid, die, bonus
        at += NUM_KINGDOMS + 3
        self.purchase: Final = at  # ship type one-hot, then the area one-hot
        at += 2 + areas
        self.fleet: Final = at  # present, type one-hot, size, danger, moves; area, entered from, route planes
        at += 6
        self.fleet_area: Final = at
        self.fleet_from: Final = at + areas
        self.fleet_route: Final = at + 2 * areas
        at += 3 * areas
        self.fight: Final = at  # kind one-hot, armies, strength, round, fleet hits on, defenders hit on; area
        at += len(FIGHT_KINDS) + 5
        self.fight_area: Final = at
        at += areas
        self.entry: Final = at  # present, duty, forbidden; the area one-hot
        self.entry_area: Final = at + 3
        at += 3 + areas
        self.size: Final = at


_LAYOUTS: dict[tuple[int, int, int, int], Layout] = {}


def layout(board: Board, num_players: int) -> Layout:
    """The layout for `board` and `num_players`, worked out once per size."""
    key = (num_players, len(board.areas), len(board.empires), len(board.turn_track.turns))
    found = _LAYOUTS.get(key)
    if found is None:
        found = Layout(*key)
        _LAYOUTS[key] = found
    return found


class BoardFacts:
    """What the encoder reads from the board at every call, worked out once per board: each area's slot by id, its
    empire's index at the start, the empires' indices by id, and the scales of camps (the largest trade value and
    shields: no seat ever has more camps of a type in an area)."""

    def __init__(self, board: Board) -> None:
        self.slot: Final = {area.id: slot for slot, area in enumerate(board.areas)}
        self.empire: Final = {empire.id: index for index, empire in enumerate(board.empires)}
        self.trade_max: Final = float(max(1, max(area.trade for area in board.areas)))
        self.shields_max: Final = float(max(1, max(area.shields for area in board.areas)))
        self.max_fleet: Final = float(max(1, start_position(board).max_fleet))
        #: The empire of each area at the start, and (slot, empire index) for each area that has one then: most
        #: games never move a province, and the encoder then writes these without looking at each area.
        self.start_empires: Final = [area.empire for area in board.areas]
        self.start_empire_hot: Final = [
            (slot, self.empire[area.empire]) for slot, area in enumerate(board.areas) if area.empire
        ]


_FACTS: dict[int, tuple[Board, BoardFacts]] = {}


def facts(board: Board) -> BoardFacts:
    """The board's facts, worked out once per board (kept with the board, so an id is never reused for another)."""
    held = _FACTS.get(id(board))
    if held is None or held[0] is not board:
        held = (board, BoardFacts(board))
        _FACTS[id(board)] = held
    return held[1]


def shape(board: Board, num_players: int) -> tuple[int, ...]:
    """The tensor's shape for `num_players` on `board`: one flat vector."""
    return (layout(board, num_players).size,)


def bounds(board: Board, num_players: int) -> tuple[float, float] | None:
    """Every entry lies in [0, 1] (one-hots, flags, and counts divided by their scale and capped)."""
    return 0.0, 1.0


def _scaled(value: int, scale: float) -> float:
    """`value / scale`, capped at 1 (a count the rules do not bound), never below 0."""
    if value <= 0:
        return 0.0
    share = value / scale
    return share if share < 1.0 else 1.0


class Features:
    """The tensor sparsely (most of it is 0, so both the list and the numpy array are written from this): the
    entries that hold 1 (`hot`), and the others that are not 0 (`index`, with `value`). The encoders append to the
    lists directly, which is cheaper than a method call per entry."""

    def __init__(self) -> None:
        self.hot: list[int] = []
        self.index: list[int] = []
        self.value: list[float] = []

    def set(self, index: int, value: float) -> None:
        """Entry `index` holds `value` (each entry is set at most once)."""
        self.index.append(index)
        self.value.append(value)


def features(state: Situation, seat: int) -> Features:
    """What `seat` may see as sparse features (its own hand; the others' hand sizes; never the deck's make-up)."""
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat: {seat} is not one of the {n} seats")
    lay = layout(state.board, n)
    board = facts(state.board)
    found = Features()
    base = [((s - seat) % n) * lay.seat_size for s in range(n)]
    _seats(state, lay, board, base, found)
    _areas(state, lay, board, base, found)
    _flow(state, lay, found)
    _cards(state, seat, lay, base, found)
    _election(state, lay, base, found)
    _journey(state, lay, board, base, found)
    return found


def encode(state: Situation, seat: int) -> list[float]:
    """`state.observation(seat)` as floats: only what `seat` may see (docs/rl-observation.md, "Vikingatid")."""
    found = features(state, seat)
    out = [0.0] * layout(state.board, state.num_players).size
    for index in found.hot:
        out[index] = 1.0
    values = found.value
    for k, index in enumerate(found.index):
        out[index] = values[k]
    return out


def encode_array(state: Situation, seat: int) -> npt.NDArray[np.float32]:
    """`encode(state, seat)` as a new float32 numpy array, written from the sparse features (needs numpy)."""
    if np is None:
        raise ModuleNotFoundError("observation arrays need numpy: pip install 'skald[rl]'")
    found = features(state, seat)
    out = np.zeros(layout(state.board, state.num_players).size, dtype=np.float32)
    out[found.hot] = 1.0
    out[found.index] = found.value
    return out


def _seats(state: Situation, lay: Layout, board: BoardFacts, base: list[int], found: Features) -> None:
    """Each seat's kingdom, standing, silver, victory points, hand size, ships, camps, fleets under way, home, and
    whether it is to act, starts the turn, is king, or must discard."""
    hot = found.hot
    position = state.position
    hands = state.deck.hands
    areas = lay.num_areas
    kingdoms = position.choice.kingdoms
    silver, vp, home = position.silver, position.vp, position.home
    trade_max, shields_max = board.trade_max, board.shields_max
    every = range(2 * areas)
    for s in range(position.num_players):
        at = base[s]
        kingdom = kingdoms[s]
        if kingdom:
            hot.append(at + KINGDOM + KINGDOMS.index(kingdom))
        if position.emigrated[s]:
            hot.append(at + EMIGRATED)
        if position.christian[s]:
            hot.append(at + CHRISTIAN)
        if position.exiled[s]:
            hot.append(at + EXILED)
        if silver[s] > 0:
            found.set(at + SILVER, _scaled(silver[s], SILVER_SCALE))
        if vp[s] > 0:
            found.set(at + VP, _scaled(vp[s], VP_SCALE))
        size = sum(hands[s])
        if size:
            found.set(at + HAND_SIZE, _scaled(size, HAND_SCALE))
        start = at + SEAT_SCALARS
        # Standing ships: the table's row is trading then war, the planes' order. Most entries are 0: `compress`
        # finds the others without a Python loop over every area.
        ships = position.ships[s]
        if any(ships):  # ships stand on the board in phases 5 and 6 only
            for index in compress(every, ships):
                found.set(start + PLANE_SHIPS * areas + index, _scaled(ships[index], SHIPS_SCALE))
        camps = position.camps[s]
        if any(camps):
            trading = start + PLANE_CAMPS * areas
            for index in compress(every, camps):
                limit = trade_max if index < areas else shields_max
                found.set(trading + index, min(camps[index] / limit, 1.0))
        if home[s]:
            hot.append(start + PLANE_HOME * areas + board.slot[home[s]])
    for s in set(state.discards):
        found.set(base[s] + DISCARDS_DUE, _scaled(state.discards.count(s), DISCARDS_SCALE))
    for king_of, king in enumerate(position.king):
        if king >= 0:
            hot.append(base[king] + KING_OF + king_of)
    player = state.current_player()
    if player >= 0:
        hot.append(base[player] + TO_ACT)
    if position.first_seat >= 0:
        hot.append(base[position.first_seat] + FIRST_SEAT)
    _fleets(state, lay, board, base, found)


def _fleets(state: Situation, lay: Layout, board: BoardFacts, base: list[int], found: Features) -> None:
    """The ships of every fleet under way, by owner, type and area (two fleets of one owner and type in one area
    add up)."""
    fleets = state.position.fleets
    if not fleets:
        return
    ships: dict[int, int] = {}
    for fleet in fleets:
        plane = PLANE_UNDER_WAY if fleet.kind == TRADING else PLANE_UNDER_WAY + 1
        index = base[fleet.owner] + SEAT_SCALARS + plane * lay.num_areas + board.slot[fleet.area]
        ships[index] = ships.get(index, 0) + fleet.size
    for index, size in ships.items():
        found.set(index, _scaled(size, board.max_fleet))


def _areas(state: Situation, lay: Layout, board: BoardFacts, base: list[int], found: Features) -> None:
    """Each area's markers, who found it, whose heritage or small kingdom it is, and its empire now."""
    hot = found.hot
    position = state.position
    width = lay.area_features
    areas = lay.areas
    for offset, marks in (
        (AREA_TRADE_STOP, position.trade_stop),
        (AREA_PLUNDERED, position.plundered),
        (AREA_SEPARATISTS, position.separatists),
        (AREA_EXPANDED, position.expanded),
    ):
        for slot in compress(range(len(marks)), marks):
            hot.append(areas + slot * width + offset)
    finders = position.discovered_by
    if max(finders) >= 0:
        plane = SEAT_SCALARS + PLANE_DISCOVERED * lay.num_areas
        for slot in [slot for slot in range(lay.num_areas) if finders[slot] >= 0]:
            finder = finders[slot]
            if finder >= 0:
                hot.append(areas + slot * width + AREA_DISCOVERED)
                hot.append(base[finder] + plane + slot)
                if position.discovered_turn[slot] >= position.turn:
                    hot.append(areas + slot * width + AREA_NEW)
    holders = position.fief
    if max(holders) >= 0:
        plane = SEAT_SCALARS + PLANE_FIEF * lay.num_areas
        for slot in [slot for slot in range(lay.num_areas) if holders[slot] >= 0]:
            holder = holders[slot]
            if holder >= 0:
                hot.append(base[holder] + plane + slot)
                kind = position.fief_kind[slot]
                if kind == HERITAGE:
                    hot.append(areas + slot * width + AREA_HERITAGE)
                elif kind == SMALL_KINGDOM:
                    hot.append(areas + slot * width + AREA_SMALL_KINGDOM)
    if position.empire_of == board.start_empires:
        hot.extend(_start_empires(lay, board))
    else:
        for slot in range(lay.num_areas):
            name = position.empire_of[slot]
            if name:
                hot.append(areas + slot * width + AREA_EMPIRE + board.empire[name])


_START_EMPIRES: dict[tuple[int, int], tuple[BoardFacts, list[int]]] = {}


def _start_empires(lay: Layout, board: BoardFacts) -> list[int]:
    """The entries of every area's empire one-hot as the board starts (most games never move a province), worked
    out once per board and player count."""
    key = (id(board), lay.num_players)
    held = _START_EMPIRES.get(key)
    if held is None or held[0] is not board:
        width = lay.area_features
        hot = [lay.areas + slot * width + AREA_EMPIRE + empire for slot, empire in board.start_empire_hot]
        held = (board, hot)
        _START_EMPIRES[key] = held
    return held[1]


def _flow(state: Situation, lay: Layout, found: Features) -> None:
    """The turn on the track (and how many are left under `last_year`), the phase, the step, the kingdoms' kings,
    treasuries and War / Peace? markers, and each pair's war and King's Peace."""
    hot = found.hot
    position = state.position
    turns = lay.num_turns
    hot.append(lay.turn + min(max(position.turn, 1), turns) - 1)
    last = end.last_turn(state.board, str(state.options["last_year"]))
    if last > 0:
        left = last - position.turn
        if left > 0:
            found.set(lay.turns_left, min(left / turns, 1.0))
        else:
            hot.append(lay.last_turn)
    else:
        hot.append(lay.no_last_box)
    hot.append(lay.phase + position.phase)
    hot.append(lay.step + state.step)
    step = S.STEPS[state.step]
    if step.terminal:
        hot.append(lay.terminal)
    elif step.chance:
        hot.append(lay.chance)
    if position.mines_dry:
        hot.append(lay.mines_dry)
    for k in range(NUM_KINGDOMS):
        at = lay.kingdoms + 5 * k
        if position.king[k] < 0:
            hot.append(at)
        if position.treasury[k] > 0:
            found.set(at + 1, _scaled(position.treasury[k], TREASURY_SCALE))
        marker = position.war[k]
        if marker == WAR_MARKER:
            hot.append(at + 2)
        elif marker == PEACE_PENDING:
            hot.append(at + 3)
        if position.unified[k]:
            hot.append(at + 4)
    for p in range(NUM_PAIRS):
        at = lay.pairs + 3 * p
        marker = position.pair_war[p]
        if marker == WAR_MARKER:
            hot.append(at)
        elif marker == PEACE_PENDING:
            hot.append(at + 1)
        if position.kings_peace[p]:
            hot.append(at + 2)


def _cards(state: Situation, seat: int, lay: Layout, base: list[int], found: Features) -> None:
    """The viewer's own hand by kind (no other hand: their sizes are in the seats' blocks), what it has seen of each
    seat's cards (`dealing.Memory`), the face-up pile, the cards shown this turn, the deck's size (never its
    make-up), the card window open and the card under way."""
    hot = found.hot
    deck = state.deck
    counts = deck.counts
    hand = deck.hands[seat]
    pile = deck.pile
    kinds = range(CARD_KINDS)
    seen = dealing.memory(state.memories, state.card_moves, state.num_players, CARD_KINDS, seat)
    if seen.encoded_for != id(lay):
        _memory(seen, lay, base, counts)
    found.index.extend(seen.encoded_index)
    found.value.extend(seen.encoded_value)
    for kind in compress(kinds, hand):
        found.set(lay.hand + kind, min(hand[kind] / counts[kind], 1.0))
    for kind in compress(kinds, pile):
        found.set(lay.pile + kind, min(pile[kind] / counts[kind], 1.0))
    turn = state.position.turn
    log = state.card_log
    index = len(log) - 1
    if index >= 0 and log[index].turn == turn:
        shown = [0] * CARD_KINDS
        while index >= 0 and log[index].turn == turn:
            kind = CARD_INDEX.get(log[index].card, -1)
            if kind >= 0:
                shown[kind] += 1
            index -= 1
        for kind in range(CARD_KINDS):
            if shown[kind]:
                found.set(lay.shown + kind, min(shown[kind] / counts[kind], 1.0))
    total = sum(counts)
    size = deck.deck_size()
    if size and total:
        found.set(lay.deck, min(size / total, 1.0))
    if deck.reshuffles:
        found.set(lay.reshuffles, _scaled(deck.reshuffles, RESHUFFLES_SCALE))
    window = state.window
    if window is not None:
        hot.append(lay.window)
        if window.kind in WINDOW_KINDS:
            hot.append(lay.window + 1 + WINDOW_KINDS.index(window.kind))
        if window.passes > 0:
            found.set(lay.window + 1 + len(WINDOW_KINDS), min(window.passes / state.num_players, 1.0))
    play = state.play
    if play is not None:
        hot.append(lay.play + play.kind)
        if play.stage > 0:
            found.set(lay.play + CARD_KINDS, _scaled(play.stage, STAGE_SCALE))
        if 0 <= play.seat < state.num_players:
            hot.append(base[play.seat] + CARD_PLAYER)


def _memory(seen: dealing.Memory, lay: Layout, base: list[int], counts: tuple[int, ...]) -> None:
    """What the seat has seen of the cards as tensor entries, kept on the memory until a card moves again (most
    steps move none): each seat's plays and discards, the seat's own draws, the cards it knows another holds."""
    index: list[int] = []
    value: list[float] = []
    kinds = range(CARD_KINDS)
    rows = [(base[s] + lay.seat_cards + CARDS_PLAYED * CARD_KINDS, row) for s, row in enumerate(seen.played)]
    rows.append((lay.seat_cards + CARDS_DRAWN * CARD_KINDS, seen.drawn))  # the observer's own block is block 0
    rows += [(base[s] + lay.seat_cards + CARDS_KNOWN * CARD_KINDS, row) for s, row in enumerate(seen.known)]
    for start, row in rows:
        if any(row):
            for kind in compress(kinds, row):
                if row[kind] > 0:
                    index.append(start + kind)
                    value.append(min(row[kind] / counts[kind], 1.0))
    seen.encoded_index = index
    seen.encoded_value = value
    seen.encoded_for = id(lay)


def _election(state: Situation, lay: Layout, base: list[int], found: Features) -> None:
    """The election under way: its kingdom, each participant's payments, die and bonus, and the kingdom's."""
    hot = found.hot
    election = state.election
    kingdom = election.kingdom
    if 0 <= kingdom < NUM_KINGDOMS:
        hot.append(lay.election + kingdom)
    n = state.num_players
    participants = election.participants
    dice = election.dice
    for index, s in enumerate(participants):
        if 0 <= s < n:
            hot.append(base[s] + PARTICIPANT)
            if index < len(dice) and dice[index] > 0:
                found.set(base[s] + ELECTION_DIE, _scaled(dice[index], DIE_SCALE))
    paid = election.paid
    bonus = election.bonus
    for s in range(n):
        if s < len(paid) and paid[s] > 0:
            found.set(base[s] + PAID, _scaled(paid[s], PAID_SCALE))
        if s < len(bonus) and bonus[s] > 0:
            found.set(base[s] + ELECTION_BONUS, _scaled(bonus[s], BONUS_SCALE))
    at = lay.election + NUM_KINGDOMS
    if election.kingdom_paid > 0:
        found.set(at, _scaled(election.kingdom_paid, PAID_SCALE))
    if len(dice) > len(participants) and dice[-1] > 0:
        found.set(at + 1, _scaled(dice[-1], DIE_SCALE))
    if election.kingdom_bonus > 0:
        found.set(at + 2, _scaled(election.kingdom_bonus, BONUS_SCALE))


def _journey(state: Situation, lay: Layout, board: BoardFacts, base: list[int], found: Features) -> None:
    """Phase 5's purchase under way, and phase 6: initiative, the fleet in motion and its route, the fight, and the
    entry asked for."""
    hot = found.hot
    position = state.position
    n = state.num_players
    purchase = state.purchases
    if purchase.kind:
        hot.append(lay.purchase + (0 if purchase.kind == TRADING else 1))
    if purchase.area:
        hot.append(lay.purchase + 2 + board.slot[purchase.area])
    j = state.journeys
    ini = j.initiative
    out = [False] * n
    for s in range(min(n, len(ini.rolls))):
        if ini.rolls[s] > 0:
            found.set(base[s] + INITIATIVE_ROLL, _scaled(ini.rolls[s], DIE_SCALE))
        out[s] = ini.out[s]
    for s in ini.passed:
        out[s] = True
    for s in range(n):
        if out[s]:
            hot.append(base[s] + INITIATIVE_OUT)
    if not ini.to_roll and ini.groups:
        hot.append(base[ini.groups[0][0]] + INITIATIVE_HOLDER)
    if j.active and position.fleets:
        _fleet_in_motion(state, lay, board, base, found)
    fight = j.fight
    if fight.against:
        at = lay.fight
        if fight.against in FIGHT_KINDS:
            hot.append(at + FIGHT_KINDS.index(fight.against))
        at += len(FIGHT_KINDS)
        for offset, value, scale in (
            (0, fight.armies, ARMIES_SCALE),
            (1, fight.strength, STRENGTH_SCALE),
            (2, fight.rounds, ROUNDS_SCALE),
            (3, combat.fleet_hit_on(fight), DIE_SCALE),
            (4, combat.defender_hit_on(fight), DIE_SCALE),
        ):
            if value > 0:
                found.set(at + offset, _scaled(value, scale))
        if fight.area:
            hot.append(lay.fight_area + board.slot[fight.area])
        camps_scale = board.trade_max + board.shields_max
        for s in fight.defenders:
            if fight.ships[s] > 0:
                found.set(base[s] + DEFENDER_SHIPS, _scaled(fight.ships[s], SHIPS_SCALE))
            if fight.camps[s] > 0:
                found.set(base[s] + DEFENDER_CAMPS, _scaled(fight.camps[s], camps_scale))
    if j.target:
        at = lay.entry
        hot.append(at)
        duty = sum(j.duties)
        if duty > 0:
            found.set(at + 1, _scaled(duty, DUTY_SCALE))
        if j.forbidden:
            hot.append(at + 2)
        hot.append(lay.entry_area + board.slot[j.target])
        for s in range(min(n, len(j.duties))):
            if j.duties[s] > 0:
                found.set(base[s] + DUTY_ASKED, _scaled(j.duties[s], DUTY_SCALE))


def _fleet_in_motion(state: Situation, lay: Layout, board: BoardFacts, base: list[int], found: Features) -> None:
    """The fleet making its journey: owner, type, size, danger, moves, where it is, the sea it came in from and
    the areas it entered this journey."""
    hot = found.hot
    fleet = state.position.fleets[0]
    at = lay.fleet
    hot.append(at)
    hot.append(at + (1 if fleet.kind == TRADING else 2))
    found.set(at + 3, _scaled(fleet.size, board.max_fleet))
    if fleet.danger > 0:
        found.set(at + 4, _scaled(fleet.danger, DANGER_SCALE))
    if fleet.moves > 0:
        found.set(at + 5, _scaled(fleet.moves, MOVES_SCALE))
    hot.append(lay.fleet_area + board.slot[fleet.area])
    if fleet.entered_from:
        hot.append(lay.fleet_from + board.slot[fleet.entered_from])
    seen: set[str] = set()
    for area in state.journeys.route:
        if area not in seen:
            seen.add(area)
            hot.append(lay.fleet_route + board.slot[area])
    hot.append(base[fleet.owner] + FLEET_OWNER)
