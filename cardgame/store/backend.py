"""The seam between the store and its database: the little the store's modules ask of a connection.

The recorder, the queries, the exports and recovery are written once, against :class:`Connection`
(what :meth:`StoreFile.transaction <cardgame.store.connection.StoreFile.transaction>` yields) and
:meth:`StoreFile.query <cardgame.store.connection.StoreFile.query>`. Each backend is a
:class:`Database`: SQLite in :mod:`cardgame.store.schema` (an ``sqlite3.Connection`` is a
:class:`Connection` as it is) and PostgreSQL in :mod:`cardgame.store.postgres` (a wrapper over
psycopg 3 that takes the same ``?`` placeholders).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import lru_cache
from itertools import chain, groupby
from operator import itemgetter
from typing import Any, Protocol

__all__ = ["Connection", "Cursor", "Database", "Row", "merged", "reason"]

#: One statement of a write: its SQL (``?`` placeholders) and parameters.
Row = tuple[str, tuple[Any, ...]]

#: The most rows :func:`merged` puts in one statement (7 parameters an event row: under SQLite's oldest
#: limit of 999 parameters a statement).
MERGED_ROWS = 100

#: An ``INSERT`` of one row of values, which :func:`merged` can repeat: its head and its values.
_INSERT = re.compile(r"(INSERT INTO \w+ (?:\([\w, ]+\) )?VALUES )(\([^()']*(?:'\w+'[^()']*)*\))")


class Cursor(Protocol):
    """The result of :meth:`Connection.execute`: its rows as tuples."""

    def fetchone(self) -> Any:
        """The next row, or ``None``."""

    def fetchall(self) -> list[Any]:
        """The remaining rows."""


class Connection(Protocol):
    """A connection inside a write transaction, with ``?`` placeholders."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor:
        """Run one statement."""

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> object:
        """Run one statement for each parameter sequence."""


class Database(Protocol):
    """An open backend: what :class:`~cardgame.store.connection.StoreFile` builds on."""

    #: How messages name the database: a file's path, or a DSN without its password.
    name: str
    #: The exceptions the database raises (the store turns them into :class:`~cardgame.store.StoreError`).
    errors: tuple[type[Exception], ...]

    def transaction(self) -> AbstractContextManager[Connection]:
        """A write transaction, committed at the end of the block, rolled back on any error."""

    def query(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows ``sql`` selects, outside any write transaction."""

    def close(self) -> None:
        """Close the connection."""


@lru_cache(maxsize=256)
def _values(sql: str) -> str | None:
    """The values group of ``sql`` if it is an ``INSERT`` of one row and nothing more, else ``None``."""
    match = _INSERT.fullmatch(sql)
    return None if match is None else match[2]


@lru_cache(maxsize=1024)
def _repeated(sql: str, values: str, count: int) -> str:
    return sql + (", " + values) * (count - 1)


def merged(rows: Iterable[Row]) -> Iterator[Row]:
    """``rows`` with each run of the same one-row ``INSERT ... VALUES (...)`` as one statement inserting
    them all (up to :data:`MERGED_ROWS`): the same rows in the same order, in fewer statements (each
    statement costs a call into the database, and a thread writing gives up Python's lock for each)."""
    for sql, run in groupby(rows, itemgetter(0)):
        params = list(map(itemgetter(1), run))
        values = _values(sql) if len(params) > 1 else None
        if values is None:
            for p in params:
                yield sql, p
            continue
        for start in range(0, len(params), MERGED_ROWS):
            chunk = params[start:start + MERGED_ROWS]
            yield _repeated(sql, values, len(chunk)), tuple(chain.from_iterable(chunk))


def reason(exc: BaseException) -> str:
    """A database error's message on one line, without its final full stop (libpq's span lines), cut to
    200 characters (SQLite quotes the SQL it could not read)."""
    text = " ".join(str(exc).split()).rstrip(".") or type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "..."
