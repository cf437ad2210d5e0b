"""How Vikingatid presents itself to people: each step in words, what a choice does, keys, notes and the rulebook.

Every front end (the terminal, the web) asks `VikingatidGame.presentation`. Everything legal comes from the state
(`legal_actions`, `illegal_reason`); this module only explains, reading the action's JSON form
(`state.space.to_json`), the table and the observation, so it keeps working at a step it has no words for: it then
says the step's name from `steps.STEPS` (or "choose a move" for a step it does not even find there), and a choice
it cannot explain keeps its notation alone. The hand of the seat to act is shown only to that seat: descriptions and
the rules summary speak of the cards the seat to act holds, which the front end shows only to the person at that
seat (the terminal's pass-the-keyboard screen stands between two people).
"""

from __future__ import annotations

from typing import Any, Final

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape
from rich.text import Text

from skald.engine import CardFace, JSONDict, Presentation, StandingAnswer, State
from skald.games.vikingatid import danger, elections, initiative, kingdoms_war, outcomes
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import GIVE_CARD_TO, KINGDOMS, PASS, SHIP_TYPES, TARGET_AREA
from skald.games.vikingatid.card_faces import deck_faces, hand_faces
from skald.games.vikingatid.overview import names, overview_text
from skald.games.vikingatid.position import Fleet, Position
from skald.games.vikingatid.prompts import HAND_STEPS, STEP_CHOICES, offer, offered_kinds
from skald.games.vikingatid.render import (
    FULL_WIDTH,
    area_name,
    conquered_areas,
    kingdom_name,
    render_compact,
    render_text,
)
from skald.games.vikingatid.state import VikingatidState

RULES_FILE: Final = "rules/004"

