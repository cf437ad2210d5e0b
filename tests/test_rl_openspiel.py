"""OpenSpiel: Skald games registered with pyspiel pass its own random simulation test; its MCTS bot plays them."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

import proof_game  # noqa: E402  (registers "proof", the test suite's hidden-information card game)
from proof_game import actions as A  # noqa: E402
from proof_game.game import ProofGame  # noqa: E402
from proof_game.state import NO_BID, ProofState  # noqa: E402
from skald.engine import OptionError, game_names, get_game, play_random_game  # noqa: E402
from skald.engine.registry import register, unregister  # noqa: E402
from skald.rl import openspiel as skald_spiel  # noqa: E402
from skald.rl.common import DEFAULT_MAX_GAME_LENGTH, declared_max_game_length  # noqa: E402


def test_every_skald_game_is_registered() -> None:
    names = skald_spiel.register_all()
    assert "skald_vikings" in names
    assert set(names) <= set(pyspiel.registered_names())
    assert len(names) == len(game_names())


@pytest.mark.parametrize(
    "num_players", [pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow), 4]
)
def test_vikings_passes_random_sim_test_with_100_sims(num_players: int) -> None:
    # The bar OpenSpiel sets for a game: 100 random games, each state serialized and deserialized on the way.
    game = skald_spiel.load("vikings", num_players)
    pyspiel.random_sim_test(game, num_sims=100, serialize=True, verbose=False)


def test_other_registered_games_pass_random_sim_test() -> None:
    # 100 simulations for a game that declares a short bound; 10 for long games (a Vikingatid game is ~1,000 actions
    # at two players, and each state is serialized and deserialized on the way).
    for name in game_names():
        if name == "vikings":
            continue
        skald_game = skald_spiel.get_game(name)
        bound = declared_max_game_length(skald_game, skald_game.min_players, {})
        game = skald_spiel.load(name, skald_game.min_players)
        sims = 100 if bound is not None and bound <= 1000 else 10
        pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_a_numeric_option_takes_a_number_in_load_game_and_survives_a_game_string() -> None:
    # Vikingatid's last_year ("1125", "1100", "none") and journey_moves ("40", "unlimited") are numbers in OpenSpiel.
    skald_spiel.register_all()
    game = pyspiel.load_game("skald_vikingatid", {"players": 2, "last_year": 1100, "journey_moves": 40})
    assert game.new_initial_state().skald_state.options["last_year"] == "1100"
    assert game.get_parameters()["last_year"] == 1100
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().skald_state.options["last_year"] == "1100"
    from_string = pyspiel.load_game("skald_vikingatid(players=2,last_year=1100)")
    assert from_string.new_initial_state().skald_state.options["last_year"] == "1100"


def test_a_numeric_option_word_choice_stands_as_zero() -> None:
    skald_spiel.register_all()
    game = pyspiel.load_game("skald_vikingatid", {"players": 2, "last_year": 0, "journey_moves": 0})
    options = game.new_initial_state().skald_state.options
    assert (options["last_year"], options["journey_moves"]) == ("none", "unlimited")
    assert skald_spiel.load("vikingatid", 2, last_year="none").get_parameters()["last_year"] == 0


def test_a_number_outside_an_options_choices_is_refused_naming_the_option() -> None:
    skald_spiel.register_all()
    with pytest.raises(OptionError, match=r"options\.last_year: 1110 is not one of 1125, 1100, 0 \(none\)"):
        pyspiel.load_game("skald_vikingatid", {"players": 2, "last_year": 1110})
    with pytest.raises(OptionError, match=r"options\.last_year: '1000' is not one of"):
        skald_spiel.load("vikingatid", 2, last_year="1000")


def test_a_value_of_the_wrong_type_is_refused_naming_the_parameter() -> None:
    skald_spiel.register_all()
    with pytest.raises(pyspiel.SpielError, match=r"Wrong type for parameter last_year\. Expected type: kInt"):
        pyspiel.load_game("skald_vikingatid", {"players": 2, "last_year": "1100"})
    with pytest.raises(pyspiel.SpielError, match=r"Wrong type for parameter card_windows\. Expected type: kString"):
        pyspiel.load_game("skald_vikingatid", {"players": 2, "card_windows": 3})
    with pytest.raises(pyspiel.SpielError, match=r"Wrong type for parameter undo_ban\. Expected type: kBool"):
        pyspiel.load_game("skald_vikingdoms", {"undo_ban": 1})


def test_text_and_truth_value_options_keep_their_values() -> None:
    skald_spiel.register_all()
    game = pyspiel.load_game("skald_vikingdoms", {"undo_ban": True, "termination": "move_cap"})
    options = game.new_initial_state().skald_state.options
    assert (options["undo_ban"], options["termination"]) == (True, "move_cap")
    assert pyspiel.load_game("skald_vikingdoms(undo_ban=true)").new_initial_state().skald_state.options["undo_ban"]


def test_rule_options_are_game_parameters() -> None:
    game = skald_spiel.load("vikings", 3, ferry="any_number")
    assert game.num_players() == 3
    assert game.get_parameters()["ferry"] == "any_number"
    assert game.new_initial_state().skald_state.options["ferry"] == "any_number"


@pytest.mark.parametrize(("name", "num_players"), [("vikings", 3), ("vikingdoms", 2)])
def test_observation_tensor_and_string_per_player(name: str, num_players: int) -> None:
    # At every position of a random game, each player's tensor is the Skald tensor of that seat.
    game = skald_spiel.load(name, num_players)
    assert game.get_type().provides_observation_tensor
    assert game.observation_tensor_shape() == list(game.skald_game.observation_tensor_shape(num_players))
    rng = np.random.RandomState(num_players)
    state = game.new_initial_state()
    while True:
        for seat in range(num_players):
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(tensor, np.asarray(state.skald_state.observation_tensor(seat), dtype=np.float32))
            assert f'"seat":{seat}' in state.observation_string(seat)
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_serialization_is_the_history() -> None:
    game = skald_spiel.load("vikings", 2)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(60):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == state.history()
    assert str(restored) == str(state)


def test_mcts_bot_plays_vikings_in_evaluate_bots() -> None:
    game = skald_spiel.load("vikings", 2)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng),
        skald_spiel.SkaldBot("random", seed=1),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(1.0)
    assert all(r >= 0 for r in returns)


def test_skald_bots_play_each_other_in_evaluate_bots() -> None:
    game = skald_spiel.load("vikings", 3)
    bots = [skald_spiel.SkaldBot(spec, seed) for seed, spec in enumerate(["greedy", "random", "random"])]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(1.0)


# -- the proof game: hidden hands and a secret bid ---------------------------------------------------------------


def _two_worlds() -> list[tuple[list[int], list[int], int]]:
    """Pairs of 3-player proof histories that `seat` cannot tell apart: seat 0 holds 1, 4, 7 in both; seat 1 holds
    2, 5, 8 or 8, 10, 11 and (while the bids are secret) bid 0 or 3; later, the same public bids and first trick."""
    # Deals go round the table from seat 0: card k of this list goes to seat k mod 3.
    deal_a = [A.deal(card) for card in (1, 2, 3, 4, 5, 6, 7, 8, 9)]
    deal_b = [A.deal(card) for card in (1, 8, 3, 4, 10, 6, 7, 11, 9)]
    # Bids 1 and 2 (then seat 2 bids 1 and all are public), then the first trick: 7, 8, 9; seat 2 takes it.
    public = [A.bid(1), A.bid(2), A.bid(1), A.play(7), A.play(8), A.play(9)]
    return [
        (deal_a, deal_b, 0),
        ([*deal_a, A.bid(1), A.bid(0)], [*deal_b, A.bid(1), A.bid(3)], 0),
        (deal_a + public, deal_b + public, 0),
    ]


def _spiel_state(game: object, history: list[int]) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for action in history:
        state.apply_action(action)
    return state


def test_a_hidden_information_game_is_registered_as_imperfect_information() -> None:
    game = skald_spiel.load("proof", 3)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.provides_information_state_string and kind.provides_observation_string
    assert kind.provides_observation_tensor
    assert game.observation_tensor_shape() == list(proof_game.game.GAME.observation_tensor_shape(3))
    perfect = skald_spiel.load("vikings", 2).get_type()
    assert perfect.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert not perfect.provides_information_state_tensor


@pytest.mark.parametrize("serialize", [False, True])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_proof_game_passes_random_sim_test(num_players: int, serialize: bool) -> None:
    game = skald_spiel.load("proof", num_players)
    pyspiel.random_sim_test(game, num_sims=60, serialize=serialize, verbose=False)


def test_each_player_is_answered_with_its_own_view_only() -> None:
    game = skald_spiel.load("proof", 3)
    for history_a, history_b, seat in _two_worlds():
        world_a, world_b = _spiel_state(game, history_a), _spiel_state(game, history_b)
        assert world_a.history() != world_b.history()
        for ask in ("information_state_string", "observation_string"):
            assert getattr(world_a, ask)(seat) == getattr(world_b, ask)(seat), ask
        assert np.array_equal(world_a.observation_tensor(seat), world_b.observation_tensor(seat))
        # The seat whose cards differ does see the difference: the check above can fail.
        assert world_a.information_state_string(1) != world_b.information_state_string(1)
        assert not np.array_equal(world_a.observation_tensor(1), world_b.observation_tensor(1))


def test_the_information_state_is_the_skald_states_and_the_tensor_its_observation() -> None:
    game = skald_spiel.load("proof", 3)
    _, history, seat = _two_worlds()[1]
    state = _spiel_state(game, history)
    skald_state = state.skald_state
    assert state.information_state_string(seat) == skald_state.information_state_string(seat)
    assert np.array_equal(state.observation_tensor(seat), skald_state.observation_tensor(seat))
    assert state.observation_string(seat) == json.dumps(
        skald_state.observation(seat), sort_keys=True, separators=(",", ":")
    )
    # A spectator's view (public information only) shows no hand.
    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    assert '"hand"' not in observer.string_from(state, seat)


def test_resample_from_infostate_draws_a_state_the_player_cannot_tell_from_this_one() -> None:
    game = skald_spiel.load("proof", 3)
    _, history, seat = _two_worlds()[1]
    state = _spiel_state(game, history)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    drawn = [state.resample_from_infostate(seat, sampler) for _ in range(20)]
    for other in drawn:
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert len(other.history()) == len(state.history())
        _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, other))
        assert restored.history() == other.history()
    assert len({tuple(other.history()) for other in drawn}) > 1


def test_openspiels_ismcts_and_skald_bots_play_the_proof_game() -> None:
    # OpenSpiel's own ISMCTS samples its worlds through `resample_from_infostate` and checks each against the root's
    # information state; Skald bots choose from what their seat knows. (ISMCTSBot has no `restart_at`, so the game
    # is driven here rather than by `evaluate_bots`.)
    game = skald_spiel.load("proof", 3)
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng),
        skald_spiel.SkaldBot("mcts:iters=20", seed=1),
        skald_spiel.SkaldBot("greedy", seed=2),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_no_information_state_tensor_is_claimed_since_the_observation_tensor_forgets_order() -> None:
    # Review M2: seat 0 dealt 1 then 4, or 4 then 1 (seat 1 the same 2 and 5 both times): seat 0 can tell the two
    # histories apart (its information-state string keeps the order), its observation tensor cannot. So the game
    # offers no information-state tensor, and the perfect-recall observer has no tensor to offer either.
    game = skald_spiel.load("proof", 2)
    assert not game.get_type().provides_information_state_tensor
    first = _spiel_state(game, [A.deal(card) for card in (1, 2, 4, 5, 7, 3)])
    second = _spiel_state(game, [A.deal(card) for card in (4, 2, 1, 5, 7, 3)])
    assert first.information_state_string(0) != second.information_state_string(0)
    assert np.array_equal(first.observation_tensor(0), second.observation_tensor(0))
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert observer.tensor is None and observer.dict == {}
    observer.set_from(first, 0)
    assert observer.string_from(first, 0) == first.information_state_string(0)


def test_observation_types_say_only_what_they_are_asked_for() -> None:
    game = skald_spiel.load("proof", 2)
    state = _spiel_state(game, [A.deal(card) for card in (1, 2, 4, 5, 7, 3)])
    kinds = pyspiel.PrivateInfoType

    def observer(private: object, public: bool, recall: bool = False) -> object:
        return game.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=recall, public_info=public, private_info=private)
        )

    # Every seat's private information with the public: the whole history, each card dealt included.
    assert observer(kinds.ALL_PLAYERS, True).string_from(state, 0) == " ".join(map(str, state.history()))
    # Private information without the public part cannot be told apart by the contract: not offered, rather than
    # an empty string (nothing) or the seat's whole view (more than asked).
    assert observer(kinds.ALL_PLAYERS, False) is None
    assert observer(kinds.SINGLE_PLAYER, False) is None
    # Nobody's private information and no public information: nothing at all.
    assert observer(kinds.NONE, False).string_from(state, 0) == ""
    assert '"hand"' not in observer(kinds.NONE, True).string_from(state, 0)


# -- how long a game lasts ----------------------------------------------------------------------------------


class _DeclaredProof(ProofGame):
    """The proof game declaring its length as the contract's method: deals, bids and plays, each once."""

    name = "proof_length"

    def max_game_length(self, num_players: int, options: Any = None) -> int:
        return 2 * A.HAND_SIZE * num_players + num_players


