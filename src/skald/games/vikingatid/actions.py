"""The fixed action space of Vikingatid: integer ids, their JSON form and a notation that reads as the rulebook speaks.

| Ids | Block | Notation (bare) |
|---|---|---|
| 0–2 | choose a kingdom | choose Norge |
| 3–22 | single decisions (23–26 spare) | trade, end journey |
| 27–186 | start a fleet: type × area slot | war fleet from Norge |
| 187–266 | move to an area | to Nordsjön |
| 267–426 | place bought ships: type × area | buy trading ships at Gutland |
| 427–586 | pull down a camp: type × area | pull down a war camp in Mercien |
| 587–596 | build 1–5 trading (587–591) or war (592–596) camps | build 2 trading camps |
| 597–603 | pay onto a roll: seat 0–5 (597–602) or the kingdom's (603) | pay onto the kingdom's roll |
| 604–609 | give silver to seat 0–5 | give silver to seat 3 |
| 610–612 | offer a King's Peace to a kingdom | offer King's Peace to Danavalde |
| 613–692 | emigrate to an area | emigrate to Normandie |
| 693–791 | an amount 1–99 | amount 3 |
| 792–801 | chance: a D10 face | roll 7 |
| 802–843 | chance: hits 0–20, without (802–822) or with (823–843) a 1 | 3 hits and a 1 |
| 844–885 | play a card, by kind | play FRED |
| 886–927 | give a card, by kind | give FRED |
| 928–969 | discard a card, by kind | discard FRED |
| 970–1011 | chance: draw a card, by kind | draw FRED |
| 1012–1017 | a card's target seat 0–5 | on seat 2 |
| 1018–1020 | a card's target kingdom | on Danavalde |
| 1021–1100 | a card's target area | at Mercien |
| 1101–1106 | give a card to seat 0–5 | give a card to seat 2 |

The JSON forms: {"type": "kingdom", "kingdom": "norway"}, {"type": "trade"}, {"type": "fleet", "ships": "war",
"area": "norge"}, {"type": "move", "area": "nordsjon"}, {"type": "buy", "ships": "trading", "area": "gotland"},
{"type": "pull_down", "camp": "war", "area": "mercien"}, {"type": "build", "camp": "trading", "count": 2},
{"type": "pay_onto", "roll": "kingdom"} (or a seat), {"type": "give_silver", "to": 2}, {"type": "offer_peace",
"kingdom": "denmark"}, {"type": "emigrate", "area": "normandie"}, {"type": "amount", "n": 3}, {"type": "roll",
"face": 7}, {"type": "hits", "n": 3, "one": true}.

Areas take slots in the order of the board file; JSON names them by id, so a record keeps its meaning when the file
is reordered. Seats are 0-based in JSON and 1-based in notation ("seat 3" is seat 2). A target or an amount is a
second action after the choice it completes; given the `Phrase` the position reads, the notation of that second
action is the whole sentence ("war fleet of 5 from Norge to Nordsjön", "pay 3 silver onto Svea Rike's roll"), and
the sentence parses back to the same id. docs/vikingatid.md, "The action space", gives the reasons.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final, NamedTuple

from skald.engine.messages import shown
from skald.games.vikingatid.board import MAX_AREAS, Board

#: The Viking kingdoms in the rulebook's order (elections: "Denmark, Norway and Sweden, in this order").
KINGDOMS: Final = ("denmark", "norway", "sweden")
#: The two types of ships, fleets and camps (rule text, 5. Buying Ships; 6.3, 6.4).
TRADING: Final = "trading"
WAR: Final = "war"
SHIP_TYPES: Final = (TRADING, WAR)
#: The most seats (2–6 players).
MAX_SEATS: Final = 6
#: The largest amount one action carries; larger sums take two actions, which add up.
MAX_AMOUNT: Final = 99
#: The most camps one build action places (an area's cap is its coins or shields, at most five on any board).
MAX_BUILD: Final = 5
#: The most hits one chance node reports: a side with more dice rolls them in nodes of at most this many.
MAX_HITS: Final = 20
#: The 42 card kinds (VA-12: the 40 card texts, PEST! counted three times), by id in the rule text's order (the
#: Swedish alphabetical list, the three untitled cards at their places, VA-13). Their titles, texts, counts and
#: windows are data (`cards.data`, data/cards.toml); the ids are fixed here so no action id moves when the data changes.
CARD_IDS: Final = (
    "protection",
    "good_trade",
    "british_attack",
    "byzantine_expansion",
    "berserk",
    "exile",
    "peace",
    "free_trade",
    "free_passage",
    "heritage",
    "mines_dry",
    "divine_intervention",
    "trade_stop",
    "sea_monsters",
    "war",
    "election_influence",
    "initiative",
    "khazars",
    "christianisation",
    "king",
    "magyar_hordes",
    "invalid_election",
    "plague_east",
    "plague_south",
    "plague_west",
    "pecheneg_hordes",
    "unifier",
    "robbers",
    "sea_storm",
    "small_kingdom",
    "berserks_west",
    "berserks_east",
    "thors_hammer",
    "religious_quarrel",
    "german_attack",
    "rebellion",
    "discovery",
    "separatists",
    "friendly_town",
    "varangian_guard",
    "western_expansion",
    "eastern_expansion",
)
CARD_KINDS: Final = len(CARD_IDS)
#: The card action blocks, each by kind: play, give, discard, and chance's draw.
CARD_VERBS: Final = ("play", "give_card", "discard", "draw")

#: The single decisions, in id order: (JSON type, notation).
SINGLES: Final = (
    ("pass", "pass"),
    ("done", "done"),
    ("stop", "stop"),
    ("end_journey", "end journey"),
    ("trade", "trade"),
    ("plunder", "plunder"),
    ("fight_on", "fight on"),
    ("withdraw", "withdraw"),
    ("destroy", "destroy trading camps"),
    ("allow", "allow"),
    ("forbid", "forbid"),
    ("ask_duty", "ask duty"),
    ("pay_duty", "pay duty"),
    ("fight", "fight"),
    ("turn_away", "turn away"),
    ("bar_sea", "bar Danavalde's sea"),
    ("declare_war", "declare war"),
    ("no_war", "no war"),
    ("accept_peace", "accept peace"),
    ("decline_peace", "decline peace"),
    ("adopt", "adopt the king's religion"),
    ("refuse", "refuse the king's religion"),
)
#: A single decision's words with the kingdom's English name, read as the board's name is.
_ENGLISH: Final = {"bar Danavalde's sea": "bar Denmark's sea"}
SPARE_SINGLES: Final = 2

KINGDOM: Final = 0
SINGLE: Final = KINGDOM + len(KINGDOMS)
FLEET: Final = SINGLE + len(SINGLES) + SPARE_SINGLES
MOVE: Final = FLEET + len(SHIP_TYPES) * MAX_AREAS
BUY: Final = MOVE + MAX_AREAS
PULL_DOWN: Final = BUY + len(SHIP_TYPES) * MAX_AREAS
BUILD: Final = PULL_DOWN + len(SHIP_TYPES) * MAX_AREAS
PAY_ONTO: Final = BUILD + len(SHIP_TYPES) * MAX_BUILD
PAY_ONTO_KINGDOM: Final = PAY_ONTO + MAX_SEATS
GIVE_SILVER: Final = PAY_ONTO_KINGDOM + 1
OFFER_PEACE: Final = GIVE_SILVER + MAX_SEATS
EMIGRATE: Final = OFFER_PEACE + len(KINGDOMS)
AMOUNT: Final = EMIGRATE + MAX_AREAS
ROLL: Final = AMOUNT + MAX_AMOUNT
HITS: Final = ROLL + 10
CARDS: Final = HITS + 2 * (MAX_HITS + 1)
PLAY_CARD: Final = CARDS
GIVE_CARD: Final = CARDS + CARD_KINDS
DISCARD: Final = CARDS + 2 * CARD_KINDS
DRAW: Final = CARDS + 3 * CARD_KINDS
CARD_TARGETS: Final = CARDS + 4 * CARD_KINDS
TARGET_SEAT: Final = CARD_TARGETS
TARGET_KINGDOM: Final = TARGET_SEAT + MAX_SEATS
TARGET_AREA: Final = TARGET_KINGDOM + len(KINGDOMS)
GIVE_CARD_TO: Final = TARGET_AREA + MAX_AREAS
NUM_ACTIONS: Final = GIVE_CARD_TO + MAX_SEATS

#: The single decisions' ids (their places in `SINGLES`; a test checks them).
PASS: Final = SINGLE + 0
DONE: Final = SINGLE + 1
STOP: Final = SINGLE + 2
END_JOURNEY: Final = SINGLE + 3
TRADE: Final = SINGLE + 4
PLUNDER: Final = SINGLE + 5
FIGHT_ON: Final = SINGLE + 6
WITHDRAW: Final = SINGLE + 7
DESTROY: Final = SINGLE + 8
ALLOW: Final = SINGLE + 9
FORBID: Final = SINGLE + 10
ASK_DUTY: Final = SINGLE + 11
PAY_DUTY: Final = SINGLE + 12
FIGHT: Final = SINGLE + 13
TURN_AWAY: Final = SINGLE + 14
BAR_SEA: Final = SINGLE + 15
DECLARE_WAR: Final = SINGLE + 16
NO_WAR: Final = SINGLE + 17
ACCEPT_PEACE: Final = SINGLE + 18
DECLINE_PEACE: Final = SINGLE + 19
#: The single decisions of the reply to a duty or a ban, by their JSON type.
REPLIES: Final = {"pay_duty": PAY_DUTY, "fight": FIGHT, "turn_away": TURN_AWAY}
#: The ids of a number of hits with a 1 among the armies' dice start here (VA-55).
HITS_WITH_ONE: Final = HITS + MAX_HITS + 1

# The kinds of phrase a position can ask the next action to finish.
NO_PHRASE: Final = ""
FLEET_SIZE: Final = "fleet_size"
JOURNEY: Final = "journey"
PURCHASE: Final = "purchase"
PAYMENT: Final = "payment"
ELECTION: Final = "election"
GIFT: Final = "gift"
DUTY: Final = "duty"
BUILDING: Final = "building"
CARD: Final = "card"
CARD_GIFT: Final = "card_gift"
PHRASES: Final = (NO_PHRASE, FLEET_SIZE, JOURNEY, PURCHASE, PAYMENT, ELECTION, GIFT, DUTY, BUILDING, CARD, CARD_GIFT)

_NUMBER: Final = r"([0-9]{1,9})"
_SHIPS: Final = r"(trading|war)"


class Phrase(NamedTuple):
    """The sentence the next action finishes, as the position tells it; the notation of that action is then the
    whole sentence.

    `kind` is one of PHRASES: FLEET_SIZE (the amount after "war fleet from Norge": `ships`, `area`), JOURNEY (a
    move of the fleet under way: `ships`, `size`, `area` where it is), PURCHASE (the amount after "buy war ships at
    Norge": `ships`, `area`), PAYMENT (the amount after choosing a roll: `seat`, or `kingdom` for the kingdom's
    roll), ELECTION (a choice of roll in `kingdom`'s election), GIFT (the amount after "give silver to": `seat`),
    DUTY (the amount of a duty asked), BUILDING (a build in `area`), CARD (the target of the card `card` just
    played), CARD_GIFT (the kind of card given to `seat`).
    """

    kind: str
    ships: str = ""
    area: str = ""
    size: int = 0
    seat: int = -1
    kingdom: str = ""
    card: str = ""


#: `_plain` of the texts seen so far (the board's names come up again and again when notation is read); bounded so
#: that text typed by people cannot grow it without end.
_PLAIN: Final[dict[str, str]] = {}
_PLAIN_LIMIT: Final = 4096


def _plain(text: str) -> str:
    """Text as names are compared: no diacritics or case, straight apostrophes, one space between words."""
    known = _PLAIN.get(text)
    if known is not None:
        return known
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'").replace("_", " "))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    plain = " ".join(stripped.lower().split())
    if len(_PLAIN) < _PLAIN_LIMIT:
        _PLAIN[text] = plain
    return plain


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    """A field of the JSON form, of the given type; `ValueError` naming the field otherwise."""
    if name not in data:
        raise ValueError(f"{name}: missing")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        expected = {int: "an integer", str: "a string", bool: "true or false"}.get(kind, kind.__name__)
        raise ValueError(f"{name}: expected {expected}, got {shown(value)}")
    return value


def _only(data: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Refuse fields the action type does not have (a misspelt field would otherwise be silently ignored)."""
    unknown = sorted(str(k) for k in data if k != "type" and k not in fields)
    if unknown:
        raise ValueError(f"{unknown[0]}: not a field of a {shown(data.get('type'))} action")


def _in_range(name: str, value: int, low: int, high: int, what: str) -> int:
    if not low <= value <= high:
        raise ValueError(f"{name}: {what} is {low}–{high}, got {value}")
    return value


class ActionSpace:
    """The action ids of one board: the area of each slot, and names that notation may use for areas and kingdoms.

    A plain class (mypyc-ready); build one per game and share it, it never changes.
    """

    def __init__(self, board: Board, cards: tuple[tuple[str, str, str], ...] = ()) -> None:
        """The space of `board`; `cards` gives each card kind's (id, title, English name) for notation (by
        default the title is the id)."""
        if len(board.areas) > MAX_AREAS:
            raise ValueError(f"board: {len(board.areas)} areas, but the action space has {MAX_AREAS} area slots")
        self.board: Final = board
        self.area_ids: Final = tuple(area.id for area in board.areas)
        self._slot: dict[str, int] = {}
        for slot, area_id in enumerate(self.area_ids):
            self._slot.setdefault(area_id, slot)
        # Each area answers to its id, name and English name (and that name before a bracket); a key two areas
        # share names neither, so a typed name never silently picks one of two areas.
        names: dict[str, str] = {}
        shared: set[str] = set()
        for area in board.areas:
            keys = {_plain(area.id), _plain(area.name), _plain(area.name_en), _plain(area.name_en.split(" (")[0])}
            for key in keys:
                if key in names and names[key] != area.id:
                    shared.add(key)
                names.setdefault(key, area.id)
        self._area_names: dict[str, str] = {k: v for k, v in names.items() if k not in shared}
        self._kingdom_names: dict[str, str] = {}
        self.kingdom_names: dict[str, str] = {}
        for kingdom in KINGDOMS:
            home = board.kingdom_area(kingdom) if _has_kingdom(board, kingdom) else None
            self.kingdom_names[kingdom] = home.name if home is not None else kingdom.capitalize()
            self._kingdom_names[_plain(kingdom)] = kingdom
            if home is not None:
                for key in (home.id, home.name, home.name_en):
                    self._kingdom_names[_plain(key)] = kingdom
        named = {card_id: (title, name) for card_id, title, name in cards}
        titles = [named.get(card_id, (card_id, card_id))[0] for card_id in CARD_IDS]
        #: Each card kind's title as notation writes it: the Swedish title as printed, or where kinds share it
        #: (PEST!, three cards) the English name, which tells them apart.
        self.card_titles: Final = tuple(
            title if titles.count(title) == 1 else named.get(card_id, (card_id, card_id))[1]
            for card_id, title in zip(CARD_IDS, titles, strict=True)
        )
        self._card_names: dict[str, int] = {}
        for index, card_id in enumerate(CARD_IDS):
            title, name = named.get(card_id, (card_id, card_id))
            for key in (card_id, title, name, self.card_titles[index]):
                if titles.count(key) < 2:
                    self._card_names.setdefault(_plain(key), index)

    # -- areas and names -----------------------------------------------------------------------------------------

    def slot(self, area_id: str) -> int:
        """The slot of an area id; `ValueError` naming it if the board has no such area."""
        try:
            return self._slot[area_id]
        except KeyError:
            raise ValueError(f"no area {shown(area_id)} on the board") from None

    def area_at(self, slot: int) -> str:
        """The id of the area in a slot; `ValueError` if the board leaves the slot empty."""
        if not 0 <= slot < len(self.area_ids):
            raise ValueError(f"area slot {slot} is empty on this board ({len(self.area_ids)} areas)")
        return self.area_ids[slot]

    def area_name(self, area_id: str) -> str:
        """The area's name as the board prints it."""
        return self.board.area(area_id).name

    def area_named(self, text: str) -> str:
        """The area id a typed name means (its id, name or English name, any case, diacritics optional)."""
        found = self._area_names.get(_plain(text))
        if found is None:
            raise ValueError(
                f"{shown(text.strip())} is not an area of the board (write its id, its name or its English name, "
                "e.g. 'norge', 'Norge' or 'Norway')"
            )
        return found

    def kingdom_named(self, text: str) -> str:
        """The kingdom a typed name means: denmark, norway, sweden, or its homeland's id or names."""
        found = self._kingdom_names.get(_plain(text))
        if found is None:
            raise ValueError(f"{shown(text.strip())} is not a Viking kingdom (Danavalde, Norge or Svea Rike)")
        return found

    def card_named(self, text: str) -> int:
        """The card kind a typed name means (its id, Swedish title or English name, any case, diacritics
        optional)."""
        found = self._card_names.get(_plain(text))
        if found is None:
            raise ValueError(f"{shown(text.strip())} is not a card (write its title, e.g. 'FRED', or its English name)")
        return found

    def _check_card(self, data: dict[str, Any]) -> int:
        card_id = _field(data, "card", str)
        if card_id not in CARD_IDS:
            raise ValueError(f"card: no card {shown(card_id)} (cards are named by id, e.g. 'peace')")
        return CARD_IDS.index(card_id)

    def _check_area(self, data: dict[str, Any], name: str = "area") -> int:
        area_id = _field(data, name, str)
        if area_id not in self._slot:
            raise ValueError(f"{name}: no area {shown(area_id)} on the board (areas are named by id, e.g. 'norge')")
        return self._slot[area_id]

    # -- ids -----------------------------------------------------------------------------------------------------

    def fleet(self, ships: str, area_id: str) -> int:
        """Start a fleet of `ships` (trading or war) in an area."""
        return FLEET + SHIP_TYPES.index(ships) * MAX_AREAS + self.slot(area_id)

    def move(self, area_id: str) -> int:
        """Move the fleet under way into an area."""
        return MOVE + self.slot(area_id)

    def buy(self, ships: str, area_id: str) -> int:
        """Place bought ships of a type in an area (the count follows as an amount)."""
        return BUY + SHIP_TYPES.index(ships) * MAX_AREAS + self.slot(area_id)

    def pull_down(self, camp: str, area_id: str) -> int:
        """Pull down a camp of a type in an area."""
        return PULL_DOWN + SHIP_TYPES.index(camp) * MAX_AREAS + self.slot(area_id)

    def emigrate(self, area_id: str) -> int:
        """Emigrate to an area (the new home country)."""
        return EMIGRATE + self.slot(area_id)

    def assigned(self, action: int) -> bool:
        """Whether an id means an action on this board: in the space, not reserved, not an empty area slot."""
        try:
            self.to_json(action)
        except ValueError:
            return False
        return True

    # -- JSON ----------------------------------------------------------------------------------------------------

    def to_json(self, action: int) -> dict[str, Any]:
        """The JSON form of an action id; `ValueError` for an id outside the space, reserved, or in an empty slot."""
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action id {action} is outside 0–{NUM_ACTIONS - 1}")
        if action < SINGLE:
            return {"type": "kingdom", "kingdom": KINGDOMS[action - KINGDOM]}
        if action < FLEET:
            index = action - SINGLE
            if index >= len(SINGLES):
                raise ValueError(f"action id {action} is a spare single decision, reserved and unused")
            return {"type": SINGLES[index][0]}
        if action < MOVE:
            kind, slot = divmod(action - FLEET, MAX_AREAS)
            return {"type": "fleet", "ships": SHIP_TYPES[kind], "area": self.area_at(slot)}
        if action < BUY:
            return {"type": "move", "area": self.area_at(action - MOVE)}
        if action < PULL_DOWN:
            kind, slot = divmod(action - BUY, MAX_AREAS)
            return {"type": "buy", "ships": SHIP_TYPES[kind], "area": self.area_at(slot)}
        if action < BUILD:
            kind, slot = divmod(action - PULL_DOWN, MAX_AREAS)
            return {"type": "pull_down", "camp": SHIP_TYPES[kind], "area": self.area_at(slot)}
        if action < PAY_ONTO:
            kind, count = divmod(action - BUILD, MAX_BUILD)
            return {"type": "build", "camp": SHIP_TYPES[kind], "count": count + 1}
        if action < PAY_ONTO_KINGDOM:
            return {"type": "pay_onto", "roll": action - PAY_ONTO}
        if action == PAY_ONTO_KINGDOM:
            return {"type": "pay_onto", "roll": "kingdom"}
        if action < OFFER_PEACE:
            return {"type": "give_silver", "to": action - GIVE_SILVER}
        if action < EMIGRATE:
            return {"type": "offer_peace", "kingdom": KINGDOMS[action - OFFER_PEACE]}
        if action < AMOUNT:
            return {"type": "emigrate", "area": self.area_at(action - EMIGRATE)}
        if action < ROLL:
            return {"type": "amount", "n": action - AMOUNT + 1}
        if action < HITS:
            return {"type": "roll", "face": action - ROLL + 1}
        if action < CARDS:
            one, n = divmod(action - HITS, MAX_HITS + 1)
            return {"type": "hits", "n": n, "one": bool(one)}
        if action < CARD_TARGETS:
            verb, kind = divmod(action - CARDS, CARD_KINDS)
            return {"type": CARD_VERBS[verb], "card": CARD_IDS[kind]}
        if action < TARGET_KINGDOM:
            return {"type": "target_seat", "seat": action - TARGET_SEAT}
        if action < TARGET_AREA:
            return {"type": "target_kingdom", "kingdom": KINGDOMS[action - TARGET_KINGDOM]}
        if action < GIVE_CARD_TO:
            return {"type": "target_area", "area": self.area_at(action - TARGET_AREA)}
        return {"type": "give_card_to", "to": action - GIVE_CARD_TO}

    def from_json(self, data: Any) -> int:
        """Parse an action's JSON form; `ValueError` naming the field at fault."""
        if not isinstance(data, dict):
            raise ValueError(f"expected an object with a 'type' field, got {shown(data)}")
        kind = data.get("type")
        if kind is None:
            raise ValueError("type: missing")
        if not isinstance(kind, str):
            raise ValueError(f"type: expected a string, got {shown(kind)}")
        for index, (single, _) in enumerate(SINGLES):
            if kind == single:
                _only(data, ())
                return SINGLE + index
        if kind in ("kingdom", "offer_peace", "target_kingdom"):
            _only(data, ("kingdom",))
            kingdom = _field(data, "kingdom", str)
            if kingdom not in KINGDOMS:
                raise ValueError(f"kingdom: expected one of {list(KINGDOMS)}, got {shown(kingdom)}")
            base = {"kingdom": KINGDOM, "offer_peace": OFFER_PEACE, "target_kingdom": TARGET_KINGDOM}[kind]
            return base + KINGDOMS.index(kingdom)
        if kind in CARD_VERBS:
            _only(data, ("card",))
            return CARDS + CARD_VERBS.index(kind) * CARD_KINDS + self._check_card(data)
        if kind == "target_seat":
            _only(data, ("seat",))
            return TARGET_SEAT + _in_range("seat", _field(data, "seat", int), 0, MAX_SEATS - 1, "a seat")
        if kind == "target_area":
            _only(data, ("area",))
            return TARGET_AREA + self._check_area(data)
        if kind == "give_card_to":
            _only(data, ("to",))
            return GIVE_CARD_TO + _in_range("to", _field(data, "to", int), 0, MAX_SEATS - 1, "a seat")
        if kind in ("fleet", "buy", "pull_down"):
            type_field = "camp" if kind == "pull_down" else "ships"
            _only(data, (type_field, "area"))
            ships = _field(data, type_field, str)
            if ships not in SHIP_TYPES:
                raise ValueError(f"{type_field}: expected 'trading' or 'war', got {shown(ships)}")
            base = {"fleet": FLEET, "buy": BUY, "pull_down": PULL_DOWN}[kind]
            return base + SHIP_TYPES.index(ships) * MAX_AREAS + self._check_area(data)
        if kind in ("move", "emigrate"):
            _only(data, ("area",))
            return (MOVE if kind == "move" else EMIGRATE) + self._check_area(data)
        if kind == "build":
            _only(data, ("camp", "count"))
            camp = _field(data, "camp", str)
            if camp not in SHIP_TYPES:
                raise ValueError(f"camp: expected 'trading' or 'war', got {shown(camp)}")
            count = _in_range("count", _field(data, "count", int), 1, MAX_BUILD, "a build")
            return BUILD + SHIP_TYPES.index(camp) * MAX_BUILD + count - 1
        if kind == "pay_onto":
            _only(data, ("roll",))
            if "roll" not in data:
                raise ValueError("roll: missing")
            roll = data["roll"]
            if roll == "kingdom":
                return PAY_ONTO_KINGDOM
            if not isinstance(roll, int) or isinstance(roll, bool):
                raise ValueError(f"roll: expected a seat 0–{MAX_SEATS - 1} or 'kingdom', got {shown(roll)}")
            return PAY_ONTO + _in_range("roll", roll, 0, MAX_SEATS - 1, "a seat")
        if kind == "give_silver":
            _only(data, ("to",))
            return GIVE_SILVER + _in_range("to", _field(data, "to", int), 0, MAX_SEATS - 1, "a seat")
        if kind == "amount":
            _only(data, ("n",))
            return AMOUNT + _in_range("n", _field(data, "n", int), 1, MAX_AMOUNT, "an amount") - 1
        if kind == "roll":
            _only(data, ("face",))
            return ROLL + _in_range("face", _field(data, "face", int), 1, 10, "a D10 face") - 1
        if kind == "hits":
            _only(data, ("n", "one"))
            n = _in_range("n", _field(data, "n", int), 0, MAX_HITS, "a number of hits")
            return HITS + (MAX_HITS + 1) * int(_field(data, "one", bool)) + n
        raise ValueError(f"type: unknown action type {shown(kind)}")

    # -- notation ------------------------------------------------------------------------------------------------

    def _roll_owner(self, phrase: Phrase | None, seat: int) -> str:
        """Whose roll a payment goes onto: 'seat 3', or the kingdom of the election under way."""
        if seat >= 0:
            return f"seat {seat + 1}"
        if phrase is not None and phrase.kingdom in KINGDOMS:
            return self.kingdom_names[phrase.kingdom]
        return "the kingdom"

    def to_notation(self, action: int, phrase: Phrase | None = None) -> str:
        """The notation of an action id; with the `Phrase` the position reads, the whole sentence it finishes."""
        data = self.to_json(action)
        kind = data["type"]
        p = phrase if phrase is not None and phrase.kind != NO_PHRASE else None
        if kind == "kingdom":
            return f"choose {self.kingdom_names[data['kingdom']]}"
        if kind == "fleet":
            return f"{data['ships']} fleet from {self.area_name(data['area'])}"
        if kind == "move":
            to = f"to {self.area_name(data['area'])}"
            if p is not None and p.kind == JOURNEY:
                return f"{p.ships} fleet of {p.size} from {self.area_name(p.area)} {to}"
            return to
        if kind == "buy":
            return f"buy {data['ships']} ships at {self.area_name(data['area'])}"
        if kind == "pull_down":
            return f"pull down a {data['camp']} camp in {self.area_name(data['area'])}"
        if kind == "build":
            built = f"build {_plural(data['count'], data['camp'] + ' camp')}"
            if p is not None and p.kind in (BUILDING, JOURNEY):
                return f"{built} in {self.area_name(p.area)}"
            return built
        if kind == "pay_onto":
            roll = data["roll"]
            return f"pay onto {self._roll_owner(p, roll if isinstance(roll, int) else -1)}'s roll"
        if kind == "give_silver":
            return f"give silver to seat {data['to'] + 1}"
        if kind == "offer_peace":
            return f"offer King's Peace to {self.kingdom_names[data['kingdom']]}"
        if kind == "emigrate":
            return f"emigrate to {self.area_name(data['area'])}"
        if kind == "amount":
            return self._amount_notation(data["n"], p)
        if kind == "roll":
            return f"roll {data['face']}"
        if kind == "hits":
            hits = _plural(data["n"], "hit")
            return f"{hits} and a 1" if data["one"] else hits
        if kind in CARD_VERBS:
            title = self.card_titles[CARD_IDS.index(data["card"])]
            if kind == "give_card" and p is not None and p.kind == CARD_GIFT:
                return f"give {title} to seat {p.seat + 1}"
            return f"{kind.split('_')[0]} {title}"
        if kind == "give_card_to":
            return f"give a card to seat {data['to'] + 1}"
        if kind.startswith("target_"):
            if kind == "target_seat":
                target = f"on seat {data['seat'] + 1}"
            elif kind == "target_kingdom":
                target = f"on {self.kingdom_names[data['kingdom']]}"
            else:
                target = f"at {self.area_name(data['area'])}"
            if p is not None and p.kind == CARD:
                return f"{self.card_titles[CARD_IDS.index(p.card)]} {target}"
            return target
        for single, words in SINGLES:
            if kind == single:
                return words
        raise AssertionError(f"no notation for {kind}")  # to_json gives only the types above

    def _amount_notation(self, n: int, p: Phrase | None) -> str:
        if p is None:
            return f"amount {n}"
        if p.kind == FLEET_SIZE:
            return f"{p.ships} fleet of {n} from {self.area_name(p.area)}"
        if p.kind == PURCHASE:
            return f"buy {_plural(n, p.ships + ' ship')} at {self.area_name(p.area)}"
        if p.kind == PAYMENT:
            return f"pay {n} silver onto {self._roll_owner(p, p.seat)}'s roll"
        if p.kind == GIFT:
            return f"give {n} silver to seat {p.seat + 1}"
        if p.kind == DUTY:
            return f"ask {n} silver duty"
        return f"amount {n}"

    def from_notation(self, text: str) -> int:
        """Parse notation, bare or as the whole sentence `to_notation` writes with a phrase; `ValueError` saying
        what was not understood. The id is the sentence's last choice; the names before it must be known."""
        if not isinstance(text, str):
            raise ValueError(f"notation: expected text, got {shown(text)}")
        # Names keep their case for messages; keywords match in any case, names without regard to diacritics.
        spaced = " ".join(text.replace("’", "'").split())
        if not spaced:
            raise ValueError("empty notation")
        try:
            found = self._parse(spaced)
        except ValueError as error:
            raise ValueError(f"{shown(text.strip())}: {error}") from None
        if found is None:
            raise ValueError(
                f"{shown(text.strip())} is not Vikingatid notation (e.g. 'choose Norge', 'war fleet from Norge', "
                "'to Nordsjön', 'buy trading ships at Gutland', 'pay onto seat 2's roll', 'amount 3', 'roll 7', "
                "'end journey', 'pass')"
            )
        return found

    def _parse(self, t: str) -> int | None:
        """The id of notation (spaces collapsed), None if no form matches; `ValueError` for a known form with a
        wrong part."""
        for index, (_, words) in enumerate(SINGLES):
            if _plain(t) == _plain(words) or _plain(t) == _plain(_ENGLISH.get(words, words)):
                return SINGLE + index
        m = re.fullmatch(_SHIPS + r" fleet of " + _NUMBER + r" from (.+)", t, re.IGNORECASE)
        if m:
            _, to = self._split_areas(m.group(3))
            if to is None:
                return self._amount(m.group(2))
            return self.move(to)
        m = re.fullmatch(_SHIPS + r" fleet from (.+)", t, re.IGNORECASE)
        if m:
            return self.fleet(m.group(1).lower(), self.area_named(m.group(2)))
        m = re.fullmatch(r"(?:move )?to (.+)", t, re.IGNORECASE)
        if m:
            return self.move(self.area_named(m.group(1)))
        m = re.fullmatch(r"buy " + _NUMBER + " " + _SHIPS + r" ships? at (.+)", t, re.IGNORECASE)
        if m:
            self.area_named(m.group(3))
            return self._amount(m.group(1))
        m = re.fullmatch(r"buy " + _SHIPS + r" ships at (.+)", t, re.IGNORECASE)
        if m:
            return self.buy(m.group(1).lower(), self.area_named(m.group(2)))
        m = re.fullmatch(r"pull down an? " + _SHIPS + r" camp in (.+)", t, re.IGNORECASE)
        if m:
            return self.pull_down(m.group(1).lower(), self.area_named(m.group(2)))
        m = re.fullmatch(r"build " + _NUMBER + " " + _SHIPS + r" camps?(?: in (.+))?", t, re.IGNORECASE)
        if m:
            if m.group(3) is not None:
                self.area_named(m.group(3))
            count = _in_range("count", int(m.group(1)), 1, MAX_BUILD, "a build")
            return BUILD + SHIP_TYPES.index(m.group(2).lower()) * MAX_BUILD + count - 1
        m = re.fullmatch(r"pay " + _NUMBER + r" silver onto (.+)'s roll", t, re.IGNORECASE)
        if m:
            self._roll_named(m.group(2))
            return self._amount(m.group(1))
        m = re.fullmatch(r"pay onto (.+)'s roll", t, re.IGNORECASE)
        if m:
            seat = self._roll_named(m.group(1))
            return PAY_ONTO_KINGDOM if seat < 0 else PAY_ONTO + seat
        m = re.fullmatch(r"give " + _NUMBER + r" silver to seat " + _NUMBER, t, re.IGNORECASE)
        if m:
            self._seat(m.group(2))
            return self._amount(m.group(1))
        m = re.fullmatch(r"give silver to seat " + _NUMBER, t, re.IGNORECASE)
        if m:
            return GIVE_SILVER + self._seat(m.group(1))
        m = re.fullmatch(r"offer king's peace to (.+)", t, re.IGNORECASE)
        if m:
            return OFFER_PEACE + KINGDOMS.index(self.kingdom_named(m.group(1)))
        m = re.fullmatch(r"choose (.+)", t, re.IGNORECASE)
        if m:
            return KINGDOM + KINGDOMS.index(self.kingdom_named(m.group(1)))
        m = re.fullmatch(r"emigrate to (.+)", t, re.IGNORECASE)
        if m:
            return self.emigrate(self.area_named(m.group(1)))
        m = re.fullmatch(r"ask " + _NUMBER + r" silver duty", t, re.IGNORECASE)
        m = m or re.fullmatch(r"(?:amount )?" + _NUMBER, t, re.IGNORECASE)
        if m:
            return self._amount(m.group(1))
        m = re.fullmatch(r"(play|give|discard|draw) (.+?)(?: to seat " + _NUMBER + ")?", t, re.IGNORECASE)
        if m and not m.group(2).lower().startswith(("a card", "silver")):
            verb = CARD_VERBS[("play", "give", "discard", "draw").index(m.group(1).lower())]
            return CARDS + CARD_VERBS.index(verb) * CARD_KINDS + self.card_named(m.group(2))
        m = re.fullmatch(r"give a card to seat " + _NUMBER, t, re.IGNORECASE)
        if m:
            return GIVE_CARD_TO + self._seat(m.group(1))
        m = re.fullmatch(r"(?:(.+) )?on seat " + _NUMBER, t, re.IGNORECASE)
        if m:
            if m.group(1) is not None:
                self.card_named(m.group(1))
            return TARGET_SEAT + self._seat(m.group(2))
        m = re.fullmatch(r"(?:(.+) )?(on|at) (.+)", t, re.IGNORECASE)
        if m and (m.group(1) is None or _plain(m.group(1)) in self._card_names):
            if m.group(1) is not None:
                self.card_named(m.group(1))
            if m.group(2).lower() == "on":
                return TARGET_KINGDOM + KINGDOMS.index(self.kingdom_named(m.group(3)))
            return TARGET_AREA + self.slot(self.area_named(m.group(3)))
        m = re.fullmatch(r"roll " + _NUMBER, t, re.IGNORECASE)
        if m:
            return ROLL + _in_range("face", int(m.group(1)), 1, 10, "a D10 face") - 1
        m = re.fullmatch(_NUMBER + r" hits?( and a 1)?", t, re.IGNORECASE)
        if m:
            n = _in_range("hits", int(m.group(1)), 0, MAX_HITS, "a number of hits")
            return HITS + (MAX_HITS + 1) * (m.group(2) is not None) + n
        return None

    def _amount(self, text: str) -> int:
        return AMOUNT + _in_range("amount", int(text), 1, MAX_AMOUNT, "an amount") - 1

    def _seat(self, text: str) -> int:
        return _in_range("seat", int(text), 1, MAX_SEATS, "a seat") - 1

    def _roll_named(self, text: str) -> int:
        """The seat (0-based) whose roll `text` names ('seat 3'), or -1 for the kingdom's roll (its name or 'the
        kingdom')."""
        m = re.fullmatch(r"seat " + _NUMBER, text, re.IGNORECASE)
        if m:
            return self._seat(m.group(1))
        if text.lower() == "the kingdom":
            return -1
        self.kingdom_named(text)
        return -1

    def _split_areas(self, text: str) -> tuple[str, str | None]:
        """'<from> to <to>' as two areas, or `text` as one area (to None); `ValueError` if neither reads."""
        if _plain(text) in self._area_names:
            return self._area_names[_plain(text)], None
        pieces = re.split(r" to ", text, flags=re.IGNORECASE)
        cuts = [(" to ".join(pieces[:cut]), " to ".join(pieces[cut:])) for cut in range(1, len(pieces))]
        for head, tail in cuts:
            if _plain(head) in self._area_names and _plain(tail) in self._area_names:
                return self._area_names[_plain(head)], self._area_names[_plain(tail)]
        # Name the part not understood: the start when the destination reads, else the destination.
        for head, tail in cuts:
            if _plain(tail) in self._area_names:
                return self.area_named(head), None
        for head, tail in cuts:
            if _plain(head) in self._area_names:
                return self._area_names[_plain(head)], self.area_named(tail)
        return self.area_named(text), None


def _has_kingdom(board: Board, kingdom: str) -> bool:
    try:
        board.kingdom_area(kingdom)
    except KeyError:
        return False
    return True
