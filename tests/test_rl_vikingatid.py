"""Vikingatid for learning: its observation tensor (what a seat may see and no more) and the three adapters, each
passing its project's own API test at 2, 4 and 6 players (docs/rl-observation.md).

Vikingatid games are long (1,000 actions at two players, 10,000 at six), so the adapters' tests play the shorter
game of the rule options: the track ends in 1100 (`last_year`), and at more than two players cards are played only
as phases start (`card_windows: phase_start`), which keeps every hidden hand and cuts a game to a fraction. The
full-length forms are marked slow.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any, Final

import numpy as np
import pytest

from skald.engine import CHANCE, get_game, sample_chance
from skald.games.vikingatid import resample as R
from skald.games.vikingatid import tensor
from skald.games.vikingatid.actions import CARD_IDS, CARD_KINDS
from skald.games.vikingatid.state import VikingatidState

GAME = get_game("vikingatid")
#: The shortest game of the rule options: the track's last box is 1100 (turn 13).
SHORT: dict[str, Any] = {"last_year": "1100"}
#: Shorter still at many players: card windows open only as phases start (VA-08).
SHORTER: dict[str, Any] = {"last_year": "1100", "card_windows": "phase_start"}
#: Six players in the slow run only: the same checks, each several times longer than at four.
PLAYER_COUNTS = (2, 4, pytest.param(6, marks=pytest.mark.slow))


def _step(state: VikingatidState, rng: random.Random) -> None:
    """One random action: chance by its probabilities, a seat uniformly among its legal actions."""
    if state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))
    else:
        state.apply(rng.choice(state.legal_actions()))


def _positions(num_players: int, seed: int, every: int, options: dict[str, Any] | None = None) -> list[VikingatidState]:
    """Copies of every `every`-th position of one random game, the last (terminal) one included."""
    state = GAME.new_initial_state(num_players, options if options is not None else SHORT)
    rng = random.Random(seed)
    found: list[VikingatidState] = []
    while not state.is_terminal():
        if len(state.history) % every == 0:
            found.append(state.clone())
        _step(state, rng)
    found.append(state)
    return found


def _observed_json(state: VikingatidState, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, default=str)


# -- the tensor ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_tensor_has_the_declared_shape_and_lies_within_the_declared_bounds(num_players: int) -> None:
    (size,) = GAME.observation_tensor_shape(num_players)
    low, high = GAME.observation_tensor_bounds(num_players)
    assert (low, high) == (0.0, 1.0)
    positions = _positions(num_players, seed=num_players, every=5)
    assert positions[-1].is_terminal()
    for state in positions:
        for seat in range(num_players):
            values = state.observation_tensor(seat)
            assert len(values) == size
            assert min(values) >= low and max(values) <= high


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_array_path_gives_the_same_values_as_the_list(num_players: int) -> None:
    for state in _positions(num_players, seed=10 + num_players, every=37):
        for seat in range(num_players):
            array = tensor.encode_array(state, seat)
            assert array.dtype == np.float32
            assert np.array_equal(array, np.asarray(state.observation_tensor(seat), dtype=np.float32))


def test_the_shape_depends_on_the_player_count_only() -> None:
    sizes = [GAME.observation_tensor_shape(n)[0] for n in range(2, 7)]
    assert len(set(sizes)) == 5
    per_seat = tensor.layout(GAME.board, 2).seat_size
    assert [b - a for a, b in itertools.pairwise(sizes)] == [per_seat] * 4
    with pytest.raises(ValueError):
        GAME.observation_tensor_shape(7)


def _hand_slice(state: VikingatidState, seat: int) -> list[float]:
    lay = tensor.layout(state.board, state.num_players)
    return state.observation_tensor(seat)[lay.hand : lay.hand + CARD_KINDS]


def test_the_own_hand_is_encoded_by_kind_over_each_kinds_count_in_the_deck() -> None:
    for state in _positions(4, seed=3, every=101):
        for seat in range(4):
            hand = state.deck.hands[seat]
            expected = [hand[k] / state.deck.counts[k] for k in range(CARD_KINDS)]
            assert _hand_slice(state, seat) == pytest.approx(expected)


def test_each_seats_block_comes_from_the_observer_clockwise() -> None:
    # Seat s's silver and hand size sit in block (s - viewer) mod n: block 0 is always the viewer's own.
    lay = tensor.layout(GAME.board, 4)
    for state in _positions(4, seed=8, every=211)[2:]:
        for viewer in range(4):
            values = state.observation_tensor(viewer)
            for s in range(4):
                at = ((s - viewer) % 4) * lay.seat_size
                assert values[at + tensor.SILVER] == pytest.approx(min(state.position.silver[s] / 50, 1.0))
                assert values[at + tensor.HAND_SIZE] == pytest.approx(min(state.deck.hand_size(s) / 10, 1.0))
                assert values[at + tensor.TO_ACT] == float(state.current_player() == s)


def _swap_in_hand(state: VikingatidState, seat: int) -> VikingatidState | None:
    """A copy of `state` where one card of `seat`'s hand is another kind, the deck holding the first instead: the
    hand's size and everything public stay as they were. None if no such swap exists here."""
    deck = state.deck
    held = [k for k in range(CARD_KINDS) if deck.hands[seat][k]]
    spare = [k for k in range(CARD_KINDS) if deck.deck[k] and k not in held]
    if not held or not spare:
        return None
    world = state.clone()
    out, into = held[0], spare[0]
    world.deck.hands[seat][out] -= 1
    world.deck.hands[seat][into] += 1
    world.deck.deck[into] -= 1
    world.deck.deck[out] += 1
    return world


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_two_worlds_differing_only_in_another_seats_hand_encode_identically(num_players: int) -> None:
    # The rulings' "Hidden information": a hand is its holder's. Another seat's hand (and with it the deck's make-up)
    # changed, its size kept: the viewer sees the same observation, and must get the same tensor.
    swaps = 0
    for state in _positions(num_players, seed=20 + num_players, every=31):
        for viewer in range(num_players):
            for other in range(num_players):
                if other == viewer:
                    continue
                world = _swap_in_hand(state, other)
                if world is None:
                    continue
                swaps += 1
                assert world.deck.hands[other] != state.deck.hands[other]
                assert _observed_json(world, viewer) == _observed_json(state, viewer)
                assert world.observation_tensor(viewer) == state.observation_tensor(viewer)
                assert np.array_equal(tensor.encode_array(world, viewer), tensor.encode_array(state, viewer))
    assert swaps > 10


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_tensor_changes_when_the_seats_own_hand_changes(num_players: int) -> None:
    changed = 0
    for state in _positions(num_players, seed=30 + num_players, every=71):
        for seat in range(num_players):
            world = _swap_in_hand(state, seat)
            if world is None:
                continue
            changed += 1
            assert world.observation_tensor(seat) != state.observation_tensor(seat)
            # Only the hand moved: everything outside its slice is the same.
            lay = tensor.layout(state.board, num_players)
            mine, theirs = world.observation_tensor(seat), state.observation_tensor(seat)
            outside = [
                k for k in range(len(mine)) if mine[k] != theirs[k] and not lay.hand <= k < lay.hand + CARD_KINDS
            ]
            assert outside == []
    assert changed > 5


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_worlds_resampled_from_a_seats_information_state_encode_identically_for_it(num_players: int) -> None:
    # Every world the seat cannot tell from the true one (the draws and gifts it did not see dealt again,
    # `resample_from_infostate`) gives it the same tensor, whatever the other hands hold there.
    rng = random.Random(num_players)
    differing = moves_differ = gifts_differ = 0
    for state in _positions(num_players, seed=40 + num_players, every=97):
        for seat in range(num_players):
            world = state.resample_from_infostate(seat, rng)
            if world.deck.hands != state.deck.hands:
                differing += 1
            assert world.deck.hands[seat] == state.deck.hands[seat]
            assert world.observation_tensor(seat) == state.observation_tensor(seat)
            # The card memory is followed from the worlds' card moves, whose hidden kinds were dealt again: another's
            # draws, and at more than two players the gifts between two others.
            pairs = list(zip(world.card_moves, state.card_moves, strict=True))
            if any(mine.kind != true.kind for mine, true in pairs):
                moves_differ += 1
            gifts_differ += any(
                mine.kind != true.kind and true.verb == R.GIVEN and seat not in (true.seat, true.other)
                for mine, true in pairs
            )
    assert differing > 5
    assert moves_differ > 5
    assert gifts_differ > 0 or num_players == 2


