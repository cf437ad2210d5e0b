"""What each die decided, in the log's words, and the turn and phase the log groups an entry under: a danger roll
says the count it was rolled against and whether the fleet sails on or what it loses (6.2: "If he roll higher than
the total of danger points ... the fleet suffers no losses. If he rolls lower or equal, he loses as many ships as the
number he rolled. If he rolls ten, the fleet suffers no loss at all"), a christianisation roll whether the roller
converts (10: "rolls a dice to see if he becomes christianised"), an initiative roll who takes the initiative; the
end says why it came (11. Next turn, VA-05); a fleet that leaves ships behind says they are removed (6.1)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from vikingatid_kit import GAME

from skald.games.vikingatid import journeys
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.actions import ROLL
from skald.games.vikingatid.state import VikingatidState

P = GAME.presentation


def new(players: int) -> VikingatidState:
    """A new default game of `players`."""
    state = GAME.new_initial_state(players)
    assert isinstance(state, VikingatidState)
    return state


def rolls(seeds: range, players: int = 3) -> Iterator[tuple[VikingatidState, int]]:
    """Every chance node of random games with the outcome drawn there, and the terminal states at the end."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new(players)
        while not state.is_terminal():
            if state.current_player() < 0:
                action = state.sample_chance_outcome(rng)
                yield state, action
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
        yield state, -1


def test_a_danger_roll_says_the_count_and_what_the_fleet_lost() -> None:
    met = set()
    for state, action in rolls(range(3)):
        if action < 0 or state.step != S.DANGER_ROLL:
            continue
        face = action - ROLL + 1
        fleet = journeys.fleet(state.position)
        count = max(fleet.danger - state.journeys.protection, 0)
        text = P.outcome(state, action)
        assert text.startswith(f"danger roll {face} against a count of {count}: seat {fleet.owner + 1}'s"), text
        if face == 10 or face > count:
            assert text.endswith(("sails on (higher than the count)", "sails on (a 10 saves it)")), text
            met.add("safe")
        elif face >= fleet.size:
            assert text.endswith("is lost"), text
            met.add("lost")
        else:
            assert f"loses {face} ship" in text and f"{fleet.size - face} sail on" in text, text
            met.add("loses")
    assert {"safe", "lost"} <= met


def test_christianisation_and_initiative_rolls_say_what_they_decided() -> None:
    converted = stayed = took = False
    for state, action in rolls(range(2)):
        if action < 0:
            continue
        text = P.outcome(state, action)
        if state.step == S.CHRISTIANISATION_ROLL:
            seat = state.christianisation.queue[0]
            chance = state.christianisation.chance
            assert f"for seat {seat + 1} against a chance of {chance}: " in text
            if action - ROLL + 1 <= chance:
                assert text.endswith(f"seat {seat + 1} becomes Christian")
                converted = True
            else:
                assert text.endswith(f"seat {seat + 1} stays pagan")
                stayed = True
        if state.step == S.INITIATIVE_ROLL and "takes the initiative" in text:
            took = True
            assert re.search(r"seat (\d) takes the initiative", text)
    assert converted and stayed and took


def test_every_die_says_more_than_its_face_and_a_drawn_card_nothing() -> None:
    for state, action in rolls(range(1), players=4):
        if action < 0:
            continue
        text = P.outcome(state, action)
        if state.step == S.DRAW_CARD:
            assert text == ""  # the drawer alone sees the card: the notation as each viewer sees it says it all
        else:
            assert text and text != state.action_to_notation(action), (state.step, text)


def test_the_log_groups_by_turn_with_its_year_and_by_the_rulebooks_phase() -> None:
    state = GAME.new_initial_state(3)
    assert P.section(state) == ("Setup", "The choice of kingdoms")
    for state, action in rolls(range(1)):
        if action >= 0 and state.position.phase == S.JOURNEYS:
            assert P.section(state) == (
                f"Turn {state.position.turn} · {state.position.year}",
                "6. Initiative and journeys",
            )
            break


def test_the_end_says_whether_all_became_christian_or_the_last_year_came() -> None:
    *_, (end, _) = rolls(range(1))
    assert end.is_terminal() and all(end.position.christian)  # random play converts everyone long before 1125
    assert P.ending(end).startswith(f"every player is Christian: the game ends after the turn of {end.position.year}")
    # The same end with the second seat still pagan can only have come from the game length option (VA-05).
    end.position.christian[1] = False
    assert P.ending(end) == (
        f"the year track reached {end.position.year}, the last year of the game length option: the game ends there "
        "although seat 2 is still pagan (VA-05)"
    )


def test_a_fleet_that_leaves_ships_behind_says_they_are_removed_when_phase_6_ends() -> None:
    """6.1: "All unused ships are removed from the board" — sailing with fewer than all says what stays behind."""
    rng = random.Random(1)
    state = new(3)
    for _ in range(20000):
        if state.step == S.FLEET_SIZE_CHOICE and state.current_player() >= 0:
            j = state.journeys
            there = state.position.ships_at(state.current_player(), j.start_kind, j.start_area)
            labels = [P.describe(state, a) for a in state.legal_actions()]
            if there > 1:
                assert f"{there - 1} stay behind, removed when phase 6 ends" in labels[0] or there - 1 == 1
                assert "removed when phase 6 ends" in labels[0]
                if there <= 10:
                    assert "removed" not in labels[-1]
                return
        state.apply(
            state.sample_chance_outcome(rng) if state.current_player() < 0 else rng.choice(state.legal_actions())
        )
    raise AssertionError("no fleet of several ships met")
