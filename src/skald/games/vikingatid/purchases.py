"""Phase 5, "Buying Ships", with "Pulling down camps": each player in turn pulls down camps, then buys and places.

Rule text: "Each player buys ships for all of their silver. There are two types of ships: war ships and trading
ships. Each ship costs one silver. A player may buy trading and war ships as long as the total number of ships does
not exceed his amount of silver." "Ships may be placed in the home country or at trading or war camps the player
owns. The number of ships to be placed in the home country is not limited. At each camp, two ships of the
corresponding type may be placed." Pulling down camps: "Each camp can be pulled down. The player removes them and
places ONE ship of the appropriate type in the area. This is done in phase 5, when new ships are placed on the
map." Emigration: an emigrant "may not place any new ships in that kingdom" and "may built as many ships as he
likes in his new home country"; a homeless player "loses the possibility to place an unlimited number of ships in
his home country".

Skald's readings (VA-43, VA-06): players act one at a time in seat order from the turn's first seat; each first
pulls down any of his camps (one action a camp), then buys: he names the type and the place, then the number. Under
`purchase: all_silver` he must go on buying while he has the price of a ship and a place for it (silver he cannot
place stays with him); under `up_to_silver` he may stop ("done") at any time. A camp takes at most two ships of its
type per camp this phase; the price is the board's `ship_cost`. A player with no camp is not asked to pull down, and
a player who cannot buy is not asked to buy.
"""

from __future__ import annotations

from typing import Final, Protocol

from skald.engine import IllegalAction
from skald.games.vikingatid.actions import AMOUNT, DONE, KINGDOMS, MAX_AMOUNT, SHIP_TYPES, ActionSpace
from skald.games.vikingatid.emigration import check_homeless
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.setup import start_position
from skald.games.vikingatid.steps import BUY_AMOUNT, BUY_SHIPS, PULL_DOWN, seat_order

#: The step value once phase 5 is over.
OVER: Final = -1
#: Ships a camp takes this phase, per camp (rule text: "At each camp, two ships of the corresponding type").
SHIPS_PER_CAMP: Final = 2
ALL_SILVER: Final = "all_silver"
UP_TO_SILVER: Final = "up_to_silver"


class Purchases:
    """Phase 5 under way: the seats still to act, the step and the buyer's choice of type and place, and the ships
    each camp area has taken this phase (per seat, type and slot). Plain class, cloned through its constructor."""

    def __init__(self, num_players: int, num_areas: int, mode: str, source: Purchases | None = None) -> None:
        if mode not in (ALL_SILVER, UP_TO_SILVER):
            raise ValueError(f"purchase: {mode!r} is not one of ['all_silver', 'up_to_silver']")
        self.num_players: Final = num_players
        self.num_areas: Final = num_areas
        self.mode: Final = mode
        if source is not None:
            self.queue: list[int] = list(source.queue)
            self.step: int = source.step
            self.kind: str = source.kind
            self.area: str = source.area
            self.placed: list[list[int]] = [list(row) for row in source.placed]
            self.bought: list[int] = list(source.bought)
            return
        self.queue = []
        self.step = OVER
        self.kind = ""
        self.area = ""
        self.placed = [[0] * (len(SHIP_TYPES) * num_areas) for _ in range(num_players)]
        self.bought = [0] * num_players

    def clone(self) -> Purchases:
        """An independent copy."""
        return Purchases(self.num_players, self.num_areas, self.mode, self)

    @property
    def buyer(self) -> int:
        """The seat acting now, or -1 once the phase is over."""
        return self.queue[0] if self.queue and self.step != OVER else -1


def home_area(position: Position, seat: int) -> str:
    """Where the seat places ships without limit: his Viking kingdom, or after emigrating his home country ("" if
    homeless)."""
    if position.emigrated[seat]:
        return position.home[seat]
    kingdom = position.kingdom_of(seat)
    return position.board.kingdom_area(kingdom).id if kingdom in KINGDOMS else ""


def ship_cost(position: Position) -> int:
    """The price of one ship (the board's `ship_cost`: 'Each ship costs one silver')."""
    return start_position(position.board).ship_cost


def room(position: Position, purchases: Purchases, seat: int, kind: str, area_id: str) -> int:
    """How many more ships of `kind` the seat may place in the area this phase: any number at home (MAX_AMOUNT
    stands for that), two per own camp of the type less what he placed there already, else 0. A camp in a
    separatist area is not his ("not under control of any player", VA-22): it takes no ships."""
    if area_id == home_area(position, seat):
        return MAX_AMOUNT
    camps = position.controlled_camps(seat, kind, area_id)
    index = SHIP_TYPES.index(kind) * position.num_areas + position.slot(area_id)
    return max(SHIPS_PER_CAMP * camps - purchases.placed[seat][index], 0)


