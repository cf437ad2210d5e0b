"""The live tables: each game's state in memory, rebuilt from its stored actions, moved on by people and bots.

Order of events for every move: check it against the state, commit it to the database, apply it, then tell
every seat and spectator. Chance is sampled here, on the server, from a generator seeded by the game's seed
and the ply, so a game resumed after a crash draws exactly what it would have drawn.

Only the tables in use stay in memory. Whoever uses a table holds it (a request for its length, a WebSocket
for its life) and its bots and chance hold it while they move; a table nobody holds is dropped once it is
finished, idle, or the least recently used beyond the cap. Every move it made is already committed, so loading
it again gives the same table.

Other server processes may share a PostgreSQL database. Each announces its committed moves (`NOTIFY`) and hears
the others' on one listening connection (`skald.web.notify`); a table in memory that they left behind catches up
with the database in place at once, under its lock, and tells its clients. A table also catches up when its own
move is refused as stale, or when a client names a version it has not reached (a notification not yet heard).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import io
import itertools
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.console import Console

from skald.bots.base import Bot
from skald.bots.spec import SpecError, make_bot
from skald.engine import (
    CHANCE,
    PERFECT,
    IllegalAction,
    OptionError,
    Record,
    RecordError,
    Seat,
    StandingAnswer,
    State,
    get_game,
)
from skald.engine.fair import chance_rng as chance_rng  # moved there (shared with `skald verify`)
from skald.engine.fair import draw
from skald.engine.messages import shown
from skald.engine.presentation import kept_answer
from skald.web.botpool import BotPool
from skald.web.botworker import BotJob
from skald.web.chat import SPECTATOR, TableChat
from skald.web.db import GameRow, SeatRow, StaleVersion, Store, Write, now
from skald.web.errors import TableError
from skald.web.groupcommit import GroupCommit
from skald.web.settings import (
    MAX_TABLES,
    TABLE_IDLE_SECONDS,
    environment_bot_workers,
    environment_max_bot_games,
    environment_max_bot_games_per_client,
)

if TYPE_CHECKING:
    from skald.web.notify import Heard, MoveListener

HUMAN = "human"
LOG = logging.getLogger("skald.web")


def scorings_beside(state: State, observation: dict[str, Any]) -> list[Any]:
    """The scoring reports sent beside a viewer's observation: the game's `State.scorings()`, which are public
    (docs/engine.md). An observation that carries those very reports under `scorings` has them taken out, so they
    travel once; a `scorings` of the game's own making (this turn's lines, say) is part of its observation and stays:
    taken for the reports, it would hide them and break every page that draws them."""
    reports = state.scorings()
    if observation.get("scorings") == reports:
        del observation["scorings"]
    return reports


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_COMPACT = json.JSONEncoder(separators=(",", ":"))


def action_key(data: Any) -> str:
    """A canonical text of an action's JSON form, to compare the board's targets with the legal actions."""
    return _CANONICAL.encode(data)


def viewer_rng(state: State, seat: int, purpose: str) -> random.Random:
    """A generator seeded by what `seat` knows (its information state) and `purpose`: answers drawn from it are the
    same in every world `seat` cannot tell apart, so they can tell it nothing more."""
    known = state.information_state_string(seat)
    digest = hashlib.blake2b(f"skald-{purpose}:{seat}:{known}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


@dataclass(eq=False)
class LogEntry:
    """One action in the log: as everyone may see it once the game is over (`whole`) and, in an imperfect-information
    game, as each viewer saw it during play (`seen`: the seats in order, then the spectator)."""

    whole: dict[str, Any]
    seen: list[dict[str, Any]] | None = None

    def for_viewer(self, viewer: int | None, over: bool) -> dict[str, Any]:
        """The entry as `viewer` (None: a spectator) may see it now."""
        if self.seen is None or over:
            return self.whole
        return self.seen[len(self.seen) - 1 if viewer is None else viewer]


def last_move_marks(state: State, log: Sequence[LogEntry], seat: int | None) -> list[str]:
    """The parts of `state`'s drawn board (`data-at` names) that the last move by a seat in `log` changed, as `seat`
    may see them (`Presentation.last_move`): the web rings them, so that someone who looked away sees what changed."""
    for entry in reversed(log):
        mover = entry.whole["seat"]
        if mover is not None:
            action = state.history[entry.whole["ply"]]
            return state.game.presentation.last_move(state, mover, action, seat)
    return []


def secret_seed(secret: bytes, game_id: str, stored: int) -> int:
    """A game's 256-bit chance seed: its stored seed mixed with the server's secret, so that no record, however
    long, lets anyone search for the seed offline and foresee the draws to come."""
    return int.from_bytes(hmac.new(secret, f"skald-seed:{game_id}:{stored}".encode(), hashlib.sha256).digest(), "big")


def rematch_token(secret: bytes, rematch_id: str, seat: int, token: str) -> str:
    """The seat token of `seat` in the rematch `rematch_id` for whoever holds that seat's `token` in the game before:
    derived, so it need not be stored anywhere (only its hash is, once claimed)."""
    mac = hmac.new(secret, f"skald-rematch:{rematch_id}:{seat}:{token}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def _report_failure(task: asyncio.Task[None]) -> None:
    """Log why a table's driver stopped, if it failed (the game waits until the table is loaded again)."""
    if not task.cancelled() and task.exception() is not None:
        LOG.error("a table's bots and chance stopped", exc_info=task.exception())


#: The width the table in words is written for (the terminal's full form).
TEXT_WIDTH = 100
#: Messages a client may leave unsent (it does not read) before it is dropped.
OUTBOX_LIMIT = 256


