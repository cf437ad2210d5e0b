"""Vikingatid under the engine contract (docs/engine.md): the steps as data, the kingdom choice with its rolls as
chance nodes, the turn's first seat (VA-06), legal actions, illegal actions naming the rule, clones, records,
JSON and notation, random play through turn 1 and through whole games, and the end of the game (VA-63)."""

from __future__ import annotations

import json
import random

import pytest
from vikingatid_kit import GAME, at_phase, fixed_state, play_randomly, position_for, roll

from skald.engine import CHANCE, IMPERFECT, TERMINAL, IllegalAction, Record
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import (
    ACCEPT_PEACE,
    DECLINE_PEACE,
    GIVE_SILVER,
    KINGDOM,
    NUM_ACTIONS,
    PASS,
    SINGLE,
    SINGLES,
)
from skald.games.vikingatid.options import OPTIONS
from skald.games.vikingatid.position import problems
from skald.games.vikingatid.state import VikingatidState


def everything(state: VikingatidState) -> str:
    """All a state holds that play can change, as text: two states are alike when this is."""
    return json.dumps(
        [state.history, state.step, state.observation(None), state.election.gift_queue, state.election.bid_order,
         state.election.bid_pointer, state.election.passes, state.election.offered, state.reactions.areas,
         state.reactions.gald, state.reactions.to_roll, state.purchases.queue, state.purchases.placed,
         state.purchases.step],
        sort_keys=True,
    )  # fmt: skip


# -- the steps as data -------------------------------------------------------------------------------------------


def test_the_turn_has_the_eleven_phases_of_the_summary() -> None:
    """'Each turn consists of eleven phases ... played in this order' (Summary of the game turns)."""
    assert S.PHASE_NAMES[1:] == (
        "Draw cards", "Roll for empire reactions", "Election of kings", "Distribution of silver", "Buying ships",
        "Initiative and journeys", "Taxation", "Clear markers and discard", "Victory points distribution",
        "Christianisation", "Next turn",
    )  # fmt: skip
    assert len(S.PHASE_STEPS) == 12


def test_every_step_is_listed_once_under_its_phase() -> None:
    """STEPS is indexed by step id, and each step sits in PHASE_STEPS under its own phase, in the order play
    reaches them; every step that takes actions names a VA-id or a rulebook section."""
    assert [step.id for step in S.STEPS] == list(range(len(S.STEPS)))
    listed = [step for phase in S.PHASE_STEPS for step in phase] + list(S.CARD_STEPS)
    assert sorted(listed) == list(range(len(S.STEPS)))
    for phase, ids in enumerate(S.PHASE_STEPS):
        assert all(S.STEPS[i].phase == phase for i in ids)
    assert all(S.STEPS[i].phase == S.ANY_PHASE for i in S.CARD_STEPS)
    assert all(step.rule.startswith(("VA-", "6.", "10.")) for step in S.STEPS)


def test_the_single_decisions_used_here_are_the_action_spaces() -> None:
    """PASS, ACCEPT_PEACE and DECLINE_PEACE are the ids `actions.py` gives 'pass', 'accept_peace', 'decline_peace'."""
    ids = {t: SINGLE + i for i, (t, _) in enumerate(SINGLES)}
    assert (ids["pass"], ids["accept_peace"], ids["decline_peace"]) == (PASS, ACCEPT_PEACE, DECLINE_PEACE)


def test_the_first_seat_rotates_from_the_first_chooser() -> None:
    """VA-06 'rotating': the first to choose a kingdom starts turn 1 and the first seat moves on one seat each
    turn; 'fixed': seat 0 always starts."""
    assert [S.turn_first_seat(t, 2, 4, "rotating") for t in (1, 2, 3, 4, 5)] == [2, 3, 0, 1, 2]
    assert [S.turn_first_seat(t, 2, 4, "fixed") for t in (1, 2, 3)] == [0, 0, 0]
    assert S.seat_order(2, 4) == [2, 3, 0, 1]


# -- the game ----------------------------------------------------------------------------------------------------


def test_the_game_describes_itself() -> None:
    """'Viking era is a game for two to six players'; its options are options.py's; imperfect information (each
    hand is its holder's, the rulings' "Hidden information"); the fixed action space of actions.py."""
    assert (GAME.name, GAME.title, GAME.min_players, GAME.max_players) == ("vikingatid", "Vikingatid", 2, 6)
    assert GAME.options == OPTIONS and GAME.information == IMPERFECT
    assert GAME.num_distinct_actions == NUM_ACTIONS == 1107
    for players in (1, 7):
        with pytest.raises(ValueError, match="2–6 players"):
            GAME.new_initial_state(players)


