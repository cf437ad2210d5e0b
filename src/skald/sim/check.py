"""The conformance check behind `skald check GAME`: random games that test a game against the contract.

Each game is played twice from one seed. The first pass plays random legal actions with the cheap checks at every
ply (legal actions stable, ascending and duplicate-free; chance outcomes summing to 1; the chosen action's JSON
and notation parsing back). The second pass replays the same actions and runs the costly checks at a few positions
drawn from the seed (every illegal action tried, clones, every legal action's forms and, in an imperfect-information
game, the two-worlds leak check), then replays the whole record. Game `i` of a run uses seed `seed + i` and nothing
else, so a failure reproduces with `skald check GAME --players P --seed S --games 1`. A game that raises fails the
property being checked, with its seed; it never stops the run.

Nothing here prints: `Checker.check_game` records what it found and `Checker.results` gives one `PropertyResult`
per property, for the CLI (or a test) to show.
"""

from __future__ import annotations

import io
import json
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, Final, TypeVar

from rich.console import Console

from skald.engine import CHANCE, PERFECT, Game, IllegalAction, Record, State, sample_chance
from skald.engine.registry import get_game
from skald.sim.backends import run_local

#: A game not over after this many actions (chance included) is taken to run forever.
MAX_PLIES: Final = 100_000
#: Positions per game (besides the end) at which the costly properties are checked.
FULL_PLIES: Final = 3
#: After a swap, the two-worlds walk compares every view at each of this many plies, then at every SPARSE_EVERY-th
#: ply and at the checked position; at the plies between, it compares what a reveal shows first (the seat to move,
#: the observation, the information state and the scores). A long game (thousands of plies between a hidden draw
#: and the position checked) is then checked in seconds, not minutes; a leak only in a rendering that a reveal
#: follows within SPARSE_EVERY plies could go unseen at that swap (other swaps and games see it).
DENSE_AFTER_SWAP: Final = 16
SPARSE_EVERY: Final = 50
#: Illegal action ids tried per checked position, besides -1, `num_distinct_actions` and the legal ones' neighbours.
ILLEGAL_SAMPLE: Final = 16
#: Random actions a clone is advanced by to see that its source does not move.
CLONE_STEPS: Final = 3
#: In an action space up to this size the two-worlds check asks `illegal_reason` of every id; in a larger one, of
#: the ids `Checker._illegal_tries` picks.
PROBE_ALL: Final = 1024
#: Width of the console the check draws a presentation's board and close-up on.
CONSOLE_WIDTH: Final = 120

#: Each property: its key and the line `skald check` shows for it.
PROPERTIES: Final = (
    ("ends", "random games end"),
    ("legal", "legal actions are stable, ascending, duplicate-free and pass the rules"),
    ("chance", "chance outcomes are the legal actions and their odds sum to 1"),
    ("illegal", "illegal actions raise IllegalAction naming a rule and leave the state untouched"),
    ("clone", "clone() is independent of its source"),
    ("record", "a record replays to an identical state"),
    ("forms", "action JSON and notation round-trip, and an action's JSON is the same all game"),
    ("two_worlds", "two worlds a viewer cannot tell apart look the same to it"),
)

Snapshot = list[tuple[str, str]]
#: Each of two worlds' state before its last action (None at the start): that action's aftermath is a view too.
Befores = tuple[State | None, State | None]
T = TypeVar("T")


@dataclass(frozen=True)
class Failure:
    """One failed check: the game that shows it (player count and seed), the position, and what went wrong."""

    players: int
    seed: int
    ply: int | None
    message: str


@dataclass
class PropertyResult:
    """A property's outcome over a run: how many checks, how many failed, the first failure; `skipped` says why a
    property does not apply to the game (then it holds trivially)."""

    key: str
    title: str
    checks: int = 0
    failures: int = 0
    first: Failure | None = None
    skipped: str = ""

    @property
    def passed(self) -> bool:
        """Whether no check of this property failed."""
        return self.failures == 0


class CheckFailed(Exception):
    """A check failed; raised inside `Checker` and recorded against the property being checked."""


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, default=repr, ensure_ascii=False)


def _excerpt(one: str, two: str) -> str:
    """Where two texts first differ, with a little context from each."""
    at = next((i for i, (a, b) in enumerate(zip(one, two, strict=False)) if a != b), min(len(one), len(two)))
    start = max(0, at - 30)
    return f"at character {at}: {one[start : at + 30]!r} vs {two[start : at + 30]!r}"


