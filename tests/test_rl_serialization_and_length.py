"""OpenSpiel's serialization of a Skald state is its history of action ids: the pickle OpenSpiel appends for a Python
state holds a count of actions, nothing of the state, and deserializing replays the history through the rules; and
the longest game a game declares reaches OpenSpiel's `max_game_length` and Gymnasium's `max_episode_steps`."""

from __future__ import annotations

import base64
import io
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from skald.engine import IllegalAction  # noqa: E402
from skald.rl import openspiel as skald_spiel  # noqa: E402


class _OnlyInts(pickle.Unpickler):
    """Unpickles plain data and ints only: any class of the state would be refused."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("builtins", "int"):
            return int
        raise pickle.UnpicklingError(f"{module}.{name} in the serialized state")


def _played(game: Any, actions: int, seed: int) -> Any:
    state, rng = game.new_initial_state(), random.Random(seed)
    while len(state.history()) < actions and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _pickled_attributes(text: str) -> tuple[str, Any]:
    line = next(line for line in text.splitlines() if line.startswith("__dict__="))
    payload = line.removeprefix("__dict__=")
    return payload, _OnlyInts(io.BytesIO(base64.b64decode(payload))).load()


@pytest.mark.parametrize(("name", "players"), [("vikingatid", 4), ("vikings", 3)])
def test_a_serialized_state_is_its_history_with_no_pickle_of_the_state(name: str, players: int) -> None:
    game = skald_spiel.load(name, players)
    state = _played(game, 400, seed=players)
    text = pyspiel.serialize_game_and_state(game, state)
    payload, attributes = _pickled_attributes(text)
    assert attributes == {"_held": len(state.history())}
    assert len(payload) < 80
    history_line = next(line for line in text.splitlines() if line.startswith("history="))
    assert [int(pair.split(":")[1]) for pair in history_line.removeprefix("history=").split(",")] == state.history()
    assert _pickled_attributes(state.serialize())[1] == attributes


@pytest.mark.parametrize("kept", [True, False])
def test_a_deserialized_vikingatid_state_is_the_same_position(kept: bool) -> None:
    game = skald_spiel.load("vikingatid", 4)
    state = _played(game, 700, seed=9)
    text = pyspiel.serialize_game_and_state(game, state)
    if not kept:
        skald_spiel._SERIALIZED.clear()  # as in another process: the whole history is replayed
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == state.history()
    assert restored.skald_state.history == state.skald_state.history
    assert str(restored) == str(state)
    assert restored.current_player() == state.current_player()
    assert restored.legal_actions() == state.legal_actions()
    for seat in range(4):
        assert restored.information_state_string(seat) == state.information_state_string(seat)
    assert restored.skald_state is not state.skald_state
    following = state.legal_actions() or [a for a, _ in state.chance_outcomes()]
    restored.apply_action(following[0])
    assert len(state.history()) == len(restored.history()) - 1


def test_a_serialized_history_that_breaks_a_rule_is_refused_naming_it() -> None:
    game = skald_spiel.load("vikings", 2)
    text = pyspiel.serialize_game_and_state(game, _played(game, 40, seed=1))
    skald_spiel._SERIALIZED.clear()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("history="))
    pairs = lines[at].split(",")
    pairs[-1] = pairs[-1].split(":")[0] + ":99999"
    lines[at] = ",".join(pairs)
    with pytest.raises(IllegalAction, match="99999 is not a Vikings action id"):
        pyspiel.deserialize_game_and_state("\n".join(lines) + "\n")


def test_max_game_length_reaches_openspiel_and_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from skald.rl.gymnasium_env import SkaldGymEnv

    for players in (2, 6):
        assert skald_spiel.load("vikingatid", players).max_game_length() == 5_000 * players
    assert skald_spiel.load("vikings", 4, variant="advanced").max_game_length() == 1_255
    env = gymnasium.make("skald/Vikingatid-v0", num_players=2)
    assert env.spec.max_episode_steps == 30_000  # the longest over every player count
    assert env.unwrapped.max_episode_steps == 10_000
    assert gymnasium.make("skald/Vikings-v0").spec.max_episode_steps == 1_255  # the advanced game with the auction
    assert SkaldGymEnv("vikings", 2).max_episode_steps == 465
