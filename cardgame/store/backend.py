"""The seam between the store and its database: the little the store's modules ask of a connection.

The recorder, the queries, the exports and recovery are written once, against :class:`Connection`
(what :meth:`StoreFile.transaction <cardgame.store.connection.StoreFile.transaction>` yields) and
:meth:`StoreFile.query <cardgame.store.connection.StoreFile.query>`. Each backend is a
:class:`Database`: SQLite in :mod:`cardgame.store.schema` (an ``sqlite3.Connection`` is a
:class:`Connection` as it is) and PostgreSQL in :mod:`cardgame.store.postgres` (a wrapper over
psycopg 3 that takes the same ``?`` placeholders).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

__all__ = ["Connection", "Cursor", "Database", "Row", "reason"]

#: One statement of a write: its SQL (``?`` placeholders) and parameters.
Row = tuple[str, tuple[Any, ...]]


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


def reason(exc: BaseException) -> str:
    """A database error's message on one line, without its final full stop (libpq's span lines), cut to
    200 characters (SQLite quotes the SQL it could not read)."""
    text = " ".join(str(exc).split()).rstrip(".") or type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "..."
