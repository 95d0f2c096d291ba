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
import ipaddress
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from cardgame.engine.errors import CardgameError, ConfigError
from cardgame.model.inputs import check_instance, check_text, excerpt
from cardgame.play.game import Game
from cardgame.server.config import Limits, TableConfig, read_config, variant_params
from cardgame.server.errors import LimitError, MessageError
from cardgame.server.host import Client, TableHost, hash_token
from cardgame.server.messages import Resume, Sit, read_message
from cardgame.server.ratelimit import TokenBucket
from cardgame.server.registry import Registry
from cardgame.store import EventStore, recover
from cardgame.store.queries import highest
from cardgame.store.serialize import SnapshotError, from_json

__all__ = ["MAX_BODY", "Server", "create_app"]

log = logging.getLogger("cardgame.server")

STATIC = Path(__file__).parent / "static"

#: The largest request body the lobby reads.
MAX_BODY = 4096
#: Seconds a connection turned away as a spectator (the table has its most) has to take a seat.
SEAT_WAIT = 30.0
#: The most client addresses whose message rates are remembered (those with no connection go first).
_MAX_BUCKETS = 10_000


class Server:
    """The tables of one process, their tasks, and the store they are recorded in. ``limits``
    (:class:`~cardgame.server.config.Limits`) bounds what clients may do; the operator's own tables
    (:meth:`create`) are bound by none of them."""

    def __init__(self, db: str | None = None, *, name: str = "", limits: Limits | None = None,
                 allowed_origins: Sequence[str] = (), phh: bool = True,
                 now: Callable[[], float] = time.monotonic) -> None:
        _check_settings(db, name, allowed_origins)
        self.limits = check_instance(limits if limits is not None else Limits(), Limits, "A Limits", ConfigError)
        self.db = db
        self.phh: Literal["auto"] | None = "auto" if phh else None
        self.name = name
        self.allowed_origins = frozenset(allowed_origins)
        self.now = now
        self.tables: dict[str, TableHost] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.store: EventStore | None = None
        self.registry: Registry | None = None
        self.creators: dict[str, tuple[str, str]] = {}  # a client's table -> (its address, its creator token's hash)
        self.busy_at: dict[str, float] = {}  # a client's table -> when someone last sat or watched there
        self.connections: dict[str, int] = {}  # client address -> open websockets
        self.buckets: dict[str, TokenBucket] = {}  # client address -> its message rate over all its connections
        self.sockets: dict[str, set[_Connection]] = {}  # table -> its open websockets
        self.opening: list[TableConfig] = []  # the operator's tables to open at start when the store holds none

    # --- life cycle --------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and recover every table it holds (an interrupted hand is void); with none,
        open the tables of :attr:`opening` (before any client can)."""
        await self._open_store()
        if not self.tables:
            for config in self.opening:
                self.create(config)

    async def _open_store(self) -> None:
        if self.db is None:
            return
        self.store = EventStore(self.db, synchronous="NORMAL")
        self.registry = Registry(self.store)
        creators = self.registry.creators()
        for table_id, config, _owner in self.registry.tables(self.name):
            self._recover(table_id, config)
            if table_id in creators:
                self.creators[table_id] = creators[table_id]
                self.busy_at[table_id] = self.now()

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.tasks.clear()
        if self.store is not None:
            self.store.close()
            self.store = None

    def _recover(self, table_id: str, config: TableConfig) -> None:
        assert self.store is not None and self.registry is not None
        stages = config.variant_object().build(**config.params)
        last_hand = highest(self.store, "hands", "hand", table_id) or 0
        # after a restart every table shuffles from the operating system's source: a seed derived from
        # the configured one (which its creator knows) would tell the cards
        before = highest(self.store, "events", "seq", table_id)
        game = recover(self.store, table_id, stages, None)
        recorder = self.store.record(game, table_id, batch=True, phh_writer=self.phh)
        last = highest(self.store, "events", "seq", table_id)
        host = self._host(table_id, config, game, tokens=self.registry.tokens(table_id), first_seq=(last or 0) + 1,
                          before_send=recorder.flush)
        if last != before:  # recover wrote a HandVoided: the players of that hand are told when they come back
            host.notice("voided", f"Hand #{last_hand} was voided when the server restarted; every bet was returned.")
        log.info("table %s recovered at hand %d", table_id, game.ctx.hands_played)

    def create(self, config: TableConfig) -> TableHost:
        """A new table playing ``config``, recorded in the store if there is one: the operator's
        (no client limit applies; a ``seed`` makes a practice table whose deals replay)."""
        check_instance(config, TableConfig, "A TableConfig", ConfigError)
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        variant = config.variant_object()
        game = Game(variant, params=config.params, seats=config.seats, min_buy_in=config.min_buy_in,
                    max_buy_in=config.max_buy_in, seed=config.seed)
        flush = None
        if self.store is not None and self.registry is not None:
            self.registry.add(table_id, config, self.name)
            flush = self.store.record(game, table_id, batch=True, phh_writer=self.phh).flush
        host = self._host(table_id, config, game, before_send=flush)
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
        if self.registry is not None:
            self.registry.set_creator(host.table_id, address, hash_token(token))
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
        if self.registry is not None:
            self.registry.remove(table_id)
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
              first_seq: int = 0, before_send: Callable[[], None] | None = None) -> TableHost:
        registry = self.registry

        def on_token(seat: int, digest: str | None) -> None:
            if registry is not None:
                registry.set_token(table_id, seat, digest)

        host = TableHost(table_id, config, game=game, tokens=tokens, first_seq=first_seq, on_token=on_token,
                         before_send=before_send, now=self.now)
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

    def listing(self) -> list[dict[str, Any]]:
        """Every table for the lobby: this process's in full, then those other processes sharing the
        database drive, with the address (``url``) of their own server."""
        found = [{**host.describe(), "url": f"/table/{table_id}"} for table_id, host in self.tables.items()]
        if self.registry is not None:
            for table_id, config, owner in self.registry.tables():
                if owner != self.name and table_id not in self.tables:
                    found.append({"id": table_id, "variant": config.variant_object().name,
                                  "config": config.public_data(), "players": [], "hands": None, "status": "elsewhere",
                                  "owner": owner, "url": f"{owner.rstrip('/')}/table/{table_id}"})
        return found

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


def _address(connection: HTTPConnection) -> str:
    """The client's address, what its limits count (uvicorn takes it from a trusted proxy's
    ``X-Forwarded-For``): an IPv6 address by its /64 network, as one subscriber holds a whole /64."""
    host = connection.client.host if connection.client is not None else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host


class _Connection:
    """One websocket: a bounded queue of JSON text its writer sends, with a time limit on each send.
    A client whose unsent text passes ``limits.send_queue`` bytes, or that takes longer than
    ``limits.send_timeout`` to take a message, is dropped and its queue freed."""

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

    def deliver(self, message: dict[str, Any]) -> None:
        if self.dropped or self.ending:
            return
        text = json.dumps(message, separators=(",", ":"))
        if self.queued + len(text) > self.server.limits.send_queue:
            self.drop(f"more than {self.server.limits.send_queue:,} bytes unsent")
            return
        self.queued += len(text)
        self.queue.append(text)
        self.ready.set()

    def drop(self, why: str) -> None:
        """Throw the unsent text away and end the connection now (a send it is stuck in is cancelled)."""
        if not self.dropped:
            log.warning("table %s: a connection that does not read is dropped (%s)", self.host.table_id, why)
            self.dropped = True
            self.queue.clear()
            self.queued = 0
            self.ready.set()
            for task in self.tasks:
                task.cancel()

    def finish(self, message: dict[str, Any] | None = None) -> None:
        """Send ``message`` after what is queued, then close."""
        if message is not None:
            self.deliver(message)
        self.ending = True
        self.ready.set()

    async def write(self) -> None:
        timeout = self.server.limits.send_timeout
        while not self.dropped:
            await self.ready.wait()
            self.ready.clear()
            while self.queue and not self.dropped:
                text = self.queue.popleft()
                self.queued -= len(text)
                try:
                    await asyncio.wait_for(self.websocket.send_text(text), timeout)
                except TimeoutError:
                    self.drop(f"a message took more than {timeout:g} s to send")
            if self.ending:
                return

    async def read(self) -> None:
        """Messages until the client leaves, floods, or (turned away as a spectator) does not sit in time."""
        server, host, limits = self.server, self.host, self.server.limits
        bucket = TokenBucket(limits.rate, limits.burst, server.now())
        refused = 0
        if self.watching:
            host.connect(self.client)
        else:
            self.deliver({"type": "error", "code": "full", "seq": host.seq,
                          "message": f"This table has its most spectators ({limits.max_spectators}); send 'sit' or "
                                     f"'resume' within {SEAT_WAIT:g} seconds to play, or come back later."})
        deadline = server.now() + SEAT_WAIT
        while True:
            if self.watching:
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
            if not bucket.take(server.now()) or not server.take(self.address):
                refused += 1
                self.deliver({"type": "error", "code": "rate_limited", "seq": host.seq,
                              "message": f"At most {limits.rate:g} messages a second (bursts of {limits.burst:g}) "
                                         f"a connection, {limits.client_rate:g} from one address."})
                if refused > 2 * limits.burst:
                    log.warning("table %s: a connection flooding messages is closed", host.table_id)
                    self.finish()  # the writer sends what is queued, then the socket is closed (policy violation)
                    return
                continue
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
                continue
            server.wake(host.table_id)

    async def run(self) -> None:
        host = self.host
        spectators = sum(1 for c in host.clients if c.seat is None)
        self.watching = spectators < self.server.limits.max_spectators
        self.server.sockets.setdefault(host.table_id, set()).add(self)
        loop = asyncio.get_running_loop()
        writer, reader = loop.create_task(self.write()), loop.create_task(self.read())
        self.tasks = (writer, reader)
        try:
            await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader.done() and not writer.done() and self.ending:  # flooding, or no seat taken: send, then close
                with contextlib.suppress(TimeoutError, asyncio.CancelledError):  # cancelled: dropped meanwhile
                    await asyncio.wait_for(asyncio.shield(writer), self.server.limits.send_timeout)
        finally:
            host.disconnect(self.client)
            self.server.sockets.get(host.table_id, set()).discard(self)
            self.queue.clear()
            for task in (reader, writer):
                task.cancel()
            for task in (reader, writer):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            with contextlib.suppress(Exception):  # the client gone already, or not reading: give up soon
                await asyncio.wait_for(self.websocket.close(code=1008), 1.0)


def create_app(db: str | None = None, *, name: str = "", max_tables: int | None = None, rate: float | None = None,
               burst: float | None = None, limits: Limits | None = None, allowed_origins: Sequence[str] = (),
               allowed_hosts: Sequence[str] = ("localhost", "127.0.0.1"), phh: bool = True,
               now: Callable[[], float] = time.monotonic) -> Starlette:
    """The server as an ASGI application (``app.state.server`` is its :class:`Server`).

    ``db``: where tables are recorded and recovered from (``None``: nowhere); ``name``: this
    process's address (``http://host:port``) when several share the database: each recovers the
    tables it created, and lists the others' with their address; ``limits``: what clients may do
    (:class:`~cardgame.server.config.Limits`; ``max_tables``, ``rate`` and ``burst`` replace its
    fields of those names); ``allowed_origins``: other web origins whose pages may open websockets
    (``https://example.org``); ``allowed_hosts``: the names a request's ``Host`` may give (Starlette's
    ``TrustedHostMiddleware``: a DNS-rebinding page reaches nothing; ``"*"`` allows any);
    ``phh``: the store keeps each finished hand's PHH text too (``hands.phh``; about a tenth of a
    busy server's time).
    """
    _check_names(allowed_hosts, "allowed_hosts", "host names")
    limits = check_instance(limits if limits is not None else Limits(), Limits, "A Limits", ConfigError)
    changes: dict[str, Any] = {k: v for k, v in (("max_tables", max_tables), ("rate", rate), ("burst", burst))
                               if v is not None}
    try:
        limits = attrs.evolve(limits, **changes)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"Bad limits: {excerpt(str(exc))}") from None
    server = Server(db, name=name, limits=limits, allowed_origins=allowed_origins, phh=phh, now=now)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        server.start_tasks()
        reaper = asyncio.get_running_loop().create_task(server._reaper())
        try:
            yield
        finally:
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
        return JSONResponse(server.listing())

    async def table_info(request: Request) -> Response:
        host = server.tables.get(request.path_params["table_id"])
        if host is None:
            return _error(404, f"No table {excerpt(request.path_params['table_id'])}.")
        return JSONResponse(host.describe())

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
        except SnapshotError as exc:
            return _error(400, f"The body must be JSON: {exc}.")
        except LimitError as exc:
            return _error(exc.status, str(exc))
        except CardgameError as exc:
            return _error(400, str(exc))
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
            Route("/api/tables/{table_id}/deals", table_deals),
            WebSocketRoute("/ws/{table_id}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
