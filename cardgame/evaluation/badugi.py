"""Badugi: four cards, the best subset of distinct suits and distinct ranks, aces low.

More cards in the subset win (a four-card badugi beats any three-card hand); between subsets of
the same size the highest card decides, then the next, lower winning. The best hand is
4-3-2-A of four suits. Value: ``size << 16 | (0xFFFF - ranks)`` where ``ranks`` packs the
subset's ace-low ranks (ace 0 .. king 12) high to low in nibbles; higher is better.
Categories are ``Badugi`` (four cards), ``3-card``, ``2-card``, ``1-card``; descriptions read
``Badugi (4 3 2 A)``, ``3-card (K 5 2)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import ClassVar

import attrs

from cardgame.evaluation.describe import HandValue
from cardgame.evaluation.high import check_cards
from cardgame.evaluation.protocol import CardCounts
from cardgame.model.cards import CARDS, RANKS
from cardgame.model.errors import CardError

__all__ = ["BADUGI", "BadugiEvaluator", "describe_badugi", "evaluate_badugi"]


def _subset_value(cards: Sequence[int]) -> int:
    ranks = sorted(((c >> 2) + 1) % 13 for c in cards)[::-1]
    packed = 0
    for r in ranks:
        packed = (packed << 4) | r
    packed <<= 4 * (4 - len(ranks))
    return (len(cards) << 16) | (0xFFFF - packed)


def _best(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    check_cards(cards, 4, 4, "A badugi hand")
    best: tuple[int, tuple[int, ...]] = (0, ())
    for size in (4, 3, 2, 1):
        for subset in combinations(cards, size):
            if len({c & 3 for c in subset}) == size and len({c >> 2 for c in subset}) == size:
                best = max(best, (_subset_value(subset), subset))
        if best[1]:
            return best
    raise CardError("unreachable: one card is always a badugi")  # pragma: no cover


def evaluate_badugi(cards: Sequence[int]) -> int:
    """Value of the best badugi in four cards (higher is better)."""
    return _best(cards)[0]


def describe_badugi(cards: Sequence[int]) -> HandValue:
    """Value, text and the cards of the best badugi subset (highest first)."""
    value, subset = _best(cards)
    used = tuple(CARDS[c] for c in sorted(subset, key=lambda c: ((c >> 2) + 1) % 13, reverse=True))
    name = "Badugi" if len(used) == 4 else f"{len(used)}-card"
    text = " ".join(RANKS[c >> 2] for c in used)
    return HandValue(value, name, f"{name} ({text})", used)


@attrs.frozen
class BadugiEvaluator:
    """Badugi of the four hole cards (a draw game: the board must be empty)."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(4, 4), hole=(4, 4), board=(0, 0))

    name: str = "badugi"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """:func:`evaluate_badugi` of the hole cards."""
        if board:
            raise CardError("Badugi has no board cards.")
        return evaluate_badugi(hole)

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        """:func:`describe_badugi` of the hole cards."""
        if board:
            raise CardError("Badugi has no board cards.")
        return describe_badugi(hole)


BADUGI = BadugiEvaluator()
