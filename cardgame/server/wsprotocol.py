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

from collections.abc import Callable
from typing import Any

from websockets.protocol import State

try:  # (a module of uvicorn's own: where another uvicorn lacks it, the server runs its protocol as it is)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover  (the uvicorn of the server extra has it)
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

__all__ = ["PROTOCOL", "RECEIVE_NOW", "SEND_NOW", "TableProtocol"]

#: The key of :meth:`TableProtocol.send_now` in a connection's ``scope["extensions"]``.
SEND_NOW = "cardgame.send_now"
#: The key of :meth:`TableProtocol.receive_now` in a connection's ``scope["extensions"]``.
RECEIVE_NOW = "cardgame.receive_now"

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
        self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


if WebSocketsSansIOProtocol is not None:
    PROTOCOL = "cardgame.server.wsprotocol:TableProtocol"
