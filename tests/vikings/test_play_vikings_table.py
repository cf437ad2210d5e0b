"""What the Vikings table tells a person: the price and the Fame exchange, the 0-space rule, marked squares, results.

The words are checked against what the engine then does, so the table never explains a rule the state does not
apply (rules/000 p.2 Purchasing Groups, p.3 Placing, p.5 Game End).
"""

from __future__ import annotations

import random
from typing import Any

from rich.console import Console

from skald.cli.table import View
from skald.engine import CHANCE, play_random_game, sample_chance
from skald.games.vikings import actions as A
from skald.games.vikings.game import GAME
from skald.games.vikings.state import VikingsState

#: The terminal's view, which asks Vikings' presentation (`skald.games.vikings.presentation`) for every word.
VIEW = View()


def offer(seed: int) -> VikingsState:
    """A 2-player game with round 1's offer laid, seat 0 to buy."""
    state = GAME.new_initial_state(2)
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))
    return state


def text(renderable: object) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_a_group_dearer_than_your_gold_shows_the_fame_it_costs_and_the_engine_takes_exactly_that():
    state = offer(1)
    land = state.lands[0]
    land.gold = 3
    dearer = next(a for a in state.legal_actions() if a - A.BUY > 3)
    price = dearer - A.BUY
    assert any(note.startswith("Fame for Gold") for note in VIEW.notes(state))
    assert VIEW.describe(state, dearer).endswith(f"3 Gold + {price - 3} Fame")
    state.apply(dearer)
    assert (land.gold, land.fame) == (0, 10 - (price - 3))


def test_the_zero_group_note_says_why_it_is_or_is_not_allowed():
    state = offer(3)
    assert state.illegal_reason(A.BUY + 0) is not None
    assert any(note.startswith("The 0-Group is not allowed") for note in VIEW.notes(state))
    # Nothing else affordable with Gold alone: the rulebook's forced case, and then it is a choice keyed 0.
    state.lands[0].gold = 0
    assert state.illegal_reason(A.BUY + 0) is None
    assert any("The 0-Group is allowed: no other Group costs at most your 0 Gold" in n for n in VIEW.notes(state))
    assert ("0", A.BUY + 0) in VIEW.keys(state)


def test_groups_beyond_gold_and_fame_are_listed_as_out_of_reach():
    state = offer(3)
    state.lands[0].gold, state.lands[0].fame = 1, 1
    notes = " ".join(VIEW.notes(state))
    assert "Out of reach (more than your Gold + Fame = 2)" in notes
    assert all(int(key) <= 2 for key, _ in VIEW.keys(state))


def test_the_squares_where_the_tile_may_go_carry_their_keys_on_the_mainland():
    state = offer(3)
    state.apply(A.BUY + 1)
    keys = VIEW.keys(state)
    assert [state.action_to_notation(a) for _, a in keys] == [
        "start W1",
        "start N1",
        "start S1",
        "start G1",
        "start F1",
    ]
    shown = text(VIEW.focus(state, keys))
    for key, row in zip("12345", "WNSGF", strict=True):
        assert any(line.split()[:2] == [row, f"({key})"] for line in shown.splitlines())


