"""Card effects, `cards.fights`: the cards that order fights, plagues and separatists.

- The five attack cards (BRETLÄNDSK ATTACK, KHAZARER, SÄRKABÄRSÄRKAR I VÄSTRA / ÖSTRA KALIFATET, TYSK-ROMERSK
  ATTACK): "Everybody who has camps in any provinces of <empire> is attacked by as many armies (strength 5) as
  rolled on the table below". MAGYARHORDER does the same in Magyarlandet and the areas bordering it by land.
- PETJENEGHORDER: "Ten armies (strength 5) move the following way ... As long as there is at least one of them, they
  attack all Vikings and armies they encounter."
- The three expansions: "Four ... armies (strength 5) invade one of the areas below. If they defeat any Vikings
  there and also that area's armies, the area becomes part of the ... Empire."
- UPPROR!: "War camps in that area need to fight against the areas full army value. Trade camps without army camps
  in the area are destroyed."
- PEST! (three cards): "In the following areas, each player loses one war and one trade camp per area". No fight.
- UTBRYTARE: "One area which includes a war camp becomes independent ... If D10 is higher than twice the number of
  war camps in the area, the card has no effect."

How a card fight runs (VA-24, option `card_fights`): each area on its own, in the card's order; the defenders are
the war ships standing there and the war camps (a camp is two ships of strength 5, falling at its second hit);
both sides roll as many dice as they have NOW, each side's dice one chance node of hits (`NEED_HITS`, at most
`MAX_HITS` dice a node), "no side rolls again after a natural 1" (6.4), and the hits of a round fall together, war
ships before camps, seat by seat from the turn's first seat. Rounds go on until one side is gone (`to_the_end`) or
stop after one (`one_round`). A player left with no war ship or war camp in the area loses his trading camps there.
The expansions and PETJENEGHORDER fight the Vikings first, then the area's armies (its shields less its war camps).

Every camp lost goes through `_lose_camps`, which keeps the card markers true (a heritage or small kingdom lost per
`fief_loss`, a separatist marker gone with the last camp); an emigrant's home is checked after each area
(`emigration.check_homeless`, which reads conquest afresh).

The attack cards, MAGYARHORDER and PEST! say "Play at any time" and name no target: they may be played at every
window, and with no camps in their areas they have no effect (logged so). UPPROR! and UTBRYTARE need an area they
can act on; PETJENEGHORDER and the expansions always find armies to fight.

The area of a fight under way in phase 6 (`state.journeys.fight.area`) is left alone: the journey's fight holds its
defenders' ships and camps, so no card fights or plagues there (a target card cannot name it, a card over many areas
skips it, PETJENEGHORDER is not playable while it is on its route).

Where the rulings leave a point open, the options in `cards.options.FIGHT_OPTIONS` decide: `attack_rolls` (one D10
per area, or one for the card), `attack_empire_conquered` ("if the whole empire is conquered": every province
conquered, or never), `expanded_strength` (the armies of an area an expansion took: printed strength or 5).

The scratch of `Play` is used so: `areas` the areas still to fight (the current first), `n` the card's armies left,
`strength` their strength, `dice` the dice the side rolling has left this round, `stage` who rolls, and `seats` a
fixed record: per seat the hit on his damaged camp, then (offsets `_CARD_HITS` to `_ROLLED`) the round's hits of
each side, the area's own armies left, the rounds fought, and the armies rolled once (`attack_rolls: per_card`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from skald.games.vikingatid import combat, emigration
from skald.games.vikingatid.actions import CARD_IDS, HITS, TARGET_AREA, TRADING, WAR
from skald.games.vikingatid.cards.effect import Effect, effect
from skald.games.vikingatid.cards.play import NEED_HITS, NEED_ROLL
from skald.games.vikingatid.conquest import conqueror
from skald.games.vikingatid.setup import NOBODY
from skald.games.vikingatid.steps import seat_order

if TYPE_CHECKING:
    from skald.games.vikingatid.board import Empire
    from skald.games.vikingatid.cards.data import CardData
    from skald.games.vikingatid.position import Position
    from skald.games.vikingatid.situation import Situation

# -- the kinds -----------------------------------------------------------------------------------------------------

#: The attack cards; each names its empire by its title (the board's `attack_card`).
ATTACK_CARDS: Final = ("british_attack", "khazars", "berserks_west", "berserks_east", "german_attack")
#: The attack cards whose text adds "if the whole empire is conquered, this card has no effect".
WHOLE_EMPIRE_CLAUSE: Final = ("british_attack", "khazars")
MAGYARS: Final = "magyar_hordes"
#: MAGYARHORDER's centre: "Magyarlandet and/or any adjacent areas".
MAGYARLANDET: Final = "magyarlandet"
PECHENEGS: Final = "pecheneg_hordes"
#: The expansion cards; each names its empire by its title (the board's `expansion_card`).
EXPANSION_CARDS: Final = ("byzantine_expansion", "western_expansion", "eastern_expansion")
REBELLION: Final = "rebellion"
SEPARATISTS: Final = "separatists"
#: PEST!'s three lists: the empires named and the other areas named; "and all adjacent areas" joins their land
#: neighbours (VA-67).
PLAGUES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "plague_east": (("kazakstan",), ()),
    "plague_south": (("byzantine", "w_caliphate", "e_caliphate"), ()),
    "plague_west": (("britain", "german_roman"), ("irland",)),
}

# -- who rolls (`Play.stage`) ---------------------------------------------------------------------------------------

#: The card's armies roll against the Vikings' war ships and camps.
ARMIES_VS_VIKINGS: Final = 1
#: The Vikings' war ships and camps roll.
VIKINGS_ROLL: Final = 2
#: The card's armies roll against the area's own armies (expansions, PETJENEGHORDER).
ARMIES_VS_AREA: Final = 3
#: The area's own armies roll.
AREA_ROLLS: Final = 4

# The record in `Play.seats` after the per-seat camp damage (offsets from num_players).
_CARD_HITS: Final = 0
_VIKING_HITS: Final = 1
_AREA_ARMIES: Final = 2
_ROUNDS: Final = 3
_ROLLED: Final = 4
#: The Christian defenders' dice still to roll this round (VA-59).
_CHRISTIAN_DICE: Final = 5
_RECORD: Final = 6
#: The cards whose armies come from Britain or the German-Roman Empire, against which a Christian defends better
#: ("when defending against attackers from these empires", 10. Christianisation; VA-59).
CHRISTIAN_DEFENCE_CARDS: Final = ("british_attack", "german_attack")


def _cards(state: Situation) -> CardData:
    """The card data of the game (its tables)."""
    return state.cards


def _card_id(state: Situation) -> str:
    assert state.play is not None
    return CARD_IDS[state.play.kind]


def _at(state: Situation, offset: int) -> int:
    assert state.play is not None
    return state.play.seats[state.num_players + offset]


def _put(state: Situation, offset: int, value: int) -> None:
    assert state.play is not None
    state.play.seats[state.num_players + offset] = value


def _say(state: Situation, words: str) -> None:
    """Add to what the card did, for the log."""
    assert state.play is not None
    state.play.text = f"{state.play.text}; {words}" if state.play.text else words


def _name(state: Situation, area_id: str) -> str:
    return state.board.area(area_id).name


# -- reading the table ----------------------------------------------------------------------------------------------


def fight_area(state: Situation) -> str:
    """The area of a journey's fight (phase 6), or "": no card fights or plagues there while it lasts."""
    return state.journeys.fight.area


