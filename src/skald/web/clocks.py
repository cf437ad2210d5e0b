"""Time controls: a clock per person's seat, live (a bank plus an increment per move, as on lichess and BGA) or
turn-based (so many days for each move, as on Yucata), or none.

Time is the server's, reckoned from stored timestamps: a seat's turn starts when the commit before it was written
and ends with the commit of its move, so the time each seat used is recomputed from the moves' `created_at` after a
restart or a SIGKILL exactly as it was counted live. Only people's seats are clocked (bots think in worker processes
on the server's time, and a seat whose person resigned is played by the stand-in bot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The kinds of clock a game may have.
KINDS = ("none", "live", "turn")
#: What the table does with a seat whose clock runs out: expel it (scored last, as a resignation), give it to a bot
#: until its player comes back, or pass its turns where the rules allow one (else the bot plays them).
TIMEOUT_RULES = ("expel", "bot", "pass")


@dataclass(frozen=True)
class ClockSetting:
    """A game's time control: `live` (a `bank` of seconds per seat, plus `increment` seconds for each of its moves)
    or `turn` (`per_move` seconds for each move); and the table's rule for a seat whose clock runs out (`timeout`,
    one of `TIMEOUT_RULES`), with the bot level that stands in for it under `bot` and `pass` (`stand_in`)."""

    kind: str
    bank: float = 0.0
    increment: float = 0.0
    per_move: float = 0.0
    timeout: str = "expel"
    stand_in: str = "greedy"

    def to_json(self) -> dict[str, Any]:
        """The stored form (`games.clock`)."""
        return {
            "kind": self.kind,
            "bank": self.bank,
            "increment": self.increment,
            "per_move": self.per_move,
            "timeout": self.timeout,
            "stand_in": self.stand_in,
        }

    @classmethod
    def from_json(cls, data: Any) -> ClockSetting | None:
        """The setting stored, or None for a game without a clock (a clock stored before the timeout rules expels)."""
        if not isinstance(data, dict) or data.get("kind") not in ("live", "turn"):
            return None
        timeout = data.get("timeout", "expel")
        return cls(
            str(data["kind"]),
            float(data["bank"]),
            float(data["increment"]),
            float(data["per_move"]),
            timeout if timeout in TIMEOUT_RULES else "expel",
            str(data.get("stand_in", "greedy")),
        )

    def reserve(self) -> float:
        """The seconds a live clock is given back with its seat when its player returns from a timeout: a fifth of
        the bank, at least the warning time (a turn-based clock gives every move its days anyway)."""
        return max(self.warning(), self.bank / 5)

    def warning(self) -> float:
        """Seconds left under which a clock warns its player: a tenth of the time (at least 10 s, at most an hour)."""
        whole = self.bank if self.kind == "live" else self.per_move
        return min(3600.0, max(10.0, whole / 10))


@dataclass
class ClockState:
    """The seats' clocks at a table: the time each seat used and its moves (live), and when the turn began."""

    setting: ClockSetting
    used: list[float]
    moves: list[int]
    #: When the current turn began (seconds since the epoch): the last commit's time, else the game's creation.
    since: float
    #: How many of the table's log entries are counted.
    counted: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    #: The seconds each seat's live clock was given back on its returns after timeouts (`ClockSetting.reserve`).
    credit: list[float] = field(default_factory=list)

    @classmethod
    def fresh(cls, setting: ClockSetting, players: int, created: float) -> ClockState:
        """The clocks of a game made at `created`."""
        return cls(setting, [0.0] * players, [0] * players, created)

    def count(self, movers: Sequence[int | None], at: float, clocked: Sequence[bool]) -> None:
        """Count one commit written at `at` of actions by `movers` (None: chance): the first clocked seat among them
        used the time since the turn began; each clocked seat's actions earn its increment."""
        charged = False
        for seat in movers:
            if seat is None or not clocked[seat]:
                continue
            if not charged:
                self.used[seat] += max(0.0, at - self.since)
                charged = True
            self.moves[seat] += 1
        self.since = at
        self.counted += len(movers)

    def left(self, seat: int, mover: int | None, now: float) -> float:
        """Seconds `seat` has left at `now`, its turn running if it is `mover`."""
        setting = self.setting
        running = max(0.0, now - self.since) if seat == mover else 0.0
        if setting.kind == "turn":
            return setting.per_move - running
        credit = self.credit[seat] if seat < len(self.credit) else 0.0
        return setting.bank + setting.increment * self.moves[seat] + credit - self.used[seat] - running

    def give_back(self, seat: int) -> float:
        """Give `seat`, whose turn begins now (at `since`) as its player returns, the reserve if its live clock has
        less; the seconds given."""
        if self.setting.kind != "live":
            return 0.0
        given = max(0.0, self.setting.reserve() - self.left(seat, None, self.since))
        while len(self.credit) <= seat:
            self.credit.append(0.0)
        self.credit[seat] += given
        return given

    def deadline(self, mover: int) -> float:
        """When `mover`'s flag falls (seconds since the epoch) if it does not move."""
        return self.since + self.left(mover, None, self.since)


def rebuilt(
    setting: ClockSetting, players: int, created: float, stamps: Sequence[tuple[int, float]], clocked: Sequence[bool]
) -> ClockState:
    """The clocks as the stored moves left them: `stamps` are each action's (seat, commit time) in order (a seat
    below 0 for chance); actions committed at one time were one commit."""
    state = ClockState.fresh(setting, players, created)
    batch: list[int | None] = []
    at = created
    for seat, stamp in stamps:
        if batch and stamp != at:
            state.count(batch, at, clocked)
            batch = []
        at = stamp
        batch.append(seat if seat >= 0 else None)
    if batch:
        state.count(batch, at, clocked)
    return state


def shown(state: ClockState | None, mover: int | None, now: float, clocked: Sequence[bool]) -> dict[str, Any] | None:
    """What every viewer is told of the clocks: the kind, each clocked seat's seconds left (rounded to tenths; null
    for a seat not clocked), whose clock runs, and the seconds under which a clock warns."""
    if state is None:
        return None
    running = mover if mover is not None and clocked[mover] else None
    return {
        "kind": state.setting.kind,
        "left": [round(state.left(seat, running, now), 1) if on else None for seat, on in enumerate(clocked)],
        "running": running,
        "warning": state.setting.warning(),
    }
