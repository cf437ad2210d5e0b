"""The `skald` command: simulate, replay and vikings score, through the real command-line entry point."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from skald.engine import Record, get_game, play_random_game

DOCS = Path(__file__).resolve().parent.parent / "docs" / "examples"


def skald(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skald.cli.main", *args], capture_output=True, text=True, timeout=120)


def test_simulate_plays_random_games_and_prints_a_summary():
    result = skald("simulate", "vikings", "--players", "3", "--games", "5", "--seed", "2")
    assert result.returncode == 0, result.stderr
    assert "5 random games of Vikings, 3 players" in result.stdout and "games/s" in result.stdout


def test_simulate_show_prints_tables_and_itemised_scorings():
    result = skald("simulate", "vikings", "--players", "2", "--games", "1", "--show")
    assert result.returncode == 0, result.stderr
    assert "Round 2: large scoring" in result.stdout and "Head Boatswain" in result.stdout


def test_simulate_refuses_a_player_count_with_a_clear_error_and_no_traceback():
    result = skald("simulate", "vikings", "--players", "6")
    assert result.returncode == 2 and "2–4 players" in result.stderr and "Traceback" not in result.stderr


def test_replay_steps_through_a_record_to_the_final_scores(tmp_path):
    state = play_random_game(get_game("vikings").new_initial_state(2), random.Random(8))
    Record.of(state).save(tmp_path / "game.json")
    result = skald("replay", str(tmp_path / "game.json"))
    assert result.returncode == 0, result.stderr
    assert "buy" in result.stdout and "Final scores" in result.stdout
    # Each scoring itemised as it is made, and the final scores as a table naming the winner (no raw dict).
    assert result.stdout.count("large scoring") >= 1 and "Fishermen feed" in result.stdout
    assert "{'" not in result.stdout and "winner" in result.stdout.split("Final scores")[1]


def test_replay_of_a_malformed_record_names_the_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "skald-record", "version": 1, "game": "vikings", "players": "x"}))
    result = skald("replay", str(path))
    assert result.returncode == 2 and "players" in result.stderr and "Traceback" not in result.stderr


def _example_position(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    brown = {
        "rows": {
            "ship": "green2 red3 green1",
            "W": "L:W R:W",
            "N": "L M1:N R:N",
            "S": "L:S M2:S R:S",
            "G": "L M3:G R:G",
            "F": "L M4 R:F",
        }
    }
    path.write_text(json.dumps({"mainlands": [brown, {"rows": {}}]}))
    return path


def test_score_prints_the_itemised_large_scoring_of_a_hand_written_position_as_json(tmp_path):
    """`skald vikings score --when large --json`: the rulebook's example, 8 Fame and 9 Gold (rules/000 p.4)."""
    path = _example_position(tmp_path)
    before = path.read_text()
    result = skald("vikings", "score", str(path), "--when", "large", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["totals"]["0"] == {"fame": 8, "gold": 9}
    assert path.read_text() == before


def test_score_prints_a_table_for_people(tmp_path):
    result = skald("vikings", "score", str(_example_position(tmp_path)), "--when", "small")
    assert result.returncode == 0, result.stderr
    assert "Small scoring" in result.stdout and "Goldsmith on G2" in result.stdout


def test_score_of_a_malformed_position_names_the_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"mainlands": [{"rows": {"N": "L:S"}}, {}]}))
    result = skald("vikings", "score", str(path))
    assert result.returncode == 2 and "mainlands[0].rows.N[1]" in result.stderr and "Traceback" not in result.stderr


def test_score_reads_a_game_record_too(tmp_path):
    state = play_random_game(get_game("vikings").new_initial_state(3), random.Random(1))
    Record.of(state).save(tmp_path / "game.json")
    result = skald("vikings", "score", str(tmp_path / "game.json"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["when"] == "end"


def test_documented_example_position_scores_as_the_rulebook_says():
    """docs/examples/large-scoring-example.json reproduces rules/000's large-scoring example."""
    example = DOCS / "large-scoring-example.json"
    data = json.loads(skald("vikings", "score", str(example), "--when", "large", "--json").stdout)
    assert {"fame": 8, "gold": 9} in data["totals"].values()


def test_score_of_a_finished_game_shows_its_end_scoring_as_it_happened(tmp_path):
    """A finished game is not end-scored a second time: the breakdown is the one that was applied."""
    state = play_random_game(get_game("vikings").new_initial_state(2), random.Random(5))
    Record.of(state).save(tmp_path / "game.json")
    data = json.loads(skald("vikings", "score", str(tmp_path / "game.json"), "--json").stdout)
    recorded = state.scorings()[-1]["lines"]
    assert data["lines"] == recorded


def test_misspelt_position_field_is_named(tmp_path):
    path = tmp_path / "typo.json"
    path.write_text(json.dumps({"mainlands": [{"row": {"N": "L"}}, {}]}))
    result = skald("vikings", "score", str(path))
    assert result.returncode == 2 and "mainlands[0].row: unknown field" in result.stderr


# -- the help without imports (`skald --help` answers at once) -----------------------------------------

#: What `skald --help` must not import: each command's module, any game, the bots, the simulator, the web, numpy.
HEAVY = ("skald.cli.", "skald.games", "skald.bots", "skald.sim", "skald.web", "numpy", "sqlalchemy", "fastapi")


def test_the_help_lists_every_command_without_importing_any_commands_module_or_game():
    probe = (
        "import sys\n"
        "from skald.cli.main import app\n"
        "try:\n"
        "    app(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    loaded = result.stderr.split()
    assert [name for name in loaded if name.startswith(HEAVY) and name != "skald.cli.main"] == []
    for command in ("simulate", "replay", "tournament", "play", "serve", "check", "verify", "vikings"):
        assert f"│ {command} " in result.stdout


def test_each_command_is_listed_with_the_first_line_of_its_own_help():
    import typer

    from skald.cli.main import COMMANDS, SkaldGroup, app

    group = typer.main.get_command(app)
    assert isinstance(group, SkaldGroup)
    context = typer.Context(group)
    for name, (_module, line) in COMMANDS.items():
        command = group.get_command(context, name)
        assert command is not None and command.name == name
        assert (command.help or "").split("\n\n")[0].replace("\n", " ") == line


def test_every_game_with_its_own_commands_is_listed_and_no_game_without():
    from skald.cli.main import game_command_names
    from skald.engine import game_names

    assert game_command_names() == [name for name in game_names() if get_game(name).commands() is not None]
    assert "vikings" in game_command_names()


def test_a_games_own_commands_run_under_its_name():
    result = skald("vikings", "--help")
    assert result.returncode == 0 and "score" in result.stdout
