"""The kernel's exceptions: every error the engine raises on purpose derives from :class:`CardgameError`."""

from __future__ import annotations

import reprlib

__all__ = ["EXCERPT_LIMIT", "CardgameError", "ConfigError", "IllegalActionError", "StageError", "excerpt"]

EXCERPT_LIMIT = 60
"""Characters of a bad input an error message quotes."""


def excerpt(value: object, limit: int = EXCERPT_LIMIT) -> str:
    """``repr`` of ``value``, cut to about ``limit`` characters with the total length noted."""
    if isinstance(value, str | bytes) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, int) and value.bit_length() > 4 * limit:  # repr would be long, or refuse past 4,300 digits
        return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
    try:  # a container is quoted a few items and levels deep (deep nesting would exhaust the stack)
        text = _SHORT_REPR.repr(value)
    except Exception:  # a hostile object whose repr raises is named by its type
        text = f"a {type(value).__name__} object"
    return text if len(text) <= limit + 2 else f"{text[:limit]}... ({len(text):,} characters)"


class _ShortRepr(reprlib.Repr):
    """``reprlib``'s bounded ``repr`` that also names a huge whole number inside a container."""

    def repr_int(self, x: int, level: int) -> str:
        return excerpt(x) if x.bit_length() > 4 * EXCERPT_LIMIT else int.__repr__(x)


def _short_repr() -> reprlib.Repr:
    short = _ShortRepr()
    short.maxlevel, short.maxlist, short.maxtuple, short.maxdict, short.maxset = 3, 6, 6, 4, 6
    short.maxstring, short.maxlong, short.maxother = 2 * EXCERPT_LIMIT, 4 * EXCERPT_LIMIT, 2 * EXCERPT_LIMIT
    return short


_SHORT_REPR = _short_repr()


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
