"""The ASGI application: the lobby over HTTP, a websocket a player, each table driven by its own task.

``create_app(db="tables.db")`` returns a Starlette application (serve it with uvicorn, or
``cardgame serve``). With a ``db`` (a SQLite path, or a PostgreSQL address where the store takes
one) every event is recorded and a restarted server recovers its tables, voiding the hand each was
in; without one, tables live as long as the process. The protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardgame.engine.errors import CardgameError, ConfigError
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.play.game import Game
from cardgame.server.config import TableConfig, read_config, variant_params
from cardgame.server.errors import MessageError
from cardgame.server.host import Client, TableHost
from cardgame.server.messages import read_message
from cardgame.server.ratelimit import TokenBucket
from cardgame.server.registry import Registry
from cardgame.server.writer import StoreWriter
from cardgame.store import EventStore, HandVoided, Recorder, StoreError, recover
from cardgame.store.lease import Lease, LeaseHeld, LeaseLost
from cardgame.store.postgres import is_dsn
from cardgame.store.queries import highest
from cardgame.store.recorder import Row
from cardgame.store.serialize import SnapshotError, from_json

__all__ = ["MAX_BODY", "Server", "create_app"]

log = logging.getLogger("cardgame.server")

STATIC = Path(__file__).parent / "static"

#: The largest request body the lobby reads.
MAX_BODY = 4096
#: Messages a connection may queue unsent before it is dropped as too slow.
MAX_QUEUE = 1000
#: The most connections (players and spectators) one table takes.
MAX_CLIENTS = 200
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


class Server:
    """The tables of one process, their tasks, and the store they are recorded in.

    Every store operation runs on the store's own thread (:class:`~cardgame.server.writer.StoreWriter`),
    never on the event loop. A table shows no event before it is recorded: while its write is under
    way the table is held (:class:`~cardgame.server.host.TableHost`); when a write fails the table
    pauses, its players are told, and the same write is tried again, waiting longer each time (up
    to :data:`RETRY_MAX` seconds), until it succeeds and play resumes where it stopped. The
    process holds its name (``name``) by a lease in the store (:class:`~cardgame.store.lease.Lease`):
    a second process of the same name refuses to start. A table whose log cannot be recovered is set
    aside (logged, and listed as ``unavailable``) while the others start.
    """

    def __init__(self, db: str | None = None, *, name: str = "", max_tables: int = 500, rate: float = 20.0,
                 burst: float = 40.0, allowed_origins: Sequence[str] = (), phh: bool = True,
                 now: Callable[[], float] = time.monotonic, drain: float = 30.0) -> None:
        _check_settings(db, name, max_tables, rate, burst, allowed_origins)
        if type(drain) not in (int, float) or not 0 <= drain <= 86_400:
            raise ConfigError(f"The drain deadline is 0 to 86,400 seconds, not {excerpt(drain)}.")
        self.db = db
        self.phh = phh
        self.name = name
        self.max_tables = max_tables
        self.rate = rate
        self.burst = burst
        self.allowed_origins = frozenset(allowed_origins)
        self.now = now
        self.drain_deadline = float(drain)
        self.tables: dict[str, TableHost] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.store: EventStore | None = None
        self.registry: Registry | None = None
        self.writer: StoreWriter | None = None
        self.lease: Lease | None = None
        self.recorders: dict[str, Recorder] = {}
        self.writing: set[str] = set()  # tables with a write under way (held)
        self.retrying: dict[str, asyncio.Task[None]] = {}  # paused tables trying a failed write again
        self._due: list[str] = []  # tables whose rows go in the next group write
        self.unavailable: dict[str, dict[str, Any]] = {}  # tables set aside: their lobby rows
        self.others: list[dict[str, Any]] = []  # the tables other processes drive, as last read
        self._known: set[str] = set()  # every table id in the store
        self._renewing: asyncio.Task[None] | None = None
        self.draining = False
        self.started = False

    # --- life cycle --------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store, take this process's name and recover every table of it (an interrupted
        hand is void); a table that cannot be recovered is set aside. :class:`StoreError` (a clear
        message) if the store cannot be opened or another live process holds the name."""
        if self.started:
            return
        self.started = True
        if self.db is None:
            return
        self.writer = StoreWriter()
        deadline = time.monotonic() + START_WAIT
        while True:
            try:
                loaded = await self.writer.run(self._open)
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
            host.voided = voided
        self._renewing = asyncio.get_running_loop().create_task(self._renew())

    def _open(self) -> list[tuple[str, TableConfig, Game, Recorder, dict[int, str], str | None]]:
        """On the store's thread: open the store, take the lease, recover this process's tables."""
        store = EventStore(self.db or "", synchronous="FULL" if is_dsn(self.db or "") else "NORMAL",
                           timeout=WRITE_TIMEOUT)
        try:
            lease = Lease(store, self.name, ttl=LEASE_TTL)
            lease.acquire()
            registry = Registry(store)
            mine, corrupt = registry.rows(self.name)
            self._known = {t for t, *_ in registry.rows()[0]} | {t for t, _ in corrupt}
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
        return loaded

    def _set_aside(self, table_id: str, why: str, config: TableConfig | None = None) -> None:
        log.error("table %s is set aside: it cannot be recovered: %s", excerpt(table_id), why)
        self.unavailable[table_id] = {"id": table_id, "variant": config.variant_object().name if config else None,
                                      "config": config.public_data() if config else None, "players": [],
                                      "hands": None, "status": "unavailable", "error": why[:500], "url": None}

    def _recover(self, table_id: str, config: TableConfig
                 ) -> tuple[str, TableConfig, Game, Recorder, dict[int, str], str | None]:
        assert self.store is not None and self.registry is not None
        stages = config.variant_object().build(**config.params)
        last_hand = highest(self.store, "hands", "hand", table_id) or 0
        # a seeded table deals on from a seed of its own after each restart (not the first hands again)
        seed = config.game_seed() if config.seed is None else config.seed + 1_000_003 * (last_hand + 1)
        seed %= 10**18  # recover() takes at most 18 digits (an unseeded table's drawn seed has more)
        game = recover(self.store, table_id, stages, seed)
        voided = None
        last = self.store.query("SELECT kind, hand FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                                (table_id,))
        if last and last[0][0] == HandVoided.kind:
            voided = (f"Hand #{last[0][1]} was cancelled when the server restarted: every bet in it was returned "
                      "to its players.")
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
        self._due.append(table_id)
        if len(self._due) == 1:
            asyncio.get_running_loop().call_soon(self._write_due)
        return False

    def _write_due(self) -> None:
        due, self._due = self._due, []
        writer, store = self.writer, self.store
        if writer is None or store is None:
            return  # stopping: the store is closed
        groups = [self.recorders[t].take() for t in due]
        loop = asyncio.get_running_loop()

        def done(errors: list[BaseException | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the process is ending
                loop.call_soon_threadsafe(self._written_due, due, groups, errors)

        writer.write_group(store, self.lease, groups, done)

    def _written_due(self, due: list[str], groups: list[list[Row]], errors: list[BaseException | None]) -> None:
        for table_id, rows, error in zip(due, groups, errors, strict=True):
            if error is None:
                self._recorded(table_id)
            else:
                self.retrying[table_id] = asyncio.get_running_loop().create_task(self._retry(table_id, rows, error))

    def _recorded(self, table_id: str) -> None:
        """The table's rows so far are written: write what came since, or show it all and play on."""
        recorder, host = self.recorders[table_id], self.tables.get(table_id)
        if recorder.pending:
            self._due.append(table_id)
            if len(self._due) == 1:
                asyncio.get_running_loop().call_soon(self._write_due)
            return
        self.writing.discard(table_id)
        if host is not None and host.paused is None:
            host.release()
            self.wake(table_id)

    async def _retry(self, table_id: str, rows: list[Row], error: BaseException) -> None:
        """A write failed: pause the table, then try the same rows again, waiting longer each time,
        until they are written; then resume."""
        host = self.tables[table_id]
        delay = RETRY_FIRST
        try:
            while True:
                if isinstance(error, LeaseLost):
                    log.error("table %s stops: %s", table_id, error)
                    host.pause("This table stopped: another server process took it over. Reconnect to "
                               "continue there.")
                    return
                if host.paused is None:
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

    def create(self, config: TableConfig) -> TableHost:
        """A new table playing ``config``, recorded in the store if there is one (it shows nothing
        before its first events are recorded)."""
        if self.draining:
            raise CardgameError("This server is shutting down: it opens no new table.")
        if len(self.tables) >= self.max_tables:
            raise CardgameError(f"This server holds its most tables ({self.max_tables}); join one of them.")
        table_id = secrets.token_hex(4)
        while table_id in self.tables or table_id in self._known:
            table_id = secrets.token_hex(4)
        self._known.add(table_id)
        variant = config.variant_object()
        game = Game(variant, params=config.params, seats=config.seats, min_buy_in=config.min_buy_in,
                    max_buy_in=config.max_buy_in, seed=config.game_seed())
        if self.store is not None:
            recorder = Recorder(self.store, game, table_id, None, time.time, batch=True, next_seq=0)
            recorder.add_rows(Registry.add_rows(table_id, config, self.name) + recorder.start_rows(new_table=True))
            game.subscribe(recorder)
            self.recorders[table_id] = recorder
        # the clients' event numbers are the store's (the log's first row is its table state)
        host = self._host(table_id, config, game, first_seq=self.recorders[table_id].next_seq if self.store else 0)
        log.info("table %s created: %s, %d seats, seed %s", table_id, variant.name, config.seats, game.seed)
        return host

    def _host(self, table_id: str, config: TableConfig, game: Game, *, tokens: dict[int, str] | None = None,
              first_seq: int = 0) -> TableHost:
        recorder = self.recorders.get(table_id)

        def on_token(seat: int, digest: str | None) -> None:
            if recorder is not None:  # written with the seat's own events: one transaction
                recorder.add_rows(Registry.token_rows(table_id, seat, digest))

        host = TableHost(table_id, config, game=game, tokens=tokens, first_seq=first_seq, on_token=on_token,
                         before_send=None if recorder is None else lambda: self._gate(table_id), now=self.now)
        self.tables[table_id] = host
        self.wakes[table_id] = asyncio.Event()
        with contextlib.suppress(RuntimeError):  # no running loop: the task starts with the app
            self.tasks[table_id] = asyncio.get_running_loop().create_task(self._drive(host, self.wakes[table_id]))
        return host

    def start_tasks(self) -> None:
        loop = asyncio.get_running_loop()
        for table_id, host in self.tables.items():
            if table_id not in self.tasks:
                self.tasks[table_id] = loop.create_task(self._drive(host, self.wakes[table_id]))

    async def _drive(self, host: TableHost, wake: asyncio.Event) -> None:
        """The table's task: bots answer and clocks run out when their time comes."""
        while True:
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
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout)
            wake.clear()

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

    def wake(self, table_id: str) -> None:
        event = self.wakes.get(table_id)
        if event is not None:
            event.set()

    # --- checks -----------------------------------------------------------------------------------------------
    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """A browser's request must come from this server's own pages (or an allowed origin); a client
        that is not a browser sends no ``Origin``."""
        if origin is None:
            return True
        return origin in self.allowed_origins or (host is not None and origin in (f"http://{host}", f"https://{host}"))


def _transient(exc: StoreError) -> bool:
    """Whether a store that could not be opened may open if tried again (locked, or not reachable yet)."""
    text = str(exc).lower()
    return any(word in text for word in ("locked", "busy", "cannot connect", "connection"))


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _read_body(request: Request) -> bytes | None:
    """The request's body, or ``None`` if it holds more than :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit() or int(length) > MAX_BODY):
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


def _check_settings(db: object, name: object, max_tables: object, rate: object, burst: object,
                    allowed_origins: object) -> None:
    """:class:`ConfigError` naming the first of the server's settings that is not what it must be."""
    if db is not None:
        check_text(db, "database file name", ConfigError, max_length=4096)
    check_text(name, "server's name", ConfigError, max_length=1000, empty=True)
    check_int(max_tables, "max_tables", ConfigError, minimum=1)
    for what, value in (("rate", rate), ("burst", burst)):
        if type(value) not in (int, float) or not 0 < value < math.inf:  # type: ignore[operator]
            raise ConfigError(f"The {what} must be a positive number of messages a second, not {excerpt(value)}.")
    if isinstance(allowed_origins, str | bytes) or not isinstance(allowed_origins, Sequence | frozenset | set):
        raise ConfigError(f"allowed_origins is a list of web origins, not {excerpt(allowed_origins)}.")
    for origin in allowed_origins:
        check_text(origin, "allowed origin", ConfigError)


def create_app(db: str | None = None, *, name: str = "", max_tables: int = 500, rate: float = 20.0,
               burst: float = 40.0, allowed_origins: Sequence[str] = (), phh: bool = True,
               now: Callable[[], float] = time.monotonic, drain: float = 30.0) -> Starlette:
    """The server as an ASGI application (``app.state.server`` is its :class:`Server`).

    ``db``: where tables are recorded and recovered from (``None``: nowhere); ``name``: this
    process's address (``http://host:port``) when several share the database: each recovers the
    tables it created, and lists the others' with their address; ``max_tables``: the
    most tables it holds; ``rate`` and ``burst``: the messages a second each connection may send;
    ``allowed_origins``: other web origins whose pages may open websockets (``https://example.org``);
    ``phh``: each finished hand's PHH text can be had from its stored events
    (``GET /api/tables/{id}/hands/{n}.phh``), made when asked for; ``drain``: at a SIGTERM (``cardgame
    serve``), how long the hands in play have to finish before the process exits (seconds).
    """
    server = Server(db, name=name, max_tables=max_tables, rate=rate, burst=burst, allowed_origins=allowed_origins,
                    phh=phh, now=now, drain=drain)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        server.start_tasks()
        try:
            yield
        finally:
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

    async def create_table(request: Request) -> Response:
        if not server.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            return _error(403, "A table is created from this server's own lobby page.")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(415, "Send the table as JSON (Content-Type: application/json).")
        body = await _read_body(request)
        if body is None:
            return _error(413, f"A table's description may hold at most {MAX_BODY} bytes.")
        try:
            config = read_config(from_json(body))
            host = server.create(config)
            await server.settled(host.table_id)
        except SnapshotError as exc:
            return _error(400, f"The body must be JSON: {exc}.")
        except CardgameError as exc:
            return _error(400, str(exc))
        return JSONResponse(host.describe(), status_code=201)

    async def table_socket(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        if not server.origin_ok(websocket.headers.get("origin"), websocket.headers.get("host")):
            log.warning("table %s: websocket refused for its origin", excerpt(table_id))
            await websocket.close(code=1008)
            return
        host = server.tables.get(table_id)
        if host is None or len(host.clients) >= MAX_CLIENTS:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        cut = False

        def deliver(message: dict[str, Any]) -> None:
            nonlocal cut
            if cut:
                return
            if queue.qsize() >= MAX_QUEUE:  # a client that reads nothing is cut off, not buffered forever
                cut = True
                queue.put_nowait(None)
                return
            queue.put_nowait(message)

        async def write() -> None:
            while (message := await queue.get()) is not None:
                await websocket.send_text(json.dumps(message, separators=(",", ":")))
            await websocket.close(code=1008)

        client = Client(deliver)
        host.connect(client)
        writer = asyncio.get_running_loop().create_task(write())
        bucket = TokenBucket(server.rate, server.burst, server.now())
        refused = 0
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                data = received.get("text")
                if data is None:
                    data = received.get("bytes") or b""
                if not bucket.take(server.now()):
                    refused += 1
                    deliver({"type": "error", "code": "rate_limited", "seq": host.seq,
                             "message": f"At most {server.rate:g} messages a second (bursts of {server.burst:g})."})
                    if refused > 2 * server.burst:
                        log.warning("table %s: a connection flooding messages is closed", table_id)
                        if not cut:
                            cut = True
                            queue.put_nowait(None)  # the writer sends what is queued, then closes (policy violation)
                        await writer
                        break
                    continue
                try:
                    message = read_message(data)
                    host.handle(client, message)
                except MessageError as exc:
                    log.info("table %s: message refused (%s)", table_id, exc.code)
                    deliver({"type": "error", "code": exc.code, "message": exc.message, "seq": host.seq})
                    continue
                server.wake(table_id)
        except WebSocketDisconnect:
            pass
        finally:
            host.disconnect(client)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    app = Starlette(
        routes=[
            Route("/", lobby),
            Route("/table/{table_id}", table_page),
            Route("/api/variants", variants_list),
            Route("/api/bots", bots_list),
            Route("/api/tables", tables_list, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", table_info),
            Route("/api/tables/{table_id}/hands/{hand}.phh", hand_phh),
            WebSocketRoute("/ws/{table_id}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app

