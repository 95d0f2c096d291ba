"""Equity of known hands, and Monte-Carlo hand strength against unknown opponents.

:func:`equity` deals every remaining board (``exact=True``) or ``samples`` random ones from a
seeded ``numpy.random.Generator`` and reports, per hand, the boards won outright, the boards
shared, and the exact expected share of the pot as a :class:`~fractions.Fraction` (over the
boards dealt). Games: ``"holdem"`` (two hole cards, best five of seven) and ``"omaha"`` (4 or 5
hole cards, exactly two of them with three of the board), each high or ``hi_lo`` (half the pot
to the best eight-or-better low, all of it to the high hand when no low qualifies). Boards are
evaluated in numpy batches (an exact heads-up hold'em pre-flop run: about 0.15 s on two cores),
except exact hold'em when numba is importable: a compiled loop over the boards (about 0.02 s;
compiled once, about 2 s, then loaded from numba's disk cache). Both give identical results.

:func:`hand_strength` is the poker-AI seed's Monte-Carlo hand strength: deal the opponents and
the rest of the board at random, score 1 for a win and ``1/k`` for a ``k``-way tie. With
``drop_weak=True`` it also applies the seed's drop-out: an opponent dealt hole cards weaker than
``weakest`` (default a pair of sixes) folds and cannot win that deal, which models that weak
hands rarely see a showdown.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, lcm
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from cardgame.evaluation._tables import (
    RANK_WEIGHTS,
    SEVEN_FLUSH_BITS,
    SEVEN_HIGH,
    SEVEN_HIGH_SHIFT,
    SEVEN_KEYS,
    SEVEN_LOW,
    SEVEN_SUIT_OFFSET,
    SEVEN_SUIT_SHIFT,
    SEVEN_VALUES,
    Int64Array,
    rank_values,
    seven_rank_keys,
)
from cardgame.evaluation.batch import (
    BATCH_CARD_KEYS,
    BATCH_FLUSH_BITS,
    BATCH_RANK_BITS,
    BATCH_SUIT_OFFSET,
    CARD_BITS,
    FLUSH_TABLE,
    HAVE_NUMBA,
    Int32Array,
    card_key_sums,
    dense_rank_table,
    high_values_from_sums,
    rank_table,
)
from cardgame.evaluation.lowball import EIGHT_QUALIFIER, _ace_to_five_table
from cardgame.evaluation.ranges import combination_rows
from cardgame.model.cards import RANKS, Card, parse_cards
from cardgame.model.errors import CardError, ConfigError
from cardgame.model.inputs import excerpt

__all__ = ["EXACT_LIMIT", "MAX_SAMPLES", "EquityResult", "equity", "hand_strength"]

EXACT_LIMIT = 2_000_000  # with exact=None, enumerate when there are at most this many boards
MAX_SAMPLES = 100_000_000
"""Boards a Monte Carlo run may sample (about a minute and a half at 1.3 million boards a second)."""
MAX_SEED = 2**128 - 1
_CHUNK = 1 << 16
_RANK_WEIGHT = np.array([RANK_WEIGHTS[c >> 2] for c in range(52)], dtype=np.int64)
_RANK_BIT = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int64)

CardsLike = str | Iterable[str | int]


@attrs.frozen
class EquityResult:
    """Outcome of :func:`equity`, one entry per hand in the order given.

    ``wins``: boards on which the hand takes the whole pot alone (in hi/lo: scoops). ``ties``:
    boards on which it gets a part of the pot but not all. ``equity``: its expected share of the
    pot over the ``boards`` dealt, exact (``sum(equity) == 1``).
    """

    hands: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    game: str
    hi_lo: bool
    exact: bool
    boards: int
    wins: tuple[int, ...]
    ties: tuple[int, ...]
    equity: tuple[Fraction, ...]

    @property
    def equity_floats(self) -> tuple[float, ...]:
        """``equity`` as floats."""
        return tuple(float(e) for e in self.equity)


@cache
def _low_table(n: int) -> Int32Array:
    """Dense table: rank-weight sum of ``n`` cards -> eight-or-better low value, 0 if none."""
    return dense_rank_table(_ace_to_five_table(), n, floor=EIGHT_QUALIFIER)


def _holdem_values(
    board: npt.NDArray[np.intp], holes: Sequence[tuple[int, ...]], hi_lo: bool
) -> list[tuple[Int32Array, ...]]:
    """Per hole: high values (and eight-or-better lows) of hole + each board row."""
    keys = BATCH_CARD_KEYS[board].sum(axis=1)
    n = board.shape[1] + 2
    table = rank_table(n)
    weights = _RANK_WEIGHT[board].sum(axis=1) if hi_lo else None
    out: list[tuple[Int32Array, ...]] = []
    for hole in holes:
        hand_keys = keys + int(BATCH_CARD_KEYS[list(hole)].sum())
        high: Int32Array = table[hand_keys & BATCH_RANK_BITS]
        flush = (hand_keys + BATCH_SUIT_OFFSET) & BATCH_FLUSH_BITS
        rows = np.flatnonzero(flush)
        if rows.size:
            masks = CARD_BITS[board[rows]].sum(axis=1) + int(CARD_BITS[list(hole)].sum())
            high[rows] = high_values_from_sums(hand_keys[rows], masks, n)
        if weights is None:
            out.append((high,))
        else:
            out.append((high, _low_table(n)[weights + int(_RANK_WEIGHT[list(hole)].sum())]))
    return out


def _omaha_values(
    board: npt.NDArray[np.intp], holes: Sequence[tuple[int, ...]], hi_lo: bool
) -> list[tuple[Int32Array, ...]]:
    """Per hole: Omaha high values (and eight-or-better lows) with each board row."""
    return [_omaha_hole_values(board, hole, hi_lo) for hole in holes]


def _omaha_hole_values(board: npt.NDArray[np.intp], hole: tuple[int, ...], hi_lo: bool) -> tuple[Int32Array, ...]:
    triples = [board[:, list(t)] for t in combinations(range(board.shape[1]), 3)]
    t_weight = np.stack([_RANK_WEIGHT[t].sum(axis=1) for t in triples], axis=1)  # (B, T)
    pairs = list(combinations(hole, 2))
    p_weight = np.array([_RANK_WEIGHT[a] + _RANK_WEIGHT[b] for a, b in pairs], dtype=np.int64)  # (P,)
    weights = t_weight[:, :, None] + p_weight[None, None, :]  # (B, T, P)
    high = rank_table(5)[weights]
    # flushes: the pair and the triple all of one suit
    t_suit = np.stack(
        [np.where((t[:, 0] & 3 == t[:, 1] & 3) & (t[:, 1] & 3 == t[:, 2] & 3), t[:, 0] & 3, -1) for t in triples],
        axis=1,
    )
    p_suit = np.array([a & 3 if a & 3 == b & 3 else -2 for a, b in pairs])
    suited = t_suit[:, :, None] == p_suit[None, None, :]
    if suited.any():
        t_mask = np.stack([np.bitwise_or.reduce(_RANK_BIT[t], axis=1) for t in triples], axis=1)
        p_mask = np.array([(1 << (a >> 2)) | (1 << (b >> 2)) for a, b in pairs], dtype=np.int64)
        flush = FLUSH_TABLE[t_mask[:, :, None] | p_mask[None, None, :]]
        high = np.where(suited, flush, high)
    best_high: Int32Array = high.reshape(len(board), -1).max(axis=1)
    if not hi_lo:
        return (best_high,)
    low: Int32Array = _low_table(5)[weights].reshape(len(board), -1).max(axis=1)
    return best_high, low


_SEVEN_KEYS = np.array(SEVEN_KEYS[:52], dtype=np.int64)
# what the kernel needs of the seven-card key layout: low-field mask, high-field shift, suit shift, flush bits
_SEVEN_LAYOUT = np.array(
    [(1 << SEVEN_SUIT_SHIFT) - 1, SEVEN_HIGH_SHIFT, SEVEN_SUIT_SHIFT, SEVEN_FLUSH_BITS], dtype=np.int64
)


@cache
def _seven_arrays() -> tuple[Int32Array, Int32Array, Int32Array]:
    """``SEVEN_LOW``, ``SEVEN_HIGH`` and ``SEVEN_VALUES`` as int32 arrays (about 0.6 MB: they stay
    in the CPU cache, unlike the 31 MB dense weight-sum table of :func:`rank_table`)."""
    rank_values()
    return (
        np.array(SEVEN_LOW, dtype=np.int32),
        np.array(SEVEN_HIGH, dtype=np.int32),
        np.array(SEVEN_VALUES, dtype=np.int32),
    )


@cache
def _seven_lows() -> Int32Array:
    """Eight-or-better low value (0 if none) of each seven-rank multiset, by its dense index."""
    table = _ace_to_five_table()
    lows = np.array([table[key] for key in seven_rank_keys().tolist()], dtype=np.int32)
    lows[lows < EIGHT_QUALIFIER] = 0
    return lows


@cache
def _holdem_kernel() -> Any:
    """Import numba and compile (once; cached on disk) the exact hold'em enumeration.

    ``kernel(rest, k, firsts, ..., out)`` deals every ``k``-subset of ``rest`` whose first card
    is ``rest[f]`` for ``f`` in ``firsts``, in five nested loops that add the card keys level by
    level (levels past ``k`` deal a virtual card of key 0), and adds each hand's pot share, wins
    and ties to the rows of ``out`` (shape ``(3, hands)``), scoring a board as
    :func:`_pot_shares` does: the integer totals equal the numpy path's. Hands are looked up in
    the 0.6 MB seven-card tables (see :mod:`._tables`). It releases the GIL, so threads can run
    disjoint ``firsts``; ``parallel=True`` compiled twice as slowly and ran slower per thread.
    """
    import numba

    def kernel(
        rest: Any, k: int, firsts: Any, board_key: int, board_bits: int, hole_keys: Any, hole_bits: Any,
        card_keys: Any, card_bits: Any, layout: Any, seven_low: Any, seven_high: Any, highs: Any, lows: Any,
        flush_table: Any, hi_lo: bool, unit: int, out: Any,
    ) -> None:  # fmt: skip
        low_mask, high_shift, suit_shift, flush_bits = layout[0], layout[1], layout[2], layout[3]
        m = rest.shape[0]
        hands = hole_keys.shape[0]
        # the keys of the cards to deal, then 5 - k virtual cards of key 0 for the unused levels
        ek = np.zeros(m + 5, dtype=np.int64)
        eb = np.zeros(m + 5, dtype=np.int64)
        for i in range(m):
            ek[i] = card_keys[rest[i]]
            eb[i] = card_bits[rest[i]]
        lo = np.zeros(5, dtype=np.int64)  # level j deals from max(previous + 1, lo[j]) to hi[j] - 1
        hi = np.zeros(5, dtype=np.int64)
        for j in range(5):
            lo[j] = 0 if j < k else m + j - k
            hi[j] = m - (k - 1 - j) if j < k else lo[j] + 1
        high = np.zeros(hands, dtype=np.int64)
        low = np.zeros(hands, dtype=np.int64)
        wins = np.zeros(hands, dtype=np.int64)
        split = np.zeros((hands, hands + 1), dtype=np.int64)  # high-only boards shared n ways
        shares = np.zeros(hands, dtype=np.int64)  # hi/lo boards shared: the pot shares
        ties = np.zeros(hands, dtype=np.int64)
        half = unit // 2
        for a in firsts:
            ka = board_key + ek[a]
            ba = board_bits + eb[a]
            for b in range(max(a + 1, lo[1]), hi[1]):
                kb = ka + ek[b]
                bb = ba + eb[b]
                for c in range(max(b + 1, lo[2]), hi[2]):
                    kc = kb + ek[c]
                    bc = bb + eb[c]
                    for d in range(max(c + 1, lo[3]), hi[3]):
                        kd = kc + ek[d]
                        bd = bc + eb[d]
                        for e in range(max(d + 1, lo[4]), hi[4]):
                            key = kd + ek[e]
                            best = -1
                            n_best = 0
                            winner = 0
                            best_low = 0
                            n_low = 0
                            for h in range(hands):
                                s = key + hole_keys[h]
                                i = seven_low[s & low_mask] + seven_high[s >> high_shift]  # rank multiset
                                f = s & flush_bits
                                if f == 0:
                                    v = highs[i]
                                else:  # the flush suit's nibble has its top bit set
                                    suit = 0
                                    while (f >> (suit_shift + 4 * suit + 3)) & 1 == 0:
                                        suit += 1
                                    v = flush_table[((bd + eb[e] + hole_bits[h]) >> (13 * suit)) & 0x1FFF]
                                high[h] = v
                                if v > best:
                                    best, n_best, winner = v, 1, h
                                elif v == best:
                                    n_best += 1
                                if hi_lo:
                                    low[h] = lows[i]
                                    if low[h] > best_low:
                                        best_low, n_low = low[h], 1
                                    elif low[h] == best_low and best_low > 0:
                                        n_low += 1
                            if n_low == 0:  # one pot for the best high hand(s)
                                if n_best == 1:
                                    wins[winner] += 1
                                else:
                                    for h in range(hands):
                                        if high[h] == best:
                                            split[h, n_best] += 1
                            else:  # half to the best high, half to the best low
                                for h in range(hands):
                                    share = half // n_best if high[h] == best else 0
                                    if low[h] == best_low:
                                        share += half // n_low
                                    if share == unit:
                                        wins[h] += 1
                                    elif share:
                                        shares[h] += share
                                        ties[h] += 1
        for h in range(hands):
            out[0, h] += shares[h] + wins[h] * unit
            out[1, h] += wins[h]
            out[2, h] += ties[h]
            for n in range(2, hands + 1):
                out[0, h] += split[h, n] * (unit // n)
                out[2, h] += split[h, n]

    return numba.njit(cache=True, nogil=True)(kernel)


def _holdem_exact_numba(
    rest: npt.NDArray[np.intp], known: Sequence[int], holes: Sequence[tuple[int, ...]], hi_lo: bool, unit: int
) -> tuple[Int64Array, Int64Array, Int64Array]:
    """Per hand: total pot shares, wins and ties over every completed board, by the numba kernel."""
    k = 5 - len(known)
    m = len(rest)
    firsts = list(range(m - k + 1)) if k else [m]  # k = 0: the one "subset" is all virtual
    sizes = {f: comb(m - 1 - f, k - 1) if k else 1 for f in firsts}  # subsets starting at each first
    workers = min(4, os.cpu_count() or 1) if sum(sizes.values()) >= 50_000 else 1
    # largest first onto the lightest worker: the work splits almost evenly
    load = [0] * workers
    parts: list[list[int]] = [[] for _ in range(workers)]
    for f in sorted(firsts, key=sizes.__getitem__, reverse=True):
        w = load.index(min(load))
        load[w] += sizes[f]
        parts[w].append(f)
    outs = [np.zeros((3, len(holes)), dtype=np.int64) for _ in range(workers)]
    seven_low, seven_high, highs = _seven_arrays()
    args = (
        int(_SEVEN_KEYS[list(known)].sum()) + SEVEN_SUIT_OFFSET, int(CARD_BITS[list(known)].sum()),
        np.array([_SEVEN_KEYS[list(h)].sum() for h in holes], dtype=np.int64),
        np.array([CARD_BITS[list(h)].sum() for h in holes], dtype=np.int64),
        _SEVEN_KEYS, CARD_BITS, _SEVEN_LAYOUT, seven_low, seven_high, highs,
        _seven_lows() if hi_lo else highs, FLUSH_TABLE, hi_lo, unit,
    )  # fmt: skip
    kernel = _holdem_kernel()
    rest64 = rest.astype(np.int64)
    jobs = [(rest64, k, np.array(part, dtype=np.int64), *args, out) for part, out in zip(parts, outs, strict=True)]
    if workers == 1:
        kernel(*jobs[0])
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(lambda job: kernel(*job), jobs))
    total: Int64Array = np.sum(outs, axis=0)
    return total[0], total[1], total[2]


def _check_options(samples: object, seed: object, **flags: object) -> None:
    """:class:`ConfigError` for a sample count, seed or flag of the wrong type or out of range."""
    if type(samples) is not int or not 1 <= samples <= MAX_SAMPLES:
        raise ConfigError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {excerpt(samples)}.")
    if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
        raise ConfigError(f"seed must be None or a whole number from 0 to 2**128 - 1, not {excerpt(seed)}.")
    for name, value in flags.items():
        if value is not None and type(value) is not bool:
            raise ConfigError(f"{name} must be True, False or None, not {excerpt(value)}.")


def _parse_hands(hands: Sequence[CardsLike], game: str) -> tuple[tuple[Card, ...], ...]:
    if game not in ("holdem", "omaha"):
        raise ConfigError(f"game must be 'holdem' or 'omaha', not {excerpt(game)}.")
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise ConfigError(f"hands must be a list of hands (each a card string such as 'AhKh'), not {excerpt(hands)}.")
    if not 2 <= len(hands) <= 10:
        raise ConfigError(f"Equity needs 2 to 10 hands, got {len(hands)}.")
    parsed = tuple(parse_cards(h) for h in hands)
    sizes = (2,) if game == "holdem" else (4, 5)
    for h in parsed:
        if len(h) not in sizes:
            raise CardError(f"A {game} hand has {' or '.join(map(str, sizes))} hole cards, not {len(h)}.")
    return parsed


def equity(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    *,
    game: str = "holdem",
    hi_lo: bool = False,
    exact: bool | None = None,
    samples: int = 100_000,
    seed: int | None = None,
    use_numba: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EquityResult:
    """Equity of 2-10 known hands with an optional known board (0 to 5 cards).

    ``exact=None`` enumerates every remaining board when there are at most :data:`EXACT_LIMIT`,
    else samples ``samples`` boards with ``numpy.random.default_rng(seed)``. Exact hold'em runs
    a compiled numba loop when numba is importable (``use_numba=None``); ``use_numba=False``
    forces the numpy path, which gives the identical result. Other cases always use numpy.
    ``progress``, if given, is called with ``(boards done, boards in all)`` at the start and as
    the work goes (after each batch of boards; at the end of a compiled run).

    >>> equity(["AhKh", "QsQd"]).equity[0]
    Fraction(197833, 428076)
    """
    _check_options(samples, seed, hi_lo=hi_lo, exact=exact, use_numba=use_numba)
    if progress is not None and not callable(progress):
        raise ConfigError(f"progress must be None or a function progress(done, total), not {excerpt(progress)}.")
    parsed = _parse_hands(hands, game)
    known = parse_cards(board)
    if len(known) > 5:
        raise CardError(f"A board has at most 5 cards, not {len(known)}.")
    used = [c for h in parsed for c in h] + list(known)
    if len(set(used)) != len(used):
        parse_cards(used)  # raises naming the repeated card
    if use_numba and not HAVE_NUMBA:
        raise ConfigError("use_numba=True but numba is not installed.")
    rest = np.array(sorted(set(range(52)) - set(used)), dtype=np.intp)
    k = 5 - len(known)
    total = comb(len(rest), k)
    if exact is None:
        exact = total <= EXACT_LIMIT
    count = total if exact else samples
    unit = 2 * lcm(*range(1, len(parsed) + 1))  # one pot, divisible by any split of either half
    report = progress or (lambda done, total: None)
    if exact and game == "holdem" and (HAVE_NUMBA if use_numba is None else use_numba):
        report(0, count)
        shares, wins, ties = _holdem_exact_numba(rest, known, parsed, hi_lo, unit)
        report(count, count)
    else:
        shares, wins, ties = _deal_numpy(rest, known, parsed, game, hi_lo, count, exact, seed, unit, report)
    return EquityResult(
        hands=parsed,
        board=known,
        game=game,
        hi_lo=hi_lo,
        exact=exact,
        boards=count,
        wins=tuple(int(w) for w in wins),
        ties=tuple(int(t) for t in ties),
        equity=tuple(Fraction(int(s), unit * count) for s in shares),
    )


def _deal_numpy(
    rest: npt.NDArray[np.intp],
    known: Sequence[int],
    parsed: Sequence[tuple[int, ...]],
    game: str,
    hi_lo: bool,
    count: int,
    exact: bool,
    seed: int | None,
    unit: int,
    report: Callable[[int, int], None],
) -> tuple[Int64Array, Int64Array, Int64Array]:
    """Per hand: total pot shares, wins and ties over ``count`` boards, in numpy chunks (``report``
    is told the boards done after each)."""
    k = 5 - len(known)
    rng = np.random.default_rng(seed)
    evaluate = _holdem_values if game == "holdem" else _omaha_values
    shares = np.zeros(len(parsed), dtype=np.int64)
    wins = np.zeros(len(parsed), dtype=np.int64)
    ties = np.zeros(len(parsed), dtype=np.int64)
    all_rows = combination_rows(len(rest), k) if exact else None
    report(0, count)
    for start in range(0, count, _CHUNK):
        size = min(_CHUNK, count - start)
        rows: npt.NDArray[np.integer[Any]]
        if all_rows is not None:
            rows = all_rows[start : start + size]
        elif k:
            rows = np.argpartition(rng.random((size, len(rest))), k - 1, axis=1)[:, :k]
        else:
            rows = np.zeros((size, 0), dtype=np.intp)
        boards = np.concatenate(
            [np.broadcast_to(np.array(known, dtype=np.intp), (size, len(known))), rest[rows]], axis=1
        )
        values = evaluate(boards, parsed, hi_lo)
        share = _pot_shares([v[0] for v in values], [v[1] for v in values] if hi_lo else None, unit)
        shares += share.sum(axis=1)
        wins += (share == unit).sum(axis=1)
        ties += ((share > 0) & (share < unit)).sum(axis=1)
        report(start + size, count)
    return shares, wins, ties


def _pot_shares(highs: list[Int32Array], lows: list[Int32Array] | None, unit: int) -> Int64Array:
    """Per hand and board, its share of a pot of ``unit`` chips (``unit`` divisible by any split)."""
    high = np.stack(highs)
    best = high == high.max(axis=0)
    high_share = best * (unit // best.sum(axis=0))
    if lows is None:
        out: Int64Array = high_share.astype(np.int64)
        return out
    low = np.stack(lows)
    low_best = (low == low.max(axis=0)) & (low > 0)
    n_low = low_best.sum(axis=0)
    low_share = low_best * (unit // 2 // np.maximum(n_low, 1))
    split: Int64Array = np.where(n_low > 0, high_share // 2 + low_share, high_share).astype(np.int64)
    return split


def _preflop_key(high: Any, low: Any) -> Any:
    """Order of two-card starting hands for the drop-out: any pair over any non-pair, then ranks."""
    return (high == low) * 169 + high * 13 + low


def hand_strength(
    hole: CardsLike,
    board: CardsLike = (),
    opponents: int = 1,
    samples: int = 10_000,
    seed: int | None = None,
    *,
    drop_weak: bool = False,
    weakest: str = "66",
) -> float:
    """Probability-like strength (0..1) of hold'em ``hole`` cards against random opponents.

    Each sample deals every opponent two cards and completes the board; a win scores 1 and a
    ``k``-way tie ``1/k`` (the poker-AI seed's recipe). With ``drop_weak`` an opponent whose two
    cards rank below ``weakest`` (two rank characters: ``"66"``, ``"AJ"``; any pair ranks above
    every non-pair, then by high then low card, suits ignored) folds before the showdown.
    """
    _check_options(samples, seed, drop_weak=drop_weak)
    mine = parse_cards(hole)
    known = parse_cards(board)
    if len(mine) != 2:
        raise CardError(f"Hold'em hole cards are two cards, not {len(mine)}.")
    if len(known) > 5:
        raise CardError(f"A board has at most 5 cards, not {len(known)}.")
    parse_cards((*mine, *known))
    if type(opponents) is not int or not 1 <= opponents <= 9:
        raise ConfigError(f"opponents must be 1 to 9, not {excerpt(opponents)}.")
    if not isinstance(weakest, str) or len(weakest) != 2 or any(ch.upper() not in RANKS for ch in weakest):
        raise ConfigError(f"weakest must be two ranks like '66' or 'AJ', not {excerpt(weakest)}.")
    w = sorted((RANKS.index(ch.upper()) for ch in weakest), reverse=True)
    threshold = _preflop_key(w[0], w[1])
    rest = np.array(sorted(set(range(52)) - set(mine) - set(known)), dtype=np.intp)
    k = 5 - len(known)
    need = 2 * opponents + k
    rng = np.random.default_rng(seed)
    score = 0.0
    for start in range(0, samples, _CHUNK):
        size = min(_CHUNK, samples - start)
        dealt = rest[np.argpartition(rng.random((size, len(rest))), need - 1, axis=1)[:, :need]]
        full = np.concatenate([np.broadcast_to(np.array(known, dtype=np.intp), (size, len(known))), dealt[:, :k]], 1)
        bk, bm = card_key_sums(full)
        ours = high_values_from_sums(
            bk + int(BATCH_CARD_KEYS[list(mine)].sum()), bm + int(CARD_BITS[list(mine)].sum()), 7
        )
        best = np.full(size, -1, dtype=np.int64)
        tied = np.zeros(size, dtype=np.int64)
        for j in range(opponents):
            a, b = dealt[:, k + 2 * j], dealt[:, k + 2 * j + 1]
            theirs = high_values_from_sums(
                bk + BATCH_CARD_KEYS[a] + BATCH_CARD_KEYS[b], bm + CARD_BITS[a] + CARD_BITS[b], 7
            )
            if drop_weak:
                ra, rb = a >> 2, b >> 2
                stays = _preflop_key(np.maximum(ra, rb), np.minimum(ra, rb)) >= threshold
                theirs = np.where(stays, theirs, -1)
            tied += theirs == ours
            best = np.maximum(best, theirs)
        score += float(np.where(ours > best, 1.0, np.where(ours == best, 1.0 / (1 + tied), 0.0)).sum())
    return score / samples
