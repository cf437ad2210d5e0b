"""6.4 War fleets: the dice of a fight, as chance nodes of hits, and the fight's bookkeeping.

Rule text: "The Viking player rolls one dice per war ship. For each roll of five or less, the land area loses one
army. At the same time, another player rolls one dice per army (shields) in the area. For each war camp, in the
area, the number of armies is reduced by one. A land area without armies cannot be fought. For each roll equal or
below the armies' strength (the number in the shields), the war fleet loses one ship. If any of the armies dice
show a one (1), the armies roll ALL their dice again and add up the number of losses inflicted. This continues
until no army dice shows a one (1) result ... Remember that no Viking dice may be rolled again after a rolled one!"
"If all of the area's armies are destroyed, the war fleet has won. If all Viking ships are destroyed, the journey
is over. If nothing of this happens, the Viking player can choose either to continue the fight or move on to
another area. If he continues the fight, it is done like before, with the difference that each side rolls as many
dice as they have ships/armies in the area NOW." Between kingdoms: "When attacked, a war camp counts as two war
ships with strength five"; "Each war camp corresponds to two ships, both must be destroyed to destroy the war camp."

Skald's readings (VA-07, VA-55, VA-58): a side's dice are one chance node giving the number of hits (and, for the
armies, whether a 1 showed), so a fight round is two or three nodes, not one per die; a side with more than
`actions.MAX_HITS` dice rolls them in several nodes. The armies' chain re-rolls the same number of dice and adds
the hits; both sides' hits are applied together when the round ends. Defenders lose ships before camps (seat order
from the turn's first seat among several defenders; `defender_losses: ships_first`), a camp falling to its second
hit; Viking dice (fleet and defenders alike) never roll again.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import MAX_HITS

#: A Viking die hits on five or less (6.4), as do the dice of a war camp or war ship defending (strength five).
VIKING_HIT: Final = 5
#: The dice faces (VA-07).
FACES: Final = 10
ARMIES: Final = "armies"
DEFENDERS: Final = "defenders"


def binomial_outcomes(dice: int, hit_on: int) -> list[tuple[int, float]]:
    """(hits, probability) for `dice` D10s each hitting on `hit_on` or less, hits ascending, zero-probability
    outcomes left out."""
    p = hit_on / FACES
    row = [1.0]
    for _ in range(dice):
        nxt = [0.0] * (len(row) + 1)
        for hits, chance in enumerate(row):
            nxt[hits] += chance * (1 - p)
            nxt[hits + 1] += chance * p
        row = nxt
    return [(hits, chance) for hits, chance in enumerate(row) if chance > 0]


def army_outcomes(dice: int, strength: int) -> list[tuple[int, bool, float]]:
    """(hits, a 1 showed, probability) for the armies' `dice` D10s of `strength`: a 1 is a hit and makes them roll
    all their dice again; faces 2..strength hit; higher faces miss. Outcomes in (hits, one) order."""
    one, hit, miss = 1 / FACES, (strength - 1) / FACES, (FACES - strength) / FACES
    # row[hits][one?]
    row = [[1.0, 0.0]]
    for _ in range(dice):
        nxt = [[0.0, 0.0] for _ in range(len(row) + 1)]
        for hits, (no_one, with_one) in enumerate(row):
            nxt[hits][0] += no_one * miss
            nxt[hits][1] += with_one * miss
            nxt[hits + 1][0] += no_one * hit
            nxt[hits + 1][1] += with_one * hit + (no_one + with_one) * one
        row = nxt
    found = []
    for flag in (False, True):
        for hits, pair in enumerate(row):
            chance = pair[1 if flag else 0]
            if chance > 0:
                found.append((hits, flag, chance))
    return found


class Fight:
    """A fight under way in one area: against its armies, or against other kingdoms' war ships and camps.

    The fleet side: `fleet_dice` left to roll this round and `fleet_hits` rolled. The other side: the armies
    (`armies` left, `strength`) or the defenders (per seat: war `ships`, war `camps`, and `damage` on the camp
    taking hits, a camp falling at its second), with `other_dice` left to roll and `other_hits`; `chain` is the
    number of dice the armies roll again after a 1. `lost_ships` / `lost_camps` per seat (the fleet's owner
    included) feed the risk of war. Plain class, cloned through its constructor.
    """

    def __init__(self, num_players: int, source: Fight | None = None) -> None:
        self.num_players: Final = num_players
        if source is not None:
            self.against: str = source.against
            self.area: str = source.area
            self.attacker: int = source.attacker
            self.armies: int = source.armies
            self.strength: int = source.strength
            self.defenders: list[int] = list(source.defenders)
            self.ships: list[int] = list(source.ships)
            self.camps: list[int] = list(source.camps)
            self.damage: list[int] = list(source.damage)
            self.fleet_dice: int = source.fleet_dice
            self.fleet_hits: int = source.fleet_hits
            self.other_dice: int = source.other_dice
            self.other_hits: int = source.other_hits
            self.chain: int = source.chain
            self.rounds: int = source.rounds
            self.lost_ships: list[int] = list(source.lost_ships)
            self.lost_camps: list[int] = list(source.lost_camps)
            self.hammer: list[int] = list(source.hammer)
            self.round_bonus: int = source.round_bonus
            self.berserk: list[int] = list(source.berserk)
            return
        self.against = ""
        self.area = ""
        self.attacker = -1
        self.armies = 0
        self.strength = 0
        self.defenders = []
        self.ships = [0] * num_players
        self.camps = [0] * num_players
        self.damage = [0] * num_players
        self.fleet_dice = 0
        self.fleet_hits = 0
        self.other_dice = 0
        self.other_hits = 0
        self.chain = 0
        self.rounds = 0
        self.lost_ships = [0] * num_players
        self.lost_camps = [0] * num_players
        #: Seats playing TORS HAMMARE in this fight ("-2 on his dice rolls for any one fight. Counts for the whole
        #: fight"): a lower roll hits more, so each of their dice hits on two more faces.
        self.hammer = []
        #: BESKYDD under `protection: any_roll`: -2 on the fleet's dice for this round only.
        self.round_bonus = 0
        #: Seats playing BÄRSÄRK before this fight, in order; two cancel each other (the card text), so an odd
        #: count leaves the last one standing.
        self.berserk = []

    def clone(self) -> Fight:
        """An independent copy."""
        return Fight(self.num_players, self)

    def defending_dice(self) -> int:
        """The defenders' dice: one per war ship, two per war camp, less the hit a damaged camp has taken."""
        return sum(self.ships[s] + 2 * self.camps[s] - self.damage[s] for s in self.defenders)

    def other_side_left(self) -> int:
        """Armies, or the defenders' ships and camps, still standing."""
        if self.against == ARMIES:
            return self.armies
        return sum(self.ships[s] + self.camps[s] for s in self.defenders)


