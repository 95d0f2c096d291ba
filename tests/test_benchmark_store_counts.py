"""A smoke test of ``benchmarks/store_counts.py`` (a few hands) so that the script cannot rot: its counts are
positive, the same from one run to the next (what makes them worth having on a busy machine), and show a
commit a decision with its lease checked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "store_counts.py"


def test_counts_are_positive_and_repeatable() -> None:
    command = [sys.executable, str(SCRIPT), "--hands", "6", "--warm", "2", "--group", "2", "--top", "3"]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1]  # counted, not timed: the same every run
    assert runs[0].startswith("12 hands, ")
    for name in ("commits", "WAL pages", "instructions: recorder", "instructions: write"):
        found = re.search(rf"^{name} +([\d.]+) +([\d.]+)$", runs[0], re.MULTILINE)
        assert found is not None and float(found[1]) > 0, name
    assert "SELECT expires FROM" in runs[0]  # the lease, checked at each commit
