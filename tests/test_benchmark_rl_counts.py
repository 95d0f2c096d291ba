"""A smoke test of ``benchmarks/rl_counts.py`` (a few decisions) so that the script cannot rot: its
counts are positive and the same from one run of the script to the next (what makes them worth having
on a busy machine)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "rl_counts.py"


def test_counts_are_positive_and_repeatable() -> None:
    command = [sys.executable, str(SCRIPT), "--game", "leduc", "--observation", "planes", "--steps", "48",
               "--warm", "16", "--top", "2"]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1]  # counted, not timed: the same every run
    rows = re.findall(r"leduc +planes +(\w+) +([\d,]+) instructions +([\d.]+) calls per learner decision", runs[0])
    assert [kind for kind, _, _ in rows] == ["aec", "single", "vector"]
    assert all(float(n.replace(",", "")) > 0 and float(c) > 0 for _, n, c in rows)
