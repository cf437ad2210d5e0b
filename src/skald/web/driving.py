"""The moves a live table makes by itself: chance drawn on the server, a person's only answer and standing answers
given, bots' moves asked of the bot workers (`skald.web.botpool`), each committed like a person's.

Chance is sampled from a generator seeded by the game's seed and the ply (`skald.engine.fair.draw`), so a game
resumed after a crash draws exactly what it would have drawn.

Where the table may not know whether the seat to act has one answer (`State.forced_is_public`: a Vikingatid card
window, where "pass" is the only answer exactly when the holder has nothing playable), the answers the table gives
itself go out together, as one run, at a time fixed by what everyone sees: `pace` seconds, and `pace` more for each
bot decision in the run, after the run began. A person's answer given for him (his standing answer, or his only
one) is a run of its own, so that the table receives the same messages whether he clicked or not. Each bot's
search there is cut off at half its share (`Bot.within`), so a bot that holds a playable card and thinks answers
at the same moment as one that holds nothing and does not (docs/vikingatid.md, "Card windows without a question
with one answer").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from skald.engine import CHANCE, State
from skald.engine.fair import draw
from skald.engine.presentation import only_answer
from skald.web.botpool import BotPool
from skald.web.botworker import BotJob
from skald.web.live_table import LiveTable, LogEntry
from skald.web.settings import HIDDEN_PACE

LOG = logging.getLogger("skald.web")

#: Commit a table's moves at its version, reaching a state, logged as entries; False if refused as stale.
Commit = Callable[[LiveTable, int, list[tuple[int, int]], State, list[LogEntry]], Awaitable[bool]]


def report_failure(task: asyncio.Task[None]) -> None:
    """Log why a table's driver (or other background work) stopped, if it failed (the game waits until the table is
    loaded again)."""
    if not task.cancelled() and task.exception() is not None:
        LOG.error("a table's bots and chance stopped", exc_info=task.exception())


def hidden(state: State) -> bool:
    """Whether a seat decides at `state` and the table may not know whether it has one answer."""
    return state.current_player() >= 0 and not state.forced_is_public()


def table_answer(table: LiveTable, state: State) -> int | None:
    """What the table plays by itself at `state` without asking a bot: chance's draw, the standing answer the
    person to act keeps, or his only answer; None where a bot or a person decides (or the game is over)."""
    player = state.current_player()
    if player == CHANCE:
        return draw(state, table.seed)
    if player < 0 or player in table.bots:
        return None
    kept = table.standing_action(state)
    return kept if kept is not None else table.only_answer(state)


def absent_pass(table: LiveTable, player: int, state: State) -> int | None:
    """Under the table's `pass` rule, the pass of an absent player's seat where the rules allow one
    (`Presentation.pass_action`); None elsewhere (its stand-in bot then decides)."""
    setting = table.clock_setting
    info = table.seats[player]
    if setting is None or setting.timeout != "pass" or not info.away or info.resigned is not None:
        return None
    return table.game.presentation.pass_action(state)


def follow(table: LiveTable, after: State, moves: list[tuple[int, int]], entries: list[LogEntry]) -> None:
    """Draw every chance outcome due next in `after` and give each standing or only answer due, adding them to
    `moves` and `entries` (committed together), until a seat must decide, the game is over, or a decision of hidden
    forcedness comes (the driver answers that at its pace)."""
    while not after.is_terminal():
        if hidden(after):
            table.standing_action(after)  # forgets a standing answer this decision does not take, before it is shown
            return
        action = table_answer(table, after)
        if action is None:
            return
        add(table, after, after.current_player(), action, moves, entries)


def add(
    table: LiveTable, after: State, player: int, action: int, moves: list[tuple[int, int]], entries: list[LogEntry]
) -> None:
    """Apply `action` of `player` to `after`, noting it in `moves` and `entries`."""
    # An answer the table gave for a person goes back with his decision before it, where everyone can tell it was
    # his only one; where that is hidden (a card window), it counts as his decision, so a step back tells nothing.
    given = player >= 0 and player not in table.bots and after.forced_is_public()
    moves.append((player, action))
    entries.append(table.entry(after, action, given=given))
    after.apply(action)


def due(table: LiveTable) -> bool:
    """Whether the table's next move is chance's, a bot's, or an answer the table gives for a person."""
    state = table.state
    player = state.current_player()
    if table.over or table.waiting:  # a table waiting for its players plays nothing, chance included
        return False
    return player < 0 or player in table.bots or table_answer(table, state) is not None


