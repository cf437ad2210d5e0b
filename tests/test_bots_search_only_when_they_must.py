"""Bots draw a world only when their choice reads one: the random bot and MCTS never before choosing (MCTS draws its
own world at every iteration), no bot at a forced decision; the information state is hashed once a decision, and
hashing only what was added since the seat's last decision gives the very same seed."""

from __future__ import annotations

import hashlib
import random

import pytest

from proof_game.game import GAME as PROOF
from skald.bots import MCTSBot, make_bot
from skald.build import build_name
from skald.engine import CHANCE, State, get_game, sample_chance
from skald.games.vikingatid.state import VikingatidState

VIKINGATID = get_game("vikingatid")


class _Texts:
    """A stand-in state whose information-state string is whatever the test sets."""

    def __init__(self) -> None:
        self.text = ""

    def information_state_string(self, viewer: int | None) -> str:
        return self.text


def _digest_from_scratch(seed: int, spec: str, purpose: str, text: str) -> bytes:
    """The seed material as first defined: blake2b of the whole `repr((seed, spec, purpose, text))`."""
    return hashlib.blake2b(repr((seed, spec, purpose, text)).encode(), digest_size=8).digest()


@pytest.mark.parametrize("seed", [0, 11, 2**62 - 1])
def test_incremental_information_state_digest_equals_hashing_it_whole(seed: int) -> None:
    bot, rng, state = make_bot("random", seed), random.Random(seed), _Texts()
    pieces = ["12", "?", " ", "7 ?", "it's", 'say "x"', "back\\slash", "tab\t", "Æsir ö", "\n", "3"]
    for _ in range(300):
        state.text += rng.choice(pieces)
        if rng.random() < 0.05:
            state.text = state.text[: rng.randrange(len(state.text) + 1)]  # an earlier position, or another game
        for viewer, purpose in ((0, "choose"), (1, "resample"), (None, "choose")):
            got = bot._infostate_digest(state, viewer, purpose)  # type: ignore[arg-type]
            assert got == _digest_from_scratch(seed, "random", purpose, state.text)


def _walk(num_players: int, seed: int, decisions: int) -> list[VikingatidState]:
    """Copies of a random Vikingatid game's first `decisions` positions where a seat acts."""
    state, rng = VIKINGATID.new_initial_state(num_players), random.Random(seed)
    assert isinstance(state, VikingatidState)
    found: list[VikingatidState] = []
    while len(found) < decisions and not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        found.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return found


def _refuse_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: State, seat: int, rng: random.Random) -> State:
        raise AssertionError("a world was drawn")

    monkeypatch.setattr(VikingatidState, "resample_from_infostate", refused)


def test_the_random_bot_draws_no_world_and_reads_the_information_state_once_a_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    positions = _walk(4, seed=3, decisions=1500)
    _refuse_worlds(monkeypatch)
    reads: list[int | None] = []
    original = VikingatidState.information_state_string

    def counted(self: VikingatidState, seat: int | None) -> str:
        reads.append(seat)
        return original(self, seat)

    monkeypatch.setattr(VikingatidState, "information_state_string", counted)
    bots = [make_bot("random", seat) for seat in range(4)]
    for state in positions:
        reads.clear()
        seat = state.current_player()
        choice = bots[seat].step(state)
        assert choice in state.legal_actions()
        assert reads == ([] if len(state.legal_actions()) == 1 else [seat])


@pytest.mark.parametrize("spec", ["greedy", "mcts:iters=20"])
def test_no_bot_draws_a_world_at_a_forced_decision(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    forced = [state for state in _walk(2, seed=5, decisions=400) if len(state.legal_actions()) == 1]
    assert len(forced) >= 20
    _refuse_worlds(monkeypatch)
    for state in forced[:40]:
        assert make_bot(spec, 1).step(state) == state.legal_actions()[0]


class _WorldFirst(MCTSBot):
    """MCTS as it was: a world drawn from the information state before the search, the search run from it."""

    def _needs_world(self, state: State, player: int, legal: list[int]) -> bool:
        return True


def test_mcts_chooses_as_it_did_when_it_drew_a_world_before_searching() -> None:
    if build_name() != "pure Python":
        pytest.skip("compiled build: its MCTSBot takes no subclass made here (the pure build runs this check)")
    rng, compared = random.Random(2), 0
    for game_seed in range(6):
        state = PROOF.new_initial_state(3)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1:
                now = make_bot("mcts:iters=40", game_seed)
                before = _WorldFirst("mcts:iters=40", game_seed, now.config)  # type: ignore[attr-defined]
                assert now.step(state) == before.step(state)
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared >= 20
