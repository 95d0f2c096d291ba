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
from typing import Any, Literal

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
from cardgame.store import EventStore, recover
from cardgame.store.queries import highest
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


class Server:
    """The tables of one process, their tasks, and the store they are recorded in."""

    def __init__(self, db: str | None = None, *, name: str = "", max_tables: int = 500, rate: float = 20.0,
                 burst: float = 40.0, allowed_origins: Sequence[str] = (), phh: bool = True,
                 now: Callable[[], float] = time.monotonic) -> None:
        _check_settings(db, name, max_tables, rate, burst, allowed_origins)
        self.db = db
        self.phh: Literal["auto"] | None = "auto" if phh else None
        self.name = name
        self.max_tables = max_tables
        self.rate = rate
        self.burst = burst
        self.allowed_origins = frozenset(allowed_origins)
        self.now = now
        self.tables: dict[str, TableHost] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.store: EventStore | None = None
        self.registry: Registry | None = None

    # --- life cycle --------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and recover every table it holds (an interrupted hand is void)."""
        if self.db is None:
            return
        self.store = EventStore(self.db, synchronous="NORMAL")
        self.registry = Registry(self.store)
        for table_id, config, _owner in self.registry.tables(self.name):
            self._recover(table_id, config)

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
        # a seeded table deals on from a seed of its own after each restart (not the first hands again)
        seed = config.game_seed() if config.seed is None else config.seed + 1_000_003 * (last_hand + 1)
        before = highest(self.store, "events", "seq", table_id)
        game = recover(self.store, table_id, stages, seed)
        recorder = self.store.record(game, table_id, batch=True, phh_writer=self.phh)
        last = highest(self.store, "events", "seq", table_id)
        host = self._host(table_id, config, game, tokens=self.registry.tokens(table_id), first_seq=(last or 0) + 1,
                          before_send=recorder.flush)
        if last != before:  # recover wrote a HandVoided: the players of that hand are told when they come back
            host.notice("voided", f"Hand #{last_hand} was voided when the server restarted; every bet was returned.")
        log.info("table %s recovered at hand %d, seed %s", table_id, game.ctx.hands_played, game.seed)

    def create(self, config: TableConfig) -> TableHost:
        """A new table playing ``config``, recorded in the store if there is one."""
        if len(self.tables) >= self.max_tables:
            raise CardgameError(f"This server holds its most tables ({self.max_tables}); join one of them.")
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        variant = config.variant_object()
        game = Game(variant, params=config.params, seats=config.seats, min_buy_in=config.min_buy_in,
                    max_buy_in=config.max_buy_in, seed=config.game_seed())
        flush = None
        if self.store is not None and self.registry is not None:
            self.registry.add(table_id, config, self.name)
            flush = self.store.record(game, table_id, batch=True, phh_writer=self.phh).flush
        host = self._host(table_id, config, game, before_send=flush)
        log.info("table %s created: %s, %d seats, seed %s", table_id, variant.name, config.seats, game.seed)
        return host

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
               now: Callable[[], float] = time.monotonic) -> Starlette:
    """The server as an ASGI application (``app.state.server`` is its :class:`Server`).

    ``db``: where tables are recorded and recovered from (``None``: nowhere); ``name``: this
    process's address (``http://host:port``) when several share the database: each recovers the
    tables it created, and lists the others' with their address; ``max_tables``: the
    most tables it holds; ``rate`` and ``burst``: the messages a second each connection may send;
    ``allowed_origins``: other web origins whose pages may open websockets (``https://example.org``);
    ``phh``: the store keeps each finished hand's PHH text too (``hands.phh``; about a tenth of a
    busy server's time).
    """
    server = Server(db, name=name, max_tables=max_tables, rate=rate, burst=burst, allowed_origins=allowed_origins,
                    phh=phh, now=now)

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
        return JSONResponse(server.listing())

    async def table_info(request: Request) -> Response:
        host = server.tables.get(request.path_params["table_id"])
        if host is None:
            return _error(404, f"No table {excerpt(request.path_params['table_id'])}.")
        return JSONResponse(host.describe())

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
            WebSocketRoute("/ws/{table_id}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app

