"""Every card kind's effect, gathered from the card modules, by kind index (`actions.CARD_IDS`)."""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import CARD_IDS
from skald.games.vikingatid.cards import elections, fights, journey, kingdoms
from skald.games.vikingatid.cards.effect import UNWRITTEN, Effect


def _gather() -> tuple[Effect, ...]:
    found: dict[str, Effect] = {}
    for module in (journey.EFFECTS, fights.EFFECTS, kingdoms.EFFECTS, elections.EFFECTS):
        for card_id, card_effect in module.items():
            if card_id not in CARD_IDS:
                raise ValueError(f"card effects: {card_id!r} is not a card kind")
            if card_id in found:
                raise ValueError(f"card effects: {card_id!r} is written twice")
            found[card_id] = card_effect
    return tuple(found.get(card_id, UNWRITTEN) for card_id in CARD_IDS)


#: The effect of each kind (index = kind); a kind not written yet is never playable.
EFFECTS: Final = _gather()
