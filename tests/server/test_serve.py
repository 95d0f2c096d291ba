"""``cardgame serve`` as a real process: it listens on loopback, and killed (SIGKILL) mid-hand then
started again, it recovers the table, voids the hand with every chip returned, and the player's
token takes back the seat."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

from cardgame import CardgameError  # noqa: E402
from cardgame.server.serve import GC_THRESHOLD, SWITCH_INTERVAL_US  # noqa: E402

#: The switch interval `cardgame serve` runs with when not told (seconds; None: Python's own).
SWITCH_DEFAULT = None if SWITCH_INTERVAL_US is None else SWITCH_INTERVAL_US / 1e6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(port: int, db: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-m", "cardgame", "serve", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"cardgame serve exited: {proc.stdout.read() if proc.stdout else ''}") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("cardgame serve did not start")


def receive_until(ws: Any, test: Any) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if test(message):
            return message
    raise AssertionError("no such message")


def test_a_killed_server_restarted_returns_every_chip_and_the_seat(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "server.db"
    proc = start(port, db)
    try:
        body = json.dumps({"variant": "NT", "seats": 2, "min_buy_in": 40, "max_buy_in": 200,
                           "bots": {"1": "calling-station"}, "bot_delay": 0}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            table_id = json.load(response)["id"]
        with sync_client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:  # it offers permessage-deflate
            assert ws.response is not None and "Sec-WebSocket-Extensions" not in ws.response.headers  # not compressed
            ws.send(json.dumps({"type": "sit", "name": "ann", "buy_in": 100}))
            token = receive_until(ws, lambda m: m["type"] == "seated")["token"]
            view = receive_until(ws, lambda m: m["type"] == "view" and m["question"])
            ws.send(json.dumps({"type": "act", "action": "raise", "amount": 10, "seq": view["seq"]}))
            view = receive_until(ws, lambda m: m["type"] == "view" and m["question"] and m["table"]["pot"] >= 20)
            assert view["table"]["hand"] == 1
        proc.kill()  # SIGKILL, mid-hand: no shutdown, nothing flushed
        proc.wait(timeout=10)
        proc = start(port, db)
        with sync_client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:
            ws.send(json.dumps({"type": "resume", "token": token}))
            assert receive_until(ws, lambda m: m["type"] == "seated")["seat"] == 0
            view = receive_until(ws, lambda m: m["type"] == "view" and m["table"]["hand"] is not None)
            assert view["table"]["hand"] == 2  # hand 1 is void; its number is not reused
            assert sum(s["stack"] for s in view["table"]["seats"]) + view["table"]["pot"] == 300
    finally:
        proc.kill()
        output = proc.communicate(timeout=10)[0]
    assert f"Uvicorn running on http://127.0.0.1:{port}" in output  # loopback unless told otherwise
    assert token not in output and token not in db.read_bytes().decode("latin-1")


def test_serve_takes_its_limits_and_host_names_from_the_command_line() -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cardgame", "serve", "--port", str(port), "--no-db", "--table", "NT",
                             "--seed", "5", "--tables-per-client", "1", "--allow-host", "cards.example"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        def get(host: str) -> int:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", headers={"Host": host})
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    return int(response.status)
            except urllib.error.HTTPError as exc:
                return exc.code

        deadline = time.monotonic() + 30
        while True:
            try:
                status = get("127.0.0.1")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "cardgame serve did not start"
                time.sleep(0.1)
        assert status == 200 and get("cards.example") == 200 and get("localhost:8000") == 200
        assert get("evil.example") == 400  # a DNS-rebinding page's requests name another host

        def post() -> int:
            body = json.dumps({"variant": "NT", "bots": {"1": "calling-station"}}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body,
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    return int(response.status)
            except urllib.error.HTTPError as exc:
                return exc.code

        assert [post(), post()] == [201, 429]  # the operator's --table is not counted against the client
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=5) as response:
            listed = json.load(response)
        assert len(listed) == 2 and all("seed" not in t["config"] for t in listed)
    finally:
        proc.kill()
        output = proc.communicate(timeout=10)[0]
    assert "seed" not in output.lower() or "seeded (practice)" in output  # the seed itself is never logged
    assert " 5" not in output.replace(f":{port}", "")


def test_serve_runs_uvicorns_sans_io_websockets_with_its_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardgame serve`` names its websocket implementation (uvicorn's default was the older, costlier one
    before 0.50) and the settings the tests' servers share (``WEBSOCKET_OPTIONS``)."""
    import uvicorn

    from cardgame.server.messages import MAX_MESSAGE
    from cardgame.server.serve import WEBSOCKET_OPTIONS, serve

    given: dict[str, Any] = {}

    class Stop(Exception):
        pass

    def config(app: Any, **options: Any) -> None:
        given.update(options)
        raise Stop

    monkeypatch.setattr(uvicorn, "Config", config)
    with pytest.raises(Stop):
        serve(db=None, port=free_port())
    assert {k: given[k] for k in WEBSOCKET_OPTIONS} == WEBSOCKET_OPTIONS
    assert WEBSOCKET_OPTIONS == {"ws": "cardgame.server.wsprotocol:TableProtocol", "ws_max_size": 4 * MAX_MESSAGE,
                                 "ws_ping_interval": 20, "ws_ping_timeout": 20, "ws_per_message_deflate": False}



