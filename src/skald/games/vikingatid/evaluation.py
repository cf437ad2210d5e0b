"""A heuristic worth of a Vikingatid position for one seat, in victory points, for greedy bots and cut-off rollouts.

What wins is VP at the end (rule text, "Winning the game"): the VP already scored, the phase 9 scorings still to come
(each conquered area its trade value, 2 per king, 5 per land discovered this turn; `victory_points`), and one VP per
camp at the end. So the worth is those VP, plus each conquest and throne held times the scorings expected before the
game ends, plus the camps (each a final VP and a step towards a conquest), plus what still turns into camps and
conquests: silver (ships next phase 5), ships (camps and trade in phase 6, removed after it), the cards in hand.

How many scorings are left follows the end of the game (`end.game_over`): the track's last box (`last_year`) and the
chance that every pagan player has been christianised by then (phase 10's chances on the turn track), so silver and
ships lose their worth as the end draws near and a conquest now is worth more early than late.

Only what `seat` may see is read: the table (public) and the sizes of hands, never a card's kind, so two worlds that
differ only in hidden cards evaluate alike. The module is written for mypyc (typed functions over the `Position`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import GIVE_CARD, KINGDOMS, PLAY_CARD, TRADING, WAR
from skald.games.vikingatid.board import Board
from skald.games.vikingatid.end import last_turn
from skald.games.vikingatid.position import Position

if TYPE_CHECKING:
    from skald.games.vikingatid.situation import Situation

#: Phases of the turn (the rulebook's numbers) that the worth depends on.
ELECTIONS: Final = 3
BUYING: Final = 5
JOURNEYS: Final = 6
SCORING: Final = 9
CHRISTIANISATION: Final = 10
#: VP a king scores each phase 9 ("two points per turn and kingdom").
KING_VP: Final = 2.0
#: VP each camp gives at the end ("one victory point for each of his camps"), a little less for the camps lost on
#: the way (reactions, fights, assimilation).
CAMP_VP: Final = 0.9
#: The share of a conquest's (or a throne's) worth expected to last from one turn to the next.
CONQUEST_KEPT: Final = 0.85
KING_KEPT: Final = 0.55
#: The chance that a seat not yet king of its kingdom before the elections becomes one (a rough share).
KING_BEFORE_ELECTION: Final = 0.6
#: A half-built conquest is worth this share of a finished one, times how far along it is.
PARTIAL: Final = 0.5
#: VP per silver while a phase 5 is still to come (a ship, half a camp), and after the last one (a tie-break).
SILVER_VP: Final = 0.35
SILVER_AT_END: Final = 0.001
#: VP per ship standing or under way while phase 6 is still to come (two ships build a camp).
SHIP_VP: Final = 0.45
#: VP per card in hand while the game goes on (a card is an option to act, whatever its kind).
CARD_VP: Final = 0.2
#: VP per ship standing but not under way in phase 6: ships do something only in a fleet.
STANDING_VP: Final = 0.4
#: VP a fleet's chance of doing something loses per danger point on its way to where it does it.
DANGER_COST: Final = 0.12
#: What a fleet expects to do at its best destination counts this share (the way there is uncertain).
PROSPECT: Final = 0.6
#: The faces of a D10.
D10: Final = 10
#: A path cost no fleet pays (an area out of reach).
FAR: Final = 1_000_000
#: The steps where the seat to act has begun to give or pay (a target chosen) and must now give at least one.
GIVING: Final = (S.GIFT_AMOUNT, S.BID_AMOUNT)
GIVING_CARD: Final = S.GIFT_CARD
#: The chance that a rollout plays a card where it may also do something else (pass a window, or take the step's own
#: action). Greedy bots play one in about 1% of the windows where they could (102 of 11,168 in four 4-player games),
#: while uniform play plays one in most: about 0.7 cards in every rollout of four decisions, each a shock to the
#: position (a war, a plague, an empire expanding) that real play seldom brings.
ROLLOUT_CARD: Final = 0.01


class Horizon:
    """How much of the game is still to come, from the turn track: the phase 9 scorings expected (this turn's and
    later ones, each weighted by the chance the game lasts that long and by how well a holding lasts), and whether
    a buying phase and journeys are still ahead."""

    def __init__(self, conquests: float, kings: float, later: float, this_turn: float, buying: float) -> None:
        #: Expected scorings of a conquest held now, decayed turn by turn (this turn's scoring counts fully).
        self.conquests = conquests
        #: The same for a throne held now (thrones change hands more often).
        self.kings = kings
        #: Expected scorings after this turn's, undecayed (a conquest finished later scores these at most).
        self.later = later
        #: Whether this turn's phase 9 is still to come (1.0 or 0.0).
        self.this_turn = this_turn
        #: The chance that another phase 5 comes (this turn's, or a later turn's).
        self.buying = buying


def horizon(position: Position, last_year: str) -> Horizon:
    """The scorings and buying phases still to come, with the chance each is played: a turn after this one is played
    unless every pagan player has been christianised by then (each pagan converts in phase 10 with the track's
    chance) or the track's last box is past (VA-04, VA-05). Kept once worked out: it depends on a few numbers only,
    and a search asks it at every leaf for every seat."""
    pagans = 0
    for christian in position.christian:
        if not christian:
            pagans += 1
    key = (id(position.board), last_year, position.turn, position.phase, pagans)
    found = _HORIZONS.get(key)
    if found is not None and found[0] is position.board:
        return found[1]
    span = _horizon(position.board, last_year, position.turn, position.phase, pagans)
    if len(_HORIZONS) > 10_000:
        _HORIZONS.clear()
    _HORIZONS[key] = (position.board, span)
    return span


#: `horizon`'s answers by (board, last_year, turn, phase, pagans).
_HORIZONS: dict[tuple[int, str, int, int, int], tuple[Board, Horizon]] = {}


def _horizon(board: Board, last_year: str, turn: int, phase: int, pagans: int) -> Horizon:
    """`horizon` worked out: the turns after this one, each played with the chance that some pagan is left."""
    last = last_turn(board, last_year)
    this_turn = 1.0 if phase <= SCORING else 0.0
    conquests = this_turn
    kings = this_turn
    later = 0.0
    # Chance that one given pagan is still pagan after the phase 10 just before the turn being looked at.
    still_pagan = 1.0
    first_roll = turn if phase <= CHRISTIANISATION else turn + 1
    kept_conquest = 1.0
    kept_king = 1.0
    next_turn_played = 0.0
    u = turn + 1
    while last <= 0 or u <= last:
        if u - 1 >= first_roll:
            still_pagan *= 1.0 - _chance(board, u - 1) / D10
        if pagans == 0:
            played = 0.0
        else:
            all_converted = (1.0 - still_pagan) ** pagans
            played = 1.0 - all_converted
        if played < 0.01:
            break
        if u == turn + 1:
            next_turn_played = played
        kept_conquest *= CONQUEST_KEPT
        kept_king *= KING_KEPT
        conquests += played * kept_conquest
        kings += played * kept_king
        later += played
        u += 1
    buying = 1.0 if phase <= BUYING else next_turn_played
    return Horizon(conquests, kings, later, this_turn, buying)


def _chance(board: Board, turn: int) -> int:
    """The christianisation chance (tenths) of a turn's box; beyond the last box, the last box's (VA-05)."""
    track = board.turn_track
    if board.year(turn) < track.christianisation_from:
        return 0
    best = 0
    best_turn = -1
    for box in track.turns:
        if box.turn == turn:
            return box.chance
        if box.turn > best_turn:
            best, best_turn = box.chance, box.turn
    return best


def camp_worth(position: Position, seat: int, span: Horizon) -> float:
    """The seat's camps: a final VP each, each conquered area its trade value at every scoring to come, and an area
    on the way to conquest (the seat alone there) a share of it by how many of the camps it needs are built."""
    n = position.num_areas
    board = position.board
    # Only the camps he controls are worth anything to him (separatist camps are no one's, VA-22).
    own = position.controlled_row(seat)
    value = 0.0
    for slot in range(n):
        trading = own[slot]
        war = own[n + slot]
        fief = position.fief[slot] == seat and war > 0
        if trading == 0 and war == 0:
            continue
        value += CAMP_VP * (trading + war)
        alone = True
        for other in range(position.num_players):
            if other != seat and (position.camps[other][slot] > 0 or position.camps[other][n + slot] > 0):
                alone = False
                break
        if not alone and not fief:
            continue
        area = board.areas[slot]
        worth = float(position.trade_value(area.id))
        need_trading = int(worth)
        need_war = area.shields
        if fief or (trading >= need_trading and war >= need_war):
            value += worth * span.conquests
            continue
        need = need_trading + need_war
        built = min(trading, need_trading) + min(war, need_war)
        value += PARTIAL * worth * span.later * built / need
    return value


def throne_worth(position: Position, seat: int, span: Horizon) -> float:
    """The thrones the seat holds, 2 VP at each scoring while held; before this turn's elections a throne is only
    likely to be kept."""
    thrones = 0
    for k in range(len(KINGDOMS)):
        if position.king[k] == seat:
            thrones += 1
    if thrones == 0:
        return 0.0
    worth = KING_VP * thrones * span.kings
    if position.phase <= ELECTIONS:
        worth *= KING_BEFORE_ELECTION
    return worth


def discovery_worth(position: Position, seat: int) -> float:
    """The lands the seat discovered this turn, scored at this turn's phase 9 if it is still to come."""
    if position.phase > SCORING:
        return 0.0
    vp = position.board.discovery.vp
    value = 0.0
    for slot in range(position.num_areas):
        if position.discovered_by[slot] == seat and position.discovered_turn[slot] == position.turn:
            value += vp
    return value


