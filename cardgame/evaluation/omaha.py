"""Omaha, high and eight-or-better low: exactly two hole cards with exactly three board cards.

High: non-flush values come from the rank table over every (hole pair, board triple) of distinct
rank keys; a flush is only looked for in a suit with two hole and three board cards, so four
hearts in hand with one on the board is no flush.

Eight-or-better low: two distinct hole ranks and three distinct board ranks, all five different
and 8 or lower (ace low); ``None`` when no such five exist. Values as in :mod:`.lowball`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from typing import ClassVar

import attrs

from cardgame.evaluation._tables import CARD_KEYS, FLUSH_VALUES, RANK_MASK, pack, rank_values
from cardgame.evaluation.describe import HandValue, high_description, high_hand_value
from cardgame.evaluation.high import check_cards, evaluate_high
from cardgame.evaluation.lowball import LOW_BASE, low_hand_value
from cardgame.evaluation.protocol import CardCounts

__all__ = [
    "OMAHA_EIGHT_LOW",
    "OMAHA_HIGH",
    "OmahaEightLowEvaluator",
    "OmahaHighEvaluator",
    "check_omaha",
    "omaha_eight_low",
    "omaha_eight_low_cards",
    "omaha_high",
    "omaha_high_cards",
]

_RANK_KEY = tuple(k & RANK_MASK for k in CARD_KEYS[:52])


def check_omaha(hole: Sequence[int], board: Sequence[int]) -> None:
    """Raise ``CardError`` unless 2-6 hole and 3-5 board cards, all distinct."""
    check_cards(hole, 2, 6, "An Omaha hole")
    check_cards(board, 3, 5, "An Omaha board")
    check_cards((*hole, *board), 5, 11, "An Omaha hand")


def omaha_high(hole: Sequence[int], board: Sequence[int]) -> int:
    """High value (as :func:`evaluate_high`) of the best two-hole-plus-three-board hand."""
    check_omaha(hole, board)
    rk = _RANK_KEY
    pairs = {rk[a] + rk[b] for a, b in combinations(hole, 2)}
    triples = {rk[a] + rk[b] + rk[c] for a, b, c in combinations(board, 3)}
    table = rank_values()
    best = max([table[p + t] for p in pairs for t in triples])
    for suit in range(4):
        suited_board = [1 << (c >> 2) for c in board if c & 3 == suit]
        if len(suited_board) >= 3:
            suited_hole = [1 << (c >> 2) for c in hole if c & 3 == suit]
            if len(suited_hole) >= 2:
                flush = max(
                    FLUSH_VALUES[a | b | c | d | e]
                    for a, b in combinations(suited_hole, 2)
                    for c, d, e in combinations(suited_board, 3)
                )
                best = max(best, flush)
            break  # a board of at most five cards has three of one suit at most once
    return best


def omaha_high_cards(hole: Sequence[int], board: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The best high value and one five-card hand (two hole + three board) that makes it."""
    check_omaha(hole, board)
    return max(
        ((evaluate_high(h + b), h + b) for h, b in product(combinations(hole, 2), combinations(board, 3))),
        key=lambda vc: vc[0],
    )


@attrs.frozen
class OmahaHighEvaluator:
    """Omaha high for a 4-, 5- (or 6-) card hole: two from the hand, three from the board."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 11), hole=(2, 6), board=(3, 5))

    name: str = "omaha high"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """:func:`omaha_high`."""
        return omaha_high(hole, board)

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue:
        """The best hand's :class:`HandValue`; its cards are the two hole and three board cards."""
        value, cards = omaha_high_cards(hole, board)
        return high_hand_value(value, cards)

    def text(self, value: int) -> str:
        """:func:`~cardgame.evaluation.describe.high_description`: the text of a high value."""
        return high_description(value)


OMAHA_HIGH = OmahaHighEvaluator()


def _low_ranks(cards: Sequence[int]) -> list[int]:
    """Distinct ace-low ranks (ace 0, deuce 1 .. eight 7) of the cards 8 or lower."""
    return sorted({((c >> 2) + 1) % 13 for c in cards if c >> 2 < 7 or c >> 2 == 12})


def _card_of(cards: Sequence[int], low_rank: int) -> int:
    return max(c for c in cards if ((c >> 2) + 1) % 13 == low_rank)


def omaha_eight_low_cards(hole: Sequence[int], board: Sequence[int]) -> tuple[int, tuple[int, ...]] | None:
    """The best Omaha 8-or-better low value and its cards (two hole, three board), or ``None``."""
    check_omaha(hole, board)
    best: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None
    for pair in combinations(_low_ranks(hole), 2):
        for triple in combinations(_low_ranks(board), 3):
            five = tuple(sorted((*pair, *triple), reverse=True))
            if len(set(five)) == 5 and (best is None or five < best[0]):
                best = (five, pair, triple)
    if best is None:
        return None
    five, h, b = best
    cards = {r: _card_of(hole, r) for r in h} | {r: _card_of(board, r) for r in b}
    return LOW_BASE - pack(0, five), tuple(cards[r] for r in five)


def omaha_eight_low(hole: Sequence[int], board: Sequence[int]) -> int | None:
    """Value of the best Omaha eight-or-better low, or ``None`` if none qualifies."""
    found = omaha_eight_low_cards(hole, board)
    return None if found is None else found[0]


@attrs.frozen
class OmahaEightLowEvaluator:
    """Low half of Omaha hi/lo: two hole and three board cards, five different ranks 8 or lower."""

    #: The cards it ranks (checked when a game is built).
    cards: ClassVar[CardCounts] = CardCounts(together=(5, 11), hole=(2, 6), board=(3, 5))

    name: str = "omaha eight-or-better low"

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int | None:
        """:func:`omaha_eight_low`."""
        return omaha_eight_low(hole, board)

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue | None:
        """The qualifying low's :class:`HandValue` (cards highest first), or ``None``."""
        found = omaha_eight_low_cards(hole, board)
        return None if found is None else low_hand_value(found[0], found[1])


OMAHA_EIGHT_LOW = OmahaEightLowEvaluator()
