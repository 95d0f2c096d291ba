"""What the fault tests share: a real ``cardgame serve`` process, players that play it over websockets
and remember every event they were shown, and the checks of the store against what they saw."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from cardgame.server.config import read_config
from cardgame.store import EventStore, recover

ROOT = Path(__file__).resolve().parents[2]
BUY_IN = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Serve:
    """``cardgame serve`` on a free port, its output kept in a file."""

    def __init__(self, db: str, folder: Path, *args: str, port: int | None = None, wait: bool = True) -> None:
        self.port = port or free_port()
        self.log = folder / f"serve-{self.port}-{time.monotonic_ns()}.log"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.log, "w") as out:
            command = [sys.executable, "-m", "cardgame", "serve", "--port", str(self.port), "--db", db, "--drain", "2",
                       "--tables-per-client", "100"]  # every test table is opened from this one address
            self.proc = subprocess.Popen([*command, *args], stdout=out, stderr=subprocess.STDOUT, text=True, env=env,
                                         cwd=folder)
        if wait:
            self.wait_up()

    def wait_up(self) -> None:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            try:
                self.get("/api/tables")
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise AssertionError(f"cardgame serve exited: {self.output()}") from None
                time.sleep(0.1)
        self.proc.kill()
        raise AssertionError(f"cardgame serve did not start: {self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str, timeout: float = 5) -> Any:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=timeout) as response:
            return json.load(response)

    def create(self, **fields: Any) -> str:
        body = json.dumps({"variant": "NT", "seats": 2, "min_buy_in": 40, "max_buy_in": 200, "hand_pause": 0,
                           **fields}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/tables", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            table_id: str = json.load(response)["id"]
            return table_id

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)

    def term(self) -> None:
        self.proc.send_signal(signal.SIGTERM)


class Player(threading.Thread):
    """A person at a table: sits (or resumes with ``token``), checks or calls each decision, and keeps
    every event it is shown (seq -> (kind, event)), the notices and errors."""

    def __init__(self, port: int, table_id: str, name: str, *, token: str | None = None, think: float = 0.04) -> None:
        super().__init__(daemon=True)
        self.port, self.table_id, self.name, self.token, self.think = port, table_id, name, token, think
        self.seen: dict[int, tuple[str, Any]] = {}
        self.notices: list[tuple[float, dict[str, Any]]] = []
        self.errors: list[dict[str, Any]] = []
        self.views: list[tuple[float, dict[str, Any]]] = []
        self.seat: int | None = None
        self.stopping = threading.Event()
        self.playing = threading.Event()  # cleared: answer no question (a player away)
        self.playing.set()
        self.closed = threading.Event()

    def hands(self) -> int:
        return sum(1 for kind, _ in self.seen.values() if kind == "hand ended")

    def run(self) -> None:
        try:
            with connect(f"ws://127.0.0.1:{self.port}/ws/{self.table_id}", open_timeout=10) as ws:
                if self.token is None:
                    ws.send(json.dumps({"type": "sit", "name": self.name, "buy_in": BUY_IN}))
                else:
                    ws.send(json.dumps({"type": "resume", "token": self.token}))
                question: dict[str, Any] | None = None
                asked: dict[str, Any] | None = None
                while not self.stopping.is_set():
                    if question is not None and self.playing.is_set():
                        time.sleep(self.think)
                        action = "check" if question["check"] else "call"
                        ws.send(json.dumps({"type": "act", "action": action, "seq": question["_seq"]}))
                        asked, question = question, None
                    try:
                        message = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    now = time.monotonic()
                    kind = message["type"]
                    if kind == "seated":
                        self.seat, self.token = message["seat"], message["token"]
                    elif kind == "notice":
                        self.notices.append((now, message))
                    elif kind == "error":
                        self.errors.append(message)
                        if message["code"] == "stale":
                            question = None
                        elif message["code"] == "rate_limited":  # too fast: ask again in a moment
                            time.sleep(0.1)
                            question = asked
                    elif kind == "view":
                        self.views.append((now, message))
                        for item in message["events"]:
                            self.seen[item["seq"]] = (item["kind"], item["event"])
                        q = message["question"]
                        question = {**q, "_seq": message["seq"]} if q and q["kind"] == "act" else None
        except Exception:  # the server went away: what was seen stays
            pass
        finally:
            self.closed.set()

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=10)


@contextlib.contextmanager
def players(port: int, table_id: str, *names: str, think: float = 0.04) -> Iterator[list[Player]]:
    those = [Player(port, table_id, n, think=think) for n in names]
    for p in those:
        p.start()
        wait_for(lambda p=p: p.seat is not None, f"{p.name} seated")  # type: ignore[misc]
    try:
        yield those
    finally:
        for p in those:
            p.stop()


def wait_for(test: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def check_store(location: str, table_id: str, seen_by: list[Player], buy_ins: int) -> EventStore:
    """Every event a player was shown is in the store, the same; the log holds together and its chips
    are exactly those bought in (recovered without writing anything)."""
    store = EventStore(location)
    stored = {e.seq: e for e in store.events(table_id)}
    for p in seen_by:
        for seq, (kind, event) in p.seen.items():
            assert seq in stored, f"{p.name} was shown event {seq} ({kind}) that the store does not hold"
            assert stored[seq].kind == kind, f"event {seq}: {p.name} saw {kind}, the store holds {stored[seq].kind}"
            if kind == "action":
                from cardgame.store.serialize import encode_event

                assert encode_event(stored[seq].event) == event
    config = read_config({"variant": "NT"})
    game = recover(store, table_id, config.variant_object().build(), mark_void=False)
    assert game.table.total_chips() == buy_ins
    return store
