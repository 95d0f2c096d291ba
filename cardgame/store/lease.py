"""A name held by one live process at a time: a lease row in the store, renewed as the holder writes.

A table server is named by its address (``cardgame serve --name``) and drives the tables recorded
under that name; two processes driving them at once would deal diverging hands. :class:`Lease`
keeps the name for one process: :meth:`Lease.acquire` takes it when nobody holds it, when its
holder let it expire (a process killed without releasing it stops renewing), or when its holder
was a process of this machine that is no longer running (or this one); otherwise it raises :class:`LeaseHeld`
naming the holder. Every write the holder makes checks the lease in the same transaction, renewing
it when a sixth of it has run out (:meth:`Lease.renew`), so a process that lost its name (it stalled
past the lease's end and another took over) can write nothing more.
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable

from cardgame.model.inputs import check_text, excerpt
from cardgame.store.backend import Connection
from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.postgres import PostgresDatabase

__all__ = ["LEASE_SCHEMA", "Lease", "LeaseHeld", "LeaseLost"]

LEASE_SCHEMA = ("CREATE TABLE IF NOT EXISTS store_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, "
                "expires DOUBLE PRECISION NOT NULL)")


class LeaseHeld(StoreError):
    """Another live process holds the name."""


class LeaseLost(StoreError):
    """This process no longer holds the name: another took it over after the lease ran out."""


def _pid_gone(holder: str) -> bool:
    """Whether ``holder`` was a process of this machine that no longer runs, or is this process (an
    earlier lease of it, whose holder stopped without giving it up: the newer takes over, and the
    older's writes fail)."""
    host, _, rest = holder.partition(" pid ")
    pid = rest.split(" ")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs, as another user
        return False
    return False


class Lease:
    """The lease on ``name`` in ``store`` for this process, ``ttl`` seconds from each renewal
    (wall-clock seconds from ``clock``)."""

    def __init__(self, store: StoreFile, name: str, *, ttl: float = 15.0,
                 clock: Callable[[], float] = time.time) -> None:
        if not isinstance(store, StoreFile):
            raise StoreError(f"A lease is kept in an EventStore, not {excerpt(store)}.")
        check_text(name, "lease name", StoreError, max_length=1000, empty=True)
        if type(ttl) not in (int, float) or not 1 <= ttl <= 3600:
            raise StoreError(f"A lease lasts 1 to 3,600 seconds, not {excerpt(ttl)}.")
        if not callable(clock):
            raise StoreError(f"A lease's clock is a function, not {excerpt(clock)}.")
        self.store, self.name, self.ttl, self.clock = store, name, float(ttl), clock
        self.holder = f"{socket.gethostname()} pid {os.getpid()} {secrets.token_hex(4)}"
        self._check = "SELECT expires FROM store_leases WHERE name = ? AND holder = ?" + (
            " FOR SHARE" if isinstance(store.database, PostgresDatabase) else "")

    def acquire(self) -> None:
        """Take the name (:class:`LeaseHeld` if another live process holds it)."""
        now = self.clock()
        with self.store.transaction() as db:
            db.execute(LEASE_SCHEMA)
            row = db.execute("SELECT holder, expires FROM store_leases WHERE name = ?", (self.name,)).fetchone()
            if row is not None and row[0] != self.holder and row[1] > now and not _pid_gone(str(row[0])):
                raise LeaseHeld(f"The server name {excerpt(self.name)} is held by another process ({row[0]}) until "
                                f"{row[1] - now:.0f} s from now, and it renews it while it runs: stop that process, "
                                "or start this one with another --name.")
            db.execute("INSERT INTO store_leases (name, holder, expires) VALUES (?, ?, ?) ON CONFLICT (name) DO "
                       "UPDATE SET holder = excluded.holder, expires = excluded.expires",
                       (self.name, self.holder, now + self.ttl))

    def renew(self, db: Connection) -> None:
        """Inside a write transaction on ``db``: check this process still holds the name (:class:`LeaseLost`
        if not, which rolls the transaction back), and extend it once a sixth of it has run out.

        The check reads the lease row, locking it against a takeover until the transaction ends (SQLite's
        write lock; ``FOR SHARE`` on PostgreSQL), so the transaction's writes are made while the name is
        held. The row is rewritten only when a renewal is due, not at every write (an update of it would
        add a page to every commit)."""
        row = db.execute(self._check, (self.name, self.holder)).fetchone()
        if row is None:
            raise LeaseLost(f"This process no longer holds the server name {excerpt(self.name)}: another process took "
                            "it over after its lease ran out. It writes nothing more.")
        now = self.clock()
        if row[0] - now < self.ttl * 5 / 6:
            db.execute("UPDATE store_leases SET expires = ? WHERE name = ? AND holder = ?",
                       (now + self.ttl, self.name, self.holder))

    def release(self) -> None:
        """Give the name up (at a clean exit), so the next process takes it at once."""
        with self.store.transaction() as db:
            db.execute("DELETE FROM store_leases WHERE name = ? AND holder = ?", (self.name, self.holder))
