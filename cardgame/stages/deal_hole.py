"""Deal hole cards to every player still in the hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cardgame.errors import ConfigError
from cardgame.events import HoleCardsDealt
from cardgame.stage import Stage

__all__ = ["DealHole"]


class DealHole(Stage):
    """Deals ``len(face_up)`` cards (or ``count`` face-down cards) to each live player.

    Players are served clockwise from the button's left, each taking their cards as one block
    from the top of the deck (with a shuffled deck this deals the same hands as one card at a
    time, and a stacked deck for a replay lists each player's cards together). Passes the
    previous result on. Ends at once, dealing nothing, when fewer than two players are live.
    """

    name: ClassVar[str] = "deal hole cards"
    __slots__ = ("face_up",)

    def __init__(self, count: int = 2, *, face_up: Sequence[bool] | None = None) -> None:
        super().__init__()
        if face_up is None:
            if not isinstance(count, int) or count < 1:
                raise ConfigError(f"Hole card count must be a positive whole number, not {count!r}.")
            face_up = (False,) * count
        if not face_up:
            raise ConfigError("DealHole must deal at least one card.")
        self.face_up = tuple(bool(u) for u in face_up)

    def on_start(self, previous: Any) -> None:
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None, "dealing runs inside a hand"
        if hand.live_count() >= 2:
            up = self.face_up
            n = len(up)
            deal = hand.deck.deal
            for hp in hand.players:
                if hp.folded:
                    continue
                cards = deal(n)
                hp.hole.extend(cards)
                hp.face_up.extend(up)
                ctx.emit(HoleCardsDealt(hp.seat, tuple(cards), up))
        self.finish(previous)
