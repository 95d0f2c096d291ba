"""Where the suite's own data lives (``tests/data``; a fresh clone with nothing beside it passes), and the
throwaway PostgreSQL server of :mod:`tests.pg` (fixtures ``postgres_server``, ``postgres_dsn``)."""

from __future__ import annotations

from pathlib import Path

from tests.pg import postgres_dsn, postgres_server  # noqa: F401  (a throwaway PostgreSQL server, for any test)

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
"""The suite's own data, copied from the project's shared references (``tests/data/README.md``)."""
