"""A tournament's journal: each finished game is appended to `games.jsonl` as it ends, so a run that is stopped
(Ctrl-C, a crash, the end of a working day) resumes where it stopped instead of starting over.

The first line names the tournament (game, bots, seats, seed, options); every further line is one game's result.
A game is appended, flushed and synced before it is counted, so at most the game being written when the machine
died is lost, and a torn last line is dropped and that game played again. Games are a pure function of their
task, so a resumed tournament ends with exactly the results an uninterrupted one would have had.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, fields
from pathlib import Path
from typing import IO, Any

from skald.sim.match import GameResult, GameTask
from skald.sim.tournament import TournamentConfig

JOURNAL_NAME = "games.jsonl"
#: The first line's marker and format version.
FORMAT = "skald-tournament-journal/1"

_RESULT_FIELDS = {field.name: field.type for field in fields(GameResult)}


class JournalError(ValueError):
    """A journal that cannot be resumed: it names the file, the line and the field at fault."""


def heading(config: TournamentConfig) -> dict[str, Any]:
    """The journal's first line: what a tournament must share with the journal it resumes, and the number of
    games it planned (a resumed run may ask for more, or fewer)."""
    return {
        "format": FORMAT,
        "game": config.game,
        "bots": list(config.bots),
        "players": config.num_players,
        "seed": config.seed,
        "options": {name: value for name, value in config.options},
        "imports": list(config.imports),
        "games": config.games,
    }


def _result_of(row: object, where: str) -> GameResult:
    """A game's result from its journal line, every field checked."""
    if not isinstance(row, dict):
        raise JournalError(f"{where}: a game's result must be a JSON object")
    missing = [name for name in _RESULT_FIELDS if name not in row]
    if missing:
        raise JournalError(f"{where}: field {missing[0]!r} is missing")
    unknown = [name for name in row if name not in _RESULT_FIELDS]
    if unknown:
        raise JournalError(f"{where}: field {unknown[0]!r} is not part of a game's result")
    for name in ("index", "seed", "plies"):
        if type(row[name]) is not int:
            raise JournalError(f"{where}: field {name!r} must be a whole number")
    if not isinstance(row["actions_digest"], str):
        raise JournalError(f"{where}: field 'actions_digest' must be a string")
    kinds: dict[str, type | tuple[type, ...]] = {
        "entrants": str,
        "scores": int,
        "returns": (int, float),
        "winners": int,
        "ranks": int,
        "moves": int,
        "move_seconds": (int, float),
        "max_move_seconds": (int, float),
    }
    for name, kind in kinds.items():
        value = row[name]
        if not isinstance(value, list) or not all(isinstance(item, kind) and type(item) is not bool for item in value):
            raise JournalError(f"{where}: field {name!r} must be a list of {getattr(kind, '__name__', 'numbers')}")
    return GameResult(**row)


def read_journal(path: Path, config: TournamentConfig) -> dict[int, GameResult]:
    """The finished games of the tournament `config` that `path` holds, by index; raises `JournalError` if it is
    another tournament's journal or a line is damaged (a torn last line is not damage: that game is replayed)."""
    try:
        lines = path.read_bytes().split(b"\n")
    except OSError as error:
        raise JournalError(f"{path}: cannot read it: {error.strerror or error}") from None
    torn_tail = lines[-1] != b""  # the last game was being written when the run stopped
    rows = lines[:-1]
    if not rows:
        if torn_tail:
            return {}
        raise JournalError(f"{path}: empty; it holds no tournament")
    try:
        head = json.loads(rows[0])
    except ValueError:
        raise JournalError(f"{path}, line 1: not a tournament journal heading (not JSON)") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise JournalError(f"{path}, line 1: not a tournament journal (format is not {FORMAT!r})")
    expected = heading(config)
    del expected["games"]  # a resumed run may play more games, or fewer, than the stopped one planned
    for name, value in expected.items():
        if head.get(name) != value:
            raise JournalError(
                f"{path}: its games were played with {name} {head.get(name)!r}, not {value!r}; "
                "resume with the same settings, or write to another --out"
            )
    results: list[tuple[GameResult, str]] = []
    for number, line in enumerate(rows[1:], start=2):
        where = f"{path}, line {number}"
        try:
            row = json.loads(line)
        except ValueError:
            raise JournalError(f"{where}: not JSON") from None
        results.append((_result_of(row, where), where))
    # Games beyond this run's --games (a longer run stopped, resumed shorter) are checked and kept, not counted.
    finished: dict[int, GameResult] = {}
    for result, where in results:
        if result.index < 0:
            raise JournalError(f"{where}: field 'index' must not be negative")
        _check_matches(result, config.task(result.index), where)
        finished[result.index] = result
    return finished


