"""The Vikingatid map as SVG (svg.py): the known world drawn from one viewer's observation.

What it must show: "land, sea, kingdom, empire and undiscovered areas; rivers; trade values, shields and danger; each
player's fleets and camps …; markers (trade stop, plundered, conquered, war, heritage, small kingdom, separatists,
empire expansions); the year on the turn track; the fleet in motion and its route and danger count; the viewer's
own hand, face up, and every other hand as a count." Item 2: "start a fleet, then click areas to move it" — every
legal action naming an area is a `data-action` target for the seat to move, and for nobody else. Positions come
from random play from the start (vikingatid_kit) or are prepared with the `Position`'s own methods.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from importlib.resources import files

import pytest
from vikingatid_kit import BOARD, GAME, at_phase, position_for

from skald.engine import CHANCE
from skald.games.vikingatid import svg
from skald.games.vikingatid.actions import CARD_IDS, CARD_KINDS
from skald.games.vikingatid.state import VikingatidState
from skald.games.vikingatid.svg import AREA_ACTIONS, LayoutError, load_layout, parse_layout, render_svg

NAMES = ["Ann", "Bo", "Cy", "Dag"]
SVG_NS = "{http://www.w3.org/2000/svg}"
ACTION = re.compile(r'data-action="([^"]*)"')


def key(data: dict[str, object]) -> str:
    """An action's JSON in the web table's canonical key text, as it stands in an attribute."""
    return json.dumps(data, sort_keys=True, separators=(",", ":")).replace('"', "&quot;")


def targets(text: str) -> set[str]:
    """Every `data-action` of a drawing."""
    return set(ACTION.findall(text))


def random_game(seed: int, players: int = 4) -> list[VikingatidState]:
    """Every decision point of a random game from the start (chance by its odds)."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(players)
    found = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance_outcome(rng))
            continue
        found.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    found.append(state)
    return found


@pytest.fixture(scope="module")
def positions() -> list[VikingatidState]:
    """Decision points of three random 4-player games."""
    return [s for seed in range(3) for s in random_game(seed)]


def busy() -> VikingatidState:
    """Four seats in phase 6 of turn 5 with every marker on the map, camps, standing ships and a fleet under way."""
    position = position_for(4, ("denmark", "norway", "sweden", "denmark"), first_seat=1)
    position.turn = 5
    position.build_camps(0, "trading", "mercien", 2)
    position.build_camps(0, "war", "mercien", 2)
    position.build_camps(3, "trading", "gotland", 2)
    position.build_camps(1, "war", "irland", 1)
    position.build_camps(2, "war", "frisland", 1)
    position.build_camps(1, "war", "valland", 1)
    position.trade_stop[position.slot("gotland")] = True
    position.plundered[position.slot("irland")] = True
    position.discovered_by[position.slot("island")] = 2
    position.discovered_turn[position.slot("island")] = 4
    position.fief[position.slot("frisland")], position.fief_kind[position.slot("frisland")] = 2, "heritage"
    position.fief[position.slot("valland")], position.fief_kind[position.slot("valland")] = 1, "small_kingdom"
    position.separatists[position.slot("wales")] = True
    position.expanded[position.slot("asturien")] = True
    position.empire_of[position.slot("asturien")] = "w_caliphate"
    position.place_ships(0, "war", "danavalde", 6)
    position.place_ships(2, "trading", "svea_rike", 3)
    position.launch(0, "war", "danavalde", 4)
    position.king[0] = 0
    position.war[:] = ["war", "", "peace?"]
    return at_phase(position, 6)


# -- the map ------------------------------------------------------------------------------------------------------


