"""A smoke test of ``benchmarks/simulate.py`` (a handful of hands, every engine in this
interpreter) so that the script cannot rot: its rows, its JSON and its table. No timings are
checked."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script(SCRIPT, "benchmark_simulate")


def test_rows_of_every_match(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs.json"
    assert bench.main(["--hands", "12", "--workers", "1", "--seconds", "0", "--in-process", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    installed = [engine for engine in bench.PEERS if bench.available(engine)]
    expected = []
    for name, spec in bench.MATCHES.items():
        expected.append((name, "cardgame"))
        expected += [(name, engine) for engine in installed if spec.peers]
    assert [(row["match"], row["engine"]) for row in data["rows"]] == expected
    for row in data["rows"]:
        assert row["hands"] == 12 and row["workers"] == 1
        assert row["decisions"] >= 12 and row["errors"] == 0 and row["conservation_failures"] == 0
        assert row["ours_1w_over_this"] is not None and row["ours_2w_over_this"] is None
    skipped = [note for note in data["notes"] if "not installed" in note]
    assert len(skipped) == len(bench.PEERS) - len(installed)
    assert not [note for note in data["notes"] if "failed" in note or "differ" in note]
    assert set(data["machine"]) >= {"python", "cpus", "load_average_1_5_15", "load_after"}
    table = capsys.readouterr().out
    for name in bench.MATCHES:
        assert name in table
    assert "cardgame.simulate" in table and "ours 1w / this" in table


def test_the_same_hands_are_compared(bench: ModuleType) -> None:
    """Decisions are counted on one worker and a run's results fingerprinted: the two-worker row
    borrows the count when the fingerprints agree, and a disagreement is a note."""
    stats, digest = bench.play_cardgame(("random", "calling-station", "all-in"), 30, 3, 1)
    again, same = bench.play_cardgame(("random", "calling-station", "all-in"), 30, 3, 1)
    assert (stats.hands, stats.decisions, digest) == (again.hands, again.decisions, same) and stats.decisions >= 30
    two = bench.MatchStats(hands=30, decisions=None, seconds=1.0, cpu_seconds=2.0)
    runs = [bench.Run("6-max", "cardgame", 1, stats, digest), bench.Run("6-max", "cardgame", 2, two, digest)]
    rows, notes = bench.rows(runs)
    assert rows[1]["decisions"] == stats.decisions and not notes
    runs[1].digest = "another"
    rows, notes = bench.rows(runs)
    assert rows[1]["decisions"] is None
    assert notes == [f"6-max: the results on 1 and 2 workers differ ({digest} != another)"]
