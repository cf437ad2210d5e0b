"""Who sits where in each game of a tournament, so that every bot gets every seat equally often."""

from __future__ import annotations

from itertools import permutations


def entrant_names(specs: list[str], num_players: int) -> list[str]:
    """One name per entrant: the specs, the last repeated to fill the seats, repeats numbered `#2`, `#3`."""
    if not specs:
        raise ValueError("bots: name at least one bot")
    roster = list(specs) + [specs[-1]] * max(0, num_players - len(specs))
    seen: dict[str, int] = {}
    names = []
    for spec in roster:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return names


def spec_of(name: str) -> str:
    """The bot spec behind an entrant name (`greedy#2` → `greedy`)."""
    return name.split("#", 1)[0]


def lineups(names: list[str], num_players: int) -> list[tuple[str, ...]]:
    """The cycle of seatings: the rotations when there are as many entrants as seats, else every ordered pick.

    Game `g` uses `lineups[g % len(lineups)]`; over a whole cycle each entrant sits in each seat as often.
    """
    if len(names) == num_players:
        return [
            tuple(names[(seat + shift) % num_players] for seat in range(num_players)) for shift in range(num_players)
        ]
    return list(permutations(names, num_players))
