"""The Vikingatid board data: the shipped file is sound, and every kind of corrupted file is refused by name.

Each corruption is a copy of the shipped `board.toml` with one fault, written to tmp_path; the validator must fail
it with a message naming the area or table at fault. The rule each check guards is cited from the rule text
(rules/004, Abramowski's translation) or the rulings (VA-nn, research/vikingatid-rulings.md).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from skald.games.vikingatid.board import (
    FRED,
    GALD,
    KRIG,
    BoardError,
    default_board_path,
    load_board,
    parse_board,
)
from skald.games.vikingatid.validate import (
    FleetGraph,
    check_file,
    checked_board,
    highest_reaction_total,
    main,
)

SHIPPED = Path(default_board_path()).read_text(encoding="utf-8")
#: The research checker the shipped file was copied from sits beside the repository when the research is at hand.
RESEARCH_CHECKER = Path(__file__).resolve().parents[3] / "shared" / "research" / "check_vikingatid_board.py"


# -- editing a copy of the shipped file ------------------------------------------------------------------------


def _blocks(text: str) -> list[str]:
    return re.split(r"(?m)^(?=\[)", text)


def _find(blocks: list[str], header: str, ident: str | None) -> int:
    for index, block in enumerate(blocks):
        if block.startswith(header + "\n") and (ident is None or re.search(rf'(?m)^(id|key) = "{ident}"$', block)):
            return index
    raise AssertionError(f"no {header} {ident} in the shipped board")


def set_field(text: str, header: str, ident: str | None, field: str, value: str | None) -> str:
    """`text` with `field` of the entry `header` (id `ident`) set to the TOML `value`, or removed when None."""
    blocks = _blocks(text)
    index = _find(blocks, header, ident)
    lines = blocks[index].split("\n")
    for number, line in enumerate(lines):
        if line.startswith(f"{field} ="):
            if value is None:
                del lines[number]
            else:
                lines[number] = f"{field} = {value}"
            break
    else:
        assert value is not None, f"{header} {ident} has no {field} to remove"
        lines.insert(1, f"{field} = {value}")
    blocks[index] = "\n".join(lines)
    return "".join(blocks)


def replace_in(text: str, header: str, ident: str | None, old: str, new: str) -> str:
    """`text` with `old` replaced by `new` inside the entry `header` (id `ident`) only."""
    blocks = _blocks(text)
    index = _find(blocks, header, ident)
    assert blocks[index].count(old) == 1, f"{old!r} is not unique in {header} {ident}"
    blocks[index] = blocks[index].replace(old, new)
    return "".join(blocks)


def drop_link(text: str, relation: str, a: str, b: str, both: bool = True) -> str:
    """`text` without the `relation` link a-b on area a (and on b too, when `both`)."""
    pairs = [(a, b), (b, a)] if both else [(a, b)]
    for here, there in pairs:
        links = parse_board(text).area(here).links(relation)
        kept = ", ".join(f'"{x}"' for x in links if x != there)
        text = set_field(text, "[[area]]", here, relation, f"[{kept}]")
    return text


def rename_field(text: str, header: str, ident: str | None, field: str, new_name: str) -> str:
    """`text` with `field` of the entry `header` (id `ident`) written under another name (a misspelling)."""
    blocks = _blocks(text)
    index = _find(blocks, header, ident)
    blocks[index] = re.sub(rf"(?m)^{field} =", f"{new_name} =", blocks[index], count=1)
    return "".join(blocks)


def written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- the shipped data -------------------------------------------------------------------------------------------


def test_the_shipped_board_passes_every_check() -> None:
    """The package's board.toml is sound: the game may play on it (research/vikingatid-board.toml, corrected)."""
    assert check_file() == []
    board = checked_board()
    assert len(board.areas) == 79
    assert {e.id for e in board.empires} == {"britain", "german_roman", "byzantine", "w_caliphate", "e_caliphate",
                                             "kazakstan"}  # fmt: skip


def test_the_loader_takes_any_path_and_defaults_to_the_package_file(tmp_path: Path) -> None:
    """A person who owns the board replaces the data without touching code (docs/DESIGN.md, 'Rules as data')."""
    path = written(tmp_path, set_field(SHIPPED, "[[area]]", "gotland", "trade", "4"))
    assert load_board(path).area("gotland").trade == 4
    assert load_board().area("gotland").trade == 3
    assert check_file(path) == []


def test_every_entry_carries_a_provenance_and_a_source() -> None:
    """Every entry is marked confirmed, inferred or provisional with its source (docs/DESIGN.md)."""
    board = load_board()
    for area in board.areas:
        assert area.provenance.level in ("confirmed", "inferred", "provisional"), area.id
        assert area.provenance.source, area.id
    assert board.area("danavalde").provenance.confirmed_fields[:3] == ("name", "kind", "terrain")