def first_difference(one: Snapshot, two: Snapshot) -> str | None:
    """The label of the first part in which two snapshots differ, with an excerpt; None when they are equal."""
    for (label, a), (_, b) in zip(one, two, strict=True):
        if a != b:
            return f"{label} ({_excerpt(a, b)})"
    return None


def _observation(state: State, viewer: int | None) -> str:
    return _dumps(state.observation(viewer))


def _ask(label: str, read: Callable[[], T]) -> T:
    """`read()`; if the game raises, `CheckFailed` naming what was being read."""
    try:
        return read()
    except CheckFailed:
        raise
    except Exception as error:  # the game's bug, told apart from the check's own failures by the label
        raise CheckFailed(f"reading {label} raised {type(error).__name__}: {error}") from None


def _read(parts: Sequence[tuple[str, Callable[[], str]]]) -> Snapshot:
    """Each labelled part read in turn; a part that raises fails the check, naming the part."""
    return [(label, _ask(label, read)) for label, read in parts]


def snapshot(state: State) -> Snapshot:
    """Everything the contract lets anyone read of `state`, as labelled text: two states are the same to every front
    end, bot and adapter when their snapshots are equal. A part that raises raises `CheckFailed` naming it."""
    player = _ask("the seat to move", state.current_player)
    parts: list[tuple[str, Callable[[], str]]] = [
        ("history", lambda: _dumps(state.history)),
        ("options", lambda: _dumps(state.options)),
        ("seat to move", lambda: str(player)),
        ("legal actions", lambda: _dumps(state.legal_actions())),
        ("chance outcomes", lambda: _dumps(state.chance_outcomes() if player == CHANCE else [])),
        ("scores", lambda: _dumps(state.scores())),
        ("returns", lambda: _dumps(state.returns())),
        ("winners", lambda: _dumps(state.winners())),
        ("scorings", lambda: _dumps(state.scorings())),
    ]
    for viewer in _viewers(state):
        who = _who(viewer)
        parts.append((f"{who}'s observation", partial(_observation, state, viewer)))
        parts.append((f"{who}'s information state", partial(state.information_state_string, viewer)))
    # The table as text once: each seat's text shows what its observation holds, which is compared above.
    parts.append(("the text table", lambda: state.render_text()))
    return _read(parts)


#: The one console presentations' boards and close-ups are drawn on (its file is replaced for each drawing).
_CONSOLE = Console(file=io.StringIO(), width=CONSOLE_WIDTH, force_terminal=True, color_system="truecolor")


def drawn(shown: Any) -> str:
    """A presentation's answer as the terminal prints it, as text with its colours. Rich markup (a string) is kept
    as it is: the same markup prints the same, and reading it is a tenth of the cost of drawing it."""
    if shown is None:
        return "nothing"
    if isinstance(shown, str):
        return shown
    _CONSOLE.file = io.StringIO()
    _CONSOLE.print(shown)
    text = _CONSOLE.file.getvalue()
    assert isinstance(text, str)
    return text


def seat_names(num_players: int) -> list[str]:
    """The names the check gives the seats when a presentation asks for them."""
    return [f"Player {seat + 1}" for seat in range(num_players)]


