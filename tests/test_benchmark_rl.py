"""A smoke test of ``benchmarks/rl.py`` (a few steps of every environment installed, a few copies)
so that the script cannot rot: its rows and its JSON. No timings are checked."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.helpers import load_script

pytest.importorskip("pettingzoo")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "rl.py"


def test_quick_run_gives_every_environment_and_the_copy_costs(tmp_path: Path) -> None:
    bench = load_script(SCRIPT, "benchmark_rl")
    out = tmp_path / "rl.json"
    assert bench.main(["--quick", "--steps", "20", "--copies", "10", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["steps"] == 20 and data["repeat"] == 1
    peers = {"PettingZoo": all(importlib.util.find_spec(m) is not None for m in ("rlcard", "pygame")),
             "OpenSpiel": importlib.util.find_spec("pyspiel") is not None}
    seen = {(r["game"], r["env"].split(" ")[0], r["observation"]) for r in data["runs"]}
    for game in ("nlh", "leduc"):
        for observation in ("rlcard", "planes", "infostate"):
            assert (game, "ours:", observation) in seen
        envs = {r["env"] for r in data["runs"] if r["game"] == game}
        assert {bench.LONE, bench.IN_TURN, "ours: VectorEnv x16"} <= envs
        for peer, installed in peers.items():
            assert any(g == game and e == peer for g, e, _ in seen) == installed
    assert set(data["vector_vs_tables_in_turn"]["leduc"]) == {"rlcard", "planes"}
    assert len(data["skipped"]) == sum(not installed for installed in peers.values())
    for r in data["runs"]:
        assert r["steps"] >= 20 and r["steps_per_s"] > 0
        assert (r["vs_pettingzoo"] is None) == (not peers["PettingZoo"])
    ways = {c["way"] for c in data["copies"]}
    assert {"Game.copy", "copy.deepcopy", "replay the hand"} <= ways


def test_the_scaling_benchmark_runs_collect_on_one_and_two_workers(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``benchmarks/rl_scaling.py`` with a few episodes on one and two processes: a row a worker count,
    the same decisions collected by both (the script checks the arrays), one worker's speed-up 1."""
    bench = load_script(SCRIPT.parent / "rl_scaling.py", "benchmark_rl_scaling")
    monkeypatch.setattr(bench, "counts", lambda: [1, 2])
    out = tmp_path / "scaling.json"
    assert bench.main(["--episodes", "24", "--game", "leduc", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert [(r["game"], r["workers"]) for r in rows] == [("leduc", 1), ("leduc", 2)]
    assert rows[0]["steps"] == rows[1]["steps"] > 24 and rows[0]["speedup"] == 1.0
