"""The proof game's fixed action space and each action's JSON form and notation.

Ids are laid out for the largest table (4 players, a 16-card deck) so the space is the same at every player count:
chance deals a card (0–15: card 1–16), a seat bids (16–19: bid 0–3), a seat plays a card (20–35: card 1–16).
"""

from __future__ import annotations

from typing import Any, Final

#: Cards in the deck per player: a 2-player deck holds cards 1–8, a 4-player deck cards 1–16.
CARDS_PER_PLAYER: Final = 4
#: Cards dealt to each seat, and so tricks played.
HAND_SIZE: Final = 3
#: The highest bid: every trick.
MAX_BID: Final = HAND_SIZE
#: The largest deck (4 players).
MAX_DECK: Final = 4 * CARDS_PER_PLAYER

DEAL: Final = 0
BID: Final = DEAL + MAX_DECK
PLAY: Final = BID + MAX_BID + 1
NUM_ACTIONS: Final = PLAY + MAX_DECK

KINDS: Final = ("deal", "bid", "play")


def deal(card: int) -> int:
    """The chance action dealing `card` to the seat whose turn it is to receive one."""
    return DEAL + card - 1


def bid(tricks: int) -> int:
    """The action bidding `tricks` tricks."""
    return BID + tricks


def play(card: int) -> int:
    """The action playing `card` face up."""
    return PLAY + card - 1


def kind_of(action: int) -> str:
    """The kind of an id in the action space ("deal", "bid" or "play"); raises `ValueError` otherwise."""
    if DEAL <= action < BID:
        return "deal"
    if BID <= action < PLAY:
        return "bid"
    if PLAY <= action < NUM_ACTIONS:
        return "play"
    raise ValueError(f"action: {action} is outside the action space 0–{NUM_ACTIONS - 1}")


def value_of(action: int) -> int:
    """The card dealt or played, or the number of tricks bid."""
    kind = kind_of(action)
    if kind == "deal":
        return action - DEAL + 1
    if kind == "bid":
        return action - BID
    return action - PLAY + 1


def make(kind: str, value: int) -> int:
    """The id of the action of `kind` with `value` (a card, or a bid)."""
    if kind == "deal":
        return deal(value)
    if kind == "bid":
        return bid(value)
    return play(value)


def to_json(action: int) -> dict[str, Any]:
    """`{"deal": 7}`, `{"bid": 2}` or `{"play": 7}`."""
    return {kind_of(action): value_of(action)}


def to_notation(action: int) -> str:
    """The notation: "deal 7", "bid 2" or "play 7"."""
    return f"{kind_of(action)} {value_of(action)}"


def check_value(kind: str, value: Any, deck_size: int, field: str) -> int:
    """`value` as a card of a `deck_size` deck or a bid of 0–3; raises `ValueError` naming `field`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{field}: expected an integer, got {value!r:.40}")
    if kind == "bid":
        if not 0 <= value <= MAX_BID:
            raise ValueError(f"{field}: {value} is not a bid; a bid is 0–{MAX_BID} tricks")
    elif not 1 <= value <= deck_size:
        raise ValueError(f"{field}: {value} is not a card of the {deck_size}-card deck (1–{deck_size})")
    return value


def from_json(data: Any, deck_size: int) -> int:
    """Parse an action's JSON form; raises `ValueError` naming the field at fault."""
    if not isinstance(data, dict):
        raise ValueError('action: expected an object such as {"play": 7}')
    keys = [key for key in data if key in KINDS]
    if len(keys) != 1 or len(data) != 1:
        raise ValueError(f"action: expected exactly one of {', '.join(KINDS)}, got fields {sorted(map(str, data))}")
    kind = keys[0]
    return make(kind, check_value(kind, data[kind], deck_size, kind))


def from_notation(text: str, deck_size: int, step: str) -> int:
    """Parse "deal 7", "bid 2" or "play 7"; a bare number means this `step`'s kind of action."""
    if not isinstance(text, str):
        raise ValueError("notation: expected text such as 'play 7'")
    words = text.strip().lower().split()
    if len(words) == 1 and step in KINDS:
        words = [step, *words]
    if len(words) != 2 or words[0] not in KINDS or not words[1].isdigit() or len(words[1]) > 3:
        raise ValueError(f"notation: expected 'deal N', 'bid N' or 'play N', got {text.strip()!r:.40}")
    kind = words[0]
    return make(kind, check_value(kind, int(words[1]), deck_size, kind))
