"""Monte-Carlo hand strength of one hand against the opponents still in it (the poker-AI seed's
recipe), for any game's deck and showdown; the one implementation behind the seed AI
(:func:`cardgame.play.strength.hand_strength`, from a bot's view) and hold'em's
:func:`cardgame.evaluation.equity.hand_strength` (from text cards).

:func:`hand_strength` deals the cards the seat cannot see at random (the opponents' hidden cards,
the rest of the board, the seat's own cards still to come), ranks every hand with the showdown's
evaluator and scores 1 for a win and ``1/k`` for a ``k``-way tie; the strength is the mean score.
Cards the seat has seen (its own, the board, up cards, its discards) are never dealt. The seed's
drop-out: an opponent that ``may_drop`` folds in the deals where its cards are weak, and cannot win
them. With two hole cards and a board (hold'em) weak is the seed's "worse than a pair of sixes"
(``weakest``); elsewhere it is a final hand in the worst ``drop_share`` of that opponent's deals.

High hands of 5 to 7 cards, ace-to-five lows of 5 to 7 and deuce-to-seven lows of five cards are
ranked in numpy batches with the library's fast tables (hold'em, stud, razz, draw games: well under
a millisecond at 1,000 deals); other games (Omaha, badugi, hi/lo, the small research games) rank
each deal with the evaluator itself, so ``samples`` should be smaller there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Protocol

import attrs
import numpy as np
import numpy.typing as npt

from cardgame.evaluation._tables import pack
from cardgame.evaluation.batch import (
    BATCH_CARD_KEYS,
    BATCH_RANK_BITS,
    CARD_BITS,
    dense_rank_table,
    high_values_from_sums,
)
from cardgame.evaluation.evaluators import HIGH, HighEvaluator
from cardgame.evaluation.lowball import (
    LOW_BASE,
    AceToFiveLowEvaluator,
    DeuceToSevenLowEvaluator,
    _ace_to_five_table,
)
from cardgame.evaluation.protocol import HandEvaluator
from cardgame.model.cards import CARDS, RANKS, Card
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt

__all__ = ["CHUNK", "HOLDEM", "MAX_SAMPLES", "Showdown", "Situation", "fast_path", "hand_strength"]

Int64Array = npt.NDArray[np.int64]
_FLUSH, _STRAIGHT, _STRAIGHT_FLUSH = 5, 4, 8
_WHEEL_27 = pack(0, [12, 3, 2, 1, 0])  # A-5-4-3-2 in deuce-to-seven: ace high, no straight
_WHEEL_27_FLUSH = pack(_FLUSH, [12, 3, 2, 1, 0])


@attrs.frozen
class Situation:
    """What one seat knows of a hand: its own cards (``mine``, of ``mine_total`` at the end), the
    board (of ``board_total``), each live opponent's up cards (of ``opponent_total``), whether
    each opponent may still drop out, and ``dead`` cards seen that no one can hold."""

    mine: tuple[Card, ...]
    mine_total: int
    board: tuple[Card, ...]
    board_total: int
    opponents: tuple[tuple[Card, ...], ...]
    opponent_total: int
    may_drop: tuple[bool, ...] = ()
    dead: tuple[Card, ...] = ()


class Showdown(Protocol):
    """What :func:`hand_strength` needs of a game: the ``deck`` it deals from and the showdown's
    ``high`` and ``low`` evaluators (``None``: that half is not played). A
    :class:`~cardgame.play.shape.GameShape` is one."""

    @property
    def deck(self) -> tuple[Card, ...]: ...

    @property
    def high(self) -> HandEvaluator | None: ...

    @property
    def low(self) -> HandEvaluator | None: ...


@attrs.frozen
class _Showdown:
    deck: tuple[Card, ...]
    high: HandEvaluator | None
    low: HandEvaluator | None


#: Hold'em's showdown: the 52-card deck, the best five-card high hand.
HOLDEM: Showdown = _Showdown(CARDS, HIGH, None)


# --- ranking many deals at once --------------------------------------------------------------------------
def _column_sums(cards: npt.NDArray[np.intp]) -> tuple[Int64Array, Int64Array]:
    """Per row: the sum of the batch card keys and of the card bits (zeros for no column)."""
    keys = np.zeros(len(cards), dtype=np.int64)
    masks = np.zeros(len(cards), dtype=np.int64)
    for j in range(cards.shape[1]):
        keys += BATCH_CARD_KEYS[cards[:, j]]
        masks += CARD_BITS[cards[:, j]]
    return keys, masks


@cache
def _a5_table(n: int) -> npt.NDArray[np.int32]:
    return dense_rank_table(_ace_to_five_table(), n)


def _high(keys: Int64Array, masks: Int64Array, n: int) -> Int64Array:
    out: Int64Array = high_values_from_sums(keys, masks, n).astype(np.int64)
    return out


def _ace_to_five(keys: Int64Array, masks: Int64Array, n: int) -> Int64Array:
    out: Int64Array = _a5_table(n)[keys & BATCH_RANK_BITS].astype(np.int64)
    return out


def _deuce_to_seven(keys: Int64Array, masks: Int64Array, n: int) -> Int64Array:
    high = _high(keys, masks, n)
    category, top = high >> 20, (high >> 16) & 15
    high = np.where((category == _STRAIGHT) & (top == 3), _WHEEL_27, high)
    high = np.where((category == _STRAIGHT_FLUSH) & (top == 3), _WHEEL_27_FLUSH, high)
    out: Int64Array = LOW_BASE - high
    return out


FastRank = Callable[[Int64Array, Int64Array, int], Int64Array]


def fast_path(shape: Showdown, cards: int) -> FastRank | None:
    """The numpy ranking of ``cards``-card hands for ``shape``'s showdown, from the sums of their
    batch card keys and card bits, or ``None`` (rank each deal with the evaluator)."""
    if shape.low is not None or shape.high is None:
        return None
    if isinstance(shape.high, HighEvaluator) and 5 <= cards <= 7 and len(shape.deck) == 52:
        return _high
    if isinstance(shape.high, AceToFiveLowEvaluator) and 5 <= cards <= 7:
        return _ace_to_five
    if isinstance(shape.high, DeuceToSevenLowEvaluator) and cards == 5:
        return _deuce_to_seven
    return None


# --- dealing -----------------------------------------------------------------------------------------------
def _deal(rest: npt.NDArray[np.intp], need: int, samples: int, gen: np.random.Generator) -> npt.NDArray[np.intp]:
    """``samples`` rows of ``need`` distinct cards from ``rest``: each shuffle of ``rest`` gives as
    many disjoint deals as it holds (each deal is uniform)."""
    if need == 0:
        return np.zeros((samples, 0), dtype=np.intp)
    per = len(rest) // need
    rows = -(-samples // per)
    order = np.argsort(gen.random((rows, len(rest)), dtype=np.float32), axis=1)[:, : per * need]
    return rest[order].reshape(rows * per, need)[:samples]


def _seed_key(a: int, b: int) -> int:
    """The seed's pre-flop order of two ranks: any pair above every non-pair, then high, then low card."""
    hi, lo = max(a, b), min(a, b)
    return (1 << 8 | hi << 4) if hi == lo else hi << 4 | lo