def places(position: Position, purchases: Purchases, seat: int) -> list[tuple[str, str]]:
    """The (type, area) pairs the seat may place bought ships in now, types then board order."""
    home = home_area(position, seat)
    n = position.num_areas
    camps = position.controlled_row(seat)
    found = []
    area_ids = position.area_ids
    for index in range(len(camps)):
        area_id = area_ids[index % n]
        if not camps[index] and area_id != home:
            continue
        kind = SHIP_TYPES[index // n]
        if room(position, purchases, seat, kind, area_id) > 0:
            found.append((kind, area_id))
    return found


def can_buy(position: Position, purchases: Purchases, seat: int) -> bool:
    """Whether the seat has the price of a ship and a place for it."""
    return position.silver[seat] >= ship_cost(position) and bool(places(position, purchases, seat))


def amounts(position: Position, purchases: Purchases) -> range:
    """The numbers of ships the buyer may buy at his chosen place: 1 up to what his silver pays for and the place
    takes (at most MAX_AMOUNT in one action; more takes another)."""
    seat = purchases.buyer
    most = min(
        position.silver[seat] // ship_cost(position),
        room(position, purchases, seat, purchases.kind, purchases.area),
        MAX_AMOUNT,
    )
    return range(1, most + 1)


def own_camps(position: Position, seat: int) -> list[tuple[str, str]]:
    """The (type, area) pairs where the seat has camps to pull down, types then board order: only camps under his
    control (separatist camps are no one's to pull down, VA-22)."""
    return [
        (kind, area_id)
        for kind in SHIP_TYPES
        for area_id in position.area_ids
        if position.controlled_camps(seat, kind, area_id)
    ]


def begin(position: Position, mode: str) -> Purchases:
    """Phase 5 starts with the turn's first seat."""
    purchases = Purchases(position.num_players, position.num_areas, mode)
    purchases.queue = seat_order(position.first_seat, position.num_players)
    purchases.step = PULL_DOWN
    _settle(position, purchases)
    return purchases


def _settle(position: Position, purchases: Purchases) -> None:
    """The next decision: the seat at the head of the queue pulls down (if he has camps), then buys (if he can);
    then the next seat."""
    while purchases.queue:
        seat = purchases.queue[0]
        if purchases.step == PULL_DOWN:
            if own_camps(position, seat):
                return
            purchases.step = BUY_SHIPS
        if purchases.step == BUY_AMOUNT:
            return
        if can_buy(position, purchases, seat):
            purchases.step = BUY_SHIPS
            return
        purchases.queue.pop(0)
        purchases.step = PULL_DOWN
    purchases.step = OVER


def pull_down(position: Position, purchases: Purchases, kind: str, area_id: str) -> None:
    """The buyer pulls down one of his camps: ONE ship of its type stands in the area instead. A camp of his home
    country pulled down makes him homeless at once (VA-61), before it is settled where his purchases may go."""
    seat = purchases.buyer
    position.remove_camps(seat, kind, area_id, 1)
    position.place_ships(seat, kind, area_id, 1)
    check_homeless(position)
    _settle(position, purchases)


def resettle(position: Position, purchases: Purchases) -> None:
    """Settle the decision again after the table changed under it (a card played before the buyer's decision may
    take his camps or his home): a chosen place with no room left, or a buyer with nothing left to buy, moves on."""
    if purchases.step == BUY_AMOUNT and not amounts(position, purchases):
        purchases.step, purchases.kind, purchases.area = BUY_SHIPS, "", ""
    if purchases.step == BUY_SHIPS and purchases.queue and not can_buy(position, purchases, purchases.queue[0]):
        purchases.queue.pop(0)
        purchases.step = PULL_DOWN
    _settle(position, purchases)


def done_pulling_down(position: Position, purchases: Purchases) -> None:
    """The buyer pulls down no more camps; he buys next."""
    purchases.step = BUY_SHIPS
    _settle(position, purchases)


def choose_place(purchases: Purchases, kind: str, area_id: str) -> None:
    """The buyer names the type and the place; the number follows."""
    purchases.step, purchases.kind, purchases.area = BUY_AMOUNT, kind, area_id


def buy(position: Position, purchases: Purchases, n: int) -> None:
    """The buyer pays for `n` ships and places them."""
    seat = purchases.buyer
    position.spend_silver(seat, n * ship_cost(position))
    position.place_ships(seat, purchases.kind, purchases.area, n)
    index = SHIP_TYPES.index(purchases.kind) * position.num_areas + position.slot(purchases.area)
    purchases.placed[seat][index] += n
    purchases.bought[seat] += n
    purchases.step, purchases.kind, purchases.area = BUY_SHIPS, "", ""
    _settle(position, purchases)


def done_buying(position: Position, purchases: Purchases) -> None:
    """The buyer stops buying (`up_to_silver` only); the next seat acts."""
    purchases.queue.pop(0)
    purchases.step = PULL_DOWN
    _settle(position, purchases)


def done(purchases: Purchases) -> bool:
    """Whether phase 5 is over."""
    return purchases.step == OVER


# -- the steps (`step_rules.STEP_RULES`): PULL_DOWN, BUY_SHIPS and BUY_AMOUNT --------------------------------------


class PurchaseTable(Protocol):
    """What phase 5's steps read of the state (`situation.Situation` is one)."""

    position: Position
    purchases: Purchases

    @property
    def space(self) -> ActionSpace: ...


def legal_pull_down(table: PurchaseTable) -> list[int]:
    """Done, or one of the buyer's own camps to pull down."""
    space = table.space
    return [DONE, *(space.pull_down(k, a) for k, a in own_camps(table.position, table.purchases.buyer))]


def apply_pull_down(table: PurchaseTable, action: int) -> None:
    """The buyer is done pulling down, or pulls down a camp (which may leave him homeless)."""
    position = table.position
    if action == DONE:
        done_pulling_down(position, table.purchases)
        return
    data = table.space.to_json(action)
    pull_down(position, table.purchases, data["camp"], data["area"])
    check_homeless(position)


def legal_buy_ships(table: PurchaseTable) -> list[int]:
    """A ship type and place to buy for, and done under `purchase: up_to_silver`."""
    space, bought = table.space, table.purchases
    finish = [DONE] if bought.mode == UP_TO_SILVER else []
    return [*finish, *(space.buy(k, a) for k, a in places(table.position, bought, bought.buyer))]


def apply_buy_ships(table: PurchaseTable, action: int) -> None:
    """The buyer is done, or chooses the type and place of the ships he buys next."""
    if action == DONE:
        done_buying(table.position, table.purchases)
        return
    data = table.space.to_json(action)
    choose_place(table.purchases, data["ships"], data["area"])


def legal_buy_amount(table: PurchaseTable) -> list[int]:
    """How many ships of the chosen type the buyer may place there."""
    return [AMOUNT + n - 1 for n in amounts(table.position, table.purchases)]


def apply_buy_amount(table: PurchaseTable, action: int) -> None:
    """The buyer buys that many ships."""
    buy(table.position, table.purchases, action - AMOUNT + 1)


def explain_purchase(table: PurchaseTable, action: int) -> IllegalAction:
    """Why a pull-down, purchase or number is illegal in phase 5."""
    position, bought, space = table.position, table.purchases, table.space
    seat = bought.buyer
    data = space.to_json(action)
    if data["type"] == "done":
        return IllegalAction(
            "VA-43",
            f"'Each player buys ships for all of their silver': seat {seat + 1} has {position.silver[seat]} silver "
            "and a place for ships (rule option purchase: all_silver)",
        )
    if data["type"] in ("pull_down", "buy") and position.separatists[position.slot(data["area"])]:
        return IllegalAction(
            "VA-22",
            f"the camps in {space.area_name(data['area'])} are separatists', 'not under control of any "
            f"player' (UTBRYTARE): seat {seat + 1} can neither pull them down nor place ships at them",
        )
    if data["type"] == "pull_down":
        name = space.area_name(data["area"])
        return IllegalAction("VA-43", f"seat {seat + 1} has no {data['camp']} camp in {name} to pull down")
    if data["type"] == "buy":
        name = space.area_name(data["area"])
        return IllegalAction(
            "5. Buying Ships",
            f"{data['ships']} ships go in the home country or at the player's own {data['ships']} camps, two per "
            f"camp: {name} takes no more of seat {seat + 1}'s",
        )
    most = len(amounts(position, bought))
    return IllegalAction(
        "VA-43",
        f"seat {seat + 1} may buy at most {most} {bought.kind} ships at {space.area_name(bought.area)} now "
        f"({position.silver[seat]} silver; two ships per camp, any number at home)",
    )