def test_every_area_of_the_board_is_drawn_once_with_its_id_and_its_name_as_its_label() -> None:
    """'The map … land, sea, kingdom, empire and undiscovered areas': each of the 79 areas once, named by its id, and
    its name once in the labels' layer over the map (drawn after the areas, the pieces and the fleets), a
    `data-label` that names the area, at the top of the area's box; Viking kingdoms ranked first."""
    drawn = render_svg(busy(), 0, NAMES)
    counts = Counter(re.findall(r'<g class="area [^"]*" data-area="([a-z_]+)"', drawn))
    assert set(counts) == {area.id for area in BOARD.areas}
    assert set(counts.values()) == {1}
    root = ET.fromstring(drawn)
    layers = [g for g in root if g.get("class") in ("areas", "pieces", "fleets", "labels")]
    assert [g.get("class") for g in layers] == ["areas", "pieces", "fleets", "labels"]
    labels = {t.get("data-names"): t for t in layers[-1].iter(f"{SVG_NS}text")}
    assert sorted(labels) == sorted(area.id for area in BOARD.areas)
    places = load_layout(BOARD).places
    for area_id, text in labels.items():
        area, place = BOARD.area(area_id), places[area_id]
        assert text.text in (area.name, f"{area.name} ?"), area_id
        assert text.get("data-label") == ("1" if area.kind == "viking_kingdom" else "0"), area_id
        assert place.x - place.w / 2 < float(text.get("x", "")) < place.x + place.w / 2, area_id
        assert place.y - place.h / 2 < float(text.get("y", "")) < place.y, area_id


def test_each_area_lists_the_seats_with_pieces_there_the_same_for_every_viewer() -> None:
    """The areas' `data-seats` (camps, standing ships, fleets): what the table shows every viewer, so the same
    bytes for a spectator and for each seat."""
    state = busy()
    seen = {}
    for viewer in (None, 0, 1, 2):
        root = ET.fromstring(render_svg(state, viewer, NAMES))
        seen[viewer] = {g.get("data-area"): g.get("data-seats") for g in root.iter(f"{SVG_NS}g") if g.get("data-area")}
    assert seen[None] == seen[0] == seen[1] == seen[2]
    table = state.observation(None)["table"]
    expected: dict[str, set[int]] = {}
    for seat, row in enumerate(table["seats"]):
        for area_id in (*row["ships"], *row["camps"]):
            expected.setdefault(area_id, set()).add(seat)
    for fleet in table["fleets"]:
        expected.setdefault(fleet["area"], set()).add(int(fleet["owner"]))
    assert expected
    drawn = {area: {int(s) for s in seats.split()} for area, seats in seen[None].items() if seats}
    assert drawn == expected


def test_area_kinds_are_told_by_class_and_pattern_not_colour_alone() -> None:
    """Kingdoms, empire cores, provinces, free land, seas and undiscovered lands each carry their own class and
    pattern (crown, cross-hatch, hatch, none, waves, dots)."""
    root = ET.fromstring(render_svg(busy(), None))
    kinds = {}
    for group in root.iter(f"{SVG_NS}g"):
        area = group.get("data-area")
        if area:
            patterns = [r.get("fill") for r in group.findall(f"{SVG_NS}rect") if "url(" in (r.get("fill") or "")]
            kinds[area] = (group.get("class", ""), patterns)
    assert "kingdom" in kinds["norge"][0] and "url(#va-crown)" in kinds["norge"][1]
    assert "core" in kinds["wessex"][0] and "url(#va-cross)" in kinds["wessex"][1]
    assert "province" in kinds["mercien"][0] and "url(#va-hatch)" in kinds["mercien"][1]
    assert "free" in kinds["skottland"][0] and kinds["skottland"][1] == []
    assert "sea" in kinds["nordsjon"][0] and "url(#va-wave)" in kinds["nordsjon"][1]
    assert "unknown" in kinds["vinland"][0] and "url(#va-dots)" in kinds["vinland"][1]
    # Discovered by seat 3: Iceland is known land now.
    assert "unknown" not in kinds["island"][0]


