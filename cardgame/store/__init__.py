"""Crash-safe table logs in SQLite, queries over them, and recovery of a table after a crash.

``EventStore(path)`` holds any number of tables. ``store.record(game, "table-1")`` subscribes to
the game and writes every event as it happens, one transaction per event; ``recover(store,
"table-1", no_limit_holdem(1, 2))`` rebuilds the table from the log after a crash, voiding the
hand that was interrupted. Event payloads are the JSON of :mod:`cardgame.store.serialize` (cards as
text, a ``"type"`` tag); times are wall-clock seconds since the epoch (``time.time()``).

One idea per module:

* :mod:`~cardgame.store.schema`: the SQLite tables, the schema version, opening a file;
* :mod:`~cardgame.store.database`: :class:`EventStore`, the connection and its methods;
* :mod:`~cardgame.store.recorder`: the listener that writes events as a game runs;
* :mod:`~cardgame.store.queries`: reading tables, hands and events back;
* :mod:`~cardgame.store.export`: PHH text of finished hands, JSON lines;
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
