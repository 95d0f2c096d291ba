"""The event store's SQLite schema: its tables and indexes, its version, and opening a file with it
(:class:`SqliteDatabase`, the SQLite backend; :mod:`cardgame.store.postgres` is the PostgreSQL one).

Schema (``PRAGMA user_version`` = :data:`SCHEMA_VERSION`; there are no migrations yet: a file of
another version is refused):

* ``tables(table_id, created, seat_count, min_buy_in, max_buy_in, first_button)``
* ``events(table_id, seq, hand, time, kind, seat, payload)``: ``seq`` counts from 0 per table;
  ``hand`` is the hand in progress (null between hands), ``seat`` the event's seat if it has one,
  ``kind`` the event's ``kind`` (``"action"``, ``"hand started"``...), ``payload`` its JSON. Indexed
  by the hands' starts (``events_hand_starts``: the ``hand started`` rows alone, so a commit writes no index
  page for its other rows); a hand's events lie from its start to a later hand's. A store made before has
  ``events_by_hand``, every row by hand, instead: it reads and records the same.
* ``hands(table_id, hand, started, ended, status, players, final_stacks, phh)``: ``status`` is
  playing, complete or voided; ``players`` JSON ``[[seat, name, starting stack], ...]``;
  ``final_stacks`` JSON ``[[seat, stack], ...]`` from ``HandEnded``; ``phh`` the finished hand as
  PHH text, or null (see :meth:`EventStore.record`).
* ``hand_players(table_id, hand, seat, name)``: an index for "the hands of this player".
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any, Literal

from cardgame.model.inputs import excerpt
from cardgame.store.backend import reason
from cardgame.store.errors import StoreError

__all__ = ["SCHEMA_SQL", "SCHEMA_VERSION", "NotText", "SqliteDatabase", "open_database", "read_text", "transaction"]

#: The schema version this module writes and reads (``PRAGMA user_version``).
SCHEMA_VERSION = 1

SCHEMA_SQL = """
CREATE TABLE tables (
    table_id     TEXT PRIMARY KEY,
    created      REAL NOT NULL,
    seat_count   INTEGER NOT NULL,
    min_buy_in   INTEGER NOT NULL,
    max_buy_in   INTEGER NOT NULL,
    first_button INTEGER
);
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    seq      INTEGER NOT NULL,
    hand     INTEGER,
    time     REAL NOT NULL,
    kind     TEXT NOT NULL,
    seat     INTEGER,
    payload  TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE INDEX events_hand_starts ON events(table_id, hand) WHERE kind = 'hand started';