def test_rivers_and_sea_links_are_drawn() -> None:
    """'Rivers': one line per river link and per sea link (each pair once)."""
    drawn = render_svg(busy(), None)
    rivers = {tuple(sorted((a.id, o))) for a in BOARD.areas for o in a.river_links}
    seas = {tuple(sorted((a.id, o))) for a in BOARD.areas for o in a.sea_links}
    assert drawn.count('class="river"/>') == len(rivers) + 1  # and one in the legend
    assert drawn.count('class="sealink"/>') == len(seas) + 1


def test_camps_ships_and_fleets_show_seat_number_and_type_letter() -> None:
    """'Each player's fleets and camps in six distinct, colour-blind-safe colours with letters … as well'."""
    drawn = render_svg(busy(), 1, NAMES)
    assert "Ann (seat 1) in Mercien: 2 trading camps, 2 war camps" in drawn
    assert ">T2<" in drawn and ">W2<" in drawn
    assert "Cy (seat 3) in Svea Rike: 3 trading ships" in drawn
    assert "Ann (seat 1)&#x27;s war fleet of 4 ships in Danavalde" in drawn
    assert ">1·W4<" in drawn


def test_markers_appear_when_set() -> None:
    """Trade stop, plundered, conquered, War and Peace?, heritage, small kingdom, separatists, expansion,
    discovered, king: each a badge on its area, with words as its tooltip."""
    drawn = render_svg(busy(), None)
    root = ET.fromstring(drawn)
    marks = {
        (g.get("data-marker"), g.findtext(f"{SVG_NS}title")) for g in root.iter(f"{SVG_NS}g") if g.get("data-marker")
    }
    kinds = {kind for kind, _ in marks}
    assert {"trade_stop", "plundered", "conquered", "war", "peace_pending", "heritage", "small_kingdom",
            "separatists", "expanded", "discovered", "king", "treasury"} <= kinds  # fmt: skip
    words = " | ".join(title or "" for _, title in marks)
    assert "Trade stop in Gotland" in words or "Trade stop in Gutland" in words
    assert "conquered by seat 1" in words  # Mercien: 2 coins, 2 shields, seat 1's camps only
    assert "seat 3's heritage" in words and "seat 2's small kingdom" in words
    fresh = render_svg(at_phase(position_for(4, ("denmark", "norway", "sweden", "denmark")), 5), None)
    root = ET.fromstring(fresh)
    assert {g.get("data-marker") for g in root.iter(f"{SVG_NS}g")} <= {None, "treasury"}


def test_the_year_is_marked_on_the_turn_track() -> None:
    """'The year on the turn track': the current box is the year of the turn (VA-03)."""
    state = busy()
    drawn = render_svg(state, None)
    assert f"Year {state.position.year}" in drawn
    assert f"Turn 5: {state.position.year}" in drawn


def test_the_fleet_in_motion_shows_its_route_and_danger_count(positions: list[VikingatidState]) -> None:
    """'The fleet in motion and its route and danger count': the route line numbers each area entered."""
    moving = next(
        s for s in positions if s.observation(None)["journey"]["fleet"] == 0
        and len(s.observation(None)["journey"]["cards"]["route"]) >= 2
    )  # fmt: skip
    fleet = moving.position.fleets[0]
    drawn = render_svg(moving, None)
    assert 'class="route"' in drawn
    assert f"danger {fleet.danger} counted since its last break" in drawn
    assert "(in motion)" in drawn


# -- hands --------------------------------------------------------------------------------------------------------


def with_hand(state: VikingatidState) -> tuple[int, VikingatidState]:
    """A seat holding cards and the state."""
    for seat in range(state.num_players):
        if state.deck.hand_size(seat):
            return seat, state
    raise AssertionError("no seat holds a card")


