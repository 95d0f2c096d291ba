"""High-hand evaluation of many hands at once, over numpy arrays (numba used when importable).

:func:`evaluate_high_batch` takes an ``(N, k)`` integer array of card indexes, ``k`` in 5..7, and
returns the ``N`` values :func:`evaluate_high` gives row by row. A hand's key is the sum of its
cards' :data:`BATCH_CARD_KEYS`, a layout of its own (not the per-call :data:`._tables.CARD_KEYS`):

* bits 0..22 (:data:`BATCH_RANK_BITS`): the sum of the rank weights :data:`._tables.RANK_WEIGHTS`,
  which indexes the dense value array of that card count (:func:`rank_table`); there is no
  card-count field, as each batch has one card count;
* bits 24..39 (from :data:`BATCH_SUIT_SHIFT`): one nibble per suit counting its cards, started at 3
  by :data:`BATCH_SUIT_OFFSET` so a flush sets a bit of :data:`BATCH_FLUSH_BITS`.

With numba installed a compiled loop runs over both cores; without it the numpy path works in
chunks that stay in cache. Both give identical results; ``use_numba=False`` forces numpy.
Rows must hold distinct cards (not checked); cards outside 0..51 raise ``CardError``.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from cardgame.evaluation._tables import COUNT_SHIFT, FLUSH_VALUES, RANK_WEIGHTS, Int64Array, rank_values
from cardgame.model.errors import CardError, ConfigError
from cardgame.model.inputs import excerpt

__all__ = [
    "BATCH_CARD_KEYS",
    "BATCH_FLUSH_BITS",
    "BATCH_RANK_BITS",
    "BATCH_SUIT_OFFSET",
    "BATCH_SUIT_SHIFT",
    "CARD_BITS",
    "FLUSH_TABLE",
    "HAVE_NUMBA",
    "card_key_sums",
    "dense_rank_table",
    "evaluate_high_batch",
    "high_values_from_sums",
    "rank_table",
]

BATCH_SUIT_SHIFT = 24  # weight sums stay below 2**23
BATCH_RANK_BITS = (1 << 23) - 1
BATCH_SUIT_OFFSET = 0x3333 << BATCH_SUIT_SHIFT
BATCH_FLUSH_BITS = 0x8888 << BATCH_SUIT_SHIFT
BATCH_CARD_KEYS = np.array(
    [RANK_WEIGHTS[c >> 2] + (1 << (BATCH_SUIT_SHIFT + 4 * (c & 3))) for c in range(52)], dtype=np.int64
)
CARD_BITS = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
FLUSH_TABLE = np.array(FLUSH_VALUES, dtype=np.int32)
_CHUNK = 1 << 15

Int32Array = npt.NDArray[np.int32]


def dense_rank_table(source: Mapping[int, int], n: int, floor: int = 0) -> Int32Array:
    """Dense array: rank-weight sum of ``n`` cards -> ``source`` value (0 if absent or < floor).

    ``source`` is keyed like :func:`rank_values` (weight sum plus card count).
    """
    keys = np.fromiter(source.keys(), dtype=np.int64, count=len(source))
    values = np.fromiter(source.values(), dtype=np.int64, count=len(source))
    mine = (keys >> COUNT_SHIFT) == n
    weights = keys[mine] & BATCH_RANK_BITS
    table = np.zeros(int(weights.max()) + 1, dtype=np.int32)
    table[weights] = np.where(values[mine] >= floor, values[mine], 0)
    return table


@cache
def rank_table(n: int) -> Int32Array:
    """Dense array: rank-weight sum of ``n`` cards (not all one suit) -> high value."""
    return dense_rank_table(rank_values(), n)


def card_key_sums(cards: npt.NDArray[Any]) -> tuple[Int64Array, Int64Array]:
    """Per row of card indexes: the sum of card keys and the 52-bit card mask (13 bits a suit)."""
    if cards.shape[1] == 0:
        zeros = np.zeros(cards.shape[0], dtype=np.int64)
        return zeros, zeros.copy()
    return BATCH_CARD_KEYS[cards].sum(axis=1), CARD_BITS[cards].sum(axis=1)


def high_values_from_sums(keys: Int64Array, masks: Int64Array, n: int) -> Int32Array:
    """High values of ``n``-card hands given as :func:`card_key_sums` (sums add across card sets)."""
    out: Int32Array = rank_table(n)[keys & BATCH_RANK_BITS]
    flush = (keys + BATCH_SUIT_OFFSET) & BATCH_FLUSH_BITS
    rows = np.flatnonzero(flush)
    if rows.size:
        suit = (np.log2(flush[rows]).astype(np.int64) - BATCH_SUIT_SHIFT - 3) // 4
        out[rows] = FLUSH_TABLE[(masks[rows] >> (13 * suit)) & 0x1FFF]
    return out


def _numpy_chunk(cards: npt.NDArray[Any], table: Int32Array, out: Int32Array) -> None:
    keys = BATCH_CARD_KEYS[cards]
    sums = keys[:, 0] + keys[:, 1]
    for j in range(2, keys.shape[1]):
        sums += keys[:, j]
    np.take(table, sums & BATCH_RANK_BITS, out=out)
    sums += BATCH_SUIT_OFFSET
    sums &= BATCH_FLUSH_BITS
    flushed = np.flatnonzero(sums)
    if flushed.size:
        # the flush suit s has its overflow bit at BATCH_SUIT_SHIFT + 4*s + 3
        suit = (np.log2(sums[flushed]).astype(np.int64) - BATCH_SUIT_SHIFT - 3) // 4
        sub = cards[flushed].astype(np.int64)
        bits = np.where((sub & 3) == suit[:, None], np.left_shift(1, sub >> 2), 0)
        out[flushed] = FLUSH_TABLE[bits.sum(axis=1)]


def _numpy_batch(cards: npt.NDArray[Any], table: Int32Array) -> Int32Array:
    n = cards.shape[0]
    out = np.empty(n, dtype=np.int32)
    starts = range(0, n, _CHUNK)
    if n >= 4 * _CHUNK and (os.cpu_count() or 1) > 1:
        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            list(pool.map(lambda s: _numpy_chunk(cards[s : s + _CHUNK], table, out[s : s + _CHUNK]), starts))
    else:
        for s in starts:
            _numpy_chunk(cards[s : s + _CHUNK], table, out[s : s + _CHUNK])
    return out


HAVE_NUMBA = importlib.util.find_spec("numba") is not None


@cache
def _numba_kernel() -> Any:
    """Import numba and compile (once; cached on disk) the loop doing :func:`_numpy_chunk`'s work."""
    import numba

    @numba.njit(parallel=True, cache=True, nogil=True)
    def kernel(cards: Any, card_keys: Any, table: Any, flush_table: Any, out: Any) -> None:
        n, k = cards.shape
        for i in numba.prange(n):
            s = 0
            for j in range(k):
                s += card_keys[cards[i, j]]
            # literals of the batch layout: BATCH_SUIT_OFFSET, BATCH_FLUSH_BITS, BATCH_RANK_BITS
            f = (s + (0x3333 << 24)) & (0x8888 << 24)
            if f == 0:
                out[i] = table[s & 0x7FFFFF]
            else:
                suit = 0
                while (f >> (24 + 4 * suit + 3)) & 1 == 0:
                    suit += 1
                mask = 0
                for j in range(k):
                    c = cards[i, j]
                    if c & 3 == suit:
                        mask |= 1 << (c >> 2)
                out[i] = flush_table[mask]

    return kernel


