"""Card effects, `cards.kingdoms`: the cards of kings, kingdoms, war and faith (see `cards.effect.Effect` for
the shape of each).

EXIL (VA-18), FRED (VA-40), the untitled war card (VA-14), KRISTNAD (VA-03), RIKSENANDE (VA-20), TROSTVIST
(VA-21), FÖRLÄNING and SMÅRIKE (VA-23) and GRUVORNA SINAR (VA-65). Each card's text is quoted where it is
written; the open points are the rule options of `cards.options.KINGDOM_OPTIONS`. What the markers mean elsewhere
is read by the rules that need them: a heritage or small kingdom by `conquest` (and so by victory points and
emigration), RIKSENANDE and exile by `emigration`, the dry mines by `Position.trade_value`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from skald.games.vikingatid.actions import (
    KINGDOMS,
    SINGLE,
    SINGLES,
    TARGET_AREA,
    TARGET_KINGDOM,
    TARGET_SEAT,
    TRADING,
    WAR,
)
from skald.games.vikingatid.cards.effect import Effect, effect
from skald.games.vikingatid.cards.play import NEED_ANSWER, NEED_ROLL, NEED_TARGET, Play
from skald.games.vikingatid.position import KINGDOM_PAIRS, NO_MARKER, PEACE_PENDING, WAR_MARKER, Position, pair_index
from skald.games.vikingatid.purchases import home_area
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.steps import seat_order

if TYPE_CHECKING:
    from skald.games.vikingatid.situation import Situation

#: TROSTVIST's answers (`actions.SINGLES`).
ADOPT: Final = SINGLE + [name for name, _ in SINGLES].index("adopt")
REFUSE: Final = SINGLE + [name for name, _ in SINGLES].index("refuse")
#: EXIL: "That player gets ten war ships free".
EXILE_SHIPS: Final = 10
#: FÖRLÄNING: "Otherwise, the player must roll 1-5 to be successful."
HERITAGE_HIGHEST: Final = 5
#: FÖRLÄNING: "Play on one area in German-Roman Empire or Britain" (board empire ids).
HERITAGE_EMPIRES: Final = ("german_roman", "britain")
HERITAGE: Final = "heritage"
SMALL_KINGDOM: Final = "small_kingdom"
PER_PAIR: Final = "per_pair"


def _play(state: Situation) -> Play:
    """The card under way (the state calls an effect only while one is)."""
    play = state.play
    assert play is not None
    return play


def _ruled(position: Position, seat: int) -> list[int]:
    """The kingdoms (indices into KINGDOMS) whose king the seat is."""
    return [k for k in range(len(KINGDOMS)) if position.king[k] == seat]


def _kingdom_index(position: Position, seat: int) -> int:
    """The index of the seat's kingdom while he is a member of it, or -1 (an emigrant is of none)."""
    kingdom = position.kingdom_of(seat)
    if position.emigrated[seat] or kingdom not in KINGDOMS:
        return -1
    return KINGDOMS.index(kingdom)


def _followers(position: Position, king: int) -> list[int]:
    """A king's followers: the other members of the kingdoms he rules, in seat order from the turn's first seat
    (VA-06, VA-21)."""
    ruled = _ruled(position, king)
    return [
        s
        for s in seat_order(max(position.first_seat, 0), position.num_players)
        if s != king and _kingdom_index(position, s) in ruled
    ]


def _counts_as_war(state: Situation, marker: str) -> bool:
    """Whether a marker is "at war" for FRED and the war card (`card_at_war`, VA-40)."""
    if state.options["card_at_war"] == "war_only":
        return marker == WAR_MARKER
    return marker in (WAR_MARKER, PEACE_PENDING)


def kingdom_at_war(state: Situation, k: int) -> bool:
    """Whether the kingdom at index `k` is "currently at war": its own marker, and under `war_tracking: per_pair`
    any pair it is in."""
    position = state.position
    if _counts_as_war(state, position.war[k]):
        return True
    if state.options["war_tracking"] == PER_PAIR:
        return any(k in pair and _counts_as_war(state, position.pair_war[i]) for i, pair in enumerate(KINGDOM_PAIRS))
    return False


# -- EXIL (VA-18) ----------------------------------------------------------------------------------------------


