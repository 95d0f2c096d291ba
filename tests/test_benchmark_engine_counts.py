"""A smoke test of ``benchmarks/engine_counts.py`` (a few hands) so that the script cannot rot: its
counts are positive, the same from one run of the script to the next (what makes them worth having
on a busy machine), and name the records a hand builds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "engine_counts.py"


def test_counts_are_positive_and_repeatable() -> None:
    command = [sys.executable, str(SCRIPT), "--players", "2", "--hands", "8", "--warm", "2", "--top", "3"]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1]  # counted, not timed: the same every run
    head = re.match(r"2 players: ([\d,]+) instructions, ([\d.]+) Python calls and ([\d.]+) records per hand", runs[0])
    assert head is not None and all(float(n.replace(",", "")) > 0 for n in head.groups())
    assert "HandStarted 1.00" in runs[0] and "HandEnded 1.00" in runs[0]  # one of each per hand