def _ignore() -> None:
    """Nothing to do."""


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its seat (None: a spectator), whether it wants the SVG and full view, its outbox,
    and what to do when it stops reading (its session drops it)."""

    seat: int | None
    svg: bool
    full: bool = True
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    on_overflow: Callable[[], None] = _ignore
    #: What to do when its seat's token is replaced (its session closes it: the token it showed is no longer good).
    on_revoke: Callable[[], None] = _ignore
    #: The board's pieces last sent (`Game.render_svg_parts`): the next update sends only those that changed.
    board: tuple[str, ...] | None = None

    def push(self, text: str) -> None:
        """Queue `text`, unless the client has left `OUTBOX_LIMIT` messages unsent: then it is dropped."""
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.on_overflow()
            return
        self.outbox.put_nowait(text)


@dataclass
class SeatInfo:
    """A seat at a live table."""

    name: str
    kind: str
    token_hash: str | None


class Table:
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
        self.lock = asyncio.Lock()
        self.chat = TableChat(row.id, bool(row.chat_spectators))
        self.clients: set[Client] = set()
        self.bots: dict[int, Bot] = {
            seat: make_bot(info.kind, seed=row.seed + seat) for seat, info in enumerate(seats) if info.kind != HUMAN
        }
        #: The client address (its rate-limit key) that created the game in this process, for the limit on bot games
        #: per client; None for a game loaded from the database.
        self.owner: str | None = None
        #: Whether some seat may not see all that happens: then logs, views and caches are kept per viewer.
        self.imperfect = self.game.information != PERFECT
        self.log: list[LogEntry] = []
        self._board_cache: dict[int | None, tuple[int, tuple[str, ...]]] = {}
        self._text_cache: dict[int | None, tuple[int, str]] = {}
        #: The standing answer each person's seat keeps (`Presentation.standing_answer`), by its name: the table
        #: answers with it for him until his next decision of another kind. Kept in memory only.
        self.standing: dict[int, StandingAnswer] = {}
        self._legal_cache: tuple[int, list[dict[str, Any]], str] | None = None
        self._words_cache: tuple[int, list[dict[str, Any]], str] | None = None
        #: Each action id's JSON form, its canonical text (`action_key`) and the start of its entry in the legal
        #: actions' JSON text, made once a game: the form is the same in every position (docs/engine.md).
        self._forms: dict[int, tuple[Any, str, str]] = {}
        self.driver: asyncio.Task[None] | None = None
        #: Requests and WebSocket sessions holding the table now; while any do, it stays in memory.
        self.holders = 0
        #: When it was last held, released or moved (`time.monotonic()`), for dropping idle tables.
        self.last_used = time.monotonic()
        replay = self.game.new_initial_state(state.num_players, self.options)
        for action in state.history:
            self.log.append(self._entry(replay, action))
            replay.apply(action)

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
    def status(self) -> str:
        """`playing` or `over`."""
        return "over" if self.state.is_terminal() else "playing"

    @property
    def public(self) -> bool:
        """Whether every viewer may now see everything that happened: a perfect-information game, or one that is
        over (the end reveals the whole record)."""
        return not self.imperfect or self.state.is_terminal()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for, or None (every token is URL-safe ASCII; anything else is none)."""
        if not token or not token.isascii():
            return None
        digest = token_hash(token)
        for seat, info in enumerate(self.seats):
            if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                return seat
        return None

    def _entry(self, state: State, action: int) -> LogEntry:
        """The log entry of `action`, about to be taken at `state`: whole, and as each viewer sees it."""
        player = state.current_player()
        base = {
            "ply": len(state.history),
            "seat": None if player == CHANCE else player,
            "name": "chance" if player == CHANCE else self.seats[player].name,
        }
        whole = base.copy() if self.imperfect else base
        whole["notation"] = state.action_to_notation(action)
        if not self.imperfect:
            return LogEntry(whole)
        viewers: list[int | None] = [*range(state.num_players), None]
        return LogEntry(whole, [{**base, "notation": state.notation_for(action, viewer)} for viewer in viewers])

    def log_for(self, viewer: int | None, entries: list[LogEntry] | None = None) -> list[dict[str, Any]]:
        """`entries` (by default the whole log) as `viewer` (None: a spectator) may see them now."""
        over = self.state.is_terminal()
        return [entry.for_viewer(viewer, over) for entry in (self.log if entries is None else entries)]

    # -- what a client sees -------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Public facts: seats, whose turn, status, result."""
        player = self.state.current_player()
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.state.num_players,
            "options": self.options,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind} for i, s in enumerate(self.seats)],
            "version": self.version,
            "status": self.status,
            "to_move": player if player >= 0 else None,
            "to_move_name": self.seats[player].name if player >= 0 else None,
            "result": self.result(),
            "rematch": self.rematch_id,
            "fair": self.fair(),
            "chat_spectators": self.chat.spectators,
        }

    def fair(self) -> dict[str, Any] | None:
        """The commitment to the chance seed (its SHA-256), published from the start, and the seed itself once the
        game is over, so anyone can check that the draws came from the seed fixed before the first one."""
        if not self.secret_seed:
            return None
        seed = self.seed.to_bytes(32, "big")
        return {
            "commitment": hashlib.sha256(seed).hexdigest(),
            "seed": seed.hex() if self.state.is_terminal() else None,
        }

    def result(self) -> dict[str, Any] | None:
        """At the end: standings with the tie-break, best first, and the columns (key and heading) they list;
        `tied` says whether the best score was shared, so that the tie-break decided (or the victory is shared).

        The game's presentation gives each seat's columns (`standings`: the score by default, headed by
        `Game.score_name`; Vikings' Fame and Gold) and its tie-break in a sentence. The game is over, so all of it
        may be seen by everyone.
        """
        state = self.state
        if not state.is_terminal():
            return None
        presentation = self.game.presentation
        winners = state.winners()
        scores = state.scores()
        extra = presentation.standings(state)
        shown = [key for key in extra[0] if key != "order"] if extra else ["score"]
        columns = [
            {"key": key, "label": self.game.score_name if key == "score" else key.replace("_", " ").capitalize()}
            for key in shown
        ]

        def rank(seat: int) -> tuple[Any, ...]:
            keys = extra[seat].get("order", [scores[seat]]) if extra else [scores[seat]]
            return (seat not in winners, *(-value for value in keys))

        rows = []
        for place, seat in enumerate(sorted(range(len(scores)), key=rank), start=1):
            row = {"place": place, "seat": seat, "name": self.seats[seat].name, "score": scores[seat]}
            row.update({k: v for k, v in (extra[seat] if extra else {}).items() if k != "order"})
            rows.append(row)
        return {
            "winners": winners,
            "standings": rows,
            "columns": columns,
            "tie_break": presentation.tie_break(state),
            "tied": scores.count(max(scores)) > 1,
        }

    def legal(self, words: bool = True) -> tuple[list[dict[str, Any]], str]:
        """The mover's legal actions and their JSON text, built once a version: each with its JSON form, canonical
        key and notation and, with `words`, the game's description of it (`label`) and the heading of its group
        (`group`), in the game's group order. The text is spliced into messages as it is."""
        cached = self._words_cache if words else self._legal_cache
        if cached is not None and cached[0] == self.version:
            return cached[1], cached[2]
        state = self.state
        presentation = self.game.presentation
        legal = []
        texts = []
        quote = json.encoder.encode_basestring_ascii
        forms = self._forms
        actions = state.legal_actions()
        for heading, group in presentation.groups(state, actions) if words else [("", actions)]:
            for action in group:
                form = forms.get(action)
                if form is None:
                    data = state.action_to_json(action)
                    key = action_key(data)
                    form = forms[action] = (data, key, f'{{"key":{quote(key)},"action":{key},"notation":')
                data, key, start = form
                notation = state.action_to_notation(action)
                entry = {"key": key, "action": data, "notation": notation}
                text = start + quote(notation)
                if words:
                    entry["label"] = label = presentation.describe(state, action)
                    entry["group"] = heading
                    text += f',"label":{quote(label)},"group":{quote(heading)}'
                legal.append(entry)
                texts.append(text + "}")
        built = (self.version, legal, "[" + ",".join(texts) + "]")
        if words:
            self._words_cache = built
        else:
            self._legal_cache = built
        return built[1], built[2]

    def view(self, seat: int | None, full: bool = True) -> dict[str, Any]:
        """What `seat` (None: a spectator) is told; with `full` also its observation and, once, the scorings.

        Only the seat to move gets the legal actions and, in a full view (for people), the game's words for them:
        its prompt and click hint for the step, and each action's label and group. Everything else is the viewer's
        own view of the state (`State.observation(seat)`).
        """
        state = self.state
        player = state.current_player()
        body: dict[str, Any] = {
            "full": full,
            "version": self.version,
            "status": self.status,
            "to_move": player if player >= 0 else None,
            "legal": [],
            "result": self.result(),
            "rematch": self.rematch_id,
        }
        if full and player >= 0:
            body["step"] = self.game.presentation.step(state)
        if full:
            body["last_move"] = self.last_move(seat)
            presentation = self.game.presentation
            body["seat_lines"] = [presentation.seat_summary(state, s, seat) for s in range(state.num_players)]
        if seat is not None and seat == player:
            body["legal"] = self.legal(words=full)[0]
            if full:
                presentation = self.game.presentation
                body["prompt"] = presentation.prompt(state)
                body["click_hint"] = presentation.click_hint(state)
                offer = presentation.standing_answer(state)
                if offer is not None:
                    body["standing_offer"] = {"name": offer.name, "label": offer.label}
        if full and seat is not None and seat in self.standing:
            kept = self.standing[seat]
            body["standing"] = {"name": kept.name, "label": kept.label}
        if full:
            observation = dict(state.observation(seat))
            scorings = scorings_beside(state, observation)
            body["observation"] = observation
            body["scorings"] = scorings
        return body

    def last_move(self, seat: int | None) -> list[str]:
        """The parts of the drawn board the last move by a seat changed, as `seat` may see them."""
        return last_move_marks(self.state, self.log, seat)

    def standing_action(self, state: State) -> int | None:
        """The action the seat to act in `state` answers with by its standing answer, or None. A decision where the
        game offers that seat no answer of the kind it keeps ends it (`Presentation.standing_answer`)."""
        return kept_answer(state, self.standing)

    def board(self, seat: int | None) -> tuple[str, ...]:
        """The board as SVG for `seat` in the game's pieces (`Game.render_svg_parts`), cached per version."""
        cached = self._board_cache.get(seat)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        names = [s.name for s in self.seats]
        parts = tuple(self.game.render_svg_parts(self.state, seat, names))
        self._board_cache[seat] = (self.version, parts)
        return parts

    def board_patch(self, client: Client) -> dict[str, Any] | None:
        """What `client` needs to redraw the board, which it then holds: `{"size": n, "parts": [[i, text], …]}`, the
        pieces that differ from those it holds (all of them for a client that holds none, or as many), or None when
        it holds this board already."""
        parts = self.board(client.seat)
        held = client.board
        client.board = parts
        if held is parts:
            return None
        if held is None or len(held) != len(parts):
            return {"size": len(parts), "parts": list(enumerate(parts))}
        changed = [(i, part) for i, (part, old) in enumerate(zip(parts, held, strict=True)) if part != old]
        return {"size": len(parts), "parts": changed} if changed else None

    def text(self, seat: int | None) -> str:
        """The table in words for `seat`, as the terminal shows it (`Presentation.board` with the seats' names, 100
        columns, no colour), cached per version: the web page offers it to screen readers and to anyone who would
        rather read than look."""
        cached = self._text_cache.get(seat)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        written = io.StringIO()
        console = Console(file=written, width=TEXT_WIDTH, color_system=None, force_terminal=False)
        console.print(self.game.presentation.board(self.state, seat, [s.name for s in self.seats]))
        text = written.getvalue()
        self._text_cache[seat] = (self.version, text)
        return text

    def forget_boards(self) -> None:
        """Drop the cached boards: they are drawn for watchers, and with none left the next move outdates them."""
        self._board_cache.clear()
        self._text_cache.clear()

    def message(self, client: Client, kind: str, log: list[LogEntry], full: bool | None = None) -> str:
        """An update for one client: new log entries, its view (full if it wants it or `full`) and, if it draws the
        board, the pieces of the SVG that changed since the board it holds (`board_patch`; none: it is unchanged).

        In an imperfect-information game the update that ends the game (and every later one with log entries, such
        as the first after hello) reveals the whole log (`"reveal": true`: it replaces the log the client has).
        """
        body: dict[str, Any] = {"type": kind}
        if not self.imperfect:
            body["log"] = [entry.whole for entry in log]
        elif log and self.state.is_terminal():
            body["log"] = self.log_for(None)
            body["reveal"] = True
        else:
            body["log"] = self.log_for(client.seat, log)
        wanted = client.full if full is None else full
        body.update(self.view(client.seat, wanted))
        if client.svg:
            patch = self.board_patch(client)
            if patch is not None:
                body["board"] = patch
            body["text"] = self.text(client.seat)
        if not body["legal"]:
            return _COMPACT.encode(body)
        del body["legal"]  # spliced in as the text cached with it, the same JSON
        return f'{_COMPACT.encode(body)[:-1]},"legal":{self.legal(words=wanted)[1]}}}'

    def broadcast(self, log: list[LogEntry]) -> None:
        """Queue an update for every client, sharing the text between clients that are told the same (the same
        view, and for the board the same pieces held before)."""
        cache: dict[tuple[int | None, bool, bool, int], str] = {}
        held = [client.board for client in self.clients]  # alive until the end: their ids are in the keys
        player = self.state.current_player()
        for client in list(self.clients):
            # In a perfect-information game, seats not on turn are told the same as a spectator unless they see the
            # full (seat-specific) view; in an imperfect one even the log differs from seat to seat.
            private = self.imperfect or client.full or client.svg or client.seat == player
            seat = client.seat if private else None
            key = (seat, client.svg, client.full, id(client.board))
            if key not in cache:
                cache[key] = self.message(client, "update", log)
            elif client.svg:
                client.board = self.board(client.seat)
            client.push(cache[key])
        del held

    def notify(self, data: dict[str, Any]) -> None:
        """Queue a small notice for every client."""
        text = json.dumps(data)
        for client in list(self.clients):
            client.push(text)


