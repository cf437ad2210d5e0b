"""What each die of Vikingatid decided, in words for the log ("danger roll 7 against a count of 6: the fleet sails
on"), and the turn and phase an action belongs to, under which the log groups its entries.

A roll's notation is only its face ("roll 7"); the sentence here names the roll, what it was rolled against, and
what it brought about, read from the table before the roll and after it. Only what every viewer may see is said:
the faces, the counts and chances on the board, ships lost, kings, markers and conversions — never a card in hand or
a sealed pledge. A card drawn says nothing more than its notation (the drawer alone sees its kind).
"""

from __future__ import annotations

from skald.engine import IllegalAction
from skald.games.vikingatid import christianisation, danger, elections, initiative, journeys
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import ROLL
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.state import VikingatidState


def _area(position: Position, area_id: str) -> str:
    try:
        return position.board.area(area_id).name
    except (KeyError, ValueError):
        return area_id


def _ships(n: int) -> str:
    return f"{n} ship" if n == 1 else f"{n} ships"


def section(v: VikingatidState) -> tuple[str, str]:
    """("Turn 3 · 825", "6. Initiative and journeys") for the next action of `v`; the setup before turn 1 apart."""
    position = v.position
    phase = position.phase
    if phase == S.SETUP:
        return ("Setup", "The choice of kingdoms")
    return (f"Turn {position.turn} · {position.year}", f"{phase}. {S.PHASE_NAMES[phase]}")


def outcome(v: VikingatidState, action: int) -> str:
    """What the chance outcome `action` at `v` decided, for everyone ("" for a card drawn, or a step not known)."""
    step = v.step
    if not S.STEPS[step].chance or step == S.DRAW_CARD:
        return ""
    after = v.clone()
    face = action - ROLL + 1
    try:
        # Straight to the rules of the step: a card window after the roll (VA-08) holds back its effect, and a
        # card that changes the roll there is logged as a move of its own.
        after.dispatch_roll(action)
        said = _said(v, after, step, face, action)
    except (IllegalAction, IndexError, KeyError, ValueError, AttributeError):
        return ""  # words are a courtesy: a roll this module cannot read is logged by its notation alone
    if said:
        return said
    consequences = _consequences(v, after)
    return f"{S.STEPS[step].name}: {v.action_to_notation(action)}" + (f": {consequences}" if consequences else "")


def _said(v: VikingatidState, after: VikingatidState, step: int, face: int, action: int) -> str:
    """The sentence of a roll whose meaning this module knows; "" for the others (said from their consequences)."""
    position = v.position
    if step == S.KINGDOM_ROLL:
        seat = position.choice.roller()
        head = f"kingdom-choice roll {face} for seat {seat + 1}"
        choice = after.position.choice
        if choice.roller() >= 0:
            return head
        order = ", ".join(f"seat {s + 1}" for s in choice.order())
        return f"{head}: the kingdoms are chosen in the order {order}"
    if step == S.DANGER_ROLL:
        return _danger(v, after, face)
    if step == S.INITIATIVE_ROLL:
        return _initiative(v, after, face)
    if step == S.CHRISTIANISATION_ROLL:
        c = v.christianisation
        seat = c.queue[0]
        became = face <= c.chance
        verdict = f"seat {seat + 1} becomes Christian" if became else f"seat {seat + 1} stays pagan"
        return f"christianisation roll {face} for seat {seat + 1} against a chance of {c.chance}: {verdict}"
    if step == S.ASSIMILATION_ROLL:
        area = _area(position, christianisation.area(v.christianisation))
        verdict = (
            "the Christian camps there are assimilated"
            if face == christianisation.ASSIMILATION_FACE
            else "nothing happens (only a 1 assimilates)"
        )
        return f"assimilation roll {face} in {area}: {verdict}"
    if step == S.ELECTION_ROLL:
        return _election(v, after, face)
    if step == S.BAN_WAR_ROLL:
        f = journeys.fleet(position)
        verdict = "war breaks out; the fleet turns away" if face <= f.size else "no war; the fleet turns away"
        return f"war roll {face} against the {_ships(f.size)} turned away: {verdict}"
    if step == S.WAR_RISK_ROLL:
        j = v.journeys
        seat = j.to_risk[0]
        risk = j.risk[seat]
        verdict = "war breaks out" if face <= risk else "no war"
        return f"risk-of-war roll {face} for seat {seat + 1} against {risk} (ships lost, 2 per camp): {verdict}"
    if step in (S.FLEET_HITS, S.ARMY_HITS, S.DEFENDER_HITS):
        return _hits(v, after, step, action)
    if step in (S.CARD_ROLL, S.CARD_HITS) and v.play is not None:
        title = v.space.card_titles[v.play.kind]
        head = f"{title}'s roll {face}" if step == S.CARD_ROLL else f"{title}'s fight: {v.action_to_notation(action)}"
        consequences = _consequences(v, after)
        return f"{head}: {consequences}" if consequences else head
    return ""