def exile_targets(state: Situation, seat: int) -> list[int]:
    """ "The player who is king may send one of his followers into exile": the other members of a kingdom he rules,
    not already exiled, and not while RIKSENANDE holds there (VA-20: no one may "be sent into exile by the
    king")."""
    position = state.position
    found: list[int] = []
    for k in _ruled(position, seat):
        if position.unified[k]:
            continue
        for s in position.members(KINGDOMS[k]):
            if s != seat and not position.exiled[s]:
                found.append(TARGET_SEAT + s)
    return found


def exile(state: Situation) -> None:
    """ "That player gets ten war ships free and must leave his homeland this turn": the ships stand in his home
    kingdom at once (the window is the start of phase 5, where his purchases go too); he must emigrate at the start
    of phase 7 (`emigration.begin`)."""
    play = _play(state)
    position = state.position
    seat = play.target - TARGET_SEAT
    position.exiled[seat] = True
    home = home_area(position, seat)
    if home:
        position.place_ships(seat, WAR, home, EXILE_SHIPS)
    play.text = f"seat {seat + 1} into exile, with {EXILE_SHIPS} war ships at home"


# -- FRED (VA-40) and the war card (VA-14) -----------------------------------------------------------------------


def peace_targets(state: Situation, seat: int) -> list[int]:
    """FRED: "Play on any Viking kingdom currently at war"."""
    return [TARGET_KINGDOM + k for k in range(len(KINGDOMS)) if kingdom_at_war(state, k)]


def peace(state: Situation) -> None:
    """ "Remove the war marker": the kingdom's marker (War or Peace?) goes, and under `per_pair` the state of every
    pair it is in."""
    play = _play(state)
    position = state.position
    k = play.target - TARGET_KINGDOM
    position.war[k] = NO_MARKER
    if state.options["war_tracking"] == PER_PAIR:
        for i, pair in enumerate(KINGDOM_PAIRS):
            if k in pair:
                position.pair_war[i] = NO_MARKER
    play.text = f"peace for {state.space.kingdom_names[KINGDOMS[k]]}"


def war_targets(state: Situation, seat: int) -> list[int]:
    """ "Play on a Viking kingdom currently not at war"; the second target under `war_card: named_enemy` is any other
    kingdom (the enemy)."""
    play = state.play
    if play is not None and play.stage == 1:
        return [TARGET_KINGDOM + k for k in range(len(KINGDOMS)) if k != play.n]
    return [TARGET_KINGDOM + k for k in range(len(KINGDOMS)) if not kingdom_at_war(state, k)]


def war(state: Situation) -> None:
    """ "That country immediately goes to war. Follow the normal rules for war.": a War marker on the kingdom alone
    (`war_card: kingdom_only`, like a civil war), or on it and the enemy the player names (`named_enemy`; under
    `per_pair` the pair's state)."""
    play = _play(state)
    position = state.position
    k = play.target - TARGET_KINGDOM
    names = state.space.kingdom_names
    if state.options["war_card"] == "named_enemy":
        if play.stage == 0:
            play.stage = 1
            play.n = k
            play.need = NEED_TARGET
            return
        first = play.n
        if state.options["war_tracking"] == PER_PAIR:
            position.pair_war[pair_index(KINGDOMS[first], KINGDOMS[k])] = WAR_MARKER
        else:
            position.war[first] = WAR_MARKER
            position.war[k] = WAR_MARKER
        play.text = f"war between {names[KINGDOMS[first]]} and {names[KINGDOMS[k]]}"
        return
    position.war[k] = WAR_MARKER
    play.text = f"war for {names[KINGDOMS[k]]}"


# -- KRISTNAD (VA-03) --------------------------------------------------------------------------------------------


def christianisation_targets(state: Situation, seat: int) -> list[int]:
    """ "Play on any player": any player still pagan (on a Christian the card could do nothing)."""
    position = state.position
    return [TARGET_SEAT + s for s in range(position.num_players) if not position.christian[s]]


def christianisation(state: Situation) -> None:
    """A D10 decides."""
    play = _play(state)
    play.n = play.target - TARGET_SEAT
    play.need = NEED_ROLL


def christianisation_roll(state: Situation, face: int) -> None:
    """ "If D10 is more than the number of turns started, this card has no effect. Otherwise, that player is
    Christianised." (VA-03: the turns started are the turn number, this one included.)"""
    play = _play(state)
    position = state.position
    if face <= position.turn:
        position.christian[play.n] = True
        play.text = f"seat {play.n + 1} christianised (D10 {face} ≤ turn {position.turn})"
    else:
        play.text = f"no effect on seat {play.n + 1} (D10 {face} > turn {position.turn})"