def _card_plane(state: VikingatidState, viewer: int, seat: int, plane: int) -> list[float]:
    """Seat `seat`'s card plane `plane` in `viewer`'s tensor."""
    lay = tensor.layout(state.board, state.num_players)
    at = ((seat - viewer) % state.num_players) * lay.seat_size + lay.seat_cards + plane * CARD_KINDS
    return state.observation_tensor(viewer)[at : at + CARD_KINDS]


def _scaled_counts(state: VikingatidState, counts: list[int]) -> list[float]:
    return [min(counts[k] / state.deck.counts[k], 1.0) for k in range(CARD_KINDS)]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_seats_plays_and_discards_are_in_its_block_for_every_viewer(num_players: int) -> None:
    # Cards played and discarded are public: each seat's, by kind, as the card log tells them, in every view.
    played = 0
    for state in _positions(num_players, seed=70 + num_players, every=89):
        for seat in range(num_players):
            logged = [0] * CARD_KINDS
            for event in state.card_log:
                if event.seat == seat:
                    logged[CARD_IDS.index(event.card)] += 1
            played += sum(logged)
            expected = _scaled_counts(state, logged)
            for viewer in range(num_players):
                assert _card_plane(state, viewer, seat, tensor.CARDS_PLAYED) == pytest.approx(expected)
    assert played > 50


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_a_seats_own_draws_are_in_its_own_block_and_no_other_seats_draws_anywhere(num_players: int) -> None:
    # A seat sees its own draws (its starting hand among them) and only the number of another's.
    for state in _positions(num_players, seed=80 + num_players, every=113):
        for viewer in range(num_players):
            drawn = [0] * CARD_KINDS
            for move in state.card_moves:
                if move.seat == viewer and move.verb == R.DRAWN:
                    drawn[move.kind] += 1
                elif move.seat == viewer and move.verb == R.DISCARDED and move.ply < 0:
                    drawn[move.kind] -= 1  # the start position's face-up pile, drawn by nobody
            assert _card_plane(state, viewer, viewer, tensor.CARDS_DRAWN) == pytest.approx(_scaled_counts(state, drawn))
            for seat in range(num_players):
                if seat != viewer:
                    assert not any(_card_plane(state, viewer, seat, tensor.CARDS_DRAWN))
    assert sum(state.deck.counts) == 112


