"""Smoke tests of the counting scripts (``benchmarks/*_counts.py``, each on a few hands or decisions) so
that they cannot rot: their counts are positive, the same from one run of the script to the next (what
makes them worth having on a busy machine), and name what they count."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def counted(script: str, *args: str) -> str:
    """The output of ``benchmarks/<script> args``, checked to be the same on a second run."""
    command = [sys.executable, str(BENCHMARKS / script), *args]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1]  # counted, not timed: the same every run
    return runs[0]


def test_engine_counts() -> None:
    out = counted("engine_counts.py", "--players", "2", "--hands", "8", "--warm", "2", "--top", "3")
    head = re.match(r"2 players: ([\d,]+) instructions, ([\d.]+) Python calls and ([\d.]+) records per hand", out)
    assert head is not None and all(float(n.replace(",", "")) > 0 for n in head.groups())
    assert "HandStarted 1.00" in out and "HandEnded 1.00" in out  # one of each per hand


def test_rl_counts() -> None:
    pytest.importorskip("pettingzoo")
    out = counted("rl_counts.py", "--game", "leduc", "--observation", "planes", "--steps", "48", "--warm", "16",
                  "--top", "2")
    rows = re.findall(r"leduc +planes +(\w+) +([\d,]+) instructions +([\d.]+) calls per learner decision", out)
    assert [kind for kind, _, _ in rows] == ["aec", "single", "vector"]
    assert all(float(n.replace(",", "")) > 0 and float(c) > 0 for _, n, c in rows)


def test_store_counts() -> None:
    out = counted("store_counts.py", "--hands", "6", "--warm", "2", "--group", "2", "--top", "3")
    assert out.startswith("12 hands, ")
    for name in ("commits", "WAL pages", "instructions: recorder", "instructions: write"):
        found = re.search(rf"^{name} +([\d.]+) +([\d.]+)$", out, re.MULTILINE)
        assert found is not None and float(found[1]) > 0, name
    assert "SELECT expires FROM" in out  # the lease, checked at each commit


def test_view_counts() -> None:
    pytest.importorskip("starlette")
    out = counted("view_counts.py", "--decisions", "60", "--warm", "10", "--watchers", "1", "--top", "3")
    assert out.startswith("60 decisions, 3 connections")
    for name in ("views \\(refresh\\)", "the rest"):
        found = re.search(rf"^  {name}: +([\d,]+) instructions", out, re.MULTILINE)
        assert found is not None and int(found[1].replace(",", "")) > 0, name
    assert "host.py:view" in out


def test_bot_counts() -> None:
    pytest.importorskip("gymnasium")
    out = counted("bot_counts.py", "--decisions", "40", "--top", "2")
    rows = re.findall(r"^(\S.*?) +(\d+) interface +(\d+) game instructions per bot decision \((\d+) decisions\)$", out,
                      re.MULTILINE)
    assert len(rows) == 6 and all(int(i) > 0 and int(g) > 0 and int(n) > 20 for _, i, g, n in rows), out
    assert len(re.findall(r"^ +[\d.]+ +\S+\.py:\w+$", out, re.MULTILINE)) >= 6  # the top functions of each
