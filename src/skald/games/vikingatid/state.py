"""A Vikingatid position under the engine contract: the `Situation` it holds, and how play flows through it.

The state holds the position (`position.Position`), the action space of its board (`actions.ActionSpace`), the rule
options, the cards (`cards.data.CardData`) and the step (`steps.STEPS`), all kept by `situation.Situation`; each
decision goes to its phase's module (`setup`, `reactions`, `elections`, `silver`, `purchases`, `journeys`,
`emigration`, `christianisation`; phases 4, 7's taxes, 8, 9 and 11 are applied at once by `silver`, `taxation`,
`cleanup`, `victory_points` and `end`), which changes the position through its ledger, and each card to its effect
(`cards.effects.EFFECTS`). The game ends at `steps.GAME_OVER` after phase 11 of the last turn (VA-05, VA-63).
"""

from __future__ import annotations

import random
from typing import Any, Final

from skald.engine import CHANCE, TERMINAL, GameLike, IllegalAction, JSONDict
from skald.games.vikingatid import (
    christianisation,
    cleanup,
    combat,
    dealing,
    elections,
    emigration,
    end,
    initiative,
    journeys,
    purchases,
    reactions,
    render,
    silver,
    taxation,
    victory_points,
)
from skald.games.vikingatid import resample as R
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    AMOUNT,
    BUILD,
    BUILDING,
    CARD,
    CARD_GIFT,
    CARD_IDS,
    CARD_KINDS,
    DISCARD,
    DRAW,
    DUTY,
    ELECTION,
    EMIGRATE,
    FLEET_SIZE,
    GIFT,
    GIVE_CARD,
    GIVE_CARD_TO,
    GIVE_SILVER,
    HITS,
    JOURNEY,
    KINGDOM,
    KINGDOMS,
    MAX_BUILD,
    MAX_HITS,
    NO_PHRASE,
    NUM_ACTIONS,
    OFFER_PEACE,
    PAY_ONTO,
    PAY_ONTO_KINGDOM,
    PAYMENT,
    PLAY_CARD,
    PURCHASE,
    ROLL,
    SHIP_TYPES,
    SINGLE,
    ActionSpace,
    Phrase,
)
from skald.games.vikingatid.board import Board
from skald.games.vikingatid.cards import deck as D
from skald.games.vikingatid.cards import play as cardplay
from skald.games.vikingatid.cards import windows
from skald.games.vikingatid.cards.data import CardData
from skald.games.vikingatid.cards.effect import no_targets
from skald.games.vikingatid.cards.effects import EFFECTS
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.setup import D10_FACES, NOBODY
from skald.games.vikingatid.situation import CardEvent, Situation, election_rules, journey_rules, silver_rules

#: The single decisions' ids this part uses (their places in `actions.SINGLES`; a test checks them).
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
#: The single decisions of the entry and reply steps, by their JSON type.
ANSWERS: Final = {"allow": ALLOW, "ask_duty": ASK_DUTY, "forbid": FORBID, "bar_sea": BAR_SEA}
REPLIES: Final = {"pay_duty": PAY_DUTY, "fight": FIGHT, "turn_away": TURN_AWAY}
#: The ids of a number of hits with a 1 among the armies' dice start here (VA-55).
HITS_WITH_ONE: Final = HITS + MAX_HITS + 1
#: The probability of each D10 face (VA-07).
D10_CHANCE: Final = 0.1
#: The player count at which `resample_from_infostate` deals in one pass (`dealing.deal`): with two, every gift is
#: seen, so the pass deals by the law of the search (`resample.deal`) and never fails; with more, the gifts between
#: two others make the laws differ (the search plans them, the pass picks them uniformly) and the search stays.
ONE_PASS_PLAYERS: Final = 2
#: A history entry every viewer may see (`VikingatidState.visible`); otherwise a bit per seat that may.
PUBLIC: Final = -1
#: The rolls a card window follows, held back until it closes (VA-08: "after each initiative roll", "after that
#: roll" of an election or danger, "after each round", "after each reaction, Gäld, assimilation or
#: christianisation roll").
ROLL_WINDOW_STEPS: Final = frozenset(
    (
        S.REACTION_ROLL,
        S.GALD_ROLL,
        S.ELECTION_ROLL,
        S.INITIATIVE_ROLL,
        S.BAN_WAR_ROLL,
        S.DANGER_ROLL,
        S.FLEET_HITS,
        S.ARMY_HITS,
        S.DEFENDER_HITS,
        S.WAR_RISK_ROLL,
        S.BUILD_REACTION_ROLL,
        S.BUILD_GALD_ROLL,
        S.CHRISTIANISATION_ROLL,
        S.ASSIMILATION_ROLL,
    )
)


