"""Bots for Vikingatid: the evaluation (`evaluation.evaluate`) reads only what its seat may see and
counts what wins (VP now, VP to come, silver, ships, camps and conquests); random, greedy and MCTS choose legal
actions on what their seat knows (the rulings' "Hidden information": each hand is its holder's) and play a game to
its end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from vikingatid_kit import GAME, at_phase, fixed_state, play_randomly, position_for

from skald.bots import MCTSBot, MCTSConfig, make_bot
from skald.engine import CHANCE, State, sample_chance
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import GIVE_CARD, PASS, PLAY_CARD
from skald.games.vikingatid.evaluation import ROLLOUT_CARD, evaluate, horizon
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.state import VikingatidState

SPECS = ["random", "greedy", "mcts:iters=12", "mcts:iters=12:depth=0"]


def _positions_with_twins(count: int, seed: int) -> list[tuple[VikingatidState, VikingatidState]]:
    """Positions of random 4-player games where a seat acts among several choices, each with a twin world the acting
    seat cannot tell apart (`resample_from_infostate`) whose other hands differ."""
    rng = random.Random(seed)
    pairs: list[tuple[VikingatidState, VikingatidState]] = []
    state = GAME.new_initial_state(4)
    while len(pairs) < count:
        if state.is_terminal():
            state = GAME.new_initial_state(4)
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        assert isinstance(state, VikingatidState)
        if len(state.legal_actions()) > 1 and rng.random() < 0.02 and state.position.turn >= 2:
            for attempt in range(20):
                twin = state.resample_from_infostate(player, random.Random(attempt))
                if twin.deck.hands != state.deck.hands:
                    assert twin.information_state_string(player) == state.information_state_string(player)
                    pairs.append((state.clone(), twin))
                    break
        state.apply(rng.choice(state.legal_actions()))
    return pairs


@pytest.fixture(scope="module")
def twins() -> list[tuple[VikingatidState, VikingatidState]]:
    return _positions_with_twins(6, seed=21)


def test_the_evaluation_reads_no_hidden_card(twins: list[tuple[VikingatidState, VikingatidState]]) -> None:
    """Hidden information: a hand is seen by its holder alone, so two worlds that differ only in the cards of other
    hands give every seat the same worth (hand sizes are public, kinds are not read)."""
    for true, twin in twins:
        seat = true.current_player()
        assert [twin.deck.hands[s] for s in range(4) if s != seat] != [
            true.deck.hands[s] for s in range(4) if s != seat
        ]
        for viewer in range(4):
            assert evaluate(true, viewer) == evaluate(twin, viewer)


def test_every_bot_chooses_a_legal_action_alike_in_worlds_its_seat_cannot_tell_apart(
    twins: list[tuple[VikingatidState, VikingatidState]],
) -> None:
    """A bot sees only its seat's information state: in two worlds that differ only in other hands it makes the same
    legal choice with the same seed, and leaves the position as it was."""
    for spec in SPECS:
        for true, twin in twins:
            before = true.information_state_string(true.current_player())
            history = list(true.history)
            one = make_bot(spec, seed=3).step(true)
            two = make_bot(spec, seed=3).step(twin)
            assert one == two, spec
            assert one in true.legal_actions()
            assert true.history == history and true.information_state_string(true.current_player()) == before


def _phase_5_position() -> Position:
    """A 3-player table at phase 5 of turn 2 with some camps, silver and ships about."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.turn = 2
    position.gain_silver(0, 4)
    position.gain_silver(1, 4)
    position.build_camps(1, "trading", "gotland", 1)
    return position


def _worth(position: Position, seat: int, phase: int = 5) -> float:
    return evaluate(at_phase(position, phase), seat)


def test_more_victory_points_silver_or_ships_are_worth_more_all_else_equal() -> None:
    """What wins is VP ("The player with the most victory points at the end of the game wins"); silver buys ships in
    phase 5 and ships build camps in phase 6, so more of each, all else equal, is worth more."""
    base = _phase_5_position()
    plain = _worth(base, 0)
    more_vp = base.clone()
    more_vp.vp[0] += 1
    more_silver = base.clone()
    more_silver.gain_silver(0, 3)
    more_ships = base.clone()
    more_ships.place_ships(0, "war", "danavalde", 2)
    for richer in (more_vp, more_silver, more_ships):
        assert _worth(richer, 0) > plain
        # Another seat's worth does not rise with seat 0's riches.
        assert _worth(richer, 1) == _worth(base, 1)


def test_a_conquered_area_is_worth_more_than_the_same_camps_that_conquer_nothing() -> None:
    """Conquest: "An area is conquered if it contains one trading camp per trading value AND one war camp per shield"
    and it scores its trade value each phase 9; the same two camps split over two areas score nothing before the
    end."""
    conquered = _phase_5_position()
    conquered.build_camps(0, "trading", "finland", 1)
    conquered.build_camps(0, "war", "finland", 1)
    split = _phase_5_position()
    split.build_camps(0, "trading", "finland", 1)
    split.build_camps(0, "war", "estland", 1)
    assert _worth(conquered, 0) > _worth(split, 0) > _worth(_phase_5_position(), 0)


def test_a_shared_area_cannot_be_conquered_so_its_camps_are_worth_less() -> None:
    """Conquest: "If an area contains camps of another player ... the player cannot conquer the area": camps beside
    another player's are worth their final VP only."""
    alone = _phase_5_position()
    alone.build_camps(0, "trading", "vendland", 2)
    shared = _phase_5_position()
    shared.build_camps(0, "trading", "vendland", 2)
    shared.build_camps(2, "trading", "vendland", 1)
    assert _worth(alone, 0) > _worth(shared, 0)


