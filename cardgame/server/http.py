"""The HTTP side shared by the server's routes (the lobby's and the events'): the static files, the
body size limit, error answers and the client's address that per-address limits count."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from cardgame.engine.errors import CardgameError
from cardgame.server.errors import LimitError
from cardgame.store.serialize import SnapshotError

__all__ = ["MAX_BODY", "STATIC", "client_address", "error_response", "read_body", "refusal"]

#: The server's pages and scripts.
STATIC = Path(__file__).parent / "static"
#: The largest request body the lobby reads.
MAX_BODY = 4096


def error_response(status: int, message: str) -> JSONResponse:
    """``{"error": message}`` with HTTP ``status``."""
    return JSONResponse({"error": message}, status_code=status)


def refusal(exc: CardgameError) -> JSONResponse:
    """The answer to a request the library refused: 400 with its message (a body that is not JSON
    said so), or a limit's own status (429, 403...)."""
    if isinstance(exc, SnapshotError):
        return error_response(400, f"The body must be JSON: {exc}.")
    if isinstance(exc, LimitError):
        return error_response(exc.status, str(exc))
    return error_response(400, str(exc))


async def read_body(request: Request) -> bytes | None:
    """The request's body, or ``None`` if it holds more than :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isascii() or not length.isdigit() or int(length) > MAX_BODY):
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


def client_address(connection: HTTPConnection) -> str:
    """The client's address, what its limits count (uvicorn takes it from a trusted proxy's
    ``X-Forwarded-For``): an IPv6 address by its /64 network, as one subscriber holds a whole /64."""
    host = connection.client.host if connection.client is not None else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return host
