"""`benchmarks/bench_engine.py` puts Vikingatid beside Vikings 4p in one run: every figure of the comparison is
measured and given as a ratio to Vikings 4p's matching figure."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_engine.py"


def test_one_short_run_gives_every_vikingatid_figure_as_a_ratio_to_vikings_4p(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_engine", bench)  # its dataclass looks its module up
    spec.loader.exec_module(bench)
    argv = ["--vikingatid-only", "--seconds", "0.1", "--slice", "0.05", "--positions", "1", "--mcts-iters", "5"]
    bench.main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    rows = {row["name"]: row for row in data["vikingatid_vs_vikings_4p"]}
    assert sorted(rows) == sorted(
        [
            "vikingatid 2p clone() mid-game",
            "vikingatid 4p clone() mid-game",
            "vikingatid 6p clone() mid-game",
            "vikingatid 2p resample_from_infostate (median)",
            "vikingatid 4p resample_from_infostate (median)",
            "vikingatid 6p resample_from_infostate (median)",
            "vikingatid 4p random games",
            "vikingatid 4p MCTS (iters=5 a move)",
        ]
    )
    for row in rows.values():
        assert row["value"] > 0 and row["vikings_4p_value"] > 0
        # The ratio is given to three decimals.
        assert row["ratio"] == pytest.approx(row["value"] / row["vikings_4p_value"], rel=1e-2, abs=5e-4)
    assert rows["vikingatid 4p random games"]["unit"] == "actions/s"
    assert rows["vikingatid 6p resample_from_infostate (median)"]["vikings_4p"] == "vikings base 4p clone() mid-game"
