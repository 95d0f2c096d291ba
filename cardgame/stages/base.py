"""The base of poker's stages: a kernel :class:`~cardgame.engine.Stage` whose context is poker's
:class:`~cardgame.context.Context` (the table, the hand in progress, the deck's random source)."""

from __future__ import annotations

from typing import ClassVar

from cardgame.context import Context
from cardgame.engine import Stage

__all__ = ["PokerStage"]


class PokerStage(Stage[Context]):
    """A stage of a poker game. ``on_table_change`` is told when seats or stacks change while it
    runs (a player sat down or left); a stage whose machine depends on the table fires a trigger."""

    name: ClassVar[str] = "poker stage"
    __slots__ = ()

    def on_table_change(self) -> None:
        """Seats or stacks changed (sit down, leave...) while this stage runs."""