def hit_on(base: int, bonus: int) -> int:
    """The highest face that hits after a bonus of `bonus` faces (a -2 on the dice hits on two more), at most a
    sure hit."""
    return max(min(base + bonus, FACES), 0)


def fleet_hit_on(fight: Fight) -> int:
    """The face the war fleet's dice hit on this round: five (6.4), two more with its owner's TORS HAMMARE, and
    BESKYDD's -2 for one round under `protection: any_roll`."""
    bonus = fight.round_bonus + (2 if fight.attacker in fight.hammer else 0)
    return hit_on(VIKING_HIT, bonus)


def defender_hit_on(fight: Fight) -> int:
    """The face the defenders' dice hit on (strength five): two more if a defender plays TORS HAMMARE (the
    defenders' dice are one chance node, so the card counts for all of them)."""
    bonus = 2 if any(seat in fight.hammer for seat in fight.defenders) else 0
    return hit_on(VIKING_HIT, bonus)


def fleet_outcomes(fight: Fight) -> list[tuple[int, float]]:
    """(hits, probability) of the war fleet's next node of dice, its cards counted (TORS HAMMARE, BESKYDD)."""
    return binomial_outcomes(batch(fight.fleet_dice), fleet_hit_on(fight))


def defender_outcomes(fight: Fight) -> list[tuple[int, float]]:
    """(hits, probability) of the defenders' next node of dice, TORS HAMMARE counted."""
    return binomial_outcomes(batch(fight.other_dice), defender_hit_on(fight))