class Routes:
    """The cheapest way between every two areas of a board by sea and river: the danger of the areas entered on the
    way, plus one a move (so of two equally safe ways the shorter wins). The movement rules' finer limits (land
    crossings, closed kingdoms and cores) are left out: this is for a heuristic's sense of direction."""

    def __init__(self, board: Board) -> None:
        n = len(board.areas)
        slots = {area.id: slot for slot, area in enumerate(board.areas)}
        neighbours: list[list[int]] = []
        for area in board.areas:
            linked = [slots[other] for other in area.sea_links if other in slots]
            linked += [slots[other] for other in area.river_links if other in slots]
            neighbours.append(linked)
        entry = [area.danger + 1 for area in board.areas]
        self.cost: list[list[int]] = [_cheapest(start, neighbours, entry, n) for start in range(n)]
        #: The slots of the areas where a fleet may build camps (land, no Viking kingdom or empire core).
        self.camp_slots: list[int] = [
            slot
            for slot, area in enumerate(board.areas)
            if area.is_land and not area.no_camps and area.kind != "empire_core"
        ]


def _cheapest(start: int, neighbours: list[list[int]], entry: list[int], n: int) -> list[int]:
    """Cheapest costs from `start` to every slot (Dijkstra on a board of a few dozen areas, by plain scans)."""
    cost = [FAR] * n
    done = [False] * n
    cost[start] = 0
    for _ in range(n):
        best = FAR
        at = -1
        for slot in range(n):
            if not done[slot] and cost[slot] < best:
                best, at = cost[slot], slot
        if at < 0:
            break
        done[at] = True
        for nxt in neighbours[at]:
            through = best + entry[nxt]
            if through < cost[nxt]:
                cost[nxt] = through
    return cost