def views(
    game: Game,
    state: State,
    viewer: int | None,
    probes: Sequence[int] = (),
    before: State | None = None,
    record: bool = True,
    cheap: bool = False,
) -> Snapshot:
    """Everything `viewer` is shown of `state` by front ends, bots and adapters, as labelled text.

    For the seat to move that includes `illegal_reason` of each id in `probes` ("Not allowed: …"); with `before`,
    the state before the last action, it includes that action's `aftermath` (shown after a seat's action, not
    chance's). Without `record`, the viewer's record and its notations are left out (the costliest part, which a
    caller comparing every ply compares at both ends). With `cheap`, only the seat to move, the observation, the
    information state and the scores (what a walk compares between its full comparisons). A part that raises raises
    `CheckFailed` naming it.
    """
    presentation = game.presentation
    names = seat_names(state.num_players)
    player = _ask("the seat to move", state.current_player)

    @cache
    def seen() -> dict[str, Any]:
        return Record.of(state).seen_by(viewer)

    def forced() -> str:
        # What adapters do with the decision: a forced move is played or skipped at once only where everyone can
        # tell it is forced (PettingZoo's agent order, a front end's pace), so that is part of every view.
        if player < 0 or not state.forced_is_public():
            return "asked" if player >= 0 else ""
        return "forced, skipped" if len(state.legal_actions()) == 1 else "asked"

    if cheap:
        return _read(
            [
                ("seat to move", lambda: str(player)),
                ("forced moves skipped", forced),
                ("observation", lambda: _dumps(state.observation(viewer))),
                ("information state", lambda: state.information_state_string(viewer)),
                ("scores", lambda: _dumps(state.scores())),
            ]
        )
    parts: list[tuple[str, Callable[[], str]]] = [
        ("seat to move", lambda: str(player)),
        ("forced moves skipped", forced),
        ("observation", lambda: _dumps(state.observation(viewer))),
        ("information state", lambda: state.information_state_string(viewer)),
        ("text", lambda: state.render_text(seat=viewer)),
        ("coloured text", lambda: state.render_text(color=True, seat=viewer)),
        ("SVG", lambda: game.render_svg(state, seat=viewer)),
        ("board", lambda: drawn(presentation.board(state, viewer, names))),
        ("scores", lambda: _dumps(state.scores())),
        ("scorings", lambda: _dumps(state.scorings())),
        ("step in words", lambda: presentation.step(state) if player >= 0 else ""),
        ("the log's section", lambda: _dumps(presentation.section(state))),
        (
            "seats' summaries",
            lambda: _dumps([presentation.seat_summary(state, s, viewer) for s in range(state.num_players)]),
        ),
    ]
    if record:
        parts.append(("notations", lambda: _dumps([entry["notation"] for entry in seen()["actions"]])))
        parts.append(("record", lambda: _dumps(seen())))
    if before is not None:
        previous, actor = before, _ask("the seat to move", before.current_player)
        if actor >= 0:  # the terminal tells what a seat's action brought about; chance's draws it shows as drawn
            aftermath = partial(presentation.aftermath, previous, state, names[actor], viewer)
            parts.append(("aftermath", lambda: _dumps(aftermath())))
            marks = partial(presentation.last_move, state, actor, state.history[-1], viewer)
            parts.append(("last move on the board", lambda: _dumps(marks())))
        elif actor == CHANCE:
            # The words on what a draw decided, which the web's log gives every viewer who may see the draw.
            drawn_action = state.history[-1]
            said = partial(presentation.outcome, previous, drawn_action)
            parts.append(
                ("what the draw decided", lambda: "" if previous.action_hidden_from(drawn_action, viewer) else said())
            )
    if viewer is not None and player == viewer:

        @cache
        def legal() -> list[int]:
            return state.legal_actions()

        @cache
        def keys() -> list[tuple[str, int]]:
            return presentation.keys(state, legal())

        def choices() -> str:
            return _dumps(
                [
                    [
                        action,
                        state.action_to_json(action),
                        state.action_to_notation(action),
                        state.notation_for(action, viewer),
                        presentation.describe(state, action),
                        state.action_reveals(action),  # whether undo stops there: known to the seat to act
                    ]
                    for action in legal()
                ]
            )

        def reasons() -> str:
            asked = state.clone()  # a game whose refusals move its state fails "illegal", and only that
            refusals = (asked.illegal_reason(action) for action in probes)
            return _dumps([[a, r.rule, r.reason] for a, r in zip(probes, refusals, strict=True) if r is not None])

        parts += [
            ("legal choices", choices),
            ("prompt", lambda: _dumps([presentation.prompt(state), presentation.click_hint(state)])),
            ("notes", lambda: _dumps(presentation.notes(state))),
            ("choice headings", lambda: _dumps(presentation.groups(state, legal()))),
            ("keys", lambda: _dumps(keys())),
            ("close-up", lambda: drawn(presentation.focus(state, keys()))),
            ("reasons an action is not allowed", reasons),
        ]
    if viewer is not None and game.provides_observation_tensor:
        seat = viewer

        def tensor() -> str:
            encoded = state.observation_tensor(seat)
            size = math.prod(game.observation_tensor_shape(state.num_players))
            if len(encoded) != size:  # the game says it encodes tensors: the tensor must fill its declared shape
                raise ValueError(f"{len(encoded)} entries, but observation_tensor_shape holds {size}")
            return _dumps(encoded)

        parts.append(("observation tensor", tensor))
    return _read(parts)


def _viewers(state: State) -> list[int | None]:
    return [None, *range(state.num_players)]


def _who(viewer: int | None) -> str:
    return "a spectator" if viewer is None else f"seat {viewer}"


