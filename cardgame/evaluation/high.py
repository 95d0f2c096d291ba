"""High-hand evaluation of 5, 6 or 7 cards: one key sum, a flush test, one table lookup.

:func:`evaluate_high` returns the 6-nibble value of the poker-AI seed (see :mod:`._tables`):
``category(v)`` is ``v >> 20``. It trusts its input to be distinct cards, as dealt from a deck;
a wrong number of cards or a card index outside 0..51 raises :class:`CardError`, but a repeated
card is only caught on the flush path. :func:`check_cards` (used by every ``describe``) also
rejects repeats.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from cardgame.cards import format_cards
from cardgame.errors import CardError
from cardgame.evaluation._tables import (
    CARD_KEYS,
    COUNT_SHIFT,
    FLUSH_BITS,
    FLUSH_VALUES,
    NONFLUSH_VALUES,
    RANK_MASK,
    SUIT_OFFSET,
    SUIT_SHIFT,
)

__all__ = [
    "CATEGORY_NAMES",
    "category",
    "check_cards",
    "evaluate_high",
    "nibble_value",
]

CATEGORY_NAMES: tuple[str, ...] = (
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)

_KEY = CARD_KEYS.__getitem__
# Keeps the flush bits: a flush (or a bad card count) misses the table and takes the slow path.
_LOOKUP_MASK = RANK_MASK | FLUSH_BITS
# The suit whose nibble overflowed, by the overflow bits (only one suit can hold five of seven).
_FLUSH_SUIT = {(8 << (4 * s)) << SUIT_SHIFT: s for s in range(4)}


def check_cards(cards: Sequence[int], low: int = 5, high: int = 7, what: str = "a hand") -> None:
    """Raise :class:`CardError` unless ``cards`` are ``low``..``high`` distinct card indexes."""
    n = len(cards)
    for c in cards:
        try:
            ok = 0 <= operator.index(c) < 52
        except TypeError:
            ok = False
        if not ok:
            raise CardError(f"{c!r} is not a card; cards are integers 0..51 (or Card objects).")
    if not low <= n <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        raise CardError(f"{what} needs {allowed} cards, got {n}: {format_cards(cards)!r}.")
    if len(set(cards)) != n:
        dup = next(c for c in cards if list(cards).count(c) > 1)
        raise CardError(f"Card {format_cards([dup])} appears twice in {format_cards(cards)!r}.")


def _flush_value(cards: Sequence[int], key: int) -> int:
    """Value of a hand whose key missed the rank table: a flush, or bad input (raises)."""
    suit = _FLUSH_SUIT.get(key & FLUSH_BITS)
    n = len(cards)
    if suit is None or (key >> COUNT_SHIFT) & 0x7F != n or n > 7 or len(set(cards)) != n:
        check_cards(cards)  # names the problem: wrong count, a bad card index, a repeat
        raise AssertionError("unreachable: the card key missed the tables")  # pragma: no cover
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return FLUSH_VALUES[mask]


def evaluate_high(cards: Sequence[int]) -> int:
    """Value of the best five of 5, 6 or 7 cards (higher is better, equal ties).

    >>> hex(evaluate_high(parse_cards("Ah Qd 4s Kh 8c")))
    '0xcba62'
    """
    try:
        key = sum(map(_KEY, cards), SUIT_OFFSET)
        return NONFLUSH_VALUES[key & _LOOKUP_MASK]
    except KeyError:
        return _flush_value(cards, key)
    except (IndexError, TypeError):
        check_cards(cards)
        raise  # pragma: no cover - check_cards names every input that misses the tables


def evaluate_high_split(hole: Sequence[int], board: Sequence[int]) -> int:
    """:func:`evaluate_high` of ``hole + board`` without building the concatenation."""
    try:
        key = sum(map(_KEY, hole), sum(map(_KEY, board), SUIT_OFFSET))
        return NONFLUSH_VALUES[key & _LOOKUP_MASK]
    except KeyError:
        return _flush_value((*hole, *board), key)
    except (IndexError, TypeError):
        check_cards((*hole, *board))
        raise  # pragma: no cover


def category(value: int) -> int:
    """Category of a high value: 0 high card .. 8 straight flush (index into CATEGORY_NAMES)."""
    return value >> 20


def nibble_value(cards: Sequence[int]) -> int:
    """The poker-AI seed's 6-nibble hand value; checks the cards, then equals :func:`evaluate_high`.

    ``"Ah Qd 4s Kh 8c"`` is ``0x000CBA62``: category 0, then ranks A K Q 8 4 as C B A 6 2.
    """
    check_cards(cards)
    return evaluate_high(cards)