class VikingatidState(Situation):
    """One position of Vikingatid: the situation (the position, the step, the phase under way, the cards) and the
    flow of play through it."""

    def __init__(
        self,
        game: GameLike,
        num_players: int,
        options: dict[str, Any],
        board: Board,
        space: ActionSpace,
        cards: CardData,
        source: VikingatidState | None = None,
    ) -> None:
        """The position before the kingdom choice, or, given `source`, an independent copy of it (`clone`)."""
        super().__init__(game, num_players, options, board, space, cards, source)
        if source is None:
            self._settle_setup()

    def clone(self) -> VikingatidState:
        """An independent copy, through the constructor."""
        return VikingatidState(self.game, self.num_players, self.options, self.board, self.space, self.cards, self)

    # -- the flow ------------------------------------------------------------------------------------------------

    def _settle_setup(self) -> None:
        """Roll or choose while the kingdom choice lasts (VA-01); then turn 1 begins."""
        choice = self.position.choice
        if choice.roller() != NOBODY:
            self.step = S.KINGDOM_ROLL
        elif choice.chooser() != NOBODY:
            self.step = S.KINGDOM_CHOICE
        else:
            self._start_turn()

    def _start_turn(self) -> None:
        """A turn begins with its first seat (VA-06) and phase 1: each player draws a card, and before the first
        turn takes his three ("each player starts effectively with four cards", VA-11)."""
        position = self.position
        position.first_seat = S.turn_first_seat(
            position.turn, position.choice.first_seat(), self.num_players, self.options["turn_order"]
        )
        position.phase = S.DRAW_CARDS
        if self.cards_on():
            if not self.deck.dealt:
                self.deck.dealt = True
                D.deal(self.deck, position.first_seat, D.START_HAND)
            D.deal(self.deck, position.first_seat, D.DRAW_PER_TURN)
        self._settle()

    def begin_phase(self, phase: int) -> None:
        """Start `phase` on the table as it stands (the flow calls it; tests use it on a prepared table), after
        its card window (VA-08: "the start of each of phases 2–10")."""
        self.position.phase = phase
        position = self.position
        marker = position.turn * 16 + phase
        if S.REACTIONS <= phase <= S.CHRISTIANISATION and self.cards_on() and self.phase_window != marker:
            self.phase_window = marker
            if self._open_window(windows.PHASE_START, windows.RESUME_PHASE, -1, position.first_seat):
                return
        if phase == S.REACTIONS:
            self.reactions = reactions.begin(position, self.options["reaction_roll"])
            if self.options["assimilation"] == "phase_2":
                # VA-62 `phase_2`: the assimilation rolls come with the reactions, before them.
                self.christianisation = christianisation.begin_assimilation(position)
        elif phase == S.ELECTIONS:
            # Krig and Gäld may have taken an emigrant's home (VA-61).
            emigration.check_homeless(position)
            self.results_seen = 0
            self.election = elections.begin(position, election_rules(self.options), self.deck)
        elif phase == S.SILVER:
            # No decision in phase 4: it is applied at once, and phase 5 follows.
            self.incomes = silver.distribute(self.position, silver_rules(self.options))
            self.begin_phase(S.BUYING_SHIPS)
            return
        elif phase == S.BUYING_SHIPS:
            self.purchases = purchases.begin(self.position, self.options["purchase"])
        elif phase == S.JOURNEYS:
            self.journeys = journeys.begin(self.position, journey_rules(self.options))
        elif phase == S.TAXATION:
            # "This is done in the beginning of the Taxation phase (phase 7), before the player pays his taxes."
            emigration.check_homeless(position)
            self.emigration = emigration.begin(position, self.options["exile_without_conquest"])
        elif phase == S.CLEANUP:
            self.cleanup = cleanup.clean(position, self.options["war_tracking"])
            # "Players with more than three cards must discard their hand down to three cards" (VA-11), one card
            # at a time in seat order from the turn's first seat.
            self.discards = [
                seat
                for seat in S.seat_order(position.first_seat, self.num_players)
                for _ in range(D.over_limit(self.deck, seat))
            ]
        elif phase == S.VICTORY_POINTS:
            self.score_lines.extend((position.turn, line) for line in victory_points.score(position))
            self.begin_phase(S.CHRISTIANISATION)
            return
        elif phase == S.CHRISTIANISATION:
            assimilate = self.options["assimilation"] == "phase_10"
            self.christianisation = christianisation.begin(position, assimilate)
        elif phase == S.NEXT_TURN:
            if end.game_over(position, str(self.options["last_year"])):
                self.final_lines = victory_points.final_scoring(position)
                self.step = S.GAME_OVER
                return
            end.next_turn(position)
            self._start_turn()
            return
        else:
            raise ValueError(f"phase: {phase} ({S.PHASE_NAMES[phase]}) cannot be started yet")
        self._settle()

    def _settle(self) -> None:
        """The step of the phase under way, or the next phase once it is over."""
        phase = self.position.phase
        if phase == S.DRAW_CARDS:
            D.skip_draws(self.deck)
            if self.deck.to_draw:
                self.step = S.DRAW_CARD
            else:
                self.begin_phase(S.REACTIONS)
        elif phase == S.CLEANUP:
            if self.discards:
                self.step = S.DISCARD_CARD
            else:
                self.begin_phase(S.VICTORY_POINTS)
        elif phase == S.REACTIONS:
            if not christianisation.done(self.christianisation):
                self.step = S.ASSIMILATION_ROLL
                return
            if reactions.done(self.reactions):
                self.begin_phase(S.ELECTIONS)
                return
            self.step = S.GALD_ROLL if reactions.gald_roller(self.reactions) >= 0 else S.REACTION_ROLL
        elif phase == S.ELECTIONS:
            if self._election_window():
                return
            elections.refresh(self.position, self.election, self.deck)
            if elections.done(self.election):
                self.begin_phase(S.SILVER)
                return
            self.step = self.election.step
        elif phase == S.BUYING_SHIPS:
            # A card played before the buyer's decision may have taken his camps or his home.
            purchases.resettle(self.position, self.purchases)
            if purchases.done(self.purchases):
                self.begin_phase(S.JOURNEYS)
                return
            self.step = self.purchases.step
        elif phase == S.JOURNEYS:
            # A card played before the holder's decision may have sunk the fleet he named.
            journeys.resettle(self.position, self.journeys)
            if journeys.done(self.journeys):
                self.begin_phase(S.TAXATION)
                return
            self.step = self.journeys.step
        elif phase == S.TAXATION:
            if emigration.done(self.emigration):
                self.taxes = taxation.tax(self.position)
                self.begin_phase(S.CLEANUP)
                return
            self.step = S.EMIGRATION
        elif phase == S.CHRISTIANISATION:
            c = self.christianisation
            if christianisation.done(c):
                self.begin_phase(S.NEXT_TURN)
                return
            self.step = S.CHRISTIANISATION_ROLL if christianisation.roller(c) >= 0 else S.ASSIMILATION_ROLL

    # -- whose turn and what is legal ----------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE for a roll, or TERMINAL once the game is over."""
        step = S.STEPS[self.step]
        if step.terminal:
            return TERMINAL
        if step.chance:
            return CHANCE
        if self.step == S.CARD_WINDOW and self.window is not None:
            return self.window.seat
        if self.play is not None and self.step in S.CARD_STEPS:
            return self.play.answerer if self.step == S.CARD_ANSWER else self.play.seat
        if self.step == S.DISCARD_CARD:
            return self.discards[0]
        if self.step == S.KINGDOM_CHOICE:
            return self.position.choice.chooser()
        if step.phase == S.BUYING_SHIPS:
            return self.purchases.buyer
        if step.phase == S.JOURNEYS:
            return journeys.actor(self.position, self.journeys)
        if step.phase == S.TAXATION:
            return emigration.emigrant(self.emigration)
        return self.election.actor

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a roll, each face of the D10 with 1/10 (VA-07); elsewhere none."""
        if self.current_player() != CHANCE:
            return []
        if self.step == S.DRAW_CARD:
            return [(DRAW + kind, p) for kind, p in D.draw_outcomes(self.deck)]
        if self.step == S.CARD_HITS and self.play is not None:
            return EFFECTS[self.play.kind].hit_outcomes(self)
        fight = self.journeys.fight
        if self.step == S.FLEET_HITS:
            # TORS HAMMARE and BESKYDD (`any_roll`) change what a Viking die hits on (combat.fleet_hit_on).
            return [(HITS + n, p) for n, p in combat.fleet_outcomes(fight)]
        if self.step == S.DEFENDER_HITS:
            return [(HITS + n, p) for n, p in combat.defender_outcomes(fight)]
        if self.step == S.ARMY_HITS:
            dice = combat.batch(fight.other_dice)
            return [
                (HITS_WITH_ONE + n if one else HITS + n, p) for n, one, p in combat.army_outcomes(dice, fight.strength)
            ]
        return [(ROLL + face - 1, D10_CHANCE) for face in D10_FACES]

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending (chance's outcomes at a roll, none at the end)."""
        step = self.step
        if S.STEPS[step].terminal:
            return []
        if S.STEPS[step].chance:
            return sorted(a for a, _ in self.chance_outcomes())
        if step in S.CARD_STEPS or step == S.DISCARD_CARD:
            return self._card_actions()
        plays = self.own_plays()
        if plays:
            return sorted(plays + self._step_actions())
        return self._step_actions()

    def forced_is_public(self) -> bool:
        """Whether every viewer can tell if the seat to act has a single legal action (`State.forced_is_public`).
        Its hand decides that in a card window (one answer, "pass", exactly when it holds nothing playable there),
        at a decision of its own that has one answer but for the cards it may play first (VA-08), when it gives a
        card (the kinds it holds, and what it may play first), and when it discards from a hand of two or more.
        Hand sizes are public, so an empty hand tells nothing."""
        seat = self.current_player()
        if seat < 0 or not self.cards_on() or not self.deck.hand_size(seat):
            return True
        step = self.step
        if step in (S.CARD_WINDOW, S.GIFT_CARD):
            return False
        if step == S.DISCARD_CARD:
            return self.deck.hand_size(seat) == 1
        if step in S.CARD_STEPS or self.window is not None or self.play is not None:
            return True
        return len(self._step_actions()) != 1

    def _step_actions(self) -> list[int]:
        """The legal actions of the step under way, cards apart."""
        step = self.step
        if step == S.KINGDOM_CHOICE:
            return [KINGDOM + KINGDOMS.index(k) for k in self.position.choice.legal_kingdoms()]
        election = self.election
        if step == S.GIFT_TARGET:
            silver_to = [GIVE_SILVER + s for s in elections.gift_targets(self.position, election)]
            cards_to = [GIVE_CARD_TO + s for s in elections.card_gift_targets(self.position, election, self.deck)]
            return [PASS, *silver_to, *cards_to]
        if step == S.GIFT_CARD:
            return [GIVE_CARD + kind for kind in elections.card_gift_kinds(election, self.deck)]
        if step in (S.GIFT_AMOUNT, S.BID_AMOUNT):
            return [AMOUNT + n - 1 for n in elections.amounts(self.position, election)]
        if step == S.SEALED_BID:
            return [PASS, *(AMOUNT + n - 1 for n in elections.sealed_amounts(self.position, election))]
        if step == S.BID_TARGET:
            rolls = elections.bid_targets(election)
            return [PASS, *(PAY_ONTO_KINGDOM if r == elections.KINGDOM_ROLL_TARGET else PAY_ONTO + r for r in rolls)]
        if step == S.PEACE_OFFER:
            return [PASS, *(OFFER_PEACE + k for k in elections.peace_candidates(self.position, election))]
        if step == S.PEACE_ANSWER:
            return [ACCEPT_PEACE, DECLINE_PEACE]
        if S.STEPS[step].phase == S.JOURNEYS:
            return self._journey_actions()
        if step == S.EMIGRATION:
            seat = emigration.emigrant(self.emigration)
            areas = emigration.candidates(self.position, seat)
            moves = sorted(EMIGRATE + self.position.slot(a) for a in areas)
            # An exile "must leave his homeland this turn" (EXIL, VA-18): he chooses where, he may not stay.
            return moves if emigration.in_exile(self.position, seat) and moves else [PASS, *moves]
        position, bought = self.position, self.purchases
        if step == S.PULL_DOWN:
            return [DONE, *(self.space.pull_down(k, a) for k, a in purchases.own_camps(position, bought.buyer))]
        if step == S.BUY_SHIPS:
            done = [DONE] if bought.mode == purchases.UP_TO_SILVER else []
            return [*done, *(self.space.buy(k, a) for k, a in purchases.places(position, bought, bought.buyer))]
        if step == S.BUY_AMOUNT:
            return [AMOUNT + n - 1 for n in purchases.amounts(position, bought)]
        raise AssertionError(f"step {step} has no legal actions written")

    # -- the cards ---------------------------------------------------------------------------------------------------

    def _card_actions(self) -> list[int]:
        """The legal actions in a card window, at a card's target or answer, and at a phase 8 discard."""
        step = self.step
        if step == S.DISCARD_CARD:
            return [DISCARD + kind for kind in self.deck.kinds_held(self.discards[0])]
        if step == S.CARD_WINDOW and self.window is not None:
            w = self.window
            return [PASS, *(PLAY_CARD + kind for kind in self.playable(w.seat, w.kind))]
        play = self.play
        if play is None:
            return []
        effect = EFFECTS[play.kind]
        if step == S.CARD_TARGET:
            return sorted(effect.targets(self, play.seat))
        if step == S.CARD_ANSWER:
            return sorted(effect.answers(self))
        return []

    def playable(self, seat: int, window: str) -> list[int]:
        """The kinds `seat` holds and may play in a window of kind `window` (its text's timing, then the card's
        own conditions, then a target to take if it needs one)."""
        w = self.window
        phase = self.position.phase
        roll_step, roller = (w.roll_step, w.roller) if w is not None else (-1, -1)
        found: list[int] = []
        for kind in self.deck.kinds_held(seat):
            card_windows = self.cards.windows[kind]
            if not windows.allows(
                card_windows, window, phase, roll_step, S.INITIATIVE_ROLL, S.ELECTION_ROLL, roller, seat
            ):
                continue
            effect = EFFECTS[kind]
            if not effect.may_play(self, seat):
                continue
            if effect.targets is not no_targets and not effect.targets(self, seat):
                continue
            found.append(kind)
        return found

    def own_plays(self) -> list[int]:
        """The cards the acting player may play before his own decision here (VA-08), as action ids."""
        if not self.cards_on() or self.window is not None or self.play is not None:
            return []
        seat = self.current_player()
        if seat < 0 or not self.deck.hand_size(seat):
            return []
        return [PLAY_CARD + kind for kind in self.playable(seat, windows.OWN_DECISION)]

    def _holders(self) -> list[bool]:
        """Who is asked in a window (VA-09): every holder of a card, whatever he holds (hand sizes are public, so
        who is asked tells nothing)."""
        deck = self.deck
        return [deck.hand_size(seat) > 0 for seat in range(self.num_players)]

    def _open_window(self, kind: str, resume: int, step: int, first: int, held: int = -1, roller: int = -1) -> bool:
        """Open a card window of `kind` asking from `first` (VA-09); False (and nothing opened) if no one would be
        asked. `card_windows: phase_start` opens only the phase-start windows."""
        if not self.cards_on():
            return False
        if kind != windows.PHASE_START and self.options["card_windows"] == "phase_start":
            return False
        w = windows.Window(kind, resume, step, self.position.phase, max(first, 0), step, held, roller)
        self.window = w
        asked = windows.next_asked(w.seat, self.num_players, self._holders())
        if asked < 0:
            self.window = None
            return False
        w.seat = asked
        self.step = S.CARD_WINDOW
        return True

    def _window_choice(self, action: int) -> None:
        """A pass or a card in the window: a pass moves the round on or closes it once every holder has passed in
        succession; a card is played (and restarts the round when it is done)."""
        w = self.window
        assert w is not None
        if action == PASS:
            w.passes += 1
            holders = self._holders()
            if w.passes >= sum(holders):
                self._close_window()
                return
            asked = windows.next_asked(w.seat + 1, self.num_players, holders)
            if asked < 0:
                self._close_window()
                return
            w.seat = asked
            return
        self._start_play(w.seat, action - PLAY_CARD, -1)

    def _close_window(self) -> None:
        """Back to the game where the window opened: apply the roll it held (or roll again if a card cancelled
        it), start the phase it stood before, or settle the step."""
        w = self.window
        assert w is not None
        self.window = None
        if w.resume == windows.RESUME_ROLL:
            if w.held >= 0:
                self.step = w.roll_step
                self._dispatch(w.held)
            else:
                # The roll was cancelled (GUDARNA INGRIPER): it is rolled again, with no window before it.
                self.step = w.roll_step
                self.before_done = True
            return
        if w.resume == windows.RESUME_PHASE:
            self.begin_phase(w.phase)
            return
        self.before_done = True
        self._settle()

    def _election_window(self) -> bool:
        """The window after an election's result (VA-19: KUNG, OGILTIGT KUNGAVAL), once per result; under
        `election_cards_window: end_of_phase` one after the last. True if it opened."""
        results = len(self.election.results)
        if not self.cards_on() or results <= self.results_seen:
            return False
        if self.options["election_cards_window"] == "end_of_phase" and not elections.all_held(self.election):
            return False
        self.results_seen = results
        return self._open_window(windows.AFTER_ELECTION, windows.RESUME_SETTLE, -1, self.position.first_seat)

    def _open_before_windows(self) -> None:
        """The windows before a roll the step has just come to: an election die, a danger roll (the end of a
        leg), the first dice of a fight (VA-08)."""
        if not self.cards_on() or self.before_done:
            return
        step = self.step
        if step == S.ELECTION_ROLL:
            self._open_window(windows.BEFORE_ELECTION_ROLL, windows.RESUME_STEP, step, self.position.first_seat)
        elif step == S.DANGER_ROLL:
            self._open_window(windows.BEFORE_DANGER, windows.RESUME_STEP, step, self._fleet_owner())
        elif step == S.FLEET_HITS:
            fight = self.journeys.fight
            if fight.rounds == 1 and fight.fleet_hits == 0 and fight.other_hits == 0 and fight.chain == 0:
                self._open_window(windows.BEFORE_FIGHT, windows.RESUME_STEP, step, self._fleet_owner())

    def _fleet_owner(self) -> int:
        return self.position.fleets[0].owner if self.position.fleets else self.position.first_seat

    def roller(self) -> int:
        """Whose own roll the chance step under way is (GUDARNA INGRIPER re-rolls only a player's own dice,
        VA-16), or -1 for dice rolled for armies, a kingdom, an area or the table."""
        step = self.step
        if step == S.INITIATIVE_ROLL:
            return int(initiative.roller(self.journeys.initiative))
        if step == S.ELECTION_ROLL:
            return max(elections.roller(self.election), -1)
        if step in (S.DANGER_ROLL, S.FLEET_HITS, S.BUILD_REACTION_ROLL, S.BUILD_GALD_ROLL):
            return self._fleet_owner()
        if step == S.DEFENDER_HITS:
            defenders = self.journeys.fight.defenders
            # The separatists' war camps are no one's (VA-22): their dice are no player's own.
            own = len(defenders) == 1 and not self.journeys.separatist_fight
            return defenders[0] if own else -1
        if step == S.CHRISTIANISATION_ROLL:
            return christianisation.roller(self.christianisation)
        return -1

    def _start_play(self, seat: int, kind: int, resume: int) -> None:
        """`seat` plays a card of `kind`: face up at once (VA-10: "A card takes effect when it is played"), then
        its target, and its effect."""
        D.discard(self.deck, seat, kind)
        self.card_moves.append(R.CardMove(len(self.history), R.PLAYED, seat, -1, kind))
        self.play = cardplay.Play(seat, kind, resume)
        effect = EFFECTS[kind]
        if effect.targets is not no_targets:
            self.play.need = cardplay.NEED_TARGET
        else:
            effect.resolve(self)
        self._after_card_step()

    def _card_step(self, action: int) -> None:
        """A target, roll, hits or answer the card under way asked for."""
        play = self.play
        assert play is not None
        effect = EFFECTS[play.kind]
        step = self.step
        play.need = cardplay.NEED_NONE
        if step == S.CARD_TARGET:
            play.target = action
            effect.resolve(self)
        elif step == S.CARD_ROLL:
            effect.on_roll(self, action - ROLL + 1)
        elif step == S.CARD_HITS:
            effect.on_hits(self, action)
        else:
            effect.on_answer(self, action)
        self._after_card_step()

    def _after_card_step(self) -> None:
        """Ask for what the card under way needs next; once it is done, log it and go back: to the window (the
        round restarts after its player, VA-09) or to the player's own decision."""
        play = self.play
        assert play is not None
        need = play.need
        if need != cardplay.NEED_NONE:
            self.step = (S.CARD_TARGET, S.CARD_ROLL, S.CARD_HITS, S.CARD_ANSWER)[need - 1]
            return
        self.play = None
        self.card_log.append(CardEvent(self.position.turn, play.seat, CARD_IDS[play.kind], "play", play.text))
        w = self.window
        if w is None:
            self.step = play.resume
            self._settle()
            return
        w.passes = 0
        asked = windows.next_asked(play.seat + 1, self.num_players, self._holders())
        if asked < 0:
            self._close_window()
            return
        w.seat = asked
        self.step = S.CARD_WINDOW

    def _journey_actions(self) -> list[int]:
        """The legal actions at a decision of phase 6."""
        position, j, step, space = self.position, self.journeys, self.step, self.space
        if step == S.JOURNEY_CHOICE:
            return [PASS, *(space.fleet(k, a) for k, a in journeys.fleet_starts(position, j))]
        if step == S.FLEET_SIZE_CHOICE:
            return [AMOUNT + n - 1 for n in journeys.fleet_sizes(position, j)]
        if step == S.DUTY_AMOUNT:
            return [AMOUNT + n - 1 for n in journeys.duty_amounts(position)]
        if step == S.ENTRY_ANSWER:
            return [ALLOW, FORBID, ASK_DUTY]
        if step == S.SEA_BAN:
            duty = [ASK_DUTY] if j.rules.denmark_toll == "duty_or_ban" else []
            return sorted([ALLOW, BAR_SEA, *duty])
        if step == S.ENTRY_REPLY:
            return sorted(REPLIES[r] for r in journeys.reply_options(position, j))
        if step == S.FIGHT_ON:
            return [FIGHT_ON, WITHDRAW]
        if step == S.WAR_DECLARATION:
            return [DECLARE_WAR, NO_WAR]
        found = sorted(space.move(a) for a in journeys.act_moves(position, j))
        if step == S.MOVE:
            singles = [STOP] if journeys.may_stop(position, j) else []
            if j.at_break or not found:  # `journeys.may_end`, with the moves already found
                singles.append(END_JOURNEY)
            return singles + found
        # ACT
        f = journeys.fleet(position)
        singles = [END_JOURNEY]
        if journeys.may_trade(position, j):
            singles.append(TRADE)
        if journeys.may_plunder(position, j):
            singles.append(PLUNDER)
        if journeys.may_destroy(position, j):
            singles.append(DESTROY)
        builds = [BUILD + SHIP_TYPES.index(f.kind) * MAX_BUILD + n - 1 for n in journeys.act_builds(position, j)]
        return sorted(singles + builds + found)

    def illegal_reason(self, action: int) -> IllegalAction | None:
        """Why `action` is illegal here, naming the rule (a VA-id or the rulebook section), or None; never changes
        the state."""
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
            return IllegalAction("action.space", f"{action!r} is not a Vikingatid action (0..{NUM_ACTIONS - 1})")
        try:
            kind = self.space.to_json(action)["type"]
        except ValueError as error:
            return IllegalAction("action.space", str(error))
        step = S.STEPS[self.step]
        if step.terminal:
            return IllegalAction(step.rule, f"the game is over (turn {self.position.turn}, {self.position.year})")
        if kind == "play" and self.step not in S.CARD_STEPS:
            if action in self.own_plays():
                return None
            return self._explain_card(action)
        if kind not in step.kinds:
            return IllegalAction(
                step.rule, f"{self.space.to_notation(action)!r} is not a choice now: the step is {step.name!r}"
            )
        # Not a card played before one's own decision: only the step's own actions (or a card step's) can hold it.
        step_id = self.step
        if step.chance:
            legal = self.legal_actions()
        elif step_id in S.CARD_STEPS or step_id == S.DISCARD_CARD:
            legal = self._card_actions()
        else:
            legal = self._step_actions()
        if action in legal:
            return None
        return self._explain(action, step)

    def _explain_card(self, action: int) -> IllegalAction:
        """Why a card may not be played here: not held, not in its window (its text's timing), not under its
        conditions, or with no target it can take."""
        kind = action - PLAY_CARD
        data = self.cards.kinds[kind]
        seat = self.current_player()
        title = f"{data.title} ({data.name})"
        if seat < 0:
            return IllegalAction("VA-08", f"no one may play {title} now: the step is {S.STEPS[self.step].name!r}")
        if not self.cards_on():
            return IllegalAction("VA-08", "cards are off in this game (card_windows: off)")
        if not self.deck.holds(seat, kind):
            return IllegalAction("VA-11", f"seat {seat + 1} holds no {title}")
        where = self.window.kind if self.window is not None else windows.OWN_DECISION
        return IllegalAction(
            data.rule,
            f"{title} cannot be played now ({where.replace('_', ' ')}): its text says {data.text!r}",
        )

    def _explain(self, action: int, step: S.Step) -> IllegalAction:
        """The rule an action of the right kind for this step still breaks."""
        position, election = self.position, self.election
        if self.step == S.CARD_WINDOW and PLAY_CARD <= action < GIVE_CARD:
            return self._explain_card(action)
        if self.step == S.DISCARD_CARD:
            title = self.cards.kinds[action - DISCARD].title
            return IllegalAction("VA-11", f"seat {self.discards[0] + 1} holds no {title} to discard")
        if self.step in S.CARD_STEPS and self.play is not None:
            data = self.cards.kinds[self.play.kind]
            return IllegalAction(
                data.rule,
                f"{data.title} cannot take {self.space.to_notation(action)!r}: its text says {data.text!r}",
            )
        if self.step == S.KINGDOM_CHOICE:
            trial = position.choice.clone()
            try:
                trial.choose(KINGDOMS[action - KINGDOM])
            except IllegalAction as error:
                return error
        if self.step == S.GIFT_TARGET:
            card = action >= GIVE_CARD_TO
            seat = action - (GIVE_CARD_TO if card else GIVE_SILVER)
            if seat == election.actor:
                return IllegalAction("VA-38", "a gift goes to another player, not to yourself")
            if 0 <= seat < self.num_players:
                what = "card" if card else "silver"
                return IllegalAction("VA-38", f"seat {election.actor + 1} has no {what} to give")
            return IllegalAction("VA-38", f"there is no seat {seat + 1} at this table of {self.num_players}")
        if self.step == S.GIFT_CARD:
            title = self.cards.kinds[action - GIVE_CARD].title
            return IllegalAction("VA-38", f"seat {election.actor + 1} holds no {title} to give")
        if self.step in (S.GIFT_AMOUNT, S.BID_AMOUNT):
            return IllegalAction(
                "VA-35" if self.step == S.BID_AMOUNT else "VA-38",
                f"seat {election.actor + 1} has {position.silver[election.actor]} silver, not {action - AMOUNT + 1} "
                "('Each player may pay up to all of his silver')",
            )
        if self.step == S.SEALED_BID:
            seat = election.actor
            most = len(elections.sealed_amounts(position, election))
            return IllegalAction(
                "VA-35",
                f"seat {seat + 1} has {position.silver[seat]} silver and has pledged "
                f"{elections.pledged(election, seat)} of it in this sealed round: at most {most} more on this roll, "
                f"not {action - AMOUNT + 1} ('Each player may pay up to all of his silver')",
            )
        if self.step == S.BID_TARGET:
            seat = action - PAY_ONTO
            return IllegalAction(
                "3. King's election",
                f"seat {seat + 1} does not roll in {self.space.kingdom_names[election.kingdom_id]}'s election "
                "(its members roll, and a current king from another country)",
            )
        if self.step in (S.PULL_DOWN, S.BUY_SHIPS, S.BUY_AMOUNT):
            return self._explain_purchase(action)
        if step.phase == S.JOURNEYS and self.journeys.active and self.position.fleets:
            found = self._explain_journey(action)
            if found is not None:
                return found
        if self.step == S.PEACE_OFFER:
            return IllegalAction(
                "VA-39",
                f"no King's Peace can be offered to {self.space.kingdom_names[KINGDOMS[action - OFFER_PEACE]]}: "
                "it needs a king of another kingdom, not already at King's Peace with yours or offered it this phase",
            )
        return IllegalAction(step.rule, f"{self.space.to_notation(action)!r} is not legal now")

    def _explain_journey(self, action: int) -> IllegalAction | None:
        """Why a move, stop, fight or payment of the fleet in motion is illegal, naming the rule it breaks."""
        position, j = self.position, self.journeys
        f = journeys.fleet(position)
        data = self.space.to_json(action)
        kind = data["type"]
        if kind == "move":
            target = position.board.area(data["area"])
            here = position.board.area(f.area)
            if target.id not in here.sea_links and target.id not in here.river_links:
                return IllegalAction("6.2 Moving fleets", f"{target.name} is not next to {here.name} by sea or river")
            if target.kind == "viking_kingdom" and not journeys.may_enter(
                position, j.rules, f.owner, f.kind, target.id
            ):
                return IllegalAction(
                    "VA-45", f"'No other players may enter these areas (except for Denmark's sea area)': {target.name}"
                )
            if f.kind == journeys.WAR and target.no_war_fleets:
                return IllegalAction("VA-45", f"'No war fleets may enter a kingdom': {target.name} is an empire's core")
            if f.kind == journeys.TRADING and target.is_land and position.plundered[position.slot(target.id)]:
                return IllegalAction("6.2 Plundered areas", "'A trading fleet cannot enter a plundered land area'")
            if not journeys.may_enter(position, j.rules, f.owner, f.kind, target.id):
                return IllegalAction("VA-26", f"{target.name} is not discovered (or not yet open to fleets)")
            if f.moves >= journeys.move_limit(j.rules):
                return IllegalAction("VA-50", "this journey has made its 40 moves: it can only end here")
            return IllegalAction(
                "VA-46",
                f"'When a fleet enters a land area from one sea area, it also has to leave the land by the "
                f"same sea area': this fleet came from {self.space.area_name(f.entered_from)}",
            )
        if kind == "fight":
            if f.kind != journeys.WAR:
                return IllegalAction(
                    "VA-53", "only a war fleet can fight its way into an area; a trading fleet turns away"
                )
            if position.board.area(j.target).kind == "viking_kingdom":
                return IllegalAction("VA-54", "a fleet barred from Denmark's sea cannot fight its way through")
            return IllegalAction(
                "VA-39", "'Then, no players from their kingdoms may fight each other': a King's Peace holds"
            )
        if kind == "pay_duty":
            if j.forbidden:
                return IllegalAction("VA-53", "entry is forbidden ('or completely forbid'): no duty opens it")
            return IllegalAction(
                "VA-53",
                f"'Any duty has to be paid immediately': seat {f.owner + 1} has {position.silver[f.owner]} silver, not "
                f"{journeys.total_duty(j)}",
            )
        if kind == "stop":
            return IllegalAction(
                "VA-47",
                f"the fleet cannot make {self.space.area_name(f.area)} its destination now (a sea, a place "
                "it has already stopped at, its start under start_as_destination: not_allowed, or nothing to do there)",
            )
        return None

    def _explain_purchase(self, action: int) -> IllegalAction:
        """Why a pull-down, purchase or number is illegal in phase 5."""
        position, bought = self.position, self.purchases
        seat = bought.buyer
        data = self.space.to_json(action)
        if data["type"] == "done":
            return IllegalAction(
                "VA-43",
                f"'Each player buys ships for all of their silver': seat {seat + 1} has {position.silver[seat]} silver "
                "and a place for ships (rule option purchase: all_silver)",
            )
        if data["type"] in ("pull_down", "buy") and position.separatists[position.slot(data["area"])]:
            return IllegalAction(
                "VA-22",
                f"the camps in {self.space.area_name(data['area'])} are separatists', 'not under control of any "
                f"player' (UTBRYTARE): seat {seat + 1} can neither pull them down nor place ships at them",
            )
        if data["type"] == "pull_down":
            name = self.space.area_name(data["area"])
            return IllegalAction("VA-43", f"seat {seat + 1} has no {data['camp']} camp in {name} to pull down")
        if data["type"] == "buy":
            name = self.space.area_name(data["area"])
            return IllegalAction(
                "5. Buying Ships",
                f"{data['ships']} ships go in the home country or at the player's own {data['ships']} camps, two per "
                f"camp: {name} takes no more of seat {seat + 1}'s",
            )
        most = len(purchases.amounts(position, bought))
        return IllegalAction(
            "VA-43",
            f"seat {seat + 1} may buy at most {most} {bought.kind} ships at {self.space.area_name(bought.area)} now "
            f"({position.silver[seat]} silver; two ships per camp, any number at home)",
        )

    # -- changing the state --------------------------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        self._apply_rules(action)
        if len(self.history) + 1 >= self.action_limit and not S.STEPS[self.step].terminal:
            self._cut_short()

    def _cut_short(self) -> None:
        """The action limit is reached (`end.action_limit`): the game ends here, with the final scoring (VA-63) on
        the table as it stands; the card window or card under way, if any, is over."""
        self.window = None
        self.play = None
        self.discards = []
        self.cut_short = True
        self.final_lines = victory_points.final_scoring(self.position)
        self.step = S.GAME_OVER

    def _apply_rules(self, action: int) -> None:
        """Apply a legal action by the rules."""
        self.visible.append(self._visibility(action))
        step = self.step
        if step == S.CARD_WINDOW:
            self._window_choice(action)
            return
        if step in S.CARD_STEPS:
            self._card_step(action)
            return
        if step == S.DRAW_CARD:
            seat = D.draw(self.deck, action - DRAW)
            self.card_moves.append(R.CardMove(len(self.history), R.DRAWN, seat, -1, action - DRAW))
            self._settle()
            return
        if step == S.DISCARD_CARD:
            seat = self.discards.pop(0)
            D.discard(self.deck, seat, action - DISCARD)
            self.card_moves.append(R.CardMove(len(self.history), R.DISCARDED, seat, -1, action - DISCARD))
            self.card_log.append(CardEvent(self.position.turn, seat, CARD_IDS[action - DISCARD], "discard", ""))
            self._settle()
            return
        if PLAY_CARD <= action < GIVE_CARD:
            self._start_play(self.current_player(), action - PLAY_CARD, step)
            return
        if step in ROLL_WINDOW_STEPS and self.cards_on():
            first = self.roller()
            opened = self._open_window(
                windows.AFTER_ROLL,
                windows.RESUME_ROLL,
                step,
                first if first >= 0 else self.position.first_seat,
                held=action,
                roller=first,
            )
            if opened:
                return
        self._dispatch(action)

    def _visibility(self, action: int) -> int:
        """Who may see `action`, about to be taken here: PUBLIC, or a bit per seat (a draw: its drawer)."""
        step = self.step
        if step == S.DRAW_CARD:
            return 1 << D.drawer(self.deck)
        if PLAY_CARD <= action < GIVE_CARD:
            # A card played before one's own decision (a card gift, a sealed pledge) is public: "Playing a card
            # reveals it to all".
            return PUBLIC
        if step == S.GIFT_CARD:
            return 1 << self.current_player() | 1 << self.gift_receiver()
        if step == S.SEALED_BID and not elections.last_sealed(self.election):
            # A sealed pledge is its decider's alone until the reveal; the round's last is shown at once with all.
            return 1 << self.election.actor
        return PUBLIC

    def dispatch_roll(self, action: int) -> None:
        """Apply the chance outcome `action` by its step's rules alone, as if no card window followed the roll, and
        leave the history as it was: what the roll decides, for the log's words on it (`outcomes`)."""
        if self.step in S.CARD_STEPS:
            self._card_step(action)
        else:
            self._dispatch(action)

    def _dispatch(self, action: int) -> None:
        """An action of the game's own steps (not a card's), sent to its phase's module; then the step that
        follows, and the card window before it if it is a roll or a fight (VA-08)."""
        self.before_done = False
        self._dispatch_step(action)
        self._open_before_windows()

    def _dispatch_step(self, action: int) -> None:
        step = self.step
        position = self.position
        election = self.election
        if step == S.KINGDOM_ROLL:
            position.choice.roll(action - ROLL + 1)
            self._settle_setup()
            return
        if step == S.KINGDOM_CHOICE:
            position.choice.choose(KINGDOMS[action - KINGDOM])
            self._settle_setup()
            return
        if step == S.REACTION_ROLL:
            reactions.reaction_roll(position, self.reactions, action - ROLL + 1)
        elif step == S.GALD_ROLL:
            reactions.gald_roll(position, self.reactions, action - ROLL + 1)
        elif step == S.GIFT_TARGET:
            if action == PASS:
                elections.pass_gift(position, election, self.deck)
            elif action >= GIVE_CARD_TO:
                elections.choose_card_gift(election, action - GIVE_CARD_TO)
            else:
                elections.choose_gift(election, action - GIVE_SILVER)
        elif step == S.GIFT_AMOUNT:
            elections.give(position, election, action - AMOUNT + 1, self.deck)
        elif step == S.GIFT_CARD:
            kind = action - GIVE_CARD
            self.card_moves.append(R.CardMove(len(self.history), R.GIVEN, election.actor, election.target, kind))
            elections.give_card(position, election, self.deck, kind)
        elif step == S.BID_TARGET:
            if action == PASS:
                elections.pass_bid(position, election)
            else:
                target = elections.KINGDOM_ROLL_TARGET if action == PAY_ONTO_KINGDOM else action - PAY_ONTO
                elections.choose_roll(election, target)
        elif step == S.BID_AMOUNT:
            elections.pay(position, election, action - AMOUNT + 1)
        elif step == S.SEALED_BID:
            n = 0 if action == PASS else action - AMOUNT + 1
            self._show(elections.pledge(position, election, n, len(self.history)))
        elif step == S.ELECTION_ROLL:
            elections.roll(position, election, action - ROLL + 1, self.deck)
        elif step == S.PEACE_OFFER:
            if action == PASS:
                elections.pass_peace(position, election)
            else:
                elections.offer_peace(position, election, action - OFFER_PEACE)
        elif step == S.PEACE_ANSWER:
            elections.answer_peace(position, election, action == ACCEPT_PEACE)
        elif step == S.PULL_DOWN:
            if action == DONE:
                purchases.done_pulling_down(position, self.purchases)
            else:
                data = self.space.to_json(action)
                purchases.pull_down(position, self.purchases, data["camp"], data["area"])
                emigration.check_homeless(position)
        elif step == S.BUY_SHIPS:
            if action == DONE:
                purchases.done_buying(position, self.purchases)
            else:
                data = self.space.to_json(action)
                purchases.choose_place(self.purchases, data["ships"], data["area"])
        elif step == S.BUY_AMOUNT:
            purchases.buy(position, self.purchases, action - AMOUNT + 1)
        elif S.STEPS[step].phase == S.JOURNEYS:
            self._apply_journey(action)
        elif step == S.EMIGRATION:
            if action == PASS:
                emigration.pass_emigration(position, self.emigration)
            else:
                emigration.emigrate(position, self.emigration, self.space.to_json(action)["area"])
        elif step == S.CHRISTIANISATION_ROLL or step == S.ASSIMILATION_ROLL:
            christianisation.roll(position, self.christianisation, action - ROLL + 1)
        self._settle()

    def _show(self, plies: list[int]) -> None:
        """The sealed pledges at `plies` are shown to all ("Showing sealed payments reveals them all at once"): their
        history entries become public, and the information-state strings built before are built again."""
        if not plies:
            return
        for ply in plies:
            if ply >= 0:  # a pledge made before the start position is not in the history
                self.visible[ply] = PUBLIC
        self._known = {}

    def _apply_journey(self, action: int) -> None:
        """An action of phase 6, sent to `journeys`."""
        position, j, step = self.position, self.journeys, self.step
        if step == S.INITIATIVE_ROLL:
            journeys.initiative_roll(position, j, action - ROLL + 1)
        elif step == S.DANGER_ROLL:
            journeys.danger_roll(position, j, action - ROLL + 1)
        elif step == S.BAN_WAR_ROLL:
            journeys.ban_war_roll(position, j, action - ROLL + 1)
        elif step == S.WAR_RISK_ROLL:
            journeys.risk_roll(position, j, action - ROLL + 1)
        elif step == S.BUILD_REACTION_ROLL:
            journeys.build_reaction_roll(position, j, action - ROLL + 1)
        elif step == S.BUILD_GALD_ROLL:
            journeys.build_gald_roll(position, j, action - ROLL + 1)
        elif step == S.FLEET_HITS:
            journeys.fleet_hits(position, j, action - HITS)
        elif step in (S.ARMY_HITS, S.DEFENDER_HITS):
            one = action >= HITS_WITH_ONE
            journeys.other_hits(position, j, action - (HITS_WITH_ONE if one else HITS), one)
        elif step == S.JOURNEY_CHOICE:
            if action == PASS:
                journeys.pass_journey(position, j)
            else:
                data = self.space.to_json(action)
                journeys.choose_fleet(j, data["ships"], data["area"])
        elif step == S.FLEET_SIZE_CHOICE:
            journeys.launch(position, j, action - AMOUNT + 1)
        elif step == S.DUTY_AMOUNT:
            journeys.ask_duty(position, j, action - AMOUNT + 1)
        elif step == S.ENTRY_ANSWER:
            journeys.answer_entry(position, j, self.space.to_json(action)["type"])
        elif step == S.SEA_BAN:
            journeys.answer_sea_ban(position, j, self.space.to_json(action)["type"])
        elif step == S.ENTRY_REPLY:
            journeys.reply(position, j, self.space.to_json(action)["type"])
        elif step == S.FIGHT_ON:
            journeys.fight_on(position, j, action == FIGHT_ON)
        elif step == S.WAR_DECLARATION:
            journeys.declare(position, j, action == DECLARE_WAR)
        elif action == END_JOURNEY:
            journeys.end_journey(position, j)
        elif action == STOP:
            journeys.stop(position, j)
        elif action == TRADE:
            journeys.do_trade(position, j)
        elif action == PLUNDER:
            journeys.do_plunder(position, j)
        elif action == DESTROY:
            journeys.do_destroy(position, j)
        elif BUILD <= action < BUILD + len(SHIP_TYPES) * MAX_BUILD:
            journeys.do_build(position, j, (action - BUILD) % MAX_BUILD + 1)
        else:
            journeys.try_move(position, j, self.space.to_json(action)["area"])

    # -- outcome -------------------------------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """At the end, 1/k to each of k winners and 0 to the rest (VA-63); all 0 before."""
        return end.returns(self.position, self.winners())

    def scores(self) -> list[int]:
        """Each seat's victory points."""
        return list(self.position.vp)

    def winners(self) -> list[int]:
        """At the end, the seats with the most VP (ties shared, or broken by `tie_break`, VA-63); none before."""
        if not S.STEPS[self.step].terminal:
            return []
        return end.winners(self.position, self.options["tie_break"])

    def scorings(self) -> list[JSONDict]:
        """Every scoring so far, itemised as the contract asks: one report per phase 9 (`round` is the turn) and one
        for the final scoring, each line naming who scored what for which area, king or discovery."""
        reports: list[JSONDict] = []
        for turn, line in self.score_lines:
            if not reports or reports[-1]["round"] != turn:
                reports.append({"round": turn, "when": f"{self.board.year(turn)} victory points", "lines": []})
            reports[-1]["lines"].append(self._score_line(line))
        if S.STEPS[self.step].terminal:
            lines = [self._score_line(line) for line in self.final_lines]
            when = "final (one per camp)"
            if self.cut_short:
                when = f"final (one per camp), the game cut short after {self.action_limit:,} actions"
            reports.append({"round": self.position.turn, "when": when, "lines": lines})
        return reports

    def _score_line(self, line: victory_points.ScoreLine) -> JSONDict:
        """One scoring line: seat, kind (conquest, king, discovery, camps), what it was for, and the points."""
        if line.reason == "king":
            text = f"king of {self.space.kingdom_names[line.subject]}"
        elif line.reason == "camps":
            text = f"camps in {self.space.area_name(line.subject)}"
        else:
            text = f"{line.reason} of {self.space.area_name(line.subject)}"
        return {"seat": line.seat, "kind": line.reason, "subject": line.subject, "text": text, "points": line.points}

    # -- what a viewer sees (perfect information while cards are off and bids open) ------------------------------

    def phrase(self) -> Phrase:
        """The sentence the next action finishes (`actions.Phrase`), from the step."""
        kind = S.STEPS[self.step].phrase
        election = self.election
        if kind == GIFT:
            return Phrase(GIFT, seat=election.target)
        if kind == ELECTION:
            return Phrase(ELECTION, kingdom=election.kingdom_id)
        if kind == PAYMENT:
            return Phrase(PAYMENT, seat=max(election.target, -1), kingdom=election.kingdom_id)
        if kind == PURCHASE:
            return Phrase(PURCHASE, ships=self.purchases.kind, area=self.purchases.area)
        if kind == FLEET_SIZE:
            return Phrase(FLEET_SIZE, ships=self.journeys.start_kind, area=self.journeys.start_area)
        if kind == DUTY:
            return Phrase(DUTY)
        if kind == CARD and self.play is not None:
            return Phrase(CARD, card=CARD_IDS[self.play.kind])
        if kind == CARD_GIFT:
            return Phrase(CARD_GIFT, seat=self.gift_receiver())
        if kind in (JOURNEY, BUILDING) and self.position.fleets and self.journeys.active:
            f = self.position.fleets[0]
            return Phrase(JOURNEY, ships=f.kind, size=f.size, area=f.area)
        return Phrase(NO_PHRASE)

    def observation(self, seat: int | None) -> JSONDict:
        """The whole position but the cards no one shows (the rulings' "Hidden information"): every seat and a
        spectator see the table, the step, who acts, the pile, the deck's size, each hand's size and every card
        played; a seat also sees its own hand, and a spectator no hand."""
        step = S.STEPS[self.step]
        election = self.election
        phase = self.position.phase
        return {
            "seat": seat,
            "table": self.position.snapshot(),
            "phase": phase,
            "phase_name": S.PHASE_NAMES[phase],
            "cards": self._cards_seen(seat),
            "step": step.name,
            "to_act": self.current_player(),
            "reactions": [r._asdict() for r in self.reactions.results],
            "elections": [r._asdict() for r in election.results],
            "election": {
                "kingdom": election.kingdom_id,
                "participants": list(election.participants),
                "paid": list(election.paid),
                "kingdom_paid": election.kingdom_paid,
                "dice": list(election.dice),
                # INFLYTANDE VID KUNGAVAL's +2s on this election's rolls, per seat and on the kingdom's (public).
                "bonus": list(election.bonus),
                "kingdom_bonus": election.kingdom_bonus,
                # VA-35 `election_bids`; under 'sealed' the round under way (the viewer's own pledges only) and
                # every pledge shown this phase.
                "bids": election.rules.election_bids,
                "sealed": self._sealed_seen(seat),
                "shown": [p._asdict() for p in election.shown],
            },
            "silver": [i._asdict() for i in self.incomes],
            "purchases": {
                "buyer": self.purchases.buyer,
                "ships": self.purchases.kind,
                "area": self.purchases.area,
                "bought": list(self.purchases.bought),
            },
            "journey": journeys.observation(self.position, self.journeys),
            "emigration": [m._asdict() for m in self.emigration.moves],
            "taxes": [t._asdict() for t in self.taxes],
            "cleanup": self.cleanup._asdict() if self.cleanup is not None else None,
            "scorings": [line._asdict() for turn, line in self.score_lines if turn == self.position.turn]
            + [line._asdict() for line in self.final_lines],
            "christianisation": {
                "converted": list(self.christianisation.converted),
                "assimilated": list(self.christianisation.assimilated),
            }
            if self.christianisation.converted or self.christianisation.assimilated
            else None,
        }

    def _sealed_seen(self, seat: int | None) -> JSONDict | None:
        """The sealed round under way as `seat` sees it (None if none): who takes part, the rolls in their order,
        the decision reached and the roll it is on (all public), and the seat's own pledges per roll (None for
        another seat or a spectator: no one sees another's pledges before the reveal)."""
        election = self.election
        if election.step != S.SEALED_BID:
            return None
        own = seat is not None and seat in election.sealed_seats
        return {
            "seats": list(election.sealed_seats),
            "rolls": list(election.sealed_rolls),
            "decision": election.sealed_at,
            "decisions": elections.sealed_decisions(election),
            "asked": election.actor,
            "roll": election.target,
            "pledges": list(election.pledges[seat]) if own and seat is not None else None,
        }

    def _cards_seen(self, seat: int | None) -> JSONDict:
        """The cards as `seat` sees them: its own hand by kind (None for a spectator), every hand's size, the
        deck's size, the face-up pile, the cards shown this turn, the window open and the card under way."""
        deck = self.deck
        w, play = self.window, self.play
        own = seat is not None and 0 <= seat < self.num_players
        return {
            "hand": {CARD_IDS[k]: n for k, n in enumerate(deck.hands[seat]) if n} if own else None,  # type: ignore[index]
            "hand_sizes": [deck.hand_size(s) for s in range(self.num_players)],
            "deck": deck.deck_size(),
            "pile": {CARD_IDS[k]: n for k, n in enumerate(deck.pile) if n},
            "reshuffles": deck.reshuffles,
            "shown": [e._asdict() for e in self.card_log if e.turn == self.position.turn],
            "window": {"kind": w.kind, "asked": w.seat, "passes": w.passes} if w is not None else None,
            "play": {"seat": play.seat, "card": CARD_IDS[play.kind], "target": play.target, "stage": play.stage}
            if play is not None
            else None,
            "discards": list(self.discards),
        }

    def action_kind(self, action: int) -> str:
        """The JSON `type`, and for a card played which card ("play:peace"), so simulations count each kind."""
        if PLAY_CARD <= action < GIVE_CARD:
            return f"play:{CARD_IDS[action - PLAY_CARD]}"
        return str(self.space.to_json(action)["type"])

    def action_to_json(self, action: int) -> JSONDict:
        """The action's JSON form (`actions.ActionSpace.to_json`)."""
        return self.space.to_json(action)

    def action_from_json(self, data: Any) -> int:
        """Parse an action's JSON form; `ValueError` naming the field."""
        return self.space.from_json(data)

    def action_to_notation(self, action: int) -> str:
        """The notation, as the whole sentence the step's `Phrase` makes of it ("pay 3 silver onto Svea Rike's
        roll")."""
        return self.space.to_notation(action, self.phrase())

    def action_from_notation(self, text: str) -> int:
        """Parse notation, bare or as the whole sentence; `ValueError` saying what was not understood."""
        return self.space.from_notation(text)

    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        """The whole table as text (`render.py`): a person can play from it at the terminal."""
        return render.render_text(self, color, seat)

    # -- hidden information (the rulings' "Hidden information") ----------------------------------------------------

    def may_see(self, index: int, viewer: int | None) -> bool:
        """Whether `viewer` (None: a spectator) may see history entry `index`."""
        mask = self.visible[index]
        return mask == PUBLIC or (viewer is not None and viewer >= 0 and bool(mask >> viewer & 1))

    def observation_tensor(self, seat: int) -> list[float]:
        """`observation(seat)` as floats (`tensor.encode`, docs/rl-observation.md): only what `seat` may see."""
        from skald.games.vikingatid.tensor import encode

        return encode(self, seat)

    def observation_array(self, seat: int) -> Any:
        """`observation_tensor(seat)` as a new float32 numpy array, written from the sparse features (about five
        times faster than the contract's default, which converts the whole list)."""
        from skald.games.vikingatid.tensor import encode_array

        return encode_array(self, seat)

    def information_state_string(self, seat: int | None) -> str:
        """The history as `seat` knows it: each entry it may not see (another player's draw, the kind of a card
        gift between two others, another's sealed pledge before the reveal) is a '?'. Two histories give the same
        string exactly when they differ only there."""
        viewer = -1 if seat is None or seat < 0 else seat
        bit = 1 << viewer if viewer >= 0 else 0
        visible, history = self.visible, self.history
        length, known = self._known.get(viewer, (0, ""))
        if length > len(history):
            length, known = 0, ""
        added = " ".join(
            str(history[i]) if visible[i] == PUBLIC or visible[i] & bit else "?" for i in range(length, len(history))
        )
        text = f"{known} {added}" if known and added else known or added
        self._known[viewer] = (len(history), text)
        if self.origin_seen:
            # From a start position: what the viewer saw of it comes first.
            return f"@{self.origin_seen[viewer + 1]} {text}"
        return text

    def action_reveals(self, action: int) -> bool:
        """Playing a card shows it, a card given shows its kind to its receiver, a discard shows the card, and the
        round's last sealed pledge shows them all; nothing else a seat does reveals what was hidden (undo,
        docs/engine.md). Known to the seat to act: its own card and whether its pledge is the round's last."""
        step = self.step
        if PLAY_CARD <= action < DRAW or step in (S.GIFT_CARD, S.DISCARD_CARD):
            return True
        return step == S.SEALED_BID and elections.last_sealed(self.election)

    def action_hidden_from(self, action: int, viewer: int | None) -> bool:
        """A draw is hidden from all but its drawer, a card gift's kind from all but its two parties, a sealed
        pledge (but the round's last, shown at once with all) from all but its decider."""
        mask = self._visibility(action)
        if mask == PUBLIC:
            return False
        return viewer is None or viewer < 0 or not mask >> viewer & 1

    def notation_for(self, action: int, viewer: int | None) -> str:
        """The notation as `viewer` sees it: "seat 2 draws a card" for a draw it may not see, "seat 2 gives a
        card to seat 3" for a gift whose kind it may not see, "seat 3 pledges in secret on seat 2's roll" for a
        sealed pledge (whatever its amount)."""
        if not self.action_hidden_from(action, viewer):
            return self.action_to_notation(action)
        if self.step == S.DRAW_CARD:
            return f"seat {D.drawer(self.deck) + 1} draws a card"
        if self.step == S.SEALED_BID:
            election = self.election
            target = election.target
            whose = f"seat {target + 1}'s" if target >= 0 else f"{self.space.kingdom_names[election.kingdom_id]}'s"
            return f"seat {election.actor + 1} pledges in secret on {whose} roll"
        return f"seat {self.current_player() + 1} gives a card to seat {self.gift_receiver() + 1}"

    def gift_receiver(self) -> int:
        """The receiver of the card gift under way (at GIFT_CARD), else -1."""
        return self.election.target if self.step == S.GIFT_CARD else -1

    def resample_from_infostate(self, seat: int, rng: random.Random) -> VikingatidState:
        """A world `seat` cannot tell from this one: the draws and gift kinds it did not see dealt again in one pass
        over the card moves at two players (`dealing.deal`), else by the search of `resample.deal`,
        consistent with every card it saw played, discarded or given, the history rewritten to match, the hands and
        deck set as they would then be; and the other seats' pledges of a sealed round under way dealt again
        (`elections.deal_pledges`). Reads no hidden kind or pledge."""
        if self.num_players == ONE_PASS_PLAYERS:
            dealt = dealing.deal(self.card_moves, self.deck.counts, self.num_players, seat, rng)
            if dealt is not None:
                return self._world(seat, dealt.kinds, dealt.hands, rng)
        return self.resample_by_replay(seat, rng)

    def resample_by_replay(self, seat: int, rng: random.Random) -> VikingatidState:
        """`resample_from_infostate` by the search of `resample.deal`, which plans every unseen gift so that each
        seen use finds its card: the reference the one-pass deal is checked against."""
        kinds = R.deal(self.card_moves, self.deck.counts, self.num_players, seat, rng)
        hands = [[0] * CARD_KINDS for _ in range(self.num_players)]
        for index, move in enumerate(self.card_moves):
            kind = kinds[index]
            if move.verb == R.DRAWN:
                hands[move.seat][kind] += 1
            elif move.verb == R.GIVEN:
                hands[move.seat][kind] -= 1
                hands[move.other][kind] += 1
            else:
                hands[move.seat][kind] -= 1
        return self._world(seat, kinds, hands, rng)

    def _world(self, seat: int, kinds: list[int], hands: list[list[int]], rng: random.Random) -> VikingatidState:
        """A copy with every card move given its kind in `kinds`, the history rewritten to match, `hands` as the
        hands and the deck what is left; then the sealed pledges `seat` did not see dealt again."""
        world = self.clone()
        # The world looks to `seat` exactly as this state does: its information-state string so far holds there too.
        known = self._known.get(seat)
        world._known = {seat: known} if known is not None else {}
        history = world.history
        moves = world.card_moves
        for index in range(len(moves)):
            move = moves[index]
            kind = kinds[index]
            if kind == move.kind:
                continue
            moves[index] = move._replace(kind=kind)
            if move.ply < 0:  # a card held at the start position: no history entry
                continue
            if move.verb == R.DRAWN:
                history[move.ply] = DRAW + kind
            elif move.verb == R.GIVEN:
                history[move.ply] = GIVE_CARD + kind
        deck = world.deck
        counts = deck.counts
        pile = deck.pile
        rest = list(counts)
        for hand in hands:
            for k in range(CARD_KINDS):
                rest[k] -= hand[k]
        deck.hands = hands
        deck.deck = [rest[k] - pile[k] for k in range(CARD_KINDS)]
        for ply, n in elections.deal_pledges(world.election, seat, rng):
            if ply >= 0:
                history[ply] = AMOUNT + n - 1 if n > 0 else PASS
        if self.origin is not None:
            from skald.games.vikingatid.positions import dealt_again

            dealt_again(world, self.origin, seat)
        return world

    # -- positions (docs/vikingatid-positions.md) ---------------------------------------------------------------

    def to_position(self) -> JSONDict:
        """The position as JSON (`positions.to_position`): the table, the step, each phase under way, the hands
        and the deck; `game.state_from_position` reads it back."""
        from skald.games.vikingatid.positions import to_position

        return to_position(self)

    def start_position(self) -> JSONDict | None:
        """The position the history starts from, or None from the setup."""
        return self.origin

    def start_position_seen_by(self, viewer: int | None) -> JSONDict | None:
        """The start position with what `viewer` may not see (other hands, the deck, others' sealed pledges)
        replaced by its size."""
        if self.origin is None:
            return None
        from skald.games.vikingatid.positions import seen_by

        return seen_by(self.origin, viewer)


def position_at(state: VikingatidState, position: Position, phase: int) -> VikingatidState:
    """A state on a prepared `position` (first seat and kingdoms set) at the start of `phase`, for tests: a fixture,
    not a record (its history is empty)."""
    fixture = state.clone()
    fixture.position = position
    position.fief_loss = str(state.options["fief_loss"])
    position.keep_dry_excess = state.options["mines_dry_camps"] == "keep_excess"
    fixture.history = []
    fixture.visible = []
    fixture.card_moves = []
    fixture._known = {}
    fixture.begin_phase(phase)
    # The fixture's history starts here: its record starts from this position.
    from skald.games.vikingatid.positions import start_here

    start_here(fixture)
    return fixture