class Checker:
    """Checks one game's states against the contract, game after game, and keeps one result per property."""

    def __init__(
        self,
        game: Game,
        options: Mapping[str, Any] | None = None,
        full_plies: int = FULL_PLIES,
        max_plies: int = MAX_PLIES,
        position: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.options = dict(options or {})
        #: The position every game starts from (its JSON, with `options` laid over its own), or None: the setup.
        self.position = dict(position) if position is not None else None
        self.full_plies = full_plies
        self.max_plies = max_plies
        self.imperfect = game.information != PERFECT
        self._results = {key: PropertyResult(key, title) for key, title in PROPERTIES}
        if not self.imperfect:
            self._results["two_worlds"].skipped = "perfect information: every viewer sees all that happened"
        self.players = 0
        self.seed = 0
        #: The property being worked on, and where: a game's exception outside any one check is blamed on it.
        self._at: tuple[str, int | None] = ("ends", None)
        #: The JSON form each action id had where the game being checked first offered it (docs/engine.md: the
        #: same in every position of a game).
        self._json_forms: dict[int, Any] = {}
        #: The notation each action id had where it was first offered, for a game that declares `fixed_notation`.
        self._notations: dict[int, str] = {}

    def results(self) -> list[PropertyResult]:
        """One result per property, in the order of `PROPERTIES`."""
        return [self._results[key] for key, _ in PROPERTIES]

    # -- bookkeeping ------------------------------------------------------------------------------------

    def _fail(self, key: str, ply: int | None, message: str) -> None:
        result = self._results[key]
        result.checks += 1
        result.failures += 1
        if result.first is None:
            result.first = Failure(self.players, self.seed, ply, message)

    def _passed(self, key: str, count: int = 1) -> None:
        self._results[key].checks += count

    @contextmanager
    def _checking(self, key: str, ply: int | None) -> Iterator[None]:
        """Count one check of `key`; a `CheckFailed` or any unexpected exception inside fails it."""
        try:
            yield
        except CheckFailed as failure:
            self._fail(key, ply, str(failure))
        except Exception as error:  # a bug in the game surfaces as a failed property, not a crash of the check
            self._fail(key, ply, f"raised {type(error).__name__}: {error}")
        else:
            self._passed(key)

    def _new_state(self) -> State:
        if self.position is not None:
            data = {**self.position, "options": {**(self.position.get("options") or {}), **self.options}}
            return self.game.state_from_position(data)
        return self.game.new_initial_state(self.players, self.options)

    def _replay(self, actions: Sequence[int], origin: State | None = None) -> State:
        """The state after `actions` from the game's start (from `origin`'s start position, if given)."""
        state = origin.first_state() if origin is not None else self._new_state()
        for action in actions:
            state.apply(action)
        return state

    # -- one game ---------------------------------------------------------------------------------------

    def check_game(self, players: int, seed: int) -> None:
        """Play one random game of `players` from `seed` and check every property on it.

        A game's own code raising where no single check is running (reading a snapshot, replaying) fails the
        property being worked on, with this seed, and ends this game's checks: never the run."""
        self.players, self.seed = players, seed
        self._at = ("ends", None)
        self._json_forms = {}
        self._notations = {}
        rng = random.Random(seed)
        try:
            played = self._play(rng)
            if played is not None:
                self._replay_checking(played, rng)
        except Exception as error:
            key, ply = self._at
            told = str(error) if isinstance(error, CheckFailed) else f"raised {type(error).__name__}: {error}"
            self._fail(key, ply, f"{told} (the rest of this game was not checked)")

    def _play(self, rng: random.Random) -> State | None:
        """The first pass: a random game with the cheap checks at every ply; None if it did not end well."""
        ply = 0
        with self._checking("ends", None):
            state = self._new_state()
            while not state.is_terminal():
                if ply >= self.max_plies:
                    raise CheckFailed(f"not over after {self.max_plies} actions (chance included)")
                legal = self._check_legal_lists(state, ply)
                if not legal:
                    raise CheckFailed(f"no legal action at ply {ply}, yet the game is not over")
                if state.current_player() == CHANCE:
                    self._check_chance(state, legal, ply)
                    action = sample_chance(state, rng)
                else:
                    action = rng.choice(legal)
                self._check_forms(state, [action], ply)
                try:
                    state.apply(action)
                except Exception as error:
                    raise CheckFailed(
                        f"applying legal action {action} at ply {ply} raised {type(error).__name__}: {error}"
                    ) from None
                ply += 1
            self._check_legal_lists(state, ply)
            return state
        return None

    def _replay_checking(self, played: State, rng: random.Random) -> None:
        """The second pass: replay the game, with the costly checks at a few positions and at the end."""
        history = list(played.history)
        length = len(history)
        chosen = set(rng.sample(range(length + 1), min(self.full_plies, length + 1))) | {length}
        saved = min(chosen)  # a game saved part-way must load back too
        hidden: list[list[int | None]] = []  # per ply, the viewers its action is hidden from
        self._at = ("record", 0)
        state = self._new_state()
        for ply in range(length + 1):
            if ply in chosen:
                state = self._full_checks(state, history, hidden, ply, random.Random(rng.random()))
            if ply == saved and ply < length:
                self._check_record(state, ply)
            if ply == length:
                break
            action = history[ply]
            if self.imperfect:
                self._at = ("two_worlds", ply)
                hidden.append([v for v in _viewers(state) if state.action_hidden_from(action, v)])
            self._at = ("record", ply)
            state.apply(action)
        final: Snapshot | None = None
        with self._checking("record", length):
            final = snapshot(state)
            difference = first_difference(snapshot(played), final)
            if difference:
                raise CheckFailed(f"replaying a game's actions gives another state: {difference}")
        if final is not None:  # else reading the state failed, and has been counted
            self._check_record(state, length, final)

    def _full_checks(
        self, state: State, history: list[int], hidden: list[list[int | None]], ply: int, rng: random.Random
    ) -> State:
        """Every costly property at this position; returns the state to go on with (rebuilt if a check moved it)."""
        self._at = ("legal", ply)
        legal = state.legal_actions()
        with self._checking("legal", ply):
            for action in legal:
                reason = state.illegal_reason(action)
                if reason is not None:
                    raise CheckFailed(f"legal action {action} is refused: {reason}")
        self._check_forms(state, legal, ply)
        self._at = ("illegal", ply)
        before = snapshot(state)
        illegal = self._illegal_tries(legal, rng)
        refused = self._refuse_illegal(state, illegal, ply)
        self._at = ("clone", ply)
        copy = state.clone()
        self._advance(copy, rng)
        # One snapshot answers both: refusing the illegal actions and playing on a clone left the state as it was.
        if refused and snapshot(state) == before:
            self._passed("illegal")
            self._check_clone(state, before, copy, ply, rng, source_checked=True)
        elif refused:
            state = self._replay(history[:ply])  # go on from an honest copy
            self._blame(state, before, illegal, ply, rng)
        else:
            state = self._replay(history[:ply])
        self._at = ("two_worlds", ply)
        if self.imperfect and not state.is_terminal():
            self._check_two_worlds(state, history, hidden, ply, rng)
        return state

    # -- the properties ---------------------------------------------------------------------------------

    def _check_legal_lists(self, state: State, ply: int) -> list[int]:
        """Legal actions twice: the same list, ascending, no duplicates, inside the action space."""
        legal = state.legal_actions()
        with self._checking("legal", ply):
            again = state.legal_actions()
            if again != legal:
                raise CheckFailed(f"legal_actions() changed between two calls: {legal[:8]}… then {again[:8]}…")
            if legal != sorted(set(legal)):
                raise CheckFailed(f"legal actions are not ascending and duplicate-free: {legal[:12]}")
            size = self.game.num_distinct_actions
            outside = [a for a in legal if not 0 <= a < size]
            if outside:
                raise CheckFailed(f"legal actions {outside[:5]} lie outside the action space 0–{size - 1}")
            if state.is_terminal() and legal:
                raise CheckFailed(f"the game is over, yet legal_actions() lists {legal[:5]}")
        return legal

    def _check_chance(self, state: State, legal: list[int], ply: int) -> None:
        with self._checking("chance", ply):
            outcomes = state.chance_outcomes()
            total = sum(p for _, p in outcomes)
            if abs(total - 1.0) > 1e-9:
                raise CheckFailed(f"chance outcomes' probabilities sum to {total!r}, not 1")
            if any(not p > 0 for _, p in outcomes):
                raise CheckFailed("a chance outcome has a probability that is not positive")
            if sorted(a for a, _ in outcomes) != legal:
                raise CheckFailed("chance outcomes are not the legal actions at a chance node")

    def _check_forms(self, state: State, actions: list[int], ply: int) -> None:
        with self._checking("forms", ply):
            for action in actions:
                data = json.loads(json.dumps(state.action_to_json(action)))
                first = self._json_forms.setdefault(action, data)
                if data != first:
                    raise CheckFailed(f"action {action}'s JSON is {data} here but was {first} earlier in the game")
                parsed = state.action_from_json(data)
                if parsed != action:
                    raise CheckFailed(f"action {action}'s JSON {data} parses back as {parsed}")
                notation = state.action_to_notation(action)
                parsed = state.action_from_notation(notation)
                if parsed != action:
                    raise CheckFailed(f"action {action}'s notation {notation!r} parses back as {parsed}")
                if self.game.fixed_notation:
                    said = self._notations.setdefault(action, notation)
                    if notation != said:
                        raise CheckFailed(
                            f"action {action}'s notation is {notation!r} here but was {said!r} earlier in the game, "
                            "and the game declares `fixed_notation`"
                        )

    def _illegal_tries(self, legal: list[int], rng: random.Random) -> list[int]:
        """Ids outside the legal set to try: -1, the first id past the space, the legal ones' neighbours, and a
        random sample of the space."""
        size = self.game.num_distinct_actions
        allowed = set(legal)
        tries = {-1, size, *(a + 1 for a in legal), *(a - 1 for a in legal)}
        tries.update(rng.randrange(size) for _ in range(ILLEGAL_SAMPLE))
        return sorted(a for a in tries if a not in allowed)

    def _refuse_illegal(self, state: State, illegal: list[int], ply: int) -> bool:
        """Apply each illegal id to `state`: each must raise `IllegalAction` naming a rule and a reason. False (and
        a failure) if one was not refused so; whether the state stayed put is for the caller to see."""
        for action in illegal:
            try:
                state.apply(action)
            except IllegalAction as error:
                if not isinstance(error.rule, str) or not error.rule.strip():
                    self._fail("illegal", ply, f"IllegalAction for action {action} names no rule")
                    return False
                if not isinstance(error.reason, str) or not error.reason.strip():
                    self._fail("illegal", ply, f"IllegalAction for action {action} ({error.rule}) gives no reason")
                    return False
            except Exception as error:
                message = f"illegal action {action} raised {type(error).__name__} instead of IllegalAction: {error}"
                self._fail("illegal", ply, message)
                return False
            else:
                self._fail("illegal", ply, f"illegal action {action} (not among the legal actions) was applied")
                return False
        return True

    def _blame(self, state: State, before: Snapshot, illegal: list[int], ply: int, rng: random.Random) -> None:
        """The state moved: find whether refusing an illegal action or playing on a clone moved it."""
        for action in illegal:
            probe = self._replay(state.history)
            with suppress(Exception):
                probe.apply(action)
            difference = first_difference(before, snapshot(probe))
            if difference:
                self._fail("illegal", ply, f"refusing illegal action {action} changed the state: {difference}")
                break
        else:
            self._passed("illegal")
        copy = state.clone()
        self._advance(copy, rng)
        self._check_clone(state, before, copy, ply, rng)

    def _check_clone(
        self, state: State, before: Snapshot, copy: State, ply: int, rng: random.Random, source_checked: bool = False
    ) -> None:
        """`copy`, a clone of `state`, has been played on: `state` must still match `before` (already seen when
        `source_checked`); and the other way round."""
        with self._checking("clone", ply):
            if copy is state:
                raise CheckFailed("clone() returned the state itself")
            difference = None if source_checked else first_difference(before, snapshot(state))
            if difference:
                raise CheckFailed(f"playing on a clone changed its source: {difference}")
            # The other way: the source moves on and its clone stays (the source here is itself a fresh clone).
            source = state.clone()
            kept = source.clone()
            self._advance(source, rng)
            difference = first_difference(before, snapshot(kept))
            if difference:
                raise CheckFailed(f"a clone differs from its source, or changed as its source moved on: {difference}")

    @staticmethod
    def _advance(state: State, rng: random.Random) -> None:
        for _ in range(CLONE_STEPS):
            if state.is_terminal():
                return
            player = state.current_player()
            state.apply(sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions()))

    def _check_record(self, state: State, ply: int, final: Snapshot | None = None) -> None:
        """`state`'s record, through its JSON text and back, replays to a state with `state`'s snapshot (`final`,
        if already taken)."""
        with self._checking("record", ply):
            final = final if final is not None else snapshot(state)
            data = json.loads(json.dumps(Record.of(state).to_dict()))
            replayed = Record.from_dict(data).replay()
            difference = first_difference(final, snapshot(replayed))
            if difference:
                raise CheckFailed(f"the record's replay differs in {difference}")

    # -- the two-worlds leak check ----------------------------------------------------------------------

    def _check_two_worlds(
        self, state: State, history: list[int], hidden: list[list[int | None]], ply: int, rng: random.Random
    ) -> None:
        """For each seat s: a world resampled from s's information state, and a world where one action hidden from
        s is swapped for another s is shown the same way, must look the same to s and to a spectator."""
        probes = self._probes(state, rng)
        before = self._before(state)
        for seat in range(state.num_players):
            with self._checking("two_worlds", ply):
                self._resampled_world(state, before, seat, probes, rng)
            hidden_here = [i for i in range(ply) if seat in hidden[i]]
            if hidden_here:
                with self._checking("two_worlds", ply):
                    self._swapped_world(state, history, hidden, rng.choice(hidden_here), seat, probes, rng)

    def _probes(self, state: State, rng: random.Random) -> list[int]:
        """The ids whose `illegal_reason` the seat to move is compared on: every id of a small action space, else
        the legal ones and those `_illegal_tries` picks."""
        size = self.game.num_distinct_actions
        if size <= PROBE_ALL:
            return list(range(-1, size + 1))
        legal = state.legal_actions()
        return sorted({*legal, *self._illegal_tries(legal, rng)})

    def _before(self, state: State) -> State | None:
        """The state before `state`'s last action (None at the start), for that action's aftermath."""
        return self._replay(state.history[:-1]) if state.history else None

    def _same_to(
        self, viewer: int | None, one: State, two: State, how: str, probes: Sequence[int], befores: Befores
    ) -> None:
        """Two worlds `viewer` cannot tell apart: every view must be the same."""
        difference = first_difference(
            views(self.game, one, viewer, probes, befores[0]), views(self.game, two, viewer, probes, befores[1])
        )
        if difference:
            raise CheckFailed(
                f"{_who(viewer)} is shown a different {difference} in two worlds it cannot tell apart ({how})"
            )

    def _still_alike(
        self,
        viewer: int | None,
        one: State,
        two: State,
        how: str,
        probes: Sequence[int],
        befores: Befores,
        record: bool,
        cheap: bool = False,
    ) -> bool:
        """Two worlds every action of which `viewer` was shown alike: False if they now show it something different
        and its information states differ too (a reveal: from here on it may tell them apart); a difference its
        information state does not have, or an information state that differs while all else is alike, fails."""
        first = views(self.game, one, viewer, probes, befores[0], record, cheap)
        second = views(self.game, two, viewer, probes, befores[1], record, cheap)
        if first == second:
            return True
        shown = first_difference(_without_infostate(first), _without_infostate(second))
        if shown is None:
            difference = first_difference(first, second)
            raise CheckFailed(
                f"{_who(viewer)}'s information-state string tells apart two worlds that show it the same and whose "
                f"every action it was shown alike: {difference} ({how})"
            )
        if one.information_state_string(viewer) == two.information_state_string(viewer):
            raise CheckFailed(
                f"{_who(viewer)} is shown a different {shown} in two worlds its information state does not tell apart "
                f"({how})"
            )
        return False

    def _resampled_world(
        self, state: State, before: State | None, seat: int, probes: Sequence[int], rng: random.Random
    ) -> None:
        """A world resampled from `seat`'s information state (`before`: the state before `state`'s last action)
        must replay from its own history and look the same as `state` to `seat` and to a spectator."""
        sample = state.resample_from_infostate(seat, random.Random(rng.random()))
        if sample is state:
            raise CheckFailed(f"resample_from_infostate({seat}) returned the state itself")
        try:
            # A world begins where its own history begins: a resampled start position deals its hands again.
            world_before = self._replay(sample.history[:-1], sample) if sample.history else None
            world = sample.first_state() if world_before is None else world_before.clone()
            if sample.history:
                world.apply(sample.history[-1])
        except IllegalAction as error:
            raise CheckFailed(
                f"resample_from_infostate({seat}) gives a history that does not replay: {error}"
            ) from None
        difference = first_difference(snapshot(sample), snapshot(world))
        if difference:
            raise CheckFailed(f"resample_from_infostate({seat}) gives a state unlike its own history's: {difference}")
        how = f"the second drawn by resample_from_infostate({seat})"
        befores: Befores = (before, world_before)
        self._same_to(seat, state, world, how, probes, befores)
        self._same_to(None, state, world, how, probes, befores)

    def _resample_alike(self, one: State, two: State, seat: int, how: str, rng: random.Random) -> None:
        """Two worlds `seat` cannot tell apart resample alike from the same seed."""
        draw = rng.random()
        first = one.resample_from_infostate(seat, random.Random(draw)).history
        second = two.resample_from_infostate(seat, random.Random(draw)).history
        if first != second:
            raise CheckFailed(
                f"resample_from_infostate({seat}) depends on more than seat {seat}'s information state ({how})"
            )

    def _swapped_world(
        self,
        state: State,
        history: list[int],
        hidden: list[list[int | None]],
        index: int,
        seat: int,
        probes: Sequence[int],
        rng: random.Random,
    ) -> None:
        """Swap action `index` (hidden from `seat`) for another shown to `seat` alike, and play the same actions on
        in both worlds up to the checked position. Right after the swap the worlds must look the same to `seat` (and
        to a spectator, if the swap is hidden from it too). After that they must look the same to it at every ply
        for as long as the game shows it every later action alike in both (`action_hidden_from` and `notation_for`)
        and nothing it is shown differs but where its information state differs too (a reveal)."""
        before = self._replay(history[:index])
        action = history[index]
        shown = before.notation_for(action, seat)
        others = [
            other
            for other in before.legal_actions()
            if other != action and before.action_hidden_from(other, seat) and before.notation_for(other, seat) == shown
        ]
        if not others:
            return
        other = rng.choice(others)
        how = (
            f"action {index}: {before.action_to_notation(action)!r} or {before.action_to_notation(other)!r}, "
            f"both shown to seat {seat} as {shown!r}"
        )
        one, two = before.clone(), before.clone()
        one.apply(action)
        two.apply(other)
        watching: list[int | None] = [seat]
        spectator_blind = None in hidden[index] and before.action_hidden_from(other, None)
        if spectator_blind and before.notation_for(action, None) == before.notation_for(other, None):
            watching.append(None)
        end = len(state.history)
        befores: Befores = (before, before)
        for ply in range(index + 1, end + 1):
            if one.is_terminal() or two.is_terminal():
                return  # the end reveals the whole game
            if ply == index + 1:
                for viewer in watching:
                    self._same_to(viewer, one, two, how, probes, befores)
                self._resample_alike(one, two, seat, how, rng)
            else:
                where = f"{how}, then the same actions to ply {ply}"
                # The viewer's record is compared at the checked position; in between, each action's notation.
                last = ply == end
                walked = ply - index
                cheap = not (last or walked <= DENSE_AFTER_SWAP or walked % SPARSE_EVERY == 0)
                watching = [v for v in watching if self._still_alike(v, one, two, where, probes, befores, last, cheap)]
                if ply == end and seat in watching:
                    self._resample_alike(one, two, seat, where, rng)
            if ply == end or not watching:
                return
            later = history[ply]
            if two.illegal_reason(later) is not None:
                return  # not possible in the second world: the worlds part here
            # A later action the game shows a viewer differently in the two worlds tells them apart for it.
            watching = [
                v
                for v in watching
                if one.action_hidden_from(later, v) == two.action_hidden_from(later, v)
                and one.notation_for(later, v) == two.notation_for(later, v)
            ]
            befores = (one.clone(), two.clone())
            one.apply(later)
            two.apply(later)


