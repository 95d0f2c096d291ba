"""Equity of hands and ranges in every game the library ranks, and Monte-Carlo hand strength
against unknown opponents.

:func:`equity` takes 2-10 players, each a known hand or a range (:mod:`.ranges`), with board and
dead cards, and either enumerates every deal (every matchup of the ranges' hands that shares no
card, every board: ``exact``) or samples deals from a seeded ``numpy.random.Generator`` until a
sample count, a target standard error or a time is reached (hold'em high draws from the list of
matchups and deals the board from tables of card pairs: 100,000 deals in about 5 ms). It reports,
per player, the deals won outright (in hi/lo: scooped), those shared, the expected share of the pot
as a :class:`~fractions.Fraction` and its standard error; the :class:`EquityResult` prints as a table.
Games (:data:`GAMES`): hold'em, short deck, Omaha (4 or 5 hole cards, exactly two with three of
the board), each high or, for hold'em and Omaha, ``hi_lo`` (half the pot to the best
eight-or-better low, all of it to the high hand when no low qualifies); seven-card stud (also hi/lo)
and razz, dealing each player's unknown cards to seven; and deuce-to-seven, ace-to-five and badugi
hands as they stand (a wildcard is a card drawn). Exact ranges value each hand once on each board
and compare the matchups; a single matchup of known hold'em hands runs a compiled numba loop when
numba is importable (about 0.02 s pre-flop; compiled once, about 2 s, then loaded from numba's
disk cache), else numpy batches (about 0.3 s). Both give identical results.

:func:`hand_strength` is the poker-AI seed's Monte-Carlo hand strength for hold'em
(:mod:`cardgame.evaluation.strength` for any game): deal the opponents and
the rest of the board at random, score 1 for a win and ``1/k`` for a ``k``-way tie. With
``drop_weak=True`` it also applies the seed's drop-out: an opponent dealt hole cards weaker than
``weakest`` (default a pair of sixes) folds and cannot win that deal, which models that weak
hands rarely see a showdown.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from functools import cache, lru_cache, partial
from itertools import combinations
from math import comb, lcm, prod
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from cardgame.evaluation._tables import (
    FLUSH,
    RANK_WEIGHTS,
    SEVEN_FLUSH_BITS,
    SEVEN_HIGH,
    SEVEN_HIGH_SHIFT,
    SEVEN_KEYS,
    SEVEN_LOW,
    SEVEN_SUIT_OFFSET,
    SEVEN_SUIT_SHIFT,
    SEVEN_VALUES,
    STRAIGHT,
    STRAIGHT_FLUSH,
    Int64Array,
    pack,
    rank_values,
    seven_rank_keys,
)
from cardgame.evaluation.badugi import evaluate_badugi
from cardgame.evaluation.batch import (
    BATCH_CARD_KEYS,
    CARD_BITS,
    FLUSH_TABLE,
    HAVE_NUMBA,
    Int32Array,
    dense_rank_table,
    high_values_from_sums,
    rank_table,
)
from cardgame.evaluation.lowball import EIGHT_QUALIFIER, LOW_BASE, _ace_to_five_table
from cardgame.evaluation.ranges import Range, RangeError, combination_rows, parse_range
from cardgame.evaluation.short_deck import short_deck_high
from cardgame.evaluation.strength import HOLDEM, Situation
from cardgame.evaluation.strength import MAX_SAMPLES as STRENGTH_MAX_SAMPLES
from cardgame.evaluation.strength import hand_strength as seat_strength
from cardgame.model.cards import CARDS, Card, format_cards, parse_cards
from cardgame.model.errors import CardError, ConfigError
from cardgame.model.inputs import excerpt

__all__ = ["EXACT_LIMIT", "GAMES", "MAX_SAMPLES", "EquityResult", "equity", "hand_strength"]

EXACT_LIMIT = 2_000_000  # with exact=None, enumerate when there are at most this many deals (see _COST)
MAX_SAMPLES = STRENGTH_MAX_SAMPLES  # one bound for every Monte Carlo of the library
"""Boards a Monte Carlo run may sample (about a minute and a half at 1.3 million boards a second)."""
MAX_SEED = 2**128 - 1
_CHUNK = 1 << 16
_RANK_WEIGHT = np.array([RANK_WEIGHTS[c >> 2] for c in range(52)], dtype=np.int64)
_RANK_BIT = np.array([1 << (c >> 2) for c in range(52)], dtype=np.int64)
_CARD_BIT = np.array([1 << c for c in range(52)], dtype=np.int64)
_POPCOUNT: Callable[[Int64Array], Any] | None = getattr(np, "bitwise_count", None)  # numpy 2; else masks summed

CardsLike = str | Iterable[str | int]


@attrs.frozen
class EquityResult:
    """Outcome of :func:`equity`, one entry per player in the order given; ``str()`` is a table.

    ``players``: each hand or range as text; ``hands``: a player's cards when it held one known hand
    (``()`` for a range). ``boards``: the deals counted (every board of every matchup when
    ``exact``, else the samples). ``wins``: deals on which the player takes the whole pot alone (in
    hi/lo: scoops); ``ties``: deals on which it gets a part of the pot but not all (in hi/lo: splits
    and halves), both out of ``out_of`` (``boards``, or the matchups' weights times their boards when
    enumerating weighted ranges: then fractions). ``equity``: the expected share of the pot (exact
    fractions of what was dealt, ``sum(equity) == 1``); ``std_error``: each equity's standard error
    (0 when exact).
    """

    hands: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    game: str
    hi_lo: bool
    exact: bool
    boards: int
    wins: tuple[int | Fraction, ...]
    ties: tuple[int | Fraction, ...]
    equity: tuple[Fraction, ...]
    players: tuple[str, ...] = ()
    dead: tuple[Card, ...] = ()
    std_error: tuple[float, ...] = ()
    out_of: int | Fraction = 0

    @property
    def equity_floats(self) -> tuple[float, ...]:
        """``equity`` as floats."""
        return tuple(float(e) for e in self.equity)

    @property
    def rates(self) -> tuple[tuple[float, float, float], ...]:
        """Per player: the shares of deals won outright (scooped), tied (split) and lost."""
        total = float(self.out_of or self.boards) or 1.0
        return tuple((float(w) / total, float(t) / total, 1 - (float(w) + float(t)) / total)
                     for w, t in zip(self.wins, self.ties, strict=True))

    def __str__(self) -> str:
        return _table(self)


def _table(result: EquityResult) -> str:
    """The result as a table: each player's equity (with its margin), wins, ties and losses."""
    players = result.players or tuple("".join(map(str, h)) for h in result.hands)
    names = [p if len(p) <= 40 else p[:37] + "..." for p in players]
    width = max(6, *(len(n) for n in names))
    where = [f"board {format_cards(result.board)}" if result.board else "",
             f"dead {format_cards(result.dead)}" if result.dead else ""]
    deals = "boards" if GAMES[result.game].board else "deals"
    how = (f"exact over {result.boards:,} {deals}" if result.exact
           else f"Monte Carlo over {result.boards:,} samples (± is 1.96 standard errors, a 95% margin)")
    game = result.game + (" hi/lo" if result.hi_lo else "")
    lines = [", ".join(x for x in (game, *where, how) if x)]
    win, tie = ("scoop", "split") if result.hi_lo else ("win", "tie")
    margin = "" if result.exact else "  margin"
    lines.append(f"{'player':<{width}}  {'equity':>8}{margin}  {win:>7}  {tie:>7}  {'lose':>7}")
    errors = result.std_error or (0.0,) * len(names)
    for name, eq, err, (w, t, lose) in zip(names, result.equity, errors, result.rates, strict=True):
        plus = "" if result.exact else f"  ±{1.96 * err:.2%}".rjust(8)
        lines.append(f"{name:<{width}}  {float(eq):>8.2%}{plus}  {w:>7.2%}  {t:>7.2%}  {lose:>7.2%}")
    return "\n".join(lines)