def _game_with_card_gifts(num_players: int, seed: int) -> list[VikingatidState]:
    """Every position of a random game right after a card gift, and the final one (default options: gifts on)."""
    state = GAME.new_initial_state(num_players, SHORT)
    rng = random.Random(seed)
    found: list[VikingatidState] = []
    while not state.is_terminal():
        gifts = len([m for m in state.card_moves if m.verb == R.GIVEN])
        _step(state, rng)
        if len([m for m in state.card_moves if m.verb == R.GIVEN]) > gifts:
            found.append(state.clone())
    found.append(state)
    return found


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_a_card_the_seat_gave_is_known_in_the_receivers_hand_and_never_more_than_he_holds(num_players: int) -> None:
    # The giver knows the kind he gave ("Players may give silver or cards to each other"); what he knows another
    # holds is always in that hand, and he knows nothing of his own through this plane (his hand is its own slice).
    gifts = known_total = 0
    for seed in range(3):
        for state in _game_with_card_gifts(num_players, seed=90 + seed):
            last = next((m for m in reversed(state.card_moves) if m.verb == R.GIVEN), None)
            if last is not None and last.ply == len(state.history) - 1:
                gifts += 1
                assert _card_plane(state, last.seat, last.other, tensor.CARDS_KNOWN)[last.kind] > 0
            for viewer in range(num_players):
                assert not any(_card_plane(state, viewer, viewer, tensor.CARDS_KNOWN))
                for seat in range(num_players):
                    known = _card_plane(state, viewer, seat, tensor.CARDS_KNOWN)
                    held = _scaled_counts(state, state.deck.hands[seat])
                    assert all(known[k] <= held[k] + 1e-9 for k in range(CARD_KINDS))
                    known_total += sum(k > 0 for k in known)
    assert gifts > 3 and known_total > 3


