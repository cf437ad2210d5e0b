"""Bad files loaded through the Python API: a record or position, however malformed, raises the module's own error
(`RecordError`, `PositionError`, `ValueError` for an action's JSON) naming the field at fault, never a KeyError,
TypeError, IndexError or RecursionError; what the position reader accepts is a position the game can go on from;
and a save that fails leaves the earlier file whole."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.engine import CHANCE, Record, RecordError, get_game, play_random_game, sample_chance
from skald.engine.record import MAX_FILE_BYTES, read_json_file
from skald.games.vikingdoms import notation as vikingdoms_notation
from skald.games.vikings.game import GAME as VIKINGS
from skald.games.vikings.position import POSITION_KEYS, PositionError, state_to_dict

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)

scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats() | st.text(max_size=6)
any_json = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)


def _played(players: int, upto: int, seed: int, **options: Any) -> Any:
    """A Vikings game played at random for `upto` actions."""
    state = VIKINGS.new_initial_state(players, options)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < upto:
        action = sample_chance(state, rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
        state.apply(action)
    return state


RECORD = Record.of(play_random_game(VIKINGS.new_initial_state(2), random.Random(1))).to_dict()
VIKINGDOMS_TILE_NAMES = get_game("vikingdoms").new_initial_state(2).names
ADVANCED = {"variant": "advanced"}
#: Positions at every kind of step: the offer, purchases and large scoring, the advanced game's auction and tiles.
POSITIONS = [
    state_to_dict(_played(players, upto, seed, **options))
    for players, upto, seed, options in (
        (2, 60, 1, {}),  # draw_tiles
        (3, 140, 2, {}),  # buy
        (2, 150, 6, {"variant": "advanced", "auction": "off"}),  # place_tile
        (2, 185, 0, {}),  # place_viking
        (2, 108, 0, {}),  # ferry
        (2, 318, 0, {}),  # land
        (4, 260, 3, {"ferry": "any_number"}),  # buy, four players
        (2, 66, 2, ADVANCED),  # draw_specials
        (3, 200, 5, ADVANCED),  # draw_vikings
        (2, 17, 0, ADVANCED),  # auction
        (3, 276, 1, ADVANCED),  # remove_viking
        (2, 164, 0, ADVANCED),  # place_colours
        (3, 66, 1, ADVANCED),  # take_special
    )
]


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as the keys and indices leading to it."""
    found = [prefix] if prefix else []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found += _paths(value, (*prefix, key))
    return found


def _replaced(data: Any, pick: int, value: Any) -> Any:
    """A copy of `data` with the `pick`-th place (modulo their number) holding `value`."""
    changed = copy.deepcopy(data)
    places = _paths(changed)
    path = places[pick % len(places)]
    node = changed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return changed


def _field(message: str) -> str:
    """The top-level field an error message starts with: `mainlands[0].rows.N[2]: ...` -> `mainlands`."""
    return message.split(":", 1)[0].split(".", 1)[0].split("[", 1)[0]


# -- records --------------------------------------------------------------------------------------------------


