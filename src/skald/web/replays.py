"""Past positions for the replay: rebuilt from checkpoints in a thread of their own, kept within a memory budget.

A replay of ply P used to replay the game's first P actions and draw the board inside the request, on the event
loop: a deep ply of a long Vikingatid game held every table of the process for most of a second. Here:

- **Checkpoints.** The first replay of a game keeps a copy of the position every `EVERY` plies as it goes (a state's
  `clone()` is cheap); any later replay starts from the checkpoint at or before its ply, so it applies fewer than
  `EVERY` actions. At most `CHECKPOINTS` are kept, the game replayed longest ago forgotten first.
- **Off the event loop.** The position, its board, its log and the JSON text are made in one replay thread
  (`ThreadPoolExecutor(1)`), never in the handler. A thread and not a process: a replay needs the table's log and
  names, which live in the server, and its work is a few milliseconds from a checkpoint; the thread gives the event
  loop the interpreter back every switch interval, so other requests are answered meanwhile.
- **Bounded per client.** At most `PER_CLIENT` replays of one client are made or waiting at once and `WAITING` of
  everyone's (past that a request is refused, 429 `replays_busy`); the route also counts each client's replays in
  the `replays` rate limit (`skald.web.limits`). Replays already made are not counted.
- **Kept per viewer.** The answers about live games are kept by (game, ply, viewer, over, seat names) within
  `BUDGET` bytes, least recently used out first: what is drawn for one seat is never given to another viewer, and
  nothing of a position changes while the game goes on except the version, which is put in as the answer is sent
  (the log becomes the whole one at the end, which `over` in the key tells apart). Finished games' answers are kept
  in the `FinishedCache` with their ETags, as before.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from skald.engine import Game, State
from skald.web.errors import TableError
from skald.web.frames import marks
from skald.web.live_table import LiveTable, LogEntry, sections_once
from skald.web.projection import scorings_beside

#: Plies between two checkpoints: a replay applies fewer than this many actions.
EVERY = 192
#: Checkpoints kept in all (a 6-player Vikingatid position takes about 160 KB), the least recently replayed game's
#: forgotten first.
CHECKPOINTS = 384
#: Log entries encoded at once.
LOG_SLICE = 500
#: Bytes of live games' answers kept.
BUDGET = 32 << 20
#: Plies of the finished games whose sources are kept after their tables are dropped (a 6-player Vikingatid log
#: takes about 2 KB a ply): a deep replay of a finished game then loads nothing.
FINISHED_PLIES = 30_000
#: Replays of one client made or waiting at once, and of all clients.
PER_CLIENT = 2
WAITING = 16

_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Asked:
    """What one replay needs, taken from the live table on the event loop (the replay thread never reads the
    table): the game, its actions up to the ply, the log entries up to it, the viewer, whether the game is over and
    the seats' names."""

    game_id: str
    game: Game
    players: int
    options: dict[str, Any]
    actions: list[int]
    log: list[LogEntry]
    viewer: int | None
    over: bool
    names: tuple[str, ...]

    @property
    def key(self) -> tuple[str, int, int | None, bool, tuple[str, ...]]:
        """What the answer depends on, besides the version."""
        return (self.game_id, len(self.actions), self.viewer, self.over, self.names)


@dataclass(frozen=True)
class Source:
    """What the replays of one game are made from: its actions and log (the table's own lists, which a finished
    game never changes), names and options."""

    game_id: str
    game: Game
    players: int
    options: dict[str, Any]
    actions: list[int]
    log: list[LogEntry]
    over: bool
    names: tuple[str, ...]

    @classmethod
    def of(cls, table: LiveTable) -> Source:
        """The source of `table`'s replays as it is now."""
        names = tuple(seat.name for seat in table.seats)
        over = table.state.is_terminal()
        return cls(
            table.id, table.game, table.state.num_players, table.options, table.state.history, table.log, over, names
        )

    @property
    def version(self) -> int:
        """The game's actions so far."""
        return len(self.actions)

    def asked(self, ply: int, viewer: int | None) -> Asked:
        """The replay of position `ply` for `viewer` (refused past the game's actions so far)."""
        if not 0 <= ply <= len(self.actions):
            raise TableError("ply", f"ply: must be 0–{len(self.actions)}", 404)
        return Asked(
            self.game_id,
            self.game,
            self.players,
            self.options,
            self.actions[:ply],
            self.log[:ply],
            viewer,
            self.over,
            self.names,
        )