@pytest.fixture
def declared_length() -> Any:
    game = register(_DeclaredProof())
    yield game
    unregister(game.name)


def test_openspiel_reports_the_length_a_game_declares(declared_length: Any) -> None:
    for num_players in (2, 4):
        game = skald_spiel.load(declared_length.name, num_players)
        assert game.max_game_length() == 7 * num_players
        pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


class _NumberProof(ProofGame):
    """The proof game declaring one length for every player count, as a plain number."""

    name = "proof_number"
    max_game_length = 28


def test_a_length_declared_as_one_number_for_every_count_is_read_too() -> None:
    game = register(_NumberProof())
    try:
        assert skald_spiel.load(game.name, 3).max_game_length() == 28
    finally:
        unregister(game.name)


def test_a_game_that_declares_no_length_gets_the_fallback() -> None:
    assert skald_spiel.load("proof", 2).max_game_length() == DEFAULT_MAX_GAME_LENGTH


@pytest.mark.parametrize("name", ["vikings", "vikingdoms"])
def test_every_registered_game_declares_a_length_its_games_keep_within(name: str) -> None:
    skald_game = get_game(name)
    variants = [{}, {"variant": "advanced"}] if name == "vikings" else [{}]
    for options in variants:
        for num_players in range(skald_game.min_players, skald_game.max_players + 1):
            bound = declared_max_game_length(skald_game, num_players, options)
            assert bound is not None and bound < DEFAULT_MAX_GAME_LENGTH
            assert skald_spiel.load(name, num_players, **options).max_game_length() == bound
            rng = random.Random(num_players)
            for _ in range(10):
                played = play_random_game(skald_game.new_initial_state(num_players, options), rng)
                assert len(played.history) <= bound


