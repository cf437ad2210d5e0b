"""The turn of Vikingatid as data: the eleven phases in the rulebook's order, the steps of each, and who decides.

Read top to bottom this is the rulebook's "Summary of the game turns" (boardgame.io style: the structure is data,
the rules live in one module per phase). Setup comes first (the kingdom choice, VA-01); each phase then lists its
steps. A step names its phase, the rule its decisions follow (the VA-id of the rulings, whose item quotes the rule
text, cited when an action is refused), whether chance acts there, the kinds of action it takes (the JSON `type`
of `actions.py`), and the `Phrase` kind its actions finish (`actions.Phrase`), so the notation of an amount reads
as a whole sentence.

The last step, `GAME_OVER` (phase 11 of the last turn, VA-63), is terminal: no one acts there.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from skald.games.vikingatid.actions import (
    BUILDING,
    CARD,
    CARD_GIFT,
    DUTY,
    ELECTION,
    FLEET_SIZE,
    GIFT,
    JOURNEY,
    NO_PHRASE,
    PAYMENT,
    PURCHASE,
)

# The phases, numbered as the rulebook numbers them; 0 is the setup before the first turn.
SETUP: Final = 0
DRAW_CARDS: Final = 1
REACTIONS: Final = 2
ELECTIONS: Final = 3
SILVER: Final = 4
BUYING_SHIPS: Final = 5
JOURNEYS: Final = 6
TAXATION: Final = 7
CLEANUP: Final = 8
VICTORY_POINTS: Final = 9
CHRISTIANISATION: Final = 10
NEXT_TURN: Final = 11

#: Each phase's name as the rule text's "Summary of the game turns" gives it (index = phase number).
PHASE_NAMES: Final = (
    "Setup",
    "Draw cards",
    "Roll for empire reactions",
    "Election of kings",
    "Distribution of silver",
    "Buying ships",
    "Initiative and journeys",
    "Taxation",
    "Clear markers and discard",
    "Victory points distribution",
    "Christianisation",
    "Next turn",
)

# The steps, one id each (Final ints, so the compiled build inlines them).
KINGDOM_ROLL: Final = 0
KINGDOM_CHOICE: Final = 1
REACTION_ROLL: Final = 2
GALD_ROLL: Final = 3
GIFT_TARGET: Final = 4
GIFT_AMOUNT: Final = 5
BID_TARGET: Final = 6
BID_AMOUNT: Final = 7
ELECTION_ROLL: Final = 8
PEACE_OFFER: Final = 9
PEACE_ANSWER: Final = 10
PULL_DOWN: Final = 11
BUY_SHIPS: Final = 12
BUY_AMOUNT: Final = 13
INITIATIVE_ROLL: Final = 14
JOURNEY_CHOICE: Final = 15
FLEET_SIZE_CHOICE: Final = 16
MOVE: Final = 17
ENTRY_ANSWER: Final = 18
DUTY_AMOUNT: Final = 19
ENTRY_REPLY: Final = 20
SEA_BAN: Final = 21
BAN_WAR_ROLL: Final = 22
DANGER_ROLL: Final = 23
ACT: Final = 24
FLEET_HITS: Final = 25
ARMY_HITS: Final = 26
DEFENDER_HITS: Final = 27
FIGHT_ON: Final = 28
WAR_RISK_ROLL: Final = 29
WAR_DECLARATION: Final = 30
BUILD_REACTION_ROLL: Final = 31
BUILD_GALD_ROLL: Final = 32
EMIGRATION: Final = 33
CHRISTIANISATION_ROLL: Final = 34
ASSIMILATION_ROLL: Final = 35
GAME_OVER: Final = 36
# The cards' steps: drawing and discarding belong to phases 1 and 8; a card window and a card under way can
# come in any phase, and carry the phase of the table.
DRAW_CARD: Final = 37
DISCARD_CARD: Final = 38
CARD_WINDOW: Final = 39
CARD_TARGET: Final = 40
CARD_ROLL: Final = 41
CARD_HITS: Final = 42
CARD_ANSWER: Final = 43
GIFT_CARD: Final = 44
#: A sealed payment (VA-35, `election_bids: sealed`): one hidden decision per roll, shown with all the others.
SEALED_BID: Final = 45
#: The phase number the steps that come in any phase carry (the table says which phase it is).
ANY_PHASE: Final = -1


class Step(NamedTuple):
    """One step of the turn: its phase, what it is called, the rule it follows, whether chance acts, the action
    kinds it takes (`actions.py` JSON types), the `Phrase` kind its actions finish, and whether it ends the game."""

    id: int
    phase: int
    name: str
    rule: str
    chance: bool
    kinds: tuple[str, ...]
    phrase: str
    terminal: bool


def _step(
    step: int,
    phase: int,
    name: str,
    rule: str,
    kinds: tuple[str, ...],
    chance: bool = False,
    phrase: str = NO_PHRASE,
    terminal: bool = False,
) -> Step:
    return Step(step, phase, name, rule, chance, kinds, phrase, terminal)


#: Every step, in the order the turn reaches them (index = step id).
STEPS: Final = (
    _step(KINGDOM_ROLL, SETUP, "roll for the kingdom choice", "VA-01", ("roll",), chance=True),
    _step(KINGDOM_CHOICE, SETUP, "choose a home country", "VA-01", ("kingdom",)),
    _step(REACTION_ROLL, REACTIONS, "roll on the empire's reaction table", "VA-31", ("roll",), chance=True),
    _step(GALD_ROLL, REACTIONS, "roll on the Gäld table", "VA-33", ("roll",), chance=True),
    _step(
        GIFT_TARGET,
        ELECTIONS,
        "give silver or a card before the election, or pass",
        "VA-38",
        ("give_silver", "give_card_to", "pass"),
    ),
    _step(GIFT_AMOUNT, ELECTIONS, "say how much silver to give", "VA-38", ("amount",), phrase=GIFT),
    _step(BID_TARGET, ELECTIONS, "pay silver onto a roll, or pass", "VA-35", ("pay_onto", "pass"), phrase=ELECTION),
    _step(BID_AMOUNT, ELECTIONS, "say how much silver to pay", "VA-35", ("amount",), phrase=PAYMENT),
    _step(ELECTION_ROLL, ELECTIONS, "roll for the election", "VA-37", ("roll",), chance=True),
    _step(PEACE_OFFER, ELECTIONS, "offer a King's Peace, or pass", "VA-39", ("offer_peace", "pass")),
    _step(PEACE_ANSWER, ELECTIONS, "accept or decline the King's Peace", "VA-39", ("accept_peace", "decline_peace")),
    _step(PULL_DOWN, BUYING_SHIPS, "pull down a camp, or done", "VA-43 (Pulling down camps)", ("pull_down", "done")),
    _step(BUY_SHIPS, BUYING_SHIPS, "buy ships: choose type and place", "VA-43", ("buy", "done")),
    _step(BUY_AMOUNT, BUYING_SHIPS, "say how many ships to buy", "VA-43", ("amount",), phrase=PURCHASE),
    _step(INITIATIVE_ROLL, JOURNEYS, "roll for initiative", "VA-44", ("roll",), chance=True),
    _step(JOURNEY_CHOICE, JOURNEYS, "start a fleet, or pass", "VA-44", ("fleet", "pass")),
    _step(FLEET_SIZE_CHOICE, JOURNEYS, "say how many ships sail", "6.1 Initiative", ("amount",), phrase=FLEET_SIZE),
    _step(
        MOVE,
        JOURNEYS,
        "move the fleet, stop here, or end the journey",
        "VA-47",
        ("move", "stop", "end_journey"),
        phrase=JOURNEY,
    ),
    _step(
        ENTRY_ANSWER, JOURNEYS, "allow the fleet, ask a duty, or forbid it", "VA-53", ("allow", "ask_duty", "forbid")
    ),
    _step(DUTY_AMOUNT, JOURNEYS, "say how much duty to ask", "VA-53", ("amount",), phrase=DUTY),
    _step(ENTRY_REPLY, JOURNEYS, "pay the duty, fight, or turn away", "VA-53", ("pay_duty", "fight", "turn_away")),
    _step(
        SEA_BAN, JOURNEYS, "let the fleet pass Danavalde's sea, or bar it", "VA-54", ("allow", "ask_duty", "bar_sea")
    ),
    _step(BAN_WAR_ROLL, JOURNEYS, "roll for war over the barred sea", "VA-54", ("roll",), chance=True),
    _step(DANGER_ROLL, JOURNEYS, "roll for the danger", "VA-48", ("roll",), chance=True),
    _step(
        ACT,
        JOURNEYS,
        "act here, or move on",
        "VA-57",
        ("trade", "build", "plunder", "destroy", "move", "end_journey"),
        phrase=BUILDING,
    ),
    _step(FLEET_HITS, JOURNEYS, "roll the war fleet's dice", "6.4 War fleets", ("hits",), chance=True),
    _step(ARMY_HITS, JOURNEYS, "roll the armies' dice", "VA-55", ("hits",), chance=True),
    _step(DEFENDER_HITS, JOURNEYS, "roll the defenders' dice", "VA-58", ("hits",), chance=True),
    _step(FIGHT_ON, JOURNEYS, "fight on, or withdraw", "6.4 War fleets", ("fight_on", "withdraw")),
    _step(WAR_RISK_ROLL, JOURNEYS, "roll for the risk of war", "VA-58", ("roll",), chance=True),
    _step(WAR_DECLARATION, JOURNEYS, "declare war, or not", "VA-58", ("declare_war", "no_war")),
    _step(
        BUILD_REACTION_ROLL,
        JOURNEYS,
        "roll on the empire's reaction table for the new camps",
        "VA-32",
        ("roll",),
        chance=True,
    ),
    _step(BUILD_GALD_ROLL, JOURNEYS, "roll on the Gäld table", "VA-33", ("roll",), chance=True),
    _step(EMIGRATION, TAXATION, "emigrate to a conquered area, or pass", "VA-61", ("emigrate", "pass")),
    _step(
        CHRISTIANISATION_ROLL,
        CHRISTIANISATION,
        "roll for christianisation",
        "10. Christianisation",
        ("roll",),
        chance=True,
    ),
    _step(
        ASSIMILATION_ROLL,
        CHRISTIANISATION,
        "roll for the assimilation of Christian camps",
        "VA-62",
        ("roll",),
        chance=True,
    ),
    _step(GAME_OVER, NEXT_TURN, "the game is over", "VA-63", (), terminal=True),
    _step(DRAW_CARD, DRAW_CARDS, "draw a card", "VA-11", ("draw",), chance=True),
    _step(DISCARD_CARD, CLEANUP, "discard down to three cards", "VA-11", ("discard",)),
    _step(CARD_WINDOW, ANY_PHASE, "play a card, or pass", "VA-09", ("play", "pass")),
    _step(
        CARD_TARGET,
        ANY_PHASE,
        "choose the card's target",
        "VA-08",
        ("target_seat", "target_kingdom", "target_area"),
        phrase=CARD,
    ),
    _step(CARD_ROLL, ANY_PHASE, "roll for the card", "VA-08", ("roll",), chance=True),
    _step(CARD_HITS, ANY_PHASE, "roll the dice of the card's fight", "VA-24", ("hits",), chance=True),
    _step(CARD_ANSWER, ANY_PHASE, "answer the card", "VA-21", ("adopt", "refuse")),
    _step(GIFT_CARD, ELECTIONS, "say which card to give", "VA-38", ("give_card",), phrase=CARD_GIFT),
    _step(
        SEALED_BID,
        ELECTIONS,
        "pledge silver on this roll in secret, or pass",
        "VA-35",
        ("amount", "pass"),
        phrase=PAYMENT,
    ),
)

#: The steps of each phase, in order (index = phase number): the rulebook's structure at a glance. Phase 1 is the
#: draws (none under `card_windows: off`); phase 8's discards come after its markers are cleared at once; phases 4
#: and 9 have no decision and are applied at once, and phase 11 either starts the next turn or ends the game. Card
#: windows and cards under way come in any phase (`CARD_STEPS`).
PHASE_STEPS: Final = (
    (KINGDOM_ROLL, KINGDOM_CHOICE),
    (DRAW_CARD,),
    (REACTION_ROLL, GALD_ROLL),
    (
        GIFT_TARGET,
        GIFT_AMOUNT,
        GIFT_CARD,
        BID_TARGET,
        BID_AMOUNT,
        SEALED_BID,
        ELECTION_ROLL,
        PEACE_OFFER,
        PEACE_ANSWER,
    ),
    (),
    (PULL_DOWN, BUY_SHIPS, BUY_AMOUNT),
    (
        INITIATIVE_ROLL,
        JOURNEY_CHOICE,
        FLEET_SIZE_CHOICE,
        MOVE,
        ENTRY_ANSWER,
        DUTY_AMOUNT,
        ENTRY_REPLY,
        SEA_BAN,
        BAN_WAR_ROLL,
        DANGER_ROLL,
        ACT,
        FLEET_HITS,
        ARMY_HITS,
        DEFENDER_HITS,
        FIGHT_ON,
        WAR_RISK_ROLL,
        WAR_DECLARATION,
        BUILD_REACTION_ROLL,
        BUILD_GALD_ROLL,
    ),
    (EMIGRATION,),
    (DISCARD_CARD,),
    (),
    (CHRISTIANISATION_ROLL, ASSIMILATION_ROLL),
    (GAME_OVER,),
)
#: The steps that come in any phase: a card window and a card under way.
CARD_STEPS: Final = (CARD_WINDOW, CARD_TARGET, CARD_ROLL, CARD_HITS, CARD_ANSWER)

ROTATING: Final = "rotating"
FIXED_ORDER: Final = "fixed"


def turn_first_seat(turn: int, first_chooser: int, num_players: int, turn_order: str) -> int:
    """The turn's first seat (VA-06): under `rotating` the first to choose a kingdom in turn 1, one seat on each
    turn after; under `fixed` always seat 0."""
    if turn_order == FIXED_ORDER:
        return 0
    if turn_order != ROTATING:
        raise ValueError(f"turn_order: {turn_order!r} is not one of ['rotating', 'fixed']")
    return (first_chooser + turn - 1) % num_players


def seat_order(first_seat: int, num_players: int) -> list[int]:
    """Every seat once, in seat order from the turn's first seat (VA-06)."""
    return [(first_seat + i) % num_players for i in range(num_players)]
