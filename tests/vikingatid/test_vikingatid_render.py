"""The Vikingatid text table (render.py): everything a person plays from, in 100 columns, and in 80 compact.

What it must show: "A text rendering of the whole table (areas with fleets, camps and markers; players' silver, VP,
kingdom; treasuries, kings, wars; the fleet in motion and its danger count) that a person can play from in the
terminal with the generic table". Positions are prepared with the `Position`'s own methods (vikingatid_kit) or reached
by random play from the start.
"""

from __future__ import annotations

import random

from rich.text import Text
from vikingatid_kit import GAME, at_phase, fixed_state, position_for

from skald.games.vikingatid import steps as S
from skald.games.vikingatid import victory_points
from skald.games.vikingatid.position import Position
from skald.games.vikingatid.render import (
    COMPACT_WIDTH,
    FULL_WIDTH,
    SEAT_COLOURS,
    conquered_by,
    render_compact,
    render_text,
    scoring_lines,
)
from skald.games.vikingatid.state import VikingatidState

NAMES = ["Ann", "Bo", "Cy", "Dag"]


def busy_position() -> Position:
    """Four seats in turn 5 with every kind of thing on the map: camps of two seats in one area, a conquered area,
    a trade stop, a plundered area, a discovered land, ships standing at home and abroad, a fleet under way, kings,
    treasuries, War and Peace? markers, a King's Peace, an emigrant and a Christian."""
    position = position_for(4, ("denmark", "norway", "sweden", "denmark"), first_seat=1)
    position.turn = 5
    position.phase = 6
    position.silver[:] = [12, 3, 0, 40]
    position.vp[:] = [7, 0, 12, 3]
    position.christian[2] = True
    position.build_camps(0, "trading", "mercien", 2)
    position.build_camps(0, "war", "mercien", 2)
    position.build_camps(3, "trading", "gotland", 2)
    position.build_camps(0, "trading", "gotland", 1)
    position.build_camps(1, "war", "irland", 1)
    position.trade_stop[position.slot("gotland")] = True
    position.plundered[position.slot("irland")] = True
    position.discovered_by[position.slot("island")] = 2
    position.discovered_turn[position.slot("island")] = 4
    position.place_ships(0, "war", "danavalde", 6)
    position.place_ships(2, "trading", "svea_rike", 3)
    position.place_ships(0, "war", "mercien", 2)
    position.launch(0, "war", "danavalde", 4)
    position.fleets[0] = position.fleets[0]._replace(area="nordsjon", danger=4, moves=2, entered_from="skagerrak")
    position.king[0], position.king[2] = 0, 2
    position.treasury[:] = [5, 0, 9]
    position.war[:] = ["war", "war", "peace?"]
    position.kings_peace[1] = True
    position.emigrated[1] = True
    position.home[1] = "irland"
    return position


def on(position: Position) -> VikingatidState:
    """A state showing `position` (a fixture: only the table is replaced; the step stays where the start left it)."""
    state = fixed_state(position.num_players).clone()
    state.position = position
    return state


