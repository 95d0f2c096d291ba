"""A smoke test of ``benchmarks/view_counts.py`` (a few decisions) so that the script cannot rot: its counts
are positive and the same from one run to the next (what makes them worth having on a busy machine)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "view_counts.py"


def test_counts_are_positive_and_repeatable() -> None:
    command = [sys.executable, str(SCRIPT), "--decisions", "60", "--warm", "10", "--watchers", "1", "--top", "3"]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1]  # counted, not timed: the same every run
    assert runs[0].startswith("60 decisions, 3 connections")
    for name in ("views \\(refresh\\)", "the rest"):
        found = re.search(rf"^  {name}: +([\d,]+) instructions", runs[0], re.MULTILINE)
        assert found is not None and int(found[1].replace(",", "")) > 0, name
    assert "host.py:view" in runs[0]
