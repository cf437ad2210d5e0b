"""What Vikingdoms tells a person at the terminal and the web: each phase's prompt and click hint, what a choice
brings, grouped choices at recruitment and the way a winner is decided (rules/002)."""

from __future__ import annotations

import random

from skald.cli.table import View
from skald.engine import CHANCE, get_game, play_random_game, sample_chance

GAME = get_game("vikingdoms")
PRESENTATION = GAME.presentation


def decisions(seed: int) -> dict[str, object]:
    """One position per phase where a seat decides, from a random game."""
    state = GAME.new_initial_state(2)
    rng = random.Random(seed)
    found: dict[str, object] = {}
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        found.setdefault(state.phase, state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return found


def test_every_deciding_phase_has_a_prompt_a_click_hint_and_its_rule():
    seen = {}
    for seed in range(6):
        seen.update(decisions(seed))
    assert {"choosing start", "recruitment", "taking tiles"} <= set(seen)
    for state in seen.values():
        assert PRESENTATION.prompt(state) and PRESENTATION.prompt(state) != "choose a move"
        assert PRESENTATION.click_hint(state), state.phase
        assert "rules/002" in PRESENTATION.rules(state)


def test_a_tile_is_described_by_its_building_and_corners_as_the_tile_table_gives_them():
    state = decisions(1)["taking tiles"]
    for action in state.legal_actions():
        name = state.action_to_json(action)["tile"]
        tile = next(t for t in state.tiles if t.name == name)
        words = PRESENTATION.describe(state, action)
        assert words.startswith(f"a {tile.building}")
        assert (f"{tile.coins} coins" in words) == (tile.coins > 0)
        assert ("a rioter" in words) == tile.rioter


def test_recruitment_groups_placing_apart_from_moving_and_keeps_every_choice_once():
    for seed in range(4):
        state = decisions(seed)["recruitment"]
        legal = state.legal_actions()
        groups = PRESENTATION.groups(state, legal)
        assert sorted(a for _, group in groups for a in group) == sorted(legal)
        assert groups[0][0] == "place a Viking from your camp"


def test_the_end_names_how_the_winner_was_decided():
    state = play_random_game(GAME.new_initial_state(2), random.Random(1))
    assert "VI. Kingdom" in PRESENTATION.tie_break(state)
    verdict = View().verdict(state, ["Red", "Blue"])
    assert ["Red", "Blue"][state.winners()[0]] in verdict


def test_every_step_has_a_rules_summary_and_recruitment_names_the_termination_rule():
    from skald.games.vikingdoms import state as S

    state = GAME.new_initial_state(2)
    for phase in S.PHASE_RULES:
        state.phase = phase
        words = PRESENTATION.rules(state)
        assert S.PHASE_RULES[phase] in words and "No rules summary" not in words
        assert len(words.splitlines()) >= 2, phase
    state.phase = S.RECRUITMENT
    assert "termination" in PRESENTATION.rules(state) and "3 times" in PRESENTATION.rules(state)
    capped = GAME.new_initial_state(2, {"termination": "move_cap"})
    capped.phase = S.RECRUITMENT
    assert "300 actions" in PRESENTATION.rules(capped)


def test_the_last_move_names_the_squares_a_recruitment_move_changed_on_the_drawn_board() -> None:
    """A Viking placed names its square, a stack moved names both squares; the drawn board carries each name."""
    game = get_game("vikingdoms")
    state = game.new_initial_state(2)
    chance = random.Random(1)
    named: dict[str, int] = {}
    while not state.is_terminal():
        player = state.current_player()
        action = sample_chance(state, chance) if player == CHANCE else chance.choice(state.legal_actions())
        data = state.action_to_json(action)
        state.apply(action)
        if player == CHANCE:
            continue
        marks = game.presentation.last_move(state, player, action, None)
        if data["type"] == "place":
            assert marks == [f"square:{data['square']}"]
        elif data["type"] == "move":
            assert marks == [f"square:{data['from']}", f"square:{data['to']}"]
        svg = game.render_svg(state, 1 - player)
        assert all(f'data-at="{mark}"' in svg for mark in marks)
        named[data["type"]] = named.get(data["type"], 0) + len(marks)
    assert named.get("place", 0) > 0 and named.get("move", 0) > 0
