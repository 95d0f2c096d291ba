"""An open event store: its database (an SQLite file or a PostgreSQL database), its write
transactions and its queries.

:class:`StoreFile` is the plumbing the store's modules share: the recorder writes through
:meth:`~StoreFile.transaction`, the queries and exports read through :meth:`~StoreFile.query`,
and :class:`~cardgame.store.database.EventStore` builds on it, offering them as methods. It sits
below them all, so none of them imports the one above. Below it is the backend
(:mod:`cardgame.store.backend`): :class:`~cardgame.store.schema.SqliteDatabase` for a path,
:class:`~cardgame.store.postgres.PostgresDatabase` for a ``postgresql://`` (or ``postgres://``) URI.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import groupby
from operator import itemgetter
from typing import Any, Literal, Self

from cardgame.model.inputs import excerpt
from cardgame.store.backend import Connection, Database, Row, reason
from cardgame.store.errors import StoreError
from cardgame.store.postgres import PostgresDatabase, is_dsn
from cardgame.store.schema import SqliteDatabase

__all__ = ["MAX_TIMEOUT", "StoreFile"]

#: The longest a store waits for a lock or a connection (seconds): a day.
MAX_TIMEOUT = 86_400


class StoreFile:
    """An event store, open: an SQLite file, or a PostgreSQL database when ``path`` is a
    ``postgresql://`` URI (see :class:`~cardgame.store.EventStore` for ``synchronous``, ``timeout``
    and durability).

    ``path`` is how messages name the store: the file's path, or the URI without its password.
    """

    def __init__(self, path: str | os.PathLike[str], *, synchronous: Literal["FULL", "NORMAL"] = "FULL",
                 timeout: float = 10.0) -> None:
        location = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
        if not isinstance(location, str) or not location or "\x00" in location:
            raise StoreError(f"An event store is a file's path or a postgresql:// URI (text without NUL), not "
                             f"{excerpt(path)}.")
        if not isinstance(synchronous, str) or synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be 'FULL' or 'NORMAL', not {excerpt(synchronous)}.")
        if type(timeout) not in (int, float) or not 0 < timeout <= MAX_TIMEOUT:  # NaN compares false
            raise StoreError(f"timeout must be a positive number of seconds, at most {MAX_TIMEOUT:,}, not "
                             f"{excerpt(timeout)}.")
        self.database: Database = (PostgresDatabase(location, synchronous, timeout) if is_dsn(location)
                                   else SqliteDatabase(location, synchronous, timeout))
        self.path = self.database.name
        self._write_errors: tuple[type[Exception], ...] = (*self.database.errors, OverflowError)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction: committed at the end of the block, rolled back on any error. An
        error of the database (in the block, or beginning or committing), or a whole number past 64 bits,
        raises :class:`StoreError`."""
        try:
            with self.database.transaction() as db:
                yield db
        except self._write_errors as exc:
            raise StoreError(f"Writing to the event store {excerpt(self.path)} failed: {reason(exc)}.") from exc

    def write(self, rows: Iterable[Row], before: Callable[[Connection], object] | None = None) -> None:
        """Run ``rows`` in one transaction, ``before(db)`` first in it (a lease's check), each run of rows of
        one statement as one ``executemany``: what :meth:`transaction` does, with the least work a row.
        Nothing is written if it fails (:class:`StoreError`, or what ``before`` raised).

        (One ``INSERT`` of many rows of values would call into the database once instead of once a row,
        but SQLite runs it slower than ``executemany``.)"""
        if before is not None and not callable(before):
            raise StoreError(f"before is a function of the connection, or None, not {excerpt(before)}.")
        try:
            with self.database.transaction() as db:
                if before is not None:
                    before(db)
                for sql, run in groupby(rows, itemgetter(0)):
                    params = list(map(itemgetter(1), run))
                    if len(params) == 1:
                        db.execute(sql, params[0])
                    else:
                        db.executemany(sql, params)
        except self._write_errors as exc:
            raise StoreError(f"Writing to the event store {excerpt(self.path)} failed: {reason(exc)}.") from exc
        except (TypeError, ValueError, IndexError, KeyError) as exc:  # rows that are not (SQL, parameters) pairs
            raise StoreError(f"A write takes rows of (SQL text, a tuple of parameters), not {excerpt(rows)} "
                             f"({reason(exc)}); nothing was written.") from None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows ``sql`` selects; :class:`StoreError` if the database fails or refuses a parameter."""
        if not isinstance(sql, str):
            raise StoreError(f"A query is SQL text, not {excerpt(sql)}.")
        errors: tuple[type[Exception], ...] = (*self.database.errors, OverflowError, TypeError, ValueError)
        try:
            return self.database.query(sql, params)
        except errors as exc:
            raise StoreError(f"Reading the event store {excerpt(self.path)} failed: {reason(exc)}.") from None

    def close(self) -> None:
        """Close the database (recorders writing to it must be detached first)."""
        self.database.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