def _without_infostate(views: Snapshot) -> Snapshot:
    """A viewer's views without its information-state string (to see whether anything else differs)."""
    return [(label, text) for label, text in views if label != "information state"]


def run_check(
    game: Game,
    players: Sequence[int],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    on_game: Callable[[], None] | None = None,
    workers: int = 1,
    position: Mapping[str, Any] | None = None,
) -> Iterator[PropertyResult]:
    """Check `games` random games of `game` at each player count (game `i` from seed `seed + i`), calling
    `on_game` after each; then yield one result per property. With `workers` > 1 the games are checked in that
    many processes (the game must then be registered, as each process looks it up by name); the results are the
    same as in one process, the first failure included. With `position` (a position's JSON) every game starts
    there."""
    start = dict(position) if position is not None else None
    if workers <= 1:
        checker = Checker(game, options, position=start)
        for count in players:
            for index in range(games):
                checker.check_game(count, seed + index)
                if on_game is not None:
                    on_game()
        yield from checker.results()
        return
    tasks = [
        CheckTask(game.name, dict(options or {}), count, seed + index, start)
        for count in players
        for index in range(games)
    ]
    done = run_local(check_one, tasks, workers, lambda _results: on_game() if on_game is not None else None)
    yield from merge_results(done)


@dataclass(frozen=True)
class CheckTask:
    """One game to check in a worker process: the registered game's name, its options, player count and seed."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int
    position: dict[str, Any] | None = None


def check_one(task: CheckTask) -> list[PropertyResult]:
    """Check one game (a worker process's task)."""
    checker = Checker(get_game(task.game), task.options, position=task.position)
    checker.check_game(task.players, task.seed)
    return checker.results()


def merge_results(runs: Sequence[Sequence[PropertyResult]]) -> list[PropertyResult]:
    """Each property's results over several runs, in run order: checks and failures summed, the first failure the
    earliest run's."""
    merged = [PropertyResult(r.key, r.title, skipped=r.skipped) for r in runs[0]] if runs else []
    for run in runs:
        for total, result in zip(merged, run, strict=True):
            total.checks += result.checks
            total.failures += result.failures
            if total.first is None:
                total.first = result.first
    return merged
