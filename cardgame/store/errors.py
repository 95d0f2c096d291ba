"""The event store's error."""

from __future__ import annotations

from cardgame.model.errors import CardgameError

__all__ = ["StoreError"]


class StoreError(CardgameError):
    """A store that cannot be opened, read or written, or a log that contradicts itself."""

