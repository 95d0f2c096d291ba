"""``cardgame serve``: the table server under uvicorn, on the loopback interface by default."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Sequence
from types import FrameType
from typing import Any

from cardgame.engine.errors import CardgameError, ConfigError
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.model.rng import MAX_SEED, check_seed
from cardgame.server.app import Server, create_app
from cardgame.server.config import MAX_SEATS, Limits, read_config
from cardgame.server.messages import MAX_MESSAGE
from cardgame.server.wsprotocol import PROTOCOL
from cardgame.store.postgres import redact

__all__ = ["serve"]

log = logging.getLogger("cardgame.server")

#: How uvicorn runs the server's websockets (``cardgame serve``, and the tests' servers): websockets's sans-I/O
#: protocol, which sends a message with one transport write and no task or queue of its own (uvicorn's older
#: ``websockets`` one, its default before 0.50, cost about a third more CPU a message), as uvicorn's
#: ``websockets-sansio`` runs it, with a synchronous send for the tables' messages
#: (:mod:`cardgame.server.wsprotocol`); a client's message at most four times the largest the tables read; a
#: ping every 20 s, answered within 20 s. No permessage-deflate: a view is about a kilobyte, and compressing
#: each one cost the server more CPU (zlib and its framing, for every message to every connection) than the
#: bytes it saved are worth.
WEBSOCKET_OPTIONS: dict[str, Any] = {"ws": PROTOCOL, "ws_max_size": 4 * MAX_MESSAGE,
                                     "ws_ping_interval": 20, "ws_ping_timeout": 20, "ws_per_message_deflate": False}

#: Python's thread switch interval while ``cardgame serve`` runs (microseconds; Python's default is 5000).
#: The store's thread lets go of the interpreter at each SQL statement and must then wait for the event
#: loop to hand it back, which a busy loop does only when the interval runs out, while a table waits for
#: its events' write before it shows them: 1000 lowered the load benchmark's decision p99 (median of nine
#: paired runs 81 ms to 69 ms) for no more CPU (docs/server.md).
SWITCH_INTERVAL_US: int | None = 1000

#: Python's cyclic garbage collector while ``cardgame serve`` runs: a young-generation collection after this
#: many allocations (Python's default is 700), and what the server holds once started (modules, recovered
#: tables) frozen out of the collections (``gc.freeze``). A full collection walks every object the process
#: holds and stops every table meanwhile (at 200 tables, 50 to 150 ms, a few times a minute); a larger young
#: generation lets a decision's short-lived objects die before they are collected, so fewer reach the old
#: generations and full collections come rarer (docs/server.md).
GC_THRESHOLD: int | None = 50_000


class _Runner:
    """uvicorn's server, made to drain at the first SIGTERM or SIGINT: no new hand is dealt, the hands
    in play finish (at most the drain deadline), everything is recorded, then it exits. A second
    signal exits at once (a hand still in play is voided when the server is next started)."""

    def __init__(self, config: Any, server: Server) -> None:
        import uvicorn

        outer = self

        class Runner(uvicorn.Server):
            def handle_exit(self, sig: int, frame: FrameType | None) -> None:
                if outer.draining is None and not self.should_exit:
                    self._captured_signals.append(sig)
                    outer.draining = outer.loop.call_soon_threadsafe(outer.start_drain)
                    return
                super().handle_exit(sig, frame)

        self.runner = Runner(config)
        self.server = server
        self.draining: Any = None
        self.loop: Any = None  # the running loop, set by serve()

    def start_drain(self) -> None:
        async def drain() -> None:
            log.info("shutting down: the hands in play finish first (at most %g s)", self.server.drain_deadline)
            await self.server.drain()
            self.runner.should_exit = True

        self.drain_task = asyncio.get_running_loop().create_task(drain())


def serve(*, db: str | None, host: str = "127.0.0.1", port: int = 8000, tables: Sequence[str] = (), bots: int = 2,
          seed: int | None = None, allowed_origins: Sequence[str] = (), allowed_hosts: Sequence[str] = (),
          limits: Limits | None = None, name: str | None = None, phh: bool = True, console: Any = None,
          drain: float = 30.0, events: Sequence[str] = (), switch_interval_us: int | None = SWITCH_INTERVAL_US,
          gc_threshold: int | None = GC_THRESHOLD) -> int:
    """Run the server until interrupted. ``tables``: variants to open a table of (with ``bots`` bots
    each) when the store holds no table yet; ``seed`` makes them practice tables whose deals replay
    (each table seeded ``seed``, ``seed + 1``...). ``name``: the address other processes sharing the
    database list this one's tables under (default ``http://HOST:PORT``); another live process
    holding that name in the store stops this one from starting. ``allowed_hosts``: names a
    request's ``Host`` may give besides ``localhost``, ``127.0.0.1`` and ``host``; ``limits``: what
    clients may do; ``drain``: at SIGTERM, the seconds the hands in play have to finish. Every
    argument is checked before the server starts (:class:`~cardgame.engine.errors.ConfigError`); a
    store that cannot be opened, or a name another process holds, is said in one line and answered
    with exit status 1. ``events``: sit-and-gos to define when the store holds none, each a JSON object
    of :class:`~cardgame.server.events.EventConfig`'s fields. ``switch_interval_us``: Python's thread
    switch interval while the server runs, in microseconds (``sys.setswitchinterval``, put back at the end;
    ``None``: Python's own, 5000): how long the store's thread may wait for the interpreter once the event
    loop holds it. ``gc_threshold``: the garbage collector's young-generation threshold while the server runs
    (``gc.set_threshold``; ``None``: Python's own, 700, and nothing frozen); with it, what the server holds once
    started is frozen out of the collections (``gc.freeze``; both put back at the end)."""
    check_text(host, "host", ConfigError)
    if switch_interval_us is not None:
        check_int(switch_interval_us, "switch_interval_us", ConfigError, minimum=50, maximum=1_000_000)
    if gc_threshold is not None:
        check_int(gc_threshold, "gc_threshold", ConfigError, minimum=100, maximum=10_000_000)
    check_int(port, "port", ConfigError, minimum=0, maximum=65535)
    check_int(bots, "number of bots", ConfigError, minimum=0, maximum=MAX_SEATS - 1)
    if seed is not None:
        check_seed(seed)
    if isinstance(tables, str | bytes) or not isinstance(tables, Sequence):
        raise ConfigError(f"tables is a list of variants, not {excerpt(tables)}.")
    if isinstance(allowed_hosts, str | bytes) or not isinstance(allowed_hosts, Sequence):
        raise ConfigError(f"allowed_hosts is a list of host names, not {excerpt(allowed_hosts)}.")
    if isinstance(events, str | bytes) or not isinstance(events, Sequence):
        raise ConfigError(f"events is a list of JSON objects, not {excerpt(events)}.")
    from cardgame.server.events import read_event

    defined = [read_event(text) for text in events]
    import uvicorn

    configs = [read_config({"variant": v, "bots": {str(s): "seed-ai" for s in range(1, bots + 1)}, "bot_delay": 0.6,
                            "hand_pause": 3, "name": f"{v} with {bots} bots",
                            "seed": None if seed is None else (seed + i) % (MAX_SEED + 1)})
               for i, v in enumerate(tables)]
    hosts = ["localhost", "127.0.0.1", *([] if host in ("0.0.0.0", "::", "") else [host]), *allowed_hosts]
    app = create_app(db, name=name if name is not None else f"http://{host}:{port}", allowed_origins=allowed_origins,
                     allowed_hosts=hosts, limits=limits, phh=phh, drain=drain, events=defined)
    server = app.state.server
    server.opening = configs  # opened as the server starts, when the store holds no table

    config = uvicorn.Config(app, host=host, port=port, log_level="info", **WEBSOCKET_OPTIONS)
    holder = _Runner(config, server)
    runner = holder.runner
    failed: list[str] = []

    async def main() -> None:
        holder.loop = asyncio.get_running_loop()
        try:  # before uvicorn: a store that cannot be opened is one line, not a traceback; the --table
            await server.start()  # tables open here, before any client can connect
        except CardgameError as exc:
            failed.append(str(exc))
            await server.stop()
            return
        if gc_threshold is not None:  # what start-up made (modules, recovered tables) lives as long as the server
            gc.collect()
            gc.freeze()

        async def announce() -> None:
            while not runner.started:
                await asyncio.sleep(0.05)
            if console is not None:
                shown = redact(db) if db else ""
                aside = f", {len(server.unavailable)} set aside (see the log)" if server.unavailable else ""
                console.print(f"cardgame server on http://{host}:{port}/ ({len(server.tables)} tables{aside}; "
                              f"{'recording to ' + shown if db else 'not recording'})", highlight=False, markup=False)

        opener = asyncio.create_task(announce())
        await runner.serve()
        opener.cancel()

    try:  # uvloop (in uvicorn[standard]) runs the event loop faster where it is installed
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:
        factory = None
    interval, thresholds, frozen = sys.getswitchinterval(), gc.get_threshold(), gc.get_freeze_count()
    if switch_interval_us is not None:
        sys.setswitchinterval(switch_interval_us / 1e6)
    if gc_threshold is not None:
        gc.set_threshold(gc_threshold, *thresholds[1:])
    try:
        with asyncio.Runner(loop_factory=factory) as loop:
            loop.run(main())
    finally:
        sys.setswitchinterval(interval)
        gc.set_threshold(*thresholds)
        if not frozen:  # (what a caller froze before stays frozen)
            gc.unfreeze()
    if failed:
        log.error("cardgame serve cannot start: %s", failed[0])
        return 1
    if not runner.started:  # uvicorn said why (the port is taken, say)
        return 1
    return 0