# -- an information-state tensor where the game encodes one -----------------------------------------------------------


class _RecallState(ProofState):
    """The proof game's state with an information-state tensor: all that a seat knows, laid out in fixed slots."""

    def information_state_tensor(self, seat: int) -> list[float]:
        n, deck = self.num_players, A.MAX_DECK
        out = [0.0] * recall_tensor_size(n)
        out[seat] = 1.0
        at = 4
        for k, card in enumerate(self.dealt[seat]):  # own cards, in the order they came
            out[at + k * deck + card - 1] = 1.0
        at += A.HAND_SIZE * deck
        out[at + self.deals_done()] = 1.0
        at += deck + 1
        out[at + self.bids_made()] = 1.0
        at += 5
        if self.bids[seat] != NO_BID:
            out[at + self.bids[seat]] = 1.0
        at += A.MAX_BID + 1
        if self.bids_revealed():
            for other, bid in enumerate(self.bids):
                out[at + other * (A.MAX_BID + 1) + bid] = 1.0
        at += 4 * (A.MAX_BID + 1)
        for k, (player, card) in enumerate(self.plays):
            out[at + k * (4 + deck) + player] = 1.0
            out[at + k * (4 + deck) + 4 + card - 1] = 1.0
        return out


def recall_tensor_size(num_players: int) -> int:
    """Seat, own cards in order, deals, bids made, own bid, revealed bids, and each play (who, which card)."""
    deck = A.MAX_DECK
    plays = A.HAND_SIZE * 4
    return 4 + A.HAND_SIZE * deck + deck + 1 + 5 + (A.MAX_BID + 1) + 4 * (A.MAX_BID + 1) + plays * (4 + deck)


