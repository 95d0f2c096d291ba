"""Deal community cards (flop, turn, river)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from cardgame.model.cards import CARDS
from cardgame.model.errors import ConfigError
from cardgame.model.events import BoardDealt
from cardgame.model.inputs import check_int
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import count, table_fit

__all__ = ["DealBoard"]


class DealBoard(PokerStage):
    """Burns one card (unless ``burn=False``) and deals ``count`` cards to the board.

    Ends at once, dealing nothing, when fewer than two players are live. When every live player
    but at most one is all-in the board is still dealt (the hand goes to showdown).
    """

    name: ClassVar[str] = "deal board"
    states: ClassVar[list[str]] = ["ready", "dealt", "not_contested"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "dealt", "conditions": "hand_contested", "after": "deal"},
        {"trigger": "begin", "source": "ready", "dest": "not_contested"},
    ]
    ends: ClassVar[dict[str, str]] = {"dealt": "passed_on", "not_contested": "passed_on"}
    __slots__ = ("burn", "count", "street")

    def __init__(self, count: object, street: str = "", *, burn: bool = True) -> None:  # object: checked here
        super().__init__()
        count = check_int(count, "board card count", ConfigError, minimum=1, maximum=len(CARDS))
        self.count = count
        self.street = street or {3: "flop"}.get(count, "board")
        self.burn = burn

    @property
    def label(self) -> str:
        """``deal the flop``, ``deal the turn``."""
        return f"deal the {self.street}"

    def hand_contested(self) -> bool:
        """Two or more players are live."""
        return self.ctx.hand.contested()  # type: ignore[union-attr]  # dealing runs inside a hand

    def deal(self) -> None:
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None
        cards = hand.deck.deal(self.count + 1 if self.burn else self.count)
        if self.burn:
            hand.discards.append(cards[0])
            cards = cards[1:]
        hand.board.extend(cards)
        hand.street = self.street
        ctx.emit(BoardDealt(self.street, tuple(cards), tuple(hand.board)))

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Adds its cards (and the burn) to the board; the deck must hold them."""
        table = table_fit(before)
        if table is None:
            return before
        burns = 1 if self.burn else 0
        table.take(0, self.count + burns, f"{count(self.count)} to the board" + (" after a burn" if burns else ""))
        return table.deal(0, 0, self.count, burns)

    def fit_key(self) -> Hashable:
        return self.count, self.burn
