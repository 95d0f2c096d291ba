"""The tournament package's own error."""

from __future__ import annotations

from cardgame.model.errors import CardgameError

__all__ = ["TournamentError"]


class TournamentError(CardgameError, ValueError):
    """A tournament input the rules refuse: stacks, a payout table, a blind structure, an elimination;
    the message names what was wrong and what is allowed."""