@PROPERTY
@given(st.binary(max_size=300))
def test_any_bytes_in_a_record_file_raise_record_error_naming_the_file(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("bytes") / "record.json"
    path.write_bytes(raw)
    with pytest.raises(RecordError) as error:
        Record.load(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") or _field(message) in {"record", "format"}, message


@pytest.mark.parametrize(
    "raw, problem",
    [
        (b"[" * 100_000 + b"]" * 100_000, "not readable JSON: nested too deeply"),
        (b'{"players": ' + b"9" * 5000 + b"}", "not readable JSON: a number with thousands of digits"),
        ('{"game": "vikings \u00e9"}'.encode("latin-1"), "not UTF-8 text"),
    ],
    ids=["deeply-nested", "huge-number", "latin-1"],
)
def test_json_that_python_cannot_read_raises_record_error_naming_the_file(tmp_path, raw, problem):
    path = tmp_path / "record.json"
    path.write_bytes(raw)
    with pytest.raises(RecordError) as error:
        Record.load(path)
    assert str(error.value).startswith(f"{path}: {problem}")


def test_an_endless_file_is_refused_after_max_file_bytes():
    with pytest.raises(RecordError, match=f"larger than {MAX_FILE_BYTES // 2**20} MB"):
        read_json_file("/dev/zero")


def test_version_true_is_not_version_1():
    with pytest.raises(RecordError, match=r"^version: expected 1, got True"):
        Record.from_dict(RECORD | {"version": True})


def test_a_record_built_in_memory_for_an_unknown_game_raises_record_error():
    with pytest.raises(RecordError, match=r"^game: no game called 'chess'"):
        Record("chess", 2).replay()


def test_a_save_that_fails_part_way_leaves_the_earlier_save_whole(tmp_path):
    """A full disk is simulated by a file-size limit: the new record does not fit, and the old one is kept."""
    earlier = tmp_path / "game.json"
    Record.of(VIKINGS.new_initial_state(2)).save(earlier)
    before = earlier.read_bytes()
    script = textwrap.dedent(
        f"""
        import random, resource, signal
        from skald.engine import Record, get_game, play_random_game
        state = play_random_game(get_game("vikings").new_initial_state(4), random.Random(2))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before) + 1000}, resource.RLIM_INFINITY))
        try:
            Record.of(state).save({str(earlier)!r})
        except OSError as error:
            print("failed:", error.strerror)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "failed: File too large" in result.stdout, result.stderr
    assert earlier.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "no temporary file is left behind"


# -- action JSON ----------------------------------------------------------------------------------------------


@PROPERTY
@given(any_json | st.dictionaries(st.sampled_from(["type", "tile", "from", "to", "count", "islands"]), any_json))
def test_any_json_as_a_vikingdoms_action_raises_a_short_value_error(data):
    try:
        vikingdoms_notation.from_json(data, VIKINGDOMS_TILE_NAMES)
    except ValueError as error:
        assert "\n" not in str(error) and len(str(error)) < 300


# -- Vikings positions ----------------------------------------------------------------------------------------


@PROPERTY
@given(st.sampled_from(POSITIONS), st.lists(st.tuples(st.integers(min_value=0), any_json), min_size=1, max_size=3))
def test_any_json_in_any_field_of_a_position_raises_only_position_error_naming_the_field(position, changes):
    data = position
    for pick, value in changes:
        data = _replaced(data, pick, value)
    try:
        VIKINGS.state_from_dict(data)
    except PositionError as error:
        assert _field(str(error)) in POSITION_KEYS or "unknown field" in str(error), str(error)


#: Values a person (or a bug) might put in any field of a position: out of range, of the wrong kind, or the
#: name of another step, tile or Viking.
PLAUSIBLE = st.sampled_from(
    [
        *(-1, 0, 1, 2, 3, 5, 6, 11, 12, 13, 37, 99, 10**6, None, True, "", [], {}, [None] * 4),
        *("L", "M2", "R", "green1", "F", "B", "N3", "boat", "building2"),
        *("draw_tiles", "draw_vikings", "buy", "place_tile", "place_viking", "ferry", "land", "game_over"),
        *("draw_specials", "auction", "remove_viking", "place_colours", "take_special", "replace_building"),
    ]
)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(
    st.sampled_from(POSITIONS),
    st.lists(st.tuples(st.integers(0, 2**31), PLAUSIBLE), min_size=1, max_size=2),
    st.integers(min_value=0, max_value=2**32),
)
def test_a_position_the_reader_accepts_plays_on_to_the_end(position, changes, seed):
    """Contradictory fields are refused when read, never found later as a chance node with nothing to draw, a
    seat with no legal action, a legal action the rules refuse, or a crash."""
    data = position
    for pick, value in changes:
        data = _replaced(data, pick, value)
    try:
        state = VIKINGS.state_from_dict(data)
    except PositionError:
        return
    rng = random.Random(seed)
    state.render_text()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            assert state.chance_outcomes(), state.step_name()
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            assert legal, state.step_name()
            state.apply(rng.choice(legal))
    assert state.winners()


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"turn": {"viking": "Z"}}, "turn.viking: not a Viking letter"),
        ({"turn": {"placed": 3}}, "turn.placed: expected a square such as N3, got 3"),
        ({"options": ["advanced"]}, "options: expected an object of rule options"),
        ({"scorings": 5}, "scorings: expected a list of scorings"),
        ({"discarded": [1]}, "discarded[0]: expected a tile code"),
        ({"stacks": {"L": "x"}}, "stacks.L: expected a count ≥ 0, got 'x'"),
        ({"wheel": {"offset": 0, "groups": [{"space": 0, "tile": "L"}, {"space": 0, "tile": "R"}]}}, "wheel.groups[1]"),
        ({"step": "land"}, "step: 'land' belongs to the large scorings"),
        ({"step": "auction"}, "step: 'auction' belongs to the advanced game"),
        ({"wheel": {"ofset": 3}}, "wheel.ofset: unknown field"),
        # Buying the 0-cost Group turns the wheel on to the next Group: the 0-cost space is never left empty.
        ({"wheel": {"groups": [{"space": 11, "tile": "L", "viking": "F"}]}}, "wheel.offset: 0, but no Group stands"),
    ],
)
def test_contradictory_or_out_of_range_position_fields_are_named(fields, message):
    with pytest.raises(PositionError) as error:
        VIKINGS.state_from_dict({"mainlands": [{}, {}], **fields})
    assert str(error.value).startswith(message)


HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"stacks": {HUGE: 1}}, r"^stacks\.x{57}\.\.\.: 'x{12}\.\.\.x{13}' is not a tile code"),
        ({"stacks": {"L": 10**1000}}, r"^stacks\.L: expected a count up to 1000000, got 10000"),
        ({"bag": {HUGE: 1}}, r"^bag\.x{57}\.\.\.: not a Viking letter"),
        ({"specials": {"stacks": {HUGE: 1}}}, r"^specials\.stacks\.x{57}\.\.\.: not a special tile"),
        ({"mainlands": [{"rows": {HUGE: ""}}, {}]}, r"^mainlands\[0\]\.rows\.x{57}\.\.\.: not a row"),
        ({"mainlands": [{HUGE: 1}, {}]}, r"^mainlands\[0\]\.x{57}\.\.\.: unknown field"),
        ({"mainlands": [{"rows": {"N": "L " + HUGE}}, {}]}, r"^mainlands\[0\]\.rows\.N\[2\]: 'x{12}"),
        ({"turn": {"placed": "N" + "9" * 100_000}}, r"^turn\.placed: 'N9{11}\.\.\.9{13}' is not a square"),
        ({"wheel": {"a\nb": 1}}, r"^wheel\.'a\\nb': unknown field"),
    ],
)
def test_huge_or_multi_line_position_fields_are_quoted_short_on_one_line(fields, message):
    with pytest.raises(PositionError, match=message) as error:
        VIKINGS.state_from_dict({"mainlands": [{}, {}], **fields})
    assert len(str(error.value)) < 300 and "\n" not in str(error.value)


def test_each_ship_tile_is_unique():
    """A ship given twice would let a Mainland hold more ships than the action space has columns for."""
    with pytest.raises(PositionError, match=r"^mainlands\[1\].rows.ship: ship green1 is also in mainlands\[0\]"):
        VIKINGS.state_from_dict({"mainlands": [{"rows": {"ship": "green1"}}, {"rows": {"ship": "green1"}}]})


def test_a_hand_written_position_leaves_its_placed_ships_out_of_the_stacks():
    state = VIKINGS.state_from_dict({"mainlands": [{"rows": {"ship": "green1 red1"}}, {}]})
    assert state_to_dict(state)["stacks"].keys().isdisjoint({"green1", "red1"})


def test_position_files_are_read_with_position_errors(tmp_path: Path):
    path = tmp_path / "position.json"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(PositionError, match=f"^{path}: not UTF-8 text"):
        read_json_file(path, PositionError)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda p: p["mainlands"][0].update({"specials": {"noble1": 1}}), r"mainlands\[0\]"),
        (
            lambda p: p.update({"specials": {"stacks": {}, "face_up": ["noble1", None, None, None], "spent": 0}}),
            "specials",
        ),
    ],
)
def test_a_base_game_position_with_special_tiles_is_refused(change, field):
    # The tensor, the boards and the rules of the base game know nothing of special tiles: refuse, never hide them.
    from skald.games.vikings.game import GAME
    from skald.games.vikings.position import PositionError, state_to_dict

    data = state_to_dict(GAME.new_initial_state(2))
    change(data)
    with pytest.raises(PositionError, match=field):
        GAME.state_from_dict(data)
