"""Card windows: the moments a player who is not acting may play a card, and who is asked in what order (VA-08,
VA-09).

"Cards can be played throughout the turn, if the card doesn't say otherwise." The engine needs fixed points for that
(VA-08): the start of each of phases 2–10; before each election roll, after it and after the election's result;
after each initiative roll; before each danger roll (the end of a leg) and after it; before each fight and after
each of its rolls; after each reaction, Gäld, assimilation or christianisation roll. The acting player may also play
before any decision of his own, and a played card restarts the round, so every card can be answered by another.

A window starts with the acting player (or the turn's first seat where no one acts) and goes round in seat order.
Each holder of a card plays one or passes; the window closes when every holder has passed in succession (VA-09).
Every holder is asked whatever his cards: hand sizes are public, so who is asked, and in what order, tells nothing.
A holder with no card playable there has one answer, "pass"; front ends give it for a person, at the moment a
holder with a choice might answer (`VikingatidState.forced_is_public`, docs/vikingatid.md "Card windows").

Each card's data names the windows its text allows ("Play immediately after initiative roll"); a card saying
"Play at any time" has the window `any`. `allows` matches the two.
"""

from __future__ import annotations

from typing import Final

# The kinds of window (where the table stands when it opens).
#: The start of a phase (2–10).
PHASE_START: Final = "phase_start"
#: Right after a roll, before its result is applied (the roll is held back: GUDARNA INGRIPER may have it rolled
#: again, INFLYTANDE VID KUNGAVAL may add to it).
AFTER_ROLL: Final = "after_roll"
#: Before an election die is rolled.
BEFORE_ELECTION_ROLL: Final = "before_election_roll"
#: After one kingdom's election has its result (KUNG, OGILTIGT KUNGAVAL: "Play immediately after Election").
AFTER_ELECTION: Final = "after_election"
#: The end of a leg, before the danger roll (HAVSMONSTER, SJÖOVÄDER, RÖVARBAND, BESKYDD).
BEFORE_DANGER: Final = "before_danger"
#: Before the first round of a fight (BÄRSÄRK: "Play immediately before a fight").
BEFORE_FIGHT: Final = "before_fight"
#: The acting player's own decision (he may play before it).
OWN_DECISION: Final = "own_decision"

# The windows a card's data may name (cards.data.WINDOWS) and where each is open.
ANY: Final = "any"
AFTER_INITIATIVE: Final = "after_initiative"
CARD_BEFORE_FIGHT: Final = "before_fight"
AFTER_OWN_ROLL: Final = "after_own_roll"
AFTER_DISTRIBUTION: Final = "after_distribution"
ELECTION_ROLL: Final = "election_roll"
CARD_AFTER_ELECTION: Final = "after_election"
TRADE_JOURNEY: Final = "trade_journey"
BEFORE_DANGER_SEA: Final = "before_danger_sea"
BEFORE_DANGER_LAND: Final = "before_danger_land"
JOURNEY_START: Final = "journey_start"

# How a window goes back to the game when it closes.
#: Set the step it was opened at (a window before a roll or a fight).
RESUME_STEP: Final = 0
#: Apply the roll it held back.
RESUME_ROLL: Final = 1
#: Start the phase it was opened for.
RESUME_PHASE: Final = 2
#: Settle the phase under way again (after an election's result).
RESUME_SETTLE: Final = 3

#: The phase whose start opens the window EXIL is played in ("Play immediately after Distribution phase").
BUYING_SHIPS_PHASE: Final = 5


class Window:
    """One card window: where it stands (`kind`, the `phase`, the roll held back and whose it is), how it goes
    back to the game (`resume` and `step`), and the round: the seat asked and how many passed in succession.
    Plain class (mypyc-ready)."""

    def __init__(
        self,
        kind: str,
        resume: int,
        step: int,
        phase: int,
        first: int,
        roll_step: int = -1,
        held: int = -1,
        roller: int = -1,
    ) -> None:
        self.kind: Final = kind
        self.resume: Final = resume
        self.step: Final = step
        self.phase: Final = phase
        self.roll_step: Final = roll_step
        #: The roll held back (its action id), or -1.
        self.held: int = held
        self.roller: Final = roller
        #: The seat asked now (VA-09: from the acting player, then in seat order).
        self.seat: int = first
        #: Holders who have passed in succession.
        self.passes: int = 0

    def clone(self) -> Window:
        copy = Window(self.kind, self.resume, self.step, self.phase, self.seat, self.roll_step, self.held, self.roller)
        copy.passes = self.passes
        return copy


def allows(
    card_windows: tuple[str, ...],
    window: str,
    phase: int,
    roll_step: int,
    initiative_step: int,
    election_step: int,
    roller: int,
    seat: int,
) -> bool:
    """Whether a card whose data names `card_windows` may be played in a window of kind `window` by `seat`
    (before its own conditions, which the card's effect checks)."""
    for allowed in card_windows:
        if allowed == ANY:
            return True
        if allowed == AFTER_INITIATIVE and window == AFTER_ROLL and roll_step == initiative_step:
            return True
        if allowed == CARD_BEFORE_FIGHT and window == BEFORE_FIGHT:
            return True
        if allowed == AFTER_OWN_ROLL and window == AFTER_ROLL and roller == seat:
            return True
        if allowed == AFTER_DISTRIBUTION and window == PHASE_START and phase == BUYING_SHIPS_PHASE:
            return True
        if allowed == ELECTION_ROLL and (
            window == BEFORE_ELECTION_ROLL or (window == AFTER_ROLL and roll_step == election_step)
        ):
            return True
        if allowed == CARD_AFTER_ELECTION and window == AFTER_ELECTION:
            return True
        if allowed in (BEFORE_DANGER_SEA, BEFORE_DANGER_LAND) and window == BEFORE_DANGER:
            return True
        if allowed in (TRADE_JOURNEY, JOURNEY_START) and window in (OWN_DECISION, BEFORE_DANGER, AFTER_ROLL):
            # Their effects say which of these moments of the journey fit ("during a trade journey", "when
            # leaving the last discovered land area").
            return True
    return False


def next_asked(order_from: int, num_players: int, holders: list[bool]) -> int:
    """The first holder in seat order from `order_from` (itself included), or -1 if no one holds a card."""
    for i in range(num_players):
        seat = (order_from + i) % num_players
        if holders[seat]:
            return seat
    return -1
