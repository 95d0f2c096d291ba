"""The websocket protocol ``cardgame serve`` runs (cardgame/server/wsprotocol.py): its synchronous send
writes what uvicorn's ASGI send writes, refuses when that send would wait or refuse, and is what a
served table's connections send with."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("uvicorn")
websockets_client = pytest.importorskip("websockets.sync.client")

import uvicorn  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402
from websockets.protocol import State  # noqa: E402

from cardgame.server.app import create_app  # noqa: E402
from cardgame.server.config import read_config  # noqa: E402
from cardgame.server.serve import WEBSOCKET_OPTIONS  # noqa: E402
from cardgame.server.wsprotocol import PROTOCOL, SEND_NOW, TableProtocol  # noqa: E402
from tests.server.helpers import served_in_thread  # noqa: E402


class Transport:
    """What the protocol writes."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False


def open_protocol() -> tuple[TableProtocol, Transport]:
    """A protocol past its handshake, writing to a :class:`Transport`."""
    config = uvicorn.Config(lambda *args: None, **WEBSOCKET_OPTIONS)
    config.load()
    loop = asyncio.new_event_loop()
    protocol = TableProtocol(config, uvicorn.server.ServerState(), {}, _loop=loop)
    loop.close()
    transport = Transport()
    protocol.transport = transport  # type: ignore[assignment]
    protocol.handshake_complete = True
    protocol.conn.state = State.OPEN
    return protocol, transport


@pytest.mark.parametrize("size", [0, 1, 125, 126, 1000, 65535, 65536])
def test_send_now_writes_the_frame_of_the_text(size: int) -> None:
    """One unmasked text frame of the UTF-8 text, written at once: what websockets frames for uvicorn's send."""
    protocol, transport = open_protocol()
    text = ("é" + "x" * size)[:max(size, 1)] if size else ""
    assert protocol.send_now(text) is True
    assert transport.written == [Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])]


@pytest.mark.parametrize("state", ["buffer full", "closing", "close sent", "disconnected", "handshake"])
def test_send_now_refuses_what_uvicorns_send_would_wait_for_or_refuse(state: str) -> None:
    """A full transport buffer (uvicorn's send waits), a closing connection, one past its close, one lost,
    or one not yet accepted: nothing is written, and the caller sends through ASGI."""
    protocol, transport = open_protocol()
    if state == "buffer full":
        protocol.pause_writing()
    elif state == "closing":
        protocol.conn.state = State.CLOSING
    elif state == "close sent":
        protocol.close_sent = True
    elif state == "disconnected":
        protocol.disconnected = True
    else:
        protocol.handshake_complete = False
    assert protocol.send_now("view") is False
    assert transport.written == []
    assert protocol.conn.data_to_send() == []


@pytest.mark.parametrize("missing", ["writable", "close_sent", "handshake_complete", "conn"])
def test_a_uvicorn_keeping_its_state_otherwise_sends_through_asgi(missing: str) -> None:
    """Where another uvicorn keeps the protocol's state under other names (the sans-I/O protocol is
    uvicorn's own code), ``send_now`` writes nothing and says so, and the caller sends through ASGI: it
    neither raises (which would drop the connection) nor half-writes."""
    protocol, transport = open_protocol()
    try:
        delattr(protocol, missing)
    except AttributeError:  # (a class attribute of this uvicorn's: shadow it with nothing readable)
        pytest.skip(f"{missing} is not an instance attribute in this uvicorn")
    assert protocol.send_now("view") is False
    assert transport.written == []


def test_cardgame_serve_runs_the_protocol_where_uvicorn_has_what_it_extends() -> None:
    """The ``ws`` option names this module's protocol, importable by uvicorn's own loader."""
    assert WEBSOCKET_OPTIONS["ws"] == PROTOCOL == "cardgame.server.wsprotocol:TableProtocol"
    config = uvicorn.Config(lambda *args: None, **WEBSOCKET_OPTIONS)
    config.load()
    assert config.ws_protocol_class is TableProtocol


def test_a_served_tables_views_go_out_by_the_protocols_send(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``cardgame serve``'s options, a table's connection finds the protocol's send in its scope and
    sends its views with it; the client reads them as usual."""
    sent: list[str] = []
    original = TableProtocol.send_now

    def counting(self: TableProtocol, text: str) -> bool:
        done = original(self, text)
        if done:
            sent.append(text)
        return done

    monkeypatch.setattr(TableProtocol, "send_now", counting)
    assert SEND_NOW == "cardgame.send_now"
    application = create_app(None, allowed_hosts=["127.0.0.1"])
    server = application.state.server
    server.opening.append(read_config({"variant": "NT", "params": {"small_blind": 1, "big_blind": 2}, "seats": 2,
                                       "min_buy_in": 40, "max_buy_in": 200, "name": "t"}))
    with served_in_thread(application) as port:
        table_id = next(iter(server.tables))
        got: list[dict[str, Any]] = []
        with websockets_client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:
            ws.send(json.dumps({"type": "sit", "name": "Ann", "buy_in": 100, "seat": 0}))
            while not any(m["type"] == "seated" for m in got):
                got.append(json.loads(ws.recv(timeout=10)))
            while len(got) < 4:
                got.append(json.loads(ws.recv(timeout=10)))
        assert [m["type"] for m in got][:4] == ["welcome", "view", "seated", "view"]
        assert [json.loads(text) for text in sent[:4]] == got[:4]
