"""A request to create a game, read: which game, each seat's name and kind, the options and the seed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skald.engine import listed_games
from skald.web.clocks import ClockSetting
from skald.web.errors import TableError
from skald.web.live_table import HUMAN, LiveTable
from skald.web.names import clean_name, distinct_names
from skald.web.registry import Tables
from skald.web.schemas import ClockIn, CreateIn, SeatIn
from skald.web.settings import Settings


def seat_names(seats: list[SeatIn]) -> list[str]:
    """Each seat's name: as given (checked and tidied), else `Player N` for a person and `Bot (level)` for a bot,
    numbered by seat when two bots share a level; refused if two seats would look alike."""
    levels = [seat.bot for seat in seats if seat.kind == "bot"]
    names = []
    for index, seat in enumerate(seats):
        name = clean_name(seat.name, f"seats.{index}.name") if seat.kind != "open" else open_name(index)
        if not name and seat.kind == "human":
            name = f"Player {index + 1}"
        elif not name:
            name = f"Bot ({seat.bot})" if levels.count(seat.bot) == 1 else f"Bot {index + 1} ({seat.bot})"
        names.append(name)
    distinct_names(names)
    return names


def open_name(seat: int) -> str:
    """What an open seat is called until someone takes it."""
    return f"Seat {seat + 1} (open)"


def open_seats(seats: list[SeatIn]) -> tuple[int, ...]:
    """The seats open to anyone; refused if none is the creator's own (a person seat not open): the creator is who
    may start the table with bots before every seat is taken."""
    found = tuple(index for index, seat in enumerate(seats) if seat.kind == "open")
    if found and not any(seat.kind == "human" for seat in seats):
        raise TableError("seats", "seats: an open table needs its creator's own seat (a person seat that is not open)")
    return found


def clock_setting(clock: ClockIn | None) -> ClockSetting | None:
    """The time control a creation asks for, with its rule for a seat whose clock runs out, or None."""
    if clock is None or clock.kind == "none":
        return None
    if clock.kind == "live":
        return ClockSetting("live", clock.bank, clock.increment, 0.0, clock.timeout, clock.stand_in)
    return ClockSetting("turn", 0.0, 0.0, clock.days * 86400.0, clock.timeout, clock.stand_in)


@dataclass(frozen=True)
class Creation:
    """A game to create, as `Tables.create` is given it, for the client (its rate-limit key) `owner`."""

    game: str
    seats: list[tuple[str, str]]
    options: dict[str, Any]
    seed: int | None
    owner: str
    chat_spectators: bool
    #: The time control as stored (`ClockSetting.to_json`), or None.
    clock: dict[str, Any] | None = None
    #: The seats open to anyone who joins (the table waits for them before anyone moves).
    open: tuple[int, ...] = ()

    @classmethod
    def of(cls, body: CreateIn, settings: Settings, owner: str) -> Creation:
        """The creation `body` asks for; a seed is refused unless the server lets clients choose one."""
        if body.seed is not None and not settings.allow_client_seeds:
            raise TableError("seed", "seed: chosen by the server (from its secret), so nobody can foresee the draws")
        names = seat_names(body.seats)
        seats = [
            (name, seat.bot if seat.kind == "bot" else HUMAN) for name, seat in zip(names, body.seats, strict=True)
        ]
        setting = clock_setting(body.clock)
        return cls(
            body.game or listed_games()[0],
            seats,
            dict(body.options),
            body.seed,
            owner,
            body.chat_spectators,
            None if setting is None else setting.to_json(),
            open_seats(body.seats),
        )

    async def make(self, tables: Tables, claimed_later: bool = False) -> tuple[LiveTable, list[str | None]]:
        """Create the game; returns the table and each person seat's new token (see `Tables.create`)."""
        return await tables.create(
            self.game,
            self.seats,
            dict(self.options),
            self.seed,
            claimed_later=claimed_later,
            owner=self.owner,
            chat_spectators=self.chat_spectators,
            clock=None if self.clock is None else dict(self.clock),
            open_seats=self.open,
        )
