"""Lookup tables of the high-hand evaluator.

Hand values use the 6-nibble encoding of the poker-AI seed: the category (0 high card .. 8
straight flush) in bits 20..23, then the ranks (0 = deuce .. 12 = ace) that decide the hand, most
significant first, four bits each, unused nibbles zero. Higher is better; equal is a tie.

Every card maps to one integer key, in two layouts; a hand's key is the sum of its cards' keys.
(The numpy batch evaluator has a third layout, without the card count: ``batch.BATCH_CARD_KEYS``.)
:data:`CARD_KEYS` (any 5 to 7 cards; key of :data:`NONFLUSH_VALUES`, a dict) holds:

* bits 0..22: the sum of per-rank weights :data:`RANK_WEIGHTS` (the 7-card perfect-hash weights of
  SKPokerEval: any two different rank multisets of the same size have different sums);
* bits 23..29: the number of cards (so one dict serves 5, 6 and 7 cards; a bad card adds 8);
* bits 30..45: one nibble per suit counting its cards, started at 3 by :data:`SUIT_OFFSET` so a
  nibble reaches 8 (bit 3 set) exactly when that suit has five or more cards: a flush.

:data:`SEVEN_KEYS` (exactly 7 cards, the per-call hot path) replaces the weights by one base-5
digit per rank counting its cards: deuce..seven in bits 0..13, the suit nibbles in bits 14..29,
eight..ace in bits 30..46, a bad card sets bit 47. Two small lists turn the two digit fields into
a dense index of the 49,205 seven-rank multisets, ``SEVEN_LOW[low] + SEVEN_HIGH[high]``, into
the list :data:`SEVEN_VALUES`: three list lookups, all in 1.3 MB that stays in the CPU cache,
where the 4.5 MB dict misses it: a quarter less time per seven-card call.

:data:`FLUSH_VALUES` and :data:`STRAIGHT_HIGH` are built at import (a few ms, in numpy). The rank
tables start empty and :func:`rank_values` fills them in place on first use (about 60 ms), so
importing stays cheap; the per-call evaluator calls it on its first table miss.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import numpy.typing as npt

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
    "SEVEN_BAD_KEY",
    "SEVEN_FLUSH_BITS",
    "SEVEN_HIGH",
    "SEVEN_HIGH_SHIFT",
    "SEVEN_KEYS",
    "SEVEN_LOOKUP_MASK",
    "SEVEN_LOW",
    "SEVEN_LOW_RANKS",
    "SEVEN_SUIT_OFFSET",
    "SEVEN_SUIT_SHIFT",
    "SEVEN_VALUES",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "STRAIGHT_HIGH",
    "SUIT_OFFSET",
    "SUIT_SHIFT",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "build_rank_table",
    "high_value_of_ranks",
    "high_values_of_counts",
    "pack",
    "rank_key",
    "rank_values",
    "seven_rank_keys",
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
    masks = np.arange(8192)
    table = np.full(8192, -1, dtype=np.int64)
    wheel = 0b1000000001111
    table[masks & wheel == wheel] = 3
    for top in range(4, 13):  # rising, so the highest straight is written last
        run = 0b11111 << (top - 4)
        table[masks & run == run] = top
    return tuple(table.tolist())


STRAIGHT_HIGH = _straight_high()
_STRAIGHT_HIGH = np.array(STRAIGHT_HIGH, dtype=np.int64)
_RANKS = np.arange(13, dtype=np.int64)
_NIBBLE_SHIFTS = np.array([16, 12, 8, 4, 0], dtype=np.int64)

Int64Array = npt.NDArray[np.int64]


def pack(category: int, ranks: tuple[int, ...] | list[int]) -> int:
    """``category`` then up to five ranks, one nibble each, unused nibbles zero."""
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def high_value_of_ranks(ranks: tuple[int, ...]) -> int:
    """Value of five cards of these ranks, not all one suit, by the rules (:func:`high_values_of_counts`
    computes the same in numpy)."""
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


def high_values_of_counts(counts: Int64Array) -> Int64Array:
    """:func:`high_value_of_ranks` of each row of an ``(N, 13)`` array of rank counts summing to 5."""
    distinct = (counts > 0).sum(axis=1)
    most = counts.max(axis=1)
    # ranks by count, then rank, both falling; an absent rank (key r < 16) sorts after every present one
    order = np.argsort(-(counts * 16 + _RANKS), axis=1, kind="stable")[:, :5]
    nibbles = np.where(np.arange(5) < distinct[:, None], order, 0)
    category = np.select(
        [distinct == 5, distinct == 4, (distinct == 3) & (most == 3), distinct == 3, most == 4],
        [HIGH_CARD, PAIR, THREE_OF_A_KIND, TWO_PAIR, FOUR_OF_A_KIND],
        FULL_HOUSE,
    )
    values: Int64Array = (category << 20) | (nibbles << _NIBBLE_SHIFTS).sum(axis=1)
    top = _STRAIGHT_HIGH[((counts > 0) << _RANKS).sum(axis=1)]
    straight = (distinct == 5) & (top >= 0)
    values[straight] = (STRAIGHT << 20) | (top[straight] << 16)
    return values


def _rank_counts(most: int, ranks: int = 13) -> list[Int64Array]:
    """Per n in 0..``most``: every ``(N, ranks)`` row of rank counts (each 0..4) summing to n."""
    rows = np.zeros((1, ranks), dtype=np.int8)
    totals = np.zeros(1, dtype=np.int8)
    for r in range(ranks):  # give rank r each count that keeps the total within ``most``
        keep = [np.flatnonzero(totals + c <= most) for c in range(5)]
        rows = rows[np.concatenate(keep)]
        added = np.repeat(np.arange(5, dtype=np.int8), [len(k) for k in keep])
        rows[:, r] = added
        totals = totals[np.concatenate(keep)] + added
    return [rows[totals == n].astype(np.int64) for n in range(most + 1)]


def _rank_arrays(five_values: Callable[[Int64Array], Int64Array]) -> list[tuple[Int64Array, Int64Array, Int64Array]]:
    """Per n in 5, 6, 7: the ``(N, 13)`` rank-count rows, their keys and their values.

    Five-card values come from ``five_values``; a larger multiset's value is the best over
    dropping one of its cards, so by induction the best five of its ranks.
    """
    weights = np.array(RANK_WEIGHTS, dtype=np.int64)
    one = 1 << COUNT_SHIFT
    out = []
    prev_keys = prev_values = np.zeros(0, dtype=np.int64)
    for n, counts in enumerate(_rank_counts(7)[5:], start=5):
        keys = counts @ weights + n * one
        if n == 5:
            values = five_values(counts)
        else:
            values = np.zeros(len(counts), dtype=np.int64)
            for r in range(13):
                has = np.flatnonzero(counts[:, r])
                smaller = np.searchsorted(prev_keys, keys[has] - weights[r] - one)
                values[has] = np.maximum(values[has], prev_values[smaller])
        order = np.argsort(keys)
        prev_keys, prev_values = keys[order], values[order]
        out.append((counts, keys, values))
    return out


def _int_list(values: Int64Array) -> list[int]:
    """``values`` as a list holding one int object per distinct value (cache-friendly lookups)."""
    ordered = np.sort(values)
    distinct = ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])]
    objects = distinct.tolist()
    return list(map(objects.__getitem__, np.searchsorted(distinct, values).tolist()))


def _rank_table(arrays: list[tuple[Int64Array, Int64Array, Int64Array]]) -> dict[int, int]:
    """The dict rank key -> value of :func:`_rank_arrays`' output."""
    keys = np.concatenate([k for _, k, _ in arrays]).tolist()
    table = dict(zip(keys, _int_list(np.concatenate([v for _, _, v in arrays])), strict=True))
    if len(table) != 6175 + 18395 + 49205:  # pragma: no cover - guards the weights above
        raise AssertionError("rank weights are not a perfect hash")
    return table


