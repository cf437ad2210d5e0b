"""Vikingdoms on Skald's game contract: registry, action forms, illegal actions, rendering, evaluation."""

from __future__ import annotations

import json
import random

import pytest
from vikingdoms_kit import GAME, B, R, at_raid, board, dealt, play

from skald.engine import IllegalAction, Record, game_names, get_game, play_random_game
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms.board import square_from_name


def test_registered_by_name() -> None:
    """Front ends find the game through the registry."""
    assert "vikingdoms" in game_names()
    assert get_game("vikingdoms").num_distinct_actions == A.NUM_ACTIONS
    with pytest.raises(ValueError, match="is played by 2 players, not 3"):
        GAME.new_initial_state(3)


def test_every_action_round_trips_through_json_and_notation() -> None:
    """Each id has a JSON form and a notation that parse back to the same id."""
    state = dealt()
    for action in range(A.NUM_ACTIONS):
        data = state.action_to_json(action)
        assert state.action_from_json(json.loads(json.dumps(data))) == action
        assert state.action_from_notation(state.action_to_notation(action)) == action


def test_a_move_written_without_a_count_moves_the_whole_stack() -> None:
    """Notation `a1-b1` moves the whole stack on a1."""
    state = board({"a1": "RBR", "b3": "B"})
    assert state.action_from_notation("a1-b3") == A.move_id(square_from_name("a1"), square_from_name("b3"), 3)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([1], "action"),
        ({"type": "fly"}, "type"),
        ({"type": "move", "from": "z9", "to": "a1", "count": 1}, "from"),
        ({"type": "move", "from": "a1", "to": "a2", "count": 7}, "count"),
        ({"type": "take", "tile": "Castle"}, "tile"),
        ({"type": "ally", "ally": "Odin"}, "ally"),
        ({"type": "swap", "islands": [2, 2]}, "islands"),
        ({"type": "start", "island": "middle"}, "island"),
    ],
)
def test_action_from_json_names_the_field_at_fault(data: object, field: str) -> None:
    """`action_from_json` raises ValueError naming the field at fault."""
    with pytest.raises(ValueError, match=rf"^{field}:"):
        dealt().action_from_json(data)


@pytest.mark.parametrize("text", ["", "e5", "take", "take Castle", "ally Odin", "swap 3-3", "9a1-a2"])
def test_action_from_notation_rejects_nonsense(text: str) -> None:
    """Notation that does not parse raises ValueError."""
    with pytest.raises(ValueError):
        dealt().action_from_notation(text)


def test_an_illegal_action_names_the_rule_and_leaves_the_state_untouched() -> None:
    """apply() of an illegal action raises IllegalAction naming the rule; the state stays exactly as it was."""
    state = at_raid(("V1",), ("P2",), ("Mk", "Wk"), "BBBRRR")
    before = state.snapshot()
    for action in (A.PASS, A.TAKE + 0, A.ALLY, A.NUM_ACTIONS, -1):
        error = state.illegal_reason(action)
        assert isinstance(error, IllegalAction) and error.rule
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.snapshot() == before


def test_the_game_over_refuses_every_action() -> None:
    """After the VI. Kingdom is built nothing more happens."""
    state = at_raid(("V1", "V2"), ("Wk", "Mk"), ("V3", "Fm"), "BBBRRR")
    play(state, "take V3")
    assert state.legal_actions() == []
    error = state.illegal_reason(A.PASS)
    assert error is not None and "over" in error.reason


def test_render_text_is_readable_without_colour_and_marks_seats_with_colour() -> None:
    """Plain text uses seat letters; with colour, Rich markup wraps them."""
    state = board({"a1": "RB"})
    plain = state.render_text()
    assert "RB" in plain and "[" not in plain and "Islands" in plain
    coloured = state.render_text(color=True)
    assert "[red]R[/][blue]B[/]" in coloured


def test_observation_is_json_and_shows_the_table() -> None:
    """An observation is JSON-ready data of what is on the table."""
    state = board({"a1": "RB"})
    data = json.loads(json.dumps(state.observation(R)))
    assert data["board"][0] == [R, B] and data["undrawn"] == 0


def test_clone_is_independent() -> None:
    """Changing a clone leaves the original alone."""
    state = board({"a1": "RB"})
    before = state.snapshot()
    twin = state.clone()
    play(twin, "b1", "c3")
    assert state.snapshot() == before and twin.snapshot() != before


def test_evaluate_prefers_progress_and_knows_the_result() -> None:
    """The greedy bots' heuristic: in [-1, 1], +1 for the winner, higher with more progress."""
    state = at_raid(("V1", "V2"), ("Wk",), ("V3", "P2"), "BBBRRR")
    assert -1.0 <= GAME.evaluate(state, R) <= 1.0
    richer = state.clone()
    richer.territory[R] = (*richer.territory[R], richer.territory[B][0])
    assert GAME.evaluate(richer, R) > GAME.evaluate(state, R)
    play(state, "take V3")
    assert GAME.evaluate(state, R) == 1.0 and GAME.evaluate(state, B) == -1.0


def test_a_record_replays_to_the_identical_state() -> None:
    """A game record (JSON, with chance outcomes) replays exactly."""
    state = play_random_game(GAME.new_initial_state(2), random.Random(7))
    data = json.loads(json.dumps(Record.of(state).to_dict()))
    assert data["actions"][0]["seat"] == "chance"
    replayed = Record.from_dict(data).replay()
    assert replayed.snapshot() == state.snapshot()  # type: ignore[attr-defined]


def test_observation_tensor_has_the_declared_shape_and_hides_the_undrawn_tiles() -> None:
    """For learning: a flat vector of `observation_tensor_shape`, equal for equal observations."""
    from skald.games.vikingdoms import state as S
    from skald.games.vikingdoms.tensor import PHASES

    assert set(PHASES) == {v for k, v in vars(S).items() if k.isupper() and isinstance(v, str)}
    (size,) = GAME.observation_tensor_shape(2)
    rng = random.Random(3)
    state = GAME.new_initial_state(2)
    while not state.is_terminal():
        for seat in (R, B):
            assert len(state.observation_tensor(seat)) == size
        state.apply(rng.choice(state.legal_actions()))
    first, second = GAME.new_initial_state(2), GAME.new_initial_state(2)
    first.apply(A.DEAL)
    second.apply(A.DEAL)
    assert first.observation_tensor(R) == second.observation_tensor(R)