def has_camps(position: Position, area_id: str) -> bool:
    """Whether anyone has a camp in the area."""
    return position.camps_in_area(TRADING, area_id) + position.camps_in_area(WAR, area_id) > 0


def _empire_of_card(state: Situation, card_id: str) -> Empire:
    """The empire a card names by its title (the board's `attack_card` / `expansion_card`)."""
    title = _cards(state).kind(card_id).title
    for empire in state.board.empires:
        if empire.attack_card == title or empire.expansion_card == title:
            return empire
    raise KeyError(f"card {card_id!r}: no empire of the board names {title!r}")


def provinces(position: Position, empire_id: str) -> list[str]:
    """The areas of an empire where camps stand, as the table says now (an expansion adds areas), in board order."""
    board = position.board
    return [
        area_id
        for slot, area_id in enumerate(position.area_ids)
        if position.empire_of[slot] == empire_id and not board.areas[slot].no_camps
    ]


def whole_empire_conquered(position: Position, empire_id: str) -> bool:
    """Whether every province of the empire is conquered, by whoever (its core holds no camps, VA-45)."""
    areas = provinces(position, empire_id)
    return bool(areas) and all(conqueror(position, area_id) != NOBODY for area_id in areas)


def magyar_areas(position: Position) -> list[str]:
    """Magyarlandet and the areas bordering it by land (VA-67), where camps may stand, Magyarlandet first."""
    board = position.board
    found = [MAGYARLANDET]
    for area_id in board.area(MAGYARLANDET).land_borders:
        if not board.area(area_id).no_camps and area_id not in found:
            found.append(area_id)
    return found


