"""Tests of examples/cfr_leduc.py: a few iterations, exploitability falling, win rates printed.

Public API only, as the other examples' tests. Run: pytest examples/test_cfr_leduc.py
"""

from __future__ import annotations

import pytest
from cfr_leduc import checkpoints, main


def test_a_short_run_prints_exploitability_falling(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--iterations", "3", "--hands", "6"]) == 0
    out = capsys.readouterr().out
    assert "9,457 states, 936 information sets" in out
    rows = [line.split() for line in out.splitlines() if "±" in line]
    assert [int(row[0]) for row in rows] == [1, 3]
    first, last = (float(row[2]) for row in rows)
    assert first == pytest.approx(2.3736, abs=1e-4)  # the uniform policy's, as OpenSpiel reports it
    assert last < first
    assert all(len(row) == 9 for row in rows)  # iterations, seconds, exploitability, two win rates ± errors


def test_checkpoints_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert checkpoints(1000) == [1, 10, 100, 1000] and checkpoints(250) == [1, 10, 100, 250]
    with pytest.raises(SystemExit):
        main(["--iterations", "0"])
    assert "must be at least 1" in capsys.readouterr().err
