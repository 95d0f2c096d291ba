"""The websocket protocol ``cardgame serve`` runs (cardgame/server/wsprotocol.py): its synchronous send
writes what uvicorn's ASGI send writes, refuses when that send would wait or refuse, and is what a
served table's connections send with; its hand-off of received messages gives each whole message, in
order, and is what a served table's connections receive with."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("uvicorn")
websockets_client = pytest.importorskip("websockets.sync.client")

import uvicorn  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402
from websockets.protocol import State  # noqa: E402

from cardgame.server.app import create_app  # noqa: E402
from cardgame.server.config import read_config  # noqa: E402
from cardgame.server.serve import WEBSOCKET_OPTIONS  # noqa: E402
from cardgame.server.wsprotocol import PROTOCOL, RECEIVE_NOW, SEND_NOW, TableProtocol  # noqa: E402
from tests.server.helpers import served_in_thread  # noqa: E402


class Transport:
    """What the protocol writes."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.reading = True
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True


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
    protocol.conn.parser = protocol.conn.parse()  # (reading frames, as after the handshake)
    next(protocol.conn.parser)
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


def client_frame(opcode: Opcode, data: bytes, fin: bool = True) -> bytes:
    """A frame as a client sends it (masked)."""
    return Frame(opcode, data, fin=fin).serialize(mask=True, extensions=[])


def queued(protocol: TableProtocol) -> list[dict[str, Any]]:
    items = []
    while not protocol.queue.empty():
        items.append(protocol.queue.get_nowait())
    return items


def test_receive_now_hands_each_whole_message_over_at_once() -> None:
    """Text (decoded) and binary messages go to the function given, in order, none through uvicorn's queue,
    and the transport keeps reading; given ``None`` back, they are queued again, as uvicorn does."""
    protocol, transport = open_protocol()
    taken: list[str | bytes] = []
    assert protocol.receive_now(taken.append) is True
    protocol.data_received(client_frame(Opcode.TEXT, "é1".encode()) + client_frame(Opcode.BINARY, b"\x00\xff")
                           + client_frame(Opcode.TEXT, b"3"))
    assert taken == ["é1", b"\x00\xff", "3"]
    assert queued(protocol) == [] and transport.reading
    assert protocol.receive_now(None) is True
    protocol.data_received(client_frame(Opcode.TEXT, b"4"))
    assert taken == ["é1", b"\x00\xff", "3"]
    assert queued(protocol) == [{"type": "websocket.receive", "text": "4"}]


def test_receive_now_lets_no_message_pass_one_queued_before_it() -> None:
    """A fragmented message goes through uvicorn's queue and takes the hand-off back: the message after it
    is queued behind it; the hand-off is refused while the queue holds them, and given again once it is
    empty."""
    protocol, _ = open_protocol()
    taken: list[str | bytes] = []
    assert protocol.receive_now(taken.append) is True
    protocol.data_received(client_frame(Opcode.TEXT, b"fir", fin=False) + client_frame(Opcode.CONT, b"st")
                           + client_frame(Opcode.TEXT, b"second"))
    assert taken == []
    assert protocol.receive_now(taken.append) is False
    assert queued(protocol) == [{"type": "websocket.receive", "text": "first"},
                                {"type": "websocket.receive", "text": "second"}]
    assert protocol.receive_now(taken.append) is True
    protocol.data_received(client_frame(Opcode.TEXT, b"third"))
    assert taken == ["third"]


def test_receive_now_leaves_invalid_text_and_the_close_to_uvicorn() -> None:
    """Text that is not UTF-8 is not handed over: uvicorn closes the connection (1007) as it would; a close
    frame reaches the application through the queue."""
    protocol, transport = open_protocol()
    taken: list[str | bytes] = []
    protocol.receive_now(taken.append)
    protocol.data_received(client_frame(Opcode.TEXT, b"\xff\xfe"))
    assert taken == [] and transport.closed
    protocol, transport = open_protocol()
    protocol.receive_now(taken.append)
    protocol.data_received(client_frame(Opcode.CLOSE, b"\x03\xe8"))
    assert taken == [] and [m["type"] for m in queued(protocol)] == ["websocket.disconnect"]


def served_table() -> tuple[Any, Any]:
    application = create_app(None, allowed_hosts=["127.0.0.1"], rate=5, burst=5)
    server = application.state.server
    server.opening.append(read_config({"variant": "NT", "params": {"small_blind": 1, "big_blind": 2}, "seats": 2,
                                       "min_buy_in": 40, "max_buy_in": 200, "name": "t"}))
    return application, server


