"""Shared fixtures: the test data in ``tests/data`` and hand-built contexts for stage tests."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
"""The suite's own data, copied from the project's shared references (``tests/data/README.md``)."""
