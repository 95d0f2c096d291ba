"""The kernel's exceptions: every error the engine raises on purpose derives from :class:`CardgameError`."""

from __future__ import annotations

__all__ = ["CardgameError", "ConfigError", "IllegalActionError", "StageError"]


class CardgameError(Exception):
    """Base class of every exception the library raises on purpose."""


class ConfigError(CardgameError, ValueError):
    """A bad parameter for a game, a stage or a table."""


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