def plague_areas(position: Position, card_id: str) -> list[str]:
    """The areas a PEST! card lists: its empires' areas (as the table says now), its named areas, and every area
    bordering those by land (VA-67), in board order."""
    empires, named = PLAGUES[card_id]
    board = position.board
    core = {area_id for slot, area_id in enumerate(position.area_ids) if position.empire_of[slot] in empires}
    core.update(named)
    listed = set(core)
    for area_id in core:
        listed.update(board.area(area_id).land_borders)
    return [a for a in position.area_ids if a in listed and not board.area(a).no_camps]


def army_strength(state: Situation, area_id: str) -> int:
    """The strength of an area's own armies: printed, or 5 for an area an expansion took under `expanded_strength:
    empire` (the empire's card army strength)."""
    position = state.position
    slot = position.slot(area_id)
    if position.expanded[slot] and state.options["expanded_strength"] == "empire":
        return state.board.empire(position.empire_of[slot]).card_army_strength
    return state.board.area(area_id).strength


def defenders(position: Position, area_id: str) -> list[int]:
    """The seats with war ships standing or war camps in the area, from the turn's first seat (VA-24)."""
    first = position.first_seat if position.first_seat >= 0 else 0
    return [
        s
        for s in seat_order(first, position.num_players)
        if position.ships_at(s, WAR, area_id) or position.camps_at(s, WAR, area_id)
    ]


# -- losing camps ---------------------------------------------------------------------------------------------------


def _lose_camps(state: Situation, seat: int, kind: str, area_id: str, n: int) -> None:
    """Camps a card takes leave the board; a heritage or small kingdom goes with them (`fief_loss`: any camp, or
    the last war camp), a separatist marker with the area's last camp."""
    position = state.position
    position.remove_camps(seat, kind, area_id, n)
    slot = position.slot(area_id)
    if position.fief[slot] == seat and (
        state.options["fief_loss"] == "any_camp" or position.camps_at(seat, WAR, area_id) == 0
    ):
        position.fief[slot] = NOBODY
        position.fief_kind[slot] = ""
    if position.separatists[slot] and not has_camps(position, area_id):
        position.separatists[slot] = False


def _guarded(position: Position, seat: int, area_id: str) -> bool:
    """Whether the seat's trading camps in the area have a war ship or war camp of his beside them; in a separatist
    area the camps are no one's and stand together, guarded while any war camp stands there (VA-22)."""
    if position.separatists[position.slot(area_id)]:
        return position.camps_in_area(WAR, area_id) > 0
    return position.ships_at(seat, WAR, area_id) > 0 or position.camps_at(seat, WAR, area_id) > 0


