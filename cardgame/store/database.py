"""The store itself: :class:`EventStore`, one SQLite file or PostgreSQL database of table logs and
the way into it.

It is an open store (:class:`~cardgame.store.connection.StoreFile`: the connection, its
transactions and queries) that offers the recorder, the queries and the exports of the other
modules of :mod:`cardgame.store` as methods.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import IO, Any, Literal

from cardgame.model.events import Event
from cardgame.model.inputs import excerpt
from cardgame.play.game import Game
from cardgame.store import export, queries, recorder
from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.export import PhhWriter, default_phh_writer
from cardgame.store.queries import HandRecord, StoredEvent, TableInfo
from cardgame.store.recorder import Recorder

__all__ = ["EventStore"]


class EventStore(StoreFile):
    """An SQLite file of table logs, or a PostgreSQL database when ``path`` is a ``postgresql://``
    (or ``postgres://``) URI (see :mod:`cardgame.store` and :mod:`cardgame.store.postgres`).

    Durability on SQLite: the database runs in WAL mode, and every event is written in its own
    transaction (``BEGIN IMMEDIATE`` .. ``COMMIT``). In WAL mode a commit appends the changed
    pages and then a commit frame to the ``-wal`` file; a process killed at any instant leaves
    either the whole transaction or none of it, because SQLite ignores WAL frames after the last
    complete commit when it next opens the file. So a crash never leaves half an event, and
    readers (queries, exports, another process) never block the writer.

    ``synchronous="FULL"`` (the default) also fsyncs the WAL at each commit, so an event the
    players have seen survives a power cut or an OS crash, not only a killed process; a
    cardroom's ledger of chips needs that. ``"NORMAL"`` skips that fsync (in WAL mode it stays
    safe against a killed process and never corrupts the file, but may lose the last events on
    power loss) and is several times faster: use it for simulations. ``timeout`` is how long a
    write waits for another process's (seconds). The log is copied into the file every 10,000 pages
    (:data:`~cardgame.store.schema.CHECKPOINT_PAGES`; durability does not depend on it).

    On PostgreSQL each event is a transaction too, and PostgreSQL's WAL gives the same
    all-or-nothing commits; ``"FULL"`` keeps ``synchronous_commit`` on, ``"NORMAL"`` turns it off
    for this connection. ``timeout`` bounds connecting and each wait for a lock.
    """

    # --- recording ------------------------------------------------------------------------------
    def record(self, game: Game, table_id: str, *, phh_writer: PhhWriter | Literal["auto"] | None = "auto",
               clock: Callable[[], float] = time.time, batch: bool = False) -> Recorder:
        """Write every event of ``game`` to this store under ``table_id`` from now on.

        Start between hands (before ``start()``, or with no hand in progress). The first write
        is a :class:`TableState` event with the seats as they are, so a game whose players sat
        down before recording, or a game returned by :func:`recover`, has a complete log.
        A table id already in the store continues its log; its configuration must match, and
        its hand numbers must not be reused (recover the table to continue its numbering).

        ``phh_writer`` fills the ``hands.phh`` column of each finished hand: ``"auto"`` uses
        :func:`default_phh_writer` (``cardgame.phh.export.hand_to_phh`` when it exists and PHH has
        a code for the game, else the column stays null), ``None`` leaves it null. A writer that
        raises leaves it null with a warning; the hand is recorded either way.

        ``batch``: keep events until :meth:`Recorder.flush` writes them in one transaction (call
        it before anyone sees them); otherwise each is written as it happens.
        """
        if not isinstance(game, Game):
            raise StoreError(f"record takes a Game, not {excerpt(game)}.")
        if not callable(clock):
            raise StoreError(f"clock must be a function returning epoch seconds, not {excerpt(clock)}.")
        if phh_writer is not None and phh_writer != "auto" and (isinstance(phh_writer, str)
                                                                or not callable(phh_writer)):
            raise StoreError(f"phh_writer must be 'auto', None or a function of a hand's events, not "
                             f"{excerpt(phh_writer)}.")
        info = recorder.check_recordable(self, game, table_id)
        writer = default_phh_writer(game) if phh_writer == "auto" else phh_writer
        return recorder.start_recording(self, game, table_id, info, writer, clock, batch=batch)

    # --- queries ----------------------------------------------------------------------------------
    def table(self, table_id: str) -> TableInfo:
        """The configuration of ``table_id``; :class:`StoreError` lists the known ids if it is absent."""
        return queries.table(self, table_id)

    def tables(self) -> list[TableInfo]:
        """Every recorded table, oldest first."""
        return queries.tables(self)

    def hands(self, table_id: str | None = None, *, player: str | None = None, start: float | datetime | None = None,
              end: float | datetime | None = None, status: str | None = None) -> list[HandRecord]:
        """Hands, oldest first, filtered by table, by a player's name, by start time
        (``start <= started < end``, epoch seconds or aware datetimes) and by status (playing,
        complete, voided)."""
        return queries.hands(self, table_id, player=player, start=start, end=end, status=status)

    def events(self, table_id: str, *, hand: int | None = None) -> list[StoredEvent]:
        """The events of ``table_id`` in order (only those of ``hand`` if given)."""
        return queries.events(self, table_id, hand=hand)

    def hand_events(self, table_id: str, hand: int) -> list[Event]:
        """The events of one hand, ``HandStarted`` first."""
        return [e.event for e in self.events(table_id, hand=hand)]

    # --- export -----------------------------------------------------------------------------------
    def hand_phh(self, table_id: str, hand: int, stages: Sequence[Any]) -> str | None:
        """The PHH text of a finished hand, made from its stored events unless the recorder kept it
        (:func:`cardgame.store.export.hand_phh`; ``stages``: the variant it was played on)."""
        return export.hand_phh(self, table_id, hand, stages)

    def export_jsonl(self, path_or_file: str | os.PathLike[str] | IO[str], table_id: str | None = None) -> int:
        """Write one JSON object per event (all tables, or ``table_id``); returns how many.

        Each line is ``{"table_id", "seq", "hand", "time", "kind", "seat", "event"}`` where
        ``event`` is the tagged payload (cards as text).
        """
        return export.export_jsonl(self, path_or_file, table_id)