def test_every_step_has_its_rules_with_the_rulebook_page():
    state = offer(3)
    seen = set()
    rng = random.Random(0)
    while not state.is_terminal() and len(seen) < 5:
        if state.current_player() != CHANCE:
            rules = VIEW.rules(state)
            assert "rules/000 p." in rules and VIEW.step_help(state)
            seen.add(state.step_name())
        state.apply(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert {"buy a Group", "place the tile", "place the Viking"} <= seen


def test_the_tie_break_is_most_fame_then_most_gold_then_a_shared_victory():
    state = play_random_game(GAME.new_initial_state(2), random.Random(4))
    names = ["Ann", "Bo"]
    state.lands[0].fame, state.lands[1].fame = 40, 30
    assert VIEW.verdict(state, names) == "Ann wins with the most Fame (40)."
    state.lands[1].fame = 40
    state.lands[0].gold, state.lands[1].gold = 1, 3
    assert VIEW.verdict(state, names) == (
        "Ann and Bo tie on 40 Fame; on the tie-break (most Gold breaks a tie in Fame; still tied, the victory is "
        "shared), Bo wins."
    )
    assert [row["gold"] for row in GAME.presentation.standings(state)] == [1, 3]
    state.lands[0].gold = 3
    assert "share the victory" in VIEW.verdict(state, names)
    standings = text(VIEW.standings(state, names))
    assert standings.count("winner") == 2


def test_the_presentation_gives_the_web_the_step_and_what_to_click_in_the_terminals_words():
    state = offer(3)
    presentation = GAME.presentation
    assert presentation.prompt(state) == "buy a Group" == VIEW.step(state)
    assert presentation.click_hint(state) == "click a Group on the wheel to buy it"
    # The web's labels are the terminal's: the words beside each choice.
    dearest = max(state.legal_actions())
    assert presentation.describe(state, dearest) == VIEW.describe(state, dearest) != ""
    state.apply(A.BUY + 1)
    assert presentation.prompt(state) == "place the tile"
    assert presentation.click_hint(state) == "click a highlighted square to place the tile"


def test_with_the_start_tile_in_hand_its_squares_are_grouped_apart_from_the_bought_tiles():
    """rules/000 p.3: with the first Group the start tile is placed too, in either order."""
    both = []
    for seed in range(20):
        for buy in offer(seed).legal_actions():
            state = offer(seed)
            state.apply(buy)
            if (
                state.step_name() == "place the tile"
                and len(GAME.presentation.groups(state, state.legal_actions())) == 2
            ):
                both.append(state)
    assert both, "some first purchase can be placed before the start tile (a Ship)"
    for state in both[:5]:
        legal = state.legal_actions()
        (tile_heading, tile), (start_heading, start) = GAME.presentation.groups(state, legal)
        assert start_heading == "your start tile" and tile_heading.startswith("the ")
        assert all(state.action_to_notation(a).startswith("start") for a in start)
        assert sorted(tile + start) == sorted(legal)


def test_standings_list_fame_and_gold_and_rank_by_fame_then_gold():
    state = play_random_game(GAME.new_initial_state(3), random.Random(6))
    rows = GAME.presentation.standings(state)
    assert [row["fame"] for row in rows] == state.scores()
    assert all(row["order"] == [row["fame"], row["gold"]] for row in rows)
    assert "most Gold" in GAME.presentation.tie_break(state)


def test_the_game_supplies_its_own_score_command():
    commands = GAME.commands()
    assert commands is not None
    assert [command.name or command.callback.__name__ for command in commands.registered_commands] == ["score"]


def test_the_last_move_names_the_square_it_filled_on_the_movers_drawn_mainland() -> None:
    """A tile, then its Viking, placed by seat 0: each move names that square of seat 0's Mainland, which the drawn
    board carries (the web rings it); a purchase names nothing on the board."""
    state = offer(3)
    presentation = GAME.presentation
    buy = state.legal_actions()[0]
    state.apply(buy)
    assert presentation.last_move(state, 0, buy, None) == []
    named = 0
    while state.current_player() == 0:
        action = state.legal_actions()[-1]
        state.apply(action)
        data = A.to_json(action)
        marks = presentation.last_move(state, 0, action, 1)
        if data["type"] in ("island", "start", "viking"):
            assert marks == [f"0:{data['square']}"]
        elif data["type"] == "head":
            assert marks == ["0:head"]
        svg = GAME.render_svg(state, 1)
        assert all(f'data-at="{mark}"' in svg for mark in marks), (data, marks)
        named += len(marks)
    assert named >= 2  # the tile and its Viking (or the Head Boatswain)


def test_every_drawn_ship_prints_the_letter_of_the_row_it_threatens_on_its_hull() -> None:
    """rules/000 p.4: a ship threatens the Vikings of the row its sail's colour names. Red and green sails look alike
    to a colour-blind eye, so the drawn ship also prints that row's letter."""
    import re

    from skald.games.vikings.components import FIRST_SHIP, LETTERS, NUM_SHIPS, ship_of, tile_code
    from skald.games.vikings.svg import ship_glyph

    letters = set()
    for tile in range(FIRST_SHIP, FIRST_SHIP + NUM_SHIPS):
        drawn = ship_glyph(0, 0, 34, tile_code(tile))
        hull = re.search(r'class="hull"[^>]*>(\w)</text>', drawn)
        assert hull is not None and hull.group(1) == LETTERS[ship_of(tile).sail], drawn
        letters.add(hull.group(1))
    assert len(letters) >= 4  # the ships' sails cover the island rows


def _luminance(colour: str) -> float:
    """WCAG 2.1's relative luminance of a `#rgb` or `#rrggbb` colour."""
    hexes = colour.lstrip("#")
    hexes = "".join(c * 2 for c in hexes) if len(hexes) == 3 else hexes
    channels = [int(hexes[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_drawn_boards_letters_reach_4_5_to_1_on_their_colours() -> None:
    """WCAG 1.4.3: each Viking's letter on its chip, the row names on the coast and the column numbers on the
    Mainland's panel are at least 4.5:1."""
    import re

    from skald.games.vikings import svg

    for letter, colour in svg.COLOURS.items():
        assert _contrast(svg.INK[letter], colour) >= 4.5, letter
    assert _contrast("#fff", svg.COAST) >= 4.5
    colnum = re.search(r"\.colnum\{[^}]*fill:(#\w+)", svg.STYLE)
    assert colnum is not None and _contrast(colnum.group(1), "#fbf6ea") >= 4.5


def test_the_six_viking_colours_stay_apart_for_red_blind_and_green_blind_eyes() -> None:
    """Under a full deuteranopia and protanopia simulation (Machado 2009, through colorspacious) every two of the six
    colours differ by at least 13 in CAM02-UCS: well past "just noticeable" (about 1), so the Nobles' red and the
    Scouts' green are never mistaken for each other even before their letters are read."""
    from itertools import combinations

    import numpy as np
    from colorspacious import cspace_convert, deltaE

    from skald.games.vikings import svg

    def seen(colour: str, deficiency: str) -> Any:
        rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
        space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
        return np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)

    for deficiency in ("deuteranomaly", "protanomaly"):
        shown = {letter: seen(colour, deficiency) for letter, colour in svg.COLOURS.items()}
        for one, other in combinations(shown, 2):
            difference = deltaE(shown[one], shown[other], input_space="sRGB1")
            assert difference >= 13, (deficiency, one, other, difference)