def evaluate_high_batch(cards: npt.ArrayLike, *, use_numba: bool | None = None) -> Int32Array:
    """High values of each row of an ``(N, 5..7)`` array of card indexes, as ``int32``.

    ``use_numba=None`` uses numba when it is importable.
    """
    try:
        arr = np.asarray(cards)
    except (ValueError, TypeError, OverflowError, RecursionError):  # ragged, nested, huge numbers
        raise CardError(f"Expected an (N, 5..7) array of card indexes 0..51, not {excerpt(cards)}.") from None
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise CardError(f"Expected an (N, 5..7) array of card indexes, got shape {arr.shape}.")
    if not np.issubdtype(arr.dtype, np.integer):
        raise CardError(f"Card arrays must hold integers 0..51, not {arr.dtype}.")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 51):
        raise CardError("Card indexes must be 0..51.")
    if not arr.flags.c_contiguous:
        arr = np.ascontiguousarray(arr)
    table = rank_table(arr.shape[1])
    if use_numba is None:
        use_numba = HAVE_NUMBA
    if use_numba:
        if not HAVE_NUMBA:
            raise ConfigError("use_numba=True but numba is not installed.")
        out = np.empty(arr.shape[0], dtype=np.int32)
        _numba_kernel()(arr, BATCH_CARD_KEYS, table, FLUSH_TABLE, out)
        return out
    return _numpy_batch(arr, table)
