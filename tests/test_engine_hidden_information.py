"""The hidden-information half of the contract (docs/engine.md, "Hidden information"): its defaults for the
perfect-information games, what an imperfect-information game must supply, viewer records, and the registry's
`SKALD_GAMES`."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from skald.engine import (
    IMPERFECT,
    PERFECT,
    Presentation,
    Record,
    RecordError,
    State,
    game_names,
    get_game,
    play_random_game,
    register,
)


@pytest.mark.parametrize("name", ["vikings", "vikingdoms"])
def test_vikings_and_vikingdoms_are_perfect_information_games_with_chance(name):
    assert get_game(name).information == PERFECT


@pytest.mark.parametrize("name", ["vikings", "vikingdoms"])
def test_in_a_perfect_information_game_the_information_state_is_the_history_for_every_viewer(name):
    game = get_game(name)
    state = game.new_initial_state(2)
    rng = random.Random(3)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    expected = " ".join(map(str, state.history))
    assert {state.information_state_string(seat) for seat in (0, 1, None)} == {expected}


@pytest.mark.parametrize("name", ["vikings", "vikingdoms"])
def test_in_a_perfect_information_game_resampling_gives_an_independent_copy_of_the_state(name):
    state = get_game(name).new_initial_state(2)
    rng = random.Random(5)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    sample = state.resample_from_infostate(0, random.Random(1))
    assert sample is not state
    assert sample.history == state.history
    assert sample.observation(0) == state.observation(0)
    sample.apply(sample.legal_actions()[0])
    assert len(state.history) == len(sample.history) - 1


def test_a_perfect_information_game_shows_every_viewer_the_same_notation_and_hides_nothing():
    state = get_game("vikings").new_initial_state(3)
    for action in state.legal_actions()[:5]:
        assert not any(state.action_hidden_from(action, viewer) for viewer in (0, 1, 2, None))
        assert {state.notation_for(action, viewer) for viewer in (0, 1, 2, None)} == {state.action_to_notation(action)}


def test_a_perfect_information_record_is_the_same_whole_record_for_every_viewer_during_play():
    state = get_game("vikingdoms").new_initial_state(2)
    rng = random.Random(9)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    record = Record.of(state)
    assert not state.is_terminal()
    assert record.seen_by(0) == record.seen_by(None) == record.to_dict()


def test_a_record_as_one_viewer_saw_it_does_not_load_back_as_a_record():
    state = get_game("vikings").new_initial_state(2)
    data = Record.of(state).to_dict()
    data["viewer"] = 1
    with pytest.raises(RecordError, match=r"^viewer: .*only the whole record"):
        Record.from_dict(data)


class _SilentImperfectState(State):
    """An imperfect-information state that forgot to say what its viewers see: the defaults must refuse it."""

    def __init__(self, game: _SilentImperfectGame) -> None:
        self.game = game
        self.num_players = 2
        self.history = []

    def current_player(self) -> int:
        return 0

    def legal_actions(self) -> list[int]:
        return [0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def illegal_reason(self, action):
        return None

    def _apply(self, action: int) -> None:
        pass

    def clone(self) -> State:
        return _SilentImperfectState(self.game)

    def returns(self):
        return [0.0, 0.0]

    def scores(self):
        return [0, 0]

    def winners(self):
        return []

    def observation(self, seat):
        return {}

    def action_to_json(self, action):
        return {}

    def action_from_json(self, data):
        return 0

    def action_to_notation(self, action):
        return "pass"

    def action_from_notation(self, text):
        return 0

    def render_text(self, color=False, seat=None):
        return ""


class _SilentImperfectGame:
    name = "silent"
    information = IMPERFECT


@pytest.mark.parametrize("method", ["information_state_string", "resample_from_infostate"])
def test_an_imperfect_information_game_must_supply_its_own_information_state_and_resampling(method):
    state = _SilentImperfectState(_SilentImperfectGame())  # type: ignore[arg-type]
    call = getattr(state, method)
    with pytest.raises(NotImplementedError, match=f"imperfect information: its state must override {method}"):
        call(0) if method == "information_state_string" else call(0, random.Random(0))


def test_the_default_presentation_speaks_only_the_contract():
    game = get_game("vikingdoms")
    state = game.new_initial_state(2)
    plain = Presentation()
    assert plain.prompt(state) == "choose a move"
    assert plain.describe(state, state.legal_actions()[0]) == ""
    assert plain.groups(state, [3, 1]) == [("", [3, 1])]
    assert plain.keys(state, [7, 9]) == [("1", 7), ("2", 9)]
    assert plain.board(state, None, ["a", "b"]) == state.render_text(color=True, seat=None)
    finished = play_random_game(game.new_initial_state(2), random.Random(2))
    assert plain.standings(finished) == [{"score": score} for score in finished.scores()]


def _skald(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skald.cli.main", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )


def test_a_module_named_in_skald_games_that_cannot_be_imported_is_named_in_one_error_line():
    result = _skald(["simulate", "vikings", "--games", "1"], SKALD_GAMES="no_such_game_module")
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "error: SKALD_GAMES: cannot import 'no_such_game_module': No module named 'no_such_game_module'"
    ]


def test_a_game_declaring_an_unknown_kind_of_information_is_refused_at_registration():
    class Vague(type(get_game("vikingdoms"))):  # type: ignore[misc]
        name = "vague"
        information = "Imperfect"

    with pytest.raises(ValueError, match="vague: information must be 'perfect' or 'imperfect', not 'Imperfect'"):
        register(Vague())
    assert "vague" not in game_names()
