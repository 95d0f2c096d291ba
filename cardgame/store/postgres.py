"""The event store on PostgreSQL (extra ``cardgame[postgres]``: psycopg 3), for several processes
sharing one database.

:class:`PostgresDatabase` is the PostgreSQL backend (a :class:`~cardgame.store.backend.Database`):
``EventStore("postgresql://user@host:5432/db")`` opens one. Its connection takes the store's SQL
as it is: ``?`` placeholders become psycopg's ``%s`` (:func:`translate`). The schema is the SQLite
one (:mod:`cardgame.store.schema`) in PostgreSQL's dialect: ``DOUBLE PRECISION`` times, ``BIGINT``
whole numbers (SQLite's are 64-bit too), ``COLLATE "C"`` text keys (so names sort by code point,
as in SQLite), and the schema version in the one-row table ``store_meta`` instead of ``PRAGMA
user_version``. The store's tables go into the connection's current schema (the first of its
``search_path``, ``public`` by default): an empty one gets them (one process creates them while
the others wait), one with other tables and no store is refused, as an SQLite file is.

``synchronous="FULL"`` keeps PostgreSQL's ``synchronous_commit`` on (a commit returns once its WAL
is flushed); ``"NORMAL"`` turns it off for the connection (a server crash may lose the last
commits, never half of one). ``timeout`` bounds connecting and each wait for a lock.
A lost connection fails the write or read under way (:class:`~cardgame.store.StoreError`; a
recorder detaches), and the next one connects again.
PostgreSQL text holds no NUL character: a table id with one is refused on both backends, and a
player named with one cannot be recorded here (the write raises ``StoreError``).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from cardgame.model.inputs import excerpt
from cardgame.store.backend import Connection, Cursor, reason
from cardgame.store.errors import StoreError
from cardgame.store.schema import SCHEMA_SQL, SCHEMA_VERSION

if TYPE_CHECKING:
    import psycopg

__all__ = ["DSN_PREFIXES", "PostgresConnection", "PostgresDatabase", "is_dsn", "redact", "translate"]

#: A store location starting with one of these is a PostgreSQL connection URI, not a file.
DSN_PREFIXES = ("postgresql://", "postgres://")

def postgres_schema(sqlite: str) -> str:
    """The store's SQLite schema in PostgreSQL's dialect: 64-bit integers, double-precision reals, no
    ``WITHOUT ROWID``, and ids and names compared byte by byte (``COLLATE "C"``) as SQLite does."""
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sqlite)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    sql = sql.replace(") WITHOUT ROWID;", ");")
    return re.sub(r"^(\s*(?:table_id|name)\s+)TEXT\b", r'\1TEXT COLLATE "C"', sql, flags=re.MULTILINE)


_SCHEMA = f"""
CREATE TABLE store_meta (
    schema_version INTEGER NOT NULL
);
INSERT INTO store_meta VALUES ({SCHEMA_VERSION});
{postgres_schema(SCHEMA_SQL)}"""

#: The advisory lock that makes creating the schema one process's job (any fixed 64-bit key).
_SCHEMA_LOCK = 0x63617264_73746F72  # "cardstor"

# Quoted text, quoted names and comments are copied (a ``?`` there is no placeholder); ``%`` is
# doubled everywhere, since psycopg reads ``%`` as the start of a placeholder even inside quotes.
_TOKENS = re.compile(r"'[^']*'|\"[^\"]*\"|--[^\n]*|/\*.*?\*/|\?|%", re.DOTALL)


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """``sql`` with the store's ``?`` placeholders as psycopg's ``%s`` (and ``%`` as ``%%``)."""
    return _TOKENS.sub(lambda m: "%s" if m.group() == "?" else m.group().replace("%", "%%"), sql)


def is_dsn(location: str) -> bool:
    """Whether a store location is a PostgreSQL connection URI rather than a file's path."""
    return location.startswith(DSN_PREFIXES)


def redact(dsn: str) -> str:
    """``dsn`` with any password replaced by ``***`` (how messages and ``EventStore.path`` show it)."""
    dsn = re.sub(r"^([a-z]+://[^:/@?]*:)[^@/?]*@", r"\1***@", dsn)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", dsn)