CREATE TABLE hands (
    table_id     TEXT NOT NULL REFERENCES tables(table_id),
    hand         INTEGER NOT NULL,
    started      REAL NOT NULL,
    ended        REAL,
    status       TEXT NOT NULL CHECK (status IN ('playing', 'complete', 'voided')),
    players      TEXT NOT NULL,
    final_stacks TEXT,
    phh          TEXT,
    PRIMARY KEY (table_id, hand)
);
CREATE INDEX hands_by_start ON hands(started);
CREATE TABLE hand_players (
    table_id TEXT NOT NULL,
    hand     INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, seat),
    FOREIGN KEY (table_id, hand) REFERENCES hands(table_id, hand)
);
CREATE INDEX hand_players_by_name ON hand_players(name);
"""


#: The most memory (KiB) SQLite's page cache of a store may take: each table a server records writes
#: into pages of its own (a leaf of the log and one of its index); SQLite's default of 2 MiB holds those of
#: about a hundred tables, past which commits read pages back (200 tables: 53 against 40 µs of writing a
#: decision with 4 MiB or more). 8 MiB holds some 400 tables' and is what it costs at most.
CACHE_KIB = 8_192

#: The write-ahead log is copied into the database file once it holds this many pages (40 MB at 4 KB;
#: SQLite's default is 1,000): a table server rewrites the same pages commit after commit, so a rarer
#: checkpoint copies each once for many commits. It changes nothing of durability: a commit is in the log.
#: Such a checkpoint, run by the commit that crosses the mark, takes some 100 ms, for which no other commit
#: can go: a server copies the log on a thread of its own instead (:class:`Checkpointer`), and the commit
#: crossing the mark then copies only what came since that thread's last copy.
CHECKPOINT_PAGES = 10_000


class NotText(bytes):
    """The bytes of a text column that are not UTF-8 (a corrupt store); the row checks refuse them."""


def read_text(data: bytes) -> str | NotText:
    """The connection's ``text_factory``: UTF-8 text, or :class:`NotText` for a row check to refuse
    (never a ``UnicodeDecodeError`` from inside SQLite's cursor)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return NotText(data)


class transaction:
    """``BEGIN IMMEDIATE`` .. ``COMMIT`` on ``db`` (opened in autocommit mode); rolls back on any error.
    (A class rather than a generator: entered for every write, it costs a third of one.)"""

    __slots__ = ("db",)

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is not None:
            self.db.execute("ROLLBACK")
            return
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error:
            if self.db.in_transaction:  # a commit that failed (busy) leaves it open: the next would fail too
                self.db.execute("ROLLBACK")
            raise


def _wal_mode(db: sqlite3.Connection, timeout: float) -> None:
    """Put ``db`` in WAL mode. Connections switching a new file at once get SQLITE_BUSY without
    waiting (the busy timeout does not cover it): retry until ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def open_database(path: str, synchronous: Literal["FULL", "NORMAL"], timeout: float) -> sqlite3.Connection:
    """Open (creating the schema in an empty file) the event store at ``path``, in WAL mode.

    Raises :class:`StoreError` for a file that is not an SQLite database, an SQLite database
    that is not an event store, or an event store of another schema version.
    """
    if synchronous not in ("FULL", "NORMAL"):
        raise StoreError(f"synchronous must be 'FULL' or 'NORMAL', not {excerpt(synchronous)}.")
    try:
        db = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    except (sqlite3.Error, UnicodeError, ValueError) as exc:  # a path that is not UTF-8, or too long
        raise StoreError(f"Cannot open the event store {excerpt(path)}: {reason(exc)}.") from None
    db.text_factory = read_text
    try:
        _wal_mode(db, timeout)
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        db.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")
        db.execute("PRAGMA foreign_keys=ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if type(version) is not int:
            raise StoreError(f"{excerpt(path)} is not a readable event store: its schema version is "
                             f"{excerpt(version)}.")
        if version == 0:
            with transaction(db):
                version = db.execute("PRAGMA user_version").fetchone()[0]  # another process?
                if version == 0:
                    if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                        raise StoreError(f"{excerpt(path)} is an SQLite database but not an event store "
                                         "(it has tables and no store schema version).")
                    for statement in SCHEMA_SQL.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                    version = SCHEMA_VERSION
        if version != SCHEMA_VERSION:
            raise StoreError(f"{excerpt(path)} has event store schema version {version}; this library reads "
                             f"version {SCHEMA_VERSION}.")
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # a corrupt file's message may not be UTF-8
        db.close()
        raise StoreError(f"{excerpt(path)} is not a readable event store: {reason(exc)}.") from None
    except StoreError:
        db.close()
        raise
    return db


class Checkpointer:
    """A connection of its own to the SQLite store at ``path`` that copies its write-ahead log into the
    file (a ``PASSIVE`` checkpoint: commits go on meanwhile, on the writer's connection), for a thread
    other than the writer's to call, so that no commit waits for a checkpoint. Calling it (on any one
    thread at a time) runs one checkpoint and gives SQLite's ``(busy, frames in the log, frames copied)``;
    :class:`StoreError` if it cannot open the file or the checkpoint fails."""

    def __init__(self, path: str, timeout: float) -> None:
        try:
            self.connection = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except (sqlite3.Error, UnicodeError, ValueError, TypeError, OverflowError) as exc:
            raise StoreError(f"Cannot open the event store {excerpt(path)}: {reason(exc)}.") from None
        self.path = path

    def __call__(self) -> tuple[int, int, int]:
        try:
            busy, frames, copied = self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"Checkpointing the event store {excerpt(self.path)} failed: {reason(exc)}.") from None
        return busy, frames, copied

    def close(self) -> None:
        """Close its connection."""
        self.connection.close()


class SqliteDatabase:
    """The SQLite backend (a :class:`~cardgame.store.backend.Database`): one file, opened by
    :func:`open_database`; its ``sqlite3.Connection`` is the store's connection as it is."""

    #: A corrupt file's message may not be UTF-8; text with a lone surrogate cannot be written.
    errors: tuple[type[Exception], ...] = (sqlite3.Error, UnicodeError)

    def __init__(self, path: str, synchronous: Literal["FULL", "NORMAL"], timeout: float) -> None:
        self.name = path
        self.timeout = timeout
        self.connection = open_database(path, synchronous, timeout)

    def checkpointer(self) -> Checkpointer:
        """A :class:`Checkpointer` of this file, for another thread to copy its log into it."""
        return Checkpointer(self.name, self.timeout)

    def transaction(self) -> transaction:
        """``BEGIN IMMEDIATE`` .. ``COMMIT``, rolled back on any error."""
        return transaction(self.connection)

    def query(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows ``sql`` selects."""
        return self.connection.execute(sql, params).fetchall()

    def close(self) -> None:
        """Close the file."""
        self.connection.close()