def _refuse_to_drop_a_stopped_run(path: Path, config: TournamentConfig) -> None:
    """A new run must not replace the journal of the same tournament stopped before its end (the work of hours, lost
    to a forgotten --resume): raise `JournalError` saying what to do. Another tournament's journal, or a finished
    one, is replaced as the results beside it are."""
    try:
        head, *rows = [line for line in path.read_bytes().split(b"\n") if line.strip()]
        heading_read = json.loads(head)
    except (OSError, ValueError):
        return
    if not isinstance(heading_read, dict) or heading_read.get("format") != FORMAT:
        return
    if any(heading_read.get(name) != value for name, value in heading(config).items() if name != "games"):
        return
    planned = heading_read.get("games")
    if isinstance(planned, int) and len(rows) < planned:
        raise JournalError(
            f"{path} holds {len(rows)} of {planned} games of this same tournament, stopped before its end: add "
            "--resume to go on with them, or delete it to start over"
        )


def _check_matches(result: GameResult, task: GameTask, where: str) -> None:
    """A journalled game must be the game this tournament would play at its index."""
    if result.seed != task.seed or tuple(result.entrants) != task.entrants:
        raise JournalError(f"{where}: game {result.index} was played with another seed or seating than this run's")
    for name in ("scores", "returns", "ranks", "moves", "move_seconds", "max_move_seconds"):
        if len(getattr(result, name)) != task.num_players:
            raise JournalError(f"{where}: field {name!r} must hold one entry per seat ({task.num_players})")


def _line(result: GameResult) -> str:
    """A game's journal line; wall times to the microsecond."""
    row = asdict(result)
    for name in ("move_seconds", "max_move_seconds"):
        row[name] = [round(seconds, 6) for seconds in row[name]]
    return json.dumps(row)


class Journal:
    """The journal being written: `record` appends a finished game and makes it durable before returning."""

    def __init__(self, path: Path, config: TournamentConfig, resume: bool) -> None:
        self.path = path
        self.config = config
        if not resume and path.exists():
            _refuse_to_drop_a_stopped_run(path, config)
        self.finished = read_journal(path, config) if resume and path.exists() else {}
        self._handle: IO[bytes] = self._rewrite(config)

    def _rewrite(self, config: TournamentConfig) -> IO[bytes]:
        """Write the heading and the finished games to a fresh file that replaces the old one whole (dropping any
        torn line), and return it open for appending."""
        temporary = self.path.with_name(self.path.name + ".new")
        with temporary.open("w", encoding="utf-8") as handle:
            handle.write(json.dumps(heading(config)) + "\n")
            for index in sorted(self.finished):
                handle.write(_line(self.finished[index]) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path)
        return self.path.open("ab", buffering=0)

    def record(self, result: GameResult) -> None:
        """Append one finished game; it is on disk when this returns (a write that fails leaves at most a torn
        line, which resuming drops)."""
        line = memoryview((_line(result) + "\n").encode())
        while line:  # an unbuffered write may take part of the line: the rest follows
            written = self._handle.write(line)
            if not written:
                raise OSError(f"{self.path}: the journal took no more bytes")
            line = line[written:]
        os.fsync(self._handle.fileno())
        self.finished[result.index] = result

    def on_disk(self) -> dict[int, GameResult]:
        """The finished games the file holds now: after an interruption, this counts a game whose line was written
        but not yet counted in `finished`."""
        try:
            return read_journal(self.path, self.config)
        except JournalError:
            return self.finished

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