@cache
def _low_table(n: int, floor: int) -> Int32Array:
    """Dense table: rank-weight sum of ``n`` cards -> ace-to-five low value, 0 if below ``floor``."""
    return dense_rank_table(_ace_to_five_table(), n, floor=floor)


def _values(
    game: str, board: npt.NDArray[Any], holes: Sequence[npt.NDArray[Any]], hi_lo: bool
) -> list[tuple[Int32Array, Int32Array | None]]:
    """Per player: the value of each row's hand (higher wins) and, with ``hi_lo``, its eight-or-better
    low (0 for none); ``board`` and each of ``holes`` hold one row of cards per deal."""
    if game == "omaha":
        return [_omaha_rows(board, hole, hi_lo) for hole in holes]
    if game in _BY_HAND:  # short deck and badugi: the evaluator hand by hand, each hand once
        return [(_by_hand(game, np.concatenate([hole, board], axis=1)), None) for hole in holes]
    board_sums: dict[int, Int64Array] = {}

    def on_board(table: Int64Array) -> Int64Array:
        if id(table) not in board_sums:  # once for every player
            board_sums[id(table)] = _sums(table, board)
        return board_sums[id(table)]

    return [_sum_values(game, board.shape[1] + hole.shape[1], partial(_plus, on_board, hole), hi_lo) for hole in holes]


def _plus(first: Callable[[Int64Array], Int64Array], cards: npt.NDArray[Any], table: Int64Array) -> Int64Array:
    """``first(table)`` plus ``table``'s sum over each row of ``cards``."""
    return first(table) + _sums(table, cards)


def _outer(hands: npt.NDArray[Any], boards: npt.NDArray[Any], table: Int64Array) -> Int64Array:
    """``table``'s sum over each hand with each board: hands by rows, boards by columns, flattened."""
    out: Int64Array = (_sums(table, hands)[:, None] + _sums(table, boards)[None, :]).reshape(-1)
    return out


def _sum_values(
    game: str, n: int, summed: Callable[[Int64Array], Int64Array], hi_lo: bool
) -> tuple[Int32Array, Int32Array | None]:
    """The values (and eight-or-better lows) of ``n``-card hands of a game ranked from sums of card
    keys: ``summed(table)`` is each hand's sum of ``table`` over its cards (hold'em, stud, razz, A-5, 2-7)."""
    high: Int32Array
    if game in ("holdem", "stud") and n == 7:
        high = _seven_values(summed(_SEVEN_KEYS), summed)
    elif game in ("holdem", "stud"):
        high = high_values_from_sums(summed(BATCH_CARD_KEYS), summed(CARD_BITS), n)
    elif game in ("razz", "a-5"):
        high = _low_table(n, 0)[summed(_RANK_WEIGHT)]
    else:  # 2-7
        high = _deuce_to_seven(summed(BATCH_CARD_KEYS), summed(CARD_BITS), n)
    return high, _low_table(n, EIGHT_QUALIFIER)[summed(_RANK_WEIGHT)] if hi_lo else None


def _seven_values(keys: Int64Array, summed: Callable[[Int64Array], Int64Array]) -> Int32Array:
    """High values of seven-card hands from their :data:`._tables.SEVEN_KEYS` sums, by the 0.6 MB
    seven-card tables (twice as fast as the dense table's cache misses); flushes from the card masks
    (``summed(CARD_BITS)``)."""
    low, high, values = _seven_arrays()
    keys = keys + SEVEN_SUIT_OFFSET
    # (clipped: a row repeating a card, which the matchup tables value and then drop, has no rank multiset)
    index = np.take(low, keys & _SEVEN_LAYOUT[0], mode="clip") + np.take(high, keys >> SEVEN_HIGH_SHIFT, mode="clip")
    out: Int32Array = np.take(values, index, mode="clip")
    flush = keys & SEVEN_FLUSH_BITS
    rows = np.flatnonzero(flush)
    if rows.size:  # one suit has five or more: its nibble's top bit is set
        suit = (np.log2(flush[rows]).astype(np.int64) - SEVEN_SUIT_SHIFT - 3) // 4
        out[rows] = FLUSH_TABLE[(summed(CARD_BITS)[rows] >> (13 * suit)) & 0x1FFF]
    return out


def _sums(table: Int64Array, cards: npt.NDArray[Any]) -> Int64Array:
    """``table[cards].sum(axis=1)``, column by column (numpy sums a few columns a row slowly)."""
    out = np.zeros(len(cards), dtype=np.int64)
    for j in range(cards.shape[1]):
        out += table[cards[:, j]]
    return out


