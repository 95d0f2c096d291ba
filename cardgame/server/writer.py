"""The server's store work on a thread of its own, so no write or read of the database blocks the
event loop.

:class:`StoreWriter` runs what it is given one at a time, in order, on one thread (an SQLite
connection belongs to the thread that opened it, so the store is opened there too). A server
hands it the rows of every table that has new events at once (:meth:`StoreWriter.write_group`):
they are committed in one transaction (a group commit), with the server's lease checked and
renewed in it (:meth:`cardgame.store.lease.Lease.renew`). An SQLite store's write-ahead log is copied
into its file on a second thread (:meth:`StoreWriter.checkpoints`), so no commit waits for that.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.lease import Lease
from cardgame.store.recorder import Row
from cardgame.store.schema import SqliteDatabase

__all__ = ["StoreWriter"]

T = TypeVar("T")

#: Seconds between two copies of an SQLite store's write-ahead log into its file (:meth:`StoreWriter.checkpoints`):
#: a busy store fills its log (10,000 pages) in a few seconds, so each copy is small, and the commit that
#: fills it finds little left to copy (a load of 60-row commits: the slowest of 2,800 commits 88 ms to 48 ms).
#: A copy writes each page once however often commits rewrote it since the last: at 200 tables every table's
#: newest page is rewritten several times a second, and copying every 0.5 s rather than 0.2 s took the copying
#: thread from 5-7 % of the server's CPU to 3 %.
CHECKPOINT_INTERVAL = 0.5

#: What :meth:`StoreWriter.write_group` is told when it is done: each write's exception, or ``None``.
Done = Callable[[list[BaseException | None]], None]


class StoreWriter:
    """One thread doing a server's store work in order: :meth:`run` a function there, :meth:`write` rows,
    :meth:`write_group` several tables' rows together."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="cardgame-store", daemon=True)
        self._thread.start()
        self._stop_checkpoints = threading.Event()
        self._checkpoints: threading.Thread | None = None

    def checkpoints(self, store: StoreFile, interval: float = CHECKPOINT_INTERVAL) -> None:
        """Copy ``store``'s write-ahead log into its file every ``interval`` seconds on a thread of its own
        (an SQLite store; nothing for PostgreSQL), so that the commit that fills the log copies only what
        came since (SQLite's own checkpoint, run by that commit, would hold every table's write up for
        the whole copy). Until :meth:`close`; a failed copy is tried again at the next."""
        database = store.database
        if self._checkpoints is not None or not isinstance(database, SqliteDatabase):
            return

        def work() -> None:
            try:
                checkpointer = database.checkpointer()
            except StoreError:  # SQLite's own checkpoints go on
                return
            try:
                while not self._stop_checkpoints.wait(interval):
                    with contextlib.suppress(StoreError):  # busy (another process copies), or a disk's hiccup
                        checkpointer()
            finally:
                checkpointer.close()

        self._checkpoints = threading.Thread(target=work, name="cardgame-checkpoint", daemon=True)
        self._checkpoints.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store's thread; its result (or its exception)."""
        future: Future[T] = Future()

        def job() -> None:
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as exc:  # handed to the awaiting coroutine
                    future.set_exception(exc)

        self._jobs.put(job)
        return await asyncio.wrap_future(future)

    async def write(self, store: StoreFile, lease: Lease | None, rows: Sequence[Row]) -> None:
        """Write ``rows`` in one transaction, checking ``lease``; :class:`~cardgame.store.StoreError`
        if it fails (nothing of them is written)."""
        await self.run(write, store, lease, [rows])

    def write_group(self, store: StoreFile, lease: Lease | None, groups: Sequence[Sequence[Row]], done: Done) -> None:
        """Write each of ``groups`` (one table's rows each), all in one transaction when they can be,
        then call ``done`` (on the store's thread) with each one's exception or ``None``. If the
        transaction fails on a constraint (one table's rows refused) each is tried alone."""

        def job() -> None:
            try:
                write(store, lease, groups)
            except Exception as exc:
                if len(groups) == 1 or "constraint" not in str(exc).lower():
                    done([exc] * len(groups))
                    return
                errors: list[BaseException | None] = []
                for rows in groups:
                    try:
                        write(store, lease, [rows])
                    except Exception as one:
                        errors.append(one)
                    else:
                        errors.append(None)
                done(errors)
                return
            done([None] * len(groups))

        self._jobs.put(job)

    def close(self) -> None:
        """Finish the work queued, then stop the threads."""
        self._stop_checkpoints.set()
        if self._checkpoints is not None:
            self._checkpoints.join(timeout=30)
        self._jobs.put(None)
        self._thread.join(timeout=30)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            with contextlib.suppress(Exception):  # a job reports its own failures; nothing may stop the thread
                job()


def write(store: StoreFile, lease: Lease | None, groups: Sequence[Sequence[Row]]) -> None:
    """Write every row of ``groups`` in one transaction of ``store`` (:meth:`StoreFile.write
    <cardgame.store.connection.StoreFile.write>`), checking ``lease`` in it."""
    store.write(itertools.chain.from_iterable(groups), None if lease is None else lease.renew)
