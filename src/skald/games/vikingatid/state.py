"""A Vikingatid position under the engine contract: the `Table`, the step of the turn, and the phase under way.

The state holds the position (`table.Table`), the action space of its board (`actions.ActionSpace`), the rule options
and the step (`steps.STEPS`); each decision goes to its phase's module (`setup`, `reactions`, `elections`, `silver`,
`purchases`), which changes the table through its ledger. What exists (issue 19, part 1, third session): the
kingdom choice with its rolls, the turn's first seat (VA-06), phase 1 skipped while `cards` is off, phase 2 (empire
reactions), phase 3 (elections, gifts, payments, King's Peace), phase 4 (silver, applied at once) and phase 5
(pulling down camps, buying and placing ships).

**Where play stops.** At the start of phase 6 (Initiative and journeys) of turn 1, before the first initiative roll,
the state is terminal, with all returns 0 and no winner: the later phases are not written, and nothing is faked in
their place. That boundary is
for development only, which is why the game is not registered (docs/vikingatid.md, "Where play stops").
"""

from __future__ import annotations

from typing import Any, Final

from skald.engine import CHANCE, TERMINAL, Game, IllegalAction, JSONDict, State
from skald.games.vikingatid import elections, purchases, reactions, silver
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    AMOUNT,
    ELECTION,
    GIFT,
    GIVE_SILVER,
    KINGDOM,
    KINGDOMS,
    NO_PHRASE,
    NUM_ACTIONS,
    OFFER_PEACE,
    PAY_ONTO,
    PAY_ONTO_KINGDOM,
    PAYMENT,
    PURCHASE,
    ROLL,
    SINGLE,
    ActionSpace,
    Phrase,
)
from skald.games.vikingatid.board import Board
from skald.games.vikingatid.setup import D10_FACES, NOBODY
from skald.games.vikingatid.table import Table

#: The single decisions' ids this part uses (their places in `actions.SINGLES`; a test checks them).
PASS: Final = SINGLE + 0
DONE: Final = SINGLE + 1
ACCEPT_PEACE: Final = SINGLE + 18
DECLINE_PEACE: Final = SINGLE + 19
#: The probability of each D10 face (VA-07).
D10_CHANCE: Final = 0.1


def silver_rules(options: dict[str, Any]) -> silver.SilverRules:
    """The options phase 4 reads."""
    return silver.SilverRules(
        war_tracking=options["war_tracking"],
        war_silver=options["war_silver"],
        war_halving=options["war_halving"],
        foreign_king_share=options["foreign_king_share"],
    )


def election_rules(options: dict[str, Any]) -> elections.ElectionRules:
    """The options phase 3 reads."""
    return elections.ElectionRules(
        gifts=options["gifts"],
        foreign_king_only=options["foreign_king_only"],
        bid_silver=options["bid_silver"],
        election_margin=options["election_margin"],
        kings_peace=options["kings_peace"],
    )