class Checkpoints:
    """Positions every `every` plies of the games replayed last (used by the replay thread alone)."""

    def __init__(self, every: int = EVERY, most: int = CHECKPOINTS) -> None:
        self.every = every
        self.most = most
        self._points: OrderedDict[str, list[State]] = OrderedDict()
        #: Checkpoints kept, and actions applied by replays (for the health report).
        self.stored = 0
        self.applied = 0

    def position(self, asked: Asked) -> State:
        """The position after `asked.actions`, from the last checkpoint at or before it (checkpoints on the way are
        kept). A game's actions only ever grow, so its checkpoints stay right."""
        points = self._points.pop(asked.game_id, None)
        if points is None:
            points = [asked.game.new_initial_state(asked.players, asked.options)]
            self.stored += 1
        self._points[asked.game_id] = points
        while self.stored > self.most and len(self._points) > 1:
            self.stored -= len(self._points.popitem(last=False)[1])
        ply = len(asked.actions)
        index = min(ply // self.every, len(points) - 1)
        state = points[index].clone()
        for done in range(index * self.every, ply):
            state.apply(asked.actions[done])
            self.applied += 1
            if (done + 1) % self.every == 0 and (done + 1) // self.every == len(points) < self.most:
                points.append(state.clone())
                self.stored += 1
        return state


def drawn(asked: Asked, state: State) -> bytes:
    """The answer about `state` as `asked.viewer` saw it, as compact JSON without its `version`."""
    viewer = asked.viewer
    observation = dict(state.observation(viewer))
    scorings = scorings_beside(state, observation)
    data = {
        "ply": len(asked.actions),
        "viewer": viewer,
        "svg": asked.game.render_svg(state, viewer, names=list(asked.names)),
        "last_move": marks(state, asked.log, viewer),
        "observation": observation,
        "scorings": scorings,
    }
    log = sections_once([entry.for_viewer(viewer, asked.over) for entry in asked.log])
    # The log of a long game is half a megabyte of JSON; encoded in slices, so that the encoder (which holds the
    # interpreter lock while it runs) lets the event loop in between.
    slices = (_COMPACT.encode(log[at : at + LOG_SLICE])[1:-1] for at in range(0, len(log), LOG_SLICE))
    return _COMPACT.encode(data)[:-1].encode() + b',"log":[' + ",".join(slices).encode() + b"]}"


def with_version(body: bytes, version: int) -> bytes:
    """A kept answer with the game's version now put first."""
    return b'{"version":' + str(version).encode() + b"," + body[1:]


class Replays:
    """The replay thread, its checkpoints, the live games' answers kept, and who is waiting for a replay."""

    def __init__(self, budget: int = BUDGET, every: int = EVERY) -> None:
        self.checkpoints = Checkpoints(every)
        self.budget = budget
        self.size = 0
        self._kept: OrderedDict[tuple[str, int, int | None, bool, tuple[str, ...]], bytes] = OrderedDict()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skald-replay")
        #: Replays being made or waiting, in all and by client.
        self.computing = 0
        self._by_client: dict[str, int] = {}
        self.made = 0
        self.hits = 0
        self._finished: OrderedDict[str, Source] = OrderedDict()
        self._finished_plies = 0

    def finished(self, game_id: str) -> Source | None:
        """The source kept for a finished game, or None."""
        found = self._finished.get(game_id)
        if found is not None:
            self._finished.move_to_end(game_id)
        return found

    def keep_finished(self, source: Source) -> None:
        """Keep a finished game's source (the least recently replayed forgotten beyond `FINISHED_PLIES`)."""
        if source.game_id in self._finished or source.version > FINISHED_PLIES:
            return
        self._finished[source.game_id] = source
        self._finished_plies += source.version
        while self._finished_plies > FINISHED_PLIES:
            _id, dropped = self._finished.popitem(last=False)
            self._finished_plies -= dropped.version

    def kept(self, asked: Asked) -> bytes | None:
        """The answer kept for `asked` (without its version), or None."""
        found = self._kept.get(asked.key)
        if found is not None:
            self._kept.move_to_end(asked.key)
            self.hits += 1
        return found

    def admit(self, client: str) -> None:
        """Refuse a replay past the client's share or the server's queue."""
        if self._by_client.get(client, 0) >= PER_CLIENT:
            raise TableError("replays_busy", f"replay: {PER_CLIENT} of your replays are being made; wait for them", 429)
        if self.computing >= WAITING:
            raise TableError("replays_busy", "replay: the server is making many replays; ask again in a moment", 429)

    async def make(self, client: str, asked: Asked) -> bytes:
        """The answer for `asked` (without its version), made in the replay thread; kept if the game is live."""
        self.admit(client)
        self.computing += 1
        self._by_client[client] = self._by_client.get(client, 0) + 1
        try:
            body = await asyncio.get_running_loop().run_in_executor(self._thread, self._draw, asked)
        finally:
            self.computing -= 1
            left = self._by_client.pop(client) - 1
            if left:
                self._by_client[client] = left
        self.made += 1
        if not asked.over:
            self._keep(asked.key, body)
        return body

    def _draw(self, asked: Asked) -> bytes:
        """In the replay thread: the position from the nearest checkpoint, drawn for its viewer."""
        return drawn(asked, self.checkpoints.position(asked))

    def _keep(self, key: tuple[str, int, int | None, bool, tuple[str, ...]], body: bytes) -> None:
        old = self._kept.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._kept[key] = body
        self.size += len(body)
        while self.size > self.budget and self._kept:
            _key, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)

    def stats(self) -> dict[str, Any]:
        """For the health report: replays being made, made, answered from memory, bytes kept, checkpoints."""
        return {
            "computing": self.computing,
            "made": self.made,
            "hits": self.hits,
            "bytes": self.size,
            "checkpoints": self.checkpoints.stored,
            "applied": self.checkpoints.applied,
            "finished_games": len(self._finished),
        }

    def close(self) -> None:
        """Stop the replay thread (replays waiting are dropped)."""
        self._thread.shutdown(wait=False, cancel_futures=True)
