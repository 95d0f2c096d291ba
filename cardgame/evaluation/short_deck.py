"""Short-deck (6+) hold'em high hands: 36 cards, deuces to fives removed.

Two rules differ from standard high hands: a flush beats a full house, and the ace also plays
low in the straight A-6-7-8-9 (the lowest straight, ``Straight (9)``). Values use the same nibble
layout as :func:`evaluate_high` with the category order of :data:`SHORT_DECK_CATEGORY_NAMES`
(full house 5, flush 6), so values of the two games must not be compared with each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import ClassVar

import attrs

from cardgame.evaluation._tables import (
    CARD_KEYS,
    FLUSH,
    FLUSH_BITS,
    FULL_HOUSE,
    RANK_MASK,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUIT_OFFSET,
    SUIT_SHIFT,
    build_rank_table,
    high_value_of_ranks,
    pack,
)
from cardgame.evaluation.describe import HandValue, high_hand_value
from cardgame.evaluation.high import check_cards
from cardgame.evaluation.protocol import CardCounts
from cardgame.model.cards import format_cards
from cardgame.model.errors import CardError
from cardgame.model.inputs import excerpt

__all__ = [
    "SHORT_DECK_CATEGORY_NAMES",
    "SHORT_DECK_HIGH",
    "ShortDeckHighEvaluator",
    "describe_short_deck_high",
    "short_deck_high",
]

SHORT_DECK_CATEGORY_NAMES: tuple[str, ...] = (
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Full House",
    "Flush",
    "Four of a Kind",
    "Straight Flush",
)
_LOWEST = 4 << 2  # the first card of the short deck, 6c
_ACE_LOW_RUN = (1 << 12) | (0b1111 << 4)  # A 6 7 8 9
_NINE = 7
_SHORT_FLUSH = 6  # category of a flush in short-deck order


def _short_straight_top(mask: int) -> int:
    """Top rank of the best short-deck straight in a 13-bit rank mask, or -1."""
    for top in range(12, 7, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    return _NINE if mask & _ACE_LOW_RUN == _ACE_LOW_RUN else -1


def _swap(value: int) -> int:
    """Exchange the full-house and flush categories (standard order <-> short-deck order)."""
    cat = value >> 20
    if cat in (FLUSH, FULL_HOUSE):
        return ((FLUSH + FULL_HOUSE - cat) << 20) | (value & 0xFFFFF)
    return value


def _five_value(ranks: tuple[int, ...]) -> int:
    if len(set(ranks)) == 5:
        top = _short_straight_top(sum(1 << r for r in ranks))
        if top >= 0:
            return pack(STRAIGHT, [top])
        return pack(0, sorted(ranks, reverse=True))
    return _swap(high_value_of_ranks(ranks))


@cache
def _tables() -> tuple[dict[int, int], tuple[int, ...]]:
    flush = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() >= 5:
            top = _short_straight_top(mask)
            ranks = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
            flush[mask] = pack(STRAIGHT_FLUSH, [top]) if top >= 0 else pack(_SHORT_FLUSH, ranks)
    return build_rank_table(_five_value), tuple(flush)


def short_deck_high(cards: Sequence[int]) -> int:
    """Short-deck value of the best five of 5 to 7 cards (sixes and up); higher is better."""
    check_cards(cards)
    if min(cards) < _LOWEST:
        raise CardError(f"Short deck has no deuces to fives: {excerpt(format_cards(cards))}.")
    nonflush, flush = _tables()
    key = sum(map(CARD_KEYS.__getitem__, cards), SUIT_OFFSET)
    bits = key & FLUSH_BITS
    if not bits:
        return nonflush[key & RANK_MASK]
    suit = (bits.bit_length() - 1 - SUIT_SHIFT) // 4
    return flush[sum(1 << (c >> 2) for c in cards if c & 3 == suit)]


def describe_short_deck_high(cards: Sequence[int]) -> HandValue:
    """Value, text and five cards of the best short-deck hand (``Flush (...)`` beats full house)."""
    value = short_deck_high(cards)
    hv = high_hand_value(_swap(value), cards, wheel_top=_NINE)
    return HandValue(value, hv.category, hv.description, hv.cards)


@attrs.frozen
class ShortDeckHighEvaluator:
    """Short-deck high hand from any five of the hole and board cards."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 7))

    name: str = "short-deck high"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """:func:`short_deck_high` of hole + board."""
        return short_deck_high((*hole, *board))

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        """:func:`describe_short_deck_high` of hole + board."""
        return describe_short_deck_high((*hole, *board))


SHORT_DECK_HIGH = ShortDeckHighEvaluator()
