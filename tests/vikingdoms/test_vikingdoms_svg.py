"""The drawn Vikingdoms table (`skald.games.vikingdoms.svg`): well-formed, showing the scores and whose decision
it is, never a tile still face down, and every legal action clickable on the deciding seat's board."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

from vikingdoms_kit import GAME, NAMES, B, R, at_raid, board, play, tile

from skald.engine import CHANCE, Record, sample_chance
from skald.games.vikingdoms import actions as A
from skald.games.vikingdoms import state as S
from skald.games.vikingdoms.state import VikingdomsState
from skald.games.vikingdoms.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
#: Player names a person could type: markup, quotes, an ampersand, a control character.
PLAYERS = ["<Astrid & 'Co'>", 'Bjørn "the\x01Bot" ]]>']
SHOWN = ["<Astrid & 'Co'>", 'Bjørn "theBot" ]]>']
#: The decisions each phase asks for (docs/vikingdoms.md, the action space).
PHASE_KINDS = {
    S.CHOOSING_START: {"start"},
    S.RECRUITMENT: {"place", "move", "pass"},
    S.CHOOSING_TROOP: {"troop"},
    S.TAKING: {"take"},
    S.RIOTING: {"riot"},
    S.CHOOSING_ALLY: {"ally"},
    S.GUNNAR_SWAP: {"swap", "no_swap"},
    S.EXCHANGING: {"exchange", "no_exchange"},
}


def drawn(state: VikingdomsState, seat: int | None) -> ET.Element:
    """The board `seat` (None: a spectator) sees, parsed as XML."""
    return ET.fromstring(GAME.render_svg(state, seat, PLAYERS))


def texts(root: ET.Element) -> list[str]:
    """Every text and tooltip on the board."""
    return ["".join(node.itertext()) for node in root.iter() if node.tag in (f"{SVG}text", f"{SVG}title")]


def clickable(root: ET.Element) -> list[str]:
    """The `data-action` of everything on the board that names an action."""
    return [node.attrib["data-action"] for node in root.iter() if "data-action" in node.attrib]


def actions_of(root: ET.Element, kind: str) -> list[dict[str, Any]]:
    """The JSON form of every action of one kind (`move`, `riot`, ...) on the board."""
    return [json.loads(text) for text in clickable(root) if json.loads(text)["type"] == kind]


def picks(root: ET.Element) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Each focusable Viking (square, how many move) with the moves shown once it is clicked."""
    found = {}
    for node in root.iter(f"{SVG}g"):
        if node.get("class") == "pick" and "data-square" in node.attrib:
            assert node.get("tabindex") == "0"
            moves = [json.loads(text) for text in clickable(node)]
            found[node.attrib["data-square"], int(node.attrib["data-count"])] = moves
    return found


def key(state: VikingdomsState, action: int) -> str:
    """The canonical text of an action's JSON form, as the web table keys its legal actions."""
    return json.dumps(state.action_to_json(action), sort_keys=True, separators=(",", ":"))


def positions(every: int = 1) -> Iterator[VikingdomsState]:
    """Every `every`-th position of a dozen seeded random games, each under rule options drawn at random."""
    ply = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_initial_state(2, {o.name: rng.choice(o.choices) for o in GAME.options})
        while True:
            if ply % every == 0:
                yield state.clone()
            ply += 1
            if state.is_terminal():
                break
            seat = state.current_player()
            state.apply(sample_chance(state, rng) if seat == CHANCE else rng.choice(state.legal_actions()))


def test_the_board_is_well_formed_xml_for_every_viewer_at_every_position_of_random_games() -> None:
    count = 0
    for state in positions():
        for seat in (0, 1, None):
            root = drawn(state, seat)  # raises ParseError if not well-formed
            assert root.tag == f"{SVG}svg"
            count += 1
    assert count > 1000


def test_player_names_are_shown_as_text_never_as_markup() -> None:
    state = board({"a1": "RB"})
    root = drawn(state, None)
    words = "\n".join(texts(root))
    assert SHOWN[0] in words and SHOWN[1] in words
    assert not [node for node in root.iter() if node.tag in (f"{SVG}script", "script")]


def test_every_position_shows_each_players_coins_and_who_decides() -> None:
    for state in positions():
        root = drawn(state, None)
        coins = {int(g.attrib["data-seat"]): g for g in root.iter(f"{SVG}g") if g.get("class") == "territory"}
        for seat in (R, B):
            shown = [n.text for n in coins[seat].iter(f"{SVG}text") if n.get("data-role") == "coins"]
            assert shown == [f"{state.coins(seat)} / 16 coins"]
        status = [n.text or "" for n in root.iter(f"{SVG}text") if n.get("data-role") == "status"]
        assert len(status) == 1
        seat = state.current_player()
        if seat >= 0:
            assert status[0].startswith(SHOWN[seat]), status
            panel = "".join(coins[seat].itertext())
            assert "to move" in panel and "to move" not in "".join(coins[1 - seat].itertext())
        elif state.is_terminal():
            assert status[0].startswith(f"Game over: {SHOWN[state.winner]}") and "wins" in status[0]