def test_a_known_card_is_forgotten_once_its_holder_plays_that_kind() -> None:
    # The card given is the one he is seen to play or discard: after it, the giver knows of one fewer of that kind.
    checked = 0
    for seed in range(8):
        for state in _game_with_card_gifts(2, seed=100 + seed):
            gift = next((m for m in reversed(state.card_moves) if m.verb == R.GIVEN), None)
            if gift is None or gift.ply != len(state.history) - 1 or state.is_terminal():
                continue
            before = _card_plane(state, gift.seat, gift.other, tensor.CARDS_KNOWN)[gift.kind]
            rng = random.Random(seed)
            world = state.clone()
            used = len(world.card_moves)
            move = None
            while not world.is_terminal() and move is None:
                _step(world, rng)
                # The receiver's next use of a card, or another gift into his hand: whichever comes first.
                move = next(
                    (
                        m
                        for m in world.card_moves[used:]
                        if (m.seat == gift.other and m.verb != R.DRAWN) or m.other == gift.other
                    ),
                    None,
                )
            if move is None or move.verb not in (R.PLAYED, R.DISCARDED) or move.kind != gift.kind:
                continue
            checked += 1
            after = _card_plane(world, gift.seat, gift.other, tensor.CARDS_KNOWN)[gift.kind]
            assert after == pytest.approx(before - 1 / state.deck.counts[gift.kind])
    assert checked >= 1


def test_a_state_read_from_a_position_remembers_only_its_hands_there() -> None:
    # A position is the table without its history: a game started from one begins the memory there, each seat
    # having drawn its hand and seen nothing played (docs/vikingatid-positions.md).
    state = _positions(3, seed=7, every=400)[2]
    read = GAME.state_from_position(state.to_position())
    for viewer in range(3):
        assert _card_plane(read, viewer, viewer, tensor.CARDS_DRAWN) == _hand_slice(read, viewer)
        for seat in range(3):
            assert not any(_card_plane(read, viewer, seat, tensor.CARDS_PLAYED))
            assert not any(_card_plane(read, viewer, seat, tensor.CARDS_KNOWN))
    assert any(any(_card_plane(state, 0, seat, tensor.CARDS_PLAYED)) for seat in range(3))


def test_the_deck_appears_as_its_size_only() -> None:
    # The deck's make-up follows from the hidden hands: moving cards between the deck's kinds changes nothing.
    state = _positions(3, seed=5, every=400)[1]
    world = state.clone()
    kinds = [k for k in range(CARD_KINDS) if world.deck.deck[k]]
    world.deck.deck[kinds[0]] -= 1
    world.deck.deck[kinds[1]] += 1
    for seat in range(3):
        assert world.observation_tensor(seat) == state.observation_tensor(seat)


def test_an_invalid_seat_is_refused_by_name() -> None:
    state = GAME.new_initial_state(2, SHORT)
    with pytest.raises(ValueError, match="seat"):
        state.observation_tensor(2)


# -- OpenSpiel ---------------------------------------------------------------------------------------------------------


def _spiel(num_players: int, options: dict[str, Any]) -> Any:
    pytest.importorskip("pyspiel")
    from skald.rl import openspiel as skald_spiel

    return skald_spiel.load("vikingatid", num_players, **options)


def test_openspiel_registers_vikingatid_as_imperfect_information_with_observation_tensors() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = _spiel(4, SHORT)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.provides_observation_tensor and kind.provides_information_state_string
    # A fixed-size tensor cannot hold everything a seat remembers over thousands of actions (its information
    # state): only the observation tensor is offered, as for the proof game.
    assert not kind.provides_information_state_tensor
    assert game.observation_tensor_shape() == list(GAME.observation_tensor_shape(4))