def _hits(v: VikingatidState, after: VikingatidState, step: int, action: int) -> str:
    """A node of a fight's dice: the hits so far while the round's dice are still rolling, then where they fell."""
    who = {S.FLEET_HITS: "the war fleet's dice", S.ARMY_HITS: "the armies' dice"}.get(step, "the defenders' dice")
    head = f"{who}: {v.action_to_notation(action)}"
    fight = after.journeys.fight
    consequences = _consequences(v, after)
    if consequences:
        return f"{head}: {consequences}"
    if fight.fleet_dice or fight.other_dice or fight.fleet_hits or fight.other_hits:
        return f"{head} ({fight.fleet_hits} by the fleet, {fight.other_hits} against it so far this round)"
    return f"{head}: no losses"


def _danger(v: VikingatidState, after: VikingatidState, face: int) -> str:
    position = v.position
    f = journeys.fleet(position)
    count = max(f.danger - v.journeys.protection, 0)
    lost = danger.ships_lost(face, count, f.size)
    whose = f"seat {f.owner + 1}'s {f.kind} fleet"
    head = f"danger roll {face} against a count of {count}"
    if lost == 0:
        why = "a 10 saves it" if face == danger.SAFE_FACE and face <= count else "higher than the count"
        return f"{head}: {whose} sails on ({why})"
    if lost >= f.size:
        return f"{head}: {whose} of {_ships(f.size)} is lost"
    return f"{head}: {whose} loses {_ships(lost)}, {f.size - lost} sail on"


def _initiative(v: VikingatidState, after: VikingatidState, face: int) -> str:
    seat = initiative.roller(v.journeys.initiative)
    head = f"initiative roll {face} for seat {seat + 1}"
    now = after.journeys.initiative
    if initiative.roller(now) >= 0 and len(v.journeys.initiative.to_roll) == 1:
        tied = " and ".join(f"seat {s + 1}" for s in now.to_roll)
        return f"{head}: a tie for the highest roll, {tied} roll{'s' if len(now.to_roll) == 1 else ''} again"
    holder = initiative.holder(now)
    if holder >= 0:
        return f"{head}: seat {holder + 1} takes the initiative"
    return head


def _election(v: VikingatidState, after: VikingatidState, face: int) -> str:
    election = v.election
    roller = elections.roller(election)
    whose = "the kingdom's die" if roller == elections.KINGDOM_ROLL_TARGET else f"seat {roller + 1}'s die"
    head = f"election roll {face}, {whose}"
    results = after.election.results[len(election.results) :]
    if not results:
        return head
    result = results[-1]
    name = v.space.kingdom_names.get(result.kingdom, result.kingdom)
    king = f"seat {result.king + 1} is king of {name}" if result.king >= 0 else f"no king in {name} this turn"
    return f"{head}: {king}"


def _consequences(v: VikingatidState, after: VikingatidState) -> str:
    """What the table shows changed by a roll: the fleet's ships, reactions, kings, markers, VP and conversions."""
    b, a = v.position, after.position
    parts = []
    if b.fleets and v.journeys.active:
        f = b.fleets[0]
        left = a.fleets[0].size if a.fleets and a.fleets[0].owner == f.owner else 0
        if left < f.size:
            parts.append(f"seat {f.owner + 1}'s fleet loses {_ships(f.size - left)} ({left} left)")
        fb, fa = v.journeys.fight, after.journeys.fight
        if fb.against and fa.armies < fb.armies:
            parts.append(f"the armies lose {fb.armies - fa.armies} ({fa.armies} left)")
        for seat in fb.defenders:
            if seat < len(fa.ships) and fa.ships[seat] < fb.ships[seat]:
                parts.append(f"seat {seat + 1}'s defenders lose {_ships(fb.ships[seat] - fa.ships[seat])}")
    for seat in range(b.num_players):
        camps = sum(b.camps[seat]) - sum(a.camps[seat])
        if camps > 0:
            parts.append(f"seat {seat + 1} loses {camps} camp{'s' if camps > 1 else ''}")
        ships = sum(b.ships[seat]) - sum(a.ships[seat])
        if ships > 0:
            parts.append(f"seat {seat + 1} loses {_ships(ships)} on the map")
    lines = v.game.presentation.aftermath(v, after, "", None)
    parts.extend(line.rstrip(".") for line in lines)
    return "; ".join(parts)
