"""Where the suite's own data lives (``tests/data``; a fresh clone with nothing beside it passes)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
"""The suite's own data, copied from the project's shared references (``tests/data/README.md``)."""