# -- RIKSENANDE (VA-20) ------------------------------------------------------------------------------------------


def _unifiable(state: Situation, seat: int) -> list[int]:
    """The kingdoms RIKSENANDE would unify if the seat played it: every kingdom (`unifier_scope: all_players`) or
    those he rules (`own_kingdom`), not unified yet; none unless he is a king ("Play at any time by the king")."""
    position = state.position
    ruled = _ruled(position, seat)
    if not ruled:
        return []
    scope = ruled if state.options["unifier_scope"] == "own_kingdom" else list(range(len(KINGDOMS)))
    return [k for k in scope if not position.unified[k]]


def unifier_may_play(state: Situation, seat: int) -> bool:
    """A king, with something left to unify."""
    return bool(_unifiable(state, seat))


def unifier(state: Situation) -> None:
    """A D10 decides."""
    _play(state).need = NEED_ROLL


def unifier_roll(state: Situation, face: int) -> None:
    """ "Only takes effect if D10 is less or equal to the number of turns already begun": then "no more players are
    allowed to emigrate or be sent into exile by the king. This is valid for the rest of the game." """
    play = _play(state)
    position = state.position
    if face > position.turn:
        play.text = f"no effect (D10 {face} > turn {position.turn})"
        return
    kingdoms = _unifiable(state, play.seat)
    for k in kingdoms:
        position.unified[k] = True
    names = ", ".join(state.space.kingdom_names[KINGDOMS[k]] for k in kingdoms)
    play.text = f"{names} unified for the rest of the game (D10 {face} ≤ turn {position.turn})"


# -- TROSTVIST (VA-21) -------------------------------------------------------------------------------------------


def quarrel_targets(state: Situation, seat: int) -> list[int]:
    """ "Play at any time on one king": a king with at least one follower."""
    position = state.position
    kings = sorted({king for king in position.king if king != NOBODY})
    return [TARGET_SEAT + king for king in kings if _followers(position, king)]


def _civil_war(position: Position, seat: int) -> None:
    """ "or a civil war breaks out ... only one kingdom is affected": a War marker on the follower's kingdom."""
    position.war[_kingdom_index(position, seat)] = WAR_MARKER


def quarrel(state: Situation) -> None:
    """ "All followers must immediately take on the same religion as the king": under `religious_quarrel: choice`
    each follower of another religion answers in seat order (adopt or refuse); under `war_if_different` no one
    changes and any difference means civil war."""
    play = _play(state)
    position = state.position
    king = play.target - TARGET_SEAT
    play.n = king
    differing = [s for s in _followers(position, king) if position.christian[s] != position.christian[king]]
    if not differing:
        play.text = f"seat {king + 1}'s followers already share his religion"
        return
    if state.options["religious_quarrel"] == "war_if_different":
        for s in differing:
            _civil_war(position, s)
        play.text = f"civil war: seat {king + 1}'s followers differ in religion"
        return
    play.seats = differing
    play.answerer = differing[0]
    play.need = NEED_ANSWER
    play.text = f"on seat {king + 1}:"


def quarrel_answers(state: Situation) -> list[int]:
    """Adopt the king's religion, or refuse (and civil war breaks out)."""
    return [ADOPT, REFUSE]


def quarrel_answer(state: Situation, action: int) -> None:
    """One follower's answer; the next follower answers until all have (a follower who adopts paganism is pagan
    again and rolls in phase 10)."""
    play = _play(state)
    position = state.position
    seat = play.seats.pop(0)
    if action == ADOPT:
        position.christian[seat] = position.christian[play.n]
        play.text += f" seat {seat + 1} adopts"
    else:
        _civil_war(position, seat)
        play.text += f" seat {seat + 1} refuses (civil war)"
    if play.seats:
        play.answerer = play.seats[0]
        play.need = NEED_ANSWER


# -- FÖRLÄNING and SMÅRIKE (VA-23) -------------------------------------------------------------------------------


def _fief_areas(state: Situation, seat: int, empires: tuple[str, ...]) -> list[int]:
    """Areas where the seat has at least one war camp (under his control: not a separatist one, VA-22) and no
    heritage or small kingdom stands yet, within `empires` (all areas if empty), as target ids."""
    position = state.position
    row = position.controlled_row(seat)
    n = position.num_areas
    found: list[int] = []
    for slot in range(n):
        if row[n + slot] > 0 and position.fief[slot] == NOBODY and (not empires or position.empire_of[slot] in empires):
            found.append(TARGET_AREA + slot)
    return found


