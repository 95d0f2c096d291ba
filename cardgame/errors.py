"""The library's exceptions: every bad input raises one of these, naming what was wrong."""

from __future__ import annotations

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


class CardgameError(Exception):
    """Base class of every exception the library raises on purpose."""


class CardError(CardgameError, ValueError):
    """A malformed card string, or a card that is not in the deck."""


class ConfigError(CardgameError, ValueError):
    """A bad parameter for a variant, a stage or a table."""


class TableError(CardgameError):
    """A seating or bankroll request the table rules forbid (buy-in limits, taken seat...)."""


class IllegalActionError(CardgameError):
    """An action the rules forbid right now; the game state is unchanged.

    ``rule`` names the rule broken, ``allowed`` describes what the actor could do instead.
    """

    def __init__(self, message: str, *, rule: str = "", allowed: str = "") -> None:
        super().__init__(message)
        self.rule = rule
        self.allowed = allowed


class StageError(CardgameError):
    """A stage ended in error, or the dispatcher was driven while stopped."""


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