@pytest.mark.parametrize(("given", "expected"), [((), SWITCH_DEFAULT), (("--switch-interval", "250"), 0.00025)])
def test_serve_sets_the_thread_switch_interval_while_it_runs(monkeypatch: pytest.MonkeyPatch, given: tuple[str, ...],
                                                            expected: float | None) -> None:
    """``cardgame serve`` runs with its thread switch interval (``--switch-interval``, in microseconds;
    docs/server.md), so that the store's thread gets the interpreter back soon after each SQL statement,
    and puts Python's back when it ends."""
    import uvicorn

    from cardgame.cli import main

    seen: list[float] = []

    async def serve(self: Any, sockets: Any = None) -> None:
        seen.append(sys.getswitchinterval())  # and return: uvicorn never started, serve exits with status 1

    monkeypatch.setattr(uvicorn.Server, "serve", serve)
    before = sys.getswitchinterval()
    assert main(["serve", "--no-db", "--port", str(free_port()), *given]) == 1
    assert seen == [pytest.approx(expected if expected is not None else before)]
    assert sys.getswitchinterval() == before


@pytest.mark.parametrize("bad", [0, 49, 10**7, True, 1.5, "1000"])
def test_serve_refuses_a_switch_interval_out_of_bounds(bad: Any) -> None:
    from cardgame.server.serve import serve

    before = sys.getswitchinterval()
    with pytest.raises(CardgameError, match="switch_interval_us"):
        serve(db=None, port=free_port(), switch_interval_us=bad)
    assert sys.getswitchinterval() == before


@pytest.mark.parametrize(("given", "expected"), [((), GC_THRESHOLD), (("--gc-threshold", "2000"), 2000),
                                                 (("--gc-threshold", "0"), None)])
def test_serve_tunes_the_garbage_collector_while_it_runs(monkeypatch: pytest.MonkeyPatch, given: tuple[str, ...],
                                                         expected: int | None) -> None:
    """``cardgame serve`` runs with its young-generation threshold (``--gc-threshold``; 0: Python's own) and,
    with one, what start-up made frozen out of the collections (their full pauses stopped every table: the
    load benchmark's p99, docs/server.md); it puts Python's collector back as it was when it ends."""
    import gc

    import uvicorn

    from cardgame.cli import main

    seen: list[tuple[int, int]] = []

    async def serve(self: Any, sockets: Any = None) -> None:
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))

    monkeypatch.setattr(uvicorn.Server, "serve", serve)
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    assert main(["serve", "--no-db", "--port", str(free_port()), *given]) == 1
    [(threshold, frozen)] = seen
    assert threshold == (expected if expected is not None else before[0])
    assert (frozen > 10_000) == (expected is not None)  # the modules, at least
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


@pytest.mark.parametrize("bad", [0, 99, 10**7 + 1, -5, True, 1.5, "50000", 10**40])
def test_serve_refuses_a_gc_threshold_out_of_bounds(bad: Any) -> None:
    import gc

    from cardgame.server.serve import serve

    before = gc.get_threshold()
    with pytest.raises(CardgameError, match=r"gc_threshold.*100") as caught:
        serve(db=None, port=free_port(), gc_threshold=bad)
    assert len(str(caught.value)) < 300
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


@pytest.mark.parametrize("bad", ["1", "99", "10000001", "-1", "5e4", "lots", "9" * 40])
def test_the_cli_refuses_a_gc_threshold_out_of_bounds(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cardgame.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["serve", "--no-db", "--port", str(free_port()), "--gc-threshold", bad])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--gc-threshold" in err and "10,000,000" in err.replace("10000000", "10,000,000")