def test_sealed_bids_are_playable_with_hidden_pledges() -> None:
    """VA-35 'sealed' ("each player makes one hidden set of payments, and all are shown together") is playable: the
    election asks for sealed pledges, hidden from every viewer but the decider (tests/vikingatid/
    test_vikingatid_sealed_bids.py checks the round itself)."""
    position = position_for(3, ("denmark", "denmark", "norway"))
    position.gain_silver(1, 2)
    state = at_phase(position, S.ELECTIONS, election_bids="sealed", gifts="off")
    assert state.step == S.SEALED_BID and state.current_player() == 1
    assert state.action_hidden_from(PASS, 0) and state.action_hidden_from(PASS, None)
    assert not state.action_hidden_from(PASS, 1)


def test_the_game_is_registered_for_every_front_end() -> None:
    """Registered as `vikingatid` through the `skald.games` entry point, with its presentation."""
    from skald.engine import game_names, get_game
    from skald.games.vikingatid.presentation import VikingatidPresentation

    assert "vikingatid" in game_names()
    assert isinstance(get_game("vikingatid").presentation, VikingatidPresentation)


# -- setup: the kingdom choice -----------------------------------------------------------------------------------


def test_every_player_rolls_a_d10_as_a_chance_node() -> None:
    """'All players roll their dice' (setup; VA-01, VA-07): each roll a chance node over 1-10, each 1/10."""
    state = GAME.new_initial_state(3)
    assert state.current_player() == CHANCE and state.step == S.KINGDOM_ROLL
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [roll(f) for f in range(1, 11)] == state.legal_actions()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_the_highest_roll_chooses_first_and_starts_turn_one() -> None:
    """'The highest number is the first to choose his home country ... Then the other players choose, in order of
    their dice roll'; the first to choose is turn 1's first seat (VA-06)."""
    state = GAME.new_initial_state(3)
    for face in (4, 9, 6):
        state.apply(roll(face))
    assert state.step == S.KINGDOM_CHOICE and state.current_player() == 1
    assert state.legal_actions() == [KINGDOM, KINGDOM + 1, KINGDOM + 2]
    state.apply(KINGDOM + 2)
    assert state.current_player() == 2
    state.apply(KINGDOM + 0)
    state.apply(KINGDOM + 2)
    assert [state.position.kingdom_of(s) for s in range(3)] == ["sweden", "sweden", "denmark"]
    assert state.position.first_seat == 1 and state.position.turn == 1


def test_tied_rolls_roll_again() -> None:
    """VA-01: tied players roll again among themselves (6.1's tie rule)."""
    state = GAME.new_initial_state(2)
    state.apply(roll(5))
    state.apply(roll(5))
    assert state.current_player() == CHANCE
    state.apply(roll(2))
    state.apply(roll(8))
    assert state.current_player() == 1


def test_with_no_camps_and_no_silver_turn_one_goes_straight_to_the_election_dice() -> None:
    """Turn 1 (VA-02: no silver, no camps): phase 1 has nothing to do with cards off, phase 2 has no area to roll,
    nobody can give or pay, so the first decision is the first election die."""
    state = fixed_state(3, card_windows="off")
    assert state.position.phase == S.ELECTIONS and state.step == S.ELECTION_ROLL
    assert state.election.kingdom_id == "denmark" and state.election.participants == [0]


# -- the contract ------------------------------------------------------------------------------------------------


