"""Driving a :class:`TableHost` in tests: clients that record what they receive, a player that
answers every question it is asked like a calling station, and an app served by uvicorn in a thread."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from cardgame.server.config import read_config
from cardgame.server.host import Client, TableHost, message_text
from cardgame.server.messages import read_message


class Recorder:
    """A client that keeps every message, as the wire would carry it (JSON and back)."""

    def __init__(self, host: TableHost) -> None:
        self.host = host
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []  # each message's JSON text, as the connection sends it
        self.client = Client(self._receive)
        host.connect(self.client)

    def _receive(self, message: dict[str, Any]) -> None:
        text = message_text(message)
        self.texts.append(text)
        self.messages.append(json.loads(text))

    def send(self, message: dict[str, Any]) -> None:
        self.host.handle(self.client, read_message(json.dumps(message)))

    @property
    def views(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "view"]

    @property
    def last(self) -> dict[str, Any]:
        return self.views[-1]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    def events(self) -> list[dict[str, Any]]:
        """Every event received, in order, each once (full views repeat the hand's)."""
        seen: dict[int, dict[str, Any]] = {}
        for v in self.views:
            for e in v["events"]:
                seen.setdefault(e["seq"], e)
        return [seen[k] for k in sorted(seen)]

    def reveals(self) -> list[dict[str, Any]]:
        """The reveal of each hand that ended, in order (its ``hand ended`` item carries it)."""
        return [e["reveal"] for e in self.events() if e["kind"] == "hand ended" and "reveal" in e]

    def commitments(self) -> dict[int, str]:
        """Each hand's commitment, by hand number (its ``hand started`` item carries it)."""
        return {e["event"]["hand"]: e["commitment"] for e in self.events() if e["kind"] == "hand started"}

    def answer(self) -> bool:
        """Answer the question of the newest view like a calling station; whether there was one."""
        view = self.last
        q = view["question"]
        if q is None:
            return False
        if q["kind"] == "act":
            action = "check" if q["check"] else "bring_in" if q["bring_in"] else "call"
            self.send({"type": "act", "action": action, "seq": view["seq"]})
        elif q["kind"] == "draw":
            self.send({"type": "draw", "discards": q["hole"][: q["min"]], "seq": view["seq"]})
        elif q["kind"] == "show":  # show or muck: what a player who does not answer does
            self.send({"type": q["default"], "seq": view["seq"]})
        else:
            self.send({"type": "runs", "count": 1, "seq": view["seq"]})
        return True


def host(now: list[float] | None = None, **config: Any) -> TableHost:
    """A table of ``config`` (``variant`` defaults to NT, seed 7, no bot delay); ``now`` is a
    one-item list holding the clock's time, for tests that move time by hand."""
    config.setdefault("variant", "NT")
    config.setdefault("seed", 7)
    config.setdefault("bot_delay", 0)
    clock = now if now is not None else [0.0]
    return TableHost("t", read_config(config), now=lambda: clock[0])


def canonical(recorder: Recorder) -> int:
    """Check that each text a connection was sent is its message's JSON exactly as ``json.dumps`` with
    compact separators writes it (the views' text is put together by hand, from parts); how many."""
    for text in recorder.texts:
        assert json.dumps(json.loads(text), separators=(",", ":")) == text, text
    return len(recorder.texts)


def chips(view: dict[str, Any]) -> int:
    """Every chip a view shows: stacks and the pot."""
    return sum(s["stack"] for s in view["table"]["seats"]) + view["table"]["pot"]


def conserved(recorder: Recorder) -> int:
    """Check that every view of a connection shows exactly the chips at the table when it connected,
    plus the buy-ins and top-ups since, less cash-outs; the number of views checked."""
    views = recorder.views
    total = chips(views[0])
    for view in views[1:]:
        for e in [] if view["full"] else view["events"]:
            event = e["event"]
            if e["kind"] == "seated":
                total += event["stack"]
            elif e["kind"] == "chips added":
                total += event["amount"]
            elif e["kind"] == "left":
                total -= event["cashed_out"]
        assert chips(view) == total, (view["seq"], chips(view), total)
    return len(views) - 1


@contextlib.contextmanager
def served_in_thread(app: Any, sock: socket.socket | None = None) -> Iterator[int]:
    """``app`` under uvicorn (``cardgame serve``'s websocket options) in a thread, on ``sock`` (default: a
    new one) bound to a free loopback port: the port, until the block ends and the server stops."""
    import uvicorn  # (here: a test module that needs no server imports these helpers without the extra)

    from cardgame.server.serve import WEBSOCKET_OPTIONS

    if sock is None:
        sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    runner = uvicorn.Server(uvicorn.Config(app, log_level="warning", **WEBSOCKET_OPTIONS))
    thread = threading.Thread(target=runner.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not runner.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        yield sock.getsockname()[1]
    finally:
        runner.should_exit = True
        thread.join(10)
        sock.close()