@pytest.mark.parametrize(
    ("num_players", "options"),
    [(2, SHORT), pytest.param(4, SHORTER, marks=pytest.mark.slow), pytest.param(6, SHORTER, marks=pytest.mark.slow)],
)
def test_openspiel_random_sim_test(num_players: int, options: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pyspiel.random_sim_test(_spiel(num_players, options), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 4])
def test_openspiel_random_sim_test_full_windows(num_players: int) -> None:
    # Every holder asked in every window. Not at six players: OpenSpiel's test keeps a copy of every state of the
    # game, and a six-player game of 10,000 actions needs several gigabytes for them.
    pyspiel = pytest.importorskip("pyspiel")
    pyspiel.random_sim_test(_spiel(num_players, SHORT), num_sims=2, serialize=True, verbose=False)


def test_openspiel_observation_tensors_are_each_players_own_view() -> None:
    pytest.importorskip("pyspiel")
    game = _spiel(3, SHORT)
    state = game.new_initial_state()
    rng = random.Random(2)
    while len(state.history()) < 400:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    skald_state = state.skald_state
    for seat in range(3):
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat), np.float32), tensor.encode_array(skald_state, seat)
        )
        world = _swap_in_hand(skald_state, (seat + 1) % 3)
        if world is not None:
            assert world.observation_tensor(seat) == skald_state.observation_tensor(seat)


# -- PettingZoo and Gymnasium ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("num_players", "options"), [(2, SHORT), (4, SHORTER), (6, SHORTER)])
def test_pettingzoo_api_test(num_players: int, options: dict[str, Any]) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from skald.rl.pettingzoo_env import SkaldAECEnv

    api_test(SkaldAECEnv("vikingatid", num_players, options=options), num_cycles=300)


@pytest.mark.parametrize(("num_players", "options"), [(2, SHORT), (4, SHORTER), (6, SHORTER)])
def test_gymnasium_check_env(num_players: int, options: dict[str, Any]) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from skald.rl.gymnasium_env import SkaldGymEnv

    check_env(SkaldGymEnv("vikingatid", num_players, options=options, seat=None), skip_render_check=True)


def test_pettingzoo_agents_see_only_their_own_hands() -> None:
    pytest.importorskip("pettingzoo")
    from skald.rl.pettingzoo_env import SkaldAECEnv

    aec = SkaldAECEnv("vikingatid", 3, options=SHORT)
    aec.reset(seed=4)
    rng = random.Random(4)
    for _ in range(300):
        agent = aec.agent_selection
        observation = aec.observe(agent)
        seat = aec.possible_agents.index(agent)
        state = aec.game_state
        assert np.array_equal(observation["observation"], tensor.encode_array(state, seat))
        for other in aec.possible_agents:
            if other != agent:
                world = _swap_in_hand(state, aec.possible_agents.index(other))
                if world is not None:
                    assert np.array_equal(tensor.encode_array(world, seat), observation["observation"])
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(int(rng.choice(list(legal))))
        if aec.game_state.is_terminal():
            break


def test_a_whole_gymnasium_game_against_random_ends_with_the_learners_return() -> None:
    pytest.importorskip("gymnasium")
    from skald.rl.gymnasium_env import SkaldGymEnv

    env = SkaldGymEnv("vikingatid", 2, opponents="random", seat=1, options=SHORT)
    observation, info = env.reset(seed=6)
    rng = random.Random(6)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        assert env.observation_space.contains(observation)
        assert np.array_equal(observation["observation"], tensor.encode_array(env.game_state, 1))
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(list(legal))))
    assert terminated and not truncated
    assert reward == env.game_state.returns()[1] == info["returns"][1]


def test_vikingatid_is_learnable_and_registered_with_gymnasium() -> None:
    pytest.importorskip("gymnasium")
    import gymnasium

    from skald.rl import learnable_games
    from skald.rl.gymnasium_env import register_envs

    assert "vikingatid" in learnable_games()
    assert "skald/Vikingatid-v0" in register_envs()
    env = gymnasium.make("skald/Vikingatid-v0", num_players=6, opponents="random", options=SHORTER)
    observation, _ = env.reset(seed=1)
    assert observation["observation"].shape == GAME.observation_tensor_shape(6)
    assert env.observation_space["observation"].high.max() == 1.0