def berserk_standing(fight: Fight) -> int:
    """The seat whose BÄRSÄRK stands in this fight, or -1: 'If two berserk cards are played in one fight, they
    cancel each other' (an odd count leaves the last played standing, VA-10)."""
    return fight.berserk[-1] if len(fight.berserk) % 2 == 1 else -1


def against_armies(num_players: int, area: str, attacker: int, armies: int, strength: int) -> Fight:
    """A fight of the attacker's war fleet against `armies` of `strength`."""
    fight = Fight(num_players)
    fight.against, fight.area, fight.attacker = ARMIES, area, attacker
    fight.armies, fight.strength = armies, strength
    return fight


def against_defenders(
    num_players: int, area: str, attacker: int, defenders: list[int], ships: list[int], camps: list[int]
) -> Fight:
    """A fight of the attacker's war fleet against other kingdoms' war ships and camps in the area (seat order)."""
    fight = Fight(num_players)
    fight.against, fight.area, fight.attacker = DEFENDERS, area, attacker
    fight.defenders = list(defenders)
    fight.ships, fight.camps = list(ships), list(camps)
    fight.strength = VIKING_HIT
    return fight


def start_round(fight: Fight, fleet_size: int) -> None:
    """A round begins: each side rolls as many dice as it has ships or armies NOW."""
    fight.fleet_dice = fleet_size
    fight.round_bonus = 0
    fight.fleet_hits = 0
    fight.other_dice = fight.armies if fight.against == ARMIES else fight.defending_dice()
    fight.other_hits = 0
    fight.chain = 0
    fight.rounds += 1


def batch(dice: int) -> int:
    """How many dice one chance node rolls (at most MAX_HITS)."""
    return min(dice, MAX_HITS)


def fleet_rolled(fight: Fight, hits: int) -> None:
    """One node of the fleet's dice showed `hits`."""
    fight.fleet_hits += hits
    fight.fleet_dice -= batch(fight.fleet_dice)


def other_rolled(fight: Fight, hits: int, one: bool) -> None:
    """One node of the other side's dice showed `hits` (and, for armies, whether a 1 showed): a 1 makes the armies
    roll all their dice of this round again once these are done."""
    rolled = batch(fight.other_dice)
    fight.other_hits += hits
    fight.other_dice -= rolled
    if one and fight.against == ARMIES:
        fight.chain = fight.armies
    if fight.other_dice == 0 and fight.chain:
        fight.other_dice, fight.chain = fight.chain, 0


def round_rolled(fight: Fight) -> bool:
    """Whether both sides' dice of this round are all rolled."""
    return fight.fleet_dice == 0 and fight.other_dice == 0


def apply_defender_losses(fight: Fight, hits: int) -> list[tuple[int, int, int]]:
    """The fleet's hits fall on the defenders, every war ship before any camp (seat by seat in each pass), a camp
    falling at its second hit; returns (seat, ships, camps) lost."""
    ships_lost = [0] * fight.num_players
    camps_lost = [0] * fight.num_players
    for seat in fight.defenders:
        ships = min(hits, fight.ships[seat])
        hits -= ships
        fight.ships[seat] -= ships
        ships_lost[seat] = ships
    for seat in fight.defenders:
        while hits and fight.camps[seat]:
            hits -= 1
            fight.damage[seat] += 1
            if fight.damage[seat] == 2:
                fight.damage[seat] = 0
                fight.camps[seat] -= 1
                camps_lost[seat] += 1
    lost = []
    for seat in fight.defenders:
        fight.lost_ships[seat] += ships_lost[seat]
        fight.lost_camps[seat] += camps_lost[seat]
        if ships_lost[seat] or camps_lost[seat]:
            lost.append((seat, ships_lost[seat], camps_lost[seat]))
    return lost
