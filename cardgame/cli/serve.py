"""``cardgame serve``: the table server (needs ``cardgame[server]``)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_SEED, port, whole
from cardgame.model.errors import CardgameError

__all__ = ["add"]


def run(args: argparse.Namespace, console: Console) -> int:
    try:
        from cardgame.server.serve import serve
    except ImportError as exc:
        raise CardgameError(f"cardgame serve needs the server extra ({exc.name} is missing): "
                            "pip install 'cardgame[server]'") from None
    from cardgame.server.config import Limits

    limits = Limits(max_tables=args.max_tables, tables_per_client=args.tables_per_client,
                    idle_close=float(args.idle_close), max_spectators=args.max_spectators,
                    connections_per_client=args.connections_per_client, client_rate=float(args.client_rate),
                    client_burst=2.0 * args.client_rate)
    return serve(db=None if args.no_db else args.db, host=args.host, port=args.port, tables=args.table,
                 bots=args.bots, seed=args.seed, allowed_origins=args.allow_origin, allowed_hosts=args.allow_host,
                 limits=limits, name=args.name, phh=not args.no_phh, console=console, drain=args.drain,
                 events=args.event, **({} if args.switch_interval is None else
                                       {"switch_interval_us": args.switch_interval}),
                 **({} if args.gc_threshold is None else {"gc_threshold": args.gc_threshold or None}))


def gc_threshold(text: str) -> int:
    """``--gc-threshold``: 0 (Python's own collector) or 100 to 10,000,000."""
    value = whole("--gc-threshold", 0, 10_000_000)(text)
    if 0 < value < 100:
        raise argparse.ArgumentTypeError(f"--gc-threshold is 0 (Python's own) or 100 to 10,000,000, not {value}")
    return value


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``serve`` subcommand: the table server (needs ``cardgame[server]``)."""
    serve = sub.add_parser("serve", help="the table server: a lobby and tables in the browser, over websockets")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port, default=8000, help="default 8000")
    serve.add_argument("--db", default="cardgame-server.db",
                       help="the event store tables are recorded in and recovered from: a SQLite file (default "
                            "cardgame-server.db) or a postgresql:// address")
    serve.add_argument("--no-db", action="store_true", help="record nothing: tables end with the process")
    serve.add_argument("--no-phh", action="store_true",
                       help="do not give finished hands as PHH text (GET /api/tables/ID/hands/N.phh, made from the "
                            "stored events when asked for)")
    serve.add_argument("--table", action="append", default=[], metavar="VARIANT",
                       help="open a table of this variant (name or PHH code) when the server holds none; repeatable")
    serve.add_argument("--event", action="append", default=[], metavar="JSON",
                       help="define a sit-and-go when the server holds none: a JSON object such as '{\"name\": "
                            "\"Nightly\", \"seats\": 6, \"stack\": 1500, \"structure\": \"turbo sng\", "
                            "\"payouts\": [65, 35]}' (docs/server.md lists its fields); repeatable")
    serve.add_argument("--bots", type=whole("number of bots", 0, 9), default=2,
                       help="bots seated at each --table (default 2)")
    serve.add_argument("--name", default=None, metavar="URL",
                       help="this process's address, for several processes sharing one database: each drives the "
                            "tables it created (default http://HOST:PORT)")
    serve.add_argument("--drain", type=whole("drain deadline", 0, 86_400), default=30, metavar="SECONDS",
                       help="at SIGTERM, how long the hands in play have to finish before the server exits (no new "
                            "hand is dealt meanwhile; default 30)")
    serve.add_argument("--switch-interval", type=whole("--switch-interval", 50, 1_000_000),
                       default=None, metavar="MICROSECONDS",
                       help="Python's thread switch interval while the server runs: how long the store's thread "
                            "may wait for the interpreter while the event loop is busy (default 1000; Python's own is "
                            "5000; docs/server.md)")
    serve.add_argument("--gc-threshold", type=gc_threshold, default=None, metavar="ALLOCATIONS",
                       help="Python's garbage collector while the server runs: a young-generation collection after "
                            "this many allocations, 100 to 10000000, with what start-up made frozen out of the "
                            "collections (default 50000); 0: Python's own (700, nothing frozen; docs/server.md)")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                       help="another web origin whose pages may connect (e.g. https://example.org)")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="a host name requests may be addressed to, besides localhost, 127.0.0.1 and --host "
                            "(e.g. cards.example.org; '*' allows any); repeatable")
    serve.add_argument("--seed", type=whole("--seed", 0, MAX_SEED), default=None,
                       help="make the --table tables practice tables whose deals replay from this seed (tables "
                            "opened from the lobby always shuffle from the operating system)")
    serve.add_argument("--max-tables", type=whole("--max-tables", 1, 100_000), default=200, metavar="N",
                       help="the most tables in all (default 200)")
    serve.add_argument("--tables-per-client", type=whole("--tables-per-client", 1, 100_000), default=3, metavar="N",
                       help="the most tables one client address may have open (default 3)")
    serve.add_argument("--idle-close", type=whole("--idle-close", 1, 30 * 86400), default=1800, metavar="SECONDS",
                       help="close a client's table nobody has sat at or watched for this long (default 1800)")
    serve.add_argument("--max-spectators", type=whole("--max-spectators", 0, 100_000), default=50, metavar="N",
                       help="the most connections watching one table; seated players always connect (default 50)")
    serve.add_argument("--connections-per-client", type=whole("--connections-per-client", 1, 100_000), default=32,
                       metavar="N", help="the most websockets one client address may have open (default 32)")
    serve.add_argument("--client-rate", type=whole("--client-rate", 1, 50_000), default=40, metavar="N",
                       help="the messages a second one client address may send over all its connections, in bursts "
                            "of twice as many (default 40)")
    serve.set_defaults(run=run)
