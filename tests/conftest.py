"""Where the suite's own data lives (``tests/data``; a fresh clone with nothing beside it passes), and the
throwaway PostgreSQL server of :mod:`tests.pg` (fixtures ``postgres_server``, ``postgres_dsn``), and
``own_folder``, a folder of its own to run in."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pg import postgres_dsn, postgres_server  # noqa: F401  (a throwaway PostgreSQL server, for any test)

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
"""The suite's own data, copied from the project's shared references (``tests/data/README.md``)."""


@pytest.fixture
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test runs in a folder of its own: a call given a file name (a hostile string, say) writes it
    there, not in the checkout."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
