"""An update of several seats' moves cut into frames (`skald.web.frames`): one frame after each seat's move but the
last, each the position just before the next seat's move, telling that seat is to move and ringing what the move
before it changed; at most `MOST_FRAMES` to an update, the earlier moves shown together; none for one seat's move."""

from __future__ import annotations

import random

from skald.engine import CHANCE, State, get_game, sample_chance
from skald.web.frames import MOST_FRAMES, Frames, cut, marks
from skald.web.live_table import HUMAN, LiveTable, LogEntry, SeatInfo
from skald.web.store.schema import GameRow, now


def live_table(game: str, players: int) -> LiveTable:
    """A table of `players` people at its first position, as the registry builds one from its stored row."""
    stamp = now()
    row = GameRow(
        id="frames",
        game=game,
        players=players,
        options={},
        seed=1,
        secret_seed=False,
        version=0,
        status="playing",
        rematch_id=None,
        created_at=stamp,
        updated_at=stamp,
    )
    seats = [SeatInfo(f"P{seat + 1}", HUMAN, None) for seat in range(players)]
    return LiveTable(row, seats, get_game(game).new_initial_state(players, {}), b"")


def play(table: LiveTable, rng: random.Random, seat_moves: int) -> tuple[State, list[LogEntry]]:
    """Take random moves at `table` (chance drawn as the rules weigh it) until `seat_moves` seats' moves are taken and
    it is a seat's turn again: the position before them and their log entries, as one commit brings them."""
    before = table.state.clone()
    entries: list[LogEntry] = []
    taken = 0
    while not table.state.is_terminal():
        state = table.state
        player = state.current_player()
        if player != CHANCE and taken == seat_moves:
            break
        action = sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions())
        entry = table.entry(state, action)
        table.log.append(entry)
        entries.append(entry)
        state.apply(action)
        taken += player != CHANCE
    return before, entries


def seat_move_starts(entries: list[LogEntry]) -> list[int]:
    return [index for index, entry in enumerate(entries) if entry.whole["seat"] is not None]


def frames_of(table: LiveTable, before: State, entries: list[LogEntry]) -> Frames:
    frames = cut(table, before, entries)
    assert frames is not None
    return frames


def test_each_frame_is_the_position_just_before_the_next_seats_move_and_names_that_seat_to_move() -> None:
    table = live_table("vikingatid", 3)
    rng = random.Random(5)
    play(table, rng, 40)  # into the game, past the kingdom choice
    before, entries = play(table, rng, 6)
    starts = seat_move_starts(entries)
    frames = frames_of(table, before, entries)
    assert frames.ends == starts[1:]
    for index, end in enumerate(frames.ends):
        next_move = entries[end].whole
        assert frames.states[index].history == table.state.history[: next_move["ply"]]
        view = frames.view(index, None)
        assert view["log"] == end
        assert view["to_move"] == next_move["seat"]


def test_a_frame_rings_what_the_seats_move_before_it_changed_as_the_viewer_sees_it() -> None:
    table = live_table("vikings", 4)
    rng = random.Random(2)
    play(table, rng, 12)
    before, entries = play(table, rng, 5)
    frames = frames_of(table, before, entries)
    presentation = table.game.presentation
    rung = 0
    for index, end in enumerate(frames.ends):
        mover = [entry for entry in entries[:end] if entry.whole["seat"] is not None][-1].whole
        for seat in (None, 0, 3):
            expected = presentation.last_move(frames.states[index], mover["seat"], mover_action(table, mover), seat)
            assert frames.view(index, seat)["last_move"] == expected
            assert marks(frames.states[index], entries[:end], seat) == expected
        rung += bool(frames.view(index, None)["last_move"])
    assert rung, "no frame of five Vikings moves rang anything: the ring marks went unchecked"


def mover_action(table: LiveTable, whole: dict[str, object]) -> int:
    ply = whole["ply"]
    assert isinstance(ply, int)
    return table.state.history[ply]


def test_an_update_of_one_seats_move_is_its_own_only_frame() -> None:
    table = live_table("vikingatid", 2)
    rng = random.Random(3)
    play(table, rng, 30)
    before, entries = play(table, rng, 1)
    assert len(seat_move_starts(entries)) == 1
    assert cut(table, before, entries) is None


def test_a_long_catch_up_shows_its_earlier_moves_together_in_its_first_frame() -> None:
    table = live_table("vikings", 3)
    rng = random.Random(4)
    before, entries = play(table, rng, MOST_FRAMES + 8)
    frames = frames_of(table, before, entries)
    starts = seat_move_starts(entries)
    assert len(frames.states) == MOST_FRAMES - 1
    assert frames.ends == starts[-(MOST_FRAMES - 1) :]
    assert frames.view(0, None)["log"] == starts[-(MOST_FRAMES - 1)]


def test_entries_that_do_not_start_where_the_position_before_ends_are_not_cut() -> None:
    table = live_table("vikings", 3)
    rng = random.Random(6)
    play(table, rng, 4)
    before, entries = play(table, rng, 5)
    assert cut(table, before, entries[1:]) is None


def test_a_frames_board_is_drawn_once_for_each_viewer() -> None:
    table = live_table("vikingatid", 3)
    rng = random.Random(7)
    play(table, rng, 40)
    before, entries = play(table, rng, 4)
    frames = frames_of(table, before, entries)
    first = frames.boards(1)
    assert frames.boards(1) is first
    assert len(first) == len(frames.states)
    names = [info.name for info in table.seats]
    assert first == [tuple(table.game.render_svg_parts(state, 1, names)) for state in frames.states]