class VikingatidState(State):
    """One position of Vikingatid: the table, the step, and the phase under way (see the module doc for where play
    stops for now)."""

    game: Game

    def __init__(
        self,
        game: Game,
        num_players: int,
        options: dict[str, Any],
        board: Board,
        space: ActionSpace,
        source: VikingatidState | None = None,
    ) -> None:
        """The position before the kingdom choice, or, given `source`, an independent copy of it (`clone`)."""
        self.game = game
        self.num_players = num_players
        self.options: Final = options
        self.board: Final = board
        self.space: Final = space
        if source is not None:
            self.history = list(source.history)
            self.table: Table = source.table.clone()
            self.step: int = source.step
            self.reactions: reactions.Reactions = source.reactions.clone()
            self.election: elections.Election = source.election.clone()
            self.incomes: list[silver.Income] = list(source.incomes)
            self.purchases: purchases.Purchases = source.purchases.clone()
            return
        self.history = []
        self.table = Table(board, num_players, options["kingdom_choice"])
        self.step = S.KINGDOM_ROLL
        self.reactions = reactions.Reactions(options["reaction_roll"])
        self.election = elections.Election(num_players, election_rules(options))
        self.incomes = []
        self.purchases = purchases.Purchases(num_players, len(board.areas), options["purchase"])
        self._settle_setup()

    def clone(self) -> VikingatidState:
        """An independent copy, through the constructor."""
        return VikingatidState(self.game, self.num_players, self.options, self.board, self.space, self)

    # -- the flow ------------------------------------------------------------------------------------------------

    def _settle_setup(self) -> None:
        """Roll or choose while the kingdom choice lasts (VA-01); then turn 1 begins."""
        choice = self.table.choice
        if choice.roller() != NOBODY:
            self.step = S.KINGDOM_ROLL
        elif choice.chooser() != NOBODY:
            self.step = S.KINGDOM_CHOICE
        else:
            self._start_turn()

    def _start_turn(self) -> None:
        """A turn begins with its first seat (VA-06) and phase 1, which has nothing to do while `cards` is off."""
        table = self.table
        table.first_seat = S.turn_first_seat(
            table.turn, table.choice.first_seat(), self.num_players, self.options["turn_order"]
        )
        table.phase = S.DRAW_CARDS
        self.begin_phase(S.REACTIONS)

    def begin_phase(self, phase: int) -> None:
        """Start `phase` on the table as it stands (the flow calls it; tests use it on a prepared table)."""
        self.table.phase = phase
        if phase == S.REACTIONS:
            self.reactions = reactions.begin(self.table, self.options["reaction_roll"])
        elif phase == S.ELECTIONS:
            self.election = elections.begin(self.table, election_rules(self.options))
        elif phase == S.SILVER:
            # No decision in phase 4: it is applied at once, and phase 5 follows.
            self.incomes = silver.distribute(self.table, silver_rules(self.options))
            self.begin_phase(S.BUYING_SHIPS)
            return
        elif phase == S.BUYING_SHIPS:
            self.purchases = purchases.begin(self.table, self.options["purchase"])
        elif phase == S.JOURNEYS:
            # Where play stops for now (docs/vikingatid.md): phase 6 is not written.
            self.step = S.INITIATIVE_ROLL
            return
        else:
            raise ValueError(f"phase: {phase} ({S.PHASE_NAMES[phase]}) cannot be started yet (issue 19)")
        self._settle()

    def _settle(self) -> None:
        """The step of the phase under way, or the next phase once it is over."""
        phase = self.table.phase
        if phase == S.REACTIONS:
            if reactions.done(self.reactions):
                self.begin_phase(S.ELECTIONS)
                return
            self.step = S.GALD_ROLL if reactions.gald_roller(self.reactions) >= 0 else S.REACTION_ROLL
        elif phase == S.ELECTIONS:
            if elections.done(self.election):
                self.begin_phase(S.SILVER)
                return
            self.step = self.election.step
        elif phase == S.BUYING_SHIPS:
            if purchases.done(self.purchases):
                self.begin_phase(S.JOURNEYS)
                return
            self.step = self.purchases.step

    # -- whose turn and what is legal ----------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE for a roll, or TERMINAL at the boundary where play stops for now."""
        step = S.STEPS[self.step]
        if not step.implemented:
            return TERMINAL
        if step.chance:
            return CHANCE
        if self.step == S.KINGDOM_CHOICE:
            return self.table.choice.chooser()
        if step.phase == S.BUYING_SHIPS:
            return self.purchases.buyer
        return self.election.actor

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a roll, each face of the D10 with 1/10 (VA-07); elsewhere none."""
        if self.current_player() != CHANCE:
            return []
        return [(ROLL + face - 1, D10_CHANCE) for face in D10_FACES]

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending (chance's outcomes at a roll, none at the end)."""
        step = self.step
        if not S.STEPS[step].implemented:
            return []
        if S.STEPS[step].chance:
            return [ROLL + face - 1 for face in D10_FACES]
        if step == S.KINGDOM_CHOICE:
            return [KINGDOM + KINGDOMS.index(k) for k in self.table.choice.legal_kingdoms()]
        election = self.election
        if step == S.GIFT_TARGET:
            return [PASS, *(GIVE_SILVER + s for s in elections.gift_targets(self.table, election))]
        if step in (S.GIFT_AMOUNT, S.BID_AMOUNT):
            return [AMOUNT + n - 1 for n in elections.amounts(self.table, election)]
        if step == S.BID_TARGET:
            seats = [PAY_ONTO + s for s in election.participants]
            return [PASS, *seats, PAY_ONTO_KINGDOM]
        if step == S.PEACE_OFFER:
            return [PASS, *(OFFER_PEACE + k for k in elections.peace_candidates(self.table, election))]
        if step == S.PEACE_ANSWER:
            return [ACCEPT_PEACE, DECLINE_PEACE]
        table, bought = self.table, self.purchases
        if step == S.PULL_DOWN:
            return [DONE, *(self.space.pull_down(k, a) for k, a in purchases.own_camps(table, bought.buyer))]
        if step == S.BUY_SHIPS:
            done = [DONE] if bought.mode == purchases.UP_TO_SILVER else []
            return [*done, *(self.space.buy(k, a) for k, a in purchases.places(table, bought, bought.buyer))]
        if step == S.BUY_AMOUNT:
            return [AMOUNT + n - 1 for n in purchases.amounts(table, bought)]
        raise AssertionError(f"step {step} has no legal actions written")

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
        if not step.implemented:
            return IllegalAction(
                step.rule,
                f"play stops at the start of phase {step.phase} ({S.PHASE_NAMES[step.phase]}) of turn "
                f"{self.table.turn}: that phase is not written yet (issue 19)",
            )
        if kind not in step.kinds:
            return IllegalAction(
                step.rule, f"{self.space.to_notation(action)!r} is not a choice now: the step is {step.name!r}"
            )
        if action in self.legal_actions():
            return None
        return self._explain(action, step)

    def _explain(self, action: int, step: S.Step) -> IllegalAction:
        """The rule an action of the right kind for this step still breaks."""
        table, election = self.table, self.election
        if self.step == S.KINGDOM_CHOICE:
            trial = table.choice.clone()
            try:
                trial.choose(KINGDOMS[action - KINGDOM])
            except IllegalAction as error:
                return error
        if self.step == S.GIFT_TARGET:
            seat = action - GIVE_SILVER
            if seat == election.actor:
                return IllegalAction("VA-38", "a gift goes to another player, not to yourself")
            return IllegalAction("VA-38", f"there is no seat {seat + 1} at this table of {self.num_players}")
        if self.step in (S.GIFT_AMOUNT, S.BID_AMOUNT):
            return IllegalAction(
                "VA-35" if self.step == S.BID_AMOUNT else "VA-38",
                f"seat {election.actor + 1} has {table.silver[election.actor]} silver, not {action - AMOUNT + 1} "
                "('Each player may pay up to all of his silver')",
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
        if self.step == S.PEACE_OFFER:
            return IllegalAction(
                "VA-39",
                f"no King's Peace can be offered to {self.space.kingdom_names[KINGDOMS[action - OFFER_PEACE]]}: "
                "it needs a king of another kingdom, not already at King's Peace with yours or offered it this phase",
            )
        return IllegalAction(step.rule, f"{self.space.to_notation(action)!r} is not legal now")

    def _explain_purchase(self, action: int) -> IllegalAction:
        """Why a pull-down, purchase or number is illegal in phase 5."""
        table, bought = self.table, self.purchases
        seat = bought.buyer
        data = self.space.to_json(action)
        if data["type"] == "done":
            return IllegalAction(
                "VA-43",
                f"'Each player buys ships for all of their silver': seat {seat + 1} has {table.silver[seat]} silver "
                "and a place for ships (rule option purchase: all_silver)",
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
        most = len(purchases.amounts(table, bought))
        return IllegalAction(
            "VA-43",
            f"seat {seat + 1} may buy at most {most} {bought.kind} ships at {self.space.area_name(bought.area)} now "
            f"({table.silver[seat]} silver; two ships per camp, any number at home)",
        )

    # -- changing the state --------------------------------------------------------------------------------------

    def _apply(self, action: int) -> None:
        step = self.step
        table = self.table
        election = self.election
        if step == S.KINGDOM_ROLL:
            table.choice.roll(action - ROLL + 1)
            self._settle_setup()
            return
        if step == S.KINGDOM_CHOICE:
            table.choice.choose(KINGDOMS[action - KINGDOM])
            self._settle_setup()
            return
        if step == S.REACTION_ROLL:
            reactions.reaction_roll(table, self.reactions, action - ROLL + 1)
        elif step == S.GALD_ROLL:
            reactions.gald_roll(table, self.reactions, action - ROLL + 1)
        elif step == S.GIFT_TARGET:
            if action == PASS:
                elections.pass_gift(table, election)
            else:
                elections.choose_gift(election, action - GIVE_SILVER)
        elif step == S.GIFT_AMOUNT:
            elections.give(table, election, action - AMOUNT + 1)
        elif step == S.BID_TARGET:
            if action == PASS:
                elections.pass_bid(table, election)
            else:
                target = elections.KINGDOM_ROLL_TARGET if action == PAY_ONTO_KINGDOM else action - PAY_ONTO
                elections.choose_roll(election, target)
        elif step == S.BID_AMOUNT:
            elections.pay(table, election, action - AMOUNT + 1)
        elif step == S.ELECTION_ROLL:
            elections.roll(table, election, action - ROLL + 1)
        elif step == S.PEACE_OFFER:
            if action == PASS:
                elections.pass_peace(table, election)
            else:
                elections.offer_peace(table, election, action - OFFER_PEACE)
        elif step == S.PEACE_ANSWER:
            elections.answer_peace(table, election, action == ACCEPT_PEACE)
        elif step == S.PULL_DOWN:
            if action == DONE:
                purchases.done_pulling_down(table, self.purchases)
            else:
                data = self.space.to_json(action)
                purchases.pull_down(table, self.purchases, data["camp"], data["area"])
        elif step == S.BUY_SHIPS:
            if action == DONE:
                purchases.done_buying(table, self.purchases)
            else:
                data = self.space.to_json(action)
                purchases.choose_place(self.purchases, data["ships"], data["area"])
        elif step == S.BUY_AMOUNT:
            purchases.buy(table, self.purchases, action - AMOUNT + 1)
        self._settle()

    # -- outcome -------------------------------------------------------------------------------------------------

    def returns(self) -> list[float]:
        """All 0: no game reaches its end yet (play stops at phase 6 of turn 1)."""
        return [0.0] * self.num_players

    def scores(self) -> list[int]:
        """Each seat's victory points."""
        return list(self.table.vp)

    def winners(self) -> list[int]:
        """None yet: the end (11. Next turn, Winning the game) is not written."""
        return []

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
        return Phrase(NO_PHRASE)

    def observation(self, seat: int | None) -> JSONDict:
        """The whole position (nothing is hidden while `cards` is off and bids are open), with the step, who acts,
        the phase under way and the viewer's seat."""
        step = S.STEPS[self.step]
        election = self.election
        return {
            "seat": seat,
            "table": self.table.snapshot(),
            "phase": step.phase,
            "phase_name": S.PHASE_NAMES[step.phase],
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
            },
            "silver": [i._asdict() for i in self.incomes],
            "purchases": {
                "buyer": self.purchases.buyer,
                "ships": self.purchases.kind,
                "area": self.purchases.area,
                "bought": list(self.purchases.bought),
            },
        }

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
        """A plain account of the table (the full text table, render.py, comes later): the year, phase and step,
        each seat's kingdom, silver, VP, camps and ships, each kingdom's king, treasury and marker."""
        table = self.table
        step = S.STEPS[self.step]
        lines = [
            f"Vikingatid, turn {table.turn} ({table.year}), phase {step.phase}: {S.PHASE_NAMES[step.phase]}; "
            f"step: {step.name}"
        ]
        seats = table.snapshot()["seats"]
        for s in range(self.num_players):
            kingdom = table.kingdom_of(s)
            home = self.space.kingdom_names[kingdom] if kingdom else "(not chosen)"
            camps, ships = seats[s]["camps"], seats[s]["ships"]
            lines.append(
                f"  seat {s + 1}: {home}, {table.silver[s]} silver, {table.vp[s]} VP"
                f"{', Christian' if table.christian[s] else ''}; camps {camps or 'none'}; ships {ships or 'none'}"
            )
        for i, k in enumerate(KINGDOMS):
            king = table.king[i]
            lines.append(
                f"  {self.space.kingdom_names[k]}: king {'none' if king == NOBODY else f'seat {king + 1}'}, "
                f"treasury {table.treasury[i]}{', ' + table.war[i] if table.war[i] else ''}"
            )
        if not step.implemented:
            lines.append(f"  play stops here: phase {step.phase} is not written yet (issue 19)")
        return "\n".join(lines)


def position_at(state: VikingatidState, table: Table, phase: int) -> VikingatidState:
    """A state on a prepared `table` (first seat and kingdoms set) at the start of `phase`, for tests: a fixture,
    not a record (its history is empty)."""
    fixture = state.clone()
    fixture.table = table
    fixture.history = []
    fixture.begin_phase(phase)
    return fixture