def test_the_reaction_tables_read_krig_low_and_fred_above_ten() -> None:
    """Modifiers only add, so Krig is the lowest result and a total above the table reads as its top row (VA-29)."""
    britain = load_board().empire("britain")
    assert britain.reaction_to(1) == KRIG
    assert britain.reaction_to(5) == GALD
    assert britain.reaction_to(14) == FRED
    assert britain.reaction_to(25) == FRED


def test_britains_table_reaches_ten_plus_war_camps_plus_the_christian_bonus() -> None:
    """'+1 for each war camp in that area' (phase 2) and '+2 bonus on reaction rolls of Britain' (phase 10)."""
    board = load_board()
    most_shields = max(board.area(p).shields for p in board.empire("britain").provinces)
    assert highest_reaction_total(board, "britain") == 10 + most_shields + 2
    assert board.empire("britain").reaction_max_roll >= highest_reaction_total(board, "britain")


def test_the_gald_table_and_the_turn_track_read_as_printed() -> None:
    """The Gäld table pays by D10 (phase 2); the track runs from 800, 25 years a turn (VA-03), to 1125 (VA-05)."""
    board = load_board()
    assert [board.gald(roll) for roll in range(1, 11)] == [1, 2, 2, 3, 3, 4, 5, 6, 8, 10]
    assert board.year(1) == 800 and board.year(5) == 900 and board.year(14) == 1125
    assert [box.chance for box in board.turn_track.turns[:4]] == [0, 0, 0, 0]
    assert board.start_value("home_silver") == 5 and board.start_value("max_fleet") == 10


def test_denmark_is_passable_land_and_sea_with_danger_zero() -> None:
    """'Denmark contains both land and sea in the same area ... no danger value for its sea part' (VA-66)."""
    denmark = load_board().kingdom_area("denmark")
    assert (denmark.id, denmark.terrain, denmark.danger, denmark.passable) == ("danavalde", "land_and_sea", 0, True)


def test_a_swedish_war_fleet_reaches_britain_through_denmark_with_danger_four() -> None:
    """VA-70: other kingdoms' war fleets pass Denmark's sea; the cheapest Swedish route to Britain costs 4."""
    board = load_board()
    britain = {"wessex", "mercien", "northumbrien", "ostangeln"}
    found = FleetGraph(board).cheapest("svea_rike", britain, "war", "")
    assert found is not None and found[0] == 4 and "danavalde" in found[1]


def test_war_fleets_never_reach_an_empire_core() -> None:
    """'No war fleets may enter a kingdom' (rule text, kingdoms and provinces; VA-45)."""
    board = load_board()
    graph = FleetGraph(board)
    cores = {e.core for e in board.empires}
    assert not cores & graph.reachable("norge", "war", None)
    assert cores <= graph.reachable("norge", "trading", None)


