"""The server's store work on a thread of its own, so no write or read of the database blocks the
event loop.

:class:`StoreWriter` runs what it is given one at a time, in order, on one thread (an SQLite
connection belongs to the thread that opened it, so the store is opened there too). A server
hands it the rows of every table that has new events at once (:meth:`StoreWriter.write_group`):
they are committed in one transaction (a group commit), with the server's lease checked and
renewed in it (:meth:`cardgame.store.lease.Lease.renew`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

from cardgame.store.connection import StoreFile
from cardgame.store.lease import Lease
from cardgame.store.recorder import Row

__all__ = ["StoreWriter"]

T = TypeVar("T")

#: What :meth:`StoreWriter.write_group` is told when it is done: each write's exception, or ``None``.
Done = Callable[[list[BaseException | None]], None]


class StoreWriter:
    """One thread doing a server's store work in order: :meth:`run` a function there, :meth:`write` rows,
    :meth:`write_group` several tables' rows together."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="cardgame-store", daemon=True)
        self._thread.start()

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
        then call ``done`` (on the store's thread) with each one's exception or ``None``. Group writes
        waiting in the queue together are written in one transaction too (a group commit: the busier
        the thread, the more each commit carries). If the transaction fails on a constraint (one
        table's rows refused) each group is tried alone."""
        self._jobs.put(GroupWrite(store, lease, groups, done))

    def close(self) -> None:
        """Finish the work queued, then stop the thread."""
        self._jobs.put(None)
        self._thread.join(timeout=30)

    def _work(self) -> None:
        held: list[Callable[[], None] | None] = []  # a job taken from the queue while merging: the next one
        while (job := held.pop() if held else self._jobs.get()) is not None:
            if isinstance(job, GroupWrite):
                merged = [job]
                while len(merged) < MERGED_WRITES:
                    try:
                        after = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if isinstance(after, GroupWrite) and after.store is job.store and after.lease is job.lease:
                        merged.append(after)
                    else:
                        held.append(after)
                        break
                job = functools.partial(write_groups, merged)
            with contextlib.suppress(Exception):  # a job reports its own failures; nothing may stop the thread
                job()


#: The most group writes the store's thread merges into one transaction.
MERGED_WRITES = 64


class GroupWrite:
    """A :meth:`StoreWriter.write_group` waiting for the store's thread."""

    __slots__ = ("done", "groups", "lease", "store")

    def __init__(self, store: StoreFile, lease: Lease | None, groups: Sequence[Sequence[Row]], done: Done) -> None:
        self.store, self.lease, self.groups, self.done = store, lease, groups, done

    def __call__(self) -> None:
        write_groups([self])


def write_groups(jobs: Sequence[GroupWrite]) -> None:
    """Write the groups of ``jobs`` (of one store and lease) in one transaction, each alone if it fails on a
    constraint; tell each job what became of its groups."""
    store, lease = jobs[0].store, jobs[0].lease
    groups = [rows for job in jobs for rows in job.groups]
    errors: list[BaseException | None]
    try:
        write(store, lease, groups)
    except Exception as exc:
        if len(groups) == 1 or "constraint" not in str(exc).lower():
            errors = [exc] * len(groups)
        else:
            errors = []
            for rows in groups:
                try:
                    write(store, lease, [rows])
                except Exception as one:
                    errors.append(one)
                else:
                    errors.append(None)
    else:
        errors = [None] * len(groups)
    start = 0
    for job in jobs:
        with contextlib.suppress(Exception):  # one job's answer failing must not keep the others from theirs
            job.done(errors[start:start + len(job.groups)])
        start += len(job.groups)


def write(store: StoreFile, lease: Lease | None, groups: Sequence[Sequence[Row]]) -> None:
    """Write every row of ``groups`` in one transaction of ``store`` (:meth:`StoreFile.write
    <cardgame.store.connection.StoreFile.write>`), checking ``lease`` in it."""
    store.write(itertools.chain.from_iterable(groups), None if lease is None else lease.renew)
