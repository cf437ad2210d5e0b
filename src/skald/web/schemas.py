"""The JSON bodies of the web table's HTTP API: what a request carries and what a refusal says."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: The bots a seat may be given at the web table (a bound on the server's thinking per move). `learned` plays the
#: model shipped for the game and player count, and is refused at a table that has none.
BOT_LEVELS = ("random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard", "learned")
#: The most rule options a request to create a game may carry.
MAX_OPTIONS = 128
Level = Literal["random", "greedy", "mcts:easy", "mcts:normal", "mcts:hard", "learned"]


class SeatIn(BaseModel):
    """A seat in a game to create: a person, a bot at a level, or a seat open to anyone who joins."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=40)
    kind: Literal["human", "bot", "open"] = "human"
    bot: Level = "mcts:normal"


class ClockIn(BaseModel):
    """A game's time control: none; live (`bank` seconds per seat, plus `increment` seconds a move); or turn-based
    (`days` for each move)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["none", "live", "turn"] = "none"
    bank: int = Field(600, ge=1, le=4 * 3600, strict=True)
    increment: int = Field(0, ge=0, le=600, strict=True)
    days: int = Field(3, ge=1, le=30, strict=True)
    #: The table's rule for a seat whose clock runs out: expelled and scored last, played by the `stand_in` bot until
    #: its player comes back, or its turns passed where the rules allow (else the bot plays them).
    timeout: Literal["expel", "bot", "pass"] = "expel"
    stand_in: Level = "greedy"


class CreateIn(BaseModel):
    """A request to create a game."""

    model_config = ConfigDict(extra="forbid")
    game: str | None = Field(None, max_length=40)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    # The lobby sends every rule option of the game (Vikingatid has 64); the bound keeps a request small.
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    seed: int | None = Field(None, ge=0, lt=2**48, strict=True)
    #: Whether spectators may read and write in the table chat (the seats always may).
    chat_spectators: bool = Field(False, strict=True)
    clock: ClockIn | None = None


class JoinIn(BaseModel):
    """Taking an open seat: as a guest under `name`, or (`account`) as the signed-in account; the first open seat
    unless `seat` names one."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=40)
    account: bool = Field(False, strict=True)
    seat: int | None = Field(None, ge=0, le=7, strict=True)


class StartIn(BaseModel):
    """The creator starts his open table now, a bot at `bot`'s level in each seat still open."""

    model_config = ConfigDict(extra="forbid")
    bot: Level = "greedy"


class MoveIn(BaseModel):
    """A move submitted over HTTP."""

    model_config = ConfigDict(extra="forbid")
    version: int
    action: dict[str, Any]
    seat: int | None = None


class WhyIn(BaseModel):
    """A question over HTTP: why is this action not a choice now?"""

    model_config = ConfigDict(extra="forbid")
    action: dict[str, Any]


class DrawIn(BaseModel):
    """A seat's word on a draw: offer one, accept the one offered, or decline it."""

    model_config = ConfigDict(extra="forbid")
    act: Literal["offer", "accept", "decline"]


class ErrorDetail(BaseModel):
    """What a refusal says: a short code for programs and a message for people, naming the field at fault."""

    code: str
    message: str


class ErrorOut(BaseModel):
    """A refused request's body."""

    error: ErrorDetail