def _make_fief(state: Situation, kind: str) -> None:
    play = _play(state)
    slot = play.target - TARGET_AREA
    state.position.fief[slot] = play.seat
    state.position.fief_kind[slot] = kind
    name = state.space.area_name(state.position.area_ids[slot])
    play.text = f"{name} becomes seat {play.seat + 1}'s {'heritage' if kind == HERITAGE else 'small kingdom'}"


def heritage_targets(state: Situation, seat: int) -> list[int]:
    """ "Play on one area in German-Roman Empire or Britain where the player has at least one war camp" (the
    empire the area belongs to now)."""
    return _fief_areas(state, seat, HERITAGE_EMPIRES)


def heritage(state: Situation) -> None:
    """ "If the player is Christian, the area counts automatically as conquered ("FÖRLÄNING"). Otherwise, the
    player must roll 1-5 to be successful." """
    play = _play(state)
    if state.position.christian[play.seat]:
        _make_fief(state, HERITAGE)
        return
    play.need = NEED_ROLL


def heritage_roll(state: Situation, face: int) -> None:
    """The pagan player's D10: 1–5 succeeds."""
    if face <= HERITAGE_HIGHEST:
        _make_fief(state, HERITAGE)
        return
    play = _play(state)
    play.text = (
        f"no heritage in {state.space.area_name(state.position.area_ids[play.target - TARGET_AREA])} (D10 {face})"
    )


def small_kingdom_targets(state: Situation, seat: int) -> list[int]:
    """ "Play on an area where the player has at least one war camp"."""
    return _fief_areas(state, seat, ())


def small_kingdom(state: Situation) -> None:
    """ "This area counts as conquered and gets a marker "SMÅRIKE"." """
    _make_fief(state, SMALL_KINGDOM)


# -- GRUVORNA SINAR (VA-65) --------------------------------------------------------------------------------------


def mines_may_play(state: Situation, seat: int) -> bool:
    """Once the mines are dry the card has nothing left to do."""
    return not state.position.mines_dry


def _remove_excess(position: Position, area_id: str) -> int:
    """Trading camps above the area's trade value go, one at a time from the player with the most there (ties: seat
    order from the turn's first seat). Returns how many."""
    removed = 0
    order = seat_order(max(position.first_seat, 0), position.num_players)
    while position.camps_in_area(TRADING, area_id) > position.trade_value(area_id):
        most = order[0]
        for s in order:
            if position.camps_at(s, TRADING, area_id) > position.camps_at(most, TRADING, area_id):
                most = s
        position.remove_camps(most, TRADING, area_id, 1)
        removed += 1
    return removed


def mines_dry(state: Situation) -> None:
    """ "The trade value of the province Khorasan is reduced to two. Counts for the rest of the game.": the value
    counts for conquest, VP, trade and the trading-camp cap alike; camps above the cap go
    (`mines_dry_camps: remove_excess`) or stay until lost (`keep_excess`)."""
    play = _play(state)
    position = state.position
    position.mines_dry = True
    removed = 0
    if state.options["mines_dry_camps"] == "remove_excess":
        for area in position.board.areas:
            if area.trade_after_mines_dry:
                removed += _remove_excess(position, area.id)
    play.text = "the mines go dry" + (f" ({removed} trading camps removed)" if removed else "")


#: Each card kind this module writes, by id (`actions.CARD_IDS`).
EFFECTS: Final[dict[str, Effect]] = {
    "exile": effect(targets=exile_targets, resolve=exile),
    "peace": effect(targets=peace_targets, resolve=peace),
    "war": effect(targets=war_targets, resolve=war),
    "christianisation": effect(
        targets=christianisation_targets, resolve=christianisation, on_roll=christianisation_roll
    ),
    "unifier": effect(may_play=unifier_may_play, resolve=unifier, on_roll=unifier_roll),
    "religious_quarrel": effect(
        targets=quarrel_targets, resolve=quarrel, answers=quarrel_answers, on_answer=quarrel_answer
    ),
    "heritage": effect(targets=heritage_targets, resolve=heritage, on_roll=heritage_roll),
    "small_kingdom": effect(targets=small_kingdom_targets, resolve=small_kingdom),
    "mines_dry": effect(may_play=mines_may_play, resolve=mines_dry),
}
