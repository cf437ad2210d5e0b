"""Open tables: a game made with seats open to anyone, listed in the lobby, each seat taken with one click (by a
signed-in account, or by a guest under a name), starting when the last one is taken or when its creator starts it
with bots in the seats still open. Until then the table waits: nobody moves, chance draws nothing, no clock runs.

The creator is the table's first person seat that was never open (`projection.host_seat`). Every join and start is
judged by the database (`OpenSeatStore`), so two people taking the last seat at once get one seat and one refusal;
another server process on the database learns of a join when it loads the table again.
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime
from typing import Any

from skald.bots.spec import make_bot
from skald.engine import get_game
from skald.web import projection
from skald.web.errors import TableError
from skald.web.live_table import LiveTable, token_hash
from skald.web.names import clean_name, likeness
from skald.web.registry import Tables, check_level
from skald.web.store.schema import GameRow, SeatRow

#: The most open tables the lobby lists, newest first.
LISTED = 100
#: Why the database refused a join, as said to the person.
REFUSED = {
    "over": ("game_over", "join: the game is over"),
    "started": ("started", "join: the table has started: every seat is taken"),
    "taken": ("seat_taken", "join: that seat was taken meanwhile; choose another open seat"),
    "claimed": ("claimed", "join: your account has a seat at this table already"),
}


def aware(stamp: datetime) -> datetime:
    """A stored time with its zone (SQLite gives it back without, and it is UTC)."""
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def listing(row: GameRow, seats: list[SeatRow]) -> dict[str, Any]:
    """What the lobby is told of one open table: the game, the options that differ from the game's defaults (in
    words), the clock and its rule, each seat (open or whose), how many are free and who waits, and when it was
    made."""
    game = get_game(row.game)
    options = [
        {"name": o.name, "title": o.heading(), "label": o.choice_label(row.options[o.name])}
        for o in game.options
        if o.name in row.options and row.options[o.name] != o.default
    ]
    return {
        "id": row.id,
        "game": game.name,
        "title": game.title,
        "players": row.players,
        "options": options,
        "clock": row.clock,
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "open": bool(s.is_open)} for s in seats],
        "free": sum(1 for s in seats if s.is_open),
        "waiting": [s.name for s in seats if s.kind == "human" and not s.is_open],
        "created_at": aware(row.created_at).isoformat(),
        "url": f"/table/{row.id}",
    }


async def open_tables(tables: Tables) -> list[dict[str, Any]]:
    """The tables waiting for players, newest first (read from the database: every process's)."""
    found = await asyncio.to_thread(tables.stores.open_seats.waiting, LISTED)
    return [listing(row, seats) for row, seats in found]


def free_seat(table: LiveTable, wanted: int | None) -> int:
    """The open seat a join takes: `wanted`, else the first open one; refused with the reason."""
    if table.over:
        raise TableError("game_over", "join: the game is over", 409)
    if not table.waiting:
        raise TableError("started", "join: the table has started: every seat is taken", 409)
    if wanted is None:
        return next(seat for seat, info in enumerate(table.seats) if info.open is True)
    if wanted >= len(table.seats) or table.seats[wanted].open is not True:
        raise TableError("seat_taken", f"seat: seat {wanted + 1} is not open; choose an open seat", 409)
    return wanted


def joiner_name(table: LiveTable, seat: int, name: str) -> str:
    """The name a person joins under, checked as seat names are and told apart from the names already seated."""
    cleaned = clean_name(name, "name")
    if not cleaned:
        raise TableError("name", "name: give the name the table will call you by (or sign in)")
    for other, info in enumerate(table.seats):
        if other != seat and info.open is not True and likeness(info.name) == likeness(cleaned):
            raise TableError(
                "name", f"name: {cleaned!r} looks like seat {other + 1}'s name; join under another name (as a guest)"
            )
    return cleaned


async def join(
    tables: Tables, table: LiveTable, name: str, account_id: str | None, wanted: int | None
) -> tuple[int, str]:
    """A person takes an open seat (kept in `account_id` if given): the seat and its new token. The last seat
    taken starts the table."""
    async with table.lock:
        seat = free_seat(table, wanted)
        if account_id is not None:
            kept = await asyncio.to_thread(tables.stores.seats.account_seat, table.id, account_id)
            if kept is not None:
                raise TableError(*REFUSED["claimed"], 409)
        cleaned = joiner_name(table, seat, name)
        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        code, started = await asyncio.to_thread(
            tables.stores.open_seats.join, table.id, seat, cleaned, digest, account_id
        )
        if code != "ok":
            raise TableError(*REFUSED[code], 409)
        info = table.seats[seat]
        info.name, info.token_hash, info.open = cleaned, digest, False
        if started is not None:
            begin(tables, table, started)
        seated(table)
    if started is not None:
        began(tables, table)
    return seat, token


def bot_names(table: LiveTable, seats: list[int], level: str) -> dict[int, tuple[str, str]]:
    """A name and `level` for the bot in each of `seats`: `Bot (level)`, numbered by seat where several would share
    it or a seat has it already."""
    names = {likeness(info.name) for info in table.seats if info.open is not True}
    plain = f"Bot ({level})"
    alone = len(seats) == 1 and likeness(plain) not in names
    return {seat: (plain if alone else f"Bot {seat + 1} ({level})", level) for seat in seats}


async def start(tables: Tables, table: LiveTable, seat: int, level: str, owner: str | None) -> None:
    """The creator (`seat`) starts his table now, a bot at `level` in each seat still open."""
    async with table.lock:
        if table.over:
            raise TableError("game_over", "start: the game is over", 409)
        if not table.waiting:
            raise TableError("started", "start: the table has started already", 409)
        host = projection.host_seat(table)
        if seat != host:
            where = "" if host is None else f" (seat {host + 1})"
            raise TableError("host", f"start: only the table's creator{where} may start it with bots", 403)
        tables.check_bot_games(owner)
        check_level(level, table.game, len(table.seats), "bot", "bot")
        bots = bot_names(table, [s for s, info in enumerate(table.seats) if info.open is True], level)
        started = await asyncio.to_thread(tables.stores.open_seats.fill, table.id, bots)
        if started is None:
            raise TableError("started", "start: someone took a seat meanwhile; look again", 409)
        for bot_seat, (name, kind) in bots.items():
            info = table.seats[bot_seat]
            info.name, info.kind, info.open = name, kind, False
            table.bots[bot_seat] = make_bot(kind, seed=table.stored_seed + bot_seat)
        table.owner = table.owner or owner
        begin(tables, table, started)
        seated(table)
    began(tables, table)


def begin(tables: Tables, table: LiveTable, started: datetime) -> None:
    """The table has started now: its clocks run from this moment."""
    table.started_at = aware(started)
    setting = table.clock_setting
    tables.clocks.start(table, None if setting is None else setting.to_json(), table.started_at, [])


def seated(table: LiveTable) -> None:
    """Tell everyone at the table who sits where now (`seats`, with the summary), then the table as it is."""
    projection.notify(table, {"type": "seats", "game": projection.summary(table)})
    projection.broadcast(table, [])


def began(tables: Tables, table: LiveTable) -> None:
    """After the start: the table was used, and its chance and bots carry on."""
    tables.commits.adopted(table, False)
    tables.driver.drive(table)
