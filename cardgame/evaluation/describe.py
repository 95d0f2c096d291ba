"""Readable results: :class:`HandValue` and the text and five cards of a high hand.

Descriptions name the category, then in brackets the ranks that decide the hand, most significant
first (``T`` is a ten), in the style of the Perl seed's ``Two Pair (A 7 J)``:

=================  ===========================  ===================================
category           example                      bracket holds
=================  ===========================  ===================================
High Card          ``High Card (A K Q 8 4)``    the five ranks
Pair               ``Pair (4 A J 3)``           the pair, then the three kickers
Two Pair           ``Two Pair (A 7 J)``         high pair, low pair, kicker
Three of a Kind    ``Three of a Kind (Q 9 5)``  the trips, then the two kickers
Straight           ``Straight (7)``             the top card (a wheel is ``(5)``)
Flush              ``Flush (A Q 9 7 3)``        the five ranks
Full House         ``Full House (K over 7)``    the trips over the pair
Four of a Kind     ``Four of a Kind (9 K)``     the quads, then the kicker
Straight Flush     ``Straight Flush (A)``       the top card (a royal flush is ``(A)``)
=================  ===========================  ===================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from cardgame.evaluation._tables import FLUSH, FULL_HOUSE, STRAIGHT, STRAIGHT_FLUSH
from cardgame.evaluation.high import CATEGORY_NAMES, check_cards, evaluate_high
from cardgame.model.cards import CARDS, RANKS, Card, format_cards
from cardgame.model.errors import CardError
from cardgame.model.inputs import check_int, excerpt

__all__ = ["HandValue", "describe_high", "high_description", "high_hand_value", "pick_cards"]

# How many nibbles of a high value are significant, by category.
_SIGNIFICANT = (5, 4, 3, 3, 1, 5, 2, 2, 1)
# How many cards each significant rank stands for, by category (the rest: one each).
_PATTERNS = {7: (4, 1), 6: (3, 2), 3: (3, 1, 1), 2: (2, 2, 1), 1: (2, 1, 1, 1)}


@attrs.frozen(order=True)
class HandValue:
    """An evaluated hand: compares, hashes and ties by ``value`` alone (higher is better).

    ``category`` is the category's name (``"Two Pair"``), ``description`` the full text
    (``"Two Pair (A 7 J)"``), ``cards`` the five cards used, most significant first.
    """

    value: int
    category: str = attrs.field(eq=False, order=False)
    description: str = attrs.field(eq=False, order=False)
    cards: tuple[Card, ...] = attrs.field(eq=False, order=False)

    def __str__(self) -> str:
        return self.description


def pick_cards(ranks: Iterable[int], pool: Sequence[int]) -> tuple[Card, ...]:
    """For each rank in order, take an unused card of that rank from ``pool`` (spades first).

    ``ranks`` may use 13 for an ace played low; it matches rank 12.
    """
    left = sorted(pool, reverse=True)
    out: list[Card] = []
    for r in ranks:
        r %= 13
        for i, c in enumerate(left):
            if c >> 2 == r:
                del left[i]
                out.append(CARDS[c])
                break
        else:
            raise CardError(f"No card of rank {RANKS[r]} is left to pick from {excerpt(format_cards(pool))}.")
    return tuple(out)


def _five_ranks(cat: int, nibbles: list[int], wheel_top: int) -> list[int]:
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        top = nibbles[0]
        return [top - i for i in range(4 if top == wheel_top else 5)] + [12] * (top == wheel_top)
    pattern = _PATTERNS.get(cat, (1, 1, 1, 1, 1))
    return [r for r, n in zip(nibbles, pattern, strict=False) for _ in range(n)]


def _nibbles(value: int) -> list[int]:
    return [(value >> 16) & 15, (value >> 12) & 15, (value >> 8) & 15, (value >> 4) & 15, value & 15]


def high_description(value: int) -> str:
    """The description of high ``value`` (``"Two Pair (A 7 J)"``): it depends on the value alone."""
    if type(value) is not int or not 0 <= value < len(CATEGORY_NAMES) << 20:
        value = check_int(value, "high hand value", CardError, minimum=0, maximum=(len(CATEGORY_NAMES) << 20) - 1)
    cat = value >> 20
    nibbles = _nibbles(value)
    try:
        if cat == FULL_HOUSE:
            text = f"{RANKS[nibbles[0]]} over {RANKS[nibbles[1]]}"
        else:
            text = " ".join([RANKS[r] for r in nibbles[: _SIGNIFICANT[cat]]])
    except IndexError:  # a rank nibble past the ace: no evaluator makes such a value
        raise CardError(f"{value:#x} is not a high hand value (a rank past the ace).") from None
    return f"{CATEGORY_NAMES[cat]} ({text})"


def high_hand_value(value: int, cards: Sequence[int], *, wheel_top: int = 3) -> HandValue:
    """The :class:`HandValue` of high ``value`` as made by (the best five of) ``cards``.

    ``wheel_top`` is the top rank of the straight the ace plays low in: 3 (5-4-3-2-A), or 7 in
    short deck (9-8-7-6-A).
    """
    cat = value >> 20
    pool: Sequence[int] = cards
    if cat in (FLUSH, STRAIGHT_FLUSH):
        suit = max(range(4), key=lambda s: sum(1 for c in cards if c & 3 == s))
        pool = [c for c in cards if c & 3 == suit]
    return HandValue(value, CATEGORY_NAMES[cat], high_description(value),
                     pick_cards(_five_ranks(cat, _nibbles(value), wheel_top), pool))


def describe_high(cards: Sequence[int]) -> HandValue:
    """Value, category, description and the five cards used of the best high hand in 5-7 cards."""
    check_cards(cards)
    return high_hand_value(evaluate_high(cards), cards)