def test_a_served_tables_messages_come_by_the_protocols_hand_off_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``cardgame serve``'s options, a table's connection is handed its messages by the protocol; a
    fragmented ``sit`` (queued by uvicorn) is still carried out before the ``sit_out`` sent after it."""
    taken: list[str | bytes] = []
    original = TableProtocol.receive_now

    def counting(self: TableProtocol, take: Any) -> bool:
        def counted(data: str | bytes) -> None:
            taken.append(data)
            take(data)

        return original(self, None if take is None else counted)

    monkeypatch.setattr(TableProtocol, "receive_now", counting)
    assert RECEIVE_NOW == "cardgame.receive_now"
    application, server = served_table()
    with served_in_thread(application) as port:
        table_id = next(iter(server.tables))
        with websockets_client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            sit = json.dumps({"type": "sit", "name": "Ann", "buy_in": 100, "seat": 0})
            ws.send([sit[:10], sit[10:]])  # (fragmented)
            ws.send(json.dumps({"type": "sit_out"}))
            got: list[dict[str, Any]] = []
            while not any(m["type"] == "view" and m["table"]["seats"] and m["table"]["seats"][0]["sitting_out"]
                          for m in got):
                got.append(json.loads(ws.recv(timeout=10)))
                assert got[-1]["type"] != "error", got[-1]
            ws.send(json.dumps({"type": "sit_in"}))
            while not (got[-1]["type"] == "view" and not got[-1]["table"]["seats"][0]["sitting_out"]):
                got.append(json.loads(ws.recv(timeout=10)))
                assert got[-1]["type"] != "error", got[-1]
        assert '{"type": "sit_in"}' in taken


def test_a_flood_handed_over_by_the_protocol_is_rate_limited_then_cut_off() -> None:
    """Messages handed over by the protocol count against the connection's rate as queued ones did: past
    it they are refused (``rate_limited``), and a connection that keeps flooding is closed."""
    application, server = served_table()
    with served_in_thread(application) as port:
        table_id = next(iter(server.tables))
        with websockets_client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            for _ in range(8):
                ws.send(json.dumps({"type": "sit_out"}))
            codes = []
            while len(codes) < 8:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] == "error":
                    codes.append(message["code"])
            assert codes.count("rate_limited") >= 2 and set(codes) <= {"rate_limited", "not_seated"}
            with pytest.raises(ConnectionClosed):
                for _ in range(100):
                    ws.send(json.dumps({"type": "sit_out"}))
                for _ in range(1000):
                    ws.recv(timeout=10)


def masked(first: int, payload: bytes, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    """A frame with the first byte ``first`` (FIN, RSV bits, opcode) and ``payload``, masked with ``mask``."""
    size = len(payload)
    head = (bytes((first, 0x80 | size)) if size < 126 else bytes((first, 0x80 | 126)) + size.to_bytes(2, "big")
            if size < 65536 else bytes((first, 0x80 | 127)) + size.to_bytes(8, "big"))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


CHUNKS: dict[str, list[bytes]] = {
    "empty text": [masked(0x81, b"")],
    "short text": [masked(0x81, "é".encode())],
    "125": [masked(0x81, b"x" * 125)],
    "126": [masked(0x81, b"x" * 126)],
    "the largest": [masked(0x81, b"x" * (4 * 2048))],
    "too large": [masked(0x81, b"x" * (4 * 2048 + 1))],
    "far too large": [masked(0x81, b"x" * 70000)],
    "binary": [masked(0x82, b"\x00\xff\x10")],
    "invalid UTF-8": [masked(0x81, b"\xff\xfe")],
    "unmasked": [Frame(Opcode.TEXT, b"hello").serialize(mask=False, extensions=[])],
    "unmasked, and 4 bytes more": [Frame(Opcode.BINARY, b"hello").serialize(mask=False, extensions=[])
                                   + b"\x82\x85ab"],
    "an extension's bit": [masked(0xC1, b"hello")],
    "two in one": [masked(0x81, b"one") + masked(0x81, b"two")],
    "split": [masked(0x81, b"split")[:4], masked(0x81, b"split")[4:]],
    "split after a whole one": [masked(0x81, b"a") + masked(0x81, b"b")[:3], masked(0x81, b"b")[3:],
                                masked(0x81, b"c")],
    "fragmented": [masked(0x01, b"fir"), masked(0x80, b"st"), masked(0x81, b"next")],
    # a frame's head alone, then its rest, which reads as a whole frame of its own (its mask begins 0x81 0x88:
    # a text frame of 8 bytes, and the 10 masked bytes after its own 4 are that many): it is the first frame's
    "the head alone, then a rest like a whole frame": [masked(0x81, b"abcdefghij", b"\x81\x88\x00\x00")[:2],
                                                       masked(0x81, b"abcdefghij", b"\x81\x88\x00\x00")[2:]],
    "a fragment's end alone": [masked(0x80, b"st")],
    "ping": [masked(0x89, b"p"), masked(0x81, b"after")],
    "close": [masked(0x88, b"\x03\xe8"), masked(0x81, b"after")],
}


@pytest.mark.parametrize("case", list(CHUNKS))
def test_a_whole_frame_taken_at_once_is_taken_as_websockets_parser_would(case: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk of data received is handed over, queued, answered and closed exactly as through websockets'
    parser and uvicorn's events: the one-frame shortcut changes nothing but the work done."""
    outcomes = []
    for shortcut in (True, False):
        if not shortcut:
            monkeypatch.setattr(TableProtocol, "_whole", lambda self, data: None)
        protocol, transport = open_protocol()
        taken: list[str | bytes] = []
        protocol.receive_now(taken.append)
        for chunk in CHUNKS[case]:
            protocol.data_received(chunk)
        outcomes.append((taken, queued(protocol), transport.written, transport.closed, protocol.conn.state))
    assert outcomes[0] == outcomes[1]


