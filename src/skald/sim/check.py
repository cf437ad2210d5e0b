"""The conformance check behind `skald check GAME`: random games that test a game against the contract.

Each game is played twice from one seed. The first pass plays random legal actions with the cheap checks at every
ply (legal actions stable, ascending and duplicate-free; chance outcomes summing to 1; the chosen action's JSON
and notation parsing back). The second pass replays the same actions and runs the costly checks at a few positions
drawn from the seed (every illegal action tried, clones, every legal action's forms and, in an imperfect-information
game, the two-worlds leak check), then replays the whole record. Game `i` of a run uses seed `seed + i` and nothing
else, so a failure reproduces with `skald check GAME --players P --seed S --games 1`.

Nothing here prints: `Checker.check_game` records what it found and `Checker.results` gives one `PropertyResult`
per property, for the CLI (or a test) to show.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Final

from skald.engine import CHANCE, PERFECT, Game, IllegalAction, Record, State, sample_chance

#: A game not over after this many actions (chance included) is taken to run forever.
MAX_PLIES: Final = 100_000
#: Positions per game (besides the end) at which the costly properties are checked.
FULL_PLIES: Final = 3
#: Illegal action ids tried per checked position, besides -1, `num_distinct_actions` and the legal ones' neighbours.
ILLEGAL_SAMPLE: Final = 16
#: Random actions a clone is advanced by to see that its source does not move.
CLONE_STEPS: Final = 3

#: Each property: its key and the line `skald check` shows for it.
PROPERTIES: Final = (
    ("ends", "random games end"),
    ("legal", "legal actions are stable, ascending, duplicate-free and pass the rules"),
    ("chance", "chance outcomes are the legal actions and their odds sum to 1"),
    ("illegal", "illegal actions raise IllegalAction naming a rule and leave the state untouched"),
    ("clone", "clone() is independent of its source"),
    ("record", "a record replays to an identical state"),
    ("forms", "action JSON and notation round-trip"),
    ("two_worlds", "two worlds a viewer cannot tell apart look the same to it"),
)

Snapshot = list[tuple[str, str]]


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


def snapshot(state: State) -> Snapshot:
    """Everything the contract lets anyone read of `state`, as labelled text: two states are the same to every front
    end, bot and adapter when their snapshots are equal."""
    player = state.current_player()
    parts: Snapshot = [
        ("history", _dumps(state.history)),
        ("options", _dumps(getattr(state, "options", {}))),
        ("seat to move", str(player)),
        ("legal actions", _dumps(state.legal_actions())),
        ("chance outcomes", _dumps(state.chance_outcomes() if player == CHANCE else [])),
        ("scores", _dumps(state.scores())),
        ("returns", _dumps(state.returns())),
        ("winners", _dumps(state.winners())),
        ("scorings", _dumps(state.scorings())),
    ]
    for viewer in _viewers(state):
        who = _who(viewer)
        parts.append((f"{who}'s observation", _dumps(state.observation(viewer))))
        parts.append((f"{who}'s information state", state.information_state_string(viewer)))
    # The table as text once: each seat's text shows what its observation holds, which is compared above.
    parts.append(("the text table", state.render_text()))
    return parts


def views(game: Game, state: State, viewer: int | None) -> Snapshot:
    """Everything `viewer` is shown of `state` by front ends, bots and adapters, as labelled text."""
    record = Record.of(state).seen_by(viewer)
    parts: Snapshot = [
        ("seat to move", str(state.current_player())),
        ("observation", _dumps(state.observation(viewer))),
        ("information state", state.information_state_string(viewer)),
        ("text", state.render_text(seat=viewer)),
        ("coloured text", state.render_text(color=True, seat=viewer)),
        ("SVG", game.render_svg(state, seat=viewer)),
        ("notations", _dumps([entry["notation"] for entry in record["actions"]])),
        ("record", _dumps(record)),
        ("scores", _dumps(state.scores())),
    ]
    if viewer is not None and state.current_player() == viewer:
        presentation = game.presentation
        choices = [
            [
                action,
                state.action_to_json(action),
                state.action_to_notation(action),
                state.notation_for(action, viewer),
                presentation.describe(state, action),
            ]
            for action in state.legal_actions()
        ]
        parts.append(("legal choices", _dumps(choices)))
        prompt = [presentation.prompt(state), presentation.click_hint(state), presentation.notes(state)]
        parts.append(("prompt", _dumps(prompt)))
    if viewer is not None:
        try:
            tensor = state.observation_tensor(viewer)
        except NotImplementedError:
            pass
        else:
            parts.append(("observation tensor", _dumps(tensor)))
    return parts


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
    ) -> None:
        self.game = game
        self.options = dict(options or {})
        self.full_plies = full_plies
        self.max_plies = max_plies
        self.imperfect = game.information != PERFECT
        self._results = {key: PropertyResult(key, title) for key, title in PROPERTIES}
        if not self.imperfect:
            self._results["two_worlds"].skipped = "perfect information: every viewer sees all that happened"
        self.players = 0
        self.seed = 0

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
        return self.game.new_initial_state(self.players, self.options)

    def _replay(self, actions: Sequence[int]) -> State:
        state = self._new_state()
        for action in actions:
            state.apply(action)
        return state

    # -- one game ---------------------------------------------------------------------------------------

    def check_game(self, players: int, seed: int) -> None:
        """Play one random game of `players` from `seed` and check every property on it."""
        self.players, self.seed = players, seed
        rng = random.Random(seed)
        played = self._play(rng)
        if played is not None:
            self._replay_checking(played, rng)

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
        state = self._new_state()
        for ply in range(length + 1):
            if ply in chosen:
                state = self._full_checks(state, history, hidden, ply, random.Random(rng.random()))
            if ply == saved and ply < length:
                self._check_record(state, snapshot(state), ply)
            if ply == length:
                break
            action = history[ply]
            if self.imperfect:
                hidden.append([v for v in _viewers(state) if state.action_hidden_from(action, v)])
            state.apply(action)
        final = snapshot(state)
        with self._checking("record", length):
            difference = first_difference(snapshot(played), final)
            if difference:
                raise CheckFailed(f"replaying a game's actions gives another state: {difference}")
        self._check_record(state, final, length)

    def _full_checks(
        self, state: State, history: list[int], hidden: list[list[int | None]], ply: int, rng: random.Random
    ) -> State:
        """Every costly property at this position; returns the state to go on with (rebuilt if a check moved it)."""
        legal = state.legal_actions()
        with self._checking("legal", ply):
            for action in legal:
                reason = state.illegal_reason(action)
                if reason is not None:
                    raise CheckFailed(f"legal action {action} is refused: {reason}")
        self._check_forms(state, legal, ply)
        before = snapshot(state)
        illegal = self._illegal_tries(legal, rng)
        refused = self._refuse_illegal(state, illegal, ply)
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
                parsed = state.action_from_json(data)
                if parsed != action:
                    raise CheckFailed(f"action {action}'s JSON {data} parses back as {parsed}")
                notation = state.action_to_notation(action)
                parsed = state.action_from_notation(notation)
                if parsed != action:
                    raise CheckFailed(f"action {action}'s notation {notation!r} parses back as {parsed}")

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

    def _check_record(self, state: State, final: Snapshot, ply: int) -> None:
        """`state`'s record, through its JSON text and back, replays to a state with the snapshot `final`."""
        with self._checking("record", ply):
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
        for seat in range(state.num_players):
            with self._checking("two_worlds", ply):
                self._resampled_world(state, seat, rng)
            hidden_here = [i for i in range(ply) if seat in hidden[i]]
            if hidden_here:
                with self._checking("two_worlds", ply):
                    self._swapped_world(state, history, hidden, rng.choice(hidden_here), seat, rng)

    def _same_to(self, viewer: int | None, one: State, two: State, how: str) -> None:
        difference = first_difference(views(self.game, one, viewer), views(self.game, two, viewer))
        if difference:
            raise CheckFailed(
                f"{_who(viewer)} is shown a different {difference} in two worlds it cannot tell apart ({how})"
            )

    def _resampled_world(self, state: State, seat: int, rng: random.Random) -> None:
        sample = state.resample_from_infostate(seat, random.Random(rng.random()))
        if sample is state:
            raise CheckFailed(f"resample_from_infostate({seat}) returned the state itself")
        try:
            world = self._replay(sample.history)
        except IllegalAction as error:
            raise CheckFailed(
                f"resample_from_infostate({seat}) gives a history that does not replay: {error}"
            ) from None
        difference = first_difference(snapshot(sample), snapshot(world))
        if difference:
            raise CheckFailed(f"resample_from_infostate({seat}) gives a state unlike its own history's: {difference}")
        how = f"the second drawn by resample_from_infostate({seat})"
        self._same_to(seat, state, world, how)
        self._same_to(None, state, world, how)

    def _swapped_world(
        self,
        state: State,
        history: list[int],
        hidden: list[list[int | None]],
        index: int,
        seat: int,
        rng: random.Random,
    ) -> None:
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
        one = self._replay(history[: index + 1])
        two = self._replay([*history[:index], other])
        if one.is_terminal() or two.is_terminal():
            return  # the end reveals the whole game
        self._same_to(seat, one, two, how)
        spectator_blind = None in hidden[index] and before.action_hidden_from(other, None)
        if spectator_blind and before.notation_for(action, None) == before.notation_for(other, None):
            self._same_to(None, one, two, how)
        draw = rng.random()
        first = one.resample_from_infostate(seat, random.Random(draw)).history
        second = two.resample_from_infostate(seat, random.Random(draw)).history
        if first != second:
            raise CheckFailed(
                f"resample_from_infostate({seat}) depends on more than seat {seat}'s information state ({how})"
            )
        # Play the rest of the game on in the second world while the rules allow, and compare where it ends unless
        # something revealed has told the worlds apart (the information states part).
        for later in history[index + 1 : len(state.history)]:
            if two.illegal_reason(later) is not None:
                return
            two.apply(later)
        if not two.is_terminal() and two.information_state_string(seat) == state.information_state_string(seat):
            self._same_to(seat, state, two, how + f", then the same actions to ply {len(state.history)}")


def run_check(
    game: Game,
    players: Sequence[int],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    on_game: Callable[[], None] | None = None,
) -> Iterator[PropertyResult]:
    """Check `games` random games of `game` at each player count (game `i` from seed `seed + i`), calling
    `on_game` after each; then yield one result per property."""
    checker = Checker(game, options)
    for count in players:
        for index in range(games):
            checker.check_game(count, seed + index)
            if on_game is not None:
                on_game()
    yield from checker.results()