def _strip_unguarded(state: Situation, area_id: str) -> int:
    """A player with no war ship or war camp left in the area loses his trading camps there (VA-24; UPPROR! 2.);
    returns how many went."""
    position = state.position
    lost = 0
    for seat in range(position.num_players):
        trading = position.camps_at(seat, TRADING, area_id)
        if trading and not _guarded(position, seat, area_id):
            _lose_camps(state, seat, TRADING, area_id, trading)
            lost += trading
    return lost


def _hit_vikings(state: Situation, area_id: str, hits: int) -> None:
    """The card's hits on the defenders: every war ship before any camp, seat by seat; a camp falls at its second
    hit (VA-24, `defender_losses: ships_first`)."""
    assert state.play is not None
    position = state.position
    seats = defenders(position, area_id)
    for seat in seats:
        ships = min(hits, position.ships_at(seat, WAR, area_id))
        if ships:
            position.remove_ships(seat, WAR, area_id, ships)
            hits -= ships
    for seat in seats:
        while hits and position.camps_at(seat, WAR, area_id):
            hits -= 1
            state.play.seats[seat] += 1
            if state.play.seats[seat] == 2:
                state.play.seats[seat] = 0
                _lose_camps(state, seat, WAR, area_id, 1)


def _viking_dice(state: Situation, area_id: str) -> int:
    """The defenders' dice: one per war ship, two per war camp, less the hit a damaged camp has taken."""
    assert state.play is not None
    position = state.position
    return sum(
        position.ships_at(s, WAR, area_id) + 2 * position.camps_at(s, WAR, area_id) - state.play.seats[s]
        for s in defenders(position, area_id)
    )


# -- the fight machine ----------------------------------------------------------------------------------------------


def _begin(state: Situation, areas: list[str], armies: int, strength: int) -> None:
    """A card fight starts over `areas` with `armies` of `strength` (0 armies: rolled per area)."""
    play = state.play
    assert play is not None
    play.areas = list(areas)
    play.n = armies
    play.strength = strength
    play.seats = [0] * (state.num_players + _RECORD)
    _open_area(state)


def _open_area(state: Situation) -> None:
    """Take on the first area left: roll its armies, or fight at once; with none left the card is done."""
    play = state.play
    assert play is not None
    card_id = _card_id(state)
    rolled = card_id in ATTACK_CARDS or card_id == MAGYARS
    while play.areas:
        area_id = play.areas[0]
        if area_id == fight_area(state) or (rolled and not has_camps(state.position, area_id)):
            play.areas.pop(0)
            continue
        for seat in range(state.num_players):
            play.seats[seat] = 0
        _put(state, _ROUNDS, 0)
        if rolled:
            once = _at(state, _ROLLED)
            if once:
                play.n = once
                _fight_vikings(state)
            else:
                play.need = NEED_ROLL
            return
        if card_id == REBELLION:
            _rebellion_opens(state, area_id)
        _fight_vikings(state)
        return


def _rebellion_opens(state: Situation, area_id: str) -> None:
    """UPPROR!: "Trade camps without army camps in the area are destroyed", then the area's full printed armies
    (not reduced by war camps, VA-24) fight its war camps and war ships. In a separatist area the camps are no
    one's and stand together: its trading camps go only if no war camp stands there (VA-22)."""
    play = state.play
    assert play is not None
    position = state.position
    together = position.separatists[position.slot(area_id)]
    lost = 0
    for seat in range(position.num_players):
        trading = position.camps_at(seat, TRADING, area_id)
        war = position.camps_in_area(WAR, area_id) if together else position.camps_at(seat, WAR, area_id)
        if trading and not war:
            _lose_camps(state, seat, TRADING, area_id, trading)
            lost += trading
    if lost:
        _say(state, f"{lost} trading camps without war camps destroyed in {_name(state, area_id)}")
    play.n = state.board.area(area_id).shields
    play.strength = army_strength(state, area_id)


def _fight_vikings(state: Situation) -> None:
    """The card's armies meet the Vikings of the area: those with no war ship or camp lose their trading camps;
    the rest fight."""
    play = state.play
    assert play is not None
    area_id = play.areas[0]
    lost = _strip_unguarded(state, area_id)
    if lost:
        _say(state, f"{lost} unguarded trading camps destroyed in {_name(state, area_id)}")
    if play.n > 0 and defenders(state.position, area_id):
        _start_round(state, ARMIES_VS_VIKINGS)
        return
    _vikings_done(state)


