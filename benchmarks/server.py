"""Load on the table server: many tables of simple bots playing over loopback websockets.

The server runs as it is deployed, ``python -m cardgame serve`` in processes of its own (``--db``:
``sqlite``, a temporary SQLite file; ``none``, no store; or a ``postgresql://`` address, where each
run gets a schema of its own, dropped afterwards; the PostgreSQL store must be installed). The
benchmark creates ``--tables`` tables over HTTP (``POST /api/tables``; every seat remote, no
server bots, an action clock long enough never to run out), then a load generator, a process of
its own (asyncio and the ``websockets`` client), opens one websocket a seat, sits and plays:
check or call, sometimes a minimum raise, sometimes a fold to a bet; a draw stands pat, a run-out
is run once; a busted player tops up and sits in again. Each decision waits ``--think-ms``
(uniform from 0 to that many milliseconds; 0: answer at once, which shows the saturation
throughput) and answers the question with the ``seq`` of the newest view. A connection sends at
most 18 messages a second (the server refuses more than 20); waits for that are counted.

Measured in a window of ``--seconds`` after every seat is seated and ``--warmup`` seconds more:

* hands a second (``hand ended`` events on one connection a table) and decisions a second;
* latency, from sending a decision to receiving the view whose events include it: p50, p95, p99
  and max. It is measured by the generator, so it includes the generator's own delays (its CPU
  use is reported too);
* each server process's RSS (``VmRSS`` at start, when the window opens and when it closes, and
  the peak ``VmHWM``) and its CPU use in the window;
* chips: when the window closes the bots stop, and a spectator's view of every table must hold
  (stacks plus pot) exactly the chips its players bought in with (their ``sit`` and top-ups, as
  the generator counted them). Any other figure is printed as a failure;
* the load generator's own stalls: how late a 10 ms timer of its event loop ran (p99 and max, in the
  window). A latency includes them; where they come near the latency's p99, the generator is the
  bottleneck and the figure says more of it than of the server. (The generator freezes what seating
  made out of its garbage collections and collects its young objects every 50,000 allocations, as the
  server does, so that its full collections do not stall every table's measurement at once);
* protocol errors received (0 expected; ``stale`` is counted apart: a decision that raced another
  seat's sit or top-up is refused as stale and answered again, as the protocol intends), and gaps
  in the views' event numbers (0 expected).

``--processes K`` runs K server processes on K ports sharing the one database (SQLite in WAL
mode, or PostgreSQL), each hosting every K-th table. Several values of ``--think-ms`` and
``--processes`` run every combination, one row each.

    python benchmarks/server.py                          # 200 heads-up tables, 60 s, think 0-200 ms and 0
    python benchmarks/server.py --processes 1 2 --json server.json
    python benchmarks/server.py --seats 3-6 --db none --think-ms 0
    python benchmarks/server.py --quick                  # 20 tables, 5 s: a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import platform
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: Messages a second (and the burst) one connection sends at most: under the server's 20 (burst 40).
CLIENT_RATE = 18.0
CLIENT_BURST = 30.0
#: Connections opened at once while seating.
OPENING = 40
#: The generator's garbage collector: young collections this many allocations apart (Python's default is 700),
#: and what seating made frozen out of them (``gc.freeze``), as ``cardgame serve`` does (its ``GC_THRESHOLD``).
GENERATOR_GC_THRESHOLD = 50_000
#: How often the generator's lag monitor wakes (seconds).
LAG_TICK = 0.01
#: The events that carry a decision, by ``kind``.
DECISION_KINDS = frozenset({"action", "discarded", "runs chosen"})


# --- the load generator: python benchmarks/server.py --generator (a spec on stdin) ----------------------


class Bucket:
    """A token bucket: :meth:`delay` is how long to wait before the next message may go."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def delay(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class Load:
    """What one generator process counts, for the tables it plays."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.think = float(spec["think_ms"]) / 1000.0
        self.rng = random.Random(spec["seed"])
        self.go: float | None = None  # the window, on time.monotonic
        self.stop: float | None = None
        self.stopping = False
        self.hands = 0
        self.decisions = 0
        self.latencies: list[float] = []  # milliseconds
        self.errors: dict[str, int] = {}
        self.stale = 0
        self.gaps = 0
        self.superseded = 0
        self.throttled = 0
        self.top_ups = 0
        self.closed = 0
        self.lags: list[float] = []  # ms the lag monitor's timer ran late, in the window

    async def watch_lag(self) -> None:
        """Until cancelled: how late a :data:`LAG_TICK` timer of the loop runs (the generator's own stalls)."""
        while True:
            before = time.monotonic()
            await asyncio.sleep(LAG_TICK)
            after = time.monotonic()
            if self.measuring(before):
                self.lags.append(max(0.0, (after - before - LAG_TICK) * 1000.0))

    def measuring(self, at: float) -> bool:
        return self.go is not None and at >= self.go and (self.stop is None or at < self.stop)


class Seat:
    """One websocket playing one seat."""

    def __init__(self, table: Table, index: int) -> None:
        self.table = table
        self.index = index
        self.ws: Any = None
        self.seat: int | None = None
        self.newest = -1
        self.view: dict[str, Any] | None = None
        self.seated = asyncio.Event()
        self.refused: str | None = None
        self.pending: tuple[int, float] | None = None  # (seq answered, time sent)
        self.deciding: asyncio.Task[None] | None = None
        self.topping = False
        self.bucket = Bucket(CLIENT_RATE, CLIENT_BURST)

    async def send(self, message: dict[str, Any]) -> None:
        wait = self.bucket.delay()
        if wait > 0:
            self.table.load.throttled += 1
        while wait > 0:
            await asyncio.sleep(wait)
            wait = self.bucket.delay()
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    def my_row(self) -> dict[str, Any] | None:
        if self.view is None or self.seat is None:
            return None
        for row in self.view["table"]["seats"]:
            if row["seat"] == self.seat:
                return row  # type: ignore[no-any-return]
        return None


class Table:
    """One table's seats, and the chips its players brought to it."""

    def __init__(self, load: Load, port: int, table_id: str, seats: int) -> None:
        self.load = load
        self.port = port
        self.table_id = table_id
        self.seats = [Seat(self, i) for i in range(seats)]
        self.bought = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{self.table_id}"


def answer(question: dict[str, Any], seq: int, rng: random.Random, raise_p: float, fold_p: float) -> dict[str, Any]:
    """A simple bot's answer: check or call, a minimum raise now and then, a fold to a bet now and then."""
    kind = question["kind"]
    if kind == "draw":
        hole = question["hole"]
        return {"type": "draw", "discards": hole[: question["min"]], "seq": seq}
    if kind == "runs":
        return {"type": "runs", "count": 1, "seq": seq}
    raise_ = question["raise"]
    if raise_ is not None and rng.random() < raise_p:
        to = raise_["amounts"][0] if raise_["amounts"] else raise_["min"]
        return {"type": "act", "action": "bet" if raise_["is_bet"] else "raise", "amount": to, "seq": seq}
    if question["check"]:
        return {"type": "act", "action": "check", "seq": seq}
    if question["bring_in"]:
        return {"type": "act", "action": "bring_in", "seq": seq}
    if question["fold"] and rng.random() < fold_p:
        return {"type": "act", "action": "fold", "seq": seq}
    return {"type": "act", "action": "call", "seq": seq}


async def decide(seat: Seat, think: float) -> None:
    """Think, then answer the question of the newest view (if it still asks this seat)."""
    load = seat.table.load
    try:
        if think > 0:
            await asyncio.sleep(load.rng.uniform(0.0, think))
        view = seat.view
        if load.stopping or view is None:
            return
        question = view["question"]
        if question is None or question["seat"] != seat.seat:
            return
        message = answer(question, seat.newest, load.rng, load.spec["raise_p"], load.spec["fold_p"])
        if seat.pending is not None:
            load.superseded += 1
        await seat.send(message)
        sent = time.monotonic()
        seat.pending = (seat.newest, sent)
        if load.measuring(sent):
            load.decisions += 1
    finally:
        if asyncio.current_task() is seat.deciding:
            seat.deciding = None


def on_view(seat: Seat, view: dict[str, Any], now: float) -> bool:
    """Take in a view; ``True`` when the seat must now decide."""
    load = seat.table.load
    events = view["events"]
    if not view["full"] and seat.newest >= 0 and (not events or events[0]["seq"] != seat.newest + 1
                                                  or events[-1]["seq"] != view["seq"]):
        load.gaps += 1
    fresh = [e for e in events if e["seq"] > seat.newest]  # a full view repeats the hand's events
    seat.newest = view["seq"]
    seat.view = view
    if seat.pending is not None and any(e["kind"] in DECISION_KINDS and e["event"].get("seat") == seat.seat
                                        for e in fresh):
        if load.measuring(seat.pending[1]):
            load.latencies.append((now - seat.pending[1]) * 1000.0)
        seat.pending = None
    for e in fresh:
        if e["kind"] == "hand ended" and seat.index == 0 and load.measuring(now):
            load.hands += 1
        elif e["kind"] == "chips added" and e["event"]["seat"] == seat.seat:
            seat.table.bought += e["event"]["amount"]
            load.top_ups += 1
    question = view["question"]
    return question is not None and question["seat"] == seat.seat and not load.stopping


async def top_up(seat: Seat) -> None:
    """A busted player buys in again and sits in (between hands, or while others play one)."""
    seat.topping = True
    await seat.send({"type": "top_up", "amount": seat.table.load.spec["buy_in"]})
    await seat.send({"type": "sit_in"})


async def read(seat: Seat) -> None:
    """The seat's reader: every message the server sends it, until the connection closes."""
    load = seat.table.load
    try:
        async for raw in seat.ws:
            message = json.loads(raw)
            kind = message["type"]
            now = time.monotonic()
            if kind == "view":
                if on_view(seat, message, now):
                    if seat.deciding is not None:
                        seat.deciding.cancel()
                        seat.deciding = None
                    if load.think > 0:
                        seat.deciding = asyncio.get_running_loop().create_task(decide(seat, load.think))
                    else:
                        await decide(seat, 0.0)
                row = seat.my_row()
                if row is not None and not load.stopping:
                    if row["stack"] == 0 and row["sitting_out"] and not row["in_hand"] and not seat.topping:
                        await top_up(seat)
                    elif seat.topping and row["stack"] > 0 and not row["sitting_out"]:
                        seat.topping = False
            elif kind == "seated":
                seat.seat = message["seat"]
                seat.seated.set()
            elif kind == "error":
                if message["code"] == "stale":
                    load.stale += 1
                else:
                    load.errors[message["code"]] = load.errors.get(message["code"], 0) + 1
                if not seat.seated.is_set():
                    seat.refused = f"{message['code']}: {message['message']}"
                    seat.seated.set()
    except Exception as exc:  # a connection the server closed, or one this process closed
        if not load.stopping:
            load.closed += 1
            print(f"table {seat.table.table_id} seat {seat.index}: connection lost ({exc!r})", file=sys.stderr)


async def seat_table(table: Table, opening: asyncio.Semaphore, websockets: Any, compression: str | None,
                     readers: list[asyncio.Task[None]]) -> None:
    """Open the table's connections and sit each seat (seat i in seat i)."""
    async with opening:
        for seat in table.seats:
            seat.ws = await websockets.connect(table.url, compression=compression, max_size=None,
                                               ping_interval=None, open_timeout=60)
            readers.append(asyncio.get_running_loop().create_task(read(seat)))
            buy_in = table.load.spec["buy_in"]
            await seat.send({"type": "sit", "name": f"bot {seat.index}", "buy_in": buy_in, "seat": seat.index})
            await asyncio.wait_for(seat.seated.wait(), 60)
            if seat.refused is not None:
                raise RuntimeError(f"table {table.table_id}: seat {seat.index} refused ({seat.refused})")
            table.bought += buy_in


async def snapshot(table: Table, opening: asyncio.Semaphore, websockets: Any) -> dict[str, Any]:
    """A spectator's view of the table now: its chips (stacks and pot) and hand number."""
    async with opening, websockets.connect(table.url, ping_interval=None, max_size=None) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "view":
                state = message["table"]
                chips = sum(row["stack"] for row in state["seats"]) + state["pot"]
                return {"table": table.table_id, "port": table.port, "chips": chips, "bought": table.bought,
                        "hand": state["hand"], "seq": message["seq"]}


async def generate(spec: dict[str, Any]) -> dict[str, Any]:
    """Play the spec's tables: seat them, say ``seated``, count from ``go`` to ``stop`` (lines on stdin),
    then check every table's chips and return the counts."""
    import websockets.asyncio.client as websockets

    load = Load(spec)
    tables = [Table(load, port, table_id, seats) for port, table_id, seats in spec["tables"]]
    opening = asyncio.Semaphore(OPENING)
    readers: list[asyncio.Task[None]] = []
    compression = "deflate" if spec["compression"] else None
    await asyncio.gather(*(seat_table(t, opening, websockets, compression, readers) for t in tables))
    gc.collect()  # what seating made lives to the end: out of the collections, which come rarer
    gc.freeze()
    gc.set_threshold(GENERATOR_GC_THRESHOLD, *gc.get_threshold()[1:])
    lag = asyncio.get_running_loop().create_task(load.watch_lag())
    print("seated", flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    assert line.strip() == "go", line
    load.go = time.monotonic()
    sched_go = sched(os.getpid())
    line = await asyncio.to_thread(sys.stdin.readline)
    assert line.strip() == "stop", line
    load.stop = time.monotonic()
    sched_stop = sched(os.getpid())
    load.stopping = True
    lag.cancel()
    seats = [s for t in tables for s in t.seats]
    for s in seats:
        if s.deciding is not None:
            s.deciding.cancel()
    settle = time.monotonic() + 10.0  # the last answers' views, and top-ups under way
    while time.monotonic() < settle and any(s.pending is not None or s.topping for s in seats):
        await asyncio.sleep(0.05)
    unsettled = sum(1 for s in seats if s.pending is not None or s.topping)
    await asyncio.sleep(0.2)
    snapshots = await asyncio.gather(*(snapshot(t, opening, websockets) for t in tables))
    for s in seats:
        await s.ws.close()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    window = load.stop - load.go
    return {"seconds": window, "hands": load.hands, "decisions": load.decisions, "latencies": load.latencies,
            "errors": load.errors, "stale": load.stale, "gaps": load.gaps, "superseded": load.superseded,
            "throttled": load.throttled, "top_ups": load.top_ups, "closed": load.closed, "unsettled": unsettled,
            "connections": len(seats), "cpu_seconds": sched_stop[0] - sched_go[0],
            "wait_seconds": sched_stop[1] - sched_go[1], "tables": snapshots, "lags": load.lags}


def generator_main() -> int:
    spec = json.loads(sys.stdin.readline())
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    try:
        result = runner(generate(spec))
    except Exception:
        traceback.print_exc()
        return 1
    # the result (every latency: megabytes at a high rate) goes in a file: through the stdout pipe it
    # came cut at 64 KiB now and then, on a loaded machine
    Path(spec["result"]).write_text(json.dumps(result))
    return 0


# --- the servers and the run ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_status(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` (peak) of a process, in kB."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


def sched(pid: int) -> tuple[float, float]:
    """Seconds a process's threads have run on a CPU, and waited runnable for one (``schedstat``): on a
    shared machine the second is the time other processes took."""
    run = wait = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            on, queued, _ = (task / "schedstat").read_text().split()
            run += int(on)
            wait += int(queued)
    return run / 1e9, wait / 1e9


def http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class ServerProcess:
    """One ``python -m cardgame serve`` on a port of its own, its output in ``log``."""

    def __init__(self, db: str | None, port: int, log: Path, extra: Sequence[str] = ()) -> None:
        self.port = port
        self.log = log
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        args = [sys.executable, "-m", "cardgame", "serve", "--port", str(port), "--max-tables", "100000",
                "--tables-per-client", "100000", "--connections-per-client", "100000", "--client-rate", "50000"]
        args += ["--no-db"] if db is None else ["--db", db]
        args += list(extra)
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         env=env, cwd=log.parent)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            with contextlib.suppress(OSError, urllib.error.URLError):
                http("GET", self.base + "/api/tables")
                return
            time.sleep(0.1)
        raise RuntimeError(f"the server on port {self.port} did not start:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        text = self.log.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def percentile(ordered: list[float], p: float) -> float | None:
    if not ordered:
        return None
    rank = math.ceil(p / 100.0 * len(ordered))  # the nearest rank: p % of the values are at most this one
    return ordered[min(len(ordered), max(1, rank)) - 1]


def seat_counts(spec: str, tables: int) -> list[int]:
    """Seats of each table: ``"2"`` every table heads-up, ``"3-6"`` 3, 4, 5, 6, 3, ... in turn."""
    low, _, high = spec.partition("-")
    a, b = int(low), int(high or low)
    if not 2 <= a <= b <= 10:
        raise SystemExit(f"--seats must be N or N-M with 2 <= N <= M <= 10, not {spec!r}")
    return [a + i % (b - a + 1) for i in range(tables)]


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


@contextlib.contextmanager
def database(db: str, work: Path) -> Iterator[str | None]:
    """The store a run's servers share: none, a new SQLite file in ``work``, or a new schema of the
    PostgreSQL database ``db`` names (dropped afterwards), so that no run recovers another's tables."""
    if db == "none":
        yield None
        return
    if db == "sqlite":
        yield str(work / "tables.db")
        return
    import psycopg

    schema = f"cardgame_load_{secrets.token_hex(4)}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"'.encode())
    try:
        parts = urllib.parse.urlsplit(db)
        query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        options = " ".join([v for k, v in query if k == "options"] + [f"-csearch_path={schema}"])
        query = [(k, v) for k, v in query if k != "options"] + [("options", options)]
        yield urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE'.encode())


def run(opts: argparse.Namespace, think_ms: float, processes: int) -> dict[str, Any]:
    """One row: start the servers, create the tables, run the generators, gather the figures."""
    with tempfile.TemporaryDirectory(prefix="cardgame-load-") as tmp, database(opts.db, Path(tmp)) as db:
        work = Path(tmp)
        extra = ["--no-phh"] if opts.no_phh else []
        if opts.switch_interval is not None:
            extra += ["--switch-interval", str(opts.switch_interval)]
        if opts.gc_threshold is not None:
            extra += ["--gc-threshold", str(opts.gc_threshold)]
        servers = [ServerProcess(db, free_port(), work / f"server{i}.log", extra) for i in range(processes)]
        generators: list[subprocess.Popen[str]] = []
        try:
            for s in servers:
                s.wait_ready()
            rss_start = [proc_status(s.proc.pid)["VmRSS"] for s in servers]
            seats = seat_counts(opts.seats, opts.tables)
            made: list[list[Any]] = []
            for i, n in enumerate(seats):
                server = servers[i % processes]
                body = {"variant": opts.variant, "seats": n, "min_buy_in": opts.buy_in, "max_buy_in": opts.buy_in,
                        "action_time": opts.action_time, "time_bank": 0,
                        "name": f"load {i}"}
                table = http("POST", server.base + "/api/tables", body)
                made.append([server.port, table["id"], n])
            clients = max(1, min(opts.clients, len(made)))
            for g in range(clients):
                spec = {"tables": made[g::clients], "think_ms": think_ms, "seed": opts.seed * 1000 + g,
                        "raise_p": opts.raise_p, "fold_p": opts.fold_p, "buy_in": opts.buy_in,
                        "compression": not opts.no_compression, "result": str(work / f"generator{g}.json")}
                proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--generator"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp)
                assert proc.stdin is not None
                proc.stdin.write(json.dumps(spec) + "\n")
                proc.stdin.flush()
                generators.append(proc)
            for proc in generators:
                assert proc.stdout is not None
                line = proc.stdout.readline()
                if line.strip() != "seated":
                    raise RuntimeError(f"a load generator failed while seating (exit {proc.wait()})")
            time.sleep(opts.warmup)
            rss_go = [proc_status(s.proc.pid)["VmRSS"] for s in servers]
            cpu_go = [sched(s.proc.pid) for s in servers]
            start = time.monotonic()
            for proc in generators:
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            time.sleep(opts.seconds)
            for proc in generators:
                assert proc.stdin is not None
                proc.stdin.write("stop\n")
                proc.stdin.flush()
            window = time.monotonic() - start
            cpu_stop = [sched(s.proc.pid) for s in servers]
            status_end = [proc_status(s.proc.pid) for s in servers]
            results = []
            for g, proc in enumerate(generators):
                proc.communicate(timeout=300)
                if proc.returncode != 0:
                    raise RuntimeError(f"a load generator failed (exit {proc.returncode})")
                results.append(json.loads((work / f"generator{g}.json").read_text()))
            db_bytes = sum(p.stat().st_size for p in work.glob("tables.db*")) if opts.db == "sqlite" else None
        except BaseException:
            for s in servers:
                print(f"--- server on port {s.port} ---\n{s.tail()}", file=sys.stderr)
            raise
        finally:
            for proc in generators:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            for s in servers:
                s.stop()
    return summarize(opts, think_ms, processes, window, results, servers, rss_start, rss_go, status_end,
                     cpu_go, cpu_stop, db_bytes)


def summarize(opts: argparse.Namespace, think_ms: float, processes: int, window: float,
              results: list[dict[str, Any]], servers: list[ServerProcess], rss_start: list[int],
              rss_go: list[int], status_end: list[dict[str, int]], cpu_go: list[tuple[float, float]],
              cpu_stop: list[tuple[float, float]],
              db_bytes: int | None) -> dict[str, Any]:
    latencies = sorted(x for r in results for x in r["latencies"])
    seconds = max(r["seconds"] for r in results)
    hands = sum(r["hands"] for r in results)
    decisions = sum(r["decisions"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    snapshots = [t for r in results for t in r["tables"]]
    lost = [t for t in snapshots if t["chips"] != t["bought"]]
    mb = 1 / 1024
    return {
        "db": "postgresql" if is_postgres(opts.db) else opts.db,
        "processes": processes, "think_ms": think_ms, "tables": opts.tables, "seats": opts.seats,
        "seconds": round(seconds, 2), "clients": len(results),
        "hands": hands, "hands_per_second": round(hands / seconds, 1),
        "decisions": decisions, "decisions_per_second": round(decisions / seconds, 1),
        "latency_ms": {"count": len(latencies),
                       **{f"p{p}": None if (v := percentile(latencies, p)) is None else round(v, 2)
                          for p in (50, 95, 99)},
                       "max": round(latencies[-1], 2) if latencies else None,
                       "mean": round(sum(latencies) / len(latencies), 2) if latencies else None},
        "servers": [{"port": s.port, "tables": len(range(i, opts.tables, processes)),
                     "rss_start_mb": round(rss_start[i] * mb, 1), "rss_go_mb": round(rss_go[i] * mb, 1),
                     "rss_end_mb": round(status_end[i]["VmRSS"] * mb, 1),
                     "rss_peak_mb": round(status_end[i]["VmHWM"] * mb, 1),
                     "cpu_percent": round(100 * (cpu_stop[i][0] - cpu_go[i][0]) / window, 1),
                     "wait_percent": round(100 * (cpu_stop[i][1] - cpu_go[i][1]) / window, 1)}
                    for i, s in enumerate(servers)],
        "generators": [{"connections": r["connections"],
                        "cpu_percent": round(100 * r["cpu_seconds"] / r["seconds"], 1),
                        "lag_p99_ms": None if (v := percentile(sorted(r["lags"]), 99)) is None else round(v, 1),
                        "lag_max_ms": round(max(r["lags"]), 1) if r["lags"] else None,
                        "wait_percent": round(100 * r["wait_seconds"] / r["seconds"], 1)} for r in results],
        "errors": errors, "stale": sum(r["stale"] for r in results), "gaps": sum(r["gaps"] for r in results),
        "superseded": sum(r["superseded"] for r in results), "throttled": sum(r["throttled"] for r in results),
        "closed": sum(r["closed"] for r in results), "unsettled": sum(r["unsettled"] for r in results),
        "top_ups": sum(r["top_ups"] for r in results),
        "chips": {"tables": len(snapshots), "lost": len(lost), "failures": lost[:20]},
        "hands_total": sum(t["hand"] or 0 for t in snapshots),
        "db_bytes": db_bytes,
        # the servers' CPU time in the window over the decisions made in it
        "server_cpu_ms_per_decision": round(1000 * sum(cpu_stop[i][0] - cpu_go[i][0] for i in range(len(servers)))
                                            / decisions, 3) if decisions else None,
    }


def machine() -> dict[str, Any]:
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}


LEGEND = """\
think: ms each decision waits (uniform from 0); latency: ms from a decision sent to the view holding it
CPU/wait: % of the window each process ran on a core / waited, runnable, for one (another process had it)
gen lag: ms the load generator's loop ran late (p99/max), its own stalls, which the latencies include
ms CPU/dec: the server processes' CPU time in the window over the decisions made in it
RSS: MB summed over the server processes, started, when the window opened and closed, and the peak
chips: every table's stacks and pot against its buy-ins; errors: protocol errors (stale apart)"""


def print_table(rows: list[dict[str, Any]]) -> None:
    columns = [("db", "<10"), ("procs", ">5"), ("think", ">7"), ("tables", ">6"), ("hands/s", ">8"), ("dec/s", ">7"),
               ("p50", ">7"), ("p95", ">7"), ("p99", ">7"), ("max", ">7"), ("server CPU/wait", ">17"),
               ("ms CPU/dec", ">10"), ("gen CPU/wait", ">13"), ("gen lag", ">11"),
               ("RSS MB", ">16"), ("chips", ">6"), ("errors", ">6")]
    head = " ".join(f"{name:{spec}}" for name, spec in columns)
    print(head)
    print("-" * len(head))

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}"

    def ms3(v: float | None) -> str:
        return "-" if v is None else f"{v:.3f}"

    for r in rows:
        lat = r["latency_ms"]
        srv = r["servers"]
        rss = "/".join(f"{sum(s[key] for s in srv):.0f}" for key in ("rss_start_mb", "rss_go_mb", "rss_end_mb",
                                                                      "rss_peak_mb"))
        cells = [r["db"], str(r["processes"]), f"0-{r['think_ms']:g}" if r["think_ms"] else "0", str(r["tables"]),
                 f"{r['hands_per_second']:.1f}", f"{r['decisions_per_second']:.1f}", ms(lat["p50"]), ms(lat["p95"]),
                 ms(lat["p99"]), ms(lat["max"]),
                 "+".join(f"{s['cpu_percent']:.0f}/{s['wait_percent']:.0f}" for s in srv),
                 ms3(r.get("server_cpu_ms_per_decision")),
                 "+".join(f"{g['cpu_percent']:.0f}/{g['wait_percent']:.0f}" for g in r["generators"]),
                 "+".join(f"{ms(g['lag_p99_ms'])}/{ms(g['lag_max_ms'])}" for g in r["generators"]), rss,
                 "ok" if r["chips"]["lost"] == 0 else f"{r['chips']['lost']} LOST", str(sum(r["errors"].values()))]
        print(" ".join(f"{cell:{spec}}" for cell, (_, spec) in zip(cells, columns, strict=True)))
    print(LEGEND)


def failures(row: dict[str, Any]) -> list[str]:
    """What went wrong in a run (nothing, if the server did its job)."""
    out = []
    label = f"{row['db']}, {row['processes']} process(es), think {row['think_ms']:g} ms"
    for t in row["chips"]["failures"]:
        out.append(f"FAIL {label}: table {t['table']} holds {t['chips']} chips, its players bought in {t['bought']}")
    if row["errors"]:
        out.append(f"FAIL {label}: protocol errors {row['errors']}")
    if row["gaps"]:
        out.append(f"FAIL {label}: {row['gaps']} views skipped or repeated events")
    if row["closed"]:
        out.append(f"FAIL {label}: {row['closed']} connections lost")
    if row["unsettled"]:
        out.append(f"FAIL {label}: {row['unsettled']} seats still waiting for an answer's view after the run")
    return out


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=None, help="tables (default 200; --quick 20)")
    p.add_argument("--seconds", type=float, default=None, help="the measured window (default 60; --quick 5)")
    p.add_argument("--seats", default="2",
                   help="seats a table: N, or N-M for tables of N to M seats in turn (default 2)")
    p.add_argument("--think-ms", type=float, nargs="+", default=[200.0],
                   help="each decision waits uniform(0, this) ms; several values: a run each (default 200)")
    p.add_argument("--processes", type=int, nargs="+", default=[1],
                   help="server processes sharing the database; several values: a run each (default 1)")
    p.add_argument("--db", default="sqlite",
                   help="sqlite (a temporary file, default), none, or a postgresql:// address")
    p.add_argument("--clients", type=int, default=1, help="load generator processes (default 1)")
    p.add_argument("--variant", default="NT", help="the variant every table plays (default NT, blinds 1/2)")
    p.add_argument("--buy-in", type=int, default=200, help="each seat's buy-in and top-up (default 200)")
    p.add_argument("--raise-p", type=float, default=0.1, help="chance a bot min-raises when it may (default 0.1)")
    p.add_argument("--fold-p", type=float, default=0.1, help="chance a bot folds to a bet (default 0.1)")
    p.add_argument("--action-time", type=float, default=300.0, help="the tables' action clock (default 300 s, the "
                   "most a client's table may have)")
    p.add_argument("--warmup", type=float, default=None,
                   help="seconds of play before the window (default 3; --quick 1)")
    p.add_argument("--no-compression", action="store_true", help="no permessage-deflate (a browser asks for it)")
    p.add_argument("--no-phh", action="store_true", help="servers give no PHH text (cardgame serve --no-phh)")
    p.add_argument("--switch-interval", type=int, default=None, metavar="MICROSECONDS",
                   help="servers run with this thread switch interval (cardgame serve --switch-interval)")
    p.add_argument("--gc-threshold", type=int, default=None, metavar="ALLOCATIONS",
                   help="servers run with this garbage collector threshold (cardgame serve --gc-threshold; 0: "
                        "Python's own)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="a smoke run: 20 tables, 5 seconds")
    p.add_argument("--json", type=Path, help="write the figures here")
    opts = p.parse_args(argv)
    opts.tables = opts.tables if opts.tables is not None else (20 if opts.quick else 200)
    opts.seconds = opts.seconds if opts.seconds is not None else (5.0 if opts.quick else 60.0)
    opts.warmup = opts.warmup if opts.warmup is not None else (1.0 if opts.quick else 3.0)
    if opts.tables < 1 or opts.seconds <= 0 or any(k < 1 for k in opts.processes):
        p.error("--tables, --seconds and --processes must be positive")
    if opts.db not in ("none", "sqlite") and not is_postgres(opts.db):
        p.error("--db is sqlite, none or a postgresql:// address")
    return opts


def main(argv: list[str] | None = None) -> int:
    opts = parse(argv)
    info = machine()
    rows = []
    for processes in opts.processes:
        for think in opts.think_ms:
            print(f"{opts.tables} tables of {opts.seats} seats, {processes} server process(es), db "
                  f"{'postgresql' if is_postgres(opts.db) else opts.db}, "
                  f"think {f'0-{think:g}' if think else '0'} ms, {opts.seconds:g} s ...", file=sys.stderr, flush=True)
            rows.append(run(opts, think, processes))
    info["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print_table(rows)
    problems = [line for row in rows for line in failures(row)]
    for line in problems:
        print(line)
    if opts.json is not None:
        options = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(opts).items()}
        options["db"] = "postgresql" if is_postgres(opts.db) else opts.db  # an address may hold a password
        opts.json.write_text(json.dumps({"machine": info, "options": options, "rows": rows}, indent=1) + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--generator"]:
        sys.exit(generator_main())
    sys.exit(main())
