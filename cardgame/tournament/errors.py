"""The tournament package's exception."""

from __future__ import annotations

from cardgame.model.errors import CardgameError

__all__ = ["TournamentError"]


class TournamentError(CardgameError):
    """A tournament request the rules or the event's settings forbid."""