def _vikings_done(state: Situation) -> None:
    """After the Vikings: the expansions and PETJENEGHORDER go on against the area's own armies once no Viking
    defends it (VA-24); the others are done with the area."""
    play = state.play
    assert play is not None
    area_id = play.areas[0]
    card_id = _card_id(state)
    if (card_id == PECHENEGS or card_id in EXPANSION_CARDS) and play.n > 0 and not defenders(state.position, area_id):
        area = state.board.area(area_id)
        armies = max(area.shields - state.position.camps_in_area(WAR, area_id), 0)
        _put(state, _AREA_ARMIES, armies)
        _put(state, _ROUNDS, 0)
        if armies:
            _start_round(state, ARMIES_VS_AREA)
            return
        _area_beaten(state)
        return
    _close_area(state)


def _area_beaten(state: Situation) -> None:
    """After the area's armies: an expansion that beat the Vikings and the armies takes the area (table.empire_of,
    table.expanded)."""
    play = state.play
    assert play is not None
    area_id = play.areas[0]
    card_id = _card_id(state)
    if card_id in EXPANSION_CARDS and play.n > 0 and _at(state, _AREA_ARMIES) == 0:
        position = state.position
        slot = position.slot(area_id)
        empire = _empire_of_card(state, card_id)
        position.empire_of[slot] = empire.id
        position.expanded[slot] = True
        _say(state, f"{_name(state, area_id)} becomes part of {empire.name}")
    elif play.n == 0:
        _say(state, f"the armies are beaten in {_name(state, area_id)}")
    _close_area(state)


def _close_area(state: Situation) -> None:
    """The area is done: emigrants' homes are checked (conquest read afresh); then the next area, unless the
    hordes are gone."""
    play = state.play
    assert play is not None
    emigration.check_homeless(state.position)
    play.areas.pop(0)
    if play.n == 0 and _card_id(state) == PECHENEGS:
        _say(state, "the hordes are gone")
        play.areas = []
    _open_area(state)


def _start_round(state: Situation, stage: int) -> None:
    """A round: the card's armies roll first, as many dice as they have NOW."""
    play = state.play
    assert play is not None
    _put(state, _CARD_HITS, 0)
    _put(state, _VIKING_HITS, 0)
    _put(state, _ROUNDS, _at(state, _ROUNDS) + 1)
    play.stage = stage
    play.dice = play.n
    play.need = NEED_HITS


def _end_round(state: Situation) -> None:
    """Both sides' hits fall together; then the fight goes on, or the area is done (one side gone, or
    `card_fights: one_round`)."""
    play = state.play
    assert play is not None
    area_id = play.areas[0]
    card_hits = _at(state, _CARD_HITS)
    play.n -= min(_at(state, _VIKING_HITS), play.n)
    once = state.options["card_fights"] == "one_round"
    if play.stage in (ARMIES_VS_VIKINGS, VIKINGS_ROLL):
        _hit_vikings(state, area_id, card_hits)
        _strip_unguarded(state, area_id)
        if play.n == 0 or not defenders(state.position, area_id) or once:
            _vikings_done(state)
        else:
            _start_round(state, ARMIES_VS_VIKINGS)
        return
    armies = _at(state, _AREA_ARMIES)
    armies -= min(card_hits, armies)
    _put(state, _AREA_ARMIES, armies)
    if play.n == 0 or armies == 0 or once:
        _area_beaten(state)
    else:
        _start_round(state, ARMIES_VS_AREA)


def _other_dice(state: Situation) -> int:
    """The dice of the side answering the card's armies this round."""
    play = state.play
    assert play is not None
    if play.stage == VIKINGS_ROLL:
        return _viking_dice(state, play.areas[0])
    return _at(state, _AREA_ARMIES)