def test_silver_is_worth_less_once_no_phase_5_is_left() -> None:
    """Silver buys ships in phase 5 only, and after the last box (turn 14, VA-05) there is none: silver is then only
    a tie-break, far below its worth early on."""
    early = _phase_5_position()
    late = _phase_5_position()
    late.turn = 14
    early_gain = _worth(_with_silver(early), 0, 6) - _worth(early, 0, 6)
    late_gain = _worth(_with_silver(late), 0, 6) - _worth(late, 0, 6)
    assert 0 < late_gain < early_gain / 10


def _with_silver(position: Position) -> Position:
    richer = position.clone()
    richer.gain_silver(0, 5)
    return richer


def test_the_scorings_to_come_shrink_as_the_turns_pass() -> None:
    """Phase 10 christianises pagans from 900 and the game ends after the last box (VA-04, VA-05): fewer scorings
    are left late in the game, none after the last one."""
    position = _phase_5_position()
    spans = []
    for turn in (1, 5, 10, 14):
        position.turn = turn
        spans.append(horizon(position, "1125").later)
    assert spans[0] > spans[1] > spans[2] > spans[3] == 0.0
    position.phase = 10
    assert horizon(position, "1125").this_turn == 0.0


@pytest.mark.parametrize("specs", [("greedy", "random"), ("mcts:iters=4:depth=0", "greedy")])
def test_a_bot_game_ends_with_legal_moves(specs: tuple[str, str]) -> None:
    """Bots play a 2-player game to its end ("When all players have become christianised, the game ends after this
    turn", or the last box), each move legal, and the winners have the most VP."""
    state = fixed_state(2)
    rng = random.Random(4)
    bots = [make_bot(spec, seed=seat) for seat, spec in enumerate(specs)]
    for _ in range(20_000):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.is_terminal()
    scores = state.scores()
    assert all(scores[w] == max(scores) for w in state.winners())


def test_a_fleet_named_and_then_sunk_by_its_holders_own_card_lapses_and_he_chooses_again() -> None:
    """6.1 Initiative: the holder names a fleet, then its size. A card he plays before saying the size (here
    TYSK-ROMERSK ATTACK, whose fight sank the named ships) can leave nothing to launch: the start lapses and he
    chooses again (another fleet or pass), instead of a decision with no legal action. Found by an MCTS search."""
    data = json.loads((Path(__file__).parent / "records" / "fleet_sunk_before_launch.json").read_text())
    state = GAME.new_initial_state(data["players"])
    for action in data["actions"][:2215]:
        state.apply(action)
    assert state.step == S.FLEET_SIZE_CHOICE and state.current_player() == 1
    assert state.action_to_notation(data["actions"][2215]) == "play TYSK-ROMERSK ATTACK"
    for action in data["actions"][2215:]:
        state.apply(action)
    assert state.step == S.JOURNEY_CHOICE and state.current_player() == 1
    assert state.position.ships_at(1, "war", "normandie") == 0
    assert PASS in state.legal_actions()
    play_randomly(state, random.Random(5), turns=99)
    assert state.is_terminal()


def test_a_rollout_seldom_plays_a_card_where_it_could_do_something_else() -> None:
    """Searches roll out with `Game.rollout_action`: where a card may be played or a window passed (or the step's
    own action taken), a card is played with chance `ROLLOUT_CARD` (greedy bots play one in about 1% of such
    windows), each card alike; where only cards may be played, each alike."""
    rng = random.Random(11)
    state = fixed_state(4)
    window = [PASS, PLAY_CARD + 3, PLAY_CARD + 7]
    draws = [GAME.rollout_action(state, window, rng) for _ in range(20_000)]
    plays = [action for action in draws if action != PASS]
    assert 0.5 * ROLLOUT_CARD < len(plays) / len(draws) < 2 * ROLLOUT_CARD
    assert {PLAY_CARD + 3, PLAY_CARD + 7} == set(plays)
    cards_only = [PLAY_CARD + 1, PLAY_CARD + 2]
    shares = [GAME.rollout_action(state, cards_only, rng) for _ in range(2_000)]
    assert 800 < shares.count(PLAY_CARD + 1) < 1_200


def test_a_search_rolls_out_with_the_games_own_rollout_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Vikingatid search (here from turn 3's card draw, for seat 0) asks the game for every rollout move: its
    rollouts pass through many card windows with a choice, and in them play a card about `ROLLOUT_CARD` of the time
    rather than in most of them, as uniform play would."""
    seen: list[bool] = []
    original = GAME.rollout_action

    def counted(state: State, legal: list[int], rng: random.Random) -> int:
        action = original(state, legal, rng)
        assert isinstance(state, VikingatidState)
        if state.step == S.CARD_WINDOW and len(legal) > 1:
            seen.append(PLAY_CARD <= action < GIVE_CARD)
        return action

    state = fixed_state(4)
    play_randomly(state, random.Random(2), turns=2)
    monkeypatch.setattr(GAME, "rollout_action", counted)
    MCTSBot("mcts", 1, MCTSConfig(iterations=400, rollout_depth=8)).analyse(state, perspective=0)
    assert len(seen) > 100
    assert sum(seen) / len(seen) < 0.1