class Run:
    """Moves the driver makes in a row and commits together: from `version`, reaching `after`; `hidden` if they
    answer decisions of hidden forcedness (then released together, `bots` counting the bot decisions among them)."""

    def __init__(self, table: LiveTable, started: float) -> None:
        self.version = table.version
        #: The steps taken back before it: a version taken back may be reached again by other moves.
        self.undos = table.undos
        self.after = table.state.clone()
        self.hidden = hidden(self.after)
        self.started = started
        self.bots = 0
        self.moves: list[tuple[int, int]] = []
        self.entries: list[LogEntry] = []

    def current(self, table: LiveTable) -> bool:
        """Whether the table is still at the position the run began from."""
        return table.version == self.version and table.undos == self.undos

    def add(self, table: LiveTable, action: int) -> None:
        """Play `action` for the seat (or chance) to act."""
        add(table, self.after, self.after.current_player(), action, self.moves, self.entries)

    def goes_on(self) -> bool:
        """Whether the next decision belongs in this run: a run of hidden forcedness takes every decision of that
        kind and chance; another takes chance and the table's own answers, and one bot move to begin with."""
        after = self.after
        if after.is_terminal():
            return False
        if self.hidden:
            return after.current_player() == CHANCE or hidden(after)
        return not hidden(after)


class Driver:
    """Plays the moves tables make by themselves, one task per table while any is due, committing each through
    `commit`; `settle` is told when a table's task ends (nothing may need the table any more)."""

    def __init__(
        self, pool: BotPool, commit: Commit, settle: Callable[[LiveTable], None], pace: float = HIDDEN_PACE
    ) -> None:
        self.pool = pool
        self.commit = commit
        self.settle = settle
        self.pace = pace

    def drive(self, table: LiveTable) -> None:
        """Start the task that plays chance, bot seats and the table's own answers when one is due, unless it is
        already running."""
        if not due(table):
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))
            table.driver.add_done_callback(report_failure)
            table.driver.add_done_callback(lambda _driver: self.settle(table))

    async def _drive(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with table.lock:
                if not due(table):
                    return
                run = Run(table, loop.time())
            if run.hidden:
                # Let the update before the run reach every client first: a bot's job sent at once would hold up
                # its delivery by a little, and only when the bot has something to think about.
                await asyncio.sleep(self.pace / 4)
            if not await self._extend(table, run) or not run.moves:
                continue
            if run.hidden:
                release = run.started + self.pace * (1 + run.bots)
                await asyncio.sleep(max(0.0, release - loop.time()))
            table.standing_action(run.after)  # forgets a standing answer the next decision does not take
            async with table.lock:
                if run.current(table):
                    # Committed, or refused because another process moved first: either way, look again.
                    await self.commit(table, run.version, run.moves, run.after, run.entries)

    async def _extend(self, table: LiveTable, run: Run) -> bool:
        """Play the run's moves until it ends; False if the table moved on meanwhile (the run is dropped)."""
        while run.goes_on():
            after = run.after
            player = after.current_player()
            action = table_answer(table, after)
            if action is None and player in table.bots:
                if run.moves and not run.hidden:
                    return True  # a bot's move in public starts a run of its own
                action = await self._bot_move(table, run, player)
                if not run.current(table):
                    return False
            if action is None:
                return True  # a person decides
            if run.hidden and player >= 0 and player not in table.bots:
                # A person's answer given by the table is a run of its own, followed as his click would be
                # (`Commits.submit`): what reaches the table has the same shape whether he had a choice or not.
                if not run.moves:
                    run.add(table, action)
                    follow(table, run.after, run.moves, run.entries)
                return True
            run.add(table, action)
        return True

    async def _bot_move(self, table: LiveTable, run: Run, player: int) -> int:
        """The bot's move at the run's position: asked of a worker, its search cut off where the run is hidden."""
        after = run.after
        if run.hidden:
            run.bots += 1
            only = only_answer(after)
            if only is not None:
                return only
        passed = absent_pass(table, player, after)
        if passed is not None:  # a decision like any bot's, at the same pace: only the seat knows what it could do
            return passed
        job = BotJob(
            table.id,
            table.game.name,
            after.num_players,
            table.options,
            list(after.history),
            player,
            table.bot_spec(player),
            table.bots[player].seed,
            self.pace / 2 if run.hidden else None,
        )
        # In a worker process: the search never holds this process's interpreter lock (see `skald.web.botpool`).
        return await self.pool.move(job, table.bots[player], after.clone())