def _christian_defence(state: Situation) -> str:
    """How a Christian defends against this card (VA-59 `christian_defence`), or "" if the card is not British or
    German-Roman."""
    return str(state.options["christian_defence"]) if _card_id(state) in CHRISTIAN_DEFENCE_CARDS else ""


def _christian_dice(state: Situation, area_id: str) -> int:
    """The dice of the Christian defenders among `_viking_dice`: their war ships, and the war camps under their
    control (a separatist camp is no one's, so no Christian's, VA-22)."""
    assert state.play is not None
    position = state.position
    dice = 0
    for s in defenders(position, area_id):
        if position.christian[s]:
            camps = position.controlled_camps(s, WAR, area_id)
            dice += position.ships_at(s, WAR, area_id) + (2 * camps - state.play.seats[s] if camps else 0)
    return dice


def _node_dice(state: Situation) -> tuple[int, int]:
    """The dice of the next node and what each hits on: the card's armies on their strength or less (2 less
    against defenders who are all Christian under `christian_defence: attacker_dice_plus_2`), the Vikings on 5 or
    less (the Christians' dice first, on 7 or less, under `own_dice_minus_2`, VA-59), the area's armies on its
    strength or less; no re-roll after a 1 (6.4)."""
    play = state.play
    assert play is not None
    defence = _christian_defence(state)
    if play.stage == ARMIES_VS_VIKINGS:
        area_id = play.areas[0]
        position = state.position
        # Separatist war camps are no one's, so not Christian (VA-22).
        all_christian = all(
            position.christian[s] and position.controlled_camps(s, WAR, area_id) == position.camps_at(s, WAR, area_id)
            for s in defenders(position, area_id)
        )
        bonus = 2 if defence == "attacker_dice_plus_2" and all_christian else 0
        return combat.batch(play.dice), play.strength - bonus
    if play.stage == ARMIES_VS_AREA:
        return combat.batch(play.dice), play.strength
    if play.stage == VIKINGS_ROLL:
        christian = _at(state, _CHRISTIAN_DICE)
        if christian:
            return combat.batch(christian), combat.VIKING_HIT + 2
        return combat.batch(play.dice), combat.VIKING_HIT
    return combat.batch(play.dice), army_strength(state, play.areas[0])


def fight_outcomes(state: Situation) -> list[tuple[int, float]]:
    """The hits of the next node of dice (`_node_dice`)."""
    dice, hit_on = _node_dice(state)
    return [(HITS + hits, p) for hits, p in combat.binomial_outcomes(dice, hit_on)]


def fight_hits(state: Situation, action: int) -> None:
    """One node of dice showed `action - HITS` hits; the other side rolls once a side is done, and the round ends
    when both are."""
    play = state.play
    assert play is not None
    hits = action - HITS
    rolled, _ = _node_dice(state)
    play.dice -= rolled
    if play.stage == VIKINGS_ROLL and _at(state, _CHRISTIAN_DICE):
        _put(state, _CHRISTIAN_DICE, _at(state, _CHRISTIAN_DICE) - rolled)
    card_side = play.stage in (ARMIES_VS_VIKINGS, ARMIES_VS_AREA)
    offset = _CARD_HITS if card_side else _VIKING_HITS
    _put(state, offset, _at(state, offset) + hits)
    if play.dice:
        play.need = NEED_HITS
        return
    if card_side:
        play.stage += 1
        play.dice = _other_dice(state)
        if play.stage == VIKINGS_ROLL and _christian_defence(state) == "own_dice_minus_2":
            _put(state, _CHRISTIAN_DICE, _christian_dice(state, play.areas[0]))
        if play.dice:
            play.need = NEED_HITS
            return
    _end_round(state)


# -- the attack cards and MAGYARHORDER ------------------------------------------------------------------------------


def _attack_areas(state: Situation, card_id: str) -> list[str]:
    if card_id == MAGYARS:
        return magyar_areas(state.position)
    return provinces(state.position, _empire_of_card(state, card_id).id)


