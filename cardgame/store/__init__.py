"""Crash-safe table logs in SQLite or PostgreSQL, queries over them, and recovery of a table after a crash.

``EventStore(path)`` holds any number of tables. ``store.record(game, "table-1")`` hooks into
the game and writes every event as it happens, one transaction per event; ``recover(store,
"table-1", no_limit_holdem(1, 2))`` rebuilds the table from the log after a crash, voiding the
hand that was interrupted. Event payloads are the JSON of :mod:`cardgame.store.serialize` (cards as
text, a ``"type"`` tag); times are wall-clock seconds since the epoch (``time.time()``).

PostgreSQL (extra ``cardgame[postgres]``, psycopg 3): ``EventStore("postgresql://user@host:5432/db")``
(or ``postgres://``; a password in the URI never shows in ``store.path`` or messages) keeps the
same tables in a PostgreSQL database, so several processes can share one store; anything else is
an SQLite file's path. The recorder, queries, exports and recovery are the same code on both.
Each table is driven by one process at a time: processes recording different tables write side by
side, while two recorders of one table collide on its ``(table_id, seq)`` key, and the one that
loses the race gets a :class:`StoreError` and detaches. A lost connection fails the write or read
under way, and the next one connects again. Without psycopg, opening a URI raises
:class:`StoreError` saying ``pip install cardgame[postgres]``.

Other modules may keep their own tables in the store's database: write inside ``with
store.transaction() as db:`` (``db.execute(sql, params)``, ``db.executemany``; committed at the
end of the block, rolled back on any error, a database error raising :class:`StoreError`) and
read with ``store.query(sql, params)``. The SQL both backends run alike:

* ``?`` placeholders only; text in single quotes (``''`` for a quote, no backslash escapes);
* ``CREATE TABLE IF NOT EXISTS`` / ``CREATE INDEX IF NOT EXISTS`` with the types ``TEXT``,
  ``BIGINT`` and ``DOUBLE PRECISION`` (PostgreSQL's ``INTEGER`` is 32-bit and ``REAL`` 4 bytes),
  ``PRIMARY KEY``, ``UNIQUE``, ``NOT NULL``, ``DEFAULT`` constants, ``CHECK``, ``REFERENCES``;
  no ``AUTOINCREMENT``/``SERIAL`` (choose the keys), no booleans (SQLite returns 0 and 1);
* ``INSERT``, ``INSERT ... ON CONFLICT (key) DO NOTHING`` or ``DO UPDATE SET c = excluded.c``,
  ``UPDATE``, ``DELETE``, ``SELECT`` with joins, ``count``/``max``/``min``/``sum``/``coalesce``,
  ``||``, ``LIKE`` (case-sensitive on PostgreSQL; SQLite ignores the case of ASCII letters);
* rows come back as tuples of ``str``, ``int``, ``float`` and ``None``; text holds no NUL
  character (PostgreSQL refuses it), and ``ORDER BY`` on text follows the database's collation
  on PostgreSQL (the store's own key columns are ``COLLATE "C"``, SQLite's order);
* a write from several processes is one statement (``SET n = n + 1``, an upsert), or a row only
  one process writes: PostgreSQL runs transactions at read committed, SQLite one writer at a time.

One idea per module:

* :mod:`~cardgame.store.backend`: the seam: what the store asks of a connection and a database;
* :mod:`~cardgame.store.schema`: the SQLite tables, the schema version, opening a file;
* :mod:`~cardgame.store.postgres`: the same on PostgreSQL;
* :mod:`~cardgame.store.connection`: an open store, its transactions and queries, on either;
* :mod:`~cardgame.store.database`: :class:`EventStore`, the connection and its methods;
* :mod:`~cardgame.store.recorder`: the listener that writes events as a game runs;
* :mod:`~cardgame.store.queries`: reading tables, hands and events back;
* :mod:`~cardgame.store.export`: PHH text of finished hands (kept by the recorder, or made from the
  stored events when asked for: :meth:`EventStore.hand_phh`), JSON lines;
* :mod:`~cardgame.store.lease`: a name held by one live process (a server's ``--name``);
* :mod:`~cardgame.store.recovery`: replaying a log and resuming a table after a crash;
* :mod:`~cardgame.store.errors`: :class:`StoreError`.

The schema is described in :mod:`cardgame.store.schema`.
"""

from __future__ import annotations

from cardgame.store.database import EventStore
from cardgame.store.errors import StoreError
from cardgame.store.export import PhhWriter, default_phh_writer
from cardgame.store.queries import HandRecord, StoredEvent, TableInfo
from cardgame.store.recorder import HandVoided, Recorder, TableState
from cardgame.store.recovery import SeatState, TableLog, recover, replay_log
from cardgame.store.schema import SCHEMA_VERSION

__all__ = [
    "SCHEMA_VERSION",
    "EventStore",
    "HandRecord",
    "HandVoided",
    "PhhWriter",
    "Recorder",
    "SeatState",
    "StoreError",
    "StoredEvent",
    "TableInfo",
    "TableLog",
    "TableState",
    "default_phh_writer",
    "recover",
    "replay_log",
]
