"""Lookup tables of the high-hand evaluator, built once at import (about 0.1 s with numpy).

Every card maps to one integer key; the sum of the keys of a hand holds, in disjoint bit fields:

* bits 0..22: the sum of per-rank weights :data:`RANK_WEIGHTS` (the 7-card perfect-hash weights of
  SKPokerEval: any two different rank multisets of the same size have different sums);
* bits 23..29: the number of cards (so one dict serves 5, 6 and 7 cards; a bad card adds 8);
* bits 30..45: one nibble per suit counting its cards, started at 3 by :data:`SUIT_OFFSET` so a
  nibble reaches 8 (bit 3 set) exactly when that suit has five or more cards: a flush.

Hand values use the 6-nibble encoding of the poker-AI seed: the category (0 high card .. 8
straight flush) in bits 20..23, then the ranks (0 = deuce .. 12 = ace) that decide the hand, most
significant first, four bits each, unused nibbles zero. Higher is better; equal is a tie.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, combinations_with_replacement

import numpy as np

__all__ = [
    "BAD_CARD_KEY",
    "CARD_KEYS",
    "COUNT_SHIFT",
    "FLUSH",
    "FLUSH_BITS",
    "FLUSH_VALUES",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "NONFLUSH_VALUES",
    "PAIR",
    "RANK_MASK",
    "RANK_WEIGHTS",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "STRAIGHT_HIGH",
    "SUIT_OFFSET",
    "SUIT_SHIFT",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "build_rank_table",
    "high_value_of_ranks",
    "pack",
    "rank_key",
]

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)

RANK_WEIGHTS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)  # fmt: skip
COUNT_SHIFT = 23
SUIT_SHIFT = 30
RANK_MASK = (1 << SUIT_SHIFT) - 1
SUIT_OFFSET = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT
BAD_CARD_KEY = 8 << COUNT_SHIFT  # makes the card count impossible, so the lookup misses

# Index i < 52 is card i; indexes 52..103 (and so negative ones down to -52) are poisoned.
CARD_KEYS: tuple[int, ...] = (
    tuple(RANK_WEIGHTS[c >> 2] + (1 << COUNT_SHIFT) + (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(52))
    + (BAD_CARD_KEY,) * 52
)


def rank_key(ranks: tuple[int, ...]) -> int:
    """Key (weight sum plus card count) of a rank multiset, as the card keys sum to."""
    return sum(RANK_WEIGHTS[r] for r in ranks) + (len(ranks) << COUNT_SHIFT)


def _straight_high() -> tuple[int, ...]:
    """For each 13-bit rank mask, the top rank of its best straight, or -1 (5-high wheel = 3)."""
    table = [-1] * 8192
    for mask in range(8192):
        for top in range(12, 3, -1):
            run = 0b11111 << (top - 4)
            if mask & run == run:
                table[mask] = top
                break
        else:
            wheel = 0b1000000001111
            if mask & wheel == wheel:
                table[mask] = 3
    return tuple(table)


STRAIGHT_HIGH = _straight_high()


def pack(category: int, ranks: tuple[int, ...] | list[int]) -> int:
    """``category`` then up to five ranks, one nibble each, unused nibbles zero."""
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def high_value_of_ranks(ranks: tuple[int, ...]) -> int:
    """Value of five cards of these ranks, not all one suit (direct rules, used to build tables)."""
    counts = [0] * 13
    for r in ranks:
        counts[r] += 1
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    shape = tuple(n for n, _ in groups)
    order = [r for _, r in groups]
    if shape == (4, 1):
        return pack(FOUR_OF_A_KIND, order)
    if shape == (3, 2):
        return pack(FULL_HOUSE, order)
    if shape == (1, 1, 1, 1, 1):
        mask = sum(1 << r for r in ranks)
        top = STRAIGHT_HIGH[mask]
        if top >= 0:
            return pack(STRAIGHT, [top])
        return pack(HIGH_CARD, order)
    if shape == (3, 1, 1):
        return pack(THREE_OF_A_KIND, order)
    if shape == (2, 2, 1):
        return pack(TWO_PAIR, order)
    return pack(PAIR, order)


def build_rank_table(five_value: Callable[[tuple[int, ...]], int]) -> dict[int, int]:
    """``five_value`` of every multiset of 5 ranks, and the best over its 5-subsets of every
    multiset of 6 or 7 ranks (at most four of each), keyed by :func:`rank_key`.

    A larger multiset's value is the best over dropping one of its cards, so by induction the
    best five of its ranks ("best" is the highest value). Sizes 6 and 7 are done in numpy.
    """
    weights = np.array(RANK_WEIGHTS, dtype=np.int64)
    one = 1 << COUNT_SHIFT
    table: dict[int, int] = {}
    shared: dict[int, int] = {}  # one int object per distinct value keeps lookups cache-friendly
    prev_keys = prev_values = np.zeros(0, dtype=np.int64)
    for n in (5, 6, 7):
        flat = np.fromiter(chain.from_iterable(combinations_with_replacement(range(13), n)), dtype=np.intp)
        multisets = flat.reshape(-1, n)  # each row rising
        legal = np.ones(len(multisets), dtype=bool)
        for i in range(n - 4):
            legal &= multisets[:, i] != multisets[:, i + 4]  # never five of a rank
        multisets = multisets[legal]
        keys = weights[multisets].sum(axis=1) + n * one
        if n == 5:
            values = np.array([five_value(tuple(row)) for row in multisets.tolist()], dtype=np.int64)
        else:
            values = np.zeros(len(multisets), dtype=np.int64)
            for j in range(n):
                smaller = np.searchsorted(prev_keys, keys - weights[multisets[:, j]] - one)
                np.maximum(values, prev_values[smaller], out=values)
        order = np.argsort(keys)
        prev_keys, prev_values = keys[order], values[order]
        for key, value in zip(keys.tolist(), values.tolist(), strict=True):
            table[key] = shared.setdefault(value, value)
    if len(table) != 6175 + 18395 + 49205:  # pragma: no cover - guards the weights above
        raise AssertionError("rank weights are not a perfect hash")
    return table


def _flush_values() -> tuple[int, ...]:
    """Value of the best flush or straight flush in each 13-bit mask of one suit's ranks (0 if < 5)."""
    table = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() < 5:
            continue
        top = STRAIGHT_HIGH[mask]
        if top >= 0:
            table[mask] = pack(STRAIGHT_FLUSH, [top])
        else:
            ranks = [r for r in range(12, -1, -1) if mask >> r & 1][:5]
            table[mask] = pack(FLUSH, ranks)
    return tuple(table)


NONFLUSH_VALUES = build_rank_table(high_value_of_ranks)
FLUSH_VALUES = _flush_values()
