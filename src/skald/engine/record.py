"""Game records: the JSON save file, replay, bug report and test fixture. Never pickle."""

from __future__ import annotations

import json
import os
import reprlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skald.engine.game import OptionError, PositionError
from skald.engine.registry import get_game
from skald.engine.state import CHANCE, PERFECT, IllegalAction, State

FORMAT = "skald-record"
VERSION = 1
#: The largest file `read_json_file` reads: a whole 4-player game is about 100 kB, so this is far beyond any record.
MAX_FILE_BYTES = 32 * 1024 * 1024


class RecordError(ValueError):
    """A malformed or inconsistent record; the message starts with the field at fault."""


@dataclass
class Seat:
    """Who sat in a seat: a name and what played it (`human`, or a bot spec such as `mcts:normal`)."""

    name: str
    kind: str = "human"


@dataclass
class Record:
    """A whole game: which game, its rule options, the seats, and every action including chance outcomes."""

    game: str
    num_players: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    #: The position the game starts from (`State.start_position`), or None for the game's setup.
    position: dict[str, Any] | None = None

    @classmethod
    def of(cls, state: State, seats: list[Seat] | None = None) -> Record:
        """The record of how `state` was reached."""
        options = dict(state.options)
        seat_list = seats or [Seat(f"Player {i + 1}") for i in range(state.num_players)]
        start = state.start_position()
        return cls(state.game.name, state.num_players, options, seat_list, list(state.history), start)

    def initial_state(self) -> State:
        """The position before the first action; raises `RecordError` if the game, players or options are wrong."""
        try:
            game = get_game(self.game)
        except KeyError as error:
            raise RecordError(f"game: {error.args[0]}") from None
        if self.position is not None:
            return _from_position(game, self.position, self.num_players)
        try:
            return game.new_initial_state(self.num_players, self.options)
        except OptionError as error:
            raise RecordError(str(error)) from None
        except ValueError as error:
            raise RecordError(f"players: {error}") from None

    def replay(self, upto: int | None = None) -> State:
        """The position after the first `upto` actions (all by default)."""
        state = self.initial_state()
        for index, action in enumerate(self.actions[:upto]):
            try:
                state.apply(action)
            except IllegalAction as error:
                raise RecordError(f"actions[{index}]: illegal here: {error}") from None
        return state

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: each action with its seat, JSON form and notation (for people reading the file)."""
        return self._json(None, whole=True)

    def seen_by(self, viewer: int | None) -> dict[str, Any]:
        """The JSON form as `viewer` (a seat, None: a spectator) may see it. Once the game is over, or in a
        perfect-information game, that is the whole record. During play of an imperfect-information game, every
        notation is the one shown to `viewer` and an action hidden from it keeps only that notation (no "action"
        field); such a form says `"viewer"` and does not load back as a record."""
        state = self.initial_state()
        if state.game.information == PERFECT:
            return self.to_dict()
        data = self._json(viewer, whole=False, state=state)
        return self.to_dict() if state.is_terminal() else data

    def _json(self, viewer: int | None, whole: bool, state: State | None = None) -> dict[str, Any]:
        """The JSON form, walking the actions from `state` (the initial state, a fresh one by default), which is
        left at the record's end."""
        if state is None:
            state = self.initial_state()
        actions = []
        for action in self.actions:
            player = state.current_player()
            entry: dict[str, Any] = {"seat": "chance" if player == CHANCE else player}
            if whole or not state.action_hidden_from(action, viewer):
                entry["action"] = state.action_to_json(action)
            entry["notation"] = state.action_to_notation(action) if whole else state.notation_for(action, viewer)
            actions.append(entry)
            state.apply(action)
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.num_players,
            "options": self.options,
            "seats": [{"name": s.name, "kind": s.kind} for s in self.seats],
        }
        if self.position is not None:
            start = self.initial_state()
            data["position"] = self.position if whole else start.start_position_seen_by(viewer)
        if not whole:
            data["viewer"] = "spectator" if viewer is None else viewer
        data["actions"] = actions
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Parse and check a record's JSON form, replaying it; errors name the field at fault."""
        if not isinstance(data, dict):
            raise RecordError("record: expected a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"format: expected {FORMAT!r}, got {reprlib.repr(data.get('format'))}")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
            raise RecordError(f"version: expected {VERSION}, got {reprlib.repr(version)}")
        name = data.get("game")
        if not isinstance(name, str):
            raise RecordError("game: expected the game's name as a string")
        try:
            game = get_game(name)
        except KeyError as error:
            raise RecordError(f"game: {error.args[0]}") from None
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("players: expected an integer")
        try:
            game.check_players(players)
        except ValueError as error:
            raise RecordError(f"players: {error}") from None
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("options: expected an object of rule options")
        seats = _parse_seats(data.get("seats", []), players)
        position = data.get("position")
        if position is not None:
            state = _from_position(game, position, players)
            if "options" in data and game.resolve_options(options) != state.options:
                raise RecordError("options: differ from the rule options of the record's position")
        else:
            try:
                state = game.new_initial_state(players, options)
            except OptionError as error:
                raise RecordError(str(error)) from None
            except ValueError as error:
                raise RecordError(f"players: {error}") from None
        if "viewer" in data:
            raise RecordError(
                "viewer: this is a game as one viewer saw it during play, with hidden actions left out; only the "
                "whole record, available once the game is over, replays"
            )
        start = state.start_position()
        actions = [action for _, action in walk_actions(state, data.get("actions", []))]
        return cls(name, players, dict(state.options), seats, actions, start)

    def save(self, path: str | Path) -> None:
        """Write the record as indented JSON. The file is replaced whole or not at all: a save that fails (a full
        disk, Ctrl-C) leaves whatever was there before; raises `OSError` when it cannot be written."""
        write_file_atomically(Path(path), json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; raises `RecordError` naming the file or the field at fault."""
        return cls.from_dict(read_json_file(path))


def walk_actions(state: State, entries: Any) -> Iterator[tuple[int, int]]:
    """Replay a record's `actions` (their JSON form) on `state`: each entry's action, parsed in the position it is
    taken from, is yielded with its index before it is applied, so that a caller may look at it there first (`skald
    verify` compares a chance draw with the seed's). Raises `RecordError` naming the entry at fault."""
    if not isinstance(entries, list):
        raise RecordError("actions: expected a list")
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict) or "action" not in entry:
            raise RecordError(f"actions[{index}]: expected an object with an 'action' field")
        try:
            action = state.action_from_json(entry["action"])
        except ValueError as error:
            raise RecordError(f"actions[{index}].action: {error}") from None
        yield index, action
        try:
            state.apply(action)
        except IllegalAction as error:
            raise RecordError(f"actions[{index}].action: illegal here: {error}") from None


def _from_position(game: Any, position: Any, players: int) -> State:
    """The state a record's `position` describes, for `players` seats; `RecordError` naming the field at fault."""
    try:
        state: State = game.state_from_position(position)
    except OptionError as error:
        raise RecordError(f"position.{error}") from None
    except PositionError as error:
        raise RecordError(f"position.{error}" if not str(error).startswith(game.title) else str(error)) from None
    if state.num_players != players:
        raise RecordError(f"players: {players}, but the record's position has {state.num_players} seats")
    return state


def _parse_seats(raw: Any, players: int) -> list[Seat]:
    if not isinstance(raw, list):
        raise RecordError("seats: expected a list")
    if raw and len(raw) != players:
        raise RecordError(f"seats: expected {players} seats, got {len(raw)}")
    seats = []
    for index, seat in enumerate(raw):
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str):
            raise RecordError(f"seats[{index}].name: expected a string")
        kind = seat.get("kind", "human")
        if not isinstance(kind, str):
            raise RecordError(f"seats[{index}].kind: expected a string")
        seats.append(Seat(seat["name"], kind))
    return seats or [Seat(f"Player {i + 1}") for i in range(players)]


def read_json_file(path: str | Path, error: type[ValueError] = RecordError) -> Any:
    """The JSON in the file at `path`; anything that keeps it from being read raises `error` naming the file.

    A directory, a missing or unreadable file, a file that is not UTF-8 text (a binary file), one larger than
    `MAX_FILE_BYTES` (or endless, such as /dev/zero), nested too deeply, or not JSON each get one clear line.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as problem:
        raise error(f"{path}: cannot read: {problem.strerror or problem}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"{path}: larger than {MAX_FILE_BYTES // 2**20} MB; not a file Skald writes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"{path}: not UTF-8 text (byte {problem.start}); is it a JSON file?") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise error(f"{path}: not JSON: {problem.msg} at line {problem.lineno}, column {problem.colno}") from None
    except RecursionError:
        raise error(f"{path}: not readable JSON: nested too deeply") from None
    except ValueError:  # Python refuses to convert integers of more than sys.get_int_max_str_digits() digits
        raise error(f"{path}: not readable JSON: a number with thousands of digits") from None


def write_file_atomically(path: Path, content: str | bytes) -> None:
    """Write `content` (text as UTF-8) to `path` through a temporary file beside it, renamed over `path` only once
    it is complete: a write that fails part-way leaves whatever `path` held before."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(content.encode("utf-8") if isinstance(content, str) else content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