class _RecallProof(ProofGame):
    """The proof game encoding information states as tensors."""

    name = "proof_recall"
    provides_information_state_tensor = True

    def new_initial_state(self, num_players: int = 2, options: Any = None) -> _RecallState:
        self.check_players(num_players)
        return _RecallState(self, num_players)

    def information_state_tensor_shape(self, num_players: int) -> tuple[int, ...]:
        return (recall_tensor_size(num_players),)


@pytest.fixture
def recall_game() -> Any:
    game = register(_RecallProof())
    yield game
    unregister(game.name)


def test_a_game_that_encodes_information_states_gets_openspiels_information_state_tensor(recall_game: Any) -> None:
    game = skald_spiel.load(recall_game.name, 3)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [recall_tensor_size(3)]
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    # The order seat 0's cards came in, which its observation tensor forgets, is in its information-state tensor.
    first = _spiel_state(game, [A.deal(card) for card in (1, 2, 3, 4, 5, 6, 7, 8, 9)])
    second = _spiel_state(game, [A.deal(card) for card in (4, 2, 3, 1, 5, 6, 7, 8, 9)])
    assert first.information_state_tensor(0) != second.information_state_tensor(0)
    assert first.information_state_tensor(0) == list(
        np.asarray(first.skald_state.information_state_tensor(0), np.float32)
    )


def test_information_state_tensors_agree_with_information_state_strings(recall_game: Any) -> None:
    # Two positions give a seat equal tensors exactly when they give it equal information-state strings.
    game = skald_spiel.load(recall_game.name, 2)
    rng = np.random.RandomState(0)
    by_string: dict[str, list[float]] = {}
    by_tensor: dict[tuple[float, ...], str] = {}
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            for seat in range(2):
                text, tensor = state.information_state_string(seat), state.information_state_tensor(seat)
                assert by_string.setdefault(text, tensor) == tensor
                assert by_tensor.setdefault(tuple(tensor), text) == text
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(by_string) > 100


def test_games_without_hidden_information_offer_no_information_state_tensor() -> None:
    for name in ("vikings", "vikingdoms"):
        assert not skald_spiel.load(name, 2).get_type().provides_information_state_tensor
