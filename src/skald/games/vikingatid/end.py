"""Phase 11, "Next turn", and "Winning the game": the end of the game, the next turn, the winners and the returns.

Rule text (11. Next turn): "If all players are christianised, the game is over. Otherwise, the turn marker is moved
one step further, and a new turn begins." (10. Christianisation): "When all players have become christianised, the
game ends after this turn." Winning the game: "When the game ends, each player gets one victory point for each of
his camps. The player with the most victory points at the end of the game wins."

Skald's readings (VA-03, VA-05, VA-63): the end is checked only in phase 11, so the turn in which the last player
converts is played to its end. The track is data; under `last_year` "1125" (the default) or "1100" the game also
ends after phase 11 of the box of that year even with a pagan left; under "none" only an all-Christian table ends
it. The final +1 VP per camp is `victory_points.final_scoring`. The most VP wins; under `tie_break: shared` (the
default) tied players share the victory; `most_silver` or `most_conquered` (most conquered areas, `conquest`) break
the tie first, and a tie that remains is shared. Returns follow the engine's convention (`State.returns`): each of
the k winners gets 1/k, everyone else 0. Options read: `last_year`, `tie_break`.

Skald's truncation (no rule text: the rules let a game run on, since a tied roll is rolled again without limit and
under `last_year: none` the turns have none): a game ends at once after its `action_limit`-th action, chance
included (`ACTIONS_PER_SEAT` a seat), with the final scoring and the winners as at the end of the game. Random games
stay far below it (docs/vikingatid.md, "How long a game lasts"), so it is what makes `max_game_length` true.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.board import Board
from skald.games.vikingatid.conquest import conquered_count
from skald.games.vikingatid.position import Position

NO_LAST_YEAR: Final = "none"
SHARED: Final = "shared"
MOST_SILVER: Final = "most_silver"
MOST_CONQUERED: Final = "most_conquered"
TIE_BREAKS: Final = (SHARED, MOST_SILVER, MOST_CONQUERED)
#: The actions a game may last per seat, chance included, before it ends as it stands (the truncation above).
ACTIONS_PER_SEAT: Final = 5_000


def action_limit(num_players: int) -> int:
    """The action, chance included, after which a game of `num_players` ends at the latest (`ACTIONS_PER_SEAT` a
    seat): `Game.max_game_length`."""
    return ACTIONS_PER_SEAT * num_players


def last_turn(board: Board, last_year: str) -> int:
    """The turn of the track's box for `last_year` ("1125", "1100"), or 0 for "none" (no last box); `ValueError`
    naming the value if the track has no such box."""
    if last_year == NO_LAST_YEAR:
        return 0
    track = board.turn_track
    for box in track.turns:
        if str(box.year) == last_year:
            return box.turn
    raise ValueError(
        f"last_year: {last_year!r} is not a year on the turn track nor 'none' "
        f"(the track's options: {', '.join(track.last_year_options)})"
    )


def game_over(position: Position, last_year: str) -> bool:
    """Whether the game ends at this phase 11: every player is Christian, or this is the last box under
    `last_year` (VA-05)."""
    if all(position.christian):
        return True
    last = last_turn(position.board, last_year)
    return last > 0 and position.turn >= last


def next_turn(position: Position) -> None:
    """The Year marker moves one box on (the state then starts the turn and its first seat, VA-06)."""
    position.turn += 1


def winners(position: Position, tie_break: str) -> list[int]:
    """The seats that share the victory, ascending: most VP; under `most_silver` / `most_conquered` the tied with the
    most silver / conquered areas; whoever is still tied shares (VA-63)."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break: {tie_break!r} is not one of {list(TIE_BREAKS)}")
    best = max(position.vp)
    tied = [seat for seat in range(position.num_players) if position.vp[seat] == best]
    if len(tied) > 1 and tie_break != SHARED:
        measure = list(position.silver) if tie_break == MOST_SILVER else conquered_count(position)
        top = max(measure[seat] for seat in tied)
        tied = [seat for seat in tied if measure[seat] == top]
    return tied


def returns(position: Position, winners: list[int]) -> list[float]:
    """Per seat: 1/k to each of the k winners, 0 to the others (the engine's `State.returns`); all 0 when
    `winners` is empty (before the end)."""
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else 0.0 for seat in range(position.num_players)]