def _deuce_to_seven(keys: Int64Array, bits: Int64Array, n: int) -> Int32Array:
    """Deuce-to-seven values of five-card hands from their key sums (as :func:`deuce_to_seven_low`):
    the high value with the ace high only (A-5-4-3-2 is ace high, not a straight), turned over."""
    high = high_values_from_sums(keys, bits, n).astype(np.int64)
    wheel = np.isin(high >> 20, (STRAIGHT, STRAIGHT_FLUSH)) & ((high >> 16) & 15 == 3)
    if wheel.any():
        flush = (high >> 20) == STRAIGHT_FLUSH
        high[wheel] = np.where(flush[wheel], pack(FLUSH, [12, 3, 2, 1, 0]), pack(0, [12, 3, 2, 1, 0]))
    out: Int32Array = (LOW_BASE - high).astype(np.int32)
    return out


_BY_HAND: dict[str, Callable[[Sequence[int]], int]] = {"short-deck": short_deck_high, "badugi": evaluate_badugi}


def _by_hand(game: str, cards: npt.NDArray[Any]) -> Int32Array:
    """Values of each row by the game's evaluator, each distinct hand evaluated once."""
    rows = np.sort(cards, axis=1)
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    evaluate = _BY_HAND[game]
    repeats = (unique[:, 1:] == unique[:, :-1]).any(axis=1)  # valued by the matchup tables, then dropped
    values = np.array([0 if bad else evaluate(hand) for hand, bad in zip(unique.tolist(), repeats.tolist(),
                                                                          strict=True)], dtype=np.int32)
    out: Int32Array = values[inverse.reshape(-1)]
    return out


def _omaha_rows(board: npt.NDArray[Any], hole: npt.NDArray[Any], hi_lo: bool) -> tuple[Int32Array, Int32Array | None]:
    """Omaha high values (and eight-or-better lows) of each row's hole cards with its board: exactly
    two hole cards with three of the board."""
    if hole.strides[0] == 0:  # one hole for every board (broadcast): its pairs once
        hole = hole[:1]
    triples = [board[:, list(t)] for t in combinations(range(board.shape[1]), 3)]
    pairs = [hole[:, list(p)] for p in combinations(range(hole.shape[1]), 2)]
    t_weight = np.stack([_RANK_WEIGHT[t].sum(axis=1) for t in triples], axis=1)  # (B, T)
    p_weight = np.stack([_RANK_WEIGHT[p].sum(axis=1) for p in pairs], axis=1)  # (B, P)
    weights = t_weight[:, :, None] + p_weight[:, None, :]  # (B, T, P)
    high = rank_table(5)[weights]
    # flushes: the pair and the triple all of one suit
    t_suit = np.stack(
        [np.where((t[:, 0] & 3 == t[:, 1] & 3) & (t[:, 1] & 3 == t[:, 2] & 3), t[:, 0] & 3, -1) for t in triples],
        axis=1,
    )
    p_suit = np.stack([np.where(p[:, 0] & 3 == p[:, 1] & 3, p[:, 0] & 3, -2) for p in pairs], axis=1)
    suited = t_suit[:, :, None] == p_suit[:, None, :]
    if suited.any():
        t_mask = np.stack([np.bitwise_or.reduce(_RANK_BIT[t], axis=1) for t in triples], axis=1)
        p_mask = np.stack([_RANK_BIT[p[:, 0]] | _RANK_BIT[p[:, 1]] for p in pairs], axis=1)
        flush = FLUSH_TABLE[t_mask[:, :, None] | p_mask[:, None, :]]
        high = np.where(suited, flush, high)
    best_high: Int32Array = high.reshape(len(board), -1).max(axis=1)
    if not hi_lo:
        return best_high, None
    low: Int32Array = _low_table(5, EIGHT_QUALIFIER)[weights].reshape(len(board), -1).max(axis=1)
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


@attrs.frozen
class _Game:
    """How a game deals and ranks: the range game of its hands, the hand sizes a player may hold,
    the cards each holds at showdown (``None``: as given), the board, the deck, whether hi/lo splits."""

    ranges: str
    sizes: tuple[int, ...]
    showdown: int | None
    board: int
    deck: int
    hi_lo: bool


GAMES: dict[str, _Game] = {
    "holdem": _Game("holdem", (2,), None, 5, 52, True),
    "short-deck": _Game("short-deck", (2,), None, 5, 36, False),
    "omaha": _Game("omaha", (4, 5), None, 5, 52, True),
    "stud": _Game("stud", tuple(range(1, 8)), 7, 0, 52, True),
    "razz": _Game("razz", tuple(range(1, 8)), 7, 0, 52, False),
    "2-7": _Game("2-7", (5,), None, 0, 52, False),
    "a-5": _Game("a-5", (5,), None, 0, 52, False),
    "badugi": _Game("badugi", (4,), None, 0, 52, False),
}
"""The games :func:`equity` knows: hold'em and short deck (two hole cards, a five-card board), Omaha
(4 or 5), seven-card stud and razz (up to seven cards each, the rest dealt), and the draw games
deuce-to-seven and ace-to-five (five cards) and badugi (four), ranked as they stand."""


def _player(hand: object, game: str) -> Range:
    """One player's hand (cards, a card string, a range string or a :class:`Range`) as a range."""
    spec = GAMES[game]
    if isinstance(hand, Range):
        if hand.game not in (spec.ranges, "omaha5" if game == "omaha" else spec.ranges) or hand.size not in spec.sizes:
            raise ConfigError(f"A {hand.game} range of {hand.size} cards does not play in {game} "
                              f"({' or '.join(map(str, spec.sizes))} cards).")
        return hand
    if not isinstance(hand, str):
        cards = parse_cards(hand)  # type: ignore[arg-type]
    else:
        try:
            cards = parse_cards(hand)
        except CardError:
            cards = ()
        if len(cards) not in spec.sizes:
            try:
                return parse_range(hand, spec.ranges)
            except RangeError:
                if game != "omaha":
                    raise
                return parse_range(hand, "omaha5")  # five-card Omaha: "AA***", or the four-card error above
    if len(cards) not in spec.sizes:
        raise CardError(f"A {game} hand has {' or '.join(map(str, spec.sizes))} cards, not {len(cards)}.")
    return Range.from_combos([cards], "omaha5" if game == "omaha" and len(cards) == 5 else spec.ranges)


