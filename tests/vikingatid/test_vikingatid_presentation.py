"""How Vikingatid presents itself (presentation.py): prompts, what a choice does, keys, groups, rules, standings.

The presentation is what the generic terminal and web tables show for the game (docs/engine.md, "Presentation");
it explains and never decides: every key and group must name exactly the state's legal actions. Positions come from
random play from the start (as far as the turn is written) or from the table's own methods (vikingatid_kit).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

from rich.console import Console
from rich.text import Text
from vikingatid_kit import GAME

from skald.cli.table import View
from skald.games.vikingatid import danger
from skald.games.vikingatid import steps as S
from skald.games.vikingatid.game import VikingatidGame
from skald.games.vikingatid.overview import names
from skald.games.vikingatid.presentation import RULES, TIE_BREAKS, VikingatidPresentation, journey_fleet
from skald.games.vikingatid.state import VikingatidState

P = VikingatidPresentation()


class PresentedGame(VikingatidGame):
    """The game with its presentation as a class attribute, as every game gives it."""

    presentation = P


def decisions(seeds: range, limit: int = 300, game: VikingatidGame = GAME) -> Iterator[VikingatidState]:
    """Every position where a seat decides, in random games of 2 to 6 players from the start (at most `limit`
    actions each)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(2 + seed % 5, {"purchase": "up_to_silver"} if seed % 2 else None)
        for _ in range(limit):
            if state.is_terminal():
                break
            if state.current_player() >= 0:
                yield state
            state.apply(rng.choice(state.legal_actions()))


def first_at(step: int, seeds: range = range(60), limit: int = 400, game: VikingatidGame = GAME) -> VikingatidState:
    """The first position of random play at `step` (a copy)."""
    for state in decisions(seeds, limit, game):
        if state.step == step:
            return state.clone()
    raise AssertionError(f"no random game reached step {S.STEPS[step].name!r}")


def test_prompts_say_the_step_in_words() -> None:
    """Every decision's prompt says what to do in words (the front end names the seat beside it), never the bare
    fallback of the contract."""
    for state in decisions(range(10)):
        prompt = P.prompt(state)
        assert prompt and prompt != "choose a move" and not prompt.startswith("Seat ")


def test_the_journey_prompt_is_the_rulebooks_choice() -> None:
    """6.1: "The player with the initiative conducts one of his journeys. Instead, he can choose to pass"."""
    state = first_at(S.JOURNEY_CHOICE)
    assert P.prompt(state) == "start a fleet, or pass"


def test_a_roll_is_prompted_as_dice() -> None:
    """At a chance node nobody decides: the prompt names the roll (VA-07: every roll is a D10)."""
    state = GAME.new_initial_state(3)
    assert state.current_player() < 0
    assert P.prompt(state) == "dice: roll for the kingdom choice"


def test_keys_are_unique_and_name_exactly_the_legal_actions() -> None:
    """Over many random positions the keys are unique, non-empty, and map one-to-one onto the legal actions."""
    checked = 0
    for state in decisions(range(30), limit=400):
        legal = state.legal_actions()
        keys = P.keys(state, legal)
        typed = [key for key, _ in keys]
        assert len(set(typed)) == len(typed), (S.STEPS[state.step].name, typed)
        assert all(key and " " not in key for key in typed)
        assert sorted(action for _, action in keys) == sorted(legal)
        checked += 1
    assert checked > 500


def test_groups_hold_each_legal_action_once() -> None:
    """The headings only sort the choices: each legal action appears in exactly one group."""
    for state in decisions(range(15), limit=400):
        legal = state.legal_actions()
        grouped = [action for _, group in P.groups(state, legal) for action in group]
        assert sorted(grouped) == sorted(legal)


def test_amount_keys_are_the_amounts() -> None:
    """At a number (ships to buy, silver to pay) the key is the number itself."""
    state = first_at(S.BUY_AMOUNT)
    for key, action in P.keys(state, state.legal_actions()):
        assert key == str(state.space.to_json(action)["n"])


def test_every_step_has_its_rule_paraphrased() -> None:
    """The terminal's `rules` gives the rulebook's words on each step, citing the rule the step follows, with the
    kingdoms and empires by the board's names."""
    assert set(RULES) == {step.id for step in S.STEPS}
    state = GAME.new_initial_state(3)
    words = names(state.position.board)
    for step in S.STEPS:
        probe = state.clone()
        probe.step = step.id
        text = P.rules(probe)
        assert step.rule in text and step.name in text and RULES[step.id].format_map(words) in text
        assert "{" not in text


def test_a_move_says_the_danger_the_area_adds() -> None:
    """6.2 "Danger value": each move's label gives the danger the area adds (VA-48) and the count after it."""
    state = first_at(S.MOVE)
    fleet = journey_fleet(state)
    assert fleet is not None
    for action in state.legal_actions():
        data = state.space.to_json(action)
        if data["type"] != "move":
            continue
        added = danger.area_danger(state.position, fleet.owner, fleet.kind, data["area"])
        assert f"danger +{added} (count {fleet.danger + added})" in P.describe(state, action)