def test_tiles_still_face_down_are_never_named_while_the_tiles_are_drawn() -> None:
    """Set-up (3): the tiles are shuffled; which tile lies where is hidden until it is drawn. The observation
    tells only how many are still face down, and the board shows only that."""
    state = GAME.new_initial_state(2)
    order = ("V1", "P2", "Mk", "F1", "V3")
    for name in order:
        state.apply(A.DEAL + tile(name))
    hidden = set(NAMES) - set(order)
    for seat in (R, B, None):
        root = drawn(state, seat)
        words = set(" ".join(texts(root)).replace(":", " ").replace(",", " ").split())
        attributes = " ".join(v for node in root.iter() for k, v in node.attrib.items() if k.startswith("data-"))
        assert words & set(NAMES) == set(order)
        assert not [name for name in hidden if name in attributes]
        backs = [g for g in root.iter(f"{SVG}g") if g.get("class") == "face-down"]
        assert len(backs) == len(hidden)
        assert any("7 still face down" in text for text in texts(root))


def test_the_board_is_drawn_from_the_viewers_observation_alone() -> None:
    for state in positions(every=3):
        for seat in (R, B, None):
            observation = state.observation(-1 if seat is None else seat)
            assert GAME.render_svg(state, seat, PLAYERS) == render_svg(observation, state.tiles, PLAYERS)


def test_every_legal_action_at_a_decision_can_be_clicked_on_the_deciders_board() -> None:
    decisions = 0
    for state in positions():
        seat = state.current_player()
        if seat < 0:
            continue
        decisions += 1
        on_board = clickable(drawn(state, seat))
        assert {key(state, action) for action in state.legal_actions()} <= set(on_board)
        for text in on_board:
            # Each names a decision of this phase; those not legal now get the rule that forbids them.
            action = state.action_from_json(json.loads(text))
            assert A.kind(action) in PHASE_KINDS[state.phase]
            assert action in state.legal_actions() or state.illegal_reason(action) is not None
    assert decisions > 500


def test_only_the_deciding_seat_gets_choices_on_its_board() -> None:
    for state in positions():
        seat = state.current_player()
        others = (R, B, None) if seat < 0 else (1 - seat, None)
        for viewer in others:
            root = drawn(state, viewer)
            assert clickable(root) == []
            assert not [node for node in root.iter() if "tabindex" in node.attrib]


def test_a_stack_is_moved_by_clicking_the_lowest_viking_to_move_then_a_lit_stack() -> None:
    """Recruitment: 'move a troop or the top part of a troop'; a stack of 2 moves like a rook, a single
    Viking like a pawn (research §3.1)."""
    state = board({"a1": "RB", "d1": "B", "a2": "R"}, to_move=R)
    found = picks(drawn(state, R))
    assert set(found) == {("a1", 1), ("a1", 2), ("d1", 1), ("a2", 1)}
    # The rook's lines from a1 end at the first stack: a2 up, d1 along rank 1.
    assert found["a1", 2] == [
        {"type": "move", "from": "a1", "to": "d1", "count": 2},
        {"type": "move", "from": "a1", "to": "a2", "count": 2},
    ]
    assert found["a1", 1] == [dict(m, count=1) for m in found["a1", 2]]
    assert found["d1", 1] == []  # a pawn reaches only an adjacent stack
    assert found["a2", 1] == [{"type": "move", "from": "a2", "to": "a1", "count": 1}]
    # Every move on the board lies inside the pick of the Viking it starts from, so it shows once that is clicked.
    moves = actions_of(drawn(state, R), "move")
    assert len(moves) == sum(len(shown) for shown in found.values())


def test_gunnar_swaps_islands_by_clicking_one_island_then_the_other() -> None:
    """GUNNAR: 'You may immediately exchange two territory tile pairs'; islands already raided stay put."""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    play(state, "take V2", "ally Gunnar")
    assert state.phase == S.GUNNAR_SWAP
    root = drawn(state, R)
    islands = {
        int(node.attrib["data-island"]): [json.loads(t)["islands"] for t in clickable(node)]
        for node in root.iter(f"{SVG}g")
        if node.get("class") == "pick"
    }
    assert set(islands) == {2, 3, 4, 5}
    assert islands[2] == [[2, 3], [2, 4], [2, 5]]
    assert {"type": "no_swap"} in [json.loads(t) for t in clickable(root)]