def test_a_whole_frame_after_the_close_is_not_taken() -> None:
    protocol, _ = open_protocol()
    taken: list[str | bytes] = []
    protocol.receive_now(taken.append)
    protocol.close_sent = True
    protocol.data_received(masked(0x81, b"late"))
    assert taken == [] and queued(protocol) == []


def test_a_whole_frame_is_read_at_once_only_while_the_parser_waits_between_frames() -> None:
    """The shortcut reads a frame arriving alone when websockets' parser waits for the next frame, and leaves it
    to the parser while the parser holds a frame's head (read off the buffer) and waits for its rest."""
    protocol, _ = open_protocol()
    taken: list[str | bytes] = []
    protocol.receive_now(taken.append)
    assert protocol._whole(masked(0x81, b"hello")) == "hello"
    protocol.data_received(masked(0x81, b"x")[:2])  # a frame's head alone: the parser took it and waits
    assert not protocol.conn.reader.buffer and protocol._whole(masked(0x81, b"hello")) is None
    protocol.data_received(masked(0x81, b"x")[2:])
    assert taken == ["x"] and protocol._whole(masked(0x82, b"\x00")) == b"\x00"


def raw_frame(first: int, payload: bytes, mask: bytes | None) -> bytes:
    """A frame of any first byte (FIN, RSV bits, opcode), masked with ``mask`` or not: valid or not."""
    size = len(payload)
    bit = 0x80 if mask is not None else 0
    head = (bytes((first, bit | size)) if size < 126 else bytes((first, bit | 126)) + size.to_bytes(2, "big")
            if size < 65536 else bytes((first, bit | 127)) + size.to_bytes(8, "big"))
    if mask is None:
        return head + payload
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


_FRAMES = st.builds(
    raw_frame,
    st.sampled_from([0x81, 0x82, 0x81, 0x82, 0x01, 0x02, 0x80, 0x00, 0x88, 0x89, 0x8A, 0xC1, 0x83]),
    st.one_of(st.binary(max_size=40), st.text(max_size=20).map(str.encode), st.sampled_from([125, 126, 8192, 8193]).map(
        lambda n: b"x" * n)),
    st.one_of(st.binary(min_size=4, max_size=4), st.binary(min_size=4, max_size=4), st.none()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames=st.lists(_FRAMES, min_size=1, max_size=6),
       cuts=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 9)), max_size=5))  # (frame, bytes into it)
def test_any_bytes_a_client_sends_are_taken_as_websockets_parser_takes_them(frames: list[bytes],
                                                                            cuts: list[tuple[int, int]]) -> None:
    """Differential, against websockets' own parser: any frames, valid or not (fragments, control frames, unmasked,
    extension bits, an unknown opcode, sizes about the limits), cut into chunks (at a frame's start or a few bytes
    into it: inside its head, its mask, its payload), with the connection taking
    back the hand-off after each chunk as a served one does: the messages handed over and queued, the bytes
    written, the close and the state are the same with the one-frame shortcut as without it."""
    data = b"".join(frames)
    starts = list(itertools.accumulate((len(f) for f in frames), initial=0))
    points = sorted({min(starts[k % len(frames)] + offset, len(data)) for k, offset in cuts} | {0, len(data)})
    chunks = [data[a:b] for a, b in itertools.pairwise(points) if b > a]
    outcomes = []
    for shortcut in (True, False):
        with mock.patch.object(TableProtocol, "_whole", TableProtocol._whole if shortcut else lambda self, d: None):
            protocol, transport = open_protocol()
            got: list[object] = []
            protocol.receive_now(got.append)
            for chunk in chunks:
                protocol.data_received(chunk)
                got.extend(("queued", i.get("type"), i.get("text"), i.get("bytes")) for i in queued(protocol))
                protocol.receive_now(got.append)  # (the served connection registers again once its queue is empty)
            outcomes.append((got, b"".join(transport.written), transport.closed, protocol.conn.state))
    assert outcomes[0] == outcomes[1]
