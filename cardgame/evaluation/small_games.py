"""Evaluators of the research games: Kuhn poker (one card, highest wins) and Leduc hold'em
(one hole card and one board card: a pair with the board wins, else the higher card).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from cardgame.evaluation.describe import HandValue
from cardgame.evaluation.protocol import CardCounts
from cardgame.model.cards import CARDS, RANKS
from cardgame.model.errors import CardError

__all__ = ["HIGH_CARD", "LEDUC", "HighCardEvaluator", "LeducEvaluator"]

_NAMES = dict(
    zip(
        RANKS,
        ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"),
        strict=True,
    )
)


class HighCardEvaluator:
    """Kuhn poker: the single highest card wins (suits never matter)."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(1, None), hole=(1, None))

    name: str = "high card"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        if not hole:
            raise CardError("A high-card hand needs at least one card.")
        return max(c >> 2 for c in (*hole, *board))

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        value = self.rank(hole, board)
        best = max((*hole, *board), key=lambda c: c >> 2)
        return HandValue(value, "High Card", f"{_NAMES[RANKS[value]]} high", (CARDS[best],))


class LeducEvaluator:
    """Leduc hold'em: pairing the board card beats any unpaired card; then the higher hole card."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(1, 2), hole=(1, 1), board=(0, 1))

    name: str = "leduc"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        if len(hole) != 1 or len(board) > 1:
            raise CardError(
                f"Leduc hands are one hole card and at most one board card, not {len(hole)} + {len(board)}."
            )
        r = hole[0] >> 2
        paired = bool(board) and board[0] >> 2 == r
        return (13 if paired else 0) + r

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        value = self.rank(hole, board)
        r = RANKS[value % 13]
        if value >= 13:
            return HandValue(value, "Pair", f"Pair of {_NAMES[r]}s", (CARDS[hole[0]], CARDS[board[0]]))
        return HandValue(value, "High Card", f"{_NAMES[r]} high", (CARDS[hole[0]],))


HIGH_CARD = HighCardEvaluator()
LEDUC = LeducEvaluator()