def test_when_both_passed_the_player_to_move_clicks_one_of_the_tallest_stacks() -> None:
    """Rule option both_pass=tallest_troop: on equal tallest stacks, the player to move picks the troop."""
    state = board({"a1": "RR", "d4": "BR", "c2": "B"}, to_move=R)
    state.camp = [0, 0]
    play(state, "pass", "pass")
    assert state.phase == S.CHOOSING_TROOP
    # Every stack is offered; the state tells the table which are legal (the tallest) and why c2 is not.
    assert [t["square"] for t in actions_of(drawn(state, R), "troop")] == ["a1", "c2", "d4"]
    assert [state.action_to_json(a)["square"] for a in state.legal_actions()] == ["a1", "d4"]
    assert state.illegal_reason(state.action_from_notation("troop c2")) is not None


def test_in_a_riot_the_opponent_clicks_a_tile_of_the_rioters_territory() -> None:
    """'His opponent takes a territory tile of his choice' (the riot)."""
    state = at_raid(("V4", "Fm"), ("V1", "F2"), ("P3", "P2"), "BBBRRR")
    play(state, "take P3")
    assert state.phase == S.RIOTING and state.current_player() == B
    riots = actions_of(drawn(state, B), "riot")
    assert [r["tile"] for r in riots] == ["V4", "Fm", "P3"]
    assert actions_of(drawn(state, R), "riot") == []


def test_the_raid_shows_the_troop_its_leader_the_tiles_taken_and_the_ally_owed() -> None:
    """'Place the raiding troop on the raid marker… The first to take a tile is the player whose Viking leads';
    'When a player collects his second village… he will also take an ally tile.'"""
    state = at_raid(("V1",), ("Wk",), ("V2", "Mk"), "BBBRRR")
    words = "\n".join(texts(drawn(state, None)))
    assert "Raiding troop of 6 Vikings, bottom to top:" in words and f"{SHOWN[R]} (Red) leads" in words
    play(state, "take V2")
    assert state.phase == S.CHOOSING_ALLY
    words = "\n".join(texts(drawn(state, None)))
    assert f"Taken: {SHOWN[R]} (Red) V2, {SHOWN[B]} (Blue) Mk" in words
    assert "V2: village, 1 coin, 2 prisoners (taken in this raid)" in words
    assert f"Ally owed: {SHOWN[R]} (Red), for the second village." in words


def test_the_same_position_always_draws_the_same_board() -> None:
    for state in positions(every=37):
        replayed = Record.of(state).replay()
        for seat in (R, B, None):
            first = GAME.render_svg(state, seat, PLAYERS)
            assert GAME.render_svg(state.clone(), seat, PLAYERS) == first
            assert GAME.render_svg(replayed, seat, PLAYERS) == first


#: Font sizes of the drawing's text classes, for estimated text boxes (DejaVu Sans averages 0.62 em a glyph).
FONT = {"tiny": 9, "small": 11, "num": 11, "name": 17, "big": 22, "heading": 14}


def _box(element: ET.Element) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a rect, a circle or (estimated) a text."""
    a = element.attrib
    if element.tag == SVG + "rect":
        x, y = float(a["x"]), float(a["y"])
        return x, y, x + float(a["width"]), y + float(a["height"])
    if element.tag == SVG + "circle":
        cx, cy, r = float(a["cx"]), float(a["cy"]), float(a["r"])
        return cx - r, cy - r, cx + r, cy + r
    classes = a.get("class", "small").split()
    size = next((FONT[c] for c in classes if c in FONT), 11)
    width = len(element.text or "") * size * 0.62
    x, y = float(a["x"]), float(a["y"])
    left = x - width / 2 if "mid" in classes or "num" in classes else x - width if "end" in classes else x
    return left, y - size, left + width, y + size * 0.25


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_new_badge_lies_clear_of_every_tile_and_text_and_inside_its_territory() -> None:
    """The badge on a tile taken in this raid overlapped the tile's name; now no bounding box meets it."""
    state = at_raid(("V4", "Fm", "F1"), ("V1", "F2", "Wk"), ("P3", "V2"), "BBBRRR")
    play(state, "take P3")  # Red takes the rioter port; both taken tiles carry the badge while the riot is open
    root = drawn(state, R)
    territories = [g for g in root.iter(SVG + "g") if g.get("class") == "territory"]
    badges = 0
    for territory in territories:
        panel = _box(next(territory.iter(SVG + "rect")))
        for badge in (e for e in territory.iter(SVG + "rect") if e.get("class") == "badge"):
            badges += 1
            box = _box(badge)
            assert panel[0] <= box[0] and box[2] <= panel[2] and panel[1] <= box[1] and box[3] <= panel[3]
            for other in territory.iter():
                if other is badge or other.tag not in (SVG + "rect", SVG + "circle", SVG + "text"):
                    continue
                if other.tag == SVG + "text" and other.text == "new":
                    continue
                if (other.tag == SVG + "rect" and _box(other) == panel) or other.get("width") == "10":
                    continue  # the panel itself and its colour stripe
                assert not _overlap(box, _box(other)), (ET.tostring(other), box)
    assert badges == 2