def random_positions(seeds: range, limit: int = 300, every: int = 7) -> list[VikingatidState]:
    """Positions of random games from the start, every `every` actions (and the last), 2 to 6 players."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_initial_state(2 + seed % 5)
        for count in range(limit):
            if state.is_terminal():
                break
            if count % every == 0:
                found.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return found


def widest(text: str) -> int:
    """The widest printed line of Rich markup."""
    return max(Text.from_markup(line).cell_len for line in text.split("\n"))


def test_the_table_shows_turn_year_phase_and_who_acts() -> None:
    """The turn track (VA-03: 775 + 25 × turn) and the phase of the "Summary of the game turns"."""
    text = render_text(on(busy_position()))
    assert "turn 5, year 900" in text
    assert "phase" in text and "first seat seat 2" in text


def test_each_seat_shows_kingdom_or_home_silver_vp_and_faith() -> None:
    """Players' silver, VP, kingdom; an emigrant's home country (rule text, emigration); faith
    (10. Christianisation)."""
    lines = render_text(on(busy_position())).split("\n")
    seat1 = next(line for line in lines if line.startswith(" seat 1 "))
    seat2 = next(line for line in lines if line.startswith(" seat 2 "))
    seat3 = next(line for line in lines if line.startswith(" seat 3 "))
    assert "Danavalde" in seat1 and " 12 " in seat1 and " 7 " in seat1 and "pagan" in seat1
    assert "king of Danavalde" in seat1
    assert "home Irland" in seat2
    assert "Christian" in seat3 and " 12 " in seat3


def test_a_homeless_emigrant_is_shown_as_homeless() -> None:
    """ "A player who loses his home country becomes homeless"."""
    position = busy_position()
    position.home[1] = ""
    assert "homeless" in render_text(on(position))


def test_each_kingdom_shows_king_treasury_marker_and_kings_peace() -> None:
    """Treasuries, kings and wars: the king counter, the Royal Treasury, War / Peace? markers (VA-40), King's Peace
    (VA-39)."""
    text = render_text(on(busy_position()))
    assert "Danavalde: king seat 1, treasury 5, War" in text
    assert "Norge: no king, treasury 0, War" in text
    assert "Svea Rike: king seat 3, treasury 9, Peace?" in text
    assert "Danavalde–Svea Rike King's Peace" in text


def test_areas_show_camps_against_their_caps_and_every_marker() -> None:
    """Camps per seat and type against the caps (6.3: trading camps at most the trade value; "Establish war camps":
    war camps at most the shields), trade stop, plundered, conquered (VA-60) and discovered ("Undiscovered land
    areas")."""
    text = render_text(on(busy_position()))
    assert "Gutland (3 coins, 1×2): 3/3 trading (seat 1 ×1, seat 4 ×2), trade stop" in text
    assert "Irland (3 coins, 3×2): 1/3 war (seat 2 ×1), plundered" in text
    assert "2/2 trading (seat 1 ×2), 2/2 war (seat 1 ×2), conquered by seat 1" in text
    assert "Island (2 coins, 0×2): discovered by seat 3 (turn 4)" in text


def test_areas_are_grouped_by_empire() -> None:
    """Provinces are listed under their empire (the board's colours), free lands apart."""
    lines = render_text(on(busy_position())).split("\n")
    mercien = next(line for line in lines if "Mercien" in line)
    assert mercien.lstrip().startswith("Bretland:")
    assert any(line.lstrip().startswith("Lands: Gutland") for line in lines)


def test_conquest_needs_every_camp_and_no_other_player() -> None:
    """ "An area is conquered if it contains one trading camp per trading value AND one war camp per shield
    symbol"; another player's camp prevents it."""
    position = busy_position()
    assert conquered_by(position, "mercien") == 0
    assert conquered_by(position, "gotland") == -1
    position.remove_camps(0, "war", "mercien", 1)
    assert conquered_by(position, "mercien") == -1
    assert "conquered by" not in render_text(on(position))


def test_ships_standing_are_listed_by_area() -> None:
    """Ships placed in phase 5 stand in their areas (5. Buying Ships) until a journey takes them."""
    text = render_text(on(busy_position()))
    assert "Danavalde: seat 1 2W" in text
    assert "Svea Rike: seat 3 3T" in text
    assert "Mercien: seat 1 2W" in text


def test_the_fleet_under_way_shows_owner_type_size_area_danger_and_moves() -> None:
    """The fleet in motion and its danger count (6.2, "Danger value"; VA-48, VA-50)."""
    text = render_text(on(busy_position()))
    assert "seat 1: war fleet of 4 in Nordsjön · danger 4 (a roll at 10) · 2 moves" in text
    assert "from Skagerack och Kattegatt" in text
    assert "s1: war fleet of 4 in Nordsjön · danger 4 · 2 moves" in render_compact(on(busy_position()))


def test_names_are_written_with_the_seat_number() -> None:
    """With names from the table, each seat still carries its number."""
    text = render_text(on(busy_position()), names=NAMES)
    assert "Ann (seat 1)" in text and "Dag (seat 4)" in text
    assert "king Ann (seat 1)" in text


def test_colour_only_paints_the_same_text() -> None:
    """Readable without colour: the Rich markup, rendered, reads exactly as the plain table."""
    state = on(busy_position())
    for render in (render_text, render_compact):
        assert Text.from_markup(render(state, color=True)).plain == render(state)


def test_each_seat_has_its_own_colour() -> None:
    """Six distinct seat colours, every one used with its seat's number."""
    assert len(set(SEAT_COLOURS)) == 6
    position = position_for(6, ("denmark", "norway", "sweden", "denmark", "norway", "sweden"))
    text = render_text(on(position), color=True)
    for seat, colour in enumerate(SEAT_COLOURS):
        assert f"[{colour}]seat {seat + 1}[/]" in text


def test_both_forms_fit_their_terminals() -> None:
    """render_text fits 100 columns and render_compact 80, with and without colour, with short and long names, on
    the prepared table and on random positions of 2 to 6 players."""
    states = [on(busy_position()), *random_positions(range(8), every=17)]
    for state in states:
        short = [NAMES[s % len(NAMES)] for s in range(state.num_players)]
        long = [f"Ragnhild Sigurdsdottir of Trondheim {s}" for s in range(state.num_players)]
        for names in (None, short, long):
            for color in (False, True):
                assert widest(render_text(state, color=color, names=names)) <= FULL_WIDTH
                assert widest(render_compact(state, color=color, names=names)) <= COMPACT_WIDTH


def test_the_compact_form_keeps_every_item() -> None:
    """The compact form says the same things in fewer columns: caps, markers, conquest, discovery, kings."""
    text = render_compact(on(busy_position()))
    for item in ("T3/3 s1 s4×2", "trade stop", "plundered", "conq. s1", "disc. s3", "king s1", "Peace?", "home Irland"):
        assert item in text


def test_phase_6_shows_initiative_and_the_journeys_events() -> None:
    """Initiative rolls and holder (6.1; VA-44) and what the journeys did, from the observation's journey."""
    for state in random_positions(range(20), limit=400):
        journey = state.observation(None).get("journey") or {}
        initiative = journey.get("initiative") or {}
        if initiative.get("holder", -1) >= 0 and journey.get("events"):
            text = render_text(state)
            holder = initiative["holder"]
            assert "Initiative: " in text and f"held by seat {holder + 1}" in text
            assert "This phase: " in text
            return
    raise AssertionError("no random game reached a journey with an initiative holder and events")


def test_a_fight_shows_the_armies_and_the_fleet() -> None:
    """6.4: a war fleet against the area's armies, their number and strength."""
    for seed in range(60):
        rng = random.Random(seed)
        state = GAME.new_initial_state(2 + seed % 5)
        for _ in range(400):
            if state.is_terminal():
                break
            fight = (state.observation(None).get("journey") or {}).get("fight")
            if isinstance(fight, dict) and fight.get("against") == "armies":
                area = state.board.area(fight["area"]).name
                assert f"Fight in {area}: fleet of {fight['fleet_size']} against" in render_text(state)
                return
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no random game reached a fight against armies")


def test_victory_points_lines_name_area_king_and_discovery() -> None:
    """9. Victory points: "players get victory points for their conquered areas corresponding to the areas' trade
    value ... two points per turn and kingdom for being king ... five victory points for discovering"; each line
    says who scored what for which (DESIGN: scoring explains itself)."""
    position = busy_position()
    position.discovered_turn[position.slot("island")] = position.turn
    lines = [line._asdict() for line in victory_points.phase_scores(position)]
    text = "\n".join(scoring_lines(position, lines))
    assert "seat 1 +2 conquest Mercien" in text
    assert "seat 1 +2 king Danavalde" in text and "seat 3 +2 king Svea Rike" in text
    assert "seat 3 +5 discovery Island" in text
    assert all(
        Text.from_markup(line).cell_len <= COMPACT_WIDTH for line in scoring_lines(position, lines, compact=True)
    )


def test_this_turns_reactions_stay_in_view_until_the_journeys() -> None:
    """2. Roll for empire reactions: Fred, Krig or Gäld per area with camps (VA-31); the results are listed through
    phases 2 to 5 and no longer once the fleets sail."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.build_camps(0, "trading", "mercien", 1)
    state = at_phase(position, S.REACTIONS)
    rng = random.Random(4)
    while state.position.phase == S.REACTIONS:
        state.apply(rng.choice(state.legal_actions()))
    results = state.observation(None)["reactions"]
    assert len(results) == 1
    result = results[0]
    assert f"Reactions this turn: Mercien seat 1 {result['result']} ({result['total']})" in render_text(state)
    while state.position.phase < S.JOURNEYS and not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert "Reactions this turn" not in render_text(state)