def equity(
    hands: Sequence[CardsLike | Range],
    board: CardsLike = (),
    *,
    game: str = "holdem",
    hi_lo: bool = False,
    dead: CardsLike = (),
    exact: bool | None = None,
    samples: int = 100_000,
    target_error: float | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    use_numba: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EquityResult:
    """Equity of 2-10 players, each a known hand (``"AhKh"``) or a range (``"QQ+, AQs+"``, a
    :class:`~cardgame.evaluation.ranges.Range`), with known ``board`` cards and ``dead`` cards.

    Games (:data:`GAMES`): ``"holdem"``, ``"short-deck"``, ``"omaha"`` (``hi_lo`` for Omaha eight or
    better; hold'em too), ``"stud"`` (``hi_lo``: stud eight or better) and ``"razz"``, each player
    its known cards, up and down alike (the rest dealt to seven; folded up cards are ``dead``),
    and the draw games ``"2-7"``, ``"a-5"`` and ``"badugi"``, each hand ranked as it stands; a hand
    drawing N writes N wildcards (``"7h5d3c2s*"`` keeps four cards and draws one; put the discards
    in ``dead``).

    ``exact=None`` enumerates every deal (every matchup of the ranges' hands, every board) when
    there are at most :data:`EXACT_LIMIT` (a twentieth of it in Omaha, a tenth in short deck and
    badugi), else samples with ``numpy.random.default_rng(seed)``: up
    to ``samples`` deals, stopping sooner when every player's standard error is at most
    ``target_error`` (e.g. ``0.001``) or after ``seconds``. A range's hands are weighted by their
    weights; deals where two players (or the board, or the dead cards) share a card are left out.
    Exact hold'em of known hands runs a compiled numba loop when numba is importable
    (``use_numba=None``); ``use_numba=False`` forces numpy, with the identical result.
    ``progress``, if given, is called with ``(deals done, deals in all)`` as the work goes.

    >>> equity(["AhKh", "QsQd"]).equity[0]
    Fraction(197833, 428076)
    """
    _check_options(samples, seed, hi_lo=hi_lo, exact=exact, use_numba=use_numba)
    for name, value in (("target_error", target_error), ("seconds", seconds)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or not 0 < value <= 1e6):
            raise ConfigError(f"{name} must be None or a positive number of at most 1,000,000, not {excerpt(value)}.")
    if progress is not None and not callable(progress):
        raise ConfigError(f"progress must be None or a function progress(done, total), not {excerpt(progress)}.")
    if not isinstance(game, str) or game not in GAMES:
        raise ConfigError(f"game must be one of {', '.join(GAMES)}, not {excerpt(game)}.")
    spec = GAMES[game]
    if hi_lo and not spec.hi_lo:
        raise ConfigError(f"{game} has no hi/lo split; hi_lo=True plays in holdem, omaha and stud.")
    if isinstance(hands, str | Range) or not isinstance(hands, Sequence):
        raise ConfigError(f"hands must be a list of hands (each a card string such as 'AhKh' or a range), "
                          f"not {excerpt(hands)}.")
    if not 2 <= len(hands) <= 10:
        raise ConfigError(f"Equity needs 2 to 10 hands, got {len(hands)}.")
    if use_numba and not HAVE_NUMBA:
        raise ConfigError("use_numba=True but numba is not installed.")
    players = [_player(h, game) for h in hands]
    labels = tuple(" ".join(h.split()) if isinstance(h, str) and len(p) != 1 else
                   str(p) if len(p) != 1 else "".join(str(CARDS[c]) for c in p.hands[0].tolist())
                   for h, p in zip(hands, players, strict=True))
    known, dead_cards = parse_cards(board), parse_cards(dead)
    if len(known) > spec.board:
        raise CardError(f"A {game} board has at most {spec.board} cards, not {len(known)}.")
    fixed = [p.hands[0].tolist() for p in players if len(p) == 1]
    used = list(known) + list(dead_cards) + [c for h in fixed for c in h]
    if len(set(used)) != len(used):
        parse_cards(used)  # raises naming the repeated card
    deck = set(range(52 - spec.deck, 52))
    if not set(used) <= deck:
        raise CardError(f"{format_cards(sorted(set(used) - deck))} is not in the {game} deck.")
    taken = _bits(list(known) + list(dead_cards))
    players = [_possible(p, taken if len(p) == 1 else _bits(used), i, game)
               for i, p in enumerate(players)]  # a range's hands holding a known hand's card are out too
    extra = [0 if spec.showdown is None else spec.showdown - p.size for p in players]
    k = spec.board - len(known)
    rest = len(deck) - len(known) - len(dead_cards) - sum(p.size for p in players)
    if rest < k + sum(extra):
        raise ConfigError(f"{len(players)} players cannot all be dealt their cards in {game}: too few are left.")
    boards = comb(rest, k)
    matchups = prod(len(p) for p in players)
    if exact is None:
        exact = not any(extra) and matchups * boards * _COST.get(game, 1) <= EXACT_LIMIT
    elif exact and (any(extra) or matchups > _MAX_MATCHUPS or matchups * boards > 100 * EXACT_LIMIT):
        raise ConfigError(f"Too many deals to enumerate ({matchups:,} matchups of {boards:,} deals"
                          f"{', and cards to deal each player' if any(extra) else ''}); use Monte Carlo (exact=False).")
    unit = 2 * lcm(*range(1, len(players) + 1))  # one pot, divisible by any split of either half
    report = progress or (lambda done, total: None)
    base = {"hands": tuple(tuple(CARDS[c] for c in p.hands[0].tolist()) if len(p) == 1 else () for p in players),
            "board": known, "game": game, "hi_lo": hi_lo, "exact": exact, "players": labels, "dead": dead_cards}
    if exact:
        return _enumerate(players, known, dead_cards, spec, game, hi_lo, unit, use_numba, report, base)
    listed = _matchups(players, _bits(list(known) + list(dead_cards))) if matchups <= _MAX_MATCHUPS else None
    if listed is not None and not len(listed[1]):
        raise ConfigError("The players' hands always share a card: no deal is possible.")
    limits = (samples, target_error, seconds)
    if game == "holdem" and not hi_lo and listed is not None and matchups <= _FAST_MATCHUPS:
        return _sample_holdem(players, listed, known, deck - set(known) - set(dead_cards), unit, limits, seed, report,
                              base)
    return _sample(players, extra, known, deck - set(known) - set(dead_cards), game, hi_lo, unit, limits, seed,
                   report, base)


_COST = {"omaha": 20, "short-deck": 10, "badugi": 10}
"""What a deal costs beside a hold'em deal (Omaha's sixty five-card hands a player, the per-hand
evaluators of short deck and badugi): exact=None enumerates up to EXACT_LIMIT / cost deals."""
_MAX_MATCHUPS = 5_000_000  # matchups exact=True may list before the cards they share are dropped
_FAST_MATCHUPS = _MAX_MATCHUPS  # hold'em Monte Carlo draws from the matchups equity() lists (more: hand by hand)


def _bits(cards: Iterable[int]) -> int:
    return sum(1 << int(c) for c in set(cards))


@lru_cache(maxsize=64)
def _int_hands(r: Range) -> npt.NDArray[np.intp]:
    """A range's hands as an index array (numpy gathers from it faster than from int8)."""
    return r.hands.astype(np.intp)


@lru_cache(maxsize=64)
def _row_bits(r: Range) -> Int64Array:
    """Each hand of a range as a 52-bit mask of its cards."""
    return _sums(_CARD_BIT, r.hands)


def _possible(r: Range, taken: int, index: int, game: str) -> Range:
    """The range without the hands that hold a board or dead card (an error if none is left)."""
    keep = (_row_bits(r) & taken) == 0
    if keep.all():
        return r
    if not keep.any():
        raise CardError(f"No hand of player {index + 1}'s {game} range {excerpt(str(r))} is possible: each holds a "
                        "board card, a dead card or a card of a known hand.")
    return Range._make(r.game, r.size, r.hands[keep], r.weights[keep], None, ordered=True)


def _matchups(players: list[Range], taken: int) -> tuple[list[npt.NDArray[np.intp]], Int64Array]:
    """Every matchup of the players' hands sharing no card with each other or ``taken``: per player
    the row of its hand in each matchup, and each matchup's cards as a mask."""
    picks = [np.arange(len(players[0]), dtype=np.intp)]
    masks = _row_bits(players[0]).copy()
    for r in players[1:]:
        bits = _row_bits(r)
        left, right = np.repeat(np.arange(len(masks)), len(r)), np.tile(np.arange(len(r)), len(masks))
        fits = np.flatnonzero((masks[left] & bits[right]) == 0)
        picks = [p[left[fits]] for p in picks] + [right[fits]]
        masks = masks[left[fits]] | bits[right[fits]]
    fits = np.flatnonzero((masks & taken) == 0)
    return [p[fits] for p in picks], masks[fits]


def _enumerate(
    players: list[Range], known: tuple[Card, ...], dead: tuple[Card, ...], spec: _Game, game: str, hi_lo: bool,
    unit: int, use_numba: bool | None, report: Callable[[int, int], None], base: dict[str, Any],
) -> EquityResult:
    """Every matchup of the players' hands that shares no card, and every board of each: one matchup
    by the compiled loop or numpy, many at once in numpy chunks of (matchup, board) rows."""
    n = len(players)
    picks, masks = _matchups(players, _bits(list(known) + list(dead)))
    if not len(masks):
        raise ConfigError("The players' hands always share a card: no deal is possible.")
    k = spec.board - len(known)
    rest = spec.deck - len(known) - len(dead) - sum(p.size for p in players)
    boards = comb(rest, k)
    total = len(masks) * boards
    report(0, total)
    if len(masks) == 1:
        holes = [tuple(int(c) for c in p.hands[i[0]]) for p, i in zip(players, picks, strict=True)]
        used = set(known) | set(dead) | {c for h in holes for c in h}
        left = np.array([c for c in range(52 - spec.deck, 52) if c not in used], dtype=np.intp)
        if game == "holdem" and (HAVE_NUMBA if use_numba is None else use_numba):
            s, w, t = _holdem_exact_numba(left, known, holes, hi_lo, unit)
        else:
            s, w, t = _deal_exact(left, known, holes, game, hi_lo, unit, total, report)
        per_matchup = [s[None, :], w[None, :], t[None, :]]
    else:
        per_matchup = _deal_matchups(players, picks, masks, known, dead, spec, game, hi_lo, unit, total, report)
    report(total, total)
    weights = np.stack([p.weights[i] for p, i in zip(players, picks, strict=True)], axis=1)  # (M, players)
    weighted = bool((weights != 1).any())
    sums: list[list[int | Fraction]]
    if weighted:  # exact sums: each distinct weight tuple's product as a fraction, times its matchups' counts
        groups, inverse = np.unique(weights, axis=0, return_inverse=True)
        factor = [prod((Fraction(repr(w)) for w in row), start=Fraction(1)) for row in groups.tolist()]  # 0.3 is 3/10
        inverse = inverse.reshape(-1)

        def weigh(column: Int64Array) -> Fraction:
            per_group = np.bincount(inverse, weights=column, minlength=len(groups)).round().tolist()
            return sum((f * int(x) for f, x in zip(factor, per_group, strict=True)), start=Fraction(0))

        sums = [[weigh(a[:, j]) for j in range(n)] for a in per_matchup]
        out_of: int | Fraction = weigh(np.ones(len(inverse), dtype=np.int64)) * boards
    else:
        sums = [[int(x) for x in a.sum(axis=0).tolist()] for a in per_matchup]
        out_of = total
    shares, wins, ties = sums
    return EquityResult(
        **base, boards=total, wins=tuple(wins), ties=tuple(ties),
        equity=tuple(Fraction(s) / (unit * out_of) for s in shares), std_error=(0.0,) * n, out_of=out_of,
    )


def _deal_matchups(
    players: list[Range], picks: list[npt.NDArray[np.intp]], masks: Int64Array, known: tuple[Card, ...],
    dead: tuple[Card, ...], spec: _Game, game: str, hi_lo: bool, unit: int, total: int,
    report: Callable[[int, int], None],
) -> list[Int64Array]:
    """Per matchup and player: pot shares, wins and ties over every board that shares no card with
    the matchup. Boards go in chunks: each hand of each range is valued once on each board of the
    chunk, and the matchups compare those values."""
    n, m = len(players), len(masks)
    out_cards = set(known) | set(dead)
    avail = np.array([c for c in range(52 - spec.deck, 52) if c not in out_cards], dtype=np.intp)
    k = spec.board - len(known)
    rows = combination_rows(len(avail), k)
    boards = np.concatenate([np.broadcast_to(np.array(known, dtype=np.intp), (len(rows), len(known))), avail[rows]],
                            axis=1)
    board_bits = _sums(_CARD_BIT, avail[rows])
    out = [np.zeros((m, n), dtype=np.int64) for _ in range(3)]
    step = max(1, (1 << 18) // max(m, *(len(p) for p in players)))
    done = 0
    for first in range(0, len(boards), step):
        chunk = boards[first : first + step]
        size = len(chunk)
        values = []
        for p, pick in zip(players, picks, strict=True):
            hands = _int_hands(p)
            if game in _BY_HAND or game == "omaha":
                high, low = _values(game, np.tile(chunk, (len(hands), 1)), [np.repeat(hands, size, axis=0)], hi_lo)[0]
            else:  # from sums: each hand's plus each board's, broadcast
                high, low = _sum_values(game, hands.shape[1] + chunk.shape[1], partial(_outer, hands, chunk), hi_lo)
            values.append((high.reshape(len(hands), size)[pick].reshape(-1),
                           None if low is None else low.reshape(len(hands), size)[pick].reshape(-1)))
        fits = (masks[:, None] & board_bits[None, first : first + size]) == 0  # (matchups, boards)
        if n == 2 and values[0][1] is None:  # heads-up, one pot: count (as _pot_shares scores)
            won, lost, tied = _heads_up(values[0][0].reshape(m, size), values[1][0].reshape(m, size), fits)
            out[0] += np.stack([won * unit + tied * (unit // 2), lost * unit + tied * (unit // 2)], axis=1)
            out[1] += np.stack([won, lost], axis=1)
            out[2] += tied[:, None]
        else:
            share = _pot_shares(values, unit) * fits.reshape(-1)  # (players, matchups * boards)
            for a, part in zip(out, (share, (share == unit) & fits.reshape(-1), (share > 0) & (share < unit)),
                               strict=True):
                a += part.reshape(n, m, size).sum(axis=2).T
        done += int(fits.sum())
        report(done, total)
    return out


def _deal_exact(
    rest: npt.NDArray[np.intp], known: Sequence[int], holes: Sequence[tuple[int, ...]], game: str, hi_lo: bool,
    unit: int, total: int, report: Callable[[int, int], None],
) -> tuple[Int64Array, Int64Array, Int64Array]:
    """Per hand: total pot shares, wins and ties over every board, in numpy chunks (``report`` is told
    the deals done after each)."""
    k = GAMES[game].board - len(known)
    shares = np.zeros(len(holes), dtype=np.int64)
    wins = np.zeros(len(holes), dtype=np.int64)
    ties = np.zeros(len(holes), dtype=np.int64)
    all_rows = combination_rows(len(rest), k)
    count = len(all_rows)
    for start in range(0, count, _CHUNK):
        rows = all_rows[start : start + _CHUNK]
        n = len(rows)
        boards = np.concatenate([np.broadcast_to(np.array(known, dtype=np.intp), (n, len(known))), rest[rows]], axis=1)
        holes_rows = [np.broadcast_to(np.array(h, dtype=np.intp), (n, len(h))) for h in holes]
        values = _values(game, boards, holes_rows, hi_lo)
        share = _pot_shares(values, unit)
        shares += share.sum(axis=1)
        wins += (share == unit).sum(axis=1)
        ties += ((share > 0) & (share < unit)).sum(axis=1)
        if count > _CHUNK:
            report(start + n, total)
    return shares, wins, ties


def _nothing_kept(empty: int) -> int:
    """One more chunk of deals with none kept (every one had a card twice); :class:`ConfigError` at the
    50th, when the ranges almost never make a deal without a shared card."""
    if empty + 1 >= 50:
        raise ConfigError("The players' ranges almost never make a deal without a shared card; narrow or change them.")
    return empty + 1


def _sample(
    players: list[Range], extra: list[int], known: tuple[Card, ...], left: set[int], game: str, hi_lo: bool,
    unit: int, limits: tuple[int, float | None, float | None], seed: int | None,
    report: Callable[[int, int], None], base: dict[str, Any],
) -> EquityResult:
    """Monte Carlo: each deal draws a hand from each range (by weight; a deal where two share a card is
    drawn again) and deals the board and any cards still to come from the rest of the deck."""
    samples, target, seconds = limits
    rng = np.random.default_rng(seed)
    n = len(players)
    k = GAMES[game].board - len(known)
    deal = k + sum(extra)
    fixed = {int(c) for p in players if len(p) == 1 for c in p.hands[0].tolist()}  # the known hands' cards
    outside_bits = _bits(c for c in range(52) if c not in left or c in fixed)  # and known, dead, not in the deck
    avail = np.array(sorted(left - fixed), dtype=np.intp)  # what the board and the cards to come are dealt from
    bits = [_row_bits(p) for p in players]
    cumulative = [None if (p.weights == p.weights[0]).all() else np.cumsum(p.weights) / p.weights.sum()
                  for p in players]  # None: every hand alike, drawn uniformly
    tally = _Tally(n, unit)
    empty = 0
    start = time.monotonic()
    chunk = _CHUNK
    report(0, samples)
    while tally.done < samples:
        picks = [np.zeros(1, dtype=np.intp) if len(p) == 1 else rng.integers(0, len(p), chunk) if c is None
                 else np.minimum(np.searchsorted(c, rng.random(chunk), side="right"), len(c) - 1)
                 for p, c in zip(players, cumulative, strict=True)]
        mask = np.full(chunk, outside_bits, dtype=np.int64)
        ok = np.ones(chunk, dtype=bool)
        for b, pick in zip(bits, picks, strict=True):
            if len(b) > 1:  # a known hand shares no card with the others: checked before
                rows = b[pick]
                ok &= (mask & rows) == 0
                mask |= rows
        few = 0 < deal <= 8  # few cards to deal: draw them at random and drop the deals that repeat a card
        if few:
            drawn = avail[rng.integers(0, len(avail), (chunk, deal))]
            union = _CARD_BIT[drawn[:, 0]]
            total = union.copy()
            for j in range(1, deal):
                card = _CARD_BIT[drawn[:, j]]
                union |= card
                total += card
            ok &= (union == total) & ((union & mask) == 0)
        keep = np.flatnonzero(ok)[: samples - tally.done]
        if keep.size == 0:
            empty = _nothing_kept(empty)
            continue
        size = keep.size
        hands = [np.broadcast_to(_int_hands(p), (size, p.size)) if len(p) == 1  # a known hand: the same each deal
                 else _int_hands(p)[pick[keep]] if len(p) <= _CHUNK else p.hands[pick[keep]].astype(np.intp)
                 for p, pick in zip(players, picks, strict=True)]
        dealt = np.zeros((size, 0), dtype=np.intp)
        if few:
            dealt = drawn[keep]
        elif deal:  # many: a random order of the cards left, the first ``deal`` of it
            keys = rng.random((size, 52))
            keys[((mask[keep, None] >> np.arange(52)) & 1).astype(bool)] = 2.0
            chosen = np.argpartition(keys, deal - 1, axis=1)[:, :deal]
            order = np.argsort(np.take_along_axis(keys, chosen, axis=1), axis=1)
            dealt = np.take_along_axis(chosen, order, axis=1)
        board = np.concatenate([np.broadcast_to(np.array(known, dtype=np.intp), (size, len(known))), dealt[:, :k]],
                               axis=1)
        at = k
        holes = []
        for hand, more in zip(hands, extra, strict=True):
            holes.append(np.concatenate([hand, dealt[:, at : at + more]], axis=1) if more else hand)
            at += more
        tally.add(_values(game, board, holes, hi_lo))
        report(tally.done, samples)
        if tally.stops(target, seconds, start):
            break
    return tally.result(samples, report, base)




def _holdem_seven(keys: Int64Array, bits: Callable[[npt.NDArray[np.intp]], Int64Array]) -> Int32Array:
    """:func:`_seven_values` of seven-card keys already holding :data:`SEVEN_SUIT_OFFSET`; ``bits(rows)``
    gives the :data:`CARD_BITS` sums of the flushed rows only (a few in a hundred)."""
    low, high, values = _seven_arrays()
    index = np.take(low, keys & _SEVEN_LAYOUT[0], mode="clip")
    index += np.take(high, keys >> SEVEN_HIGH_SHIFT, mode="clip")
    out: Int32Array = np.take(values, index, mode="clip")
    flush = keys & SEVEN_FLUSH_BITS
    rows = np.flatnonzero(flush)
    if rows.size:
        suit = (np.log2(flush[rows]).astype(np.int64) - SEVEN_SUIT_SHIFT - 3) // 4
        out[rows] = FLUSH_TABLE[(bits(rows) >> (13 * suit)) & 0x1FFF]
    return out


def _sample_holdem(
    players: list[Range], listed: tuple[list[npt.NDArray[np.intp]], Int64Array], known: tuple[Card, ...],
    left: set[int], unit: int,
    limits: tuple[int, float | None, float | None], seed: int | None,
    report: Callable[[int, int], None], base: dict[str, Any],
) -> EquityResult:
    """:func:`_sample` for hold'em high, the same deals in distribution, in fewer numpy passes.

    A deal draws one of the ``listed`` matchups of the players' hands that share no card (by the product of their
    weights: as drawing each hand by weight and drawing again on a shared card) and the board cards two at
    a time, an ordered pair of the cards left (then the odd one alone), each from 16 random bits as
    ``bits * choices >> 16`` (Lemire's method: the rare bits that would favour a choice are drawn again),
    dropping a deal that repeats a card. The board's seven-card key is summed once, each player adds its
    hand's, and only the flushed rows gather their suit masks."""
    samples, target, seconds = limits
    rng = np.random.default_rng(seed)
    n = len(players)
    k = 5 - len(known)
    fixed = {int(c) for p in players if len(p) == 1 for c in p.hands[0].tolist()}
    avail = np.array(sorted(left - fixed), dtype=np.intp)
    picks, masks = listed  # the matchups sharing no card (with each other, the board or the dead cards)
    weights = np.prod([p.weights[i] for p, i in zip(players, picks, strict=True)], axis=0)
    cumulative = None if (weights == weights[0]).all() else np.cumsum(weights) / weights.sum()
    keys = [_sums(_SEVEN_KEYS, p.hands)[i] for p, i in zip(players, picks, strict=True)]
    suits = [_sums(CARD_BITS, p.hands)[i] for p, i in zip(players, picks, strict=True)]
    # the board cards two at a time (any ordered pair of two of the cards left) and the last alone:
    # per draw, the cards' seven-card key, mask and suit masks
    card = (_SEVEN_KEYS[avail], _CARD_BIT[avail], CARD_BITS[avail])
    two = ~np.eye(len(avail), dtype=bool)
    pair = tuple((t[:, None] | t if i == 1 else t[:, None] + t)[two] for i, t in enumerate(card))
    tables = [pair] * (k // 2) + [card] * (k % 2)
    known_key = int(_SEVEN_KEYS[list(known)].sum()) + SEVEN_SUIT_OFFSET
    known_suits = int(CARD_BITS[list(known)].sum())
    by_bits = cumulative is None and len(masks) <= 1 << 15  # the matchup from 16 bits too (int32 holds the product)
    rows = len(tables) + by_bits
    sizes = np.array([len(t[0]) for t in tables] + [len(masks)] * by_bits, dtype=np.int32)[:, None]
    biased = 65536 % sizes  # a row's 16 bits whose low half after the multiply is below this: drawn again
    dealt = k + 2 * n  # cards in a deal
    tally = _Tally(n, unit)
    rate = 0.7  # the share of deals kept, learnt as the chunks go
    empty = 0
    start = time.monotonic()
    report(0, samples)
    while tally.done < samples:
        chunk = min(_CHUNK, max(1024, int((samples - tally.done) / rate * 1.05) + 64))  # larger: out of cache
        bits16 = rng.bit_generator.random_raw((chunk * rows + 3) // 4).view(np.uint16)[: chunk * rows]
        drawn = bits16.reshape(rows, chunk).astype(np.int32) * sizes  # int32: half the traffic
        ok = ((drawn & 0xFFFF) >= biased).all(axis=0)
        drawn >>= 16  # each draw's row of its table (and the matchup)
        match = (drawn[-1] if by_bits else rng.integers(0, len(masks), chunk) if cumulative is None
                 else np.minimum(np.searchsorted(cumulative, rng.random(chunk), side="right"), len(masks) - 1))
        drawn = drawn[: len(tables)]
        board_key = np.full(chunk, known_key, dtype=np.int64)
        seen = masks[match]
        total = None if _POPCOUNT else seen.copy()
        for row, table in zip(drawn, tables, strict=True):
            board_key += np.take(table[0], row)
            bit = np.take(table[1], row)
            seen |= bit
            if total is not None:
                total += bit
        ok &= (_POPCOUNT(seen) == dealt) if _POPCOUNT else (seen == total)
        kept = np.flatnonzero(ok)
        rate = max(0.01, len(kept) / chunk)
        keep = kept[: samples - tally.done]
        if keep.size == 0:
            empty = _nothing_kept(empty)
            continue
        board_key = board_key[keep]
        match = match[keep]

        def flushed(rows: npt.NDArray[np.intp], suit: Int64Array, cards: npt.NDArray[np.int32] = drawn,
                    keep: npt.NDArray[np.intp] = keep, match: npt.NDArray[Any] = match) -> Int64Array:
            """The card masks (13 bits a suit) of the flushed rows: the hand's (``suit``, per matchup) and board's."""
            out: Int64Array = suit[match[rows]] + known_suits
            for row, table in zip(cards[:, keep[rows]], tables, strict=True):
                out += table[2][row]
            return out

        values: list[tuple[Int32Array, Int32Array | None]] = []
        for player, key, suit in zip(players, keys, suits, strict=True):
            full = board_key + (int(key[0]) if len(player) == 1 else np.take(key, match))  # known: one hand
            values.append((_holdem_seven(full, partial(flushed, suit=suit)), None))
        tally.add(values)
        report(tally.done, samples)
        if tally.stops(target, seconds, start):
            break
    return tally.result(samples, report, base)


class _Tally:
    """The running sums of a Monte Carlo run: per player its pot shares, their squares, wins and ties."""

    def __init__(self, n: int, unit: int) -> None:
        self.unit = unit
        self.sums = np.zeros(n, dtype=np.float64)
        self.squares = np.zeros(n, dtype=np.float64)
        self.wins = np.zeros(n, dtype=np.int64)
        self.ties = np.zeros(n, dtype=np.int64)
        self.done = 0

    def add(self, values: list[tuple[Int32Array, Int32Array | None]]) -> None:
        """Score the deals whose values (as :func:`_values` gives them) are ``values``. Heads-up for one
        pot it counts the wins, ties and losses (:func:`_heads_up`)."""
        unit, size = self.unit, len(values[0][0])
        if len(values) == 2 and values[0][1] is None and values[1][1] is None:
            first, second, tied = _heads_up(values[0][0], values[1][0])
            won = np.array([first, second], dtype=np.int64)
            self.sums += won * unit + tied * (unit // 2)
            self.squares += won + tied * 0.25
            self.wins += won
            self.ties += tied
        else:
            share = _pot_shares(values, unit)
            self.sums += share.sum(axis=1)
            self.squares += ((share / unit) ** 2).sum(axis=1)
            self.wins += (share == unit).sum(axis=1)
            self.ties += ((share > 0) & (share < unit)).sum(axis=1)
        self.done += size

    def stops(self, target: float | None, seconds: float | None, start: float) -> bool:
        """Whether every standard error is at most ``target`` or ``seconds`` have passed since ``start``."""
        return (target is not None and max(self.errors()) <= target) or (
            seconds is not None and time.monotonic() - start >= seconds)

    def errors(self) -> tuple[float, ...]:
        return _errors(self.sums / self.unit, self.squares, self.done)

    def result(self, samples: int, report: Callable[[int, int], None], base: dict[str, Any]) -> EquityResult:
        """The run's :class:`EquityResult` (``report`` told the bar is full if it stopped early)."""
        if self.done < samples:
            report(self.done, self.done)
        return EquityResult(
            **base, boards=self.done, wins=tuple(int(w) for w in self.wins), ties=tuple(int(t) for t in self.ties),
            equity=tuple(Fraction(int(x), self.unit * self.done) for x in self.sums), std_error=self.errors(),
            out_of=self.done,
        )


def _errors(totals: npt.NDArray[np.float64], squares: npt.NDArray[np.float64], n: int) -> tuple[float, ...]:
    """The standard error of each mean from the sums of the values and of their squares over ``n`` deals."""
    if n < 2:
        return (1.0,) * len(totals)
    mean = totals / n
    variance = np.maximum(squares / n - mean**2, 0.0) * n / (n - 1)
    return tuple(float(e) for e in np.sqrt(variance / n))


def _heads_up(a: Int32Array, b: Int32Array, fits: npt.NDArray[np.bool_] | None = None) -> tuple[Any, Any, Any]:
    """Heads-up for one pot, per row of the two players' values ``a`` and ``b`` (deals along the last
    axis): the deals the first wins, the second wins and they tie, among ``fits`` (every deal if None).
    :func:`_pot_shares` scores the same in more passes (a test pins it)."""
    first, second = a > b, a < b
    if fits is None:
        dealt: Any = a.shape[-1]
    else:
        first &= fits
        second &= fits
        dealt = np.count_nonzero(fits, axis=-1)
    won, lost = np.count_nonzero(first, axis=-1), np.count_nonzero(second, axis=-1)
    return won, lost, dealt - won - lost


def _pot_shares(values: list[tuple[Int32Array, Int32Array | None]], unit: int) -> Int64Array:
    """Per hand and board, its share of a pot of ``unit`` chips (``unit`` divisible by any split), from
    each hand's values and lows (as :func:`_values` gives them; lows ``None``: one pot)."""
    lows = [v[1] for v in values]
    if len(values) == 2 and lows[0] is None:  # heads-up, one pot: the common case, in fewer passes
        a, b = values[0][0], values[1][0]
        two = np.empty((2, len(a)), dtype=np.int64)
        two[0] = np.where(a > b, unit, np.where(a == b, unit // 2, 0))
        np.subtract(unit, two[0], out=two[1])
        return two
    high = np.stack([v[0] for v in values])
    best = high == high.max(axis=0)
    high_share = best * (unit // best.sum(axis=0))
    if any(low is None for low in lows):
        out: Int64Array = high_share.astype(np.int64)
        return out
    low = np.stack(lows)  # type: ignore[arg-type]
    low_best = (low == low.max(axis=0)) & (low > 0)
    n_low = low_best.sum(axis=0)
    low_share = low_best * (unit // 2 // np.maximum(n_low, 1))
    split: Int64Array = np.where(n_low > 0, high_share // 2 + low_share, high_share).astype(np.int64)
    return split


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
    ``k``-way tie ``1/k`` (the poker-AI seed's recipe, :func:`cardgame.evaluation.strength.hand_strength`).
    With ``drop_weak`` an opponent whose two cards rank below ``weakest`` (two rank characters:
    ``"66"``, ``"AJ"``; any pair ranks above every non-pair, then by high then low card, suits
    ignored) folds before the showdown.
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
    where = Situation(tuple(mine), 2, tuple(known), 5, ((),) * opponents, 2, (True,) * opponents)
    return seat_strength(HOLDEM, where, np.random.default_rng(seed), samples=samples, drop_weak=drop_weak,
                         weakest=weakest)
