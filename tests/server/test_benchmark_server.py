"""A smoke run of ``benchmarks/server.py`` (a few tables for a few seconds, on one server process
and on two sharing a SQLite file) so that the script cannot rot: it completes, every table keeps
its chips, and no protocol error or gap is seen. No timing is checked."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import load_script

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "server.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script(SCRIPT, "benchmark_server")


def test_a_quick_run_keeps_every_chip(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "load.json"
    argv = ["--quick", "--tables", "4", "--seats", "2-3", "--seconds", "2", "--warmup", "0.5", "--think-ms", "20",
            "--processes", "1", "2", "--json", str(out)]
    assert bench.main(argv) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [row["processes"] for row in rows] == [1, 2]
    for row in rows:
        assert row["chips"] == {"tables": 4, "lost": 0, "failures": []}
        assert row["errors"] == {} and row["gaps"] == 0 and row["closed"] == 0 and row["unsettled"] == 0
        assert row["hands"] > 0 and row["decisions"] > 0 and row["latency_ms"]["count"] > 0
        assert len(row["servers"]) == row["processes"] and sum(s["tables"] for s in row["servers"]) == 4
        assert all(s["rss_peak_mb"] >= s["rss_end_mb"] > 0 for s in row["servers"])
        # the generator's own stalls (its loop's lag), which every latency includes, are reported
        assert all(0 <= g["lag_p99_ms"] <= g["lag_max_ms"] for g in row["generators"])
    table = capsys.readouterr().out
    assert "hands/s" in table and "gen lag" in table and "LOST" not in table and "FAIL" not in table


def test_a_lost_chip_is_a_failure(bench: ModuleType) -> None:
    row = {"db": "sqlite", "processes": 1, "think_ms": 0.0, "errors": {"illegal": 2}, "gaps": 0, "closed": 0,
           "unsettled": 0, "chips": {"failures": [{"table": "ab12", "chips": 399, "bought": 400}]}}
    assert bench.failures(row) == [
        "FAIL sqlite, 1 process(es), think 0 ms: table ab12 holds 399 chips, its players bought in 400",
        "FAIL sqlite, 1 process(es), think 0 ms: protocol errors {'illegal': 2}",
    ]


def test_the_bots_answer_every_question(bench: ModuleType) -> None:
    rng = random.Random(3)
    act = {"kind": "act", "seat": 1, "fold": True, "check": False, "call": 4, "bring_in": 0,
           "raise": {"min": 8, "max": 96, "is_bet": False, "pot": 20, "amounts": []}}
    assert bench.answer(act, 7, rng, 1.0, 0.0) == {"type": "act", "action": "raise", "amount": 8, "seq": 7}
    assert bench.answer(act, 7, rng, 0.0, 0.0) == {"type": "act", "action": "call", "seq": 7}
    assert bench.answer(act, 7, rng, 0.0, 1.0) == {"type": "act", "action": "fold", "seq": 7}
    limit = {**act, "check": True, "raise": {"min": 4, "max": 4, "is_bet": True, "pot": 4, "amounts": [4]}}
    assert bench.answer(limit, 2, rng, 1.0, 0.0) == {"type": "act", "action": "bet", "amount": 4, "seq": 2}
    assert bench.answer(limit, 2, rng, 0.0, 1.0) == {"type": "act", "action": "check", "seq": 2}
    bring = {**act, "fold": False, "call": 0, "raise": None, "bring_in": 1}
    assert bench.answer(bring, 3, rng, 0.0, 0.0) == {"type": "act", "action": "bring_in", "seq": 3}
    draw = {"kind": "draw", "seat": 0, "hole": ["Ah", "7c", "2d", "9s", "Kc"], "min": 1, "max": 5, "replace": True}
    assert bench.answer(draw, 5, rng, 0.0, 0.0) == {"type": "draw", "discards": ["Ah"], "seq": 5}
    assert bench.answer({"kind": "runs", "seat": 0, "max": 2}, 6, rng, 0.0, 0.0) == {"type": "runs", "count": 1,
                                                                                     "seq": 6}


def test_seats_and_percentiles(bench: ModuleType) -> None:
    assert bench.seat_counts("2", 3) == [2, 2, 2]
    assert bench.seat_counts("3-6", 6) == [3, 4, 5, 6, 3, 4]
    with pytest.raises(SystemExit):
        bench.seat_counts("1-3", 2)
    ordered = [float(x) for x in range(1, 101)]
    assert [bench.percentile(ordered, p) for p in (50, 95, 99)] == [50.0, 95.0, 99.0]
    assert bench.percentile([], 50) is None
