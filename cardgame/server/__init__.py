"""The table server: people and bots at tables over the network, played in a browser.

``create_app(db)`` is an ASGI application (Starlette) hosting many tables, each a
:class:`~cardgame.play.game.Game` driven by its own task; ``cardgame serve`` runs it under uvicorn on
127.0.0.1. The protocol and the security rules are in ``docs/server.md``. One idea per module:

* :mod:`~cardgame.server.app`: the HTTP lobby, the websocket per player, the tables' tasks;
* :mod:`~cardgame.server.host`: one table, its seats, bots, clock and views, with no networking;
* :mod:`~cardgame.server.messages`: the messages a client sends, checked;
* :mod:`~cardgame.server.config`: a table's configuration, and the limits on what clients may do;
* :mod:`~cardgame.server.fairness`: each hand's deck committed to before its first card, revealed after;
* :mod:`~cardgame.server.clock`: the decision clock and time banks;
* :mod:`~cardgame.server.ratelimit`: a connection's message rate;
* :mod:`~cardgame.server.registry`: the server's rows in the event store;
* :mod:`~cardgame.server.events`: sit-and-go tournaments the server hosts (registration, levels, standings);
* :mod:`~cardgame.server.serve`: ``cardgame serve``.

Needs the extra ``cardgame[server]`` (Starlette, uvicorn); :mod:`~cardgame.server.host` and the
modules below it need only the core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["Client", "EventConfig", "Limits", "MessageError", "Server", "TableConfig", "TableHost", "create_app",
           "read_config", "read_event", "read_message", "verify"]

_WHERE = {
    "Client": "cardgame.server.host", "TableHost": "cardgame.server.host", "MessageError": "cardgame.server.errors",
    "Server": "cardgame.server.app", "create_app": "cardgame.server.app", "TableConfig": "cardgame.server.config",
    "read_config": "cardgame.server.config", "read_message": "cardgame.server.messages",
    "Limits": "cardgame.server.config", "verify": "cardgame.server.fairness",
    "EventConfig": "cardgame.server.events", "read_event": "cardgame.server.events",
}

if TYPE_CHECKING:
    from cardgame.server.app import Server, create_app
    from cardgame.server.config import Limits, TableConfig, read_config
    from cardgame.server.errors import MessageError
    from cardgame.server.events import EventConfig, read_event
    from cardgame.server.fairness import verify
    from cardgame.server.host import Client, TableHost
    from cardgame.server.messages import read_message


def __getattr__(name: str) -> Any:
    """Import a public name's module when it is first used (Starlette only for the app)."""
    import importlib

    if name not in _WHERE:
        raise AttributeError(f"module 'cardgame.server' has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