def hand_strength(
    shape: Showdown, where: Situation, gen: np.random.Generator, *, samples: int = 1000, drop_weak: bool = True,
    weakest: str = "66", drop_share: float = 0.5,
) -> float:
    """The seat's chance (0..1) of winning the pot against ``where.opponents``, ties shared (see
    the module). ``gen`` is the random source (seed it from the game's, ``view.rng``); deals are
    drawn in blocks of at most :data:`CHUNK`, so any ``samples`` runs in bounded memory."""
    if type(samples) is not int or not 1 <= samples <= MAX_SAMPLES:
        check_int(samples, "samples", ConfigError, minimum=1, maximum=MAX_SAMPLES)
    if not isinstance(weakest, str) or len(weakest) != 2 or any(ch.upper() not in RANKS for ch in weakest):
        raise ConfigError(f"weakest must be two ranks like '66' or 'AJ', not {excerpt(weakest)}.")
    if isinstance(drop_share, bool) or not isinstance(drop_share, int | float) or not 0 <= drop_share <= 1:
        raise ConfigError(f"drop_share is the share of an opponent's deals dropped, 0 to 1, not {excerpt(drop_share)}.")
    if not where.opponents:
        return 1.0
    known = {*where.mine, *where.board, *where.dead, *(c for up in where.opponents for c in up)}
    rest = np.array([c for c in shape.deck if c not in known], dtype=np.intp)
    my_missing = where.mine_total - len(where.mine)
    board_missing = where.board_total - len(where.board)
    missing = [where.opponent_total - len(up) for up in where.opponents]
    need = my_missing + board_missing + sum(missing)
    if need > len(rest) or min(missing) < 0 or my_missing < 0 or board_missing < 0:
        return 1.0 / (1 + len(where.opponents))  # the deck cannot be dealt out: an even share
    threshold = _seed_key(*sorted((RANKS.index(ch.upper()) for ch in weakest), reverse=True))
    scores = [_scores(shape, where, _deal(rest, need, min(CHUNK, samples - start), gen), board_missing, my_missing,
                      missing, threshold if drop_weak else None, drop_share) for start in range(0, samples, CHUNK)]
    return float(scores[0].mean()) if len(scores) == 1 else sum(float(s.sum()) for s in scores) / samples


