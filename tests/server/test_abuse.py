"""The audit's attacks of one anonymous client, each done against the app (Starlette's test client, or
a real uvicorn socket), each now refused or bounded by the server's :class:`Limits`."""

from __future__ import annotations

import base64
import gc
import os
import socket
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardgame.server import app as server_app
from cardgame.server.config import Limits, read_config
from tests.server.helpers import served_in_thread

TABLE = {"variant": "NT", "params": {"small_blind": 1, "big_blind": 2}, "seats": 3, "min_buy_in": 40,
         "max_buy_in": 200, "bots": {"2": "calling-station"}}
HOSTS = ["localhost", "127.0.0.1", "testserver"]


def app(*args: Any, **kwargs: Any) -> Any:
    kwargs.setdefault("allowed_hosts", HOSTS)
    return server_app.create_app(*args, **kwargs)


def client(application: Any, address: str = "10.0.0.1") -> TestClient:
    """A test client whose requests come from ``address``."""
    return TestClient(application, client=(address, 50000))


def move(test_client: TestClient, address: str) -> TestClient:
    """The same client (one app, one event loop) now sending from ``address``."""
    test_client._transport.client = (address, 50000)  # type: ignore[attr-defined]
    return test_client


def until(ws: Any, test: Any, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("no such message")


def test_one_client_cannot_fill_the_server_with_tables() -> None:
    """It was 500 POSTs in 1.5 s, and the server full for good."""
    application = app(limits=Limits(tables_per_client=2, max_tables=5, client_rate=1000, client_burst=1000))
    with client(application) as one:
        answers = [one.post("/api/tables", json=TABLE) for _ in range(50)]
        assert [a.status_code for a in answers].count(201) == 2
        refused = answers[-1]
        assert refused.status_code == 429 and "2 tables open" in refused.json()["error"]
        # IPv6 addresses count by their /64 network: one subscriber holds all of it
        ipv6 = [move(one, f"2001:db8::{i}").post("/api/tables", json=TABLE).status_code for i in (1, 2, 3)]
        assert ipv6 == [201, 201, 429]
        assert move(one, "10.0.0.3").post("/api/tables", json=TABLE).status_code == 201
        assert len(one.get("/api/tables").json()) == 5
        # the limit in all: another address finds the server full
        full = move(one, "10.0.0.4").post("/api/tables", json=TABLE)
        assert full.status_code == 429 and "most tables (5)" in full.json()["error"]


def test_the_creator_closes_its_table_with_its_token_and_nobody_else_can() -> None:
    application = app(limits=Limits(tables_per_client=1))
    with client(application) as one:
        made = one.post("/api/tables", json=TABLE).json()
        table_id, token = made["id"], made["creator_token"]
        assert one.post("/api/tables", json=TABLE).status_code == 429
        assert one.delete(f"/api/tables/{table_id}").status_code == 401
        wrong = move(one, "10.0.0.9").delete(f"/api/tables/{table_id}", headers={"authorization": "Bearer nope"})
        assert wrong.status_code == 403 and "creator token" in wrong.json()["error"]
        move(one, "10.0.0.1")
        with one.websocket_connect(f"/ws/{table_id}") as ann, one.websocket_connect(f"/ws/{table_id}") as watcher:
            ann.send_json({"type": "sit", "name": "ann", "buy_in": 100})
            until(ann, lambda m: m["type"] == "seated")
            seated = one.delete(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}"})
            assert seated.status_code == 409 and "seated" in seated.json()["error"]
            ann.send_json({"type": "leave"})
            until(ann, lambda m: m["type"] == "left")
            closed = one.delete(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}"})
            assert closed.status_code == 200
            assert until(watcher, lambda m: m["type"] == "closed")["reason"] == "closed by its creator"
            with pytest.raises(WebSocketDisconnect):
                for _ in range(100):
                    watcher.receive_json()
        assert one.get("/api/tables").json() == []
        assert one.post("/api/tables", json=TABLE).status_code == 201  # its quota is free again


def test_an_idle_table_is_closed_and_not_recovered_after_a_restart(tmp_path: Path) -> None:
    now = [1000.0]
    db = str(tmp_path / "t.db")
    application = app(db, limits=Limits(idle_close=60), now=lambda: now[0])
    with client(application) as one:
        idle = one.post("/api/tables", json=TABLE).json()["id"]
        watched = one.post("/api/tables", json=TABLE).json()["id"]
        away = one.post("/api/tables", json=TABLE).json()["id"]
        server = application.state.server
        operators = one.portal.call(server.create, read_config(TABLE)).table_id
        with one.websocket_connect(f"/ws/{away}") as ws:  # a person sits, sits out and goes away
            ws.send_json({"type": "sit", "name": "ann", "buy_in": 100})
            until(ws, lambda m: m["type"] == "seated")
            ws.send_json({"type": "sit_out"})
            until(ws, lambda m: m["type"] == "view" and m["table"]["seats"][0]["sitting_out"])
        with one.websocket_connect(f"/ws/{watched}") as ws:
            ws.receive_json()
            now[0] += 200  # her clock and time bank run out: her hand ends, and none is dealt without her
            one.portal.call(server.wake, away)
            deadline = time.monotonic() + 10
            while server.tables[away].game.hand is not None:
                assert time.monotonic() < deadline, "her hand did not end"
                time.sleep(0.02)
            assert sorted(one.portal.call(server.reap)) == sorted([idle, away])
        assert set(server.tables) == {watched, operators}
        now[0] += 61
        assert one.portal.call(server.reap) == [watched]  # nobody there any more
        assert set(server.tables) == {operators}  # the operator's own table stays
    with client(app(db)) as again:
        assert [t["id"] for t in again.get("/api/tables").json()] == [operators]


@pytest.mark.parametrize(("change", "says"), [
    ({"bots_alone": True}, "bots alone"),
    ({"seats": 2, "bots": {"0": "random", "1": "random"}}, "bots alone"),
    ({"action_time": 0.05}, "action_time must be 5 to 300"),
    ({"time_bank": 3600}, "time_bank must be at most 600"),
    ({"min_buy_in": 10, "max_buy_in": 10**11}, "max_buy_in must be at most 1,000,000,000"),
    ({"params": {"small_blind": 1, "big_blind": 10**6}}, "big_blind"),
    ({"seed": 7}, "seed"),
])
def test_a_client_may_not_open_a_bots_only_table_nor_one_out_of_bounds(change: dict[str, Any], says: str) -> None:
    """Five bots-only tables with no delay grew the database 4 MB/s; now only the operator opens them."""
    application = app()
    with client(application) as one:
        answer = one.post("/api/tables", json={**TABLE, **change})
        assert answer.status_code == 400 and says in answer.json()["error"], answer.text
        assert one.get("/api/tables").json() == []
        if "bots_alone" in change:  # the operator may
            config = read_config({**TABLE, **change})
            assert one.portal.call(application.state.server.create, config).config.bots_alone


def test_spectators_cannot_lock_out_a_seated_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """200 spectator sockets locked everyone out of a table, seated players included."""
    monkeypatch.setattr(server_app, "SEAT_WAIT", 3.0)
    application = app(limits=Limits(max_spectators=3, connections_per_client=10))
    with client(application) as one:
        table_id = one.post("/api/tables", json={**TABLE, "seats": 2, "bots": {"1": "calling-station"}}).json()["id"]
        with one.websocket_connect(f"/ws/{table_id}") as ann:
            ann.send_json({"type": "sit", "name": "ann", "buy_in": 100})
            token = until(ann, lambda m: m["type"] == "seated")["token"]
        watchers = [one.websocket_connect(f"/ws/{table_id}") for _ in range(3)]
        for w in watchers:
            assert w.__enter__().receive_json()["type"] == "welcome"
        with one.websocket_connect(f"/ws/{table_id}") as extra:
            told = extra.receive_json()
            assert told["type"] == "error" and told["code"] == "full"
            extra.send_json({"type": "sit_out"})
            assert extra.receive_json()["code"] == "not_seated"
            with pytest.raises(WebSocketDisconnect):  # it did not sit within the time: closed
                extra.receive_json()
        with one.websocket_connect(f"/ws/{table_id}") as back:
            assert back.receive_json()["code"] == "full"
            back.send_json({"type": "resume", "token": token})
            assert until(back, lambda m: m["type"] == "seated")["seat"] == 0
            view = until(back, lambda m: m["type"] == "view" and m["question"] is not None)
            back.send_json({"type": "act", "action": "fold", "seq": view["seq"]})
            until(back, lambda m: m["type"] == "view" and m["seq"] > view["seq"])
        for w in watchers:
            w.__exit__(None, None, None)


def test_one_address_gets_a_bounded_number_of_connections() -> None:
    application = app(limits=Limits(connections_per_client=3))
    with client(application) as one:
        table_id = one.post("/api/tables", json=TABLE).json()["id"]
        sockets = [one.websocket_connect(f"/ws/{table_id}") for _ in range(3)]
        for ws in sockets:
            ws.__enter__().receive_json()
        with pytest.raises(WebSocketDisconnect), one.websocket_connect(f"/ws/{table_id}") as ws:
            ws.receive_json()
        with move(one, "10.0.0.2").websocket_connect(f"/ws/{table_id}") as ws:  # another address: not counted
            assert ws.receive_json()["type"] == "welcome"
        move(one, "10.0.0.1")
        sockets[0].__exit__(None, None, None)
        with one.websocket_connect(f"/ws/{table_id}") as ws:  # a connection closed frees its place
            assert ws.receive_json()["type"] == "welcome"
        for ws in sockets[1:]:
            ws.__exit__(None, None, None)


def test_reconnecting_does_not_evade_the_rate_limit() -> None:
    """The rate was per connection: a new connection for each burst sent 1,592 messages a second."""
    application = app(limits=Limits(rate=0.01, burst=10, client_rate=0.01, client_burst=15))
    with client(application) as one:
        table_id = one.post("/api/tables", json=TABLE).json()["id"]
        codes = []
        for _ in range(3):  # three connections, ten messages each: within each one's burst
            with one.websocket_connect(f"/ws/{table_id}") as ws:
                for _ in range(10):
                    ws.send_json({"type": "sit_out"})
                codes += [until(ws, lambda m: m["type"] == "error")["code"] for _ in range(10)]
        assert codes[:14].count("rate_limited") == 0 and codes[16:].count("rate_limited") == 14


def test_requests_for_another_host_name_are_refused() -> None:
    """No Host check: a page on a name that DNS rebinding points at the server reached the API."""
    application = server_app.create_app()  # the defaults: localhost and 127.0.0.1
    with TestClient(application, base_url="http://localhost") as local:
        assert local.get("/api/tables").status_code == 200
        assert local.get("/api/tables", headers={"host": "127.0.0.1:8000"}).status_code == 200
        rebound = local.get("/api/tables", headers={"host": "evil.example"})
        assert rebound.status_code == 400 and "Invalid host" in rebound.text
        made = local.post("/api/tables", json=TABLE, headers={"host": "evil.example"})
        assert made.status_code == 400 and local.get("/api/tables").json() == []
        table_id = local.post("/api/tables", json=TABLE).json()["id"]
        with pytest.raises(Exception), local.websocket_connect(f"ws://evil.example/ws/{table_id}") as ws:  # noqa: B017
            ws.receive_json()
        with local.websocket_connect(f"ws://localhost/ws/{table_id}") as ws:
            assert ws.receive_json()["type"] == "welcome"


# --- a client that does not read, against a real uvicorn socket ---------------------------------------------
def serve_live(limits: Limits, db: str | None = None) -> Iterator[tuple[Any, int]]:
    """The app under uvicorn in a thread (a busy operator's table of bots, recorded in ``db`` if given: its
    views then go out from the store's callbacks, not the table's task), and its port.
    Its connections have a small kernel send buffer (set on the listening socket, which they inherit), so
    a client that does not read stalls the server's sends within a second, not once the kernel has
    taken the megabytes its buffer grows to by itself."""
    application = app(db, limits=limits)
    server = application.state.server
    server.opening.append(read_config({**TABLE, "bots": {"0": "random", "1": "random", "2": "random"},
                                       "bots_alone": True, "seats": 3,
                                       "bot_delay": 0.005}))  # busy, but leaving the test's thread time
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    with served_in_thread(application, sock) as port:
        yield server, port


@pytest.fixture(params=["unrecorded", "recorded"])
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, int]]:
    db = str(tmp_path / "t.db") if request.param == "recorded" else None
    yield from serve_live(Limits(send_queue=64 * 1024, send_timeout=60), db)


