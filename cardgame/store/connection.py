"""An open event-store file: its path, its write transactions and its queries.

:class:`StoreFile` is the plumbing the store's modules share: the recorder writes through
:meth:`~StoreFile.transaction`, the queries and exports read through :meth:`~StoreFile.query`,
and :class:`~cardgame.store.database.EventStore` builds on it, offering them as methods. It sits
below them all, so none of them imports the one above.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any, Literal, Self

from cardgame.store.errors import StoreError
from cardgame.store.schema import open_database, transaction

__all__ = ["StoreFile"]


class StoreFile:
    """An SQLite file with the store's schema, open (see :class:`~cardgame.store.EventStore` for
    ``synchronous`` and durability)."""

    def __init__(self, path: str | os.PathLike[str], *, synchronous: Literal["FULL", "NORMAL"] = "FULL",
                 timeout: float = 10.0) -> None:
        self.path = os.fspath(path)
        self._db = open_database(self.path, synchronous, timeout)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` .. ``COMMIT``, rolled back on any error)."""
        with transaction(self._db) as db:
            yield db

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows ``sql`` selects; :class:`StoreError` if SQLite fails."""
        try:
            return self._db.execute(sql, params).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # a corrupt file's message may not be UTF-8
            raise StoreError(f"Reading the event store {self.path!r} failed: {exc}.") from None

    def close(self) -> None:
        """Close the database (recorders writing to it must be detached first)."""
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
