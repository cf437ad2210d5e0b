"""A live table: one game's state in memory, rebuilt from its stored actions, with its seats, log, clients and bots.

What each viewer is told of it is `skald.web.projection`; the tables in memory, their commits, their catching up
with other processes and their bots are `skald.web.registry` and the modules it builds on.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, overload

from skald.bots.base import Bot
from skald.bots.spec import make_bot
from skald.engine import (
    CHANCE,
    PERFECT,
    Departures,
    StandingAnswer,
    State,
    Step,
    TakeBack,
    get_game,
    step_of,
    take_back,
)
from skald.engine.presentation import kept_answer, only_answer
from skald.engine.standings import NO_DEPARTURES
from skald.web.chat import TableChat
from skald.web.client import Client
from skald.web.clocks import ClockSetting, ClockState
from skald.web.store.schema import GameRow

HUMAN = "human"
#: The bot that plays a seat whose person resigned, while the game goes on for the others.
STAND_IN = "greedy"


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


def secret_seed(secret: bytes, game_id: str, stored: int) -> int:
    """A game's 256-bit chance seed: its stored seed mixed with the server's secret, so that no record, however
    long, lets anyone search for the seed offline and foresee the draws to come."""
    return int.from_bytes(hmac.new(secret, f"skald-seed:{game_id}:{stored}".encode(), hashlib.sha256).digest(), "big")


@dataclass(eq=False)
class LogEntry:
    """One action in the log: as everyone may see it once the game is over (`whole`) and, in an imperfect-information
    game, as each viewer saw it during play (`seen`: the seats in order, then the spectator)."""

    whole: dict[str, Any]
    seen: list[dict[str, Any]] | None = None
    #: Who took it and whether it revealed anything (`skald.engine.undo`); whether the table gave it for a person
    #: (his only or standing answer, where everyone can tell): taken back only with his decision before it.
    step: Step = field(default_factory=lambda: Step(CHANCE, True))
    given: bool = False

    def for_viewer(self, viewer: int | None, over: bool) -> dict[str, Any]:
        """The entry as `viewer` (None: a spectator) may see it now."""
        if self.seen is None or over:
            return self.whole
        return self.seen[len(self.seen) - 1 if viewer is None else viewer]


def sections_once(entries: list[dict[str, Any]], before: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """`entries` as sent: an entry's `turn` and `phase` only where they differ from the entry before it — in the
    list, or for the first, `before` (the log's entry just before these, which the client already has) — since a
    client draws a heading only where they change. Half a whole Vikingatid log's bytes would otherwise be the same
    two names again and again; and a log put together from updates is the same as the whole log sent at once."""
    sent = []
    turn, phase = (None, None) if before is None else (before.get("turn"), before.get("phase"))
    for entry in entries:
        if "turn" in entry and entry["turn"] == turn and entry.get("phase") == phase:
            entry = {key: value for key, value in entry.items() if key not in ("turn", "phase")}
        else:
            turn, phase = entry.get("turn"), entry.get("phase")
        sent.append(entry)
    return sent


@dataclass
class SeatInfo:
    """A seat at a live table."""

    name: str
    kind: str
    token_hash: str | None
    #: Null, or the seat's place in the order of resignations (1: the first to resign), and the ply it came at.
    resigned: int | None = None
    resigned_ply: int | None = None
    #: True while the seat is open to anyone (nobody has taken it yet), False once taken, None if it never was open.
    open: bool | None = None
    #: The ply at which the table's rule gave the seat to its stand-in bot (its clock ran out), or None while its
    #: person plays it; and whether he asked for it back (he gets it at his next turn).
    away_ply: int | None = None
    returning: bool = False
    #: The seconds his live clock was given back on his returns (`ClockState.credit`).
    credit: float = 0.0

    @property
    def away(self) -> bool:
        """Whether a bot plays the seat for its absent person."""
        return self.away_ply is not None


@dataclass(eq=False)
class ViewCache:
    """What the table's viewers were last told, each with the version it was made at (`skald.web.projection` makes
    and reads it): in an imperfect-information game the boards and texts are kept per viewer."""

    boards: dict[int | None, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    texts: dict[int | None, tuple[int, str]] = field(default_factory=dict)
    #: The mover's legal actions and their JSON text, bare and with the game's words.
    legal: tuple[int, list[dict[str, Any]], str] | None = None
    words: tuple[int, list[dict[str, Any]], str] | None = None
    #: Each action id's JSON form, its canonical text (`skald.engine.target_key`), the start of its entry in the
    #: legal actions' JSON text and, in a game of `fixed_notation`, its notation (ending that start), made once a
    #: game: the form is the same in every position (docs/engine.md).
    forms: dict[int, tuple[Any, str, str, str]] = field(default_factory=dict)

    def forget_boards(self) -> None:
        """Drop the cached boards: they are drawn for watchers, and with none left the next move outdates them."""
        self.boards.clear()
        self.texts.clear()


class _Steps(Sequence[Step]):
    """The steps of a log's entries, read in place."""

    def __init__(self, log: list[LogEntry]) -> None:
        self.log = log

    def __len__(self) -> int:
        return len(self.log)

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Step]: ...
    def __getitem__(self, index: int | slice) -> Step | Sequence[Step]:
        if isinstance(index, slice):
            return [entry.step for entry in self.log[index]]
        return self.log[index].step


