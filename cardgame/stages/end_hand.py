"""The hand's end: close the hand, then start the next one or stop the game (the seed's *restart*)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import attrs

from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import table_fit
from cardgame.stages.results import ShowdownResult

__all__ = ["EndHand"]


class EndHand(PokerStage):
    """Closes the hand (leavers go, the broke sit out, :class:`~cardgame.model.events.HandEnded` is
    logged); then ends with *restart*, or with *exit* once the game was asked to stop or has
    played its ``max_hands``. The last stage of every poker variant."""

    name: ClassVar[str] = "end of hand"
    states: ClassVar[list[str]] = ["ready", "hand_closed", "game_over"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "game_over", "prepare": "close_hand",
         "conditions": "game_over"},
        {"trigger": "begin", "source": "ready", "dest": "hand_closed"},
    ]
    ends: ClassVar[dict[str, str]] = {"hand_closed": "restarted", "game_over": "exited"}
    takes: ClassVar[tuple[type, ...]] = (ShowdownResult,)
    gives: ClassVar[tuple[type, ...]] = ()
    __slots__ = ()

    def close_hand(self) -> None:
        self.ctx.close_hand()

    def game_over(self) -> bool:
        return self.ctx.game_over()

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Closes the hand."""
        table = table_fit(before)
        return before if table is None else attrs.evolve(table, ended=True)