# -- control flow: whose turn, and which moves are skipped, tell nothing hidden --------------------------------------

#: Plies walked after the swap in the control-flow checks, at the default options (every card window asked).
CONTROL_PLIES = 400


def _common_action(worlds: list[VikingatidState], rng: random.Random) -> int | None:
    """An action legal in every world, drawn from the first world's order; None if there is none."""
    common = [action for action in worlds[0].legal_actions() if all(action in w.legal_actions() for w in worlds[1:])]
    return rng.choice(common) if common else None


def _swapped_pair(num_players: int, seed: int) -> tuple[VikingatidState, VikingatidState, int]:
    """A default-options position some way into a random game, the same position with one card of a seat's hand
    another kind, and that seat."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(num_players)
    while True:
        _step(state, rng)
        if len(state.history) > 60 and state.current_player() >= 0:
            other = (state.current_player() + 1) % num_players
            world = _swap_in_hand(state, other)
            if world is not None:
                return state, world, other


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_two_worlds_differing_in_a_hand_have_the_same_turn_order_and_the_same_forced_skips(num_players: int) -> None:
    # OpenSpiel's current player is the engine's; PettingZoo's agent order is the engine's with the forced moves it
    # may skip (`forced_is_public`). Neither may differ between worlds that differ only in a hand.
    assert sum(_walk_two_worlds(num_players, seed) for seed in range(40, 46)) > 20


def _walk_two_worlds(num_players: int, seed: int) -> int:
    """Walk a swapped pair with actions legal in both, checking the control flow; the card windows met."""
    first, second, _ = _swapped_pair(num_players, seed=seed)
    worlds = [first, second]
    rng = random.Random(seed)
    windows = 0
    for _ in range(CONTROL_PLIES):
        if first.is_terminal():
            break
        if first.information_state_string(None) != second.information_state_string(None):
            break  # the worlds are told apart openly (a discard, say)
        players = [w.current_player() for w in worlds]
        assert players[0] == players[1]
        if players[0] == CHANCE:
            outcome = sample_chance(first, rng)
            for w in worlds:
                w.apply(outcome if outcome in w.legal_actions() else sample_chance(w, random.Random(outcome)))
            continue
        public = [w.forced_is_public() for w in worlds]
        assert public[0] == public[1]
        if public[0]:
            assert (len(first.legal_actions()) == 1) == (len(second.legal_actions()) == 1)
        windows += first.window is not None
        action = _common_action(worlds, rng)
        if action is None:
            break  # the holder must use his hand (a discard, a gift): from here the worlds are told apart openly
        for w in worlds:
            w.apply(action)
    return windows


def _agent_order_in_two_worlds(num_players: int, seed: int) -> list[str]:
    """Step two PettingZoo environments, one holding a swapped card, with actions legal in both; the agent order
    they showed (asserted equal at each step)."""
    from skald.rl.pettingzoo_env import SkaldAECEnv

    envs = [SkaldAECEnv("vikingatid", num_players) for _ in range(2)]
    for env in envs:
        env.reset(seed=seed)
    first, second, _ = _swapped_pair(num_players, seed=seed)
    envs[0].game_state, envs[1].game_state = first, second
    for env in envs:
        env._advance()
    rng = random.Random(seed)
    order: list[str] = []
    for _ in range(CONTROL_PLIES):
        if any(env.game_state.is_terminal() for env in envs):
            break
        assert envs[0].agent_selection == envs[1].agent_selection
        order.append(envs[0].agent_selection)
        action = _common_action([env.game_state for env in envs], rng)
        if action is None:
            break  # the holder must use his hand: from here the worlds are told apart openly
        for env in envs:
            env.step(action)
    return order


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_agent_order_is_the_same_in_two_worlds_differing_in_a_hand(num_players: int) -> None:
    pytest.importorskip("pettingzoo")
    orders = [_agent_order_in_two_worlds(num_players, seed) for seed in range(50, 56)]
    assert sum(len(order) for order in orders) > 150
    assert {agent for order in orders for agent in order} == {f"player_{s}" for s in range(num_players)}


def _public_policy(_observation: Any, mask: Any) -> int:
    """An opponent that plays by what is public where it can: the lowest legal action that plays no card."""
    from skald.games.vikingatid.actions import PLAY_CARD

    legal = [int(a) for a in np.flatnonzero(mask)]
    return next((a for a in legal if not PLAY_CARD <= a < PLAY_CARD + CARD_KINDS), legal[0])


def _learner_steps_in_two_worlds(num_players: int, seed: int) -> int:
    """Step two Gymnasium environments whose positions differ in an opponent's card, with the same learner actions;
    the steps whose boundaries (plies) were compared while the learner could not tell the worlds apart."""
    from skald.rl.gymnasium_env import SkaldGymEnv

    envs = [SkaldGymEnv("vikingatid", num_players, opponents=_public_policy, seat=0) for _ in range(2)]
    for env in envs:
        env.reset(seed=seed)
    rng = random.Random(seed)
    state = GAME.new_initial_state(num_players)
    while len(state.history) < 60 or state.current_player() != 0 or _swap_in_hand(state, 1) is None:
        _step(state, rng)
    swapped = _swap_in_hand(state, 1)
    assert swapped is not None
    envs[0].game_state, envs[1].game_state = state, swapped
    compared = 0
    for _ in range(CONTROL_PLIES // 4):
        states = [env.game_state for env in envs]
        action = _common_action(states, rng) if not states[0].is_terminal() else None
        if action is None:
            break
        for env in envs:
            env.step(action)
        if envs[0].game_state.information_state_string(0) != envs[1].game_state.information_state_string(0):
            break  # the opponents' moves in this step told the worlds apart to the learner
        assert len(envs[0].game_state.history) == len(envs[1].game_state.history)
        compared += 1
    return compared


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_gymnasium_step_boundaries_are_the_same_in_two_worlds_differing_in_an_opponents_hand(num_players: int) -> None:
    # Opponents that play by what is public act alike in both worlds until something tells them apart; while the
    # learner cannot tell them apart either, its steps fall at the same plies.
    assert sum(_learner_steps_in_two_worlds(num_players, seed) for seed in range(60, 68)) > 20


#: Every value of each option that changes what is hidden or who is asked (`Game.hidden_options`), the defaults
#: first; a value the game refuses to play (`gifts: any_window`) is left out.
HIDDEN_VARIANTS: list[dict[str, Any]] = [{}] + [
    {rule.name: value}
    for rule in GAME.options
    if rule.name in GAME.hidden_options
    for value in rule.choices
    if value != rule.default and not (rule.name == "gifts" and value == "any_window")
]
#: Those a game takes under a minute to play through here; the others are `slow`.
QUICK_VARIANTS: Final = ({}, {"card_windows": "off"}, {"gifts": "off"})


@pytest.mark.parametrize(
    "variant",
    [v if v in QUICK_VARIANTS else pytest.param(v, marks=pytest.mark.slow) for v in HIDDEN_VARIANTS],
    ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default",
)
def test_openspiels_ismcts_completes_a_game_under_every_value_of_the_hidden_options(variant: dict[str, Any]) -> None:
    # ISMCTS draws every determinization through `resample_from_infostate` and checks it against the root's
    # information state, so a world the resampler cannot honour (the withdrawn `card_prompts: playable_only` was one)
    # makes it fail. A flat evaluator keeps the game short: the search, not its strength, is what is checked.
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    class Flat(mcts.Evaluator):  # type: ignore[misc]
        def evaluate(self, state: Any) -> Any:
            return np.zeros(state.num_players())

        def prior(self, state: Any) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(action, 1.0 / len(legal)) for action in legal]

    game = _spiel(2, {**SHORT, **variant})
    rng = np.random.RandomState(7)
    bots = [ismcts.ISMCTSBot(game, Flat(), uct_c=2.0, max_simulations=3, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)
    assert isinstance(pyspiel.serialize_game_and_state(game, state), str)
