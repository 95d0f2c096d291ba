"""The ASGI application: the lobby over HTTP, a websocket a player, each table driven by its own task.

``create_app(db="tables.db")`` returns a Starlette application (serve it with uvicorn, or
``cardgame serve``). With a ``db`` (a SQLite path, or a PostgreSQL address where the store takes
one) every event is recorded and a restarted server recovers its tables, voiding the hand each was
in; without one, tables live as long as the process. The protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from cardgame.engine.errors import CardgameError, ConfigError
from cardgame.model.inputs import check_instance, check_text, excerpt
from cardgame.play.game import Game
from cardgame.server.config import Limits, TableConfig, read_config, variant_params
from cardgame.server.errors import LimitError, MessageError
from cardgame.server.events import EventConfig, Events
from cardgame.server.events import routes as event_routes
from cardgame.server.host import Client, Prepared, TableHost, hash_token, message_text
from cardgame.server.http import MAX_BODY, STATIC, refusal
from cardgame.server.http import client_address as _address
from cardgame.server.http import error_response as _error
from cardgame.server.http import read_body as _read_body
from cardgame.server.messages import Resume, Sit, read_message
from cardgame.server.ratelimit import TokenBucket
from cardgame.server.registry import Registry
from cardgame.server.writer import StoreWriter
from cardgame.server.wsprotocol import RECEIVE_NOW, SEND_NOW
from cardgame.store import EventStore, HandVoided, Recorder, StoreError, recover
from cardgame.store.lease import Lease, LeaseHeld, LeaseLost
from cardgame.store.postgres import is_dsn
from cardgame.store.queries import highest
from cardgame.store.recorder import Row
from cardgame.store.serialize import from_json

__all__ = ["MAX_BODY", "Server", "create_app"]

log = logging.getLogger("cardgame.server")

#: Seconds a connection turned away as a spectator (the table has its most) has to take a seat.
SEAT_WAIT = 30.0
#: The most client addresses whose message rates are remembered (those with no connection go first).
_MAX_BUCKETS = 10_000
#: How long a write waits for the store's lock before it counts as failed (seconds): the table pauses.
WRITE_TIMEOUT = 2.0
#: The first wait before a failed write is tried again, and the longest (seconds).
RETRY_FIRST, RETRY_MAX = 0.25, 4.0
#: How long a process's name is held without a renewal (seconds).
LEASE_TTL = 15.0
#: How long starting waits for a store that is locked or not reachable (seconds).
START_WAIT = 30.0
#: How long stopping waits for the last writes (seconds).
STOP_WAIT = 5.0
#: The longest one turn of the event loop spends showing the tables of a finished group write (seconds,
#: wall clock): the rest are shown in the next turns, so no other table's message waits behind them all.
RELEASE_SLICE = 0.004
#: The least time from the start of one group write to the start of the next (seconds): the tables that come
#: due meanwhile wait for the next and share its commit. A commit costs some 50 µs of CPU whatever it holds (its
#: transaction and lease check on the store's thread, the thread's hand-off and its answer to the event loop;
#: about 6 µs more a table): in a quiet run of the load benchmark the server committed 450 times a second, four
#: tables each, and with this gap 160 times, ten each; a table's views wait at most the gap more.
WRITE_GAP = 0.003


class Server:
    """The tables of one process, their tasks, and the store they are recorded in. ``limits``
    (:class:`~cardgame.server.config.Limits`) bounds what clients may do; the operator's own tables
    (:meth:`create`) are bound by none of them.

    Every store operation runs on the store's own thread (:class:`~cardgame.server.writer.StoreWriter`),
    never on the event loop. A table shows no event before it is recorded: while its write is under
    way the table is held (:class:`~cardgame.server.host.TableHost`); when a write fails the table
    pauses, its players are told, and the same write is tried again, waiting longer each time (up
    to :data:`RETRY_MAX` seconds), until it succeeds and play resumes where it stopped. The
    process holds its name (``name``) by a lease in the store (:class:`~cardgame.store.lease.Lease`):
    a second process of the same name refuses to start. A table whose log cannot be recovered is set
    aside (logged, and listed as ``unavailable``) while the others start. ``drain``: at a SIGTERM
    (:meth:`drain`), how long the hands in play have to finish (seconds).
    """

    def __init__(self, db: str | None = None, *, name: str = "", limits: Limits | None = None,
                 allowed_origins: Sequence[str] = (), phh: bool = True,
                 now: Callable[[], float] = time.monotonic, drain: float = 30.0) -> None:
        _check_settings(db, name, allowed_origins)
        self.limits = check_instance(limits if limits is not None else Limits(), Limits, "A Limits", ConfigError)
        if type(drain) not in (int, float) or not 0 <= drain <= 86_400:
            raise ConfigError(f"The drain deadline is 0 to 86,400 seconds, not {excerpt(drain)}.")
        self.db = db
        self.phh = phh
        self.name = name
        self.allowed_origins = frozenset(allowed_origins)
        self.now = now
        self.drain_deadline = float(drain)
        self.tables: dict[str, TableHost] = {}
        self.wakes: dict[str, _Wake] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.store: EventStore | None = None
        self.registry: Registry | None = None
        self.writer: StoreWriter | None = None
        self.lease: Lease | None = None
        self.recorders: dict[str, Recorder] = {}
        self.writing: set[str] = set()  # tables with a write under way (held)
        self.retrying: dict[str, asyncio.Task[None]] = {}  # paused tables trying a failed write again
        self._due: list[str] = []  # tables whose rows go in the next group write
        self._group_writing = False  # a group write is under way: the next waits for it, taking every table due
        self.write_gap = WRITE_GAP  # the least time between the starts of two group writes (seconds)
        self._write_started = -math.inf  # when the last group write started (on the event loop's clock)
        self.unavailable: dict[str, dict[str, Any]] = {}  # tables set aside: their lobby rows
        self.others: list[dict[str, Any]] = []  # the tables other processes drive, as last read
        self._known: set[str] = set()  # every table id in the store
        self._renewing: asyncio.Task[None] | None = None
        self.draining = False
        self.started = False
        self.creators: dict[str, tuple[str, str]] = {}  # a client's table -> (its address, its creator token's hash)
        self.busy_at: dict[str, float] = {}  # a client's table -> when someone last sat or watched there
        self.connections: dict[str, int] = {}  # client address -> open websockets
        self.buckets: dict[str, TokenBucket] = {}  # client address -> its message rate over all its connections
        self.sockets: dict[str, set[_Connection]] = {}  # table -> its open websockets
        self.sending: dict[_Connection, float] = {}  # a connection -> when its send under way began
        self._watching: asyncio.Task[None] | None = None  # the watch on sends (:meth:`_watch_sends`)
        self.opening: list[TableConfig] = []  # the operator's tables to open at start when the store holds none
        #: ``preparing(table_id, game)``: told of each recovered game before its table starts (on the store's thread)
        self.preparing: Callable[[str, Game], None] | None = None

    # --- life cycle --------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store, take this process's name and recover every table of it (an interrupted
        hand is void); a table that cannot be recovered is set aside. With no table of its own, open
        the tables of :attr:`opening` (before any client can). :class:`StoreError` (a clear message)
        if the store cannot be opened or another live process holds the name."""
        if self.started:
            return
        self.started = True
        await self._open_store()
        if not self.tables:
            for config in self.opening:
                self.create(config)

    async def _open_store(self) -> None:
        if self.db is None:
            return
        self.writer = StoreWriter()
        deadline = time.monotonic() + START_WAIT
        while True:
            try:
                loaded, creators = await self.writer.run(self._open)
                break
            except LeaseHeld:
                raise
            except StoreError as exc:
                if not _transient(exc) or time.monotonic() > deadline:
                    raise
                log.warning("waiting for the store: %s", exc)
                await asyncio.sleep(1.0)
        for table_id, config, game, recorder, tokens, voided in loaded:
            self.recorders[table_id] = recorder
            host = self._host(table_id, config, game, tokens=tokens, first_seq=recorder.next_seq)
            if voided is not None:  # the players of that hand are told when they come back
                host.notice("voided", f"Hand #{voided} was voided when the server restarted; every bet was returned.")
            if table_id in creators:
                self.creators[table_id] = creators[table_id]
                self.busy_at[table_id] = self.now()
        if self.store is not None:
            self.writer.checkpoints(self.store)
        self._renewing = asyncio.get_running_loop().create_task(self._renew())

    def _open(self) -> tuple[list[tuple[str, TableConfig, Game, Recorder, dict[int, str], int | None]],
                             dict[str, tuple[str, str]]]:
        """On the store's thread: open the store, take the lease, recover this process's tables; with
        the creators of the clients' tables."""
        store = EventStore(self.db or "", synchronous="FULL" if is_dsn(self.db or "") else "NORMAL",
                           timeout=WRITE_TIMEOUT)
        try:
            lease = Lease(store, self.name, ttl=LEASE_TTL)
            lease.acquire()
            registry = Registry(store)
            mine, corrupt = registry.rows(self.name)
            self._known = {t for t, *_ in registry.rows()[0]} | {t for t, _ in corrupt}
            creators = registry.creators()
        except BaseException:
            store.close()
            raise
        self.store, self.registry, self.lease = store, registry, lease
        for table_id, why in corrupt:
            self._set_aside(table_id, why)
        loaded = []
        for table_id, config, _owner in mine:
            try:
                loaded.append(self._recover(table_id, config))
            except Exception as exc:  # a table that cannot be recovered must not keep the others down
                self._set_aside(table_id, str(exc) if isinstance(exc, CardgameError) else repr(exc)[:300], config)
        return loaded, creators

    def _set_aside(self, table_id: str, why: str, config: TableConfig | None = None) -> None:
        log.error("table %s is set aside: it cannot be recovered: %s", excerpt(table_id), why)
        self.unavailable[table_id] = {"id": table_id, "variant": config.variant_object().name if config else None,
                                      "config": config.public_data() if config else None, "players": [],
                                      "hands": None, "status": "unavailable", "error": why[:500], "url": None}

    def _recover(self, table_id: str, config: TableConfig
                 ) -> tuple[str, TableConfig, Game, Recorder, dict[int, str], int | None]:
        """On the store's thread: one table rebuilt from its log, with its recorder, its seats' token
        hashes, and the number of the hand the restart voided (``None``: none)."""
        assert self.store is not None and self.registry is not None
        stages = config.variant_object().build(**config.params)
        # after a restart every table shuffles from the operating system's source: a seed derived from
        # the configured one (which its creator knows) would tell the cards
        before = highest(self.store, "events", "seq", table_id)
        game = recover(self.store, table_id, stages, None)
        if self.preparing is not None:  # a tournament's table: its level's blinds before it deals
            self.preparing(table_id, game)
        voided = None
        if highest(self.store, "events", "seq", table_id) != before:  # recover wrote a HandVoided
            last = self.store.query("SELECT kind, hand FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                                    (table_id,))
            if last and last[0][0] == HandVoided.kind:
                voided = int(last[0][1])
        recorder = self.store.record(game, table_id, batch=True, phh_writer=None)
        log.info("table %s recovered at hand %d", table_id, game.ctx.hands_played)
        return table_id, config, game, recorder, self.registry.tokens(table_id), voided

    async def drain(self, deadline: float | None = None) -> None:
        """Deal no new hand, let the hands in play finish (at most ``deadline`` seconds, default the
        server's), and record everything; then the process can exit."""
        self.draining = True
        for host in self.tables.values():
            if host.game.dispatcher.status == "running":
                host.notice("paused", "The server is shutting down: this hand is played to its end, then no new "
                                      "hand is dealt. Your seat and chips are kept for when it is back.")
                host.game.stop()
                self.wake(host.table_id)
        end = time.monotonic() + (self.drain_deadline if deadline is None else deadline)
        while time.monotonic() < end and any(h.game.hand is not None or h.held for h in self.tables.values()):
            await asyncio.sleep(0.05)
        log.info("drained: %d hands in play left",
                 sum(1 for h in self.tables.values() if h.game.hand is not None))

    async def stop(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
        if self._watching is not None:
            self._watching.cancel()
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.tasks.clear()
        end = time.monotonic() + STOP_WAIT  # the last events: a few seconds to record them, else a restart
        while self.writing - set(self.retrying) and time.monotonic() < end:  # voids their hand
            await asyncio.sleep(0.01)
        for task in self.retrying.values():
            task.cancel()
        writer, store, lease = self.writer, self.store, self.lease
        self.store = self.writer = None
        if writer is not None and store is not None:
            def close() -> None:
                if lease is not None and not self.writing:
                    with contextlib.suppress(StoreError):
                        lease.release()
                store.close()
            with contextlib.suppress(Exception):
                await writer.run(close)
            writer.close()

    # --- recording ------------------------------------------------------------------------------------
    def _add_rows(self, table_id: str, rows: list[Row]) -> None:
        """Write ``rows`` of the server's own with the table's next events (at once if none are due)."""
        recorder = self.recorders.get(table_id)
        if recorder is not None:
            recorder.add_rows(rows)
            self._gate(table_id)

    def _gate(self, table_id: str) -> bool:
        """The table's ``before_send``: whether all its events are recorded (else its rows join the next
        group write, made once the loop has run what is ready: every table's new rows in one)."""
        recorder = self.recorders.get(table_id)
        if recorder is None:
            return True
        if table_id in self.writing:
            return False
        if not recorder.pending:
            return True
        self.writing.add(table_id)
        self._write_later(table_id)
        return False

    def _write_later(self, table_id: str) -> None:
        """Put the table's rows in the next group write: made once the loop has run what is ready, or,
        while a group write is under way, when it ends (one transaction, one commit, for every table
        that came due meanwhile, not one each)."""
        self._due.append(table_id)
        if len(self._due) == 1 and not self._group_writing:
            self._next_write()

    def _next_write(self) -> None:
        """Start the next group write once the loop has run what is ready, and :attr:`write_gap` after the last
        began."""
        loop = asyncio.get_running_loop()
        wait = self._write_started + self.write_gap - loop.time()
        if wait > 0:
            loop.call_later(wait, self._write_due)
        else:
            loop.call_soon(self._write_due)

    def _write_due(self) -> None:
        if self._group_writing or not self._due:
            return
        due, self._due = self._due, []
        writer, store = self.writer, self.store
        if writer is None or store is None:
            return  # stopping: the store is closed
        groups = [self.recorders[t].take() for t in due]
        loop = asyncio.get_running_loop()
        self._group_writing = True
        self._write_started = loop.time()

        def done(errors: list[BaseException | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the process is ending
                loop.call_soon_threadsafe(self._written_due, due, groups, errors)

        writer.write_group(store, self.lease, groups, done)

    def _written_due(self, due: list[str], groups: list[list[Row]], errors: list[BaseException | None]) -> None:
        """A group write is over: its tables show their events (or pause to retry), in slices of at most
        :data:`RELEASE_SLICE` seconds, each in a turn of the event loop of its own (a group of a few hundred
        tables, shown in one callback, held every other table's messages up for tens of milliseconds). A
        table stays held until its slice shows it, so it shows nothing its rows have not recorded. The tables
        that came due during the write go in the next group, started after the first slice. (Started before
        it, the commit contended with the views for the interpreter: the load benchmark's p99 rose, 172 to
        205 ms in two pairs; started after the last slice, every table waited for all the slices: the p99
        rose 1.2 to 2.5 times in five pairs.)"""
        self._group_writing = False
        if self._due:
            self._next_write()
        self._release(zip(due, groups, errors, strict=True))

    def _release(self, finished: Iterator[tuple[str, list[Row], BaseException | None]]) -> None:
        """Show the tables of a finished group write for at most :data:`RELEASE_SLICE` seconds; the rest in
        the next turn of the loop."""
        end = time.perf_counter() + RELEASE_SLICE
        for table_id, rows, error in finished:
            if error is None:
                self._recorded(table_id)
            else:
                self.retrying[table_id] = asyncio.get_running_loop().create_task(self._retry(table_id, rows, error))
            if time.perf_counter() >= end:
                asyncio.get_running_loop().call_soon(self._release, finished)
                return

    def _recorded(self, table_id: str) -> None:
        """The table's rows so far are written: write what came since, or show it all and play on."""
        recorder, host = self.recorders.get(table_id), self.tables.get(table_id)
        if recorder is not None and recorder.pending:
            self._write_later(table_id)
            return
        self.writing.discard(table_id)
        if host is None:  # closed: its last rows are written
            self.recorders.pop(table_id, None)
        elif host.paused is None:
            host.release()
            self.nudge(host)

    async def _retry(self, table_id: str, rows: list[Row], error: BaseException) -> None:
        """A write failed: pause the table, then try the same rows again, waiting longer each time,
        until they are written; then resume. (A table closed meanwhile has its last rows written all
        the same.)"""
        host = self.tables.get(table_id)
        delay = RETRY_FIRST
        try:
            while True:
                if isinstance(error, LeaseLost):
                    log.error("table %s stops: %s", table_id, error)
                    if host is not None:
                        host.pause("This table stopped: another server process took it over. Reconnect to "
                                   "continue there.")
                    return
                if host is not None and host.paused is None:
                    log.error("table %s is paused: recording failed: %s", table_id, error)
                    host.pause("The table is paused: the server cannot record hands just now. Play resumes "
                               "where it stopped as soon as it can; nothing is lost.")
                await asyncio.sleep(delay)
                delay = min(RETRY_MAX, delay * 2)
                if await self._written(table_id, rows):  # the commit went through, its answer was lost
                    break
                try:
                    if self.writer is None or self.store is None:
                        return
                    await self.writer.write(self.store, self.lease, rows)
                    break
                except Exception as exc:
                    error = exc
        finally:
            self.retrying.pop(table_id, None)
        log.info("table %s resumes: recording works again", table_id)
        if host is not None:
            host.resume("The table is recorded again: play resumes where it stopped.")
        self._recorded(table_id)

    async def _written(self, table_id: str, rows: list[Row]) -> bool:
        """Whether ``rows`` are in the store already (their first event's row is)."""
        seq = next((params[1] for sql, params in rows if sql.startswith("INSERT INTO events")), None)
        store, writer = self.store, self.writer
        if seq is None or store is None or writer is None:
            return False
        try:
            found = await writer.run(store.query, "SELECT 1 FROM events WHERE table_id = ? AND seq = ?",
                                     (table_id, seq))
        except StoreError:
            return False
        return bool(found)

    async def _renew(self) -> None:
        """Renew the lease while nothing is written (each write renews it too)."""
        while True:
            await asyncio.sleep(LEASE_TTL / 3)
            store, writer, lease = self.store, self.writer, self.lease
            if store is None or writer is None or lease is None:
                return
            try:
                await writer.write(store, lease, ())
            except LeaseLost as exc:
                log.error("%s", exc)
                for host in self.tables.values():
                    host.pause("This table stopped: another server process took it over. Reconnect to continue "
                               "there.")
                return
            except StoreError:
                pass  # the store fails: the tables' own writes pause them

    def create(self, config: TableConfig, *, prepare: Callable[[Game], None] | None = None) -> TableHost:
        """A new table playing ``config``, recorded in the store if there is one (it shows nothing
        before its first events are recorded): the operator's (no client limit applies; a ``seed``
        makes a practice table whose deals replay). ``prepare(game)`` is handed the new game before it
        is recorded or started (a tournament seats its entrants)."""
        check_instance(config, TableConfig, "A TableConfig", ConfigError)
        if prepare is not None and not callable(prepare):
            raise ConfigError(f"prepare must be a function or None, not {excerpt(prepare)}.")
        if self.draining:
            raise LimitError("This server is shutting down: it opens no new table.", 503)
        table_id = secrets.token_hex(4)
        while table_id in self.tables or table_id in self._known:
            table_id = secrets.token_hex(4)
        self._known.add(table_id)
        variant = config.variant_object()
        game = Game(variant, params=config.params, seats=config.seats, min_buy_in=config.min_buy_in,
                    max_buy_in=config.max_buy_in, seed=config.seed)
        if prepare is not None:
            prepare(game)
        if self.store is not None:
            recorder = Recorder(self.store, game, table_id, None, time.time, batch=True, next_seq=0)
            recorder.add_rows(Registry.add_rows(table_id, config, self.name) + recorder.start_rows(new_table=True))
            game.hook(recorder)  # before the host's listener (its bots' sit-out follows the event recorded)
            self.recorders[table_id] = recorder
        # the clients' event numbers are the store's (the log's first row is its table state)
        host = self._host(table_id, config, game, first_seq=self.recorders[table_id].next_seq if self.store else 0)
        log.info("table %s created: %s, %d seats, %s", table_id, variant.name, config.seats,
                 "seeded (practice)" if config.seed is not None else "shuffled by the operating system")
        return host

    def open_for(self, config: TableConfig, address: str) -> tuple[TableHost, str]:
        """A table a client at ``address`` asked for, within :attr:`limits`, and its creator token
        (the key to :meth:`close_by_creator`); :class:`LimitError` or :class:`ConfigError` if refused."""
        check_instance(config, TableConfig, "A TableConfig", ConfigError)
        check_text(address, "client address", ConfigError)
        limits = self.limits
        limits.check(config)
        if len(self.tables) >= limits.max_tables:
            raise LimitError(f"This server holds its most tables ({limits.max_tables}); join one of them.")
        mine = sum(1 for who, _ in self.creators.values() if who == address)
        if mine >= limits.tables_per_client:
            raise LimitError(f"You have {mine} tables open, the most one client may have; close one first "
                             f"(DELETE /api/tables/ID with its creator token), or join another.")
        host = self.create(config)
        token = secrets.token_urlsafe(24)
        self.creators[host.table_id] = (address, hash_token(token))
        self.busy_at[host.table_id] = self.now()
        self._add_rows(host.table_id, Registry.creator_rows(host.table_id, address, hash_token(token)))
        return host, token

    def close(self, table_id: str, reason: str) -> None:
        """Close ``table_id``: its task stops, every connection is told ``closed`` and closed, and a
        restart does not bring it back (its events stay in the store)."""
        host = self.tables.pop(table_id, None)
        if host is None:
            return
        task = self.tasks.pop(table_id, None)
        if task is not None:
            task.cancel()
        self.wakes.pop(table_id, None)
        self.creators.pop(table_id, None)
        self.busy_at.pop(table_id, None)
        for connection in list(self.sockets.pop(table_id, ())):
            connection.finish({"type": "closed", "reason": reason, "seq": host.seq})
        self._add_rows(table_id, Registry.remove_rows(table_id))  # after its last events
        log.info("table %s closed: %s", table_id, reason)

    def close_by_creator(self, table_id: str, token: str) -> None:
        """Close a client's table for the holder of its creator token. :class:`LimitError` if the token
        is wrong, a person is still seated (they leave first) or a hand is in progress."""
        check_text(table_id, "table id", ConfigError)
        check_text(token, "creator token", ConfigError)
        entry = self.creators.get(table_id)
        if entry is None or not secrets.compare_digest(entry[1], hash_token(token)):
            raise LimitError("That is not this table's creator token (only the client that opened a table may "
                             "close it).", 403)
        host = self.tables[table_id]
        if host.tokens:
            raise LimitError(f"{len(host.tokens)} people are seated; the table can be closed once they have left.", 409)
        if host.game.hand is not None:
            raise LimitError("A hand is in progress; the table can be closed when it ends.", 409)
        self.close(table_id, "closed by its creator")

    def reap(self) -> list[str]:
        """Close every client's table nobody has played at or watched for ``limits.idle_close`` seconds
        (a seated person who is sitting out, and not connected, plays no more than an empty seat); the
        tables closed."""
        now = self.now()
        closed = []
        for table_id in list(self.creators):
            host = self.tables.get(table_id)
            if host is None:
                continue
            seats = host.game.table.seats
            playing = any((player := seats[seat]) is not None and not player.sitting_out for seat in host.tokens)
            if playing or host.clients or host.game.hand is not None:
                self.busy_at[table_id] = now
            elif now - self.busy_at.get(table_id, now) >= self.limits.idle_close:
                self.close(table_id, f"nobody played or watched for {self.limits.idle_close:g} seconds")
                closed.append(table_id)
        return closed

    async def _reaper(self) -> None:
        period = min(self.limits.idle_close / 4, 30.0)
        while True:
            await asyncio.sleep(period)
            self.reap()

    def watch_sends(self) -> None:
        """Start the watch on the connections' sends (once, when the first connection is made)."""
        if self._watching is None or self._watching.done():
            self._watching = asyncio.get_running_loop().create_task(self._watch_sends())

    async def _watch_sends(self) -> None:
        """Drop every connection whose send has taken more than ``limits.send_timeout`` (a client that
        does not read), looking four times a timeout (at most each second, at least each 50 ms): one
        timer for all the connections, rather than one a message."""
        timeout = self.limits.send_timeout
        period = min(1.0, max(0.05, timeout / 4))
        while True:
            await asyncio.sleep(period)
            since = time.monotonic() - timeout
            for connection in [c for c, began in self.sending.items() if began < since]:
                self.sending.pop(connection, None)
                connection.drop(f"a message took more than {timeout:g} s to send")

    def take(self, address: str) -> bool:
        """One message (or request) from ``address`` within its rate over all its connections."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= _MAX_BUCKETS:
                for other in [a for a in self.buckets if a not in self.connections]:
                    del self.buckets[other]
            bucket = self.buckets[address] = TokenBucket(self.limits.client_rate, self.limits.client_burst,
                                                         self.now())
        return bucket.take(self.now())

    def _host(self, table_id: str, config: TableConfig, game: Game, *, tokens: dict[int, str] | None = None,
              first_seq: int = 0) -> TableHost:
        recorder = self.recorders.get(table_id)

        def on_token(seat: int, digest: str | None) -> None:
            if recorder is not None:  # written with the seat's own events: one transaction
                recorder.add_rows(Registry.token_rows(table_id, seat, digest))

        host = TableHost(table_id, config, game=game, tokens=tokens, first_seq=first_seq, on_token=on_token,
                         before_send=None if recorder is None else lambda: self._gate(table_id), now=self.now)
        self.tables[table_id] = host
        self.wakes[table_id] = _Wake()
        with contextlib.suppress(RuntimeError):  # no running loop: the task starts with the app
            self.tasks[table_id] = asyncio.get_running_loop().create_task(self._drive(host, self.wakes[table_id]))
        return host

    def start_tasks(self) -> None:
        loop = asyncio.get_running_loop()
        for table_id, host in self.tables.items():
            if table_id not in self.tasks:
                self.tasks[table_id] = loop.create_task(self._drive(host, self.wakes[table_id]))

    async def _drive(self, host: TableHost, wake: _Wake) -> None:
        """The table's task: bots answer and clocks run out when their time comes. Between steps it
        waits on a future that :meth:`wake` or one timer (the next bot answer or clock) resolves."""
        loop = asyncio.get_running_loop()
        while True:
            wake.woken = False
            try:
                host.step()
            except Exception:  # a bug must stop this table, not the server
                log.exception("table %s stopped: its game raised", host.table_id)
                return
            at = host.wake_at()
            timeout = None if at is None else max(0.0, at - self.now())
            if timeout == 0.0:
                await asyncio.sleep(0)  # more to do at once: let the other tables and connections go first
                continue
            if wake.woken:
                continue
            waiter = wake.waiter = loop.create_future()
            wake.at = at
            timer = None if timeout is None else loop.call_later(timeout, _resolve, waiter)
            try:
                await waiter
            finally:
                wake.waiter = None
                if timer is not None:
                    timer.cancel()

    async def listing(self) -> list[dict[str, Any]]:
        """Every table for the lobby: this process's in full, those set aside (``unavailable``, with the
        reason), then those other processes sharing the database drive, with the address (``url``) of
        their own server (read on the store's thread; the last list read if the store fails)."""
        found = [{**host.describe(), "url": f"/table/{table_id}"} for table_id, host in self.tables.items()]
        found += self.unavailable.values()
        registry, writer = self.registry, self.writer
        if registry is not None and writer is not None:
            with contextlib.suppress(StoreError):
                rows, _ = await asyncio.wait_for(writer.run(registry.rows), WRITE_TIMEOUT * 2)
                self.others = [{"id": table_id, "variant": config.variant_object().name,
                                "config": config.public_data(), "players": [], "hands": None, "status": "elsewhere",
                                "owner": owner, "url": f"{owner.rstrip('/')}/table/{table_id}"}
                               for table_id, config, owner in rows if owner != self.name]
        return found + [t for t in self.others if t["id"] not in self.tables]

    async def hand_phh(self, table_id: str, hand: int) -> str | None:
        """The PHH text of a finished hand of a table of this process (made from the store's events when
        asked for, on the store's thread); :class:`CardgameError` saying why there is none."""
        host, store, writer = self.tables.get(table_id), self.store, self.writer
        if not self.phh:
            raise CardgameError("This server does not give hands as PHH (it runs with --no-phh).")
        if host is None or store is None or writer is None:
            raise CardgameError(f"No recorded table {excerpt(table_id)} here.")
        return await writer.run(store.hand_phh, table_id, hand, host.game.dispatcher.stages)

    async def settled(self, table_id: str, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) until the table's events so far are recorded."""
        end = time.monotonic() + timeout
        while table_id in self.writing and time.monotonic() < end:
            await asyncio.sleep(0.005)

    def nudge(self, host: TableHost) -> None:
        """After a client's message: wake the table's task if it must step before the time its timer is
        set for (a bot's answer, a clock that now runs out sooner); a table of people only, waiting
        on a later clock, is left alone (its timer steps it then, and re-arms for the newest clock)."""
        wake = self.wakes.get(host.table_id)
        if wake is None:
            return
        if host.bots or wake.waiter is None or wake.at is None:
            self.wake(host.table_id)
            return
        at = host.wake_at()
        if at is not None and at < wake.at:
            self.wake(host.table_id)

    def wake(self, table_id: str) -> None:
        """Have the table's task step now (a message changed it)."""
        wake = self.wakes.get(table_id)
        if wake is not None:
            wake.woken = True
            if wake.waiter is not None:
                _resolve(wake.waiter)

    # --- checks -----------------------------------------------------------------------------------------------
    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """A browser's request must come from this server's own pages (or an allowed origin); a client
        that is not a browser sends no ``Origin``."""
        if origin is None:
            return True
        return origin in self.allowed_origins or (host is not None and origin in (f"http://{host}", f"https://{host}"))


class _Wake:
    """A table task's wake-up: ``woken`` by a message since its last step, the future it waits on, and
    when its timer resolves that future."""

    __slots__ = ("at", "waiter", "woken")

    def __init__(self) -> None:
        self.woken = False
        self.waiter: asyncio.Future[None] | None = None
        self.at: float | None = None  # when its timer steps it (on the server's clock; None: no timer)


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _transient(exc: StoreError) -> bool:
    """Whether a store that could not be opened may open if tried again (locked, or not reachable yet)."""
    text = str(exc).lower()
    return any(word in text for word in ("locked", "busy", "cannot connect", "connection"))


def _check_settings(db: object, name: object, allowed_origins: object) -> None:
    """:class:`ConfigError` naming the first of the server's settings that is not what it must be."""
    if db is not None:
        check_text(db, "database file name", ConfigError, max_length=4096)
    check_text(name, "server's name", ConfigError, max_length=1000, empty=True)
    _check_names(allowed_origins, "allowed_origins", "web origins")


def _check_names(names: object, what: str, kind: str) -> None:
    if isinstance(names, str | bytes) or not isinstance(names, Sequence | frozenset | set):
        raise ConfigError(f"{what} is a list of {kind}, not {excerpt(names)}.")
    for item in names:
        check_text(item, f"one of {what}", ConfigError)



class _Connection:
    """One websocket: a bounded queue of JSON text its writer sends, with a time limit on each send.
    A client whose unsent text passes ``limits.send_queue`` bytes, or that takes longer than
    ``limits.send_timeout`` to take a message, is dropped and its queue freed.

    A message for a connection with nothing queued and no send under way is sent at once, on the
    caller's turn: by the protocol's own synchronous send where ``cardgame serve``'s protocol offers it
    (:mod:`cardgame.server.wsprotocol`), else by driving the ASGI send (:meth:`_send_now`); its writer
    task is woken only when a send must wait (the client reads slowly and the transport's buffer is
    full), and then finishes that send first."""

    def __init__(self, server: Server, host: TableHost, websocket: WebSocket, address: str) -> None:
        self.server = server
        self.host = host
        self.websocket = websocket
        self.address = address
        self.queue: collections.deque[str] = collections.deque()
        self.queued = 0  # bytes in the queue
        self.ready = asyncio.Event()
        self.ending = False  # send what is queued, then close
        self.dropped = False  # close at once, unsent text thrown away
        self.client = Client(self.deliver)
        self.watching = False  # in host.clients
        self.tasks: tuple[asyncio.Task[None], ...] = ()  # the reader and the writer
        self.busy = False  # a send under way in the writer
        self.stuck: _Resume | None = None  # a send begun at once that must wait: the writer finishes it
        self.broken = False  # a send failed (the client is gone): the writer ends, and the connection
        extensions = websocket.scope.get("extensions")
        self.direct: Callable[[str], bool] | None = (extensions.get(SEND_NOW) if isinstance(extensions, dict)
                                                     else None)  # the protocol's synchronous send, if any
        #: The protocol's hand-off of received messages (:meth:`read`), if any.
        self.receive_now: Callable[[Callable[[str | bytes], None] | None], bool] | None = (
            extensions.get(RECEIVE_NOW) if isinstance(extensions, dict) else None)
        self.bucket: TokenBucket | None = None  # the connection's message rate (made by read)
        self.refused = 0  # messages refused for the rate

    def deliver(self, message: dict[str, Any] | Prepared) -> None:
        if self.dropped or self.ending:
            return
        text = message_text(message)
        if not self.queue and not self.busy and self.stuck is None and not self.broken and self.tasks:
            direct = self.direct
            if direct is not None:
                try:
                    if direct(text):
                        return
                except Exception:  # the client is gone: the writer ends, and the connection with it
                    self.broken = True
                    self.ready.set()
                    return
            self._send_now(text)
            return
        if self.queued + len(text) > self.server.limits.send_queue:
            self.drop(f"more than {self.server.limits.send_queue:,} bytes unsent")
            return
        self.queued += len(text)
        self.queue.append(text)
        self.ready.set()

    def _send_now(self, text: str) -> None:
        """Send ``text`` now, as far as it goes without waiting; a send that must wait is handed to the
        writer (and counts as queued until it takes it up)."""
        sending = self.websocket.send_text(text)
        try:
            waiting = sending.send(None)
        except StopIteration:
            return
        except Exception:  # the client is gone: the writer ends, and the connection with it
            self.broken = True
            self.ready.set()
            return
        self.stuck = _Resume(sending, waiting, len(text))
        self.queued += len(text)
        self.ready.set()

    def drop(self, why: str) -> None:
        """Throw the unsent text away and end the connection now (a send it is stuck in is cancelled)."""
        if not self.dropped:
            log.warning("table %s: a connection that does not read is dropped (%s)", self.host.table_id, why)
            self.dropped = True
            self.queue.clear()
            self.queued = 0
            self.ready.set()
            if self.receive_now is not None:  # no message taken from now on
                self.receive_now(None)
            for task in self.tasks:
                task.cancel()

    def finish(self, message: dict[str, Any] | None = None) -> None:
        """Send ``message`` after what is queued, then close."""
        if message is not None:
            self.deliver(message)
        self.ending = True
        self.ready.set()

    async def write(self) -> None:
        sending = self.server.sending
        while not self.dropped:
            await self.ready.wait()
            self.ready.clear()
            while (self.stuck is not None or self.queue) and not self.dropped and not self.broken:
                send: Any
                if self.stuck is not None:
                    send, self.stuck = self.stuck, None
                    self.queued -= send.size
                else:
                    text = self.queue.popleft()
                    self.queued -= len(text)
                    send = self.websocket.send_text(text)
                sending[self] = time.monotonic()  # the server's watch drops a send stuck past send_timeout
                self.busy = True
                try:
                    await send
                finally:
                    sending.pop(self, None)
                    self.busy = False
            if self.ending or self.broken:
                return

    async def read(self) -> None:
        """Messages until the client leaves, floods, or (turned away as a spectator) does not sit in time.
        A watching connection whose protocol offers it (:data:`~cardgame.server.wsprotocol.RECEIVE_NOW`) is
        handed each message as it arrives (:meth:`take`, on the protocol's callback), once those queued
        before are taken; the queue then brings the disconnect (or a message the protocol queued, after which
        it is asked again)."""
        server, host, limits = self.server, self.host, self.server.limits
        self.bucket = TokenBucket(limits.rate, limits.burst, server.now())
        if self.watching:
            host.connect(self.client)
        else:
            self.deliver({"type": "error", "code": "full", "seq": host.seq,
                          "message": f"This table has its most spectators ({limits.max_spectators}); send 'sit' or "
                                     f"'resume' within {SEAT_WAIT:g} seconds to play, or come back later."})
        deadline = server.now() + SEAT_WAIT
        receive_now = self.receive_now
        try:
            while True:
                if self.watching:
                    if receive_now is not None:
                        receive_now(self._taken)  # (refused while messages wait in the queue: taken below first)
                    received = await self.websocket.receive()
                else:
                    try:
                        received = await asyncio.wait_for(self.websocket.receive(), max(0.0, deadline - server.now()))
                    except TimeoutError:
                        self.finish()
                        return
                if received["type"] == "websocket.disconnect":
                    return
                data = received.get("text")
                if data is None:
                    data = received.get("bytes") or b""
                if not self.take(data):
                    return
        finally:
            if receive_now is not None:
                receive_now(None)

    def _taken(self, data: str | bytes) -> None:
        """:meth:`take` as the protocol's hand-off: a message that ends the reading (a flood) or fails ends the
        reader, as if :meth:`read` had taken it."""
        try:
            going = self.take(data)
        except Exception:  # a bug must end this connection, not the protocol's callback
            log.exception("table %s: a message failed", self.host.table_id)
            going = False
        if not going:
            receive_now = self.receive_now
            if receive_now is not None:
                receive_now(None)
            if len(self.tasks) == 2:
                self.tasks[1].cancel()

    def take(self, data: str | bytes) -> bool:
        """One message received: refused past the rate (``False``: the connection floods and is closed), else
        read and carried out, or refused with an ``error`` naming why."""
        server, host, limits = self.server, self.host, self.server.limits
        bucket = self.bucket
        assert bucket is not None, "read() makes the bucket before any message is taken"
        if not bucket.take(server.now()) or not server.take(self.address):
            self.refused += 1
            self.deliver({"type": "error", "code": "rate_limited", "seq": host.seq,
                          "message": f"At most {limits.rate:g} messages a second (bursts of {limits.burst:g}) "
                                     f"a connection, {limits.client_rate:g} from one address."})
            if self.refused > 2 * limits.burst:
                log.warning("table %s: a connection flooding messages is closed", host.table_id)
                self.finish()  # the writer sends what is queued, then the socket is closed (policy violation)
                return False
            return True
        try:
            message = read_message(data)
            if not self.watching:
                if not isinstance(message, Sit | Resume):
                    raise MessageError("not_seated", "This table has its most spectators: send 'sit' or "
                                                     "'resume' to play.")
                host.connect(self.client)
                self.watching = True
                try:
                    host.handle(self.client, message)
                except MessageError:
                    host.disconnect(self.client)
                    self.watching = False
                    raise
            else:
                host.handle(self.client, message)
        except MessageError as exc:
            log.info("table %s: message refused (%s)", host.table_id, exc.code)
            self.deliver({"type": "error", "code": exc.code, "message": exc.message, "seq": host.seq})
            return True
        server.nudge(host)
        return True

    async def run(self) -> None:
        host = self.host
        spectators = sum(1 for c in host.clients if c.seat is None)
        self.watching = spectators < self.server.limits.max_spectators
        self.server.sockets.setdefault(host.table_id, set()).add(self)
        self.server.watch_sends()
        loop = asyncio.get_running_loop()
        writer, reader = loop.create_task(self.write()), loop.create_task(self.read())
        self.tasks = (writer, reader)
        try:
            await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader.done() and not writer.done() and self.ending:  # flooding, or no seat taken: send, then close
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):  # cancelled: dropped meanwhile
                    await asyncio.wait_for(asyncio.shield(writer), self.server.limits.send_timeout)
        finally:
            if self.receive_now is not None:  # no message taken from now on
                self.receive_now(None)
            host.disconnect(self.client)
            self.server.sockets.get(host.table_id, set()).discard(self)
            self.server.sending.pop(self, None)
            self.queue.clear()
            if self.stuck is not None:
                self.stuck.close()
                self.stuck = None
            for task in (reader, writer):
                task.cancel()
            for task in (reader, writer):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            with contextlib.suppress(Exception):  # the client gone already, or not reading: give up soon
                await asyncio.wait_for(self.websocket.close(code=1008), 1.0)


class _Resume:
    """The rest of a send begun on a caller's turn that had to wait at ``waiting`` (a future): awaited
    by the connection's writer, it goes on as if the writer had begun it (cancelling it cancels the send)."""

    __slots__ = ("sending", "size", "waiting")

    def __init__(self, sending: Any, waiting: Any, size: int = 0) -> None:
        self.sending = sending
        self.waiting = waiting
        self.size = size

    def close(self) -> None:
        self.sending.close()

    def __await__(self) -> Any:
        sending, waiting = self.sending, self.waiting
        while True:
            try:
                value = yield waiting
            except BaseException as exc:  # cancelled: into the send, which ends with it
                try:
                    waiting = sending.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    waiting = sending.send(value)
                except StopIteration as stop:
                    return stop.value


def create_app(db: str | None = None, *, name: str = "", max_tables: int | None = None, rate: float | None = None,
               burst: float | None = None, limits: Limits | None = None, allowed_origins: Sequence[str] = (),
               allowed_hosts: Sequence[str] = ("localhost", "127.0.0.1"), phh: bool = True,
               now: Callable[[], float] = time.monotonic, drain: float = 30.0, events: Sequence[Any] = ()
               ) -> Starlette:
    """The server as an ASGI application (``app.state.server`` is its :class:`Server`).

    ``db``: where tables are recorded and recovered from (``None``: nowhere); ``name``: this
    process's address (``http://host:port``) when several share the database: each recovers the
    tables it created, and lists the others' with their address; ``limits``: what clients may do
    (:class:`~cardgame.server.config.Limits`; ``max_tables``, ``rate`` and ``burst`` replace its
    fields of those names); ``allowed_origins``: other web origins whose pages may open websockets
    (``https://example.org``); ``allowed_hosts``: the names a request's ``Host`` may give (Starlette's
    ``TrustedHostMiddleware``: a DNS-rebinding page reaches nothing; ``"*"`` allows any);
    ``phh``: each finished hand's PHH text can be had from its stored events
    (``GET /api/tables/{id}/hands/{n}.phh``), made when asked for; ``drain``: at a SIGTERM (``cardgame
    serve``), how long the hands in play have to finish before the process exits (seconds); ``events``:
    the operator's sit-and-gos (:class:`~cardgame.server.events.EventConfig`) defined when the store
    holds none (``app.state.events`` is the :class:`~cardgame.server.events.Events`).
    """
    _check_names(allowed_hosts, "allowed_hosts", "host names")
    limits = check_instance(limits if limits is not None else Limits(), Limits, "A Limits", ConfigError)
    changes: dict[str, Any] = {k: v for k, v in (("max_tables", max_tables), ("rate", rate), ("burst", burst))
                               if v is not None}
    try:
        limits = attrs.evolve(limits, **changes)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"Bad limits: {excerpt(str(exc))}") from None
    server = Server(db, name=name, limits=limits, allowed_origins=allowed_origins, phh=phh, now=now,
                    drain=drain)
    hosted = Events(server)
    if isinstance(events, str | bytes) or not isinstance(events, Sequence):
        raise ConfigError(f"events is a list of EventConfig, not {excerpt(events)}.")
    hosted.opening = [check_instance(e, EventConfig, "An EventConfig", ConfigError) for e in events]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        server.start_tasks()
        await hosted.start()
        reaper = asyncio.get_running_loop().create_task(server._reaper())
        try:
            yield
        finally:
            await hosted.stop()
            reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reaper
            await server.stop()

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def table_page(request: Request) -> Response:
        if request.path_params["table_id"] not in server.tables:
            return Response("No such table.", status_code=404, media_type="text/plain")
        return FileResponse(STATIC / "table.html")

    async def variants_list(request: Request) -> Response:
        import variants

        return JSONResponse([{"name": v.name, "code": v.code, "description": v.description,
                              "max_players": v.max_players, "params": variant_params(v)}
                             for v in variants.available()])

    async def bots_list(request: Request) -> Response:
        from cardgame.play import bots

        return JSONResponse(bots.available())

    async def tables_list(request: Request) -> Response:
        return JSONResponse(await server.listing())

    async def table_info(request: Request) -> Response:
        host = server.tables.get(request.path_params["table_id"])
        if host is None:
            return _error(404, f"No table {excerpt(request.path_params['table_id'])}.")
        return JSONResponse(host.describe())

    async def hand_phh(request: Request) -> Response:
        number = request.path_params["hand"]
        if not number.isascii() or not number.isdigit() or len(number) > 18:
            return _error(404, "A hand is numbered 1, 2, 3...")
        try:
            text = await server.hand_phh(request.path_params["table_id"], int(number))
        except CardgameError as exc:
            return _error(404, str(exc))
        if text is None:
            return _error(404, "PHH has no code for this table's game.")
        return Response(text, media_type="text/plain; charset=utf-8")

    async def table_deals(request: Request) -> Response:
        host = server.tables.get(request.path_params["table_id"])
        if host is None:
            return _error(404, f"No table {excerpt(request.path_params['table_id'])}.")
        return JSONResponse(list(host.reveals.values()))

    async def create_table(request: Request) -> Response:
        if not server.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            return _error(403, "A table is created from this server's own lobby page.")
        if not server.take(_address(request)):
            return _error(429, f"Too many requests from your address: at most {server.limits.client_rate:g} a second.")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(415, "Send the table as JSON (Content-Type: application/json).")
        body = await _read_body(request)
        if body is None:
            return _error(413, f"A table's description may hold at most {MAX_BODY} bytes.")
        try:
            config = read_config(from_json(body))
            host, token = server.open_for(config, _address(request))
            await server.settled(host.table_id)
        except CardgameError as exc:
            return refusal(exc)
        return JSONResponse({**host.describe(), "creator_token": token}, status_code=201)

    async def close_table(request: Request) -> Response:
        if not server.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            return _error(403, "A table is closed from this server's own pages.")
        if not server.take(_address(request)):
            return _error(429, f"Too many requests from your address: at most {server.limits.client_rate:g} a second.")
        table_id = request.path_params["table_id"]
        if table_id not in server.tables:
            return _error(404, f"No table {excerpt(table_id)}.")
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token:
            return _error(401, "Send the table's creator token: Authorization: Bearer TOKEN.")
        try:
            server.close_by_creator(table_id, token.strip())
        except LimitError as exc:
            return _error(exc.status, str(exc))
        except CardgameError as exc:
            return _error(400, str(exc))
        return JSONResponse({"closed": table_id})

    async def table_socket(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        if not server.origin_ok(websocket.headers.get("origin"), websocket.headers.get("host")):
            log.warning("table %s: websocket refused for its origin", excerpt(table_id))
            await websocket.close(code=1008)
            return
        host = server.tables.get(table_id)
        address = _address(websocket)
        if host is None or server.connections.get(address, 0) >= server.limits.connections_per_client:
            if host is not None:
                log.warning("table %s: a client with %d connections is refused another", table_id,
                            server.connections[address])
            await websocket.close(code=1008)
            return
        await websocket.accept()
        server.connections[address] = server.connections.get(address, 0) + 1
        try:
            await _Connection(server, host, websocket, address).run()
        finally:
            server.connections[address] -= 1
            if not server.connections[address]:
                del server.connections[address]

    app = Starlette(
        routes=[
            Route("/", lobby),
            Route("/table/{table_id}", table_page),
            Route("/api/variants", variants_list),
            Route("/api/bots", bots_list),
            Route("/api/tables", tables_list, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", table_info, methods=["GET"]),
            Route("/api/tables/{table_id}", close_table, methods=["DELETE"]),
            Route("/api/tables/{table_id}/hands/{hand}.phh", hand_phh),
            Route("/api/tables/{table_id}/deals", table_deals),
            *event_routes(hosted),
            WebSocketRoute("/ws/{table_id}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))],
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.events = hosted
    return app