def test_the_module_runs_as_a_checker(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`python -m skald.games.vikingatid.validate [FILE]` prints OK, or each FAIL naming the entry, and exits 1."""
    assert main(["validate"]) == 0
    assert "OK: board.toml: 79 areas" in capsys.readouterr().out
    bad = written(tmp_path, set_field(SHIPPED, "[[area]]", "danavalde", "danger", "1"))
    assert main(["validate", str(bad)]) == 1
    assert "FAIL: area danavalde: Denmark's danger is 0" in capsys.readouterr().out


# -- corrupted copies --------------------------------------------------------------------------------------------

Corruption = Callable[[str], str]

#: Each kind of corruption: (name, how to corrupt the shipped text, what the first matching message must say).
CORRUPTIONS: list[tuple[str, Corruption, str]] = [
    (
        "asymmetric link (adjacency symmetric; VA-67)",
        lambda t: drop_link(t, "sea_links", "nordsjon", "norge", both=False),
        "area norge: sea_links lists nordsjon but area nordsjon does not list norge",
    ),
    (
        "asymmetric land border (VA-67)",
        lambda t: drop_link(t, "land_borders", "wessex", "mercien", both=False),
        "area mercien: land_borders lists wessex but area wessex does not list mercien",
    ),
    (
        "unreachable area (6.2 Moving fleets)",
        lambda t: drop_link(
            drop_link(t, "sea_links", "gotland", "sodra_ostersjon"), "sea_links", "gotland", "norra_ostersjon"
        ),
        "area gotland: unreachable for trading fleets from danavalde",
    ),
    (
        "Denmark with danger (rule text 'no danger value for its sea part'; VA-66)",
        lambda t: set_field(t, "[[area]]", "danavalde", "danger", "1"),
        "area danavalde: Denmark's danger is 0",
    ),
    (
        "Denmark closed to other kingdoms' fleets (VA-54, VA-70)",
        lambda t: set_field(t, "[[area]]", "danavalde", "passable", "false"),
        "area danavalde: other kingdoms' fleets pass through Denmark's sea",
    ),
    (
        "a camp allowed in an empire core (VA-45)",
        lambda t: set_field(t, "[[area]]", "wessex", "no_camps", "false"),
        "area wessex: an empire core admits no war fleet and no camp",
    ),
    (
        "a war fleet allowed in an empire core (VA-45)",
        lambda t: set_field(t, "[[area]]", "miklagard", "no_war_fleets", "false"),
        "area miklagard: an empire core admits no war fleet and no camp",
    ),
    (
        "a camp allowed in a Viking kingdom (VA-45)",
        lambda t: set_field(t, "[[area]]", "norge", "no_camps", "false"),
        "area norge: a Viking kingdom admits no camps",
    ),
    (
        "two strengths in one area (VA-64)",
        lambda t: set_field(t, "[[area]]", "konugard", "strength", "[3, 5]"),
        "area 'konugard'.strength: one strength per area (VA-64)",
    ),
    (
        "two strength lines in one area (VA-64)",
        lambda t: replace_in(t, "[[area]]", "konugard", "strength = 3\n", "strength = 3\nstrength = 5\n"),
        "(in id 'konugard')",
    ),
    (
        "a province fought at strength 3 (VA-64)",
        lambda t: set_field(t, "[[area]]", "mercien", "strength", "3"),
        "area mercien: an empire's area has strength 5 (VA-64), not 3",
    ),
    (
        "a reaction table with a gap (phase 2)",
        lambda t: replace_in(t, "[[empire]]", "britain", '  { roll = 12, result = "fred" },\n', ""),
        "empire britain: reaction table: rows must cover 1..14 once each (gaps [12]",
    ),
    (
        "a reaction table that stops at 10 (modified rolls above 10; phase 2, phase 10)",
        lambda t: set_field(t, "[[empire]]", "byzantine", "reaction_max_roll", "10"),
        "empire byzantine: reaction table: reaction_max_roll 10 is below the highest reachable total 12",
    ),
    (
        "a reaction table with Fred below Krig (VA-29)",
        lambda t: replace_in(
            t, "[[empire]]", "kazakstan", '{ roll =  1, result = "krig" }', '{ roll =  1, result = "fred" }'
        ),
        "empire kazakstan: reaction table: not ordered Krig (low) -> Gäld -> Fred (high)",
    ),
    (
        "the Gäld table with a gap (phase 2)",
        lambda t: replace_in(t, "[gald_table]", None, "  { roll =  7, silver = 5 },\n", ""),
        "[gald_table]: rows must cover the D10 1..10 once each (gaps [7]",
    ),
    (
        "a turn track box out of step (VA-03)",
        lambda t: t.replace("{ turn =  3, year =  850,", "{ turn =  3, year =  860,"),
        "[turn_track] year 860: box 3 is turn 3, year 850",
    ),
    (
        "a province away from its empire ('adjacent areas on the map in the same colour')",
        lambda t: drop_link(t, "land_borders", "kalmykien", "kazakstan"),
        "area kalmykien: a province of kazakstan that does not touch its empire by land",
    ),
    (
        "an unknown area in a link (links only to known areas)",
        lambda t: set_field(t, "[[area]]", "nordsjon", "sea_links", '["atlantis", "norge"]'),
        "area nordsjon: sea_links names unknown area 'atlantis'",
    ),
    (
        "an unknown area in an empire",
        lambda t: set_field(
            t, "[[empire]]", "britain", "provinces", '["mercien", "northumbrien", "ostangeln", "york"]'
        ),
        "empire britain: names unknown area 'york'",
    ),
    (
        "a repeated area id (ids unique)",
        lambda t: replace_in(t, "[[area]]", "gotland", 'id = "gotland"', 'id = "finland"'),
        "area id 'finland' used 2 times",
    ),
    (
        "a missing provenance on an area",
        lambda t: set_field(t, "[[area]]", "norge", "provenance", None),
        "area norge: provenance missing",
    ),
    (
        "a missing provenance on a table",
        lambda t: set_field(t, "[gald_table]", None, "provenance", None),
        "[gald_table]: provenance missing",
    ),
    (
        "a provenance that is not one of the three",
        lambda t: set_field(t, "[[empire]]", "byzantine", "provenance", '"guessed"'),
        "empire byzantine: provenance got 'guessed'",
    ),
    (
        "a missing source",
        lambda t: set_field(t, "[[river]]", "volga", "source", None),
        "river volga: source missing",
    ),
    (
        "malformed TOML",
        lambda t: set_field(t, "[[area]]", "gotland", "danger", ""),
        "not valid TOML",
    ),
    (
        "a wrong type in a field",
        lambda t: set_field(t, "[[area]]", "norge", "danger", '"high"'),
        "area 'norge'.danger: expected an integer, got 'high'",
    ),
    (
        "a misspelt field",
        lambda t: rename_field(t, "[[area]]", "gotland", "danger", "dangr"),
        "area 'gotland'.danger: missing",
    ),
]


@pytest.mark.parametrize(("kind", "corrupt", "message"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_a_corrupted_board_is_refused_naming_the_entry_at_fault(
    tmp_path: Path, kind: str, corrupt: Corruption, message: str
) -> None:
    """Each kind of corrupted data file fails with a message naming its area or table."""
    text = corrupt(SHIPPED)
    assert text != SHIPPED, kind
    path = written(tmp_path, text)
    found = check_file(path)
    assert any(message in line for line in found), f"{kind}: {message!r} not in {found}"
    with pytest.raises(BoardError, match=re.escape(str(path))):
        checked_board(path)


def test_a_board_has_room_for_eighty_areas_at_most(tmp_path: Path) -> None:
    """The fixed action space has 80 area slots (rulings, 'Size of the game'); the 81st area is refused."""
    extra = ""
    for n in (1, 2):
        extra += (
            f'\n[[area]]\nid = "extra_{n}"\nname = "Extra {n}"\nname_en = "Extra {n}"\nname_confirmed = false\n'
            'kind = "sea"\nterrain = "sea"\ndanger = 1\ntrade = 0\nshields = 0\nrivers = []\nundiscovered = false\n'
            'sea_links = ["nordsjon"]\nriver_links = []\nland_borders = []\nprovenance = "provisional"\n'
            'source = "a test"\n'
        )
    links = ", ".join(f'"{x}"' for x in (*load_board().area("nordsjon").sea_links, "extra_1", "extra_2"))
    text = set_field(SHIPPED, "[[area]]", "nordsjon", "sea_links", f"[{links}]")
    assert check_file(written(tmp_path, text.replace("\n[[river]]", extra + "\n[[river]]", 1))) == [
        "[[area]]: 81 areas; the fixed action space has room for 80"
    ]


def test_malformed_toml_names_the_area_it_falls_in(tmp_path: Path) -> None:
    """A TOML error gives its line and the area around it, so the owner of the board knows where to look."""
    path = written(tmp_path, set_field(SHIPPED, "[[area]]", "gotland", "danger", ""))
    [line] = check_file(path)
    assert line.startswith(f"{path}: not valid TOML:") and line.endswith("(in id 'gotland')")


def test_an_unreadable_file_is_one_clear_line(tmp_path: Path) -> None:
    """A missing file or one that is not UTF-8 gives one line starting with the path, never a traceback."""
    missing = tmp_path / "nowhere.toml"
    assert check_file(missing) == [f"{missing}: cannot read: No such file or directory"]
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    [line] = check_file(binary)
    assert line.startswith(f"{binary}: cannot read:")


def test_parsing_needs_schema_version_one() -> None:
    """A file of another layout is refused before anything is read from it."""
    with pytest.raises(BoardError, match="schema_version: expected 1, got 2"):
        parse_board(SHIPPED.replace("schema_version = 1", "schema_version = 2", 1))


RESEARCH_ASKS_NO_SOURCE = {"a missing source"}


@pytest.mark.skipif(not RESEARCH_CHECKER.exists(), reason="the research checker is not beside the repository")
def test_the_research_checker_gives_the_same_verdicts(tmp_path: Path) -> None:
    """The research checker (check_vikingatid_board.py) agrees: the shipped file passes, every corruption fails.

    The two differ by design in two places: the research checker also bounds dangers and shields by the
    research's ranges (not a rule; none of these corruptions touches them), and it asks for no source, which
    Skald's validator does (docs/DESIGN.md: every entry with its provenance and source).
    """

    def research_verdict(text: str) -> int:
        path = written(tmp_path, text)
        return subprocess.run(
            [sys.executable, str(RESEARCH_CHECKER), str(path)], capture_output=True, text=True, check=False
        ).returncode

    assert research_verdict(SHIPPED) == 0
    for kind, corrupt, _message in CORRUPTIONS:
        ours = check_file(written(tmp_path, corrupt(SHIPPED)))
        assert ours, kind
        assert research_verdict(corrupt(SHIPPED)) == (0 if kind in RESEARCH_ASKS_NO_SOURCE else 1), kind