class _Given(Collection[int]):
    """The plies of a log the table gave for a person, read in place."""

    def __init__(self, log: list[LogEntry]) -> None:
        self.log = log

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.log[index].given

    def __iter__(self) -> Iterator[int]:
        return (index for index, entry in enumerate(self.log) if entry.given)

    def __len__(self) -> int:
        return sum(1 for entry in self.log if entry.given)


class LiveTable:
    """One live game: the state, its version (actions so far), seats, log, watchers and bots."""

    def __init__(self, row: GameRow, seats: list[SeatInfo], state: State, secret: bytes = b"") -> None:
        self.id = row.id
        self.game = get_game(row.game)
        #: Whether chance draws from the server's secret mixed in (else from the stored seed, chosen by a test).
        self.secret_seed = bool(row.secret_seed) and bool(secret)
        self.seed = secret_seed(secret, row.id, row.seed) if self.secret_seed else row.seed
        self.options = dict(row.options)
        self.seats = seats
        self.state = state
        self.rematch_id = row.rematch_id
        #: When the game was made (UTC), for the lobby's list of games.
        self.created_at = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
        self.lock = asyncio.Lock()
        self.chat = TableChat(row.id, bool(row.chat_spectators))
        self.clients: set[Client] = set()
        #: Whether the seats left agreed to end the game with a shared result; a draw offered, as (seat, version).
        self.agreed = bool(row.agreed)
        self.draw_offer: tuple[int, int] | None = None
        #: The time control and its rule for a seat whose clock runs out, and the seats' clocks once the table has
        #: started (`skald.web.clock_watch` keeps them).
        self.clock_setting = ClockSetting.from_json(row.clock)
        self.clock: ClockState | None = None
        #: The stored seed (bots are seeded by it and their seat) and when the table started (None: it waits).
        self.stored_seed = row.seed
        started = row.started_at or (None if any(info.open is True for info in seats) else row.created_at)
        self.started_at = None if started is None else started if started.tzinfo else started.replace(tzinfo=UTC)
        self.bots: dict[int, Bot] = {
            seat: make_bot(self.bot_spec(seat), seed=row.seed + seat)
            for seat, info in enumerate(seats)
            if info.kind != HUMAN or info.resigned is not None or info.away
        }
        #: The client address (its rate-limit key) that created the game in this process, for the limit on bot games
        #: per client; None for a game loaded from the database.
        self.owner: str | None = None
        #: Whether some seat may not see all that happens: then logs, views and caches are kept per viewer.
        self.imperfect = self.game.information != PERFECT
        self.log: list[LogEntry] = []
        #: How many times a seat took steps back (stored: a commit is checked against it), and each time, as (seat,
        #: the version it went back to, the actions taken back), for the log.
        self.undos = row.undos or 0
        self.undone: list[tuple[int, int, int]] = []
        self.cache = ViewCache()
        #: The legal actions last asked of a position, with the state and ply they are of (`legal_actions`).
        self._legal: tuple[State, int, list[int]] | None = None
        #: The standing answer each person's seat keeps (`Presentation.standing_answer`), by its name: the table
        #: answers with it for him until his next decision of another kind. Kept in memory only.
        self.standing: dict[int, StandingAnswer] = {}
        self.driver: asyncio.Task[None] | None = None
        #: Requests and WebSocket sessions holding the table now; while any do, it stays in memory.
        self.holders = 0
        #: When it was last held, released or moved (`time.monotonic()`), for dropping idle tables.
        self.last_used = time.monotonic()
        replay = self.game.new_initial_state(state.num_players, self.options)
        for action in state.history:
            self.log.append(self.entry(replay, action))
            replay.apply(action)
        self.find_given()

    @property
    def version(self) -> int:
        """How many actions the game has: a move must name this version to be accepted."""
        return len(self.state.history)

    @property
    def busy(self) -> bool:
        """Whether someone holds the table or its bots and chance are moving (every commit in flight is awaited by
        one of these): then it must stay in memory."""
        return self.holders > 0 or (self.driver is not None and not self.driver.done())

    @property
    def departures(self) -> Departures:
        """The seats that resigned, first to resign first, and whether those left agreed to end the game."""
        resigned = sorted((info.resigned, seat) for seat, info in enumerate(self.seats) if info.resigned is not None)
        if not resigned and not self.agreed:
            return NO_DEPARTURES
        return Departures(tuple(seat for _order, seat in resigned), self.agreed)

    @property
    def waiting(self) -> int:
        """How many seats are still open: while any is, the table waits and nobody moves."""
        return sum(1 for info in self.seats if info.open is True)

    @property
    def over(self) -> bool:
        """Whether the game is over: on the board, or off it (`Departures.decided`)."""
        state = self.state
        if state.is_terminal():
            return True
        # Off the board only by an agreement or a resignation: a move asks this a dozen times.
        if not self.agreed and all(info.resigned is None for info in self.seats):
            return False
        return self.departures.decided(state)

    def legal_actions(self, state: State) -> list[int]:
        """`state.legal_actions()`, kept for the position last asked: a move's answers given by the table, its
        broadcast and the driver ask it of the same position. The list is shared: read it, never change it."""
        ply = len(state.history)
        kept = self._legal
        if kept is not None and kept[0] is state and kept[1] == ply:
            return kept[2]
        actions = state.legal_actions()
        self._legal = (state, ply, actions)
        return actions

    def only_answer(self, state: State) -> int | None:
        """The one legal action of the seat to act at `state`, or None (`skald.engine.presentation.only_answer`)."""
        return only_answer(state, self.legal_actions(state)) if state.current_player() >= 0 else None

    @property
    def status(self) -> str:
        """`playing` or `over`."""
        return "over" if self.over else "playing"

    @property
    def public(self) -> bool:
        """Whether every viewer may now see everything that happened: a perfect-information game, or one that is
        over (the end reveals the whole record)."""
        return not self.imperfect or self.over

    def bot_spec(self, seat: int) -> str:
        """The bot that plays `seat`: its own, the stand-in for a person who resigned, or the table's stand-in for one
        whose clock ran out (`ClockSetting.stand_in`)."""
        info = self.seats[seat]
        if info.kind != HUMAN:
            return info.kind
        if info.away and info.resigned is None and self.clock_setting is not None:
            return self.clock_setting.stand_in
        return STAND_IN

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for, or None (every token is URL-safe ASCII; anything else is none)."""
        if not token or not token.isascii():
            return None
        digest = token_hash(token)
        for seat, info in enumerate(self.seats):
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                return seat
        return None

    def find_given(self) -> None:
        """Mark which of a person's last steps the table gave for him (his only answer, where everyone can tell it
        was: `skald.web.driving.add`): only the run of steps he may take back matters, and the moves table does not
        keep it, so it is found again by replaying that run alone."""
        seat = self.log[-1].step.actor if self.log else CHANCE
        if seat < 0 or seat in self.bots:
            return
        start = len(self.log) - self.take_back(seat).most
        if start == len(self.log):
            return
        replay = self.game.new_initial_state(self.state.num_players, self.options)
        for action in self.state.history[:start]:
            replay.apply(action)
        for entry, action in zip(self.log[start:], self.state.history[start:], strict=True):
            entry.given = only_answer(replay) is not None and replay.forced_is_public()
            replay.apply(action)

    def take_back(self, seat: int) -> TakeBack:
        """How far `seat` may go back now (`skald.engine.undo`), over the log's steps (read from the end, only as far
        as the rule looks)."""
        return take_back(_Steps(self.log), seat, _Given(self.log))

    def rewind(self, state: State, undo: tuple[int, int, int] | None) -> None:
        """Make `state`, an earlier position of the game, the table's, after `undo` (seat, version, actions taken
        back; None when another process took steps back, read with the rest): the log and every view made since are
        forgotten, and so are a draw offered and the seat's standing answer."""
        self.state = state
        del self.log[len(state.history) :]
        if undo is not None:
            self.undos += 1
            self.undone.append(undo)
            self.standing.pop(undo[0], None)
        self.cache = ViewCache(forms=self.cache.forms)
        self.draw_offer = None

    def entry(self, state: State, action: int, given: bool = False) -> LogEntry:
        """The log entry of `action`, about to be taken at `state` (`given` by the table for a person): whole, and as
        each viewer sees it."""
        player = state.current_player()
        step = step_of(state, action)
        base = {
            "ply": len(state.history),
            "seat": None if player == CHANCE else player,
            "name": "chance" if player == CHANCE else self.seats[player].name,
        }
        # The turn and phase the log groups the entry under, and what a roll decided: public words of the game.
        presentation = self.game.presentation
        turn, phase = presentation.section(state)
        if turn:
            base["turn"] = turn
            base["phase"] = phase
        says = presentation.outcome(state, action) if player == CHANCE else ""
        whole = base.copy() if self.imperfect else base
        notation = whole["notation"] = state.action_to_notation(action)
        if says:
            whole["says"] = says
        if not self.imperfect:
            return LogEntry(whole, None, step, given)
        viewers: list[int | None] = [*range(state.num_players), None]
        seen = []
        for viewer in viewers:
            shown = state.notation_for(action, viewer)
            # An outcome hidden from the viewer (a card drawn) comes without its words.
            seen.append(
                {**base, "notation": shown, "says": says} if says and shown == notation else {**base, "notation": shown}
            )
        return LogEntry(whole, seen, step, given)

    def given_answer(self, state: State) -> int | None:
        """The answer the table gives, unasked, for the person to act at `state`: the standing answer he keeps if
        this decision takes it, else his only answer, else None (he is asked). Forgets nothing."""
        player = state.current_player()
        kept = self.standing.get(player)
        if kept is not None:
            offer = self.game.presentation.standing_answer(state)
            if offer is not None and offer.name == kept.name:
                return offer.action
        return self.only_answer(state)

    def standing_action(self, state: State) -> int | None:
        """The action the seat to act in `state` answers with by its standing answer, or None. A decision where the
        game offers that seat no answer of the kind it keeps ends it (`Presentation.standing_answer`)."""
        return kept_answer(state, self.standing)