class PostgresConnection:
    """A psycopg connection as the store's :class:`~cardgame.store.backend.Connection`: the same
    SQL with ``?`` placeholders, rows as tuples."""

    def __init__(self, connection: psycopg.Connection[tuple[Any, ...]]) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        """Run one statement (``?`` placeholders)."""
        return self.connection.execute(translate(sql), tuple(parameters))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> object:
        """Run one statement for each parameter sequence."""
        with self.connection.cursor() as cursor:
            cursor.executemany(translate(sql), [tuple(p) for p in parameters])
        return None


class PostgresDatabase:
    """The PostgreSQL backend: one connection (autocommit between the store's transactions),
    with the store's schema created in an empty database, checked in one that has it.

    :class:`StoreError` for a bad DSN, a server that cannot be reached or refuses the login, a
    database with tables but no store in it, a store of another schema version, and without psycopg.
    """

    def __init__(self, dsn: str, synchronous: Literal["FULL", "NORMAL"], timeout: float) -> None:
        self.name = redact(dsn)
        try:
            import psycopg
        except ImportError as exc:
            raise StoreError(f"The event store {excerpt(self.name)} is a PostgreSQL database, which needs psycopg 3 "
                             f"({exc}): pip install cardgame[postgres].") from None
        #: Text that cannot be encoded (a lone surrogate) raises UnicodeEncodeError.
        self.errors: tuple[type[Exception], ...] = (psycopg.Error, UnicodeError)
        self._dsn, self._synchronous, self._timeout = dsn, synchronous, timeout
        self._closed = False  # by close(): no reconnecting then
        self._connect()
        try:
            self._check_schema()
        except (psycopg.Error, StoreError) as exc:
            self.connection.connection.close()
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"{excerpt(self.name)} is not a usable event store: {reason(exc)}.") from None

    def _connect(self) -> None:
        """Open the connection (again, after a lost one), with the store's settings."""
        import psycopg

        try:
            connection = psycopg.connect(self._dsn, autocommit=True, connect_timeout=max(2, math.ceil(self._timeout)))
        except psycopg.Error as exc:
            raise StoreError(f"Cannot connect to the event store {excerpt(self.name)}: {reason(exc)}.") from None
        self.connection = PostgresConnection(connection)
        try:
            connection.execute("SET client_encoding = 'UTF8'")
            connection.execute("SELECT set_config('synchronous_commit', %s, false), "
                               "set_config('lock_timeout', %s, false)",
                               ("on" if self._synchronous == "FULL" else "off", f"{math.ceil(self._timeout * 1000)}ms"))
        except psycopg.Error as exc:
            connection.close()
            raise StoreError(f"{excerpt(self.name)} is not a usable event store: {reason(exc)}.") from None

    def _live(self) -> PostgresConnection:
        """The connection, made again if the last one was lost (the database restarted, the network
        dropped it): a lost connection fails the write or read it happened in, and the next one reconnects."""
        db = self.connection.connection
        if (db.closed or db.broken) and not self._closed:
            db.close()
            self._connect()
        return self.connection

    def _check_schema(self) -> None:
        """Create the schema in a database without it (one process at a time), check its version."""
        db = self.connection.connection
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            found = sorted(r[0] for r in db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"))
            if "store_meta" not in found:
                if found:
                    shown = ", ".join(found[:5]) + (", ..." if len(found) > 5 else "")
                    raise StoreError(f"{excerpt(self.name)} is a PostgreSQL database but not an event store (it has "
                                     f"tables, {shown}, and no store_meta); give the store an empty database or "
                                     "schema.")
                db.execute(_SCHEMA)  # several statements: no parameters, so the simple query protocol
            versions = db.execute("SELECT schema_version FROM store_meta").fetchall()
        if len(versions) != 1:
            raise StoreError(f"{excerpt(self.name)} is not a readable event store: store_meta has {len(versions)} "
                             "rows, not one.")
        version = versions[0][0]
        if version != SCHEMA_VERSION:
            raise StoreError(f"{excerpt(self.name)} has event store schema version {version}; this library reads "
                             f"version {SCHEMA_VERSION}.")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """``BEGIN`` .. ``COMMIT`` (read committed), rolled back on any error."""
        connection = self._live()
        with connection.connection.transaction():
            yield connection

    def query(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows ``sql`` selects (``?`` placeholders)."""
        return self._live().execute(sql, params).fetchall()

    def close(self) -> None:
        """Close the connection."""
        self._closed = True
        self.connection.connection.close()
