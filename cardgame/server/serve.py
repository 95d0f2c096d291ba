"""``cardgame serve``: the table server under uvicorn, on the loopback interface by default."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from cardgame.engine.errors import ConfigError
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.model.rng import MAX_SEED, check_seed
from cardgame.server.app import create_app
from cardgame.server.config import MAX_SEATS, Limits, read_config
from cardgame.server.messages import MAX_MESSAGE

__all__ = ["serve"]


def serve(*, db: str | None, host: str = "127.0.0.1", port: int = 8000, tables: Sequence[str] = (), bots: int = 2,
          seed: int | None = None, allowed_origins: Sequence[str] = (), allowed_hosts: Sequence[str] = (),
          limits: Limits | None = None, name: str | None = None, phh: bool = True, console: Any = None) -> int:
    """Run the server until interrupted. ``tables``: variants to open a table of (with ``bots`` bots
    each) when the store holds no table yet; ``seed`` makes them practice tables whose deals replay
    (each table seeded ``seed``, ``seed + 1``...). ``name``: the address other processes sharing the
    database list this one's tables under (default ``http://HOST:PORT``). ``allowed_hosts``: names a
    request's ``Host`` may give besides ``localhost``, ``127.0.0.1`` and ``host``; ``limits``: what
    clients may do. Every argument is checked before the server starts
    (:class:`~cardgame.engine.errors.ConfigError`)."""
    check_text(host, "host", ConfigError)
    check_int(port, "port", ConfigError, minimum=0, maximum=65535)
    check_int(bots, "number of bots", ConfigError, minimum=0, maximum=MAX_SEATS - 1)
    if seed is not None:
        check_seed(seed)
    if isinstance(tables, str | bytes) or not isinstance(tables, Sequence):
        raise ConfigError(f"tables is a list of variants, not {excerpt(tables)}.")
    if isinstance(allowed_hosts, str | bytes) or not isinstance(allowed_hosts, Sequence):
        raise ConfigError(f"allowed_hosts is a list of host names, not {excerpt(allowed_hosts)}.")
    import uvicorn

    configs = [read_config({"variant": v, "bots": {str(s): "seed-ai" for s in range(1, bots + 1)}, "bot_delay": 0.6,
                            "hand_pause": 3, "name": f"{v} with {bots} bots",
                            "seed": None if seed is None else (seed + i) % (MAX_SEED + 1)})
               for i, v in enumerate(tables)]
    hosts = ["localhost", "127.0.0.1", *([] if host in ("0.0.0.0", "::", "") else [host]), *allowed_hosts]
    app = create_app(db, name=name if name is not None else f"http://{host}:{port}", allowed_origins=allowed_origins,
                     allowed_hosts=hosts, limits=limits, phh=phh)
    server = app.state.server
    server.opening = configs  # opened as the server starts, when the store holds no table

    config = uvicorn.Config(app, host=host, port=port, ws_max_size=4 * MAX_MESSAGE, log_level="info",
                            ws_ping_interval=20, ws_ping_timeout=20)
    runner = uvicorn.Server(config)

    async def main() -> None:
        async def announce() -> None:
            while not runner.started:
                await asyncio.sleep(0.05)
            if console is not None:
                console.print(f"cardgame server on http://{host}:{port}/ ({len(server.tables)} tables; "
                              f"{'recording to ' + db if db else 'not recording'})", highlight=False)

        opener = asyncio.create_task(announce())
        await runner.serve()
        opener.cancel()

    try:  # uvloop (in uvicorn[standard]) runs the event loop faster where it is installed
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as loop:
        loop.run(main())
    if not runner.started:  # uvicorn said why (the port is taken, say)
        return 1
    return 0
