"""6.1 Initiative: who rolls, ties rolled again, the order of initiative, and passes.

Rule text: "Each player rolls a dice. The rolls determine the order on which the players make their moves. The
highest number gets initiative and plays first. If two or more players roll the highest number, they roll again
among themselves. The player with the initiative conducts one of his journeys. Instead, he can choose to pass. Then
the player with the next highest number gets initiative. If he passes, too, initiative goes on to the next player,
and so on. If all players pass, the initiative phase is over and no more fleets can be used this turn. All unused
ships are removed from the board." "When the player with initiative has done his journey, a new initiative roll is
made".

Skald's readings (VA-44): only players with ships on the board roll, one at a time in seat order from the turn's
first seat (VA-06); ties for first place roll again, and so do ties further down when initiative reaches them; a
pass counts for that roll only (`initiative_pass: this_roll`) or for the rest of the phase (`rest_of_phase`); a
player alone with ships takes initiative without a roll (a roll would change nothing).
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.position import Position
from skald.games.vikingatid.steps import seat_order

THIS_ROLL: Final = "this_roll"
REST_OF_PHASE: Final = "rest_of_phase"


class Initiative:
    """One initiative roll under way: the seats still to roll now, each seat's last roll (0: none), the seats in
    order of their rolls as groups of equal rolls (highest first; a group of several still rolls again), the seats
    out for the rest of the phase, and the seats that passed on this roll. Plain class, cloned through its
    constructor."""

    def __init__(self, num_players: int, source: Initiative | None = None) -> None:
        self.num_players: Final = num_players
        if source is not None:
            self.to_roll: list[int] = list(source.to_roll)
            self.rolls: list[int] = list(source.rolls)
            self.groups: list[list[int]] = [list(g) for g in source.groups]
            self.out: list[bool] = list(source.out)
            self.passed: list[int] = list(source.passed)
            self.claims: list[int] = list(source.claims)
            return
        self.to_roll = []
        self.rolls = [0] * num_players
        self.groups = []
        self.out = [False] * num_players
        # The seats that passed on this roll, in order.
        self.passed = []
        # The seats that played INITIATIV after this roll, not yet applied ("wins automatically the initiative").
        self.claims = []

    def clone(self) -> Initiative:
        """An independent copy."""
        return Initiative(self.num_players, self)


def has_ships(position: Position, seat: int) -> bool:
    """Whether the seat has ships standing on the board (the ones a journey can start from)."""
    return any(position.ships[seat])


def contenders(position: Position, initiative: Initiative) -> list[int]:
    """The seats that roll: ships on the board, not out for the phase; in seat order from the first seat."""
    return [
        s
        for s in seat_order(position.first_seat, position.num_players)
        if has_ships(position, s) and not initiative.out[s]
    ]


def start(position: Position, initiative: Initiative) -> None:
    """A new initiative roll: every contender rolls (a lone contender takes initiative at once)."""
    initiative.rolls = [0] * initiative.num_players
    initiative.passed = []
    initiative.claims = []
    seats = contenders(position, initiative)
    initiative.groups = [seats] if seats else []
    _resolve(initiative)


def claim(initiative: Initiative, seat: int) -> None:
    """INITIATIV: 'The player wins automatically the initiative for one Viking journey.' The claim is applied once
    the seats rolling now have rolled; several claimants 'roll the dice to see who wins' (a roll-off among them)."""
    if seat not in initiative.claims:
        initiative.claims.append(seat)
    if not initiative.to_roll:
        _resolve(initiative)


def may_claim(initiative: Initiative, seat: int) -> bool:
    """Whether the seat may play INITIATIV now: it takes part in this roll (it rolled or is to roll, it has not
    passed) and has not claimed already."""
    if seat in initiative.claims or seat in initiative.passed or initiative.out[seat]:
        return False
    return any(seat in group for group in initiative.groups)


def _apply_claims(initiative: Initiative) -> None:
    """The claimants go first as one group (several roll off), the others keep their order after them."""
    claims = [s for s in initiative.claims if any(s in group for group in initiative.groups)]
    initiative.claims = []
    if not claims:
        return
    rest = [[s for s in group if s not in claims] for group in initiative.groups]
    initiative.groups = [claims, *(group for group in rest if group)]


def _resolve(initiative: Initiative) -> None:
    """If the first group holds several seats, they roll (again); INITIATIV claims first."""
    if initiative.claims:
        _apply_claims(initiative)
    initiative.to_roll = []
    if initiative.groups and len(initiative.groups[0]) > 1:
        initiative.to_roll = list(initiative.groups[0])


def roller(initiative: Initiative) -> int:
    """The seat rolling now, or -1."""
    return initiative.to_roll[0] if initiative.to_roll else -1


def holder(initiative: Initiative) -> int:
    """The seat with initiative now, or -1 while seats still roll or once everyone has passed."""
    if initiative.to_roll or not initiative.groups:
        return -1
    return initiative.groups[0][0]


def roll(initiative: Initiative, face: int) -> None:
    """The rolling seat's D10 shows `face`; once the group has rolled it splits by roll, highest first."""
    seat = initiative.to_roll.pop(0)
    initiative.rolls[seat] = face
    if initiative.to_roll:
        return
    group = initiative.groups.pop(0)
    faces = sorted({initiative.rolls[s] for s in group}, reverse=True)
    split = [[s for s in group if initiative.rolls[s] == f] for f in faces]
    initiative.groups[0:0] = split
    _resolve(initiative)


def pass_initiative(initiative: Initiative, mode: str) -> None:
    """The holder passes: initiative goes to the next highest roll (ties there roll again)."""
    seat = initiative.groups.pop(0)[0]
    initiative.passed.append(seat)
    if mode == REST_OF_PHASE:
        initiative.out[seat] = True
    _resolve(initiative)


def everyone_passed(initiative: Initiative) -> bool:
    """Whether no seat is left to take initiative on this roll (everyone passed, or no one has ships)."""
    return not initiative.groups and not initiative.to_roll
