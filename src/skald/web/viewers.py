"""Whose view a request gets: the seat its bearer token or its signed-in account holds, or one it names."""

from __future__ import annotations

import secrets

from fastapi import Request

from skald.web.accounts import SESSION_COOKIE, Accounts
from skald.web.errors import TableError
from skald.web.guard import bearer
from skald.web.live_table import LiveTable, token_hash


def own_seat(token_hashes: list[str | None], token: str | None) -> int | None:
    """The seat whose token hash is that of `token`, or None (as `LiveTable.seat_of`, from a finished game's facts)."""
    if not token:
        return None
    digest = token_hash(token)
    for seat, stored in enumerate(token_hashes):
        if stored is not None and secrets.compare_digest(stored, digest):
            return seat
    return None


def viewer_for(seats: int, public: bool, own: int | None, asked: str | None) -> int | None:
    """Whose view a request gets: the bearer token's seat `own` (None: a spectator), or the seat named by `?seat=`
    (a number, or `spectator`) — another seat's only when nothing is hidden from anyone (a perfect-information
    game, or one that is over); asking for it otherwise is refused (403), never answered."""
    if asked is None:
        return own
    if asked == "spectator":
        return None
    if not asked.isdigit() or not 0 <= int(asked) < seats:
        raise TableError("seat", f"seat: expected a seat number 0–{seats - 1} or 'spectator'")
    seat = int(asked)
    if seat != own and not public:
        raise TableError(
            "hidden",
            f"seat: the view of seat {seat} is hidden from {'a spectator' if own is None else f'seat {own}'} "
            "until the game is over",
            403,
        )
    return seat


async def you(accounts: Accounts, game_id: str, request: Request, by_token: int | None) -> int | None:
    """The seat the asker holds: by its bearer token, else the seat its signed-in account claimed."""
    if by_token is not None:
        return by_token
    return await accounts.seat_in(game_id, request.cookies.get(SESSION_COOKIE))


async def viewer_of(accounts: Accounts, table: LiveTable, request: Request, asked: str | None) -> int | None:
    """Whose view a request gets at a live table (see `viewer_for`): its token's seat, or its account's."""
    own = await you(accounts, table.id, request, table.seat_of(bearer(request)))
    return viewer_for(len(table.seats), table.public, own, asked)
