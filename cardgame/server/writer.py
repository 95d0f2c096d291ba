"""The server's store work on a thread of its own, so no write or read of the database blocks the
event loop.

:class:`StoreWriter` runs what it is given one at a time, in order, on one thread (an SQLite
connection belongs to the thread that opened it, so the store is opened there too). Writes of
several tables waiting together are committed in one transaction (a group commit: one fsync for
all), with the server's lease checked and renewed in it (:meth:`cardgame.store.lease.Lease.renew`).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.lease import Lease
from cardgame.store.recorder import Row

__all__ = ["StoreWriter"]

T = TypeVar("T")

#: The most tables' writes committed in one transaction.
GROUP = 64


class _Write:
    __slots__ = ("future", "lease", "rows", "store")

    def __init__(self, store: StoreFile, lease: Lease | None, rows: Sequence[Row]) -> None:
        self.store, self.lease, self.rows = store, lease, rows
        self.future: Future[None] = Future()


class StoreWriter:
    """One thread doing a server's store work in order: :meth:`run` a function there, :meth:`write` rows."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="cardgame-store", daemon=True)
        self._thread.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store's thread; its result (or its exception)."""
        future: Future[T] = Future()
        self._jobs.put((future, fn, args))
        return await asyncio.wrap_future(future)

    async def write(self, store: StoreFile, lease: Lease | None, rows: Sequence[Row]) -> None:
        """Write ``rows`` in one transaction (with others waiting, as one group), checking ``lease``;
        :class:`StoreError` if it fails (nothing of them is written)."""
        job = _Write(store, lease, rows)
        self._jobs.put(job)
        await asyncio.wrap_future(job.future)

    def close(self) -> None:
        """Finish the work queued, then stop the thread."""
        self._jobs.put(None)
        self._thread.join(timeout=30)

    def _work(self) -> None:
        following: Any = None
        while True:
            job = following if following is not None else self._jobs.get()
            following = None
            if job is None:
                return
            if not isinstance(job, _Write):
                future, fn, args = job
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(fn(*args))
                    except BaseException as exc:  # handed to the awaiting coroutine
                        future.set_exception(exc)
                continue
            group = [job]
            while len(group) < GROUP:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if isinstance(more, _Write) and more.store is job.store and more.lease is job.lease:
                    group.append(more)
                else:
                    following = more
                    break
            self._commit(group)

    @staticmethod
    def _commit(group: list[_Write]) -> None:
        try:
            _write(group)
        except Exception as exc:  # a StoreError; anything else is handed on too, never kills the thread
            if len(group) == 1 or not isinstance(exc, StoreError) or "constraint" not in str(exc).lower():
                for job in group:  # the store fails (locked, lost): every write of the group does
                    job.future.set_exception(exc)
                return
            for job in group:  # one table's rows are refused: the others are written without them
                try:
                    _write([job])
                except Exception as one:
                    job.future.set_exception(one)
                else:
                    job.future.set_result(None)
            return
        for job in group:
            job.future.set_result(None)


def _write(group: list[_Write]) -> None:
    first = group[0]
    with first.store.transaction() as db:
        if first.lease is not None:
            first.lease.renew(db)
        for job in group:
            for sql, params in job.rows:
                db.execute(sql, params)
