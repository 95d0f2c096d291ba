"""The server's exception: a refused message, with the code the client receives."""

from __future__ import annotations

from cardgame.engine.errors import CardgameError

__all__ = ["CODES", "LimitError", "MessageError"]

#: Every error code a client may receive (docs/server.md).
CODES = frozenset({
    "malformed", "too_large", "rate_limited", "not_seated", "already_seated", "bad_token", "not_your_turn",
    "stale", "illegal", "seat_taken", "buy_in", "forbidden", "full", "paused",
})


class LimitError(CardgameError):
    """A client's request the server's limits refuse (too many tables, a wrong creator token...);
    ``status`` is the HTTP status it is answered with."""

    def __init__(self, message: str, status: int = 429) -> None:
        super().__init__(message)
        self.status = status


class MessageError(CardgameError):
    """A client's message the table refuses; ``code`` is one of :data:`CODES`. The table is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