def test_the_viewer_sees_its_own_hand_face_up(positions: list[VikingatidState]) -> None:
    """'The viewer's own hand, face up': each card's title is in its own drawing."""
    state = positions[len(positions) // 3]
    seat, state = with_hand(state)
    drawn = render_svg(state, seat, NAMES)
    for kind, n in enumerate(state.deck.hands[seat]):
        if n:
            assert state.space.card_titles[kind] in drawn.replace("&#x27;", "'")


def other_world(state: VikingatidState, seat: int) -> VikingatidState:
    """The same table with one card of `seat`'s hand swapped for another kind from the deck."""
    world = state.clone()
    hand, deck = world.deck.hands[seat], world.deck.deck
    held = next(k for k in range(CARD_KINDS) if hand[k])
    swap = next(k for k in range(CARD_KINDS) if k != held and deck[k] and not hand[k])
    hand[held] -= 1
    deck[held] += 1
    hand[swap] += 1
    deck[swap] -= 1
    return world


def test_another_seats_hand_changes_no_byte_of_the_drawing(positions: list[VikingatidState]) -> None:
    """'Every other hand as a count': two worlds differing only in seat s's hand give every other viewer and a
    spectator byte-identical drawings, and s's own drawing differs."""
    checked = 0
    for state in positions[::97]:
        for seat in range(state.num_players):
            if not state.deck.hand_size(seat):
                continue
            world = other_world(state, seat)
            for viewer in [None, *range(state.num_players)]:
                same = render_svg(state, viewer, NAMES) == render_svg(world, viewer, NAMES)
                assert same is (viewer != seat), (viewer, seat)
            checked += 1
    assert checked >= 10


def test_no_other_hands_card_title_is_drawn(positions: list[VikingatidState]) -> None:
    """A spectator's drawing names no card that is only in a hand."""
    state = positions[len(positions) // 2]
    drawn = render_svg(state, None)
    public = set(state.observation(None)["cards"]["pile"])
    for kind, card_id in enumerate(CARD_IDS):
        held = any(hand[kind] for hand in state.deck.hands)
        if held and card_id not in public:
            assert f">{state.space.card_titles[kind]}" not in drawn


# -- clicking -----------------------------------------------------------------------------------------------------


def test_every_legal_area_action_is_a_target_for_the_seat_to_move_only(positions: list[VikingatidState]) -> None:
    """'Start a fleet, then click areas to move it': every legal action naming an area (fleet,
    move, buy, pull down, emigrate, a card's target area) is a `data-action` in the mover's drawing; the other
    seats and a spectator get no target at all."""
    seen: Counter[str] = Counter()
    for state in positions:
        mover = state.current_player()
        if mover < 0:
            continue
        legal = [state.action_to_json(a) for a in state.legal_actions()]
        named = [d for d in legal if d["type"] in AREA_ACTIONS]
        if not named or seen[named[0]["type"]] >= 12:
            continue
        drawn = render_svg(state, mover, NAMES)
        found = targets(drawn)
        for data in named:
            assert key(data) in found, data
            seen[str(data["type"])] += 1
        keys = {key(d) for d in legal}
        # Every target is legal but while a fleet sails: then each area it could sail to is one (why not, on hover).
        for extra in found - keys:
            assert json.loads(extra.replace("&quot;", '"'))["type"] == "move"
        for viewer in [None, *(s for s in range(state.num_players) if s != mover)]:
            assert targets(render_svg(state, viewer, NAMES)) == set()
    assert {"fleet", "move", "buy", "target_area"} <= set(seen)


def test_the_prompt_says_how_to_click_where_the_map_holds_the_choice(positions: list[VikingatidState]) -> None:
    """The web table shows `click_hint` beside the prompt: a step whose choices are targets on the map says so (a
    card's target only when it is an area); a step chosen from the list alone has no hint."""
    hinted = unhinted = 0
    for state in positions:
        mover = state.current_player()
        if mover < 0:
            continue
        hint = GAME.presentation.click_hint(state)
        on_map = targets(render_svg(state, mover, NAMES))
        if hint is None:
            unhinted += 1
            continue
        hinted += 1
        assert "click" in hint and on_map, (state.step, hint)
    assert hinted and unhinted


# -- the layout file ----------------------------------------------------------------------------------------------

LAYOUT = load_layout(BOARD)


def layout_text(drop: str = "", add: str = "", change: tuple[str, str] | None = None) -> str:
    """The package's layout as TOML text, with an area left out, one added, or one line replaced."""
    lines = ["schema_version = 1", f"width = {LAYOUT.width:g}", f"height = {LAYOUT.height:g}", "", "[areas]"]
    for area_id, p in LAYOUT.places.items():
        if area_id == drop:
            continue
        line = f'{area_id} = {{ x = {p.x:g}, y = {p.y:g}, w = {p.w:g}, h = {p.h:g}, shape = "{p.shape}" }}'
        if change is not None and area_id == change[0]:
            line = change[1]
        lines.append(line)
    if add:
        lines.append(add)
    return "\n".join(lines) + "\n"


def test_the_package_layout_places_every_area_inside_the_map() -> None:
    """Every area of the board has a place; none lies outside the map; the file is provisional."""
    assert set(LAYOUT.places) == {area.id for area in BOARD.areas}
    for p in LAYOUT.places.values():
        assert p.w / 2 <= p.x <= LAYOUT.width - p.w / 2 and p.h / 2 <= p.y <= LAYOUT.height - p.h / 2
    text = files("skald.games.vikingatid").joinpath("data", svg.LAYOUT_FILE).read_text(encoding="utf-8")
    assert 'provenance = "provisional"' in text


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (layout_text(drop="gotland"), "'gotland'"),
        (layout_text(add='atlantis = { x = 5, y = 5, w = 10, h = 10, shape = "land" }'), "'atlantis'"),
        (layout_text(change=("wales", 'wales = { x = 5, y = 5, w = 10, shape = "land" }')), "'wales'.h: missing"),
        (layout_text(change=("wales", 'wales = { x = 5, y = 5, w = 10, h = 8, shape = "hex" }')), "'wales'.shape"),
        (layout_text(change=("wales", 'wales = { x = "a", y = 5, w = 10, h = 8, shape = "land" }')), "'wales'.x"),
        (layout_text(change=("wales", 'wales = { x = 9999, y = 5, w = 10, h = 8, shape = "land" }')), "'wales'"),
        (layout_text(change=("wales", 'wales = { x = 5, y = 5, w = 10, h = 8, shape = "land", z = 1 }')), "'wales'.z"),
        (layout_text(change=("wales", "wales = { x = 5, y = 5, w = 10,, }")), "'wales'"),
    ],
    ids=["missing", "unknown", "no-h", "shape", "x-not-number", "outside", "extra-field", "bad-toml"],
)
def test_a_broken_layout_names_the_area_at_fault(text: str, names: str) -> None:
    """The layout is data a person may replace: a broken file is refused with the area at fault named."""
    with pytest.raises(LayoutError) as raised:
        parse_layout(text, BOARD, "broken.toml")
    assert names in str(raised.value)
    assert str(raised.value).startswith("broken.toml: ")