def random_states(players: int, seed: int, turns: int = 1, **options: str) -> list[VikingatidState]:
    """Every state of one random game (chance by its odds) from the kingdom choice through `turns` turns (all 14:
    the whole game), as clones."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(players, options)
    seen = [state.clone()]
    while not state.is_terminal() and state.position.turn <= turns:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_legal_actions_are_ascending_stable_and_legal(players: int) -> None:
    """docs/engine.md: legal actions in a stable ascending order; each legal action has no illegal reason."""
    for state in random_states(players, players):
        legal = state.legal_actions()
        assert legal == sorted(set(legal)) == state.legal_actions()
        assert all(state.illegal_reason(a) is None for a in legal)
        assert (state.current_player() == TERMINAL) == (legal == [])


@pytest.mark.parametrize("players", [2, 4, 6])
def test_illegal_actions_name_the_rule_and_change_nothing(players: int) -> None:
    """An illegal action raises IllegalAction naming the rule (a VA-id, a rulebook section, or action.space) and
    leaves the state exactly as it was."""
    rng = random.Random(players)
    for state in random_states(players, players + 10):
        legal = set(state.legal_actions())
        tried = [a for a in rng.sample(range(NUM_ACTIONS), 25) if a not in legal] + [-1, NUM_ACTIONS]
        before = everything(state)
        for action in tried:
            with pytest.raises(IllegalAction) as error:
                state.apply(action)
            assert error.value.rule.startswith(("VA-", "action.space", "3.", "5.", "6.", "10.")), error.value
            assert everything(state) == before


def test_a_wrong_kind_of_action_names_the_step() -> None:
    """'turn.step'-like refusals: giving silver while the dice decide the kingdom choice names VA-01 and the step."""
    state = GAME.new_initial_state(2)
    with pytest.raises(IllegalAction) as error:
        state.apply(GIVE_SILVER + 1)
    assert error.value.rule == "VA-01" and "the step is 'roll for the kingdom choice'" in error.value.reason


def test_the_game_ends_after_the_last_box_and_the_most_vp_wins() -> None:
    """VA-05 / VA-63: the game ends after phase 11 of the track's last box (1125) or once all are Christian; each
    camp is then one more VP, the most VP wins (ties shared), and any action is refused naming VA-63."""
    state = random_states(3, 1, turns=99)[-1]
    position = state.position
    assert state.is_terminal() and state.step == S.GAME_OVER and state.legal_actions() == []
    assert position.year <= 1125 and (position.year == 1125 or all(position.christian))
    best = max(position.vp)
    assert state.winners() == [s for s in range(3) if position.vp[s] == best]
    assert sum(state.returns()) == pytest.approx(1.0) and state.chance_outcomes() == []
    camps = [sum(position.camps[s]) for s in range(3)]
    report = state.scorings()[-1]
    assert report["when"].startswith("final")
    final = [sum(line["points"] for line in report["lines"] if line["seat"] == s) for s in range(3)]
    assert final == camps
    with pytest.raises(IllegalAction) as error:
        state.apply(roll(10))
    assert error.value.rule == "VA-63" and "the game is over" in error.value.reason
    assert "game over" in state.render_text()


def test_the_last_year_option_shortens_the_game() -> None:
    """VA-05 `last_year: 1100`: the game ends after turn 13 at the latest."""
    for seed in range(3):
        position = random_states(2, seed, turns=99, last_year="1100")[-1].position
        assert position.year <= 1100 and (position.year == 1100 or all(position.christian))


def test_a_clone_is_independent() -> None:
    """clone() copies through the constructor: playing on the clone leaves the source as it was, and back."""
    state = fixed_state(4)
    copy = state.clone()
    assert everything(copy) == everything(state)
    before = everything(state)
    play_randomly(copy, random.Random(3))
    assert everything(state) == before
    played = everything(copy)
    play_randomly(state, random.Random(4))
    assert everything(copy) == played


@pytest.mark.parametrize("players", [2, 3, 6])
def test_json_and_notation_round_trip_for_every_legal_action(players: int) -> None:
    """Each legal action's JSON form and notation (the whole sentence the step's Phrase makes) parse back to it."""
    for state in random_states(players, players + 20):
        for action in state.legal_actions():
            data = json.loads(json.dumps(state.action_to_json(action)))
            assert state.action_from_json(data) == action
            assert state.action_from_notation(state.action_to_notation(action)) == action


@pytest.mark.parametrize("players", [2, 5])
def test_records_replay_identically(players: int) -> None:
    """A record of a random game, saved as JSON and loaded, replays to the identical position. Record finds games
    by name."""
    final = random_states(players, players + 30)[-1]
    record = Record.of(final)
    text = json.dumps(record.to_dict())
    loaded = Record.from_dict(json.loads(text))
    again = loaded.replay()
    assert isinstance(again, VikingatidState)
    assert everything(again) == everything(final)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(
    "options",
    [{}, {"kingdom_choice": "spread", "turn_order": "fixed"}, {"gifts": "off", "election_margin": "over_players"}],
)
def test_random_play_keeps_the_table_sound_through_a_turn(players: int, options: dict[str, str]) -> None:
    """Random play through the whole of turn 1: the table's invariants (silver never negative, ships and camps
    conserved, caps, valid kings) hold after every action."""
    for seed in range(4):
        state = GAME.new_initial_state(players, options)
        play_randomly(state, random.Random(seed))
        assert problems(state.position) == [] and (state.position.turn == 2 or state.is_terminal())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_whole_games_keep_the_table_sound_and_end(players: int) -> None:
    """A whole random game: every invariant after every action, and the game ends."""
    state = GAME.new_initial_state(players)
    play_randomly(state, random.Random(players), limit=100_000, turns=99)
    assert state.is_terminal() and state.winners()