class Tables:
    """The live tables of one server process, backed by the store: those in use, and the recently used up to a cap."""

    def __init__(
        self,
        store: Store,
        idle_seconds: float = TABLE_IDLE_SECONDS,
        max_tables: int = MAX_TABLES,
        expiry_days: float = 0.0,
        bot_workers: int | None = None,
        max_bot_games: int | None = None,
        max_bot_games_per_client: int | None = None,
    ) -> None:
        self.store = store
        #: The worker processes bots think in (started by the first bot move; by default `SKALD_BOT_WORKERS` or two).
        self.bot_pool = BotPool(environment_bot_workers() if bot_workers is None else bot_workers)
        #: Unfinished games with a bot seat allowed in memory at once, on the whole server and per creating client.
        self.max_bot_games = environment_max_bot_games() if max_bot_games is None else max_bot_games
        self.max_bot_games_per_client = (
            environment_max_bot_games_per_client() if max_bot_games_per_client is None else max_bot_games_per_client
        )
        #: The server's secret (read from the database by `open`): chance seeds and rematch tokens derive from it.
        self.secret = b""
        #: Days an unfinished game may go without a move before it is deleted (0: never).
        self.expiry_days = expiry_days
        #: Unfinished games still to be looked at since the start (resumed in the background, see `open`).
        self.resuming = 0
        self.expired = 0
        self._background: set[asyncio.Task[Any]] = set()
        #: The tables in memory, least recently used first.
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        #: Tables loaded from the database and dropped from memory since the start, for the health endpoint.
        self.loads = 0
        self.drops = 0
        #: Games being read from the database now; the event is set when the read is over.
        self._loading: dict[str, asyncio.Event] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.on_broadcast: Callable[[Table], None] | None = None
        #: Told (in the background) of every game that ends here, and of every finished game read from the database
        #: (its end may have been committed by a process that stopped before it told anyone): the ratings.
        self.on_over: Callable[[Table], Awaitable[None]] | None = None
        #: Every move is committed through this, grouped with whatever other games commit at the same moment.
        self._commits: GroupCommit[Write] = GroupCommit(store.append_many)
        #: On PostgreSQL, the connection hearing other processes' moves (started by `open`).
        self.listener: MoveListener | None = None
        #: Games catching up with moves other processes announced: the highest version heard for each, and the
        #: actions heard, by ply.
        self._behind: dict[str, int] = {}
        self._heard: dict[str, dict[int, int]] = {}

    async def _write(self, game_id: str, version: int, moves: list[tuple[int, int]], status: str) -> None:
        """Commit one game's moves, grouped with whatever other games commit at the same moment."""
        await self._commits.submit((game_id, version, moves, status))

    # -- creating and loading -----------------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        seats: list[tuple[str, str]],
        options: dict[str, Any],
        seed: int | None = None,
        claimed_later: bool = False,
        owner: str | None = None,
        chat_spectators: bool = False,
    ) -> tuple[Table, list[str | None]]:
        """Create a game with `seats` as (name, kind); returns the table and each person seat's new token.

        Chance draws from a seed mixed with the server's secret unless a `seed` is given (tests only: see
        `Settings.allow_client_seeds`). With `claimed_later` (a rematch) no token is made: each person seat is
        claimed later by the holder of its token in the game before (`claim`). A game with a bot seat is refused
        (429) when the server, or the creating client `owner` (its address's rate-limit key), already has as many
        unfinished bot games as allowed. With `chat_spectators` spectators may read and write in the table chat."""
        try:
            game = get_game(game_name)
        except KeyError as error:
            raise TableError("game", f"game: {error.args[0]}") from None
        try:
            game.check_players(len(seats))
            resolved = game.resolve_options(options)
        except OptionError as error:
            raise TableError("options", str(error)) from None
        except ValueError as error:
            raise TableError("seats", f"seats: {error}") from None
        for index, (_name, kind) in enumerate(seats):
            if kind != HUMAN:
                try:
                    make_bot(kind)
                except SpecError as error:
                    raise TableError("seats", f"seats[{index}].bot: {error}") from None
        if any(kind != HUMAN for _name, kind in seats):
            self._check_bot_games(owner)
        tokens: list[str | None] = []
        hashes: list[str | None] = []
        for _name, kind in seats:
            if kind != HUMAN or claimed_later:
                tokens.append(None)
                hashes.append(None)
            else:
                token = secrets.token_urlsafe(24)
                tokens.append(token)
                hashes.append(token_hash(token))
        stamp = now()
        row = GameRow(
            id=secrets.token_urlsafe(12),
            game=game.name,
            players=len(seats),
            options=resolved,
            seed=secrets.randbits(48) if seed is None else seed,
            secret_seed=seed is None,
            chat_spectators=chat_spectators,
            version=0,
            status="playing",
            rematch_id=None,
            created_at=stamp,
            updated_at=stamp,
        )
        seat_rows = [
            SeatRow(game_id=row.id, seat=i, name=name, kind=kind, token_hash=hashes[i])
            for i, (name, kind) in enumerate(seats)
        ]
        await asyncio.to_thread(self.store.create, row, seat_rows)
        table = Table(
            row,
            [SeatInfo(n, k, h) for (n, k), h in zip(seats, hashes, strict=True)],
            game.new_initial_state(len(seats), resolved),
            self.secret,
        )
        table.owner = owner
        self._admit(table)
        self.drive(table)
        self._settle(table)
        return table, tokens

    def bot_games(self, owner: str | None = None) -> int:
        """Unfinished games with a bot seat in memory (those `owner` created, if given): what the limits count."""
        return sum(
            1
            for table in self.tables.values()
            if table.bots and not table.state.is_terminal() and (owner is None or table.owner == owner)
        )

    def _check_bot_games(self, owner: str | None) -> None:
        """Refuse one more bot game past either limit (429, naming it): bots share the server's worker processes,
        so one client's many searches would otherwise slow every other bot game."""
        if owner is not None and self.bot_games(owner) >= self.max_bot_games_per_client:
            raise TableError(
                "bot_games_per_client",
                f"too many unfinished games with bots from this address: at most {self.max_bot_games_per_client} "
                "at once (--max-bot-games-per-client); finish one first, or play without bots",
                429,
            )
        if self.bot_games() >= self.max_bot_games:
            raise TableError(
                "bot_games",
                f"the server is running as many games with bots as it allows: at most {self.max_bot_games} at once "
                "(--max-bot-games); try again later, or play without bots",
                429,
            )

    @asynccontextmanager
    async def use(self, game_id: str) -> AsyncIterator[Table]:
        """Hold the live table of `game_id` for the length of a `with` block (see `hold`)."""
        table = await self.hold(game_id)
        try:
            yield table
        finally:
            self.release(table)

    async def hold(self, game_id: str) -> Table:
        """The live table of `game_id`, loaded from the database if it is not in memory, kept there until `release`."""
        while True:
            table = self.tables.get(game_id)
            if table is not None:
                table.holders += 1
                self._touch(table)
                return table
            loading = self._loading.get(game_id)
            if loading is None:
                return await self._load(game_id)
            # Someone else is reading this game: take their table (or read it again if it was dropped meanwhile).
            await loading.wait()

    def release(self, table: Table) -> None:
        """Let go of a table taken with `hold`; the last holder lets it be dropped."""
        table.holders -= 1
        if table.holders == 0:
            table.forget_boards()
        self._touch(table)
        self._settle(table)

    async def _load(self, game_id: str) -> Table:
        """Rebuild a table from the database by replaying its actions, held once for the caller."""
        self._loading[game_id] = loading = asyncio.Event()
        try:
            loaded = await asyncio.to_thread(self.store.load, game_id)
            if loaded is None:
                raise TableError("not_found", f"no game {game_id!r} here", 404)
            row, seat_rows, actions = loaded
            try:
                state = Record(
                    row.game, row.players, dict(row.options), [Seat(s.name, s.kind) for s in seat_rows], actions
                ).replay()
            except RecordError as error:
                # Stored by another version of a game's rules, say: refuse this game, never the whole server.
                LOG.error("game %s cannot be replayed: %s", game_id, error)
                raise TableError("unreadable", f"game {game_id!r} cannot be replayed here: {error}", 500) from None
            table = Table(row, [SeatInfo(s.name, s.kind, s.token_hash) for s in seat_rows], state, self.secret)
        finally:
            # No await from here until the table is admitted and held: nobody can see the game as neither
            # loading nor loaded, so it is never read twice at once.
            del self._loading[game_id]
            loading.set()
        self._admit(table)
        self.loads += 1
        table.holders += 1
        self.drive(table)
        if table.state.is_terminal() and self.on_over is not None:
            self._in_background(self.on_over(table))
        return table

    async def open(self) -> None:
        """Read the server's secret, then expire abandoned games and resume the others in the background: the server
        answers at once, and a request for a game not yet resumed simply loads it first."""
        self.secret = await asyncio.to_thread(self.store.server_secret)
        if self.store.notifies:
            from skald.web.notify import MoveListener  # here: psycopg is needed only on PostgreSQL

            self.listener = MoveListener(
                self.store.listen_url(), self.store.origin, self.heard, self.look_again, self.chat_heard
            )
            await self.listener.start()
        self._in_background(self._expire_and_resume())

    def _in_background(self, work: Any) -> None:
        """Run `work` as a task kept until it ends (its failure is logged)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_report_failure)

    async def _expire_and_resume(self) -> None:
        await self.expire()
        await self.resume_all()

    async def expire(self) -> int:
        """Delete the unfinished games nobody has moved in for the expiry time (none if it is 0), except those in use
        (someone connected, a bot thinking); how many."""
        if self.expiry_days <= 0:
            return 0
        busy = {game_id for game_id, table in self.tables.items() if table.busy}
        gone = await asyncio.to_thread(self.store.expire, self.expiry_days, busy)
        for game_id in gone:  # in memory but used by nobody: gone from there too
            table = self.tables.get(game_id)
            if table is not None:
                self._drop(table)
        if gone:
            LOG.info("deleted %d games without a move for %g days", len(gone), self.expiry_days)
        self.expired += len(gone)
        return len(gone)

    async def resume_all(self) -> int:
        """Load every unfinished game so its bots and chance carry on; returns how many (a game that no longer
        replays is logged and skipped). One game at a time, letting every request through in between."""
        ids = await asyncio.to_thread(self.store.unfinished)
        self.resuming = len(ids)
        resumed = 0
        for game_id in ids:
            await asyncio.sleep(0)
            self.resuming -= 1
            try:
                table = await self.hold(game_id)
            except TableError:  # logged by `_load` (or expired meanwhile); the other games carry on
                continue
            self.release(table)
            if not table.busy:  # waiting for a person: it loads again when someone comes back to it
                self._drop(table)
            resumed += 1
        return resumed

    # -- keeping only what is needed ------------------------------------------------------------------------

    def _admit(self, table: Table) -> None:
        """Put a new or loaded table in memory, first dropping the least recently used beyond the cap."""
        self._shrink(self.max_tables - 1)
        self.tables[table.id] = table

    def _touch(self, table: Table) -> None:
        """Mark a table as just used: it goes to the recent end of the list."""
        table.last_used = time.monotonic()
        if self.tables.get(table.id) is table:
            self.tables.move_to_end(table.id)

    def _settle(self, table: Table) -> None:
        """Now that nobody may need `table`: drop it if it is finished (or tables never idle), and keep to the cap."""
        if table.busy or self.tables.get(table.id) is not table:
            return
        if table.state.is_terminal() or self.idle_seconds <= 0:
            self._drop(table)
        else:
            self._shrink(self.max_tables)

    def _shrink(self, size: int) -> None:
        """Drop the least recently used tables nobody needs until at most `size` remain (busy ones always stay)."""
        if len(self.tables) <= size:
            return
        for table in [table for table in self.tables.values() if not table.busy]:
            if len(self.tables) <= size:
                return
            self._drop(table)

    def _drop(self, table: Table) -> None:
        """Forget a table nobody needs: its every move is in the database, so it loads again as it was."""
        if table.busy or self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self.drops += 1

    def sweep(self) -> None:
        """Drop every table nobody has held and nothing has moved for the idle time."""
        cutoff = time.monotonic() - self.idle_seconds
        # Least recently used first: the idle tables are a prefix of the list.
        for table in list(itertools.takewhile(lambda table: table.last_used <= cutoff, self.tables.values())):
            self._drop(table)

    def start_sweeping(self) -> None:
        """Sweep idle tables away every so often (a fraction of the idle time, between 50 ms and a minute)."""
        every = min(60.0, max(0.05, self.idle_seconds / 4))

        async def sweep_forever() -> None:
            expired_at = time.monotonic()
            while True:
                await asyncio.sleep(every)
                self.sweep()
                if time.monotonic() - expired_at >= min(3600.0, self.expiry_days * 86400 / 4):
                    expired_at = time.monotonic()
                    await self.expire()

        self._sweeper = asyncio.get_running_loop().create_task(sweep_forever())

    def stats(self) -> dict[str, Any]:
        """How many tables are in memory and in use, the limits, and the loads and drops since the start."""
        return {
            "resident": len(self.tables),
            "busy": sum(1 for table in self.tables.values() if table.busy),
            "max": self.max_tables,
            "idle_seconds": self.idle_seconds,
            "loads": self.loads,
            "drops": self.drops,
            "resuming": self.resuming,
            "expired": self.expired,
            "bots": {
                **self.bot_pool.stats(),
                "games": self.bot_games(),
                "max_games": self.max_bot_games,
                "max_games_per_client": self.max_bot_games_per_client,
            },
            "listen": None if self.listener is None else self.listener.stats(),
        }

    # -- moving ---------------------------------------------------------------------------------------------

    async def _commit(
        self,
        table: Table,
        version: int,
        moves: list[tuple[int, int]],
        after: State,
        entries: list[LogEntry],
    ) -> bool:
        """Commit `moves` (reaching `after`, logged as `entries`), then adopt the new state and tell everyone.

        False if the database refused them as stale: another server process on the same database committed a
        move first. The table has then been brought up to date with the database instead (see `_refresh`).
        """
        status = "over" if after.is_terminal() else "playing"
        try:
            await self._write(table.id, version, moves, status)
        except StaleVersion:
            await self._refresh(table)
            return False
        self._adopt(table, after, entries)
        return True

    def _adopt(self, table: Table, after: State, entries: list[LogEntry]) -> None:
        """Make the committed `after` (reached by the moves logged as `entries`) the table's state; tell everyone."""
        ends = after.is_terminal() and not table.state.is_terminal()
        table.state = after
        table.log.extend(entries)
        self._touch(table)
        table.broadcast(entries)
        if self.on_broadcast is not None:
            self.on_broadcast(table)
        if ends and self.on_over is not None:
            self._in_background(self.on_over(table))

    async def _refresh(self, table: Table) -> None:
        """Bring a table that fell behind the database up to date in place, and tell its clients what happened.

        Called under the table's lock by whoever holds the table or by its moving bots, so it is busy and never
        dropped meanwhile; updating the same table (not loading a new one) keeps every holder and client with it.
        """
        # A committed ply never changes (the moves table's key is the game and the ply): only new ones are read.
        loaded = await asyncio.to_thread(self.store.since, table.id, table.version)
        if loaded is None:
            raise TableError("not_found", f"no game {table.id!r} here", 404)
        table.rematch_id, actions = loaded
        self._apply_committed(table, actions)
        self.drive(table)

    def _apply_committed(self, table: Table, actions: list[int]) -> None:
        """Apply `actions`, already committed by another process right after the table's version, and tell
        everyone; raises `IllegalAction` (the table unchanged) if one does not apply."""
        if not actions:
            return
        after = table.state.clone()
        entries: list[LogEntry] = []
        for action in actions:
            entries.append(table._entry(after, action))
            after.apply(action)
        self._adopt(table, after, entries)

    # -- hearing other processes' moves ------------------------------------------------------------------------

    def heard(self, games: list[Heard]) -> None:
        """Another process committed moves bringing these games to these versions: every one of them in memory (or
        being read) at a lower version catches up, one task per game however many notifications come meanwhile."""
        for game_id, start, end, actions in games:
            table = self.tables.get(game_id)
            if (table is None and game_id not in self._loading) or (table is not None and table.version >= end):
                continue  # not here (it loads with every move when used), or already there (our own move, say)
            if actions is not None:
                self._heard.setdefault(game_id, {}).update(zip(range(start, end), actions, strict=True))
            if game_id in self._behind:
                self._behind[game_id] = max(self._behind[game_id], end)
                continue
            self._behind[game_id] = end
            self._in_background(self._catch_up(game_id))

    # -- the table chat ------------------------------------------------------------------------------------------

    async def say(self, table: Table, seat: int | None, text: Any) -> None:
        """A chat message from `seat` (None: a spectator), stored, then told to everyone at the table who takes part
        (refused with the reason if the viewer may not write or the text is not a message)."""
        name = SPECTATOR if seat is None else table.seats[seat].name
        await table.chat.say(self.store, seat, name, text, table.clients)

    def chat_heard(self, game_id: str, seq: int) -> None:
        """Another process stored message `seq` of a game's chat: a table here that has it in memory tells its
        clients (in the background, in order with its own messages)."""
        table = self.tables.get(game_id)
        if table is not None and table.chat.messages is not None and table.chat.last < seq:
            self._in_background(table.chat.catch_up(self.store, table.clients))

    async def look_again(self) -> None:
        """After the listening connection was down: moves announced meanwhile were never heard, so every table in
        memory compares its version with the database's once, and reads the chat messages it may have missed."""
        for table in list(self.tables.values()):
            if table.chat.messages is not None:
                self._in_background(table.chat.catch_up(self.store, table.clients))
        ids = [*self.tables, *self._loading]
        if ids:
            versions = await asyncio.to_thread(self.store.versions, ids)
            self.heard([(game_id, 0, version, None) for game_id, version in versions.items()])

    async def _catch_up(self, game_id: str) -> None:
        """Bring one game's table up to the version heard for it (see `heard`)."""
        try:
            loading = self._loading.get(game_id)
            if loading is not None:  # its read may have missed the moves heard of: look once it is in memory
                await loading.wait()
            table = self.tables.get(game_id)
            if table is None or table.version >= self._behind[game_id]:
                return
            if not table.busy:  # nobody is at it and nothing moves it: read afresh when it is next used
                self._drop(table)
                return
            table.holders += 1  # kept in memory while it catches up
            try:
                async with table.lock:
                    while table.version < self._behind[game_id]:
                        reached = table.version
                        await self._catch_up_once(table)
                        if table.version == reached:
                            break  # the announced moves are not to be read (a game expired meanwhile, say)
            finally:
                self.release(table)
        except TableError as error:
            LOG.info("game %s could not catch up with another process's moves: %s", game_id, error)
        finally:
            del self._behind[game_id]
            self._heard.pop(game_id, None)

    async def _catch_up_once(self, table: Table) -> None:
        """Apply the heard actions that follow the table's version, or, where none was heard (or one does not
        apply), read what follows it from the database."""
        heard = self._heard.get(table.id, {})
        actions: list[int] = []
        while (action := heard.get(table.version + len(actions))) is not None:
            actions.append(action)
        if actions:
            try:
                self._apply_committed(table, actions)
            except IllegalAction as error:
                LOG.warning("game %s: a heard action does not apply (%s); reading the database", table.id, error)
            else:
                self.drive(table)
                return
        await self._refresh(table)

    async def submit(self, table: Table, seat: int, version: Any, data: Any) -> None:
        """A person's move: refused unless it is `seat`'s turn, at the current version, and legal."""
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError("version", "version: expected the game's version (an integer) your move is for")
        async with table.lock:
            if version > table.version:
                # The client has seen a move this process has not: another process on the database made it.
                await self._refresh(table)
            state = table.state
            if state.is_terminal():
                raise TableError("game_over", "the game is over", 409)
            if version != table.version:
                raise TableError(
                    "stale",
                    f"stale: your move was for version {version} but the game is at version {table.version} "
                    "(it was already played, or another move came first); the table has been refreshed",
                    409,
                )
            player = state.current_player()
            if player != seat:
                whose = "chance is drawing" if player == CHANCE else f"it is {table.seats[player].name}'s turn"
                raise TableError("not_your_turn", f"not your turn: {whose}", 409)
            try:
                action = state.action_from_json(data)
            except ValueError as error:
                raise TableError("action", f"action: {error}") from None
            reason = state.illegal_reason(action)
            if reason is not None:
                raise TableError("illegal", f"illegal: {reason.reason} [{reason.rule}]", 422)
            moves, entries = [(seat, action)], [table._entry(state, action)]
            after = state.clone()
            after.apply_legal(action)  # `illegal_reason` has just passed it
            self._follow(table, after, moves, entries)
            if not await self._commit(table, version, moves, after, entries):
                raise TableError("stale", "stale: another move was recorded first; the table has been refreshed", 409)
        self.drive(table)

    async def keep_standing(self, table: Table, seat: int, version: Any, name: Any) -> None:
        """A person keeps the standing answer `name` the game offers at his decision now, which answers it at once
        and every decision like it until his next other one; `name` None forgets the one he keeps (at any time)."""
        if name is None:
            async with table.lock:
                table.standing.pop(seat, None)
            return
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError("version", "version: expected the game's version (an integer) your answer is for")
        async with table.lock:
            state = table.state
            if version != table.version or state.current_player() != seat:
                raise TableError("stale", "stale: that offer was for another decision; the table has moved on", 409)
            offer = table.game.presentation.standing_answer(state)
            if offer is None or offer.name != name:
                raise TableError("standing", f"standing: {shown(name)} is not an answer offered at this decision")
            table.standing[seat] = offer
            after = state.clone()
            moves: list[tuple[int, int]] = []
            entries: list[LogEntry] = []
            self._follow(table, after, moves, entries)
            if not await self._commit(table, version, moves, after, entries):
                raise TableError("stale", "stale: another move was recorded first; the table has been refreshed", 409)
        self.drive(table)

    def why(self, table: Table, seat: int | None, data: Any) -> str | None:
        """Why an action is not a choice now (None when it is), for the hover on a forbidden square.

        Only the seat to move is answered (anyone else gets a `TableError`, 403). In an imperfect-information game the
        answer is worked out on a state drawn from those that seat cannot tell apart (seeded by what it knows), so
        it cannot reflect anything hidden from it.
        """
        state = table.state
        player = state.current_player()
        if seat is None or seat != player:
            whose = (
                "the game is over"
                if state.is_terminal()
                else "chance is drawing"
                if player == CHANCE
                else f"it is {table.seats[player].name}'s turn"
            )
            asker = "a spectator" if seat is None else "a seat not on turn"
            raise TableError(
                "why_forbidden",
                f"why: only the seat to move is told why an action is not a choice ({whose}; you are {asker})",
                403,
            )
        if table.imperfect:
            state = state.resample_from_infostate(seat, viewer_rng(state, seat, "why"))
        try:
            action = state.action_from_json(data)
        except ValueError as error:
            return f"not an action: {error}"
        reason = state.illegal_reason(action)
        return None if reason is None else str(reason)

    # -- chance and bots --------------------------------------------------------------------------------------

    @staticmethod
    def _follow(table: Table, after: State, moves: list[tuple[int, int]], entries: list[LogEntry]) -> None:
        """Draw every chance outcome due next in `after` and give each standing answer due (`Table.standing`),
        adding them to `moves` and `entries` (committed together), until a seat must decide or the game is over."""
        while not after.is_terminal():
            player = after.current_player()
            if player == CHANCE:
                action = draw(after, table.seed)
            else:
                answer = table.standing_action(after)
                if answer is None:
                    return
                action = answer
            moves.append((player, action))
            entries.append(table._entry(after, action))
            after.apply(action)

    def drive(self, table: Table) -> None:
        """Start the task that plays chance, bot seats and standing answers when one is due, unless it is already
        running."""
        if not self._due(table):
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))
            table.driver.add_done_callback(_report_failure)
            table.driver.add_done_callback(lambda _driver: self._settle(table))

    @staticmethod
    def _due(table: Table) -> bool:
        """Whether the table's next move is chance's, a bot's or a standing answer."""
        state = table.state
        player = state.current_player()
        if state.is_terminal():
            return False
        return player < 0 or player in table.bots or table.standing_action(state) is not None

    async def _drive(self, table: Table) -> None:
        while True:
            async with table.lock:
                state = table.state
                player = state.current_player()
                if not self._due(table):
                    return
                version = table.version
                if player not in table.bots:  # chance, or a person's standing answer
                    after = state.clone()
                    moves: list[tuple[int, int]] = []
                    entries: list[LogEntry] = []
                    self._follow(table, after, moves, entries)
                    # Committed, or refused because another process drew first: either way, look again.
                    await self._commit(table, version, moves, after, entries)
                    continue
                snapshot = state.clone()
                job = BotJob(
                    table.id,
                    table.game.name,
                    state.num_players,
                    table.options,
                    list(state.history),
                    player,
                    table.seats[player].kind,
                    table.bots[player].seed,
                )
            # In a worker process: the search never holds this process's interpreter lock (see `skald.web.botpool`).
            action = await self.bot_pool.move(job, table.bots[player], snapshot)
            async with table.lock:
                if table.version != version:
                    continue
                moves, entries = [(player, action)], [table._entry(table.state, action)]
                after = table.state.clone()
                after.apply(action)
                self._follow(table, after, moves, entries)
                await self._commit(table, version, moves, after, entries)

    async def rematch(
        self, table: Table, seat: int, token: str, allowed: Callable[[], bool], owner: str | None = None
    ) -> dict[str, Any]:
        """The same seats and options again, made once per game (counted by `allowed`, the creation limit, and the
        bot-game limits for `owner`, the asking client), and the asking seat's new token in it: every person seat
        gets a fresh one, which its holder in this game claims. The rematch's summary, with `token`."""
        if table.rematch_id is None:
            if not table.state.is_terminal():
                raise TableError("not_over", "a rematch can start only when the game is over", 409)
            if not allowed():
                raise TableError("rate_limited", "too many games created from this address; wait a minute", 429)
            new, _ = await self.create(
                table.game.name,
                [(s.name, s.kind) for s in table.seats],
                table.options,
                claimed_later=True,
                owner=owner,
                chat_spectators=table.chat.spectators,
            )
            chosen = await asyncio.to_thread(self.store.set_rematch, table.id, new.id)
            table.rematch_id = chosen
            table.notify({"type": "rematch", "id": chosen, "by": table.seats[seat].name})
        async with self.use(table.rematch_id) as rematch:
            return {**rematch.summary(), "token": await self.claim(rematch, seat, token)}

    async def claim(self, rematch: Table, seat: int, token: str) -> str | None:
        """The token of `seat` in `rematch` for the holder of that seat's `token` in the game before (None for a
        bot seat); the first claim stores its hash, so a seat's token is never kept in the clear."""
        if rematch.seats[seat].kind != HUMAN:
            return None
        fresh = rematch_token(self.secret, rematch.id, seat, token)
        digest = token_hash(fresh)
        if rematch.seats[seat].token_hash is None:
            stored = await asyncio.to_thread(self.store.claim_token, rematch.id, seat, digest)
            rematch.seats[seat].token_hash = stored
        return fresh if rematch.seats[seat].token_hash == digest else None

    async def replace_token(self, table: Table, seat: int) -> str:
        """A new token for `seat`, replacing its old one (a leaked invite link stops working); every connection
        that showed the old token is closed."""
        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        await asyncio.to_thread(self.store.set_token, table.id, seat, digest)
        table.seats[seat].token_hash = digest
        for client in list(table.clients):
            if client.seat == seat:
                client.on_revoke()
        return token

    async def close(self) -> None:
        """Stop listening, sweeping, resuming and every driver task; then write the moves still queued."""
        try:
            if self.listener is not None:
                await self.listener.close()
            if self._sweeper is not None:
                self._sweeper.cancel()
            for task in list(self._background):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            for table in list(self.tables.values()):  # a driver that stops lets its table be dropped
                if table.driver is not None:
                    table.driver.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await table.driver
            await self.bot_pool.close()
        finally:
            await self._commits.close()