#: Headings for the kinds of choice (the action's JSON `type`), in the order they are shown.
HEADINGS: Final = {
    "kingdom": "kingdoms",
    "fleet": "start a fleet",
    "move": "move to",
    "trade": "act here",
    "plunder": "act here",
    "destroy": "act here",
    "build": "build camps",
    "buy": "buy ships",
    "pull_down": "pull down a camp",
    "give_silver": "give silver to",
    "pay_onto": "pay onto a roll",
    "offer_peace": "offer a King's Peace",
    "emigrate": "emigrate to",
    "amount": "how many",
    "play": "play a card",
    "give_card_to": "give a card to",
    "give_card": "give which card",
    "discard": "discard",
    "target_seat": "the card's target",
    "target_kingdom": "the card's target",
    "target_area": "the card's target",
}
#: Typed keys of the single decisions (unique within any step that offers them).
SINGLE_KEYS: Final = {
    "pass": "p",
    "done": "d",
    "stop": "s",
    "end_journey": "e",
    "trade": "t",
    "plunder": "pl",
    "fight_on": "f",
    "withdraw": "w",
    "destroy": "x",
    "allow": "a",
    "forbid": "no",
    "ask_duty": "duty",
    "pay_duty": "pay",
    "fight": "f",
    "turn_away": "back",
    "bar_sea": "bar",
    "declare_war": "war",
    "no_war": "n",
    "accept_peace": "y",
    "decline_peace": "n",
    "adopt": "y",
    "refuse": "n",
}
#: The rulebook on each step, paraphrased (the terminal's `rules`), after the rule the step cites.
RULES: Final = {
    S.KINGDOM_ROLL: "Each player rolls a D10; in roll order (ties roll again) each chooses {kingdoms_or}. Under "
    "kingdom_choice 'spread' no kingdom takes a second player while one is empty.",
    S.KINGDOM_CHOICE: "Choose the Viking kingdom you play: its homeland is your home country, where you place any "
    "number of ships and from where most journeys start. Several players may share a kingdom.",
    S.REACTION_ROLL: "2. Roll for empire reactions: for each empire area holding camps a D10 is rolled on that "
    "empire's table, +1 for each war camp there, +2 for a Christian against {christian_empires}. "
    "Fred: nothing happens. Krig: all camps there are destroyed. Gäld: the player is paid from the Gäld table and "
    "his camps there turn into ships, one a camp.",
    S.GALD_ROLL: "Gäld: roll on the Gäld table for the silver; then each of the player's camps in the area becomes "
    "one ship of its type there.",
    S.GIFT_TARGET: "3. Before an election players may give each other silver; no agreement is binding. Give to "
    "another player, then say how much, or pass.",
    S.GIFT_AMOUNT: "The gift takes effect at once: at most all your silver.",
    S.BID_TARGET: "3. King's election: each member (and a king from elsewhere) rolls a D10, and one roll is made for "
    "the kingdom. Before the dice anyone may pay silver onto any roll, +1 a silver: his own, another player's or "
    "the kingdom's. Rounds go on until everyone passes in turn.",
    S.BID_AMOUNT: "Each player may pay up to all of his silver onto a roll; each silver is +1 and a roll may pass 10.",
    S.ELECTION_ROLL: "The dice: +1 for every three camps (not for a player alone in his country), +1 for the king on "
    "the throne, +1 per silver paid. Three points clear of every other roll, the kingdom's included, makes a king "
    "for this turn; otherwise the kingdom has none.",
    S.PEACE_OFFER: "At the end of the elections two kings may declare a King's Peace: then no players of their "
    "kingdoms may fight each other, and a war of last turn no longer halves their silver.",
    S.PEACE_ANSWER: "Accept the King's Peace offered, or decline it.",
    S.PULL_DOWN: "5. Any of your camps may be pulled down now: it leaves the map and one ship of its type is placed "
    "in its area.",
    S.BUY_SHIPS: "5. Buying ships: one silver a ship, trading or war; under purchase 'all_silver' for all your "
    "silver as far as the ships can be placed. Any number go in your home country, two of a type per own camp of "
    "that type.",
    S.BUY_AMOUNT: "Say how many ships to buy here: one silver each.",
    S.INITIATIVE_ROLL: "6.1 Everyone with ships rolls a D10; the highest (ties roll again) makes one journey or "
    "passes, and a new roll follows each journey. When everyone passes, phase 6 ends and unused ships go.",
    S.JOURNEY_CHOICE: "6.1 With the initiative, start a fleet: ships of one type in one area, 1 to 10 of them; or "
    "pass, and the next highest roll takes the initiative.",
    S.FLEET_SIZE_CHOICE: "A fleet is 1 to 10 ships of one type from one area; the rest stay where they are.",
    S.MOVE: "6.2 A fleet moves one area at a time by sea or along rivers, adding up the danger of each area it "
    "enters (a land area's danger falls by one per camp of your kingdom of the fleet's type, never below 0). A "
    "fleet that came into a land area from a sea leaves it to that sea or along a river. At a land area you may "
    "stop: roll a D10; at or below the danger you lose that many ships, a 10 loses nothing; the count restarts. "
    "Reaching one of your camps of the fleet's type ends the leg the same way; reaching 10 danger rolls at once. "
    "No trading fleet enters a plundered area; no war fleet enters an empire's core; no fleet another kingdom.",
    S.ENTRY_ANSWER: "Passing war camps of other kingdoms: a player with war camps in an area may let another "
    "kingdom's fleet enter, ask any duty in silver, or forbid it. Any ban forbids; duties add up.",
    S.DUTY_AMOUNT: "Name the duty: the fleet's owner pays it at once to enter, or turns away, or fights.",
    S.ENTRY_REPLY: "Pay the duty at once and enter, or turn away and choose another move; a war fleet may instead "
    "enter and fight the war camps and war ships there (war between kingdoms).",
    S.SEA_BAN: "{denmark}'s sea: any player of {denmark} may bar another kingdom's fleet from it. Then a D10 at "
    "or below the fleet's ships means war between {denmark} and its kingdom.",
    S.BAN_WAR_ROLL: "The fleet was barred from {denmark}'s sea: a D10 at or below its ships puts War on both kingdoms.",
    S.DANGER_ROLL: "The danger roll: above the danger counted, no loss; at or below it, lose as many ships as "
    "rolled; a 10 never loses. The count then restarts at 0.",
    S.ACT: "6.3 A trading fleet trades (one ship for the area's trade value in silver, then a trade stop) and may "
    "build trading camps (two ships a camp, all players' camps at most the coins). 6.4 A war fleet that beat the "
    "armies may plunder (strength 5: a silver per army beaten; 3: one; 2: none) and build war camps (two ships a "
    "camp, at most the shields, one kingdom per area). Then move on, or end the journey.",
    S.FLEET_HITS: "6.4 The Vikings roll a D10 per war ship: each 5 or less destroys an army. Vikings never roll "
    "again on a 1.",
    S.ARMY_HITS: "6.4 The armies roll a D10 each (shields less one per war camp): each at or below their strength "
    "sinks a ship; any 1 makes them roll all their dice again, adding the hits.",
    S.DEFENDER_HITS: "War between kingdoms: each war camp fights as two war ships of strength 5; the defender's "
    "ships are lost before his camps.",
    S.FIGHT_ON: "6.4 Neither side is wiped out: fight on with what is left, or withdraw and move on.",
    S.WAR_RISK_ROLL: "After camps or ships are destroyed, each side rolls a D10: at or below its ships lost plus two "
    "per camp, war breaks out between the kingdoms.",
    S.WAR_DECLARATION: "Anyone in the fight may also declare war on the other kingdom.",
    S.BUILD_REACTION_ROLL: "Building a camp in an empire's province: roll on the empire's reaction table at once.",
    S.BUILD_GALD_ROLL: "Gäld: roll on the Gäld table for the silver; the camps there become ships.",
    S.EMIGRATION: "7. At the start of taxation a player who is not king may emigrate to one of his conquered "
    "areas: his new home country. He pays no more tax and gets one silver per untroubled trading camp; losing "
    "any camp there leaves him homeless.",
    S.CHRISTIANISATION_ROLL: "10. From 900 each pagan rolls a D10 against the chance on the turn track. Christians "
    "get +2 on reactions of {christian_empires}. When all are Christian the game ends.",
    S.ASSIMILATION_ROLL: "A D10 for each area of {christian_empires} holding Christian camps: on a 1 "
    "those camps are removed.",
    S.DRAW_CARD: "1. Each player draws a card, and before the first turn takes three, so everyone starts with "
    "four. The draw is seen only by the drawer; when the deck is empty the face-up pile is shuffled into a new deck.",
    S.DISCARD_CARD: "8. A player with more than three cards discards down to three, choosing which; discards go "
    "face up.",
    S.CARD_WINDOW: "Cards can be played throughout the turn, if the card doesn't say otherwise. In each window every "
    "holder of a card, from the acting player round the table, plays one or passes; a card played restarts the "
    "round, and the last card played stands where two contradict each other.",
    S.CARD_TARGET: "The card names what it is played on: an area, a player, a kingdom or a king, as its text says.",
    S.CARD_ROLL: "The card's own D10 (KRISTNAD, FÖRLÄNING, UTBRYTARE, RIKSENANDE, the armies of an attack card).",
    S.CARD_HITS: "A fight a card orders works as 6.4 says, except that no side rolls again after a natural 1.",
    S.CARD_ANSWER: "TROSTVIST: each follower takes on the king's religion or refuses; any refusal is civil war.",
    S.GIFT_CARD: "3. Before the election players may give silver or cards to each other; everyone sees that a card "
    "was given, only the two players which.",
    S.SEALED_BID: "3. Under election_bids 'sealed' each player pledges silver onto each roll in secret, or passes; "
    "all pledges are shown together before the dice, each silver +1 on its roll.",
    S.GAME_OVER: "11. The game ends after the last box of the turn track or once every player is Christian. Each "
    "player then gets one victory point per own camp, and the most victory points wins.",
}
#: How the winner is decided, per value of the rule option `tie_break` (VA-63).
TIE_BREAKS: Final = {
    "shared": "the most victory points wins (one more per own camp at the end); players tied share the victory",
    "most_silver": "the most victory points wins (one more per own camp at the end); tied, the most silver; still "
    "tied, the victory is shared",
    "most_conquered": "the most victory points wins (one more per own camp at the end); tied, the most conquered "
    "areas; still tied, the victory is shared",
}