def test_a_move_onto_an_own_camp_ends_the_leg() -> None:
    """ "The fleet moves until it reaches a camp of its type": a move there says the leg ends (VA-47)."""
    for state in decisions(range(60), limit=400):
        fleet = journey_fleet(state)
        if state.step != S.MOVE or fleet is None:
            continue
        for action in state.legal_actions():
            data = state.space.to_json(action)
            area = state.board.area(data["area"]) if data["type"] == "move" else None
            if area is None or not area.is_land or area.no_camps or area.kind == "empire_core":
                continue
            probe = state.clone()
            assert "the leg ends" not in P.describe(probe, action) or probe.position.camps_at(
                fleet.owner, fleet.kind, area.id
            )
            probe.position.build_camps(fleet.owner, fleet.kind, area.id, 1)
            assert "the leg ends with a danger roll" in P.describe(probe, action)
            return
    raise AssertionError("no random game offered a move into a land area where a camp could stand")


def test_a_build_says_the_ships_it_costs_and_the_camps_after_it() -> None:
    """6.3/6.4: "He removes two ships per camp"; the cap counts all players' camps in the area."""
    for state in decisions(range(80), limit=400):
        if state.step != S.ACT:
            continue
        builds = [a for a in state.legal_actions() if state.space.to_json(a)["type"] == "build"]
        if not builds:
            continue
        fleet = journey_fleet(state)
        assert fleet is not None
        data = state.space.to_json(builds[0])
        text = P.describe(state, builds[0])
        assert f"costs {2 * data['count']} of the fleet's {fleet.size} ships" in text
        have = state.position.camps_in_area(data["camp"], fleet.area)
        assert f"then holds {have + data['count']}/" in text
        return
    raise AssertionError("no random game offered a build")


def test_a_trade_says_its_silver() -> None:
    """6.3 Trade: "He gets silver equal to the areas trade value"."""
    for state in decisions(range(40), limit=400):
        trades = [a for a in state.legal_actions() if state.space.to_json(a)["type"] == "trade"]
        if trades:
            fleet = journey_fleet(state)
            assert fleet is not None
            value = state.position.trade_value(fleet.area)
            assert P.describe(state, trades[0]).startswith(f"one ship for {value} silver")
            return
    raise AssertionError("no random game offered a trade")


def test_every_choice_is_described_without_error() -> None:
    """`describe` reads any legal action at any step it meets (empty where the notation says it all)."""
    for state in decisions(range(8), limit=400):
        for action in state.legal_actions():
            assert isinstance(P.describe(state, action), str)
        assert all(isinstance(line, str) for line in P.notes(state))
        Text.from_markup(P.step_help(state))
        Text.from_markup(P.rules(state))


def test_standings_rank_by_vp_then_the_tie_break_option() -> None:
    """VA-63, rule option tie_break: shared, most_silver or most_conquered after the victory points."""
    for rule in ("shared", "most_silver", "most_conquered"):
        state = GAME.new_initial_state(3, {"tie_break": rule})
        state.position.vp[:] = [5, 5, 2]
        state.position.silver[:] = [1, 9, 0]
        rows = P.standings(state)
        assert [row["score"] for row in rows] == [5, 5, 2]
        expected = {"shared": [5], "most_silver": [5, 9], "most_conquered": [5, 0]}[rule]
        assert rows[1]["order"] == expected
        assert P.tie_break(state) == TIE_BREAKS[rule]


def test_the_generic_terminal_table_shows_the_game() -> None:
    """Through the terminal's generic View: the board with names, the prompt, keyed choices and notes print in a
    100-column console."""
    view = View()
    state = first_at(S.JOURNEY_CHOICE, game=PresentedGame())
    console = Console(file=io.StringIO(), width=100, color_system=None)
    names = [f"Player {s + 1}" for s in range(state.num_players)]
    console.print(view.board(state, names, state.current_player()))
    keys = view.keys(state)
    for title, group in view.groups(state, keys):
        console.print(title)
        for key, action in group:
            console.print(f"[{key}] {state.action_to_notation(action)} {view.describe(state, action)}", markup=False)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert f"Player {state.current_player() + 1} (seat {state.current_player() + 1})" in output
    assert "[p] pass" in output
    assert view.step(state) == "start a fleet, or pass"


def test_aftermath_reports_markers_victory_points_and_faith() -> None:
    """What changed without a choice is said to everyone: a War marker (VA-40), victory points (9.), a player
    christianised (10.)."""
    before = first_at(S.JOURNEY_CHOICE)
    after = before.clone()
    after.position.war[1] = "war"
    after.position.vp[0] += 2
    after.position.christian[1] = True
    lines = P.aftermath(before, after, "Ann", None)
    assert "Norge now shows War." in lines
    assert f"Seat 1: +2 VP ({after.position.vp[0]})." in lines
    assert "Seat 2 becomes Christian." in lines
    assert P.aftermath(before, before.clone(), "Ann", None) == []


def test_a_standing_pass_is_offered_in_every_card_window_and_nowhere_else() -> None:
    """VA-09 asks every holder in every window: the presentation offers to keep "pass" for them (a legal answer in
    each), and at no other decision, so a kept pass ends at the holder's next decision of another kind."""
    windows = others = 0
    for state in decisions(range(12)):
        offer = P.standing_answer(state)
        if state.step == S.CARD_WINDOW:
            windows += 1
            assert offer is not None and offer.name == "card_windows"
            assert offer.action in state.legal_actions() and state.action_to_notation(offer.action) == "pass"
        else:
            others += 1
            assert offer is None, S.STEPS[state.step].name
    assert windows > 20 and others > 20
