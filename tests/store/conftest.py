"""The store's tests run on both backends: ``store_location`` is an SQLite file's path or a new
PostgreSQL database's URI (those skip where no PostgreSQL server can start, see :mod:`tests.pg`),
and ``store`` is an :class:`~cardgame.store.EventStore` open on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardgame.store import EventStore


@pytest.fixture(params=["sqlite", "postgresql"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tables.db")
    return str(request.getfixturevalue("postgres_dsn"))


@pytest.fixture
def store(store_location: str) -> Iterator[EventStore]:
    s = EventStore(store_location)
    yield s
    s.close()