@pytest.fixture
def live_timeout() -> Iterator[tuple[Any, int]]:
    """A server whose send queue is far larger than what the test's sockets leave unread: only the send
    timeout (1 s) drops them."""
    yield from serve_live(Limits(send_queue=1 << 30, send_timeout=1))


def silent_socket(port: int, table_id: str) -> socket.socket:
    """A websocket that completes its handshake, then never reads (a small receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    return s


def test_a_client_that_does_not_read_is_dropped_and_its_memory_freed(live: tuple[Any, int]) -> None:
    """Ten sockets that never read cost 26 MB each, kept after they left."""
    server, port = live
    table_id = next(iter(server.tables))
    silent = [silent_socket(port, table_id) for _ in range(3)]
    seen: dict[int, Any] = {}  # every connection made, by id (a busy table may drop one before the next is made)
    deadline = time.monotonic() + 10
    while len(seen) < 3:
        assert time.monotonic() < deadline, "the sockets did not connect"
        note_connections(server, table_id, seen)
        time.sleep(0.005)
    refs = list(seen.values())
    deadline = time.monotonic() + 30
    while server.sockets.get(table_id) or server.tables[table_id].clients:
        assert time.monotonic() < deadline, ("a client that does not read was kept", [
            (c.queued, len(c.queue), c.dropped, c.ending) for c in server.sockets.get(table_id, ())],
            server.tables[table_id].game.ctx.hands_played)
        assert all(c.queued <= 64 * 1024 for c in list(server.sockets.get(table_id, ())))
        time.sleep(0.05)
    for s in silent:
        s.close()
    deadline = time.monotonic() + 10
    while server.connections:
        assert time.monotonic() < deadline, server.connections
        time.sleep(0.05)
    deadline = time.monotonic() + 15  # (the server's thread may be handing the table's views round a list
    while True:                       # of its clients made before they left: a reference for that moment)
        gc.collect()
        if [r() for r in refs] == [None, None, None] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    with socket.create_connection(("127.0.0.1", port)) as s:  # the server still answers
        s.sendall(f"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        assert s.recv(100).startswith(b"HTTP/1.1 200")
    kept = [r() for r in refs if r() is not None]
    assert all(c.dropped and not c.queue and c.queued == 0 for c in kept)  # its unsent text is freed
    assert not kept, [(c.dropped, c.ending, [type(r).__name__ for r in gc.get_referrers(c)]) for c in kept]


def note_connections(server: Any, table_id: str, seen: dict[int, Any]) -> None:
    """Note each of the table's connections in ``seen`` by a weak reference, in a frame of its own: a
    loop variable of the test's frame would keep the last one alive (a running function's locals are
    not among what ``gc.get_referrers`` sees), and the test would blame the server for it."""
    for c in list(server.sockets.get(table_id, ())):
        assert c.queued <= 64 * 1024
        seen.setdefault(id(c), weakref.ref(c))


def test_a_clients_tables_count_and_close_with_its_token_after_a_restart_and_none_open_while_draining(
        tmp_path: Path) -> None:
    """The creator rows go to the store on its own thread with the table's first events, and are read
    back at start: a restart must not free a client's quota nor lose its creator token. A draining
    server opens no table (503)."""
    db = str(tmp_path / "t.db")
    with client(app(db, limits=Limits(tables_per_client=1))) as one:
        made = one.post("/api/tables", json=TABLE).json()
        table_id, token = made["id"], made["creator_token"]
    with client(app(db, limits=Limits(tables_per_client=1))) as again:
        assert [t["id"] for t in again.get("/api/tables").json()] == [table_id]
        assert again.post("/api/tables", json=TABLE).status_code == 429  # still this client's one table
        closed = again.delete(f"/api/tables/{table_id}", headers={"authorization": f"Bearer {token}"})
        assert closed.status_code == 200
        server = again.app.state.server  # type: ignore[attr-defined]
        again.portal.call(server.drain, 0)
        refused = again.post("/api/tables", json=TABLE)
        assert refused.status_code == 503 and "shutting down" in refused.json()["error"]
    with client(app(db)) as third:
        assert third.get("/api/tables").json() == []  # the closed table stays closed


def test_a_send_stuck_past_the_send_timeout_drops_the_connection(live_timeout: tuple[Any, int],
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """The send timeout is one watch over every connection's send under way (no task a message): a
    client that does not read is dropped once a send has waited ``send_timeout`` (here 1 s), though its
    queue is far below ``send_queue``."""
    server, port = live_timeout
    table_id = next(iter(server.tables))
    silent = [silent_socket(port, table_id) for _ in range(2)]
    deadline = time.monotonic() + 10
    while len(server.sockets.get(table_id, ())) < 2:
        assert time.monotonic() < deadline, "the sockets did not connect"
        time.sleep(0.02)
    deadline = time.monotonic() + 20
    while server.sockets.get(table_id) or server.tables[table_id].clients:
        assert time.monotonic() < deadline, ("a send stuck past the timeout was kept", [
            (c.queued, c in server.sending, c.dropped) for c in server.sockets.get(table_id, ())])
        time.sleep(0.05)
    assert "took more than 1 s to send" in caplog.text
    assert not server.sending
    for s in silent:
        s.close()
