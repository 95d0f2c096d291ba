"""The library's exceptions: every bad input raises one of these, naming what was wrong."""

from __future__ import annotations

from cardgame.engine.errors import CardgameError, ConfigError, IllegalActionError, StageError

__all__ = [
    "BotError",
    "CardError",
    "CardgameError",
    "ConfigError",
    "HandHistoryError",
    "IllegalActionError",
    "ProtocolError",
    "ReplayError",
    "StageError",
    "TableError",
]


class CardError(CardgameError, ValueError):
    """A malformed card string, or a card that is not in the deck."""


class TableError(CardgameError):
    """A seating or bankroll request the table rules forbid (buy-in limits, taken seat...)."""


class HandHistoryError(CardgameError, ValueError):
    """A malformed or unplayable hand history (PHH) file."""


class ProtocolError(CardgameError, ValueError):
    """A malformed or unexpected line of a network protocol (the ACPC poker protocol)."""


class BotError(CardgameError):
    """A bot answered what the rules do not allow (or no bot plays a seat); the game is unchanged.

    ``seat`` is the seat asked, ``allowed`` describes the answers it could have given, ``reason``
    is the message without them.
    """

    def __init__(self, message: str, *, seat: int | None = None, allowed: str = "") -> None:
        super().__init__(f"{message} Allowed: {allowed}." if allowed else message)
        self.reason = message
        self.seat = seat
        self.allowed = allowed


class ReplayError(CardgameError):
    """A replay or saved random state asked of a game built without a seed: it shuffles with the
    operating system's cryptographic source, which has no seed or state to give back."""