def test_the_packages_layout_text_round_trips() -> None:
    """The helper above writes a layout the loader takes (so the broken cases differ from it only where meant)."""
    again = parse_layout(layout_text(), BOARD)
    assert again.places == LAYOUT.places


# -- form ---------------------------------------------------------------------------------------------------------


def test_every_drawing_is_valid_xml_with_a_viewbox(positions: list[VikingatidState]) -> None:
    """Front ends parse the SVG: every drawing of random positions, for every viewer, is well-formed, scalable
    (a viewBox), and titled for screen readers."""
    for state in positions[::151]:
        for viewer in [None, *range(state.num_players)]:
            root = ET.fromstring(render_svg(state, viewer, ['<Ann & "Bo">', "Bo", "Cy", "Dag"]))
            assert root.tag == f"{SVG_NS}svg"
            assert root.get("viewBox", "").startswith("0 0 ")
            assert root.get("aria-label")


def test_drawing_is_deterministic(positions: list[VikingatidState]) -> None:
    """The same position drawn twice gives the same bytes (the conformance check compares drawings)."""
    state = positions[len(positions) // 2]
    assert render_svg(state, 1, NAMES) == render_svg(state.clone(), 1, NAMES)


def test_a_fight_under_way_is_marked_on_its_area(positions: list[VikingatidState]) -> None:
    """6.4: while a war fleet fights, its area carries a FIGHT badge saying the armies and their strength."""
    fighting = next(s for s in positions if s.observation(None)["journey"]["fight"])
    fight = fighting.observation(None)["journey"]["fight"]
    root = ET.fromstring(render_svg(fighting, None))
    areas = [g for g in root.iter(f"{SVG_NS}g") if g.get("data-area") == fight["area"]]
    badges = [b for b in areas[0].iter(f"{SVG_NS}g") if b.get("data-marker") == "fight"]
    assert len(badges) == 1
    assert f"{fight['armies']} armies of strength {fight['strength']}" in (badges[0].findtext(f"{SVG_NS}title") or "")


def test_cards_shown_this_turn_are_listed(positions: list[VikingatidState]) -> None:
    """Cards played are shown to the table: their titles are listed for every viewer, the spectator too."""
    state = next(s for s in positions if s.observation(None)["cards"]["shown"])
    event = state.observation(None)["cards"]["shown"][0]
    title = state.space.card_titles[CARD_IDS.index(event["card"])]
    assert "Cards this turn: " + title in render_svg(state, None).replace("&#x27;", "'")


def test_the_maps_pieces_make_the_whole_map_and_a_move_changes_few_of_them(positions: list[VikingatidState]) -> None:
    """`render_svg_parts` is `render_svg` cut where it changes (an area each, the status line, each player): joined
    they are the map byte for byte, their number never changes, and most moves change a handful of them (the web
    table sends a client only those)."""
    before: list[str] | None = None
    changed: list[int] = []
    for state in positions[::7]:
        for viewer in (None, 0):
            assert "".join(svg.render_svg_parts(state, viewer)) == render_svg(state, viewer)
        parts = svg.render_svg_parts(state, 0)
        # each area and its pieces outside it, and 18 more: the opening, the ground, three group tags, the fleets,
        # the areas' names, the peace line, the track, the status line, the players' frame, the 4 seats, the cards
        # line, the legend, the end
        assert len(parts) == 2 * len(BOARD.areas) + 18
        if before is not None and len(before) == len(parts):
            changed.append(sum(a != b for a, b in zip(parts, before, strict=True)))
        before = parts
    changed.sort()
    assert changed[len(changed) // 2] <= 12, changed


def test_the_last_move_names_the_area_a_fleet_moved_to_or_started_from_and_the_map_carries_it() -> None:
    """A fleet started, moved, ships bought or a card's target: the move names its area (`area:ID`), which the
    drawn map of every viewer carries (the web rings it); a move without an area names nothing."""
    from skald.engine import sample_chance

    state = GAME.new_initial_state(3)
    rng = random.Random(5)
    named: Counter[str] = Counter()
    while not state.is_terminal() and sum(named.values()) < 120:
        player = state.current_player()
        action = sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions())
        data = state.action_to_json(action)
        state.apply(action)
        if player == CHANCE:
            continue
        marks = GAME.presentation.last_move(state, player, action, None)
        if "area" in data:
            assert marks == [f"area:{data['area']}"]
        elif data["type"] != "build":
            assert marks == []
        drawn = GAME.render_svg(state, None)
        assert all(f'data-at="{mark}"' in drawn for mark in marks)
        named[data["type"]] += len(marks)
    assert named["move"] and named["fleet"], named
