"""The websocket protocol ``cardgame serve`` runs under uvicorn: uvicorn's sans-I/O websockets protocol
(``ws="websockets-sansio"``) with a synchronous send for the tables' messages.

Through ASGI, each message a connection sends is a chain of coroutines (Starlette's ``send_text`` and
``send``, its exception handlers' wrappers, uvicorn's ``send``) driven to its end, for the same two
calls at the bottom: websockets frames the text, the transport writes it. :class:`TableProtocol` puts
its :meth:`~TableProtocol.send_now` in the connection's ASGI scope (``scope["extensions"]`` under
:data:`SEND_NOW`): it makes those two calls at once when the connection is open and its transport takes
more (else it says so, and the caller sends through ASGI, which waits or raises as before). A server
run without it (another ASGI server, Starlette's test client) finds no such extension and sends through
ASGI only.

Receiving, likewise: a message goes through uvicorn's queue of ASGI events (pausing the transport's reading
until it is taken), a wake-up of the reading task, and Starlette's and uvicorn's ``receive``. The protocol
also puts its :meth:`~TableProtocol.receive_now` in the scope (under :data:`RECEIVE_NOW`): a connection
hands it a function, and each whole message that arrives from then on is handed to that function at once,
in the protocol's own callback, as uvicorn would have queued it (text decoded; invalid UTF-8, a fragmented
message or a message after the close go through uvicorn as before, which takes the function back so that
no message passes one queued before it). Disconnects still come through the queue.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from websockets.protocol import State
from websockets.streams import StreamReader

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover  (websockets built without its C extension)
    from websockets.utils import apply_mask

try:  # (a module of uvicorn's own: where another uvicorn lacks it, the server runs its protocol as it is)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover  (the uvicorn of the server extra has it)
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

__all__ = ["PROTOCOL", "RECEIVE_NOW", "SEND_NOW", "TableProtocol"]

#: The key of :meth:`TableProtocol.send_now` in a connection's ``scope["extensions"]``.
SEND_NOW = "cardgame.send_now"
#: The key of :meth:`TableProtocol.receive_now` in a connection's ``scope["extensions"]``.
RECEIVE_NOW = "cardgame.receive_now"

#: A text frame's head (FIN, text; unmasked) for a length under 126, by the length; for 16 and 64-bit lengths.
_SHORT_TEXT = tuple(bytes((0x81, n)) for n in range(126))
_HEAD16 = struct.Struct("!BBH")
_HEAD64 = struct.Struct("!BBQ")
#: The code websockets' parser waits in between frames (``parse`` yields from ``reader.at_eof()`` there; within a
#: frame, from ``Frame.parse``): a frame arriving alone is a whole frame only when the parser waits here.
_BETWEEN_FRAMES = StreamReader.at_eof.__code__

#: What ``cardgame serve`` gives uvicorn as its ``ws`` option: this module's protocol where this uvicorn has
#: the sans-I/O protocol it extends; else uvicorn's own (every message then goes through ASGI, as under any
#: other server).
PROTOCOL = "websockets-sansio"


class TableProtocol(WebSocketsSansIOProtocol if WebSocketsSansIOProtocol is not None else object):  # type: ignore[misc]
    """uvicorn's sans-I/O websockets protocol, offering :meth:`send_now` and :meth:`receive_now` to the
    application."""

    #: What each message received is handed to (:meth:`receive_now`); ``None``: uvicorn's queue.
    taker: Callable[[str | bytes], None] | None = None

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none: the handshake was refused
        extensions = scope.get("extensions") if isinstance(scope, dict) else None
        if isinstance(extensions, dict):  # (else the app finds no such send and sends through ASGI)
            extensions[SEND_NOW] = self.send_now
            extensions[RECEIVE_NOW] = self.receive_now

    def receive_now(self, take: Callable[[str | bytes], None] | None) -> bool:
        """Hand each whole message received from now on to ``take`` (a text message as ``str``, a binary one as
        ``bytes``), at once, instead of queueing it for ``receive``; ``None``: queue them again. ``False``
        (nothing changed) while ASGI events wait in the queue (or this uvicorn keeps it otherwise): the
        caller receives those first, then asks again, so that no message passes one received before it."""
        if take is not None:
            try:
                if not self.queue.empty():
                    return False
            except AttributeError:  # (a uvicorn keeping its queue otherwise: messages go through ASGI)
                return False
        self.taker = take
        return True

    def handle_text(self, event: Any) -> None:
        take = self.taker
        if take is not None and event.fin and not self.close_sent:
            try:
                text = event.data.decode()
            except UnicodeDecodeError:
                pass  # (uvicorn's own handling closes the connection: 1007)
            else:
                take(text)
                return
        self.taker = None  # (queued: the connection takes it, and any after it, from the queue)
        super().handle_text(event)

    def handle_bytes(self, event: Any) -> None:
        take = self.taker
        if take is not None and event.fin and not self.close_sent:
            take(bytes(event.data))
            return
        self.taker = None
        super().handle_bytes(event)

    def send_now(self, text: str) -> bool:
        """Send ``text`` as one text message now, as uvicorn's ``send`` of a ``websocket.send`` would:
        ``True`` when it is handed to the transport; ``False`` (nothing done) when that ``send`` would
        wait (the transport's buffer is full) or refuse (the handshake is not over, or the connection is
        closing or closed)."""
        try:
            if (not self.writable.is_set() or self.disconnected or self.close_sent or not self.handshake_complete
                    or self.initial_response is not None or self.conn.state is not State.OPEN):
                return False
        except AttributeError:  # (a uvicorn keeping this state otherwise: the message goes through ASGI)
            return False
        conn = self.conn
        data = text.encode()
        try:
            plain = not conn.extensions and not conn.writes and not conn.expect_continuation_frame
        except AttributeError:  # (a websockets keeping its state otherwise: framed by its own send)
            plain = False
        if plain:  # the frame websockets makes of it, made at once: FIN, text, unmasked, the length, the data
            size = len(data)
            head = (_SHORT_TEXT[size] if size < 126 else _HEAD16.pack(0x81, 126, size) if size < 65536
                    else _HEAD64.pack(0x81, 127, size))
            self.transport.write(head + data)
            return True
        conn.send_text(data)
        self.transport.write(b"".join(conn.data_to_send()))
        return True

    def data_received(self, data: bytes) -> None:
        """uvicorn's, but for a whole, masked, unfragmented text or binary frame arriving alone while the
        messages go to :meth:`receive_now`'s function: that frame's message goes there at once, as
        websockets' parser and uvicorn's events would have handed it over (any other data, or a frame that
        is too big, invalid UTF-8, or not masked, goes through them as before)."""
        take = self.taker
        if take is not None and len(data) > 5 and (data[0] == 0x81 or data[0] == 0x82):
            try:
                message = self._whole(data)
            except (AttributeError, UnicodeDecodeError):  # (uvicorn's and websockets' own path says why)
                message = None
            if message is not None:
                take(message)
                return
        super().data_received(data)

    def _whole(self, data: bytes) -> str | bytes | None:
        """The message of ``data`` if it is one whole data frame (FIN, no extension bits) that the connection
        may take now: the connection open, websockets' parser waiting between frames (no part of a frame read
        before it, buffered or taken); else ``None``."""
        conn = self.conn
        size = data[1] ^ 0x80  # (the mask bit must be set: a client's frame is masked)
        if size < 126:
            start = 2
        elif size == 126 and len(data) > 8:
            size, start = (data[2] << 8) | data[3], 4
        else:
            return None
        waiting = conn.parser  # the generator the parser waits in, innermost (a server's parse runs Protocol's)
        while (inner := waiting.gi_yieldfrom) is not None:
            waiting = inner
        if (len(data) != start + 4 + size or self.close_sent or conn.state is not State.OPEN or conn.extensions
                or waiting.gi_code is not _BETWEEN_FRAMES  # (else a frame's head was read and its rest not)
                or conn.current_size is not None or conn.reader.buffer or conn.parser_exc is not None
                or (conn.max_message_size is not None and size > conn.max_message_size)
                or (conn.max_fragment_size is not None and size > conn.max_fragment_size)):
            return None
        payload = apply_mask(data[start + 4:], data[start:start + 4])
        return payload.decode() if data[0] == 0x81 else payload


if WebSocketsSansIOProtocol is not None:
    PROTOCOL = "cardgame.server.wsprotocol:TableProtocol"