#: How each step's choice is made on the drawn map, where it can be (the web table shows it beside the prompt).
CLICK_HINTS: Final = {
    S.JOURNEY_CHOICE: "click your ships on the map to start a fleet",
    S.MOVE: "click a glowing area to sail there",
    S.BUY_SHIPS: "click an area (or its +T / +W chip) to buy ships there",
    S.PULL_DOWN: "click one of your camps on the map",
    S.EMIGRATION: "click the area to emigrate to",
}


#: The standing answer's offer in words.
STANDING_PASS: Final = "Pass in every card window until my next decision"


def _state(state: State) -> VikingatidState:
    if not isinstance(state, VikingatidState):
        raise TypeError(f"the Vikingatid presentation cannot show a {type(state).__name__}")
    return state


def _step(v: VikingatidState) -> S.Step | None:
    return S.STEPS[v.step] if 0 <= v.step < len(S.STEPS) else None


def _journey(v: VikingatidState) -> dict[str, Any]:
    """Phase 6's details in the observation, or {} while there are none."""
    journey = v.observation(v.current_player() if v.current_player() >= 0 else None).get("journey")
    return journey if isinstance(journey, dict) else {}


def journey_fleet(v: VikingatidState) -> Fleet | None:
    """The fleet on its journey: the one the observation names, else the only one under way, else None."""
    position = v.position
    index = _journey(v).get("fleet", -1)
    if isinstance(index, int) and 0 <= index < len(position.fleets):
        return position.fleets[index]
    if len(position.fleets) == 1:
        return position.fleets[0]
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def card_line(name: str, text: str) -> str:
    """A card in a choice's label: its English name and its whole text, never cut (the notation gives its printed
    title)."""
    return f"{name}: {' '.join(text.split())}"


class TableText:
    """The whole table in the form that fits where it is printed: the full one (render.py, 100 columns) on a
    console at least that wide, the compact one (80 columns) on a narrower one. Rich asks at print time, so the
    person's terminal decides and the front end passes no width."""

    def __init__(self, state: VikingatidState, seat: int | None, names: list[str]) -> None:
        self.state = state
        self.seat = seat
        self.names = names

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The table's markup as Rich text, full or compact by the width Rich offers."""
        form = render_text if options.max_width >= FULL_WIDTH else render_compact
        yield Text.from_markup(form(self.state, color=True, seat=self.seat, names=self.names))


def _foreign_war_camps(position: Position, seat: int, area_id: str) -> list[int]:
    """Seats not of the mover's kingdom with war camps in an area: they may ask a duty or forbid (VA-53)."""
    return [
        s
        for s in range(position.num_players)
        if position.controlled_camps(s, "war", area_id) and not kingdoms_war.countrymen(position, seat, s)
    ]