def build_rank_table(five_value: Callable[[tuple[int, ...]], int]) -> dict[int, int]:
    """``five_value`` of every multiset of 5 ranks, and the best over its 5-subsets of every
    multiset of 6 or 7 ranks (at most four of each), keyed by :func:`rank_key`.

    ``five_value`` gets the ranks rising. A larger multiset's value is the best over dropping one
    of its cards, so by induction the best five of its ranks ("best" is the highest value).
    """

    def values(counts: Int64Array) -> Int64Array:
        fives = np.repeat(np.tile(_RANKS, len(counts)), counts.ravel()).reshape(-1, 5)
        return np.array([five_value(tuple(row)) for row in fives.tolist()], dtype=np.int64)

    return _rank_table(_rank_arrays(values))


def _flush_values() -> tuple[int, ...]:
    """Value of the best flush or straight flush in each 13-bit mask of one suit's ranks (0 if < 5)."""
    masks = np.arange(8192, dtype=np.int64)
    bits = (masks[:, None] >> _RANKS[::-1]) & 1  # column i is rank 12 - i
    place = np.cumsum(bits, axis=1)  # 1 for the highest rank held, 2 for the next...
    top5 = (bits == 1) & (place <= 5)
    values = (FLUSH << 20) + (np.where(top5, _RANKS[::-1] << (4 * (5 - place)), 0)).sum(axis=1)
    values = np.where(_STRAIGHT_HIGH >= 0, (STRAIGHT_FLUSH << 20) | (_STRAIGHT_HIGH << 16), values)
    values[place[:, -1] < 5] = 0
    return tuple(values.tolist())


FLUSH_VALUES = _flush_values()
# Rank-weight sum plus card count (plus flush bits, which never match) -> high value. Empty until
# :func:`rank_values` fills it; the dict object never changes, so importers may bind it.
NONFLUSH_VALUES: dict[int, int] = {}