def _attack_resolve(state: Situation) -> None:
    """The armies the table gives attack each area with camps, rolled for each area (`attack_rolls`). The card
    says "Play at any time": where no one has camps it has no effect (the fight's area is skipped)."""
    card_id = _card_id(state)
    position = state.position
    areas = _attack_areas(state, card_id)
    busy = fight_area(state)
    if not any(a != busy and has_camps(position, a) for a in areas):
        _say(state, "no camps to attack: no effect")
        return
    if (
        card_id in WHOLE_EMPIRE_CLAUSE
        and state.options["attack_empire_conquered"] == "all_provinces"
        and whole_empire_conquered(state.position, _empire_of_card(state, card_id).id)
    ):
        _say(state, "the whole empire is conquered: no effect")
        return
    _begin(state, areas, 0, _cards(state).attack_table.strength)


def _attack_roll(state: Situation, face: int) -> None:
    """The D10 of the area's armies (VA-25), or of the whole card under `attack_rolls: per_card`."""
    play = state.play
    assert play is not None
    play.n = _cards(state).attack_armies(face)
    if state.options["attack_rolls"] == "per_card":
        _put(state, _ROLLED, play.n)
    _say(state, f"{play.n} armies attack {_name(state, play.areas[0])}")
    _fight_vikings(state)


# -- PETJENEGHORDER -------------------------------------------------------------------------------------------------


def _pechenegs_may_play(state: Situation, seat: int) -> bool:
    """Always (the route's armies are there to fight), but not while a journey fights on the route."""
    busy = fight_area(state)
    return not busy or busy not in _cards(state).pecheneg.route


def _pechenegs_resolve(state: Situation) -> None:
    route = _cards(state).pecheneg
    _say(state, f"{route.armies} armies move along {', '.join(_name(state, a) for a in route.route)}")
    _begin(state, list(route.route), route.armies, route.strength)


# -- the expansions -------------------------------------------------------------------------------------------------


def _expansion_targets(state: Situation, card_id: str) -> list[int]:
    """The board's targets of the empire (land areas outside it bordering it, VA-25) not in it now, the fight's
    area apart."""
    position = state.position
    empire = _empire_of_card(state, card_id)
    busy = fight_area(state)
    return [
        TARGET_AREA + position.slot(a)
        for a in empire.expansion_targets
        if a != busy and position.empire_of[position.slot(a)] != empire.id
    ]


def _byzantine_targets(state: Situation, seat: int) -> list[int]:
    return _expansion_targets(state, "byzantine_expansion")


def _western_targets(state: Situation, seat: int) -> list[int]:
    return _expansion_targets(state, "western_expansion")


def _eastern_targets(state: Situation, seat: int) -> list[int]:
    return _expansion_targets(state, "eastern_expansion")


def _target_area(state: Situation) -> str:
    assert state.play is not None
    return state.position.area_ids[state.play.target - TARGET_AREA]


def _expansion_resolve(state: Situation) -> None:
    data = _cards(state).expansion
    area_id = _target_area(state)
    _say(state, f"{data.armies} armies invade {_name(state, area_id)}")
    _begin(state, [area_id], data.armies, data.strength)


# -- UPPROR! --------------------------------------------------------------------------------------------------------


def _rebellion_targets(state: Situation, seat: int) -> list[int]:
    """Any area with camps ("Rebellion in one area of choice"; where no camp stands it would do nothing), the
    fight's area apart."""
    position = state.position
    busy = fight_area(state)
    camped = position.camped_slots()
    return [TARGET_AREA + slot for slot, a in enumerate(position.area_ids) if camped[slot] and a != busy]


def _rebellion_resolve(state: Situation) -> None:
    area_id = _target_area(state)
    _say(state, f"rebellion in {_name(state, area_id)}")
    _begin(state, [area_id], 0, 0)


# -- PEST! ----------------------------------------------------------------------------------------------------------