#: The routes of each board seen, built once (a board is immutable).
_ROUTES: dict[int, tuple[Board, Routes]] = {}


def routes(board: Board) -> Routes:
    """The `Routes` of `board`, built on first use."""
    key = id(board)
    found = _ROUTES.get(key)
    if found is not None and found[0] is board:
        return found[1]
    made = Routes(board)
    _ROUTES[key] = (board, made)
    return made


def camp_gain(position: Position, seat: int, slot: int, span: Horizon) -> float:
    """What one more camp of the seat in the area at `slot` adds besides its final VP: a step towards conquering it,
    if no one else has a camp there."""
    n = position.num_areas
    for other in range(position.num_players):
        if other != seat and (position.camps[other][slot] > 0 or position.camps[other][n + slot] > 0):
            return 0.0
    area = position.board.areas[slot]
    worth = float(position.trade_value(area.id))
    need = int(worth) + area.shields
    if need <= 0:
        return 0.0
    return PARTIAL * worth * span.later / need


def destination_worth(position: Position, seat: int, kind: str, size: int, slot: int, span: Horizon) -> float:
    """What a fleet of `kind` and `size` may gain at the area at `slot`, over keeping its ships: a trading fleet its
    trade (silver for a ship) and the trading camps there is room for; a war fleet the war camps there is room for,
    less the ships the armies are likely to sink."""
    area = position.board.areas[slot]
    if area.undiscovered and position.discovered_by[slot] < 0:
        return 0.0
    n = position.num_areas
    rate = SILVER_AT_END + (SILVER_VP - SILVER_AT_END) * span.buying
    per_camp = camp_gain(position, seat, slot, span) + CAMP_VP - 2 * SHIP_VP
    if kind == TRADING:
        if position.plundered[slot]:
            return 0.0
        value = 0.0
        trade = position.trade_value(area.id)
        if not position.trade_stop[slot] and area.kind != "viking_kingdom":
            value += max(trade * rate - SHIP_VP, 0.0)
        room = trade
        for row in position.camps:
            room -= row[slot]
        camps = min(room, size // 2)
        if camps > 0 and per_camp > 0:
            value += camps * per_camp
        return value
    if kind == WAR and not area.no_war_fleets and area.shields > 0:
        room = area.shields
        for row in position.camps:
            room -= row[n + slot]
        camps = min(room, size // 2)
        armies = max(area.shields - (area.shields - room), 0)
        if camps > 0 and per_camp > 0:
            return max(camps * per_camp - armies * 0.5 * SHIP_VP, 0.0)
    return 0.0


def fleet_prospect(position: Position, seat: int, kind: str, size: int, at: int, span: Horizon) -> float:
    """The best a fleet at slot `at` may still do this phase: the worth of its best destination less the danger of
    the way there, counted at `PROSPECT` (so doing it is always worth more than being able to)."""
    ways = routes(position.board)
    cost = ways.cost[at]
    best = 0.0
    for slot in ways.camp_slots:
        way = cost[slot]
        if way >= FAR:
            continue
        worth = destination_worth(position, seat, kind, size, slot, span)
        if worth <= 0:
            continue
        net = worth - DANGER_COST * way
        if net > best:
            best = net
    return PROSPECT * best


def ships_worth(position: Position, seat: int, span: Horizon) -> float:
    """The seat's ships while phase 6 is still to come (they are removed after it): standing ships, and each fleet
    under way with what it may still do, less the ships it is expected to lose at its next danger roll (a D10 at
    most its count loses that many, a 10 saves; VA-48)."""
    if position.phase > JOURNEYS:
        return 0.0
    standing = 0.0
    for count in position.ships[seat]:
        standing += count
    value = (STANDING_VP if position.phase == JOURNEYS else SHIP_VP) * standing
    for fleet in position.fleets:
        if fleet.owner != seat:
            continue
        lost = 0.0
        for roll in range(1, min(fleet.danger, D10 - 1) + 1):
            lost += min(roll, fleet.size)
        value += SHIP_VP * (fleet.size - lost / D10)
        value += fleet_prospect(position, seat, fleet.kind, fleet.size, position.slot(fleet.area), span)
    return value


def silver_worth(position: Position, seat: int, span: Horizon) -> float:
    """The seat's silver and its share of its kingdom's treasury (half to a king, the rest shared in phase 4), worth
    ships while a phase 5 is still to come."""
    silver = float(position.silver[seat])
    kingdom = position.kingdom_of(seat)
    if kingdom in KINGDOMS and not position.emigrated[seat]:
        k = KINGDOMS.index(kingdom)
        members = len(position.members(kingdom))
        treasury = float(position.treasury[k])
        if treasury > 0 and members > 0:
            silver += treasury * (0.5 if position.king[k] == seat else 0.5 / members)
    rate = SILVER_AT_END + (SILVER_VP - SILVER_AT_END) * span.buying
    return rate * silver


def evaluate_position(position: Position, seat: int, hand_size: int, last_year: str) -> float:
    """The seat's worth on `position` holding `hand_size` cards, with the game ending as `last_year` says."""
    span = horizon(position, last_year)
    value = float(position.vp[seat])
    value += camp_worth(position, seat, span)
    value += throne_worth(position, seat, span)
    value += discovery_worth(position, seat)
    value += ships_worth(position, seat, span)
    value += silver_worth(position, seat, span)
    if span.later > 0 or span.this_turn > 0:
        value += CARD_VP * hand_size
    return value


def evaluate(state: Situation, seat: int) -> float:
    """The seat's expected final VP, roughly; its exact VP once the game is over (silver a hair's tie-break). Reads
    the public table and the size of the seat's hand only."""
    position = state.position
    if state.is_terminal():
        return float(position.vp[seat]) + SILVER_AT_END * position.silver[seat]
    value = evaluate_position(position, seat, state.deck.hand_size(seat), str(state.options["last_year"]))
    if state.current_player() == seat:
        # A gift or payment begun (its target chosen) gives at least one silver or card: count it now, so that
        # choosing a target is not mistaken for free.
        if state.step in GIVING:
            value -= SILVER_VP
        elif state.step == GIVING_CARD:
            value -= CARD_VP
    return value


def rollout_action(legal: list[int], rng: random.Random) -> int:
    """What a search's rollout plays among `legal`: a card with chance `ROLLOUT_CARD` where something else may be
    done instead (each card alike), else one of the other actions uniformly. Reads only the action ids, which the seat
    to act may see."""
    plays: list[int] = []
    others: list[int] = []
    for action in legal:
        if PLAY_CARD <= action < GIVE_CARD:
            plays.append(action)
        else:
            others.append(action)
    if not plays or not others:
        return legal[rng.randrange(len(legal))]
    if rng.random() < ROLLOUT_CARD:
        return plays[rng.randrange(len(plays))]
    return others[rng.randrange(len(others))]
