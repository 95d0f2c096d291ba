"""Lowball: ace-to-five (razz; 8-or-better for hi/lo split games) and deuce-to-seven.

Values are "higher is better" like every evaluator's ``rank``: ``LOW_BASE - badness``, where the
badness packs a category and ranks into nibbles as the high values do (lower badness = better low).

* Ace-to-five: aces are low, straights and flushes do not count. Categories are Low (no pair),
  Pair, Two Pair, Three of a Kind, Full House, Four of a Kind; within one, the ranks are compared
  from the most significant (the pair, else the highest card) down, lower winning. The best hand
  is 5-4-3-2-A. ``eight_or_better_low`` is the same hand when it is five unpaired cards 8 or lower
  and ``None`` otherwise.
* Deuce-to-seven: the worst high hand wins: aces are high only (A-5-4-3-2 is no straight, just ace
  high), straights and flushes count against. The best hand is 7-5-4-3-2 of mixed suits.

Descriptions read ``Low (8 6 4 2 A)`` for an unpaired low, else like high hands (``Pair (3 8 6 A)``,
``Full House (Q over K)``, ``Straight (7)``). Both evaluate the best five of 5 to 7 cards (razz, stud, triple draw).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import ClassVar

import attrs

from cardgame.evaluation._tables import (
    CARD_KEYS,
    FLUSH,
    RANK_MASK,
    STRAIGHT,
    STRAIGHT_FLUSH,
    build_rank_table,
    pack,
)
from cardgame.evaluation.describe import HandValue, high_hand_value, pick_cards
from cardgame.evaluation.high import CATEGORY_NAMES, check_cards, evaluate_high
from cardgame.evaluation.protocol import CardCounts
from cardgame.model.cards import RANKS

__all__ = [
    "ACE_TO_FIVE_CATEGORY_NAMES",
    "ACE_TO_FIVE_LOW",
    "DEUCE_TO_SEVEN_LOW",
    "EIGHT_OR_BETTER_LOW",
    "EIGHT_QUALIFIER",
    "LOW_BASE",
    "AceToFiveLowEvaluator",
    "DeuceToSevenLowEvaluator",
    "EightOrBetterLowEvaluator",
    "ace_to_five_low",
    "ace_to_five_value",
    "describe_ace_to_five_low",
    "describe_deuce_to_seven_low",
    "describe_eight_or_better_low",
    "deuce_to_seven_low",
    "eight_or_better_low",
    "low_hand_value",
]

LOW_BASE = 1 << 24
ACE_TO_FIVE_CATEGORY_NAMES = ("Low", "Pair", "Two Pair", "Three of a Kind", "Full House", "Four of a Kind")
_SHAPES = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}
_SIGNIFICANT = (5, 4, 3, 3, 2, 2)
_RANK_KEY = tuple(k & RANK_MASK for k in CARD_KEYS[:52])


def _a5(rank: int) -> int:
    """Ace-to-five rank: ace 0, deuce 1 .. king 12."""
    return (rank + 1) % 13


def ace_to_five_value(ranks: Sequence[int]) -> int:
    """Ace-to-five value of five cards of these (standard, deuce = 0) ranks."""
    groups = sorted(((n, r) for r, n in Counter(_a5(r) for r in ranks).items()), reverse=True)
    return LOW_BASE - pack(_SHAPES[tuple(n for n, _ in groups)], [r for _, r in groups])


EIGHT_QUALIFIER = LOW_BASE - pack(0, [7, 6, 5, 4, 3])  # 8-7-6-5-4, the worst qualifying low


@cache
def _ace_to_five_table() -> dict[int, int]:
    return build_rank_table(ace_to_five_value)


def ace_to_five_low(cards: Sequence[int]) -> int:
    """Value of the best ace-to-five low among 5 to 7 cards (higher is better)."""
    check_cards(cards)
    return _ace_to_five_table()[sum(map(_RANK_KEY.__getitem__, cards))]


def eight_or_better_low(cards: Sequence[int]) -> int | None:
    """:func:`ace_to_five_low` if it is five unpaired cards 8 or lower, else ``None``."""
    value = ace_to_five_low(cards)
    return value if value >= EIGHT_QUALIFIER else None


def low_hand_value(value: int, cards: Sequence[int]) -> HandValue:
    """The :class:`HandValue` of ace-to-five ``value`` made by the best five of ``cards``."""
    badness = LOW_BASE - value
    cat = badness >> 20
    nibbles = [(badness >> (16 - 4 * i)) & 15 for i in range(5)]
    significant = nibbles[: _SIGNIFICANT[cat]]
    pattern = {0: (1,) * 5, 1: (2, 1, 1, 1), 2: (2, 2, 1), 3: (3, 1, 1), 4: (3, 2), 5: (4, 1)}[cat]
    five = [(r + 12) % 13 for r, n in zip(significant, pattern, strict=True) for _ in range(n)]
    name = ACE_TO_FIVE_CATEGORY_NAMES[cat]
    chars = [RANKS[(r + 12) % 13] for r in significant]
    text = f"{chars[0]} over {chars[1]}" if cat == 4 else " ".join(chars)
    return HandValue(value, name, f"{name} ({text})", pick_cards(five, cards))


def describe_ace_to_five_low(cards: Sequence[int]) -> HandValue:
    """Value, text and five cards of the best ace-to-five low."""
    return low_hand_value(ace_to_five_low(cards), cards)


def describe_eight_or_better_low(cards: Sequence[int]) -> HandValue | None:
    """:func:`describe_ace_to_five_low` when it qualifies as an 8-or-better low, else ``None``."""
    value = eight_or_better_low(cards)
    return None if value is None else low_hand_value(value, cards)


def _high27(five: Sequence[int]) -> int:
    """High value of five cards with the ace high only: A-5-4-3-2 is ace high, not a straight."""
    value = evaluate_high(five)
    if value >> 20 in (STRAIGHT, STRAIGHT_FLUSH) and (value >> 16) & 15 == 3:
        return pack(0 if value >> 20 == STRAIGHT else FLUSH, [12, 3, 2, 1, 0])
    return value


def _best27(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    check_cards(cards)
    return min(((_high27(five), five) for five in combinations(cards, 5)), key=lambda vf: vf[0])


def deuce_to_seven_low(cards: Sequence[int]) -> int:
    """Value of the best deuce-to-seven low among 5 to 7 cards (higher is better)."""
    return LOW_BASE - _best27(cards)[0]


def describe_deuce_to_seven_low(cards: Sequence[int]) -> HandValue:
    """Value, text and five cards of the best deuce-to-seven low."""
    high, five = _best27(cards)
    hv = high_hand_value(high, five)
    name = "Low" if high >> 20 == 0 else CATEGORY_NAMES[high >> 20]
    text = hv.description.split(" (", 1)[1]
    return HandValue(LOW_BASE - high, name, f"{name} ({text}", hv.cards)


@attrs.frozen
class AceToFiveLowEvaluator:
    """Ace-to-five low of the best five of hole + board (razz); every hand qualifies."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 7))

    name: str = "ace-to-five low"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """:func:`ace_to_five_low` of hole + board."""
        return ace_to_five_low((*hole, *board))

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        """:func:`describe_ace_to_five_low` of hole + board."""
        return describe_ace_to_five_low((*hole, *board))


@attrs.frozen
class EightOrBetterLowEvaluator:
    """Low half of hi/lo split games (hold'em, stud): ace-to-five, five cards 8 or lower."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 7))

    name: str = "eight-or-better low"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int | None:
        """:func:`eight_or_better_low` of hole + board."""
        return eight_or_better_low((*hole, *board))

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue | None:
        """:func:`describe_eight_or_better_low` of hole + board."""
        return describe_eight_or_better_low((*hole, *board))


@attrs.frozen
class DeuceToSevenLowEvaluator:
    """Deuce-to-seven low of the best five of hole + board (triple draw, single draw)."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 7))

    name: str = "deuce-to-seven low"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """:func:`deuce_to_seven_low` of hole + board."""
        return deuce_to_seven_low((*hole, *board))

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        """:func:`describe_deuce_to_seven_low` of hole + board."""
        return describe_deuce_to_seven_low((*hole, *board))


ACE_TO_FIVE_LOW = AceToFiveLowEvaluator()
EIGHT_OR_BETTER_LOW = EightOrBetterLowEvaluator()
DEUCE_TO_SEVEN_LOW = DeuceToSevenLowEvaluator()
