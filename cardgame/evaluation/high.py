"""High-hand evaluation of 5, 6 or 7 cards: a sum of card keys, then table lookups.

:func:`evaluate_high` returns the 6-nibble value of the poker-AI seed (see :mod:`._tables`):
``category(v)`` is ``v >> 20``. It trusts its input to be distinct cards, as dealt from a deck;
a wrong number of cards or a card index outside 0..51 raises :class:`CardError`, but a repeated
card is only caught on the flush path. :func:`check_cards` (used by every ``describe``) also
rejects repeats.

Seven cards (or two hole plus five board cards) take the fastest path: the cards are unpacked and
their :data:`._tables.SEVEN_KEYS` added one by one (half the cost of ``sum(map(...))``), and the
sum indexes three small lists instead of a 73,775-entry dict (whose lookups miss the CPU cache).
A flush makes the first index run past its list, so the flush test costs nothing until the
``except`` branch. Five or six cards sum :data:`._tables.CARD_KEYS` and look up the rank dict.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from cardgame.evaluation._tables import (
    CARD_KEYS,
    COUNT_SHIFT,
    FLUSH_BITS,
    FLUSH_VALUES,
    NONFLUSH_VALUES,
    RANK_MASK,
    SEVEN_BAD_KEY,
    SEVEN_FLUSH_BITS,
    SEVEN_HIGH,
    SEVEN_HIGH_SHIFT,
    SEVEN_KEYS,
    SEVEN_LOOKUP_MASK,
    SEVEN_LOW,
    SEVEN_SUIT_OFFSET,
    SEVEN_SUIT_SHIFT,
    SEVEN_VALUES,
    SUIT_OFFSET,
    SUIT_SHIFT,
    rank_values,
)
from cardgame.model.cards import format_cards
from cardgame.model.errors import CardError
from cardgame.model.inputs import check_int, excerpt

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
_SEVEN_FLUSH_SUIT = {(8 << (4 * s)) << SEVEN_SUIT_SHIFT: s for s in range(4)}
_S = SEVEN_KEYS
_S0 = tuple(k + SEVEN_SUIT_OFFSET for k in SEVEN_KEYS)  # the first card's key also brings the offset
# Per suit, per card: the card's rank bit if it is of that suit, else 0.
_SUIT_RANK_BIT = tuple(tuple(1 << (c >> 2) if c & 3 == s else 0 for c in range(52)) for s in range(4))


def check_cards(cards: Sequence[int], low: int = 5, high: int = 7, what: str = "a hand") -> None:
    """Raise :class:`CardError` unless ``cards`` are ``low``..``high`` distinct card indexes."""
    try:
        n = len(cards)
    except TypeError:  # None, a number: not a collection of cards
        raise CardError(f"Cards are a list of card indexes 0..51 (or Card objects), not {excerpt(cards)}.") from None
    for c in cards:
        try:
            ok = 0 <= operator.index(c) < 52
        except TypeError:
            ok = False
        if not ok:
            raise CardError(f"{excerpt(c)} is not a card; cards are integers 0..51 (or Card objects).")
    if not low <= n <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        raise CardError(f"{what} needs {allowed} cards, got {n}: {excerpt(format_cards(cards))}.")
    if len(set(cards)) != n:
        dup = next(c for c in cards if list(cards).count(c) > 1)
        raise CardError(f"Card {format_cards([dup])} appears twice in {excerpt(format_cards(cards))}.")


def _flush_value(cards: Sequence[int], key: int) -> int:
    """Value of a hand whose :data:`CARD_KEYS` sum missed the rank dict: a flush, or bad input
    (raises).

    On the very first miss it builds the rank tables and evaluates again.
    """
    if not NONFLUSH_VALUES:
        rank_values()
        return evaluate_high(cards)
    suit = _FLUSH_SUIT.get(key & FLUSH_BITS)
    n = len(cards)
    if suit is None or (key >> COUNT_SHIFT) & 0x7F != n or n > 7 or len(set(cards)) != n:
        check_cards(cards)  # names the problem: wrong count, a bad card index, a repeat
        raise AssertionError("unreachable: the card key missed the tables")  # pragma: no cover
    # the cards are distinct, so their rank bits in the flush suit add up to its rank mask
    return FLUSH_VALUES[sum(map(_SUIT_RANK_BIT[suit].__getitem__, cards))]


def _seven_miss(cards: Sequence[int], key: int) -> int:
    """Value of 7 cards whose :data:`SEVEN_KEYS` sum missed the lists: a flush, or bad input (raises).

    On the very first miss it builds the rank tables and evaluates again.
    """
    if not SEVEN_VALUES:
        rank_values()
        return evaluate_high(cards)
    suit = _SEVEN_FLUSH_SUIT.get(key & SEVEN_FLUSH_BITS)
    if suit is None or key >= SEVEN_BAD_KEY or len(set(cards)) != 7:
        check_cards(cards)  # names the problem: a bad card index, a repeat
        raise AssertionError("unreachable: the card key missed the tables")  # pragma: no cover
    return FLUSH_VALUES[sum(map(_SUIT_RANK_BIT[suit].__getitem__, cards))]


def evaluate_high(cards: Sequence[int]) -> int:
    """Value of the best five of 5, 6 or 7 cards (higher is better, equal ties).

    >>> hex(evaluate_high(parse_cards("Ah Qd 4s Kh 8c")))
    '0xcba62'
    """
    try:
        if len(cards) == 7:
            a, b, c, d, e, f, g = cards
            key = _S0[a] + _S[b] + _S[c] + _S[d] + _S[e] + _S[f] + _S[g]
            try:
                return SEVEN_VALUES[SEVEN_LOW[key & SEVEN_LOOKUP_MASK] + SEVEN_HIGH[key >> SEVEN_HIGH_SHIFT]]
            except IndexError:
                return _seven_miss(cards, key)
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
        if len(board) == 5 and len(hole) == 2:
            a, b = hole
            c, d, e, f, g = board
            key = _S0[a] + _S[b] + _S[c] + _S[d] + _S[e] + _S[f] + _S[g]
            try:
                return SEVEN_VALUES[SEVEN_LOW[key & SEVEN_LOOKUP_MASK] + SEVEN_HIGH[key >> SEVEN_HIGH_SHIFT]]
            except IndexError:
                return _seven_miss((*hole, *board), key)
        if not board:  # stud, draw: the hole is the hand
            return evaluate_high(hole)
        key = sum(map(_KEY, hole), sum(map(_KEY, board), SUIT_OFFSET))
        return NONFLUSH_VALUES[key & _LOOKUP_MASK]
    except KeyError:
        return _flush_value((*hole, *board), key)
    except (IndexError, TypeError):
        check_cards(hole, 0, 7, "a hole")  # not a collection of cards: named as such
        check_cards(board, 0, 7, "a board")
        check_cards((*hole, *board))
        raise  # pragma: no cover


def category(value: int) -> int:
    """Category of a high value: 0 high card .. 8 straight flush (index into CATEGORY_NAMES)."""
    if type(value) is not int:
        value = check_int(value, "hand value", CardError, minimum=0)
    return value >> 20


def nibble_value(cards: Sequence[int]) -> int:
    """The poker-AI seed's 6-nibble hand value; checks the cards, then equals :func:`evaluate_high`.

    ``"Ah Qd 4s Kh 8c"`` is ``0x000CBA62``: category 0, then ranks A K Q 8 4 as C B A 6 2.
    """
    check_cards(cards)
    return evaluate_high(cards)