def _plague_resolve(state: Situation) -> None:
    """Each player loses one war and one trading camp in each listed area (those he has); no fight (VA-24). "Play at
    any time": with no camps there it has no effect; the fight's area is skipped."""
    card_id = _card_id(state)
    position = state.position
    busy = fight_area(state)
    lost = 0
    for area_id in plague_areas(position, card_id):
        if area_id == busy:
            continue
        for seat in range(position.num_players):
            for kind in (WAR, TRADING):
                if position.camps_at(seat, kind, area_id):
                    _lose_camps(state, seat, kind, area_id, 1)
                    lost += 1
    emigration.check_homeless(position)
    _say(state, f"{lost} camps lost to the plague")


# -- UTBRYTARE ------------------------------------------------------------------------------------------------------


def _separatist_targets(state: Situation, seat: int) -> list[int]:
    """UTBRYTARE names "one area which includes a war camp", not independent already, the fight's area apart."""
    position = state.position
    busy = fight_area(state)
    war_camps = position.camped_slots(war_only=True)
    return [
        TARGET_AREA + slot
        for slot, a in enumerate(position.area_ids)
        if war_camps[slot] and not position.separatists[slot] and a != busy
    ]


def _separatists_resolve(state: Situation) -> None:
    assert state.play is not None
    state.play.need = NEED_ROLL


def _separatists_roll(state: Situation, face: int) -> None:
    """UTBRYTARE: "If D10 is higher than twice the number of war camps in the area, the card has no effect";
    otherwise the area's camps belong to no one (VA-22): the marker goes down, a heritage or small kingdom there
    ends."""
    position = state.position
    area_id = _target_area(state)
    slot = position.slot(area_id)
    war = position.camps_in_area(WAR, area_id)
    if face > 2 * war:
        _say(state, f"D10 {face} > {2 * war}: no effect in {_name(state, area_id)}")
        return
    position.separatists[slot] = True
    position.fief[slot] = NOBODY
    position.fief_kind[slot] = ""
    emigration.check_homeless(position)
    _say(state, f"D10 {face}: {_name(state, area_id)} becomes independent")


def separatist_camps(position: Position, seat: int) -> int:
    """The seat's camps standing in separatist areas (they belong to no one, VA-22): what his own camp counts
    leave out (the election camp bonus, the final scoring), his camps less those he controls."""
    return sum(position.camps[seat]) - position.controlled_total(seat)


#: The five attack cards and MAGYARHORDER: armies from the table, a fight per area.
_ATTACK: Final = effect(
    resolve=_attack_resolve,
    on_roll=_attack_roll,
    hit_outcomes=fight_outcomes,
    on_hits=fight_hits,
)

#: Each card kind this module writes, by id (`actions.CARD_IDS`).
EFFECTS: Final[dict[str, Effect]] = {
    "british_attack": _ATTACK,
    "khazars": _ATTACK,
    "berserks_west": _ATTACK,
    "berserks_east": _ATTACK,
    "german_attack": _ATTACK,
    MAGYARS: _ATTACK,
    PECHENEGS: effect(
        may_play=_pechenegs_may_play, resolve=_pechenegs_resolve, hit_outcomes=fight_outcomes, on_hits=fight_hits
    ),
    "byzantine_expansion": effect(
        targets=_byzantine_targets, resolve=_expansion_resolve, hit_outcomes=fight_outcomes, on_hits=fight_hits
    ),
    "western_expansion": effect(
        targets=_western_targets, resolve=_expansion_resolve, hit_outcomes=fight_outcomes, on_hits=fight_hits
    ),
    "eastern_expansion": effect(
        targets=_eastern_targets, resolve=_expansion_resolve, hit_outcomes=fight_outcomes, on_hits=fight_hits
    ),
    REBELLION: effect(
        targets=_rebellion_targets, resolve=_rebellion_resolve, hit_outcomes=fight_outcomes, on_hits=fight_hits
    ),
    "plague_east": effect(resolve=_plague_resolve),
    "plague_south": effect(resolve=_plague_resolve),
    "plague_west": effect(resolve=_plague_resolve),
    SEPARATISTS: effect(targets=_separatist_targets, resolve=_separatists_resolve, on_roll=_separatists_roll),
}