#: The most deals :func:`hand_strength` draws at once, and the most it draws in all.
CHUNK = 1 << 16
MAX_SAMPLES = 100_000_000


def _scores(
    shape: Showdown, where: Situation, dealt: npt.NDArray[np.intp], board_missing: int, my_missing: int,
    missing: list[int], threshold: int | None, drop_share: float,
) -> npt.NDArray[np.float64]:
    """The seat's score in each of the ``dealt`` rows (the board's missing cards, the seat's, then each
    opponent's); ``threshold``: the hold'em drop-out's starting-hand key, ``None`` for no drop-out."""
    samples = len(dealt)
    total = where.mine_total + where.board_total
    rank = fast_path(shape, total)
    # each hand: (known cards, first dealt column, dealt count); the board's columns come first
    spans = [(where.mine, board_missing, my_missing)]
    at = board_missing + my_missing
    for up, n in zip(where.opponents, missing, strict=True):
        spans.append((up, at, n))
        at += n
    values: list[tuple[Int64Array, Int64Array | None]] = []
    hands: list[npt.NDArray[np.intp]] = []
    if rank is not None:
        board_keys, board_masks = _column_sums(dealt[:, :board_missing])
        known_board = [int(c) for c in where.board]
        for seen, start, n in spans:
            cards = [*seen, *known_board]
            keys, masks = _column_sums(dealt[:, start : start + n])
            keys += board_keys + int(BATCH_CARD_KEYS[cards].sum())
            masks += board_masks + int(CARD_BITS[cards].sum())
            values.append((rank(keys, masks, total), None))
            hands.append(dealt[:, start : start + n])
    else:
        board = np.concatenate([np.broadcast_to(np.array(where.board, dtype=np.intp), (samples, len(where.board))),
                                dealt[:, :board_missing]], axis=1)
        for seen, start, n in spans:
            hole = np.concatenate([np.broadcast_to(np.array(seen, dtype=np.intp), (samples, len(seen))),
                                   dealt[:, start : start + n]], axis=1)
            values.append(_slow_values(shape, hole, board))
            hands.append(hole)
    drops = where.may_drop or (False,) * len(where.opponents)
    holdem = where.opponent_total == 2 and where.board_total > 0
    out = []
    for j, (high, low) in enumerate(values):
        if j and threshold is not None and drops[j - 1]:
            if holdem:
                hole = hands[j][:, -2:] >> 2  # the two hole cards (all dealt: nothing of them is seen)
                hi, lo = hole.max(axis=1), hole.min(axis=1)
                stays = np.where(hi == lo, 1 << 8 | hi << 4, hi << 4 | lo) >= threshold
            else:
                stays = high >= np.quantile(high, drop_share)
            high = np.where(stays, high, _OUT)
            low = None if low is None else np.where(stays, low, _OUT)
        out.append((high, low))
    if out[0][1] is None:
        return _share([h for h, _ in out])
    high_share = _share([h for h, _ in out])
    lows = [lo for _, lo in out if lo is not None]
    low_share = _share(lows)
    any_low = np.max(np.stack(lows), axis=0) > _OUT
    split: npt.NDArray[np.float64] = np.where(any_low, (high_share + low_share) / 2, high_share)
    return split


_OUT = -(1 << 62)  # the value of a hand that folded or does not qualify


def _share(values: Sequence[Int64Array]) -> npt.NDArray[np.float64]:
    """Per deal, the first hand's share of a pot won by the best values (ties split)."""
    ours = values[0]
    best = np.full(len(ours), _OUT, dtype=np.int64)
    tied = np.zeros(len(ours), dtype=np.int64)
    for theirs in values[1:]:
        tied += theirs == ours
        best = np.maximum(best, theirs)
    win = (ours > best) & (ours > _OUT)
    return np.where(win, 1.0, np.where((ours == best) & (ours > _OUT), 1.0 / (1 + tied), 0.0))


def _slow_values(
    shape: Showdown, holes: npt.NDArray[np.intp], boards: npt.NDArray[np.intp]
) -> tuple[Int64Array, Int64Array | None]:
    """Rank each deal with the showdown's evaluators: high values, and low values in a split game
    (a hand that does not qualify is ``_OUT``)."""
    high = np.full(len(holes), _OUT, dtype=np.int64)
    low = np.full(len(holes), _OUT, dtype=np.int64) if shape.low is not None else None
    for i, (hole, board) in enumerate(zip(holes.tolist(), boards.tolist(), strict=True)):
        if shape.high is not None:
            v = shape.high.rank(hole, board)
            if v is not None:
                high[i] = v
        if low is not None and shape.low is not None:
            v = shape.low.rank(hole, board)
            if v is not None:
                low[i] = v
    return high, low
