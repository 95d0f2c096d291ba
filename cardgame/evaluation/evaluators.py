"""``HIGH``: the best five of hole plus board cards (hold'em, stud, five-card draw)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from cardgame.evaluation.describe import HandValue, describe_high, high_description
from cardgame.evaluation.high import evaluate_high_split
from cardgame.evaluation.protocol import CardCounts

__all__ = ["HIGH", "HighEvaluator"]


@attrs.frozen
class HighEvaluator:
    """High hand from any five of the 5-7 hole and board cards together."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 7))

    name: str = "high"
    # the showdown's hot path: no extra Python frame between the call and the evaluator
    rank = staticmethod(evaluate_high_split)
    #: The description of a value (:func:`high_description`), without the cards.
    text = staticmethod(high_description)

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        """:func:`describe_high` of hole + board."""
        return describe_high((*hole, *board))


HIGH = HighEvaluator()