class VikingatidPresentation(Presentation):
    """Vikingatid in words: each step's prompt, what a choice does (danger, costs, camps), keys, notes, the
    rulebook per step, and the standings with the tie-break option."""

    def seat_summary(self, state: State, seat: int, viewer: int | None) -> str:
        """Victory points, silver and the hand's size (never its cards): `12 VP · 7 silver · 3 cards`."""
        position = _state(state).position
        v = _state(state)
        cards = v.deck.hand_size(seat) if v.cards_on() else None
        hand = "" if cards is None else f" · {cards} card{'s' if cards != 1 else ''}"
        return f"{position.vp[seat]} VP · {position.silver[seat]} silver{hand}"

    def last_move(self, state: State, mover: int, action: int, seat: int | None) -> list[str]:
        """The area a move named (a fleet started or moved, ships bought, camps pulled down, an emigration, a card's
        target), or where the fleet under way built camps (svg.py names areas `area:ID`). Every such action is
        public: a card's kind or a gift's cards never name an area."""
        v = _state(state)
        try:
            data = v.space.to_json(action)
        except ValueError:
            return []
        if "area" in data:
            return [f"area:{data['area']}"]
        fleet = journey_fleet(v)
        if data.get("type") == "build" and fleet is not None:
            return [f"area:{fleet.area}"]
        return []

    # -- the step ----------------------------------------------------------------------------------------------

    def prompt(self, state: State) -> str:
        """`Seat 2: start a fleet, or pass`; the dice's step at a roll; the step's name where nothing richer is
        known."""
        v = _state(state)
        step = _step(v)
        seat = v.current_player()
        if step is None:
            return "choose a move" if seat >= 0 else "game over"
        if seat < 0:
            if step.chance:
                return f"dice: {step.name}"
            return "game over"
        # A card the seat may play at its own decision (VA-08) is listed under "play a card" among the choices; the
        # prompt keeps to the step.
        try:
            return self._words(v, step, offered_kinds(v))
        except (KeyError, ValueError, IndexError, AttributeError):
            return step.name  # a step whose details this module does not read yet: its name from steps.py

    def step(self, state: State) -> str:
        """The step as everyone at the table may read it: the prompt, but where which choices are offered depends on
        the hand of the seat to act (a card window, a gift or discard of a card, a card's target) the step's every
        kind of choice is named, so that it tells the others nothing of that hand."""
        v = _state(state)
        step = _step(v)
        if step is None or v.current_player() < 0:
            return self.prompt(state)
        offered = set(step.kinds) if step.id in HAND_STEPS else offered_kinds(v) - {"play"}
        try:
            return self._words(v, step, offered)
        except (KeyError, ValueError, IndexError, AttributeError):
            return step.name

    def _words(self, v: VikingatidState, step: S.Step, offered: set[str]) -> str:
        """The step in words, with what the table says about it (the fleet, the area, the amount), naming only the
        kinds of choice `offered` (the JSON types of the legal actions)."""
        position = v.position
        fleet = journey_fleet(v)
        journey = _journey(v)
        entry = journey.get("entry") if isinstance(journey.get("entry"), dict) else None
        kingdom = v.election.kingdom_id
        if step.id == S.GIFT_TARGET and kingdom:
            gifts = offer([("give_silver", "give silver"), ("give_card_to", "a card")], offered, " or ")
            gifts = gifts if gifts.startswith("give") else f"give {gifts}"
            return offer(
                [("", f"{gifts} before {kingdom_name(position, kingdom)}'s election"), ("pass", "pass")], offered | {""}
            )
        if step.id == S.BID_TARGET and kingdom:
            where = f"pay silver onto a roll in {kingdom_name(position, kingdom)}'s election"
            return offer([("pay_onto", where), ("pass", "pass")], offered)
        if step.id == S.GIFT_AMOUNT and v.election.target >= 0:
            return f"say how much silver to give seat {v.election.target + 1}"
        if step.id == S.SEALED_BID and kingdom:
            target = v.election.target
            whose = f"seat {target + 1}'s" if target >= 0 else f"{kingdom_name(position, kingdom)}'s"
            return f"pledge silver on {whose} roll in secret, or pass ({kingdom_name(position, kingdom)}'s election)"
        if step.id == S.BID_AMOUNT:
            target = v.election.target
            whose = f"seat {target + 1}'s" if target >= 0 else f"{kingdom_name(position, kingdom)}'s"
            return f"say how much silver to pay onto {whose} roll"
        if step.id == S.BUY_AMOUNT and v.purchases.area:
            return f"say how many {v.purchases.kind} ships to buy at {area_name(position, v.purchases.area)}"
        if fleet is not None and step.id == S.MOVE:
            return offer(
                [
                    ("move", f"move the {fleet.kind} fleet of {fleet.size} on"),
                    ("stop", "stop" if "move" in offered else f"stop the {fleet.kind} fleet of {fleet.size} here"),
                    ("end_journey", "end the journey"),
                ],
                offered,
            )
        if fleet is not None and step.id == S.ACT:
            return self._act_words(v, fleet, offered)
        if fleet is not None and step.id == S.ENTRY_ANSWER:
            where = area_name(position, str(entry.get("area", ""))) if entry else "the area"
            answers = offer([("allow", "allow"), ("ask_duty", "ask a duty"), ("forbid", "forbid")], offered)
            return f"seat {fleet.owner + 1}'s {fleet.kind} fleet would enter {where}: {answers}"
        if step.id == S.ENTRY_REPLY and entry is not None:
            where = area_name(position, str(entry.get("area", "")))
            if entry.get("forbidden") and "pay_duty" not in offered:
                return f"entry to {where} is forbidden: " + offer(
                    [("fight", "fight"), ("turn_away", "turn away")], offered
                )
            pay = f"pay the duty of {entry.get('duty', 0)} silver to enter {where}"
            return offer([("pay_duty", pay), ("fight", "fight"), ("turn_away", "turn away")], offered)
        if fleet is not None and step.id == S.SEA_BAN:
            sea = f"{kingdom_name(position, 'denmark')}'s sea"
            let = f"let seat {fleet.owner + 1}'s {fleet.kind} fleet pass {sea}"
            return offer([("allow", let), ("ask_duty", "ask a duty"), ("bar_sea", "bar it")], offered)
        if step.id in (S.CARD_TARGET, S.CARD_ANSWER) and v.play is not None:
            title = v.space.card_titles[v.play.kind]
            return f"{title}: {step.name}"
        if step.id == S.CARD_WINDOW and offered == {"pass"}:
            return "no card you hold may be played now: pass"
        return (offer(STEP_CHOICES[step.id], offered) if step.id in STEP_CHOICES else "") or step.name

    @staticmethod
    def _act_words(v: VikingatidState, fleet: Fleet, offered: set[str]) -> str:
        """At a stop: what the fleet may do in the area, then moving on or ending the journey, as offered."""
        area = area_name(v.position, fleet.area)
        acts = offer(
            [
                ("trade", "trade"),
                ("build", "build camps"),
                ("plunder", "plunder"),
                ("destroy", "destroy trading camps"),
            ],
            offered,
            " or ",
        )
        if acts:
            return offer(
                [("", f"{acts} in {area}"), ("move", "move on"), ("end_journey", "end the journey")], offered | {""}
            )
        return offer([("move", f"move on from {area}"), ("end_journey", "end the journey")], offered)

    def click_hint(self, state: State) -> str | None:
        """How to make the step's choice on the drawn map (svg.py marks these targets), or None where the choice is
        made from the list only."""
        v = _state(state)
        if v.current_player() < 0:
            return None
        if v.step == S.CARD_TARGET:
            on_map = any(TARGET_AREA <= a < GIVE_CARD_TO for a in v.legal_actions())
            return "click the area on the map" if on_map else None
        return CLICK_HINTS.get(v.step)

    # -- the choices -------------------------------------------------------------------------------------------

    def describe(self, state: State, action: int) -> str:
        """What a choice does: the danger a move adds and whether it ends the leg, what a build costs, what a
        trade earns, what a purchase leaves; empty when the notation says it all."""
        v = _state(state)
        try:
            data = v.space.to_json(action)
        except ValueError:
            return ""
        kind = str(data.get("type", ""))
        seat = v.current_player()
        if seat < 0 or kind in ("roll", "hits"):
            return ""
        try:
            return self._describe(v, seat, kind, data)
        except (KeyError, ValueError, IndexError, AttributeError, TypeError):
            return ""  # a step whose data this module does not know yet: the notation alone is shown

    def _describe(self, v: VikingatidState, seat: int, kind: str, data: JSONDict) -> str:
        position = v.position
        fleet = journey_fleet(v)
        if kind == "move" and fleet is not None:
            return self._describe_move(v, fleet, str(data["area"]))
        if kind == "fleet":
            n = position.ships_at(seat, str(data["ships"]), str(data["area"]))
            return f"{_plural(n, 'ship')} there; a fleet takes 1 to 10"
        if kind == "amount":
            return self._describe_amount(v, seat, int(data["n"]))
        if kind == "build" and fleet is not None:
            count, camp = int(data["count"]), str(data["camp"])
            area = position.board.area(fleet.area)
            cap = position.trade_value(area.id) if camp == "trading" else area.shields
            have = position.camps_in_area(camp, area.id)
            left = fleet.size - 2 * count
            return (
                f"costs {2 * count} of the fleet's {fleet.size} ships ({left} left); "
                f"{area.name} then holds {have + count}/{cap} {camp} camps"
            )
        if kind == "trade" and fleet is not None:
            value = position.trade_value(fleet.area)
            return f"one ship for {value} silver; then a trade stop in {area_name(position, fleet.area)}"
        if kind == "plunder" and fleet is not None:
            strength = position.board.area(fleet.area).strength
            pay = {5: "a silver per army beaten", 3: "1 silver"}.get(strength, "no silver")
            return f"strength {strength}: {pay}; the area is marked plundered"
        if kind == "destroy":
            return "other kingdoms' trading camps here fall, where their owner has no war ship or war camp here"
        if kind == "end_journey" and fleet is not None:
            stay = v.options.get("journey_end") == "stay"
            where = area_name(position, fleet.area)
            ships = "its ship" if fleet.size == 1 else f"its {fleet.size} ships"
            verb = ("stays" if stay else "leaves") if fleet.size == 1 else ("stay" if stay else "leave")
            return f"{ships} {verb} in {where}" if stay else f"{ships} {verb} the map"
        if kind == "stop" and fleet is not None:
            return self._describe_stop(fleet)
        if kind == "buy":
            return self._describe_buy(v, seat, str(data["ships"]), str(data["area"]))
        if kind == "pull_down":
            return self._describe_pull_down(v, seat, str(data["camp"]), str(data["area"]))
        if kind == "give_silver":
            to = int(data["to"])
            return f"{position.silver[seat]} silver in hand; seat {to + 1} has {position.silver[to]}"
        if kind == "pay_onto":
            roll = data["roll"]
            if roll == "kingdom":
                return f"the kingdom's roll has +{v.election.kingdom_paid} paid so far"
            return f"seat {int(roll) + 1}'s roll has +{v.election.paid[int(roll)]} paid so far"
        if kind == "offer_peace":
            return "if accepted, no players of the two kingdoms may fight each other"
        if kind == "kingdom":
            members = position.members(str(data["kingdom"]))
            return f"{_plural(len(members), 'player')} there so far"
        if kind == "emigrate":
            return "the new home country: no more tax, +1 silver per untroubled trading camp; the kingdom is left"
        if kind in ("play", "give_card", "discard"):
            card = v.cards.by_id[str(data["card"])]
            return card_line(card.name, card.text)
        if kind == "give_card_to":
            # Said of both seats by number: the line also narrates a bot's gift to the people at the table.
            to = int(data["to"])
            held, theirs = v.deck.hand_size(seat), v.deck.hand_size(to)
            return f"seat {seat + 1} holds {_plural(held, 'card')}; seat {to + 1} holds {theirs}"
        return self._describe_single(v, seat, kind, fleet)

    def _describe_move(self, v: VikingatidState, fleet: Fleet, area_id: str) -> str:
        """The danger an area adds, the count after it, and whether the leg ends there (camp, 10 points)."""
        position = v.position
        area = position.board.area(area_id)
        added = danger.area_danger(position, fleet.owner, fleet.kind, area_id)
        total = fleet.danger + added
        parts = [f"{'land' if area.is_land else 'sea'}, danger +{added} (count {total})"]
        camp_break = str(v.options.get("camp_break", danger.OWN_CAMPS))
        if danger.breaks_leg(position, fleet.owner, fleet.kind, area_id, camp_break):
            parts.append(f"own {fleet.kind} camp: the leg ends with a danger roll")
        elif total >= danger.TEN_POINTS:
            parts.append("10 reached: a danger roll at once")
        elif area.is_land:
            parts.append("may stop here")
        askers = _foreign_war_camps(position, fleet.owner, area_id)
        if askers:
            parts.append("war camps of " + ", ".join(f"seat {s + 1}" for s in askers) + ": a duty or a ban")
        if position.plundered[position.slot(area_id)]:
            parts.append("plundered")
        return "; ".join(parts)

    @staticmethod
    def _describe_stop(fleet: Fleet) -> str:
        if fleet.danger <= 0:
            return "no danger counted: no roll; then act here"
        return f"a danger roll: {fleet.danger} or less loses that many ships (a 10 none); then act here"

    def _describe_amount(self, v: VikingatidState, seat: int, n: int) -> str:
        """An amount in the words of its step: silver left, ships that stay, a duty against the payer's silver."""
        position = v.position
        step = v.step
        if step in (S.GIFT_AMOUNT, S.BID_AMOUNT, S.BUY_AMOUNT):
            cost = n * int(position.board.start_value("ship_cost")) if step == S.BUY_AMOUNT else n
            return f"{cost} silver; {position.silver[seat] - cost} left"
        if step == S.SEALED_BID:
            left = position.silver[seat] - elections.pledged(v.election, seat) - n
            return f"{n} silver in secret; {left} left unpledged"
        if step == S.FLEET_SIZE_CHOICE:
            sails = f"{n} ship sails" if n == 1 else f"{n} ships sail"
            j = v.journeys
            rest = position.ships_at(seat, j.start_kind, j.start_area) - n
            if rest <= 0:
                return sails
            # 6.1: "All unused ships are removed from the board" when the phase ends.
            verb = "stays" if rest == 1 else "stay"
            return f"{sails}; {rest} {verb} behind, removed when phase 6 ends unless a later journey takes them"
        if step == S.DUTY_AMOUNT:
            fleet = journey_fleet(v)
            if fleet is not None:
                return f"seat {fleet.owner + 1} has {position.silver[fleet.owner]} silver"
        return ""

    def _describe_buy(self, v: VikingatidState, seat: int, ships: str, area_id: str) -> str:
        position = v.position
        home = position.home[seat] if position.emigrated[seat] else ""
        kingdom = position.kingdom_of(seat)
        is_home = area_id == home or (
            not position.emigrated[seat] and bool(kingdom) and position.board.area(area_id).kingdom == kingdom
        )
        if is_home:
            return f"home country: any number; {position.silver[seat]} silver in hand"
        camps = position.controlled_camps(seat, ships, area_id)
        return f"{camps} own {ships} camps here: up to {2 * camps} ships this phase"

    @staticmethod
    def _describe_journey_pass(v: VikingatidState, seat: int) -> str:
        """Passing the initiative, with the ships it may cost: "All unused ships are removed from the board" when
        phase 6 ends (6.1), which this pass brings about at once when no one else is left to journey."""
        position = v.position
        ships = sum(position.ships_at(seat, kind, area) for kind in SHIP_TYPES for area in position.area_ids)
        unused = f"seat {seat + 1}'s {_plural(ships, 'unused ship')}"
        after = v.clone()
        after.apply(PASS)
        left = sum(after.position.ships_at(seat, kind, area) for kind in SHIP_TYPES for area in position.area_ids)
        if ships and left < ships:
            return f"phase 6 ends now: {unused} {'is' if ships == 1 else 'are'} removed before taxation"
        if v.options.get("initiative_pass") == initiative.REST_OF_PHASE:
            verb = "is" if ships == 1 else "are"
            return f"no more journeys for seat {seat + 1} this turn: {unused} {verb} removed when phase 6 ends"
        return (
            "the initiative goes to the next highest roll; if everyone passes on one roll, phase 6 ends and "
            f"{unused} {'is' if ships == 1 else 'are'} removed"
        )

    @staticmethod
    def _describe_pull_down(v: VikingatidState, seat: int, camp: str, area_id: str) -> str:
        """A camp pulled down becomes one ship, and a conquered area (a home country among them) is lost with it."""
        position = v.position
        words = f"the camp becomes one {camp} ship in {area_name(position, area_id)}"
        if area_id in conquered_areas(position, seat):
            words += f"; the area is no longer conquered (its {position.trade_value(area_id)} VP a turn)"
            if position.emigrated[seat] and position.home[seat] == area_id:
                words += f", and seat {seat + 1} loses its home country"
        return words

    def _describe_single(self, v: VikingatidState, seat: int, kind: str, fleet: Fleet | None) -> str:
        """A single decision in words, after its step."""
        position = v.position
        step = v.step
        if kind == "pass" and step == S.JOURNEY_CHOICE:
            return self._describe_journey_pass(v, seat)
        if kind == "pass":
            return {
                S.GIFT_TARGET: "give nothing more",
                S.BID_TARGET: "pay nothing more for now",
                S.PEACE_OFFER: "offer no King's Peace",
                S.EMIGRATION: "stay with the kingdom",
                S.SEALED_BID: "pledge nothing on this roll",
            }.get(step, "")
        if kind == "done":
            return "keep the camps; go on to buying" if step == S.PULL_DOWN else "keep the rest of the silver"
        entry = _journey(v).get("entry")
        if kind == "allow":
            return "the fleet goes on freely"
        if kind == "forbid":
            return "it may not enter; a war fleet may still fight its way in"
        if kind == "ask_duty" and fleet is not None:
            return f"name a duty; seat {fleet.owner + 1} has {position.silver[fleet.owner]} silver"
        if kind == "pay_duty" and isinstance(entry, dict):
            return f"pay {entry.get('duty', 0)} of {position.silver[seat]} silver in hand and enter"
        if kind == "fight":
            return "enter and fight the war camps and war ships there (war between kingdoms)"
        if kind == "turn_away":
            return "do not enter; choose another move"
        if kind == "bar_sea" and fleet is not None:
            return f"a D10 at or below its {fleet.size} ships means war"
        if kind == "fight_on":
            return "both sides roll again with what is left"
        if kind == "withdraw":
            return "the fight ends; move on"
        if kind == "declare_war":
            return "War markers on both kingdoms: their silver is halved in phase 4"
        if kind == "no_war":
            return "no War markers: the kingdoms stay as they are"
        if kind == "accept_peace":
            return "no players of the two kingdoms may fight each other"
        return ""

    def groups(self, state: State, actions: list[int]) -> list[tuple[str, list[int]]]:
        """Choices under headings: fleets by type, moves, builds, purchases by type, amounts; single decisions
        last. One untitled group when the step offers one kind only."""
        v = _state(state)
        order: list[str] = []
        grouped: dict[str, list[int]] = {}
        for action in actions:
            title = self._heading(v, action)
            if title not in grouped:
                order.append(title)
                grouped[title] = []
            grouped[title].append(action)
        if len(order) <= 1:
            return [("", list(actions))]
        singles = [t for t in order if t == "or"]
        return [(t, grouped[t]) for t in order if t != "or"] + [(t, grouped[t]) for t in singles]

    def _heading(self, v: VikingatidState, action: int) -> str:
        try:
            data = v.space.to_json(action)
        except ValueError:
            return "or"
        kind = str(data.get("type", ""))
        if kind in ("fleet", "buy"):
            return f"{data['ships']} " + ("fleets" if kind == "fleet" else "ships to buy")
        return HEADINGS.get(kind, "or" if kind not in ("roll", "hits") else "dice")

    def keys(self, state: State, actions: list[int]) -> list[tuple[str, int]]:
        """Short keys: amounts, rolls and seats by their number; single decisions by a letter or word (p pass,
        e end journey, t trade…); builds b1…b5; places (fleets, moves, purchases) numbered 1, 2, 3…; unique,
        falling back to 1, 2, 3… if two choices would share one."""
        v = _state(state)
        keys: list[str] = []
        counter = 0
        for action in actions:
            key = self._key(v, action)
            if not key:
                counter += 1
                key = str(counter)
            keys.append(key)
        if len(set(keys)) != len(keys) or any(not k for k in keys):
            return super().keys(state, actions)
        return list(zip(keys, actions, strict=True))

    def _key(self, v: VikingatidState, action: int) -> str:
        """The key of one choice, or "" for a numbered place."""
        try:
            data = v.space.to_json(action)
        except ValueError:
            return f"#{action}"
        kind = str(data.get("type", ""))
        if kind in SINGLE_KEYS:
            return SINGLE_KEYS[kind]
        if kind == "amount":
            return f"{data['n']}"
        if kind == "roll":
            return f"{data['face']}"
        if kind == "hits":
            return f"{data['n']}+1" if data["one"] else f"{data['n']}"
        if kind == "build":
            return f"b{data['count']}"  # a fleet builds camps of its own type only
        if kind == "give_silver":
            return f"{int(data['to']) + 1}"
        if kind == "pay_onto":
            return "k" if data["roll"] == "kingdom" else f"{int(data['roll']) + 1}"
        if kind in ("kingdom", "offer_peace"):
            return kingdom_name(v.position, str(data["kingdom"]))[0].lower()
        if kind in ("fleet", "buy"):
            return ""  # numbered with the moves and places
        return ""

    def notes(self, state: State) -> list[str]:
        """What matters at this step: the seat's silver where it pays, the fleet's danger count, the fight, the
        entry asked for, the buying rule."""
        v = _state(state)
        seat = v.current_player()
        if seat < 0:
            return []
        position = v.position
        lines = []
        step = v.step
        if step in (S.GIFT_TARGET, S.GIFT_AMOUNT, S.BID_TARGET, S.BID_AMOUNT, S.SEALED_BID, S.BUY_SHIPS, S.BUY_AMOUNT):
            lines.append(f"Seat {seat + 1} has {position.silver[seat]} silver.")
        if step == S.BUY_SHIPS:
            lines.append("Any number of ships go in your home country; two of a type per own camp of that type.")
        fleet = journey_fleet(v)
        if fleet is not None and step in (S.MOVE, S.ACT):
            moves = v.options.get("journey_moves", 40)
            limit = f" of {moves}" if str(moves).isdigit() else ""
            lines.append(
                # The fleet and its area are in the prompt and on the table: the note keeps to one line.
                f"Danger counted since the fleet's last break: {fleet.danger} (a roll at {danger.TEN_POINTS}); "
                f"move {fleet.moves}{limit}."
            )
        journey = _journey(v)
        fight = journey.get("fight")
        if isinstance(fight, dict) and fight.get("against") == "armies":
            lines.append(
                f"Fight in {area_name(position, str(fight.get('area', '')))}: {fight.get('armies', 0)} armies of "
                f"strength {fight.get('strength', '?')} against a fleet of {fight.get('fleet_size', '?')}."
            )
        entry = journey.get("entry")
        if isinstance(entry, dict) and step == S.ENTRY_REPLY:
            lines.append(f"Duty asked: {entry.get('duty', 0)} silver; you have {position.silver[seat]}.")
        return lines

    # -- the terminal's help -----------------------------------------------------------------------------------

    def board(self, state: State, seat: int | None, names: list[str]) -> Any:
        """The whole table (render.py) in colour, with the seats' names beside their numbers: the full form on a
        terminal of 100 columns or more, the compact form on a narrower one."""
        return TableText(_state(state), seat, list(names))

    def rules(self, state: State) -> str:
        """The rulebook on this step, paraphrased, with the rule the step cites (a VA-id or a section)."""
        v = _state(state)
        step = _step(v)
        if step is None:
            return super().rules(state)
        phase = S.PHASE_NAMES[step.phase] if 0 <= step.phase < len(S.PHASE_NAMES) else ""
        text = RULES.get(step.id, "The choices listed are exactly the legal ones.").format_map(names(v.position.board))
        return f"[b]{phase}: {step.name}[/] ({RULES_FILE}; {step.rule})\n{text}" + self._hand_texts(v)

    @staticmethod
    def _hand_texts(v: VikingatidState) -> str:
        """The whole text of each card the seat to act holds (the choices show it too), from that seat's
        own observation: `rules` is read by the person at that seat only."""
        if not v.cards_on():
            return ""
        try:
            seat = v.current_player()
            cards = v.observation(seat).get("cards") if seat >= 0 else None
        except (IndexError, KeyError, ValueError):
            return ""  # a position the step cannot stand in (a probe, a step without its details): no hand to show
        hand = cards.get("hand") if isinstance(cards, dict) else None
        if not isinstance(hand, dict) or not hand:
            return ""
        by_id = v.cards.by_id
        lines = ["", "[b]Your cards[/]:"]
        for card_id in sorted(hand):
            card = by_id[card_id]
            count = f" ×{hand[card_id]}" if hand[card_id] > 1 else ""
            lines.append(
                f"  [b]{escape(card.title)}[/]{count} ({escape(card.name)}): {escape(' '.join(card.text.split()))}"
            )
        return "\n".join(lines)

    def overview(self, state: State) -> str:
        """The whole game in brief (overview.py): goal and end under this game's `last_year`, the eleven phases,
        victory points and the glossary of the prompts' words."""
        v = _state(state)
        return overview_text(v.position.board, str(v.options.get("last_year", "1125")))

    def hand(self, state: State, seat: int) -> list[CardFace]:
        """The cards `seat` holds, whole (card_faces.py), from its own observation; those it may play now marked."""
        return hand_faces(_state(state), seat)

    def deck(self, state: State) -> list[CardFace]:
        """Every kind of card in the deck, whole, with its copies (cards.toml)."""
        return deck_faces(_state(state))

    def step_help(self, state: State) -> str:
        """How to type this step's choice: its keys, or its notation."""
        v = _state(state)
        examples = {
            S.MOVE: "Type a move's number, [b]s[/] to stop here or [b]e[/] to end the journey; or write [b]to "
            "Nordsjön[/].",
            S.ACT: "Type [b]t[/] to trade, [b]b2[/] to build two camps, [b]pl[/] to plunder, [b]x[/] to destroy "
            "trading camps, a move's number, or [b]e[/] to end the journey.",
            S.JOURNEY_CHOICE: "Type a fleet's number, or [b]p[/] to pass; or write [b]war fleet from Norge[/].",
            S.BUY_SHIPS: "Type a place's number (then the number of ships), or [b]d[/] when done.",
        }
        step = _step(v)
        if step is not None and step.id in examples:
            return examples[step.id]
        if step is not None and step.kinds == ("amount",):
            return "Type the number itself: [b]3[/] for 3."
        return (
            "Type a choice's key as listed ([b]p[/] pass, [b]d[/] done, numbers for places and amounts), or its "
            "notation."
        )

    def aftermath(self, before: State, after: State, name: str, seat: int | None) -> list[str]:
        """What the automatic steps after a decision did, for everyone (nothing in it is hidden): reactions,
        elections, markers, victory points, christianisation."""
        b, a = _state(before), _state(after)
        bt, at = b.position, a.position
        lines = []
        for result in a.reactions.results[len(b.reactions.results) :] if at.turn == bt.turn else []:
            silver = f", {result.silver} silver" if result.silver else ""
            lines.append(
                f"{area_name(at, result.area)}: seat {result.seat + 1} rolls {result.total}: {result.result}{silver}."
            )
        for election in a.election.results[len(b.election.results) :] if at.turn == bt.turn else []:
            king = f"seat {election.king + 1} is king" if election.king >= 0 else "no king this turn"
            lines.append(f"{kingdom_name(at, election.kingdom)}'s election: {king}.")
        shown = a.election.shown[len(b.election.shown) :] if at.turn == bt.turn else []
        if shown:
            parts = [
                f"seat {p.seat + 1} {p.paid} onto "
                + (f"seat {p.roll + 1}'s" if p.roll >= 0 else "the kingdom's")
                + " roll"
                for p in shown
            ]
            lines.append("Sealed pledges shown: " + "; ".join(parts) + ".")
        for i, kingdom in enumerate(KINGDOMS):
            if at.war[i] != bt.war[i]:
                marker = {"war": "War", "peace?": "Peace?"}.get(at.war[i], "no marker")
                lines.append(f"{kingdom_name(at, kingdom)} now shows {marker}.")
        for s in range(at.num_players):
            if at.vp[s] != bt.vp[s]:
                lines.append(f"Seat {s + 1}: {at.vp[s] - bt.vp[s]:+d} VP ({at.vp[s]}).")
            if at.christian[s] and not bt.christian[s]:
                lines.append(f"Seat {s + 1} becomes Christian.")
        return lines

    # -- the end -----------------------------------------------------------------------------------------------

    def scoring_amounts(self) -> list[tuple[str, str]]:
        """A scoring line gives victory points."""
        return [("points", "VP")]

    def standings(self, state: State) -> list[JSONDict]:
        """Per seat: VP, silver, conquered areas and camps; `order` ranks by VP, then by the tie_break option."""
        v = _state(state)
        position = v.position
        rule = str(v.options.get("tie_break", "shared"))
        rows: list[JSONDict] = []
        for s in range(position.num_players):
            conquered = len(conquered_areas(position, s))
            order = [position.vp[s]]
            if rule == "most_silver":
                order.append(position.silver[s])
            elif rule == "most_conquered":
                order.append(conquered)
            rows.append(
                {
                    "score": position.vp[s],
                    "silver": position.silver[s],
                    "conquered_areas": conquered,
                    "camps": position.controlled_total(s),
                    "order": order,
                }
            )
        return rows

    def standing_answer(self, state: State) -> StandingAnswer | None:
        """In a card window (VA-09), "pass" for it and every window after it until the seat's next decision of
        another kind: every holder is asked in every window, hundreds of times a game, and passing whatever he holds
        tells the others nothing (not even by how long he takes)."""
        v = _state(state)
        if v.step != S.CARD_WINDOW or v.current_player() < 0:
            return None
        return StandingAnswer("card_windows", STANDING_PASS, PASS)

    def outcome(self, state: State, action: int) -> str:
        """What a roll decided: "danger roll 7 against a count of 6: seat 2's war fleet sails on" (`outcomes`)."""
        return outcomes.outcome(_state(state), action)

    def section(self, state: State) -> tuple[str, str]:
        """The turn with its year and the phase by the rulebook's number: the log's headings."""
        return outcomes.section(_state(state))

    def ending(self, state: State) -> str:
        """Why the game ended: every player Christian (10. Christianisation), or the last year of the game length
        option reached with pagans left (VA-05)."""
        position = _state(state).position
        if all(position.christian):
            return (
                f"every player is Christian: the game ends after the turn of {position.year} in which the last one "
                "converted (10. Christianisation)"
            )
        pagans = [s + 1 for s in range(position.num_players) if not position.christian[s]]
        still = ", ".join(f"seat {s}" for s in pagans)
        return (
            f"the year track reached {position.year}, the last year of the game length option: the game ends there "
            f"although {still} {'is' if len(pagans) == 1 else 'are'} still pagan (VA-05)"
        )

    def tie_break(self, state: State) -> str:
        """The rule option tie_break in a sentence (VA-63)."""
        v = _state(state)
        return TIE_BREAKS.get(str(v.options.get("tie_break", "shared")), TIE_BREAKS["shared"])