# The dense seven-card layout: one base-5 digit per rank counts its cards, deuce..seven in the
# low field (bits 0..13, below 5**6), eight..ace in the high field (bits 30..46, below 5**7).
SEVEN_LOW_RANKS = 6
SEVEN_SUIT_SHIFT = 14
SEVEN_HIGH_SHIFT = 30
SEVEN_SUIT_OFFSET = 0x3333 << SEVEN_SUIT_SHIFT
SEVEN_FLUSH_BITS = 0x8888 << SEVEN_SUIT_SHIFT
SEVEN_BAD_KEY = 1 << 47  # pushes the high field past the end of SEVEN_HIGH
SEVEN_LOOKUP_MASK = ((1 << SEVEN_SUIT_SHIFT) - 1) | SEVEN_FLUSH_BITS  # a flush indexes past SEVEN_LOW
SEVEN_KEYS: tuple[int, ...] = (
    tuple(
        (5 ** (c >> 2) if c >> 2 < SEVEN_LOW_RANKS else 5 ** ((c >> 2) - SEVEN_LOW_RANKS) << SEVEN_HIGH_SHIFT)
        + (1 << (SEVEN_SUIT_SHIFT + 4 * (c & 3)))
        for c in range(52)
    )
    + (SEVEN_BAD_KEY,) * 52
)
# Filled by rank_values(): SEVEN_VALUES[SEVEN_LOW[low field] + SEVEN_HIGH[high field]] is the
# value of seven cards without a flush. SEVEN_LOW gives the low ranks' offset, SEVEN_HIGH the
# index of the high ranks among the multisets of their size: the 49,205 seven-rank multisets
# are numbered densely, grouped by how many cards are low.
SEVEN_LOW: list[int] = []  # 5**6 entries
SEVEN_HIGH: list[int] = []  # 5**7 entries
SEVEN_VALUES: list[int] = []  # 49,205 entries
_SEVEN_MISS = 1 << 20  # beyond SEVEN_VALUES: unused digit patterns (a repeated card) miss


def _seven_tables(counts: Int64Array, values: Int64Array) -> tuple[list[int], list[int], list[int]]:
    """SEVEN_LOW, SEVEN_HIGH and SEVEN_VALUES from the seven-card count rows and their values."""
    n_low, n_high = SEVEN_LOW_RANKS, 13 - SEVEN_LOW_RANKS
    low_digits, high_digits = 5 ** np.arange(n_low), 5 ** np.arange(n_high)
    lows, highs = _rank_counts(7, n_low), _rank_counts(7, n_high)
    low = np.full(5**n_low, _SEVEN_MISS, dtype=np.int64)
    high = np.full(5**n_high, _SEVEN_MISS, dtype=np.int64)
    base = 0
    for k, rows in enumerate(lows):  # k low cards go with 7 - k high ones
        low[rows @ low_digits] = base + np.arange(len(rows)) * len(highs[7 - k])
        base += len(rows) * len(highs[7 - k])
    for rows in highs:
        high[rows @ high_digits] = np.arange(len(rows))
    index = low[counts[:, :n_low] @ low_digits] + high[counts[:, n_low:] @ high_digits]
    if base != len(counts) or not np.array_equal(np.sort(index), np.arange(base)):  # pragma: no cover
        raise AssertionError("the seven-card index is not dense")
    dense = np.empty(base, dtype=np.int64)
    dense[index] = values
    return _int_list(low), _int_list(high), _int_list(dense)


def rank_values() -> dict[int, int]:
    """:data:`NONFLUSH_VALUES`, filling it and the ``SEVEN_*`` lists first if they are empty.

    Each table is filled by one C-level call, so a racing thread sees it empty or complete.
    """
    if not NONFLUSH_VALUES or not SEVEN_VALUES:
        arrays = _rank_arrays(high_values_of_counts)
        NONFLUSH_VALUES.update(_rank_table(arrays))
        counts, _, values = arrays[2]  # the seven-card multisets
        low, high, dense = _seven_tables(counts, values)
        SEVEN_LOW[:] = low
        SEVEN_HIGH[:] = high
        SEVEN_VALUES[:] = dense  # last: the evaluator takes a non-empty SEVEN_VALUES as all built
    return NONFLUSH_VALUES


@cache
def seven_rank_keys() -> Int64Array:
    """The rank key (as :data:`NONFLUSH_VALUES` is keyed) of each seven-rank multiset, by its
    dense index ``SEVEN_LOW[low field] + SEVEN_HIGH[high field]``: maps other rank tables
    (such as the ace-to-five lows) onto the same index."""
    rank_values()
    counts = _rank_counts(7)[7]
    n_low = SEVEN_LOW_RANKS
    index = (
        np.array(SEVEN_LOW)[counts[:, :n_low] @ 5 ** np.arange(n_low)]
        + np.array(SEVEN_HIGH)[counts[:, n_low:] @ 5 ** np.arange(13 - n_low)]
    )
    keys = np.empty(len(counts), dtype=np.int64)
    keys[index] = counts @ np.array(RANK_WEIGHTS, dtype=np.int64) + (7 << COUNT_SHIFT)
    return keys
